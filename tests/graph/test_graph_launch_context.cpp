// dc_graph_launch and the thread's current context. The launch does not ask
// the driver which context is current where the library left its own there
// (device/device.h, LaunchContext); these tests hold it to the header's
// "Threads" promise: a fresh thread keeps the device's context, a context the
// caller set is current after the call, a caller that changed the context
// with the driver behind the library's back still gets its launch, and a
// launch that fails is reported once, not tried twice. A replay on the stream
// of the graph's last launch takes no pin of the stream (graph/graph.h,
// launch_again): the Replay* cases hold it to the rules a pin gave (a
// released stream refused, each launch on the stream it names, launches and
// releases on several threads at once). Runs against
// the fake driver (which refuses work on a stream of a context that is not
// current, so a launch made without the binding it needs fails there) and
// against a real driver on a GPU machine.
#include "loader/cuda_abi/driver_abi.h"
#include <gtest/gtest.h>

#include <cstdint>
#include <thread>
#include <vector>

#include "dccuda.h"
#include "support/fake.h"
#include "support/shared_library.h"

namespace {

using GetCurrent = CUresult (*)(CUcontext*);
using SetCurrent = CUresult (*)(CUcontext);

constexpr uint64_t kBytes = 256;

class GraphLaunchContextTest : public testing::Test {
 protected:
  void SetUp() override {
    REQUIRE_DEVICE();
    if (auto* f = dctest::fake_driver()) f->reset();
    const char* path = nullptr;
    ASSERT_DC_OK(dc_driver_library(&path));
    void* lib = dctest::loaded_library(path);
    ASSERT_NE(lib, nullptr);
    get_current_ = reinterpret_cast<GetCurrent>(dctest::library_symbol(lib, "cuCtxGetCurrent"));
    set_current_ = reinterpret_cast<SetCurrent>(dctest::library_symbol(lib, "cuCtxSetCurrent"));
    ASSERT_TRUE(get_current_ && set_current_);
    ASSERT_DC_OK(dc_device_open(0, &device_));
    ASSERT_DC_OK(dc_device_native(device_, nullptr, &ours_));
    ASSERT_DC_OK(dc_stream_create(device_, 0, 0, &stream_));
    ASSERT_DC_OK(dc_buffer_alloc(device_, kBytes, 0, &buffer_));
    ASSERT_DC_OK(dc_graph_create(device_, &graph_));
    ASSERT_DC_OK(dc_graph_add_fill_node(graph_, buffer_, 0, kBytes, 0, 4, nullptr, 0, &fill_));
    ASSERT_DC_OK(dc_graph_instantiate(graph_));
  }
  void TearDown() override {
    dc_graph_release(graph_);
    dc_buffer_release(buffer_);
    dc_stream_release(stream_);
    dc_device_release(device_);
    EXPECT_EQ(dctest::live_handles(), 0u) << "a test leaked handles";
  }

  // Sets the fill's value (an update in place; a call that leaves the
  // device's context current on this thread).
  void set_fill(uint32_t value) { EXPECT_DC_OK(dc_graph_set_fill_node(graph_, fill_, buffer_, 0, kBytes, value, 4)); }
  // Whether every word of the buffer holds `value` (waits for the stream).
  bool filled(uint32_t value) {
    EXPECT_DC_OK(dc_stream_synchronize(stream_));
    std::vector<uint32_t> words(kBytes / 4, ~value);
    EXPECT_DC_OK(dc_buffer_read(buffer_, 0, words.data(), kBytes));
    for (uint32_t w : words)
      if (w != value) return false;
    return true;
  }
  void* current() {
    CUcontext c = nullptr;
    get_current_(&c);
    return c;
  }

  GetCurrent get_current_ = nullptr;
  SetCurrent set_current_ = nullptr;
  dc_device device_ = nullptr;
  void* ours_ = nullptr;
  dc_stream stream_ = nullptr;
  dc_buffer buffer_ = nullptr;
  dc_graph graph_ = nullptr;
  uint64_t fill_ = 0;
};

TEST_F(GraphLaunchContextTest, AFreshThreadKeepsTheDevicesContextAfterALaunch) {
  void* after = nullptr;
  std::thread([&] {
    ASSERT_EQ(current(), nullptr);
    EXPECT_DC_OK(dc_graph_launch(graph_, stream_));
    after = current();
  }).join();
  EXPECT_EQ(after, ours_);
}

TEST_F(GraphLaunchContextTest, ALaunchWhereTheLibraryLeftItsContextAsksTheDriverNothingElse) {
  REQUIRE_FAKE_DRIVER();
  auto* fake = dctest::fake_driver();
  std::thread([&] {
    ASSERT_DC_OK(dc_stream_synchronize(stream_));  // leaves the device's context current
    fake->reset();
    EXPECT_DC_OK(dc_graph_launch(graph_, stream_));
    EXPECT_EQ(fake->call_count("cuGraphLaunch"), 1);
    EXPECT_EQ(fake->call_count("cuCtxGetCurrent"), 0) << "the launch asked the driver for the current context";
    EXPECT_EQ(fake->call_count("cuCtxSetCurrent"), 0);
  }).join();
}

TEST_F(GraphLaunchContextTest, ACallerThatUnboundTheContextBehindTheLibraryStillGetsItsLaunch) {
  void* after = nullptr;
  std::thread([&] {
    set_fill(0x5a5a0001u);
    ASSERT_EQ(set_current_(nullptr), CUDA_SUCCESS);  // the driver directly: the library does not see it
    EXPECT_DC_OK(dc_graph_launch(graph_, stream_));
    after = current();
  }).join();
  EXPECT_TRUE(filled(0x5a5a0001u));
  if (dctest::fake_driver())
    // The fake refuses the launch without the context: bound, tried again,
    // and left current (a thread without a context keeps the device's).
    EXPECT_EQ(after, ours_);
  else
    // A real driver launches in the stream's context whatever is current: the
    // library does not look, and leaves the thread as the caller set it (the
    // exception dccuda.h's "Threads" names).
    EXPECT_EQ(after, nullptr);
}

TEST_F(GraphLaunchContextTest, AContextTheCallerSetBehindTheLibraryIsCurrentAfterTheLaunch) {
  if (dctest::device_count() < 2) GTEST_SKIP() << "another context to set needs a second device";
  dc_device other = nullptr;
  ASSERT_DC_OK(dc_device_open(1, &other));
  void* theirs = nullptr;
  ASSERT_DC_OK(dc_device_native(other, nullptr, &theirs));
  void* after = nullptr;
  std::thread([&] {
    set_fill(0x5a5a0002u);
    ASSERT_EQ(set_current_(static_cast<CUcontext>(theirs)), CUDA_SUCCESS);
    EXPECT_DC_OK(dc_graph_launch(graph_, stream_));
    after = current();
    // Again, now that the library has seen the other context current.
    EXPECT_DC_OK(dc_graph_launch(graph_, stream_));
    EXPECT_EQ(current(), theirs);
  }).join();
  EXPECT_TRUE(filled(0x5a5a0002u));
  EXPECT_EQ(after, theirs) << "the caller's own context must be current after the call";
  dc_device_release(other);
}

TEST_F(GraphLaunchContextTest, AFailedLaunchIsReportedOnceNotTriedAgain) {
  REQUIRE_FAKE_DRIVER();
  auto* fake = dctest::fake_driver();
  ASSERT_DC_OK(dc_stream_synchronize(stream_));
  fake->reset();
  fake->inject("cuGraphLaunch", 1, 999 /* CUDA_ERROR_UNKNOWN */, 1);
  EXPECT_DC_ERROR(dc_graph_launch(graph_, stream_), DC_ERROR_DRIVER, "cuGraphLaunch failed with CUDA_ERROR_UNKNOWN");
  EXPECT_EQ(fake->call_count("cuGraphLaunch"), 1) << "the context was right: nothing to try again";
  set_fill(0x5a5a0003u);
  EXPECT_DC_OK(dc_graph_launch(graph_, stream_));
  EXPECT_TRUE(filled(0x5a5a0003u));
}

// A replay on the last launch's stream (no pin of it) still refuses the
// stream once its handle is released, although the graph keeps the object.
TEST_F(GraphLaunchContextTest, ReplayRefusesTheLastStreamOnceItsHandleIsReleased) {
  dc_stream other = nullptr;
  ASSERT_DC_OK(dc_stream_create(device_, 0, 0, &other));
  ASSERT_DC_OK(dc_graph_launch(graph_, other));
  ASSERT_DC_OK(dc_graph_launch(graph_, other));  // the replay path
  ASSERT_DC_OK(dc_stream_synchronize(other));
  auto* fake = dctest::fake_driver();
  if (fake) fake->reset();
  dc_stream_release(other);
  EXPECT_DC_ERROR(dc_graph_launch(graph_, other), DC_ERROR_INVALID_HANDLE, "stream");
  // A NULL stream, and the graph's handle given as the stream, after replays: refused as ever.
  EXPECT_DC_ERROR(dc_graph_launch(graph_, nullptr), DC_ERROR_INVALID_HANDLE, "stream is NULL");
  EXPECT_DC_ERROR(dc_graph_launch(graph_, reinterpret_cast<dc_stream>(graph_)), DC_ERROR_INVALID_HANDLE,
                  "not a dc_stream");
  if (fake) {
    EXPECT_EQ(fake->call_count("cuGraphLaunch"), 0) << "a launch on a released stream reached the driver";
  }
  // The graph, and a launch on a live stream, are unaffected.
  set_fill(0x5a5a0004u);
  EXPECT_DC_OK(dc_graph_launch(graph_, stream_));
  EXPECT_TRUE(filled(0x5a5a0004u));
}

// Each launch goes by the stream it names, not the one the graph last ran
// on: after replays on one stream, a stream of another device is refused
// (the replay path would have launched on the last stream), and a second
// stream of the same device gets the launch.
TEST_F(GraphLaunchContextTest, ReplayGoesByTheStreamItNames) {
  ASSERT_DC_OK(dc_graph_launch(graph_, stream_));
  ASSERT_DC_OK(dc_graph_launch(graph_, stream_));  // the replay path, on stream_
  if (dctest::device_count() >= 2) {
    dc_device second = nullptr;
    dc_stream elsewhere = nullptr;
    ASSERT_DC_OK(dc_device_open(1, &second));
    ASSERT_DC_OK(dc_stream_create(second, 0, 0, &elsewhere));
    auto* fake = dctest::fake_driver();
    if (fake) fake->reset();
    EXPECT_DC_ERROR(dc_graph_launch(graph_, elsewhere), DC_ERROR_INVALID_ARGUMENT, "device");
    if (fake) {
      EXPECT_EQ(fake->call_count("cuGraphLaunch"), 0) << "the launch ran on the graph's last stream";
    }
    dc_stream_release(elsewhere);
    dc_device_release(second);
  }
  dc_stream same = nullptr;
  ASSERT_DC_OK(dc_stream_create(device_, 0, 0, &same));
  set_fill(0x5a5a0005u);
  EXPECT_DC_OK(dc_graph_launch(graph_, same));
  EXPECT_DC_OK(dc_graph_launch(graph_, same));  // the replay path, on `same` now
  EXPECT_DC_OK(dc_stream_synchronize(same));
  EXPECT_TRUE(filled(0x5a5a0005u));
  dc_stream_release(same);
}

// Threads replay one graph on their own streams (the last launch's stream
// changing under each), while one thread releases its stream midway: every
// launch either runs or is refused as a released handle; nothing leaks
// (TearDown), and ThreadSanitizer sees the graph's last-stream fields only
// under the latch.
TEST_F(GraphLaunchContextTest, ReplaysOnSeveralThreadsWithAStreamReleasedMidway) {
  constexpr int kThreads = 4, kLaunches = 200;
  std::vector<dc_stream> streams(kThreads);
  for (dc_stream& s : streams) ASSERT_DC_OK(dc_stream_create(device_, 0, 0, &s));
  std::vector<int> refused(kThreads, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < kLaunches; ++i) {
        if (t == 0 && i == kLaunches / 2) dc_stream_release(streams[0]);
        dc_status st = dc_graph_launch(graph_, streams[t]);
        if (st == DC_ERROR_INVALID_HANDLE) ++refused[t];
        else EXPECT_DC_OK(st);
      }
    });
  for (std::thread& th : threads) th.join();
  EXPECT_EQ(refused[0], kLaunches / 2) << "every launch after the release is refused, none before";
  for (int t = 1; t < kThreads; ++t) {
    EXPECT_EQ(refused[t], 0);
    EXPECT_DC_OK(dc_stream_synchronize(streams[t]));
    dc_stream_release(streams[t]);
  }
}

}  // namespace
