// CPU references for the dc_blas tests (fake and GPU): column-major GEMM and
// GEMV in double, and the F16/BF16 encodings, written independently of the
// fake cuBLAS so that the two cannot share a mistake.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace blastest {

// IEEE half and bfloat16, round to nearest even, and back.
uint16_t to_half(float f);
float from_half(uint16_t h);
uint16_t to_bf16(float f);
float from_bf16(uint16_t b);

// C (m x n, ldc) = alpha * op(A) * op(B) + beta * C for one batch, in double;
// A, B, C as doubles (already the values of their stored type).
void reference_gemm(bool ta, bool tb, int64_t m, int64_t n, int64_t k, double alpha, const double* a, int64_t lda,
                    const double* b, int64_t ldb, double beta, double* c, int64_t ldc);

// Largest |got - want| / max(1, |want|) over n values.
double max_relative_error(const double* got, const double* want, size_t n);

}  // namespace blastest
