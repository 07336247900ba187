// The launch-trace hook (dc_set_launch_trace). launch_on_driver asks
// launch_trace_on() (one relaxed load) and only then pays for anything: the
// record of the launch for on_launch, and for on_complete two events around
// the launch, which a thread of this file waits for before it calls
// on_complete with the GPU time.
//
// Callbacks run with the thread's in-callback mark set (core/log.h), so a dc_
// call from inside them is refused; replacing the tracer waits until no
// callback runs (a shared mutex, as the log hook's).
#pragma once

#include <atomic>
#include <cstdint>

#include "dccuda.h"
#include "launch/launch_shape.h"
#include "loader/cuda_abi/driver_abi.h"
#include "module/function.h"

namespace dc {

namespace detail {
extern std::atomic<bool> g_launch_trace_on;
}

inline bool launch_trace_on() noexcept { return detail::g_launch_trace_on.load(std::memory_order_relaxed); }

// What a traced launch holds between before and after the driver's call.
struct TracedLaunch {
  CUevent start = nullptr;  // recorded before the launch when completions are wanted
  bool timed = false;
};

// Before the launch (the function's context bound): records the start event
// if completions are wanted and `stream` is not capturing.
void trace_before_launch(const Function& f, CUstream stream, TracedLaunch& t) noexcept;

// After the driver accepted the launch: tells on_launch, and queues the
// completion (end event) for the waiting thread. Never throws: a failure to
// trace loses the trace, not the launch.
void trace_after_launch(const Function& f, const LaunchShape& s, CUstream stream, TracedLaunch& t) noexcept;

// After the driver refused the launch: drops what trace_before_launch made.
void trace_abandon(TracedLaunch& t) noexcept;

// dc_set_launch_trace's work.
void set_launch_trace(dc_launch_trace_fn on_launch, dc_launch_trace_fn on_complete, void* user_data);

}  // namespace dc
