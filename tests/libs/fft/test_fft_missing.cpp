// Without cuFFT (DCCUDA_CUFFT_LIBRARY names a file that is not there): every
// dc_fft_ call that needs it is refused with the loader's message, which
// names the library, what was tried and how to provide it.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <string>

#include "dccuda.h"
#include "support/fake.h"

namespace {

#define REQUIRE_NO_CUFFT()                                                                        \
  do {                                                                                            \
    const char* v_ = std::getenv("DCCUDA_CUFFT_LIBRARY");                                         \
    if (!v_ || !std::strstr(v_, "/nonexistent/")) GTEST_SKIP() << "runs with DCCUDA_CUFFT_LIBRARY=/nonexistent/..."; \
  } while (0)

TEST(FftMissing, TheVersionSaysWhatWasTriedAndWhatToDo) {
  REQUIRE_NO_CUFFT();
  int32_t v = 7;
  EXPECT_DC_ERROR(dc_fft_library_version(&v), DC_ERROR_NOT_SUPPORTED,
                  "cuFFT is not available (tried /nonexistent/libcufft.so.12)");
  std::string m = dc_last_error_message();
  EXPECT_NE(m.find("DCCUDA_CUFFT_LIBRARY"), std::string::npos) << m;
  EXPECT_NE(m.find("cuFFT 11 or 12 is needed"), std::string::npos) << m;
  EXPECT_EQ(v, 0);
}

TEST(FftMissing, PlansAreRefusedNamingTheLibrary) {
  REQUIRE_NO_CUFFT();
  REQUIRE_DEVICE();
  dc_device d = nullptr;
  ASSERT_DC_OK(dc_device_open(0, &d));
  dc_fft_desc desc = DC_FFT_DESC_INIT;
  desc.sizes[0] = 64;
  dc_fft_plan p = nullptr;
  EXPECT_DC_ERROR(dc_fft_plan_create(d, &desc, &p), DC_ERROR_NOT_SUPPORTED, "dc_fft_plan_create: cuFFT is not available");
  EXPECT_EQ(p, nullptr);
  // A bad descriptor is still named first: the arguments are checked before the library is looked for.
  desc.rank = 0;
  EXPECT_DC_ERROR(dc_fft_plan_create(d, &desc, &p), DC_ERROR_INVALID_ARGUMENT, "desc->rank is 0");
  dc_device_release(d);
}

}  // namespace
