// A CPU reference for the cuFFT tests: the multidimensional DFT written from
// its definition (one sum over every index, in long double), independent of
// the fake cuFFT's separable one, and helpers to run one dc_fft transform.
#pragma once

#include <complex>
#include <cstdint>
#include <vector>

#include "dccuda.h"

namespace ffttest {

using cld = std::complex<long double>;

// X[k] = sum_j x[j] exp(sign 2 pi i <j, k / n>) over a dense row-major array
// of `rank` extents n (sign -1 forward, +1 inverse).
std::vector<cld> reference_dft(const std::vector<cld>& x, const uint64_t* n, int rank, int sign);

// The largest |a - b| over the largest |b| (0 when b is all zero).
double relative_error(const std::vector<cld>& a, const std::vector<cld>& b);

// Deterministic pseudo-random values in [-1, 1).
std::vector<double> random_values(size_t count, uint32_t seed);

}  // namespace ffttest
