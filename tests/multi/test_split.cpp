// Work spread over every visible device: a saxpy split in one chunk per
// device, each device compiling its own kernel, copying, launching and
// reading back on its own stream, all in flight at once; then a hand-off
// from device 0 to device 1 ordered only by an event (device 1's stream
// waits on device 0's event, then copies device 0's result over peer or
// staged copy). Results are checked against a CPU reference on random data.
// Two fake devices in CI; every GPU of the machine on a GPU host.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "compile/kernel_sources.h"
#include "dccuda.h"
#include "support/fake.h"

namespace {

struct PerDevice {
  dc_device device = nullptr;
  dc_module module = nullptr;
  dc_function saxpy = nullptr;
  dc_stream stream = nullptr;
  dc_buffer x = nullptr, y = nullptr;
  size_t first = 0, count = 0;
};

std::vector<float> random_floats(size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> d(-1.0f, 1.0f);
  std::vector<float> v(n);
  for (float& f : v) f = d(rng);
  return v;
}

class SplitTest : public testing::Test {
 protected:
  void SetUp() override {
    REQUIRE_DEVICE();
    int32_t major = 0, minor = 0;
    if (dc_nvrtc_version(&major, &minor) != DC_SUCCESS)
      GTEST_SKIP() << "needs NVRTC, not found: " << dctest::nvrtc_unavailable();
    count_ = dctest::device_count();
  }
  void TearDown() override {
    for (PerDevice& p : parts_) {
      dc_buffer_release(p.x);
      dc_buffer_release(p.y);
      dc_stream_release(p.stream);
      dc_function_release(p.saxpy);
      dc_module_release(p.module);
      dc_device_release(p.device);
    }
    parts_.clear();
    EXPECT_EQ(dctest::live_handles(), 0u);
  }
  void open_all() {
    parts_.resize(static_cast<size_t>(count_));
    for (int32_t i = 0; i < count_; ++i) {
      PerDevice& p = parts_[static_cast<size_t>(i)];
      ASSERT_DC_OK(dc_device_open(i, &p.device));
      ASSERT_DC_OK(dc_module_compile_and_load(p.device, dctest::kKernels, "split.cu", nullptr, &p.module));
      ASSERT_DC_OK(dc_module_get_function(p.module, "saxpy", &p.saxpy));
      ASSERT_DC_OK(dc_stream_create(p.device, 0, 0, &p.stream));
    }
  }
  int32_t count_ = 0;
  std::vector<PerDevice> parts_;
};

TEST_F(SplitTest, SaxpySplitOverEveryDevice) {
  open_all();
  const size_t n = (size_t(1) << 22) + 12345;  // not a multiple of anything
  const float a = 1.75f;
  std::vector<float> x = random_floats(n, 1), y = random_floats(n, 2), out(n, std::nanf(""));
  size_t per = (n + parts_.size() - 1) / parts_.size();
  // Enqueue everything on every device first, then wait: the devices work at once.
  for (size_t d = 0; d < parts_.size(); ++d) {
    PerDevice& p = parts_[d];
    p.first = d * per;
    p.count = std::min(per, n - p.first);
    uint64_t bytes = p.count * sizeof(float);
    ASSERT_DC_OK(dc_buffer_alloc(p.device, bytes, 0, &p.x));
    ASSERT_DC_OK(dc_buffer_alloc(p.device, bytes, 0, &p.y));
    ASSERT_DC_OK(dc_buffer_write_async(p.x, 0, x.data() + p.first, bytes, p.stream));
    ASSERT_DC_OK(dc_buffer_write_async(p.y, 0, y.data() + p.first, bytes, p.stream));
    dc_launch_config c = DC_LAUNCH_CONFIG_INIT;
    ASSERT_DC_OK(dc_launch_config_1d(p.saxpy, p.count, 0, &c));
    int32_t elements = static_cast<int32_t>(p.count);
    dc_arg args[] = {DC_ARG_VALUE_OF(&a), DC_ARG_BUFFER_OF(p.x), DC_ARG_BUFFER_OF(p.y), DC_ARG_VALUE_OF(&elements)};
    ASSERT_DC_OK(dc_launch_kernel(p.saxpy, &c, args, 4, p.stream));
    ASSERT_DC_OK(dc_buffer_read_async(p.y, 0, out.data() + p.first, bytes, p.stream));
  }
  for (PerDevice& p : parts_) ASSERT_DC_OK(dc_stream_synchronize(p.stream));
  size_t wrong = 0;
  for (size_t i = 0; i < n; ++i)
    if (!(std::fabs(out[i] - (a * x[i] + y[i])) <= 1e-5f * (1.0f + std::fabs(a * x[i] + y[i])))) ++wrong;
  EXPECT_EQ(wrong, 0u) << "of " << n << " elements over " << parts_.size() << " device(s)";
  std::printf("[ dccuda   ] saxpy of %zu elements split over %zu device(s)\n", n, parts_.size());
}

TEST_F(SplitTest, HandOffBetweenDevicesOrderedByAnEvent) {
  if (count_ < 2) GTEST_SKIP() << "needs two devices";
  open_all();
  PerDevice& a = parts_[0];
  PerDevice& b = parts_[1];
  const size_t n = 1 << 20;
  const uint64_t bytes = n * sizeof(float);
  std::vector<float> x = random_floats(n, 3), y = random_floats(n, 4), out(n, std::nanf(""));
  const float k = -0.5f;
  ASSERT_DC_OK(dc_buffer_alloc(a.device, bytes, 0, &a.x));
  ASSERT_DC_OK(dc_buffer_alloc(a.device, bytes, 0, &a.y));
  ASSERT_DC_OK(dc_buffer_alloc(b.device, bytes, 0, &b.y));
  ASSERT_DC_OK(dc_buffer_write(a.x, 0, x.data(), bytes));
  ASSERT_DC_OK(dc_buffer_write(a.y, 0, y.data(), bytes));
  // Device 0 computes; device 1's stream waits on device 0's event and pulls
  // the result across, with no host synchronisation in between.
  dc_launch_config c = DC_LAUNCH_CONFIG_INIT;
  ASSERT_DC_OK(dc_launch_config_1d(a.saxpy, n, 0, &c));
  int32_t elements = static_cast<int32_t>(n);
  dc_arg args[] = {DC_ARG_VALUE_OF(&k), DC_ARG_BUFFER_OF(a.x), DC_ARG_BUFFER_OF(a.y), DC_ARG_VALUE_OF(&elements)};
  ASSERT_DC_OK(dc_launch_kernel(a.saxpy, &c, args, 4, a.stream));
  dc_event done = nullptr;
  ASSERT_DC_OK(dc_event_create(a.device, DC_EVENT_DISABLE_TIMING, &done));
  ASSERT_DC_OK(dc_event_record(done, a.stream));
  ASSERT_DC_OK(dc_stream_wait_event(b.stream, done));
  ASSERT_DC_OK(dc_buffer_copy_async(b.y, 0, a.y, 0, bytes, b.stream));
  ASSERT_DC_OK(dc_buffer_read_async(b.y, 0, out.data(), bytes, b.stream));
  ASSERT_DC_OK(dc_stream_synchronize(b.stream));
  int32_t path = 0;
  ASSERT_DC_OK(dc_buffer_copy_path(b.y, a.y, &path));
  size_t wrong = 0;
  for (size_t i = 0; i < n; ++i)
    if (!(std::fabs(out[i] - (k * x[i] + y[i])) <= 1e-5f * (1.0f + std::fabs(k * x[i] + y[i])))) ++wrong;
  EXPECT_EQ(wrong, 0u);
  std::printf("[ dccuda   ] hand-off device 0 -> 1 by event, copy path %s\n",
              path == DC_COPY_PATH_PEER ? "peer" : path == DC_COPY_PATH_STAGED ? "staged" : "other");
  dc_event_release(done);
}

TEST_F(SplitTest, PeerAccessLetsAKernelReadAnotherDevicesPoolMemory) {
  if (count_ < 2) GTEST_SKIP() << "needs two devices";
  open_all();
  int32_t can = 0;
  ASSERT_DC_OK(dc_device_can_access_peer(parts_[0].device, parts_[1].device, &can));
  if (!can) GTEST_SKIP() << "no peer-to-peer path between devices 0 and 1";
  PerDevice& a = parts_[0];
  PerDevice& b = parts_[1];
  const size_t n = 1 << 16;
  const uint64_t bytes = n * sizeof(float);
  std::vector<float> x = random_floats(n, 5), y = random_floats(n, 6), out(n);
  // x lives on device 1 (from its pool), y on device 0; device 0's kernel reads x directly.
  ASSERT_DC_OK(dc_buffer_alloc(b.device, bytes, 0, &b.x));
  ASSERT_DC_OK(dc_buffer_alloc(a.device, bytes, 0, &a.y));
  ASSERT_DC_OK(dc_buffer_write(b.x, 0, x.data(), bytes));
  ASSERT_DC_OK(dc_buffer_write(a.y, 0, y.data(), bytes));
  const float k = 3.0f;
  int32_t elements = static_cast<int32_t>(n);
  dc_launch_config c = DC_LAUNCH_CONFIG_INIT;
  ASSERT_DC_OK(dc_launch_config_1d(a.saxpy, n, 0, &c));
  dc_arg args[] = {DC_ARG_VALUE_OF(&k), DC_ARG_BUFFER_OF(b.x), DC_ARG_BUFFER_OF(a.y), DC_ARG_VALUE_OF(&elements)};
  EXPECT_DC_ERROR(dc_launch_kernel(a.saxpy, &c, args, 4, a.stream), DC_ERROR_INVALID_ARGUMENT, "peer access");
  ASSERT_DC_OK(dc_device_enable_peer_access(a.device, b.device));
  ASSERT_DC_OK(dc_launch_kernel(a.saxpy, &c, args, 4, a.stream));
  ASSERT_DC_OK(dc_buffer_read_async(a.y, 0, out.data(), bytes, a.stream));
  ASSERT_DC_OK(dc_stream_synchronize(a.stream));
  size_t wrong = 0;
  for (size_t i = 0; i < n; ++i)
    if (!(std::fabs(out[i] - (k * x[i] + y[i])) <= 1e-5f * (1.0f + std::fabs(k * x[i] + y[i])))) ++wrong;
  EXPECT_EQ(wrong, 0u);
  ASSERT_DC_OK(dc_device_disable_peer_access(a.device, b.device));
}

}  // namespace
