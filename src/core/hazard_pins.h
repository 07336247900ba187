// Hazard pins: how a hot entry point keeps a handle's object alive for the
// length of a call without an atomic read-modify-write (the ordinary pin of
// core/handle_table.h is a compare-and-swap in and a fetch-and-subtract out,
// about 8 ns each, paid by every call on every handle).
//
// Each thread owns a record of a few cells. To pin, the thread writes the
// slot's address into one of its cells, fences, and checks that the handle is
// still open; to unpin, it clears the cell. Whoever finds a slot closed with
// no ordinary pins left (the last release) must not destroy its object while
// a cell anywhere names the slot: it fences and scans every record first, and
// if a cell still names it, leaves the destruction to that cell's thread,
// which looks at the slot after clearing its cell (the Dekker pattern: each
// side writes, fences, then reads what the other wrote, so at least one of
// them sees the other).
//
// The fences are asymmetric where the system allows it: the pinning side's
// is a compiler-only fence, free, and the scanning side (a release, rare) runs
// a process-wide barrier (platform/process_barrier.h) that turns every other
// thread's compiler fence into a real one. Where no such barrier exists both
// sides use sequentially consistent operations (correct, and no faster than
// the ordinary pin). The choice is made once per process.
#pragma once

#include <atomic>

namespace dc::hazard {

// Cells per thread: a call pins at most this many handles this way at once.
constexpr int kCells = 4;

using Cell = std::atomic<const void*>;

// The calling thread's cell `index` (its record is made on first use and
// goes back to a free list when the thread ends). Never fails: without memory
// for a record it returns nullptr and the caller takes an ordinary pin.
Cell* cell(int index) noexcept;

// True when the asymmetric fences are in use (decided at the first call).
bool asymmetric() noexcept;

// The pinning side: publish `p` in `c`, then order that store before the
// caller's next load.
inline void publish(Cell* c, const void* p) noexcept {
  if (asymmetric()) [[likely]] {
    c->store(p, std::memory_order_relaxed);
    std::atomic_signal_fence(std::memory_order_seq_cst);
  } else {
    c->store(p, std::memory_order_seq_cst);
  }
}

// The unpinning side: clear `c` (what the call did with the object happens
// before), then order that store before the caller's next load.
inline void clear(Cell* c) noexcept {
  if (asymmetric()) [[likely]] {
    c->store(nullptr, std::memory_order_release);
    std::atomic_signal_fence(std::memory_order_seq_cst);
  } else {
    c->store(nullptr, std::memory_order_seq_cst);
  }
}

// The scanning side: after the caller's own store (closing a slot, marking
// it deferred), true if some thread's cell names `p`. Runs the process-wide
// barrier first. `unknown` is set when the barrier could not be run: the
// caller must then treat `p` as held for ever (a leak is safe; a destruction
// under a pin is not).
bool held(const void* p, bool* unknown) noexcept;

// The number of thread records made so far (tests).
int record_count() noexcept;

}  // namespace dc::hazard
