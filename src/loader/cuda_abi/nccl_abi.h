// dccuda's own declarations of the NCCL ABI it uses (nccl.h's names): the
// result, data-type and reduction enums, the communicator, the unique id and
// PFN_<name>, the function-pointer type of every NCCL function dccuda looks
// up. The list is nccl_declarations.inc; tests/cuda_abi checks it against the
// real nccl.h (see driver_abi.h). Never include this header and nccl.h in one
// file.
#pragma once

#include <cstddef>
#include <cstdint>

#include "loader/cuda_abi/driver_abi.h"

#include "loader/cuda_abi/declare_begin.h"
#ifdef DC_CUDA_ABI_CHECK
namespace dc_cuda_abi_ours {
#endif
// nccl.h: typedef struct { char internal[NCCL_UNIQUE_ID_BYTES]; } ncclUniqueId;
// (untagged, so outside the list; tests/cuda_abi checks its size and field).
inline constexpr std::size_t kNcclUniqueIdBytes = 128;
typedef struct {
  char internal[kNcclUniqueIdBytes];
} ncclUniqueId;
// Only passed as NULL (ncclCommSplit inherits the parent's configuration):
// an incomplete type is enough, and no layout of it is assumed.
typedef struct ncclConfig_v22800 ncclConfig_t;
#include "loader/cuda_abi/nccl_declarations.inc"
#ifdef DC_CUDA_ABI_CHECK
}  // namespace dc_cuda_abi_ours
#endif
#include "loader/cuda_abi/declare_end.h"
