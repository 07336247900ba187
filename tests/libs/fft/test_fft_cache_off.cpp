// DCCUDA_FFT_PLAN_CACHE=0: no plan is kept; every release destroys its cuFFT
// plan and every create plans anew.
#include "fft_test.h"

namespace {

using namespace ffttest;

TEST_F(FftTest, WithTheCacheOffEveryCreatePlansAnew) {
  REQUIRE_FAKE_CUFFT();
  long made = fake_cufft().plans_made(), live = fake_cufft().live_plans();
  dc_fft_desc d = basic(1, DC_FFT_R2C, DC_FFT_SINGLE, {16}, 2);
  for (int i = 0; i < 3; ++i) {
    dc_fft_plan p = make_plan(d);
    dc_fft_plan_info info = DC_FFT_PLAN_INFO_INIT;
    ASSERT_DC_OK(dc_fft_plan_info_get(p, &info));
    EXPECT_EQ(info.reused, 0);
    EXPECT_EQ(fake_cufft().live_plans(), live + 1);
    dc_fft_plan_release(p);
    EXPECT_EQ(fake_cufft().live_plans(), live);
  }
  EXPECT_EQ(fake_cufft().plans_made() - made, 3);
}

}  // namespace
