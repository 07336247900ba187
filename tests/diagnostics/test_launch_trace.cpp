// The launch-trace hook (dc_set_launch_trace): each launch told on the
// launching thread with its kernel, grid, block, shared memory and stream;
// completions with a GPU time from events, in launch order; nothing for a
// launch the driver refused; calls from inside the callback refused;
// replacing the tracer stops the old one. Kernels from the launch tests'
// sources (the fake driver emulates them).
#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>
#include <vector>

#include "launch/launch_test.h"

namespace {

using namespace launchtest;

struct Recorded {
  std::mutex mutex;
  std::vector<dc_launch_trace> launches;
  std::vector<std::string> launch_names;
  std::vector<dc_launch_trace> completions;
  std::vector<std::thread::id> launch_threads;
  dc_status inner = DC_SUCCESS;
  bool try_inner = false;
};

void on_launch(void* user_data, const dc_launch_trace* t) {
  auto* r = static_cast<Recorded*>(user_data);
  std::lock_guard<std::mutex> lock(r->mutex);
  r->launches.push_back(*t);
  r->launch_names.push_back(t->kernel_name);
  r->launch_threads.push_back(std::this_thread::get_id());
  if (r->try_inner) {
    int32_t count = 0;
    r->inner = dc_device_count(&count);
  }
}

void on_complete(void* user_data, const dc_launch_trace* t) {
  auto* r = static_cast<Recorded*>(user_data);
  std::lock_guard<std::mutex> lock(r->mutex);
  r->completions.push_back(*t);
}

class LaunchTraceTest : public LaunchTest {
 protected:
  void SetUp() override {
    LaunchTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    if (!have_nvrtc_) GTEST_SKIP() << "needs NVRTC, not found: " << dctest::nvrtc_unavailable();
  }
  void TearDown() override {
    dc_set_launch_trace(nullptr, nullptr, nullptr);
    LaunchTest::TearDown();
  }
  // fill_u32(p, value, n): p[i] = value for i < n.
  dc_status fill(dc_function f, dc_buffer out, uint32_t value, uint64_t n, uint32_t grid, uint32_t block,
                 uint32_t shared = 0) {
    dc_arg args[] = {buffer_arg(out), value_of(value), value_of(n)};
    dc_launch_config c = config_1d(grid, block, shared);
    return dc_launch_kernel(f, &c, args, 3, stream_);
  }
};

TEST_F(LaunchTraceTest, EachLaunchIsToldWithItsShape) {
  dc_function f = kernel("fill_u32");
  ASSERT_NE(f, nullptr);
  dc_buffer out = alloc(4096 * 4);
  ASSERT_DC_OK(fill(f, out, 1, 4096, 16, 256));  // before the tracer: not told
  Recorded r;
  ASSERT_DC_OK(dc_set_launch_trace(&on_launch, nullptr, &r));
  ASSERT_DC_OK(fill(f, out, 2, 4096, 32, 128, 64));
  ASSERT_DC_OK(fill(f, out, 3, 4096, 4, 1024));
  void* native = nullptr;
  ASSERT_DC_OK(dc_stream_native(stream_, &native));
  ASSERT_EQ(r.launches.size(), 2u);
  const dc_launch_trace& a = r.launches[0];
  EXPECT_EQ(a.struct_size, sizeof(dc_launch_trace));
  EXPECT_EQ(r.launch_names[0], "fill_u32");
  EXPECT_EQ(a.device_ordinal, 0);
  EXPECT_EQ(a.grid[0], 32u);
  EXPECT_EQ(a.grid[1], 1u);
  EXPECT_EQ(a.block[0], 128u);
  EXPECT_EQ(a.shared_memory_bytes, 64u);
  EXPECT_EQ(a.stream, native);
  EXPECT_EQ(a.gpu_time_ns, 0u);
  EXPECT_EQ(r.launches[1].block[0], 1024u);
  EXPECT_EQ(r.launches[1].sequence, a.sequence + 1);
  EXPECT_EQ(r.launch_threads[0], std::this_thread::get_id());

  // A launch the driver refuses is not told.
  EXPECT_NE(fill(f, out, 4, 4096, 1, 4096), DC_SUCCESS);
  EXPECT_EQ(r.launches.size(), 2u);

  // Stopped: nothing more.
  ASSERT_DC_OK(dc_set_launch_trace(nullptr, nullptr, nullptr));
  ASSERT_DC_OK(fill(f, out, 5, 4096, 16, 256));
  EXPECT_EQ(r.launches.size(), 2u);
  ASSERT_DC_OK(dc_stream_synchronize(stream_));
}

TEST_F(LaunchTraceTest, CompletionsCarryGpuTimeInOrder) {
  dc_function f = kernel("fill_u32");
  ASSERT_NE(f, nullptr);
  dc_buffer out = alloc(1 << 22);
  Recorded r;
  ASSERT_DC_OK(dc_set_launch_trace(&on_launch, &on_complete, &r));
  for (uint32_t i = 0; i < 5; ++i) ASSERT_DC_OK(fill(f, out, i, 1 << 20, 1024, 256));
  ASSERT_DC_OK(dc_stream_synchronize(stream_));
  for (int i = 0; i < 2000; ++i) {
    {
      std::lock_guard<std::mutex> lock(r.mutex);
      if (r.completions.size() == 5) break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  std::lock_guard<std::mutex> lock(r.mutex);
  ASSERT_EQ(r.completions.size(), 5u);
  for (size_t i = 0; i < 5; ++i) {
    EXPECT_EQ(r.completions[i].sequence, r.launches[i].sequence) << "completions out of launch order";
    EXPECT_EQ(r.completions[i].grid[0], 1024u);
    if (dctest::real_driver()) {
      EXPECT_GT(r.completions[i].gpu_time_ns, 0u);
    }
  }
  if (auto* fake = dctest::fake_driver()) {
    EXPECT_GE(fake->call_count("cuEventElapsedTime"), 5);
  }
}

TEST_F(LaunchTraceTest, CallsFromInsideTheCallbackAreRefused) {
  dc_function f = kernel("fill_u32");
  ASSERT_NE(f, nullptr);
  dc_buffer out = alloc(4096 * 4);
  Recorded r;
  r.try_inner = true;
  ASSERT_DC_OK(dc_set_launch_trace(&on_launch, nullptr, &r));
  ASSERT_DC_OK(fill(f, out, 2, 4096, 16, 256));
  EXPECT_EQ(std::string(dc_last_error_message()), "") << "the refused call's error leaked into the launch's";
  EXPECT_EQ(r.inner, DC_ERROR_INVALID_STATE);
  ASSERT_DC_OK(dc_stream_synchronize(stream_));
}

}  // namespace
