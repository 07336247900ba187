#include "libs/blas/blas_reference.h"

#include <cmath>
#include <cstring>

namespace blastest {

uint16_t to_half(float f) {
  // Through the bits: rebias the exponent, round the 13 dropped mantissa
  // bits to nearest even; subnormals by scaling.
  uint32_t x;
  std::memcpy(&x, &f, 4);
  uint16_t sign = static_cast<uint16_t>((x >> 16) & 0x8000);
  uint32_t abs = x & 0x7fffffff;
  if (abs > 0x7f800000) return sign | 0x7e00;             // NaN
  if (abs >= 0x477ff000) return sign | 0x7c00;            // rounds to >= 65520: infinity
  if (abs < 0x38800000) {                                 // below 2^-14: subnormal half
    float a;
    std::memcpy(&a, &abs, 4);
    return sign | static_cast<uint16_t>(std::nearbyint(a * 16777216.0f));
  }
  uint32_t rounded = abs + 0xfff + ((abs >> 13) & 1);
  return sign | static_cast<uint16_t>((rounded - 0x38000000) >> 13);
}

float from_half(uint16_t h) {
  int exp = (h >> 10) & 0x1f, man = h & 0x3ff;
  float v = exp == 0 ? std::ldexp(static_cast<float>(man), -24)
            : exp == 31 ? (man ? NAN : INFINITY)
                        : std::ldexp(static_cast<float>(man + 1024), exp - 25);
  return (h & 0x8000) ? -v : v;
}

uint16_t to_bf16(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  if ((x & 0x7fffffff) > 0x7f800000) return static_cast<uint16_t>((x >> 16) | 0x40);
  return static_cast<uint16_t>((x + 0x7fff + ((x >> 16) & 1)) >> 16);
}

float from_bf16(uint16_t b) {
  uint32_t x = uint32_t(b) << 16;
  float f;
  std::memcpy(&f, &x, 4);
  return f;
}

void reference_gemm(bool ta, bool tb, int64_t m, int64_t n, int64_t k, double alpha, const double* a, int64_t lda,
                    const double* b, int64_t ldb, double beta, double* c, int64_t ldc) {
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < m; ++i) {
      double s = 0;
      for (int64_t p = 0; p < k; ++p) s += (ta ? a[p + i * lda] : a[i + p * lda]) * (tb ? b[j + p * ldb] : b[p + j * ldb]);
      c[i + j * ldc] = alpha * s + (beta == 0 ? 0 : beta * c[i + j * ldc]);
    }
}

double max_relative_error(const double* got, const double* want, size_t n) {
  double worst = 0;
  for (size_t i = 0; i < n; ++i) {
    double e = std::fabs(got[i] - want[i]) / std::fmax(1.0, std::fabs(want[i]));
    if (!(e <= worst)) worst = e;  // NaN counts as the worst
  }
  return worst;
}

}  // namespace blastest
