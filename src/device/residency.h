// Resident (persistent) kernels running on a device, and the work that must
// wait for them without blocking (dccuda.h, DC_LAUNCH_PERSISTENT).
//
// A kernel launched with DC_LAUNCH_PERSISTENT does not end until it is told
// to, so nothing in dccuda may wait for its stream or for the whole device
// while it runs: such a wait would never return (in .NET, a finalizer thread
// releasing a buffer would stall for ever). The launch records an event after
// the kernel and registers it here; a kernel counts as running until its
// event has completed (asked with cuEventQuery, never waited for).
//   - Device-wide waits (graph/device_wait.h) ask running() first and refuse,
//     naming the kernel.
//   - A release that would wait for a stream with a running resident kernel
//     hands its free to defer() instead; it runs once the kernel has ended,
//     at the next call that looks here (prune()).
#pragma once

#include "loader/cuda_abi/driver_abi.h"

#include <atomic>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

namespace dc {

class Residency {
 public:
  Residency() = default;
  Residency(const Residency&) = delete;
  Residency& operator=(const Residency&) = delete;
  // Kernels still running (and their deferred frees) are left alone: their
  // memory is leaked rather than freed under a running kernel.
  ~Residency() = default;

  // A persistent kernel was launched on `stream`; `done` (owned from now on)
  // was recorded right after it. The device's context is current.
  void add(std::string kernel, CUstream stream, CUevent done);

  // Drops the kernels that have ended and runs the frees that waited for
  // them. The device's context is current. Cheap when nothing was launched
  // persistent (one relaxed load).
  void prune() noexcept;

  // Whether a resident kernel still runs on the device (after prune());
  // *kernel gets its name. The device's context is current.
  bool running(std::string* kernel = nullptr) noexcept;

  // If a resident kernel still runs on `stream`, keeps `free` to run once it
  // has ended and returns true; otherwise returns false (the caller frees now).
  // The device's context is current.
  bool defer(CUstream stream, std::function<void()> free) noexcept;

  // Frees waiting for kernels (tests and diagnostics).
  size_t deferred_count() noexcept;

 private:
  struct Kernel {
    std::string name;
    CUstream stream = nullptr;
    CUevent done = nullptr;
    std::vector<std::function<void()>> deferred;
  };
  std::mutex mutex_;
  std::vector<Kernel> kernels_;
  std::atomic<bool> any_{false};
};

}  // namespace dc
