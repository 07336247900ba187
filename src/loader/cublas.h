// The cuBLAS loader: optional, loaded at the first dc_blas call that needs
// it: DCCUDA_CUBLAS_LIBRARY alone if given; else libcublas.so.13, then .12
// (cublas64_13.dll, cublas64_12.dll), looked for as NVRTC is: first in the
// folder that holds libdccuda, then by the system's search path, then in the
// toolkit's folders ($CUDA_HOME, $CUDA_PATH, /usr/local/cuda). Every entry
// point is resolved by its versioned name (cublasCreate_v2, cublasGemmEx_64);
// one the library lacks fails only the calls that need it, with
// DC_ERROR_NOT_SUPPORTED naming the function, the library and the version
// that has it (require_cublas_fn).
#pragma once

#include "loader/cuda_abi/cublas_abi.h"

#include <cstdint>
#include <string>
#include <vector>

#include "dccuda.h"

namespace dc {

struct CublasApi {
#define DC_CUBLAS_FN(name, since) PFN_##name name = nullptr;
#include "loader/cublas_functions.inc"
#undef DC_CUBLAS_FN
};

struct CublasState {
  dc_status status = DC_ERROR_NOT_SUPPORTED;
  std::string message;   // why it is not usable, what to do
  std::string path;      // what was loaded
  int32_t version = 0;   // major * 10000 + minor * 100 + patch (cublasGetProperty), e.g. 130100
  std::string missing;   // the entry points the library lacks, comma-separated
};

// Loads cuBLAS once (thread-safe) and reports the outcome.
const CublasState& cublas_state();

// The table, unchecked, for release paths (only valid once cublas_state()
// is DC_SUCCESS, which any handle to release implies).
const CublasApi& cublas_api_unchecked() noexcept;

// Fails with DC_ERROR_NOT_SUPPORTED (the message names what was tried and how
// to provide the library) unless cuBLAS is loaded.
const CublasApi& require_cublas();

// Fails with DC_ERROR_NOT_SUPPORTED unless the loaded cuBLAS has `fn` (a
// member of the table): "<path> (cuBLAS 11.4.0) lacks cublasGemmEx_64, which
// cuBLAS 12.0 and later export; ...".
void require_cublas_fn(const void* fn, const char* name, const char* since);
#define DC_REQUIRE_CUBLAS_FN(api, name, since) ::dc::require_cublas_fn(reinterpret_cast<const void*>((api).name), #name, since)

// The library's file names, newest first.
std::vector<std::string> cublas_file_names();

// "CUBLAS_STATUS_INVALID_VALUE" (or "cuBLAS status 42").
std::string cublas_status_name(int status);

}  // namespace dc
