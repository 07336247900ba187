// The cuFFT tests' fixture: a device, the fake cuFFT's controls (when the fake
// is loaded), and one function that runs a transform of any shape and layout
// on pseudo-random data and measures it against the CPU reference.
#pragma once

#include <dlfcn.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "dccuda.h"
#include "fft_reference.h"
#include "support/fake.h"

namespace ffttest {

// The fake cuFFT's controls, or all null when the real cuFFT is in use (the
// GPU runner starts binaries without the CTest environment).
struct FakeCufft {
  void (*reset)() = nullptr;
  void (*inject)(const char*, int, int) = nullptr;
  long (*call_count)(const char*) = nullptr;
  long (*plans_made)() = nullptr;
  long (*live_plans)() = nullptr;
  long (*bad_ranges)() = nullptr;
  explicit operator bool() const { return plans_made != nullptr; }
};

inline const FakeCufft& fake_cufft() {
  static FakeCufft f = [] {
    FakeCufft k;
    const char* path = std::getenv("DCCUDA_CUFFT_LIBRARY");
    if (!path || !std::strstr(path, "dcfake_cufft")) return k;
    void* lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!lib) return k;
    k.reset = reinterpret_cast<void (*)()>(dlsym(lib, "dcfake_cufft_reset"));
    k.inject = reinterpret_cast<void (*)(const char*, int, int)>(dlsym(lib, "dcfake_cufft_inject"));
    k.call_count = reinterpret_cast<long (*)(const char*)>(dlsym(lib, "dcfake_cufft_call_count"));
    k.plans_made = reinterpret_cast<long (*)()>(dlsym(lib, "dcfake_cufft_plans_made"));
    k.live_plans = reinterpret_cast<long (*)()>(dlsym(lib, "dcfake_cufft_live_plans"));
    k.bad_ranges = reinterpret_cast<long (*)()>(dlsym(lib, "dcfake_cufft_bad_ranges"));
    return k;
  }();
  return f;
}

#define REQUIRE_FAKE_CUFFT()                                                                   \
  do {                                                                                         \
    if (!ffttest::fake_cufft()) GTEST_SKIP() << "needs the fake cuFFT (its counters and faults)"; \
  } while (0)

// Skips where no cuFFT can be loaded at all (a GPU machine without it).
#define REQUIRE_CUFFT()                                                                            \
  do {                                                                                             \
    int32_t v_ = 0;                                                                                \
    if (dc_fft_library_version(&v_) != DC_SUCCESS) GTEST_SKIP() << "no cuFFT: " << dc_last_error_message(); \
  } while (0)

// One side's storage: logical extents m, storage extents embed, stride, dist
// (elements), real or complex of the precision. Written out here, apart from
// dccuda's own computation, so that the tests check it.
struct Layout {
  int rank = 1;
  uint64_t m[3] = {1, 1, 1};
  uint64_t embed[3] = {1, 1, 1};
  uint64_t stride = 1, dist = 0;
  uint64_t batch = 1;
  bool real = false;
  bool dbl = false;

  uint64_t index(uint64_t b, const uint64_t* x) const {
    uint64_t i = 0;
    for (int d = 0; d < rank; ++d) i = i * (d == 0 ? 1 : embed[d]) + x[d];
    return b * dist + i * stride;
  }
  uint64_t element_bytes() const { return (real ? 1 : 2) * (dbl ? 8 : 4); }
  uint64_t bytes() const {
    uint64_t last[3] = {0, 0, 0};
    for (int d = 0; d < rank; ++d) last[d] = m[d] - 1;
    return (index(batch - 1, last) + 1) * element_bytes();
  }
  uint64_t logical() const {
    uint64_t c = 1;
    for (int d = 0; d < rank; ++d) c *= m[d];
    return c;
  }
};

// The input and output layouts of `desc` (in place: the basic layout's real
// side padded to 2 * (n/2 + 1) in its last dimension).
Layout input_layout(const dc_fft_desc& desc, bool in_place);
Layout output_layout(const dc_fft_desc& desc, bool in_place);

// Logical values (batch-major, then row-major) <-> a side's bytes.
std::vector<unsigned char> pack(const Layout& l, const std::vector<cld>& values, uint64_t total_bytes);
std::vector<cld> unpack(const Layout& l, const std::vector<unsigned char>& bytes);

class FftTest : public ::testing::Test {
 protected:
  void SetUp() override {
    REQUIRE_DEVICE();
    REQUIRE_CUFFT();
    ASSERT_DC_OK(dc_device_open(0, &device_));
    if (fake_cufft()) fake_cufft().reset();
  }
  void TearDown() override { dc_device_release(device_); }

  dc_fft_plan make_plan(const dc_fft_desc& desc) {
    dc_fft_plan p = nullptr;
    EXPECT_DC_OK(dc_fft_plan_create(device_, &desc, &p));
    return p;
  }
  // Zeroed, so that a transform never reads memory nobody wrote (valgrind checks that).
  dc_buffer alloc(uint64_t bytes) {
    dc_buffer b = nullptr;
    EXPECT_DC_OK(dc_buffer_alloc(device_, bytes, 0, &b));
    std::vector<unsigned char> zeros(bytes, 0);
    if (b) EXPECT_DC_OK(dc_buffer_write(b, 0, zeros.data(), bytes));
    return b;
  }

  // Runs `desc` in `direction` on pseudo-random data (in place or not) and
  // returns the relative error against the CPU reference (-1 on a failure,
  // which the test has already reported).
  double run_against_reference(const dc_fft_desc& desc, int32_t direction, bool in_place, uint32_t seed);

  dc_device device_ = nullptr;
};

// The bound a transform of `desc` must meet: ~1e-5 * log2(n) in single
// precision, ~1e-12 * log2(n) in double (relative to the output's largest
// magnitude; cuFFT's documented accuracy is well inside both).
double error_bound(const dc_fft_desc& desc);

inline dc_fft_desc basic(int32_t rank, int32_t kind, int32_t precision, std::initializer_list<uint64_t> sizes,
                         uint64_t batch = 1) {
  dc_fft_desc d = DC_FFT_DESC_INIT;
  d.rank = rank;
  d.kind = kind;
  d.precision = precision;
  int i = 0;
  for (uint64_t s : sizes) d.sizes[i++] = s;
  d.batch = batch;
  return d;
}

}  // namespace ffttest
