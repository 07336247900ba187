// The raw driver entry points the benchmarks compare dccuda against, taken
// from the very driver library dccuda loaded (cuGetProcAddress_v2, at the
// same versions dccuda asks for), so that both sides run against one driver.
#pragma once

#include "loader/cuda_abi/driver_abi.h"

#include <string>

namespace bench {

struct RawDriver {
  PFN_cuCtxSetCurrent_v4000 cuCtxSetCurrent = nullptr;
  PFN_cuMemAlloc_v3020 cuMemAlloc = nullptr;
  PFN_cuMemFree_v3020 cuMemFree = nullptr;
  PFN_cuMemHostAlloc_v2020 cuMemHostAlloc = nullptr;
  PFN_cuMemFreeHost_v2000 cuMemFreeHost = nullptr;
  PFN_cuMemcpyHtoD_v3020 cuMemcpyHtoD = nullptr;
  PFN_cuMemcpyDtoH_v3020 cuMemcpyDtoH = nullptr;
  PFN_cuMemcpyDtoD_v3020 cuMemcpyDtoD = nullptr;
  PFN_cuMemsetD32_v3020 cuMemsetD32 = nullptr;
  PFN_cuStreamSynchronize_v2000 cuStreamSynchronize = nullptr;
  // Launches and graphs (bench_launch).
  PFN_cuLaunchKernel_v4000 cuLaunchKernel = nullptr;
  PFN_cuStreamBeginCapture_v10010 cuStreamBeginCapture = nullptr;
  PFN_cuStreamEndCapture_v10000 cuStreamEndCapture = nullptr;
  PFN_cuGraphInstantiateWithFlags_v11040 cuGraphInstantiateWithFlags = nullptr;
  PFN_cuGraphLaunch_v10000 cuGraphLaunch = nullptr;
  PFN_cuGraphExecDestroy_v10000 cuGraphExecDestroy = nullptr;
  PFN_cuGraphDestroy_v10000 cuGraphDestroy = nullptr;
  // Peer copies (bench_peer).
  PFN_cuMemcpyPeer_v4000 cuMemcpyPeer = nullptr;
  // 2D copies (bench_memory).
  PFN_cuMemcpy2D_v3020 cuMemcpy2D = nullptr;
  // Stream-ordered pools (bench_memory's pooled allocation baselines).
  PFN_cuMemPoolCreate_v11020 cuMemPoolCreate = nullptr;
  PFN_cuMemPoolDestroy_v11020 cuMemPoolDestroy = nullptr;
  PFN_cuMemPoolSetAttribute_v11020 cuMemPoolSetAttribute = nullptr;
  PFN_cuMemAllocFromPoolAsync_v11020 cuMemAllocFromPoolAsync = nullptr;
  PFN_cuMemFreeAsync_v11020 cuMemFreeAsync = nullptr;
  PFN_cuStreamCreateWithPriority_v5050 cuStreamCreateWithPriority = nullptr;
  PFN_cuStreamDestroy_v4000 cuStreamDestroy = nullptr;
};

// The driver dccuda uses, or nullptr with the reason in *why.
const RawDriver* raw_driver(std::string* why);

}  // namespace bench
