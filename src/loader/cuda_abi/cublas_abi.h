// dccuda's own declarations of the cuBLAS ABI it uses (cublas_api.h's and
// library_types.h's names): the status and option enums, the data and
// compute types, the handle, and PFN_<name>, the function-pointer type of
// every cuBLAS function dccuda looks up. The list is cublas_declarations.inc;
// tests/cuda_abi checks it against the real cublas_api.h (see driver_abi.h).
// Never include this header and cublas_api.h in one file.
#pragma once

#include <cstddef>
#include <cstdint>

#include "loader/cuda_abi/driver_abi.h"  // CUstream (cuBLAS's cudaStream_t is the same struct CUstream_st*)

#include "loader/cuda_abi/library_types_abi.h"  // libraryPropertyType

#include "loader/cuda_abi/declare_begin.h"
#ifdef DC_CUDA_ABI_CHECK
namespace dc_cuda_abi_ours {
#endif
#include "loader/cuda_abi/cublas_declarations.inc"
#ifdef DC_CUDA_ABI_CHECK
}  // namespace dc_cuda_abi_ours
#endif
#include "loader/cuda_abi/declare_end.h"
