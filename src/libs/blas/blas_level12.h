// The level-1 and level-2 calls (axpy, scal, dot, nrm2, gemv) in F32 and
// F64: arguments checked, scalars taken per the handle's pointer mode, one
// cublas?..._v2_64 call.
#pragma once

#include <cstdint>

#include "dccuda.h"
#include "libs/blas/blas_handle.h"

namespace dc {

// A vector operand as the entry points take it.
struct BlasVector {
  dc_buffer buffer;
  uint64_t offset;
  int64_t inc;
};

// Scalars: host values, or a buffer in device pointer mode.
struct BlasScalars {
  double alpha = 0;
  double beta = 0;
  dc_buffer buffer = nullptr;
  uint64_t offset = 0;
};

// Each: the handle's mutex held and its context bound.
void blas_axpy(Blas& blas, int32_t type, int64_t n, const BlasScalars& s, BlasVector x, BlasVector y);
void blas_scal(Blas& blas, int32_t type, int64_t n, const BlasScalars& s, BlasVector x);
// `result`: host mode, where the value goes (required); device mode, unused.
void blas_dot(Blas& blas, int32_t type, int64_t n, BlasVector x, BlasVector y, double* result, const BlasScalars& s);
void blas_nrm2(Blas& blas, int32_t type, int64_t n, BlasVector x, double* result, const BlasScalars& s);
void blas_gemv(Blas& blas, int32_t type, int32_t trans, int64_t m, int64_t n, const BlasScalars& s, dc_buffer a,
               uint64_t a_offset, int64_t lda, BlasVector x, BlasVector y);

}  // namespace dc
