// dccuda's own declarations of the cuFFT ABI it uses (cufft.h's names): the
// result and transform types, the plan handle, the element types and
// PFN_<name>, the function-pointer type of every cuFFT function dccuda looks
// up. The list is cufft_declarations.inc; tests/cuda_abi checks it against the
// real cufft.h (see driver_abi.h). Never include this header and cufft.h in
// one file. Uses CUstream from driver_abi.h (cufft.h's cudaStream_t is the
// same type).
#pragma once

#include <cstddef>
#include <cstdint>

#include "loader/cuda_abi/driver_abi.h"

#include "loader/cuda_abi/library_types_abi.h"  // libraryPropertyType

#include "loader/cuda_abi/declare_begin.h"
#ifdef DC_CUDA_ABI_CHECK
namespace dc_cuda_abi_ours {
#endif
#include "loader/cuda_abi/cufft_declarations.inc"
#include "loader/cuda_abi/cufft_constants.inc"
#ifdef DC_CUDA_ABI_CHECK
}  // namespace dc_cuda_abi_ours
#endif
#include "loader/cuda_abi/declare_end.h"
