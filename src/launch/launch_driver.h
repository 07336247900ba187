// The one driver call of a launch: cuLaunchKernel, or cuLaunchKernelEx when
// the shape needs attributes (cooperative, clusters, priority, programmatic
// serialisation). A refusal is explained with numbers (explain_launch_failure).
#pragma once

#include "loader/cuda_abi/driver_abi.h"

#include "launch/launch_shape.h"
#include "launch/launch_trace.h"
#include "loader/driver.h"
#include "module/function.h"

namespace dc {

// Raises the failure of a launch the driver refused: sticky errors mark the
// device lost (DC_ERROR_CONTEXT_LOST); too many threads for the kernel's
// registers, a cooperative grid that does not fit, a bad cluster are
// DC_ERROR_LAUNCH_FAILED with the kernel's and the device's numbers. The
// function's context must still be bound (the explanation asks the driver).
[[noreturn]] void explain_launch_failure(CUresult result, const Function& f, const LaunchShape& shape,
                                         const char* entry);

// Launches `f` with `shape` on `stream`; `attributes` is null for a plain
// launch. The function's context must be bound.
inline void launch_on_driver(const Function& f, const LaunchShape& s, const LaunchAttributes* attributes,
                             CUstream stream, void** params, void** extra) {
  const DriverApi& api = driver_api();
  // The launch-trace hook (launch/launch_trace.h): one relaxed load when unset.
  TracedLaunch traced;
  const bool trace = launch_trace_on();
  if (trace) [[unlikely]]
    trace_before_launch(f, stream, traced);
  CUresult r;
  if (!attributes) [[likely]] {
    r = api.cuLaunchKernel(f.cu_function(), s.grid[0], s.grid[1], s.grid[2], s.block[0], s.block[1], s.block[2],
                           s.shared, stream, params, extra);
  } else {
    CUlaunchConfig c;
    c.gridDimX = s.grid[0];
    c.gridDimY = s.grid[1];
    c.gridDimZ = s.grid[2];
    c.blockDimX = s.block[0];
    c.blockDimY = s.block[1];
    c.blockDimZ = s.block[2];
    c.sharedMemBytes = s.shared;
    c.hStream = stream;
    c.attrs = const_cast<CUlaunchAttribute*>(attributes->attrs);
    c.numAttrs = attributes->count;
    r = api.cuLaunchKernelEx(&c, f.cu_function(), params, extra);
  }
  if (r != CUDA_SUCCESS) [[unlikely]] {
    if (trace) trace_abandon(traced);
    explain_launch_failure(r, f, s, attributes ? "cuLaunchKernelEx" : "cuLaunchKernel");
  }
  if (trace) [[unlikely]]
    trace_after_launch(f, s, stream, traced);
}

// The kernel's own thread limit (registers, __launch_bounds__) and the
// cooperative grid limit, checked ahead of the driver where a launch is
// prepared once and enqueued many times. The context must be bound.
void check_kernel_resources(const Function& f, const LaunchShape& shape);

}  // namespace dc
