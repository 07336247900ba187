// dccuda's own declarations of the nvJitLink ABI it uses (nvJitLink.h's
// names): the result and input types, the handle, and PFN_<name>, the
// function-pointer type of every nvJitLink function dccuda looks up. The list
// is nvjitlink_declarations.inc; tests/cuda_abi checks it against the real
// nvJitLink.h (see driver_abi.h). Never include this header and nvJitLink.h
// in one file.
#pragma once

#include <cstddef>
#include <cstdint>

#include "loader/cuda_abi/declare_begin.h"
#ifdef DC_CUDA_ABI_CHECK
namespace dc_cuda_abi_ours {
#endif
#include "loader/cuda_abi/nvjitlink_declarations.inc"
#ifdef DC_CUDA_ABI_CHECK
}  // namespace dc_cuda_abi_ours
#endif
#include "loader/cuda_abi/declare_end.h"
