// The nvJitLink loader: optional, loaded at the first link that needs it:
// DCCUDA_NVJITLINK_LIBRARY alone if given; else libnvJitLink.so.13, then .12
// (nvJitLink_130_0.dll, nvJitLink_120_0.dll), looked for where NVRTC is: first
// in the folder that holds libdccuda, then by the system's search path, then
// in the toolkit's folders ($CUDA_HOME, $CUDA_PATH, /usr/local/cuda). Without
// it dc_link falls back to the driver's cuLink where the inputs allow, and
// refuses LTO-IR with DC_ERROR_NOT_SUPPORTED naming the library.
#pragma once

#include "loader/cuda_abi/nvjitlink_abi.h"

#include <cstdint>
#include <string>

#include "dccuda.h"

namespace dc {

struct NvJitLinkApi {
#define DC_NVJITLINK_FN(name, required) PFN_##name name = nullptr;
#include "loader/nvjitlink_functions.inc"
#undef DC_NVJITLINK_FN
};

struct NvJitLinkState {
  dc_status status = DC_ERROR_NOT_SUPPORTED;
  std::string message;   // why it is not usable, what to do
  std::string path;      // what was loaded
  int32_t major = 0;     // 0 when the library cannot say (before CUDA 12.3)
  int32_t minor = 0;
};

// Loads nvJitLink once (thread-safe) and reports the outcome.
const NvJitLinkState& nvjitlink_state();

// The table; only valid once nvjitlink_state().status is DC_SUCCESS.
const NvJitLinkApi& nvjitlink_api() noexcept;

// Fails with DC_ERROR_NOT_SUPPORTED (the message names what was tried and how
// to provide the library) unless nvJitLink is usable.
const NvJitLinkApi& require_nvjitlink();

}  // namespace dc
