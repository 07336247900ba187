// The table behind every opaque handle. A handle is not a pointer: it encodes
// a slot index, the slot's generation and the handle type, so that a released,
// forged or mistyped handle is detected without ever being dereferenced
// (the header's "Handles" convention), and so that a handle released on one thread while another
// thread uses it stays valid until that use ends.
//
//   bits 56..63  handle type (never 0, so no handle value is 0)
//   bits 32..55  generation of the slot (24 bits; a slot that has used all
//                2^24 is retired, never reused: no handle value comes back)
//   bits  0..31  slot index
//
// Each slot has one atomic word: generation (32 bits) | open flag | pin count.
// A call pins the slot for its duration (one compare-and-swap); releasing the
// handle clears the open flag; the last unpin of a closed slot drops the
// slot's reference to the object and recycles the slot with a new generation.
#pragma once

#include <atomic>
#include <cstdint>
#include <utility>
#include <vector>

#include "core/object.h"
#include "platform/process.h"

namespace dc {

struct HandleSlot {
  std::atomic<uint64_t> state{0};
  Object* object = nullptr;
  uint32_t slot_index = 0;  // where the slot goes back to on the free list
  // Who made the handle, for the live-handle report (dc_handle_report): a
  // few words written at insert, never read on a hot path.
  uint64_t created_ns = 0;          // steady clock
  const char* created_by = "";      // the dc_ call (a static string)
  unsigned long long thread_id = 0; // the system's id of the creating thread
};

// One live handle as the report sees it (HandleTable::live_handles).
struct LiveHandle {
  uint64_t handle = 0;
  HandleType type = HandleType::Device;
  uint64_t created_ns = 0;
  const char* created_by = "";
  unsigned long long thread_id = 0;
  ObjectDescription description;
};

// The steady clock in nanoseconds, as created_ns has it.
uint64_t steady_now_ns() noexcept;

// The table's layout, here so that pin and unpin inline into every entry
// point (they are on every call's path; handle_table.cpp has the rest).
namespace handle_layout {
inline constexpr uint64_t kOpen = 1ull << 31;
inline constexpr uint64_t kPinMask = kOpen - 1;
inline constexpr uint32_t kChunkBits = 12;
inline constexpr uint32_t kChunkSize = 1u << kChunkBits;
inline constexpr uint32_t kMaxChunks = 1u << 16;  // 268 million live handles
inline constexpr uint64_t kGenerationMask = 0xFFFFFF;

struct Chunk {
  HandleSlot slots[kChunkSize];
};
extern std::atomic<Chunk*> g_chunks[kMaxChunks];

// Whether a slot in `state` holds what `handle` names: open, in the handle's generation.
inline bool names(uint64_t state, uint64_t handle) noexcept {
  return (state & kOpen) && ((state >> 32) & kGenerationMask) == ((handle >> 32) & kGenerationMask);
}

inline HandleSlot* slot_at(uint32_t index) noexcept {
  uint32_t c = index >> kChunkBits;
  if (c >= kMaxChunks) [[unlikely]]
    return nullptr;
  Chunk* chunk = g_chunks[c].load(std::memory_order_acquire);
  if (!chunk) [[unlikely]]
    return nullptr;
  return &chunk->slots[index & (kChunkSize - 1)];
}
}  // namespace handle_layout

class HandleTable {
 public:
  // Stores a new reference to `object` and returns its handle value.
  static uint64_t insert(Object* object);

  // Pins the slot named by `handle` if it is open and holds an object of
  // `type`; returns the slot (nullptr for an invalid handle).
  static HandleSlot* pin(uint64_t handle, HandleType type) noexcept {
    using namespace handle_layout;
    if ((handle >> 56) != static_cast<uint64_t>(type)) [[unlikely]]
      return nullptr;
    HandleSlot* slot = slot_at(static_cast<uint32_t>(handle));
    if (!slot) [[unlikely]]
      return nullptr;
    uint64_t state = slot->state.load(std::memory_order_relaxed);
    for (;;) {
      if (!names(state, handle)) [[unlikely]]
        return nullptr;
      if ((state & kPinMask) == kPinMask) [[unlikely]]
        return nullptr;
      if (slot->state.compare_exchange_weak(state, state + 1, std::memory_order_acquire, std::memory_order_relaxed))
          [[likely]]
        break;
    }
    // The type byte of a forged handle may name another type than the
    // object's: checked on the object itself.
    if (slot->object->type() != type) [[unlikely]] {
      unpin(slot);
      return nullptr;
    }
    return slot;
  }
  static void unpin(HandleSlot* slot) noexcept {
    using namespace handle_layout;
    uint64_t previous = slot->state.fetch_sub(1, std::memory_order_acq_rel);
    if ((previous & kPinMask) == 1 && !(previous & kOpen)) [[unlikely]]
      destroy_unpinned(slot, previous - 1);
  }

  // Whether `handle`, known to have named an object of its type (a handle
  // pinned before), names it still: its slot open, in the handle's
  // generation. No pin: the caller keeps the object alive by other means
  // (Graph::launch_again).
  static bool is_open(uint64_t handle) noexcept {
    using namespace handle_layout;
    HandleSlot* slot = slot_at(static_cast<uint32_t>(handle));
    if (!slot) [[unlikely]]
      return false;
    return names(slot->state.load(std::memory_order_relaxed), handle);
  }

  // The caller's release: closes the handle. Returns false if it was not open.
  static bool close(uint64_t handle, HandleType type) noexcept;

  static uint64_t live_count(HandleType type) noexcept;

  // Every handle open now, in slot order, each pinned while it is described
  // (so its object cannot go meanwhile). Takes the free list's lock only to
  // read how many slots exist.
  static std::vector<LiveHandle> live_handles();

 private:
  // The last unpin of a closed slot: drops the object, recycles the slot.
  static void destroy_unpinned(HandleSlot* slot, uint64_t state) noexcept;
};

// A pinned handle: the object cannot be destroyed while this lives.
template <class T>
class Pinned {
 public:
  Pinned() noexcept = default;
  Pinned(HandleSlot* slot, T* object) noexcept : slot_(slot), object_(object) {}
  Pinned(Pinned&& o) noexcept : slot_(std::exchange(o.slot_, nullptr)), object_(std::exchange(o.object_, nullptr)) {}
  Pinned& operator=(Pinned&& o) noexcept {
    if (this != &o) {
      reset();
      slot_ = std::exchange(o.slot_, nullptr);
      object_ = std::exchange(o.object_, nullptr);
    }
    return *this;
  }
  Pinned(const Pinned&) = delete;
  Pinned& operator=(const Pinned&) = delete;
  ~Pinned() { reset(); }

  T* get() const noexcept { return object_; }
  T* operator->() const noexcept { return object_; }
  T& operator*() const noexcept { return *object_; }
  explicit operator bool() const noexcept { return object_ != nullptr; }
  // A new owning reference to the object (to keep it beyond this call).
  Ref<T> share() const noexcept { return Ref<T>::share(object_); }

  void reset() noexcept {
    if (slot_) HandleTable::unpin(slot_);
    slot_ = nullptr;
    object_ = nullptr;
  }

 private:
  HandleSlot* slot_ = nullptr;
  T* object_ = nullptr;
};

// Pins `handle` as a T, or returns an empty Pinned.
template <class T>
[[gnu::always_inline]] inline Pinned<T> try_pin(const void* handle) noexcept {
  uint64_t value = reinterpret_cast<uintptr_t>(handle);
  HandleSlot* slot = HandleTable::pin(value, T::kHandleType);
  if (!slot) return {};
  return Pinned<T>(slot, static_cast<T*>(slot->object));
}

// Pins `handle` as a T, or fails with DC_ERROR_INVALID_HANDLE naming the
// argument ("dc_buffer_copy: dst is not a valid dc_buffer (released, ...)").
template <class T>
Pinned<T> pin(const void* handle, const char* argument);

// Issues a new handle for `object` (which gains a reference).
template <class Handle, class T>
Handle issue_handle(T* object) {
  return reinterpret_cast<Handle>(static_cast<uintptr_t>(HandleTable::insert(object)));
}

// Closes a handle of type T (the release functions). Does nothing in a forked
// child (core/fork_guard.h): the object and its driver objects are the
// parent's, and releasing them would take locks the parent's threads may hold.
template <class T>
void close_handle(const void* handle) noexcept {
  if (handle && !platform::forked_child()) HandleTable::close(reinterpret_cast<uintptr_t>(handle), T::kHandleType);
}

[[noreturn]] void fail_invalid_handle(const void* handle, HandleType expected, const char* argument);

// Inlined: every entry point pins its handles, and the call costs more than
// the pin (the failure is out of line).
template <class T>
[[gnu::always_inline]] inline Pinned<T> pin(const void* handle, const char* argument) {
  Pinned<T> p = try_pin<T>(handle);
  if (!p) [[unlikely]]
    fail_invalid_handle(handle, T::kHandleType, argument);
  return p;
}

}  // namespace dc
