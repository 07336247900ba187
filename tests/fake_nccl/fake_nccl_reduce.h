// The fake NCCL's CPU arithmetic: element-wise reductions of every NCCL
// datatype (half and bfloat16 through float, rounded to nearest even).
#pragma once

#include <cstddef>

#include "loader/cuda_abi/nccl_abi.h"

namespace fake_nccl {

size_t type_size(ncclDataType_t type);
// dst[i] = dst[i] op src[i], for `count` elements.
void accumulate(void* dst, const void* src, size_t count, ncclDataType_t type, ncclRedOp_t op);
// dst[i] /= divisor (ncclAvg's last step; integers divide as integers).
void divide(void* dst, size_t count, ncclDataType_t type, int divisor);

}  // namespace fake_nccl
