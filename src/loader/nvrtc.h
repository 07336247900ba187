// The NVRTC loader: optional, loaded at first use: DCCUDA_NVRTC_LIBRARY (or
// dc_init's) alone if given; else libnvrtc.so.13, then .12, looked for first
// in the folder that holds libdccuda, then by the system's search path, then
// under $CUDA_HOME, $CUDA_PATH and /usr/local/cuda. Without it compile calls
// fail with DC_ERROR_NO_COMPILER and everything else works.
#pragma once

#include "loader/cuda_abi/nvrtc_abi.h"

#include <cstdint>
#include <string>

#include "dccuda.h"

namespace dc {

struct NvrtcApi {
#define DC_NVRTC_FN(name, required) PFN_##name name = nullptr;
#include "loader/nvrtc_functions.inc"
#undef DC_NVRTC_FN
};

struct NvrtcState {
  dc_status status = DC_ERROR_NO_COMPILER;
  std::string message;   // why it is not usable, what to do
  std::string path;      // what was loaded
  int32_t major = 0;
  int32_t minor = 0;
};

// Loads NVRTC once (thread-safe) and reports the outcome.
const NvrtcState& nvrtc_state();

// The table; only valid once nvrtc_state().status is DC_SUCCESS.
const NvrtcApi& nvrtc_api() noexcept;

// The file (absolute, links resolved) NVRTC was loaded from, if an earlier
// call loaded it; "" otherwise. Never loads NVRTC: for finding the toolkit
// NVRTC belongs to without paying for loading it (compile/toolkit.h).
std::string nvrtc_loaded_file();

// Fails with DC_ERROR_NO_COMPILER unless NVRTC is usable.
const NvrtcApi& require_nvrtc();

}  // namespace dc
