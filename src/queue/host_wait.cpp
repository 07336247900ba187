#include "queue/host_wait.h"

#include <thread>

#include "core/error.h"
#include "dccuda.h"

namespace dc {
namespace {

// Polls between two clock reads: reading the clock costs about as much as a
// poll of host memory, so it is not read on every spin.
constexpr uint64_t kPollsPerClock = 64;
// DC_WAIT_SPIN_YIELD spins this long before it yields.
constexpr uint64_t kSpinPolls = 4096;
// DC_WAIT_BLOCK: polls before the first sleep, and the longest sleep.
constexpr uint64_t kBlockSpinPolls = 256;
constexpr uint32_t kMaxSleepNs = 200000;

inline void cpu_relax() noexcept {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

}  // namespace

void require_wait_strategy(int32_t wait, const char* name) {
  if (wait != DC_WAIT_SPIN && wait != DC_WAIT_SPIN_YIELD && wait != DC_WAIT_BLOCK) [[unlikely]]
    fail(DC_ERROR_INVALID_ARGUMENT, "%s is %d; use DC_WAIT_SPIN (1), DC_WAIT_SPIN_YIELD (2) or DC_WAIT_BLOCK (3)",
         name, wait);
}

HostWait::HostWait(int32_t strategy, uint64_t timeout_us) noexcept
    : strategy_(strategy), timeout_us_(timeout_us), start_(std::chrono::steady_clock::now()) {}

uint64_t HostWait::elapsed_us() const noexcept {
  auto d = std::chrono::steady_clock::now() - start_;
  return static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::microseconds>(d).count());
}

bool HostWait::pause() noexcept {
  ++polls_;
  bool sleeping = strategy_ == DC_WAIT_BLOCK && polls_ > kBlockSpinPolls;
  // A sleeping wait reads the clock every time: each pause is long already.
  if ((sleeping || polls_ % kPollsPerClock == 0) && timeout_us_ != UINT64_MAX && elapsed_us() >= timeout_us_)
    return false;
  if (sleeping) {
    std::this_thread::sleep_for(std::chrono::nanoseconds(sleep_ns_));
    if (sleep_ns_ < kMaxSleepNs) sleep_ns_ = sleep_ns_ * 2 > kMaxSleepNs ? kMaxSleepNs : sleep_ns_ * 2;
  } else if (strategy_ == DC_WAIT_SPIN_YIELD && polls_ > kSpinPolls) {
    std::this_thread::yield();
  } else {
    cpu_relax();
  }
  return true;
}

}  // namespace dc
