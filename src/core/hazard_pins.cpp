#include "core/hazard_pins.h"

#include <new>

#include "platform/process_barrier.h"
#include "platform/thread_exit.h"

namespace dc::hazard {
namespace {

struct Record {
  Cell cells[kCells] = {};
  std::atomic<bool> in_use{true};
  Record* next = nullptr;  // fixed once the record is on the list
};

// Records are never freed: a scan may walk the list at any time. A thread's
// record goes back for reuse when the thread ends (its cells are all clear
// then: every pin ends within the call that took it).
std::atomic<Record*> g_records{nullptr};
std::atomic<int> g_record_count{0};

// 0: not decided yet, 1: asymmetric, 2: symmetric.
std::atomic<int> g_mode{0};

// The thread's record, in trivially destructible thread-local storage (the
// slot of platform/thread_exit.h gives it back when the thread ends).
thread_local Record* t_record = nullptr;

void give_back(void* record) {
  static_cast<Record*>(record)->in_use.store(false, std::memory_order_release);
  t_record = nullptr;
}

[[gnu::noinline]] Record* make_record() noexcept {
  Record* r = nullptr;
  for (Record* p = g_records.load(std::memory_order_acquire); p; p = p->next) {
    bool free = false;
    if (!p->in_use.load(std::memory_order_relaxed) &&
        p->in_use.compare_exchange_strong(free, true, std::memory_order_acquire)) {
      r = p;
      break;
    }
  }
  if (!r) {
    r = new (std::nothrow) Record;
    if (!r) return nullptr;
    Record* head = g_records.load(std::memory_order_relaxed);
    do {
      r->next = head;
    } while (!g_records.compare_exchange_weak(head, r, std::memory_order_release, std::memory_order_relaxed));
    g_record_count.fetch_add(1, std::memory_order_relaxed);
  }
  // Without a thread-exit slot the record stays this thread's for ever
  // (a few dozen bytes per thread, nothing worse).
  static const platform::ThreadExitSlot at_exit(give_back);
  at_exit.arm(r);
  t_record = r;
  return r;
}

[[gnu::noinline]] bool decide_mode() noexcept {
  int mode = platform::process_barrier_available() ? 1 : 2;
  int expected = 0;
  g_mode.compare_exchange_strong(expected, mode, std::memory_order_acq_rel);
  return g_mode.load(std::memory_order_acquire) == 1;
}

}  // namespace

bool asymmetric() noexcept {
  int mode = g_mode.load(std::memory_order_relaxed);
  if (mode == 0) [[unlikely]]
    return decide_mode();
  return mode == 1;
}

Cell* cell(int index) noexcept {
  Record* r = t_record;
  if (!r) [[unlikely]] {
    asymmetric();  // decided before the first cell is handed out
    r = make_record();
    if (!r) return nullptr;
  }
  return &r->cells[index];
}

bool held(const void* p, bool* unknown) noexcept {
  *unknown = false;
  if (asymmetric()) {
    if (!platform::process_barrier()) {
      *unknown = true;
      return true;
    }
  } else {
    std::atomic_thread_fence(std::memory_order_seq_cst);
  }
  for (Record* r = g_records.load(std::memory_order_acquire); r; r = r->next)
    for (const Cell& c : r->cells)
      if (c.load(std::memory_order_seq_cst) == p) return true;
  return false;
}

int record_count() noexcept { return g_record_count.load(std::memory_order_relaxed); }

}  // namespace dc::hazard
