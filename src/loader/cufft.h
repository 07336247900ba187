// The cuFFT loader: optional, loaded at the first dc_fft_ call that needs it:
// DCCUDA_CUFFT_LIBRARY alone if given; else libcufft.so.12, then .11
// (cufft64_12.dll, cufft64_11.dll), looked for where NVRTC is: first in the
// folder that holds libdccuda, then by the system's search path, then in the
// toolkit's folders ($CUDA_HOME, $CUDA_PATH, /usr/local/cuda). Without it
// every dc_fft_ call fails with DC_ERROR_NOT_SUPPORTED naming the library,
// what was tried and how to provide it.
#pragma once

#include "loader/cuda_abi/cufft_abi.h"

#include <cstdint>
#include <string>

#include "dccuda.h"

namespace dc {

struct CufftApi {
#define DC_CUFFT_FN(name, required) PFN_##name name = nullptr;
#include "loader/cufft_functions.inc"
#undef DC_CUFFT_FN
};

struct CufftState {
  dc_status status = DC_ERROR_NOT_SUPPORTED;
  std::string message;  // why it is not usable, what to do
  std::string path;     // what was loaded
  int32_t version = 0;  // cufftGetVersion: major * 1000 + minor * 100 + patch (11.2.6 -> 11206)
};

// Loads cuFFT once (thread-safe) and reports the outcome.
const CufftState& cufft_state();

// Fails with DC_ERROR_NOT_SUPPORTED (the message names what was tried and how
// to provide the library) unless cuFFT is usable; else the table.
const CufftApi& require_cufft();

// The table, without loading: only valid once cufft_state().status is DC_SUCCESS.
const CufftApi& cufft_api() noexcept;

// cufft.h's name of a cufftResult ("CUFFT_INVALID_VALUE"); "CUFFT_(unknown)".
const char* cufft_result_name(int result) noexcept;

}  // namespace dc
