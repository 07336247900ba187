// dc_blas_gemm: the descriptor checked field by field, then one
// cublasGemmEx_64 (or cublasGemmStridedBatchedEx_64 for batch_count > 1).
#pragma once

#include "dccuda.h"
#include "libs/blas/blas_handle.h"

namespace dc {

// Checks `desc` (struct_size already checked) and enqueues the GEMM on the
// handle's stream. The handle's mutex is held and its context bound.
void blas_gemm(Blas& blas, const dc_blas_gemm_desc& desc);

}  // namespace dc
