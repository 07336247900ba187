// Launches with two devices: streams, buffers and graphs of the wrong device
// are refused; peer memory needs peer access; portable pinned and managed
// memory are reachable from both. Skips with fewer than two devices.
#include <vector>

#include "launch/launch_test.h"

namespace {

using namespace launchtest;

class MultiDeviceLaunchTest : public LaunchTest {
 protected:
  void SetUp() override {
    LaunchTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    if (dctest::device_count() < 2) GTEST_SKIP() << "needs two devices";
    if (!have_nvrtc_) GTEST_SKIP() << "needs NVRTC, not found: " << dctest::nvrtc_unavailable();
    ASSERT_DC_OK(dc_device_open(1, &other_));
    ASSERT_DC_OK(dc_stream_create(other_, 0, 0, &other_stream_));
    saxpy_ = kernel("saxpy");
    ASSERT_NE(saxpy_, nullptr);
  }
  void TearDown() override {
    release_all();
    if (other_stream_) dc_stream_release(other_stream_);
    if (other_) {
      dc_device_disable_peer_access(device_, other_);
      dc_device_release(other_);
    }
    LaunchTest::TearDown();
  }
  dc_buffer alloc_other(uint64_t bytes) {
    dc_buffer b = nullptr;
    EXPECT_DC_OK(dc_buffer_alloc(other_, bytes, 0, &b));
    if (b) buffers_.push_back(b);
    return b;
  }
  dc_device other_ = nullptr;
  dc_stream other_stream_ = nullptr;
  dc_function saxpy_ = nullptr;
};

TEST_F(MultiDeviceLaunchTest, StreamOfAnotherDeviceIsRefused) {
  dc_buffer b = alloc(64);
  float a = 1;
  int n = 16;
  dc_arg args[] = {value_of(a), buffer_arg(b), buffer_arg(b), value_of(n)};
  dc_launch_config c = config_1d(1, 16);
  EXPECT_DC_ERROR(dc_launch_kernel(saxpy_, &c, args, 4, other_stream_), DC_ERROR_INVALID_ARGUMENT,
                  "stream is on device 1, function is on device 0");
  dc_launch l = prepare(saxpy_, c);
  ASSERT_DC_OK(dc_launch_set_args(l, args, 4));
  EXPECT_DC_ERROR(dc_launch_enqueue(l, other_stream_), DC_ERROR_INVALID_ARGUMENT, "stream is on device 1");
  EXPECT_DC_OK(dc_launch_enqueue(l, stream_));
  sync();
}

TEST_F(MultiDeviceLaunchTest, PeerMemoryNeedsPeerAccess) {
  const int n = 256;
  std::vector<float> x = random_floats(n, 71), y = random_floats(n, 72);
  dc_buffer bx = upload(x);
  dc_buffer by = alloc_other(n * 4);
  ASSERT_DC_OK(dc_buffer_write(by, 0, y.data(), n * 4));
  float a = 4.0f;
  int count = n;
  dc_arg args[] = {value_of(a), buffer_arg(bx), buffer_arg(by), value_of(count)};
  dc_launch_config c = config_1d(1, 256);
  EXPECT_DC_ERROR(dc_launch_kernel(saxpy_, &c, args, 4, stream_), DC_ERROR_INVALID_ARGUMENT,
                  "args[2].buffer is on device 1 and saxpy runs on device 0, which has no peer access to device 1");
  dc_launch l = prepare(saxpy_, c);
  EXPECT_DC_ERROR(dc_launch_set_args(l, args, 4), DC_ERROR_INVALID_ARGUMENT, "no peer access");
  int32_t can = 0;
  ASSERT_DC_OK(dc_device_can_access_peer(device_, other_, &can));
  if (!can) GTEST_SKIP() << "these devices have no peer access";
  ASSERT_DC_OK(dc_device_enable_peer_access(device_, other_));
  ASSERT_DC_OK(dc_launch_kernel(saxpy_, &c, args, 4, stream_));
  sync();
  std::vector<float> got = download<float>(by, n);
  for (int i = 0; i < n; ++i) ASSERT_NEAR(got[i], a * x[i] + y[i], 1e-5f) << i;
}

TEST_F(MultiDeviceLaunchTest, HostMemoryOfAnotherDeviceMustBePortable) {
  const int n = 128;
  dc_buffer bx = upload(std::vector<float>(n, 1.0f));
  dc_buffer local = nullptr, portable = nullptr;
  ASSERT_DC_OK(dc_buffer_alloc_pinned(other_, n * 4, DC_ALLOC_DEVICE_MAPPED, &local));
  buffers_.push_back(local);
  ASSERT_DC_OK(dc_buffer_alloc_pinned(other_, n * 4, DC_ALLOC_DEVICE_MAPPED | DC_ALLOC_PORTABLE, &portable));
  buffers_.push_back(portable);
  float a = 1.0f;
  int count = n;
  dc_launch_config c = config_1d(1, 128);
  dc_arg args[] = {value_of(a), buffer_arg(bx), buffer_arg(local), value_of(count)};
  EXPECT_DC_ERROR(dc_launch_kernel(saxpy_, &c, args, 4, stream_), DC_ERROR_INVALID_ARGUMENT,
                  "args[2].buffer is host memory of device 1, mapped for that device's context only");
  void* host = nullptr;
  ASSERT_DC_OK(dc_buffer_host_pointer(portable, &host));
  for (int i = 0; i < n; ++i) static_cast<float*>(host)[i] = static_cast<float>(i);
  args[2] = buffer_arg(portable);
  ASSERT_DC_OK(dc_launch_kernel(saxpy_, &c, args, 4, stream_));
  sync();
  for (int i = 0; i < n; ++i) ASSERT_EQ(static_cast<float*>(host)[i], static_cast<float>(i) + 1.0f) << i;
}

TEST_F(MultiDeviceLaunchTest, GraphsStayOnTheirDevice) {
  dc_function fill = kernel("fill_u32");
  ASSERT_NE(fill, nullptr);
  const uint64_t n = 64;
  dc_buffer b = alloc(n * 4);
  uint32_t value = 1;
  dc_arg args[] = {buffer_arg(b), value_of(value), value_of(n)};
  dc_launch_config c = config_1d(1, 64);
  ASSERT_DC_OK(dc_stream_begin_capture(stream_, DC_CAPTURE_GLOBAL));
  ASSERT_DC_OK(dc_launch_kernel(fill, &c, args, 3, stream_));
  dc_graph g = nullptr;
  ASSERT_DC_OK(dc_stream_end_capture(stream_, &g));
  graphs_.push_back(g);
  EXPECT_DC_ERROR(dc_graph_launch(g, other_stream_), DC_ERROR_INVALID_ARGUMENT, "stream is on device 1, graph is on device 0");
  EXPECT_DC_ERROR(dc_graph_upload(g, other_stream_), DC_ERROR_INVALID_ARGUMENT, "stream is on device 1");
  ASSERT_DC_OK(dc_stream_begin_capture(other_stream_, DC_CAPTURE_GLOBAL));
  dc_graph g1 = nullptr;
  ASSERT_DC_OK(dc_stream_end_capture(other_stream_, &g1));
  graphs_.push_back(g1);
  EXPECT_DC_ERROR(dc_graph_update(g, g1), DC_ERROR_INVALID_ARGUMENT, "graph is on device 0 and source on device 1");
}

}  // namespace
