// Prepared launches (dc_launch_create / set_config / set_arg(s) / enqueue):
// checks when binding, rebinding, lifetimes of bound buffers, and enqueues
// from several threads, also while another thread rebinds.
#include <atomic>
#include <cmath>
#include <thread>
#include <vector>

#include "launch/launch_test.h"

namespace {

using namespace launchtest;

class PreparedTest : public LaunchTest {};

TEST_F(PreparedTest, CreateChecksItsArguments) {
  REQUIRE_KERNELS();
  dc_function f = kernel("saxpy");
  ASSERT_NE(f, nullptr);
  dc_launch l = reinterpret_cast<dc_launch>(uintptr_t{1});
  dc_launch_config c = config_1d(0, 32);
  EXPECT_DC_ERROR(dc_launch_create(f, &c, &l), DC_ERROR_INVALID_ARGUMENT, "saxpy: config->grid[0] is 0");
  EXPECT_EQ(l, nullptr);
  c = config_1d(1, 32);
  EXPECT_DC_ERROR(dc_launch_create(f, &c, nullptr), DC_ERROR_INVALID_ARGUMENT, "launch is NULL");
  EXPECT_DC_ERROR(dc_launch_create(nullptr, &c, &l), DC_ERROR_INVALID_HANDLE, "function is NULL");
  EXPECT_DC_ERROR(dc_launch_create(f, nullptr, &l), DC_ERROR_INVALID_ARGUMENT, "config is NULL");
  ASSERT_DC_OK(dc_launch_create(f, &c, &l));
  uint64_t count = 0;
  ASSERT_DC_OK(dc_handle_count(DC_HANDLE_LAUNCH, &count));
  EXPECT_EQ(count, 1u);
  dc_launch_release(l);
  dc_launch_release(l);  // released twice: ignored
  dc_launch_release(nullptr);
  ASSERT_DC_OK(dc_handle_count(DC_HANDLE_LAUNCH, &count));
  EXPECT_EQ(count, 0u);
  EXPECT_DC_ERROR(dc_launch_enqueue(l, stream_), DC_ERROR_INVALID_HANDLE, "launch");
}

TEST_F(PreparedTest, EveryArgumentMustBeBound) {
  REQUIRE_KERNELS();
  dc_function f = kernel("saxpy");
  dc_launch l = prepare(f, config_1d(1, 32));
  ASSERT_NE(l, nullptr);
  EXPECT_DC_ERROR(dc_launch_enqueue(l, stream_), DC_ERROR_INVALID_STATE, "argument 0 of saxpy is not bound (4 of 4");
  dc_buffer b = alloc(128);
  float a = 2;
  dc_arg args[] = {value_of(a), buffer_arg(b), buffer_arg(b)};
  for (uint32_t i = 0; i < 3; ++i) ASSERT_DC_OK(dc_launch_set_arg(l, i, &args[i]));
  EXPECT_DC_ERROR(dc_launch_enqueue(l, stream_), DC_ERROR_INVALID_STATE, "argument 3 of saxpy is not bound (1 of 4");
  int n = 32;
  dc_arg last = value_of(n);
  ASSERT_DC_OK(dc_launch_set_arg(l, 3, &last));
  EXPECT_DC_OK(dc_launch_enqueue(l, stream_));
  sync();
}

TEST_F(PreparedTest, BindingIsChecked) {
  REQUIRE_KERNELS();
  dc_function f = kernel("saxpy");
  dc_launch l = prepare(f, config_1d(1, 32));
  ASSERT_NE(l, nullptr);
  double wide = 0;
  dc_arg arg = value_of(wide);
  EXPECT_DC_ERROR(dc_launch_set_arg(l, 4, &arg), DC_ERROR_OUT_OF_RANGE,
                  "index 4 is past saxpy's parameters (it has 4: 0..3)");
  EXPECT_DC_ERROR(dc_launch_set_arg(l, 3, &arg), DC_ERROR_INVALID_ARGUMENT,
                  "saxpy: parameter 3 is 4 bytes, argument is 8 bytes (arg;");
  EXPECT_DC_ERROR(dc_launch_set_arg(l, 0, nullptr), DC_ERROR_INVALID_ARGUMENT, "arg is NULL");
  dc_buffer dead = nullptr;
  ASSERT_DC_OK(dc_buffer_alloc(device_, 64, 0, &dead));
  dc_buffer_release(dead);
  dc_arg b = buffer_arg(dead);
  EXPECT_DC_ERROR(dc_launch_set_arg(l, 1, &b), DC_ERROR_INVALID_HANDLE, "arg.buffer");
  dc_buffer live = alloc(64);
  b = buffer_arg(live, 64);
  EXPECT_DC_ERROR(dc_launch_set_arg(l, 1, &b), DC_ERROR_OUT_OF_RANGE, "arg.offset 64 is not inside the buffer");
  float a = 1;
  int n = 1;
  dc_arg args[] = {value_of(a), buffer_arg(live), buffer_arg(live), value_of(n)};
  EXPECT_DC_ERROR(dc_launch_set_args(l, args, 3), DC_ERROR_INVALID_ARGUMENT, "saxpy takes 4 parameters, 3 arguments");
  args[2] = buffer_arg(dead);
  EXPECT_DC_ERROR(dc_launch_set_args(l, args, 4), DC_ERROR_INVALID_HANDLE, "args[2].buffer");
  // A failed set_args changes nothing: still nothing bound.
  EXPECT_DC_ERROR(dc_launch_enqueue(l, stream_), DC_ERROR_INVALID_STATE, "(4 of 4 unbound)");
  args[2] = buffer_arg(live);
  EXPECT_DC_OK(dc_launch_set_args(l, args, 4));
  EXPECT_DC_OK(dc_launch_enqueue(l, stream_));
  sync();
}

TEST_F(PreparedTest, RebindingChangesTheNextEnqueueOnly) {
  REQUIRE_KERNELS();
  dc_function f = kernel("saxpy");
  const int n = 3000;
  std::vector<float> x = random_floats(n, 11), y1 = random_floats(n, 12), y2 = random_floats(n, 13);
  dc_buffer bx = upload(x), by1 = upload(y1), by2 = upload(y2);
  dc_launch_config c = DC_LAUNCH_CONFIG_INIT;
  ASSERT_DC_OK(dc_launch_config_1d(f, n, 0, &c));
  dc_launch l = prepare(f, c);
  ASSERT_NE(l, nullptr);
  float a = 3.0f;
  int count = n;
  dc_arg args[] = {value_of(a), buffer_arg(bx), buffer_arg(by1), value_of(count)};
  ASSERT_DC_OK(dc_launch_set_args(l, args, 4));
  a = 100.0f;  // values are copied when bound
  ASSERT_DC_OK(dc_launch_enqueue(l, stream_));
  float a2 = -0.5f;
  dc_arg na = value_of(a2), ny = buffer_arg(by2);
  ASSERT_DC_OK(dc_launch_set_arg(l, 0, &na));
  ASSERT_DC_OK(dc_launch_set_arg(l, 2, &ny));
  ASSERT_DC_OK(dc_launch_enqueue(l, stream_));
  sync();
  std::vector<float> got1 = download<float>(by1, n), got2 = download<float>(by2, n);
  for (int i = 0; i < n; ++i) {
    ASSERT_NEAR(got1[i], 3.0f * x[i] + y1[i], 1e-5f) << i;
    ASSERT_NEAR(got2[i], -0.5f * x[i] + y2[i], 1e-5f) << i;
  }
}

TEST_F(PreparedTest, ABoundBufferOutlivesItsHandle) {
  REQUIRE_NVRTC();
  dc_function f = kernel("fill_u32");
  dc_launch l = prepare(f, config_1d(4, 256));
  ASSERT_NE(l, nullptr);
  dc_buffer b = nullptr;
  ASSERT_DC_OK(dc_buffer_alloc(device_, 4096, 0, &b));
  uint32_t value = 7;
  uint64_t n = 1024;
  dc_arg args[] = {buffer_arg(b), value_of(value), value_of(n)};
  ASSERT_DC_OK(dc_launch_set_args(l, args, 3));
  long allocations = dctest::fake_driver() ? dctest::fake_driver()->live("allocations") : 0;
  dc_buffer_release(b);
  // The launch still holds the memory: the kernel writes into live memory.
  ASSERT_DC_OK(dc_launch_enqueue(l, stream_));
  sync();
  if (auto* fake = dctest::fake_driver()) {
    EXPECT_EQ(fake->live("allocations"), allocations);
  }
  dc_launch_release(l);
  launches_.clear();
  sync();
}

TEST_F(PreparedTest, SetConfigIsCheckedAndKeepsTheOldOneOnFailure) {
  REQUIRE_NVRTC();
  dc_function f = kernel("fill_u32");
  const uint64_t n = 2048;
  dc_buffer b = upload(std::vector<uint32_t>(n, 0));
  dc_launch l = prepare(f, config_1d(8, 256));
  ASSERT_NE(l, nullptr);
  uint32_t value = 5;
  dc_arg args[] = {buffer_arg(b), value_of(value), value_of(n)};
  ASSERT_DC_OK(dc_launch_set_args(l, args, 3));
  dc_launch_config bad = config_1d(8, 0);
  EXPECT_DC_ERROR(dc_launch_set_config(l, &bad), DC_ERROR_INVALID_ARGUMENT, "config->block[0] is 0");
  EXPECT_DC_ERROR(dc_launch_set_config(l, nullptr), DC_ERROR_INVALID_ARGUMENT, "config is NULL");
  // Half the grid: only the first half is filled.
  dc_launch_config half = config_1d(4, 256);
  ASSERT_DC_OK(dc_launch_set_config(l, &half));
  ASSERT_DC_OK(dc_launch_enqueue(l, stream_));
  sync();
  std::vector<uint32_t> got = download<uint32_t>(b, n);
  for (uint64_t i = 0; i < n; ++i) ASSERT_EQ(got[i], i < n / 2 ? 5u : 0u) << i;
}

// Several threads enqueue the same launch on one stream: the stream orders
// the kernels, so every launch adds exactly 1 to every element.
TEST_F(PreparedTest, ConcurrentEnqueuesFromManyThreads) {
  REQUIRE_NVRTC();
  dc_function f = kernel("saxpy");
  const int n = 512;
  dc_buffer bx = upload(std::vector<float>(n, 1.0f)), by = upload(std::vector<float>(n, 0.0f));
  dc_launch l = prepare(f, config_1d(2, 256));
  ASSERT_NE(l, nullptr);
  float a = 1.0f;
  int count = n;
  dc_arg args[] = {value_of(a), buffer_arg(bx), buffer_arg(by), value_of(count)};
  ASSERT_DC_OK(dc_launch_set_args(l, args, 4));
  const int threads = 8, each = 50;
  std::atomic<int> failures{0};
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t)
    pool.emplace_back([&] {
      for (int i = 0; i < each; ++i)
        if (dc_launch_enqueue(l, stream_) != DC_SUCCESS) ++failures;
    });
  for (std::thread& t : pool) t.join();
  EXPECT_EQ(failures.load(), 0);
  sync();
  std::vector<float> got = download<float>(by, n);
  for (int i = 0; i < n; ++i) ASSERT_EQ(got[i], static_cast<float>(threads * each)) << i;
}

// One thread rebinds while others enqueue: each enqueue sees one binding or
// the other, whole; nothing fails and nothing crashes.
TEST_F(PreparedTest, RebindingWhileOtherThreadsEnqueue) {
  REQUIRE_NVRTC();
  dc_function f = kernel("fill_u32");
  const uint64_t n = 1024;
  dc_buffer b1 = upload(std::vector<uint32_t>(n, 0)), b2 = upload(std::vector<uint32_t>(n, 0));
  dc_launch l = prepare(f, config_1d(4, 256));
  ASSERT_NE(l, nullptr);
  uint32_t value = 1;
  uint64_t count = n;
  dc_arg args[] = {buffer_arg(b1), value_of(value), value_of(count)};
  ASSERT_DC_OK(dc_launch_set_args(l, args, 3));
  std::atomic<bool> stop{false};
  std::atomic<int> failures{0}, enqueued{0};
  std::vector<std::thread> pool;
  for (int t = 0; t < 3; ++t)
    pool.emplace_back([&] {
      while (!stop) {
        if (dc_launch_enqueue(l, stream_) != DC_SUCCESS) ++failures;
        ++enqueued;
      }
    });
  // Rebind while enqueues are under way: from the first enqueue, at least
  // 300 times and until 200 enqueues have been made.
  while (enqueued.load() == 0) std::this_thread::yield();
  for (int i = 0; i < 300 || enqueued.load() < 200; ++i) {
    uint32_t v = 1 + i % 2;
    dc_arg next[] = {buffer_arg(i % 3 ? b1 : b2), value_of(v), value_of(count)};
    if (dc_launch_set_args(l, next, 3) != DC_SUCCESS) ++failures;
    dc_launch_config c = config_1d(i % 2 ? 4 : 8, 256);
    if (dc_launch_set_config(l, &c) != DC_SUCCESS) ++failures;
  }
  stop = true;
  for (std::thread& t : pool) t.join();
  EXPECT_EQ(failures.load(), 0) << dc_last_error_message();
  sync();
  // The stream runs the kernels in order, and each wrote every element of
  // one buffer with one value: the last one left its value everywhere.
  for (dc_buffer b : {b1, b2}) {
    std::vector<uint32_t> got = download<uint32_t>(b, n);
    EXPECT_LE(got[0], 2u);
    for (uint64_t i = 0; i < n; ++i) ASSERT_EQ(got[i], got[0]) << i;
  }
}

TEST_F(PreparedTest, PreparedAndOneShotLaunchesAgree) {
  REQUIRE_NVRTC();
  dc_function f = kernel("vector_add");
  const int n = 4097;
  std::vector<float> a = random_floats(n, 21), b = random_floats(n, 22);
  dc_buffer ba = upload(a), bb = upload(b), c1 = alloc(n * 4), c2 = alloc(n * 4);
  dc_launch_config c = DC_LAUNCH_CONFIG_INIT;
  ASSERT_DC_OK(dc_launch_config_1d(f, n, 0, &c));
  int count = n;
  dc_arg args[] = {buffer_arg(ba), buffer_arg(bb), buffer_arg(c1), value_of(count)};
  ASSERT_DC_OK(dc_launch_kernel(f, &c, args, 4, stream_));
  dc_launch l = prepare(f, c);
  args[2] = buffer_arg(c2);
  ASSERT_DC_OK(dc_launch_set_args(l, args, 4));
  ASSERT_DC_OK(dc_launch_enqueue(l, stream_));
  sync();
  std::vector<float> got1 = download<float>(c1, n), got2 = download<float>(c2, n);
  for (int i = 0; i < n; ++i) {
    ASSERT_EQ(got1[i], a[i] + b[i]) << i;
    ASSERT_EQ(got2[i], got1[i]) << i;
  }
}

}  // namespace
