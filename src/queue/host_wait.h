// How a host call waits for the other side of a queue or control block
// (DC_WAIT_SPIN, DC_WAIT_SPIN_YIELD, DC_WAIT_BLOCK) until a time limit. The
// GPU cannot wake a host thread cheaply, so every strategy polls; they differ
// in what the thread does between polls.
#pragma once

#include <chrono>
#include <cstdint>

namespace dc {

// Fails with DC_ERROR_INVALID_ARGUMENT naming `name` unless `wait` is DC_WAIT_*.
void require_wait_strategy(int32_t wait, const char* name);

class HostWait {
 public:
  // timeout_us UINT64_MAX: no limit.
  HostWait(int32_t strategy, uint64_t timeout_us) noexcept;
  // Pauses once between two polls; false once the time limit has passed (the
  // caller polls one last time, then gives up).
  bool pause() noexcept;
  // Microseconds since the wait began.
  uint64_t elapsed_us() const noexcept;

 private:
  int32_t strategy_;
  uint64_t timeout_us_;
  uint64_t polls_ = 0;
  uint32_t sleep_ns_ = 1000;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace dc
