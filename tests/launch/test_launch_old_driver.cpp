// A CUDA 12.0 driver (fake): no cuFuncGetParamInfo, so the kernels'
// parameter layouts come from the module image; launches are checked all the
// same, and capture, instantiation and update work with 12.0's entry points.
#include <vector>

#include "launch/launch_test.h"

namespace {

using namespace launchtest;

class OldDriverLaunchTest : public LaunchTest {
 protected:
  void SetUp() override {
    LaunchTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    if (!have_nvrtc_) GTEST_SKIP() << "needs NVRTC, not found: " << dctest::nvrtc_unavailable();
    int32_t version = 0;
    ASSERT_DC_OK(dc_driver_version(&version));
    if (version >= 12040) GTEST_SKIP() << "meant for a driver older than 12.4 (this one is " << version << ")";
  }
};

TEST_F(OldDriverLaunchTest, LayoutsFromTheImageStillCheckEverySize) {
  dc_function f = kernel("saxpy");
  ASSERT_NE(f, nullptr);
  const int n = 1000;
  std::vector<float> x = random_floats(n, 81), y = random_floats(n, 82);
  dc_buffer bx = upload(x), by = upload(y);
  float a = 1.5f;
  double wide = 0;
  int count = n;
  dc_launch_config c = DC_LAUNCH_CONFIG_INIT;
  ASSERT_DC_OK(dc_launch_config_1d(f, n, 0, &c));
  dc_arg bad[] = {value_of(wide), buffer_arg(bx), buffer_arg(by), value_of(count)};
  EXPECT_DC_ERROR(dc_launch_kernel(f, &c, bad, 4, stream_), DC_ERROR_INVALID_ARGUMENT,
                  "saxpy: parameter 0 is 4 bytes, argument is 8 bytes");
  EXPECT_DC_ERROR(dc_launch_kernel(f, &c, bad, 3, stream_), DC_ERROR_INVALID_ARGUMENT, "saxpy takes 4 parameters");
  dc_arg args[] = {value_of(a), buffer_arg(bx), buffer_arg(by), value_of(count)};
  ASSERT_DC_OK(dc_launch_kernel(f, &c, args, 4, stream_));
  sync();
  std::vector<float> got = download<float>(by, n);
  for (int i = 0; i < n; ++i) ASSERT_NEAR(got[i], a * x[i] + y[i], 1e-5f) << i;
}

TEST_F(OldDriverLaunchTest, GraphsWork) {
  dc_function fill = kernel("fill_u32");
  ASSERT_NE(fill, nullptr);
  const uint64_t n = 100;
  dc_buffer b = alloc(n * 4);
  dc_launch_config c = config_1d(1, 128);
  dc_graph graphs[2] = {};
  for (uint32_t i = 0; i < 2; ++i) {
    uint32_t value = 10 + i;
    dc_arg args[] = {buffer_arg(b), value_of(value), value_of(n)};
    ASSERT_DC_OK(dc_stream_begin_capture(stream_, DC_CAPTURE_GLOBAL));
    ASSERT_DC_OK(dc_launch_kernel(fill, &c, args, 3, stream_));
    ASSERT_DC_OK(dc_stream_end_capture(stream_, &graphs[i]));
    graphs_.push_back(graphs[i]);
  }
  ASSERT_DC_OK(dc_graph_update(graphs[0], graphs[1]));
  ASSERT_DC_OK(dc_graph_launch(graphs[0], stream_));
  sync();
  EXPECT_EQ(download<uint32_t>(b, n)[n - 1], 11u);
}

}  // namespace
