// dccuda's own declarations of the NVRTC ABI it uses (nvrtc.h's names): the
// result codes, the program handle, and PFN_<name>, the function-pointer type
// of every NVRTC function dccuda looks up. The list is nvrtc_declarations.inc;
// tests/cuda_abi checks it against the real nvrtc.h (see driver_abi.h). Never
// include this header and nvrtc.h in one file.
#pragma once

#include <cstddef>
#include <cstdint>

#include "loader/cuda_abi/declare_begin.h"
#ifdef DC_CUDA_ABI_CHECK
namespace dc_cuda_abi_ours {
#endif
#include "loader/cuda_abi/nvrtc_declarations.inc"
#ifdef DC_CUDA_ABI_CHECK
}  // namespace dc_cuda_abi_ours
#endif
#include "loader/cuda_abi/declare_end.h"
