#include "fft_reference.h"

#include <algorithm>
#include <cmath>

namespace ffttest {

std::vector<cld> reference_dft(const std::vector<cld>& x, const uint64_t* n, int rank, int sign) {
  const long double pi = 3.141592653589793238462643383279502884L;
  size_t total = x.size();
  std::vector<cld> out(total);
  for (size_t k = 0; k < total; ++k) {
    uint64_t kk[3] = {0, 0, 0};
    size_t r = k;
    for (int d = rank - 1; d >= 0; --d) {
      kk[d] = r % n[d];
      r /= n[d];
    }
    cld sum = 0;
    for (size_t j = 0; j < total; ++j) {
      uint64_t jj[3] = {0, 0, 0};
      size_t q = j;
      for (int d = rank - 1; d >= 0; --d) {
        jj[d] = q % n[d];
        q /= n[d];
      }
      long double phase = 0;
      for (int d = 0; d < rank; ++d) phase += static_cast<long double>((jj[d] * kk[d]) % n[d]) / n[d];
      sum += x[j] * std::polar(1.0L, sign * 2 * pi * phase);
    }
    out[k] = sum;
  }
  return out;
}

double relative_error(const std::vector<cld>& a, const std::vector<cld>& b) {
  long double worst = 0, scale = 0;
  for (size_t i = 0; i < b.size(); ++i) {
    worst = std::max(worst, std::abs(a[i] - b[i]));
    scale = std::max(scale, std::abs(b[i]));
  }
  return scale == 0 ? static_cast<double>(worst) : static_cast<double>(worst / scale);
}

std::vector<double> random_values(size_t count, uint32_t seed) {
  std::vector<double> v(count);
  uint64_t s = 0x9e3779b97f4a7c15ull ^ seed;
  for (double& x : v) {
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    x = static_cast<double>(s >> 11) / static_cast<double>(1ull << 53) * 2.0 - 1.0;
  }
  return v;
}

}  // namespace ffttest
