// NVTX v3 without NVTX's headers: the client side of its injection protocol.
// A profiler (Nsight Systems, or the tests' recorder) names its library in
// NVTX_INJECTION64_PATH; at the first range, mark or stream name dccuda opens
// it and calls its InitializeInjectionNvtx2 with NVTX's export-table getter,
// and the tool fills the function slots it wants (RangePushA, RangePop,
// MarkA, NameCuStreamA). With no tool the slots stay empty and every call
// costs one relaxed atomic load. In the loader layer: like the driver and
// NVML loaders it opens a library at run time and keeps a function table.
#pragma once

#include "loader/cuda_abi/driver_abi.h"

#include <atomic>
#include <string>

namespace dc {

namespace detail {
// 0: not looked at yet; 1: no tool; 2: a tool is attached.
extern std::atomic<int> g_nvtx_state;
void nvtx_initialise() noexcept;
}  // namespace detail

// Whether a profiler attached itself (loads it at the first call).
inline bool nvtx_attached() noexcept {
  int s = detail::g_nvtx_state.load(std::memory_order_acquire);
  if (s == 0) [[unlikely]] {
    detail::nvtx_initialise();
    s = detail::g_nvtx_state.load(std::memory_order_acquire);
  }
  return s == 2;
}

// The NVTX calls, each doing nothing where the tool left its slot empty.
// nvtx_range_push/pop return the nesting depth as NVTX does (-1: no tool).
int nvtx_range_push(const char* name) noexcept;
int nvtx_range_pop() noexcept;
void nvtx_mark(const char* name) noexcept;
void nvtx_name_stream(CUstream stream, const char* name) noexcept;

// What happened when the tool was loaded: its path, or why not ("" with no
// NVTX_INJECTION64_PATH).
const std::string& nvtx_tool_description() noexcept;

}  // namespace dc
