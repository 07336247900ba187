// dc_launch_enqueue_batch: N prepared launches in one call. Every launch is
// checked before anything is enqueued (a bad one at index k refuses the whole
// batch and names k); the launches run in order; a driver failure half way
// says how many were enqueued; batches run while other threads rebind.
#include <algorithm>
#include <atomic>
#include <thread>
#include <vector>

#include "launch/launch_test.h"

namespace {

using namespace launchtest;

class LaunchBatchTest : public LaunchTest {
 protected:
  // A launch of fill_u32 writing `value` to the first n elements of `b`.
  dc_launch fill(dc_buffer b, uint32_t value, uint64_t n = kCount) {
    dc_launch l = prepare(kernel("fill_u32"), config_1d(static_cast<uint32_t>((n + 255) / 256), 256));
    EXPECT_NE(l, nullptr);
    dc_arg args[] = {buffer_arg(b), value_of(value), value_of(n)};
    EXPECT_DC_OK(dc_launch_set_args(l, args, 3));
    return l;
  }
  // The buffer's elements, each expected to equal `value`.
  void expect_all(dc_buffer b, uint32_t value) {
    std::vector<uint32_t> got = download<uint32_t>(b, kCount);
    for (uint64_t i = 0; i < kCount; ++i) ASSERT_EQ(got[i], value) << "element " << i;
  }
  long launches_made() {
    auto* f = dctest::fake_driver();
    return f ? f->call_count("cuLaunchKernel") : 0;
  }
  static constexpr uint64_t kCount = 512;
};

TEST_F(LaunchBatchTest, RunsEveryLaunchInOrder) {
  REQUIRE_NVRTC();
  dc_buffer a = upload(std::vector<uint32_t>(kCount, 0)), b = upload(std::vector<uint32_t>(kCount, 0));
  // Into `a`: 1, then 2, then 3 (order decides what stays); into `b`: 9, the
  // same launch twice in one batch.
  dc_launch a1 = fill(a, 1), a2 = fill(a, 2), a3 = fill(a, 3), b9 = fill(b, 9);
  dc_launch batch[] = {a1, b9, a2, b9, a3};
  long before = launches_made();
  ASSERT_DC_OK(dc_launch_enqueue_batch(batch, 5, stream_));
  sync();
  expect_all(a, 3);
  expect_all(b, 9);
  if (dctest::fake_driver()) {
    EXPECT_EQ(launches_made() - before, 5);
  }
}

TEST_F(LaunchBatchTest, CountZeroAndNullArrays) {
  EXPECT_DC_OK(dc_launch_enqueue_batch(nullptr, 0, stream_));
  EXPECT_DC_ERROR(dc_launch_enqueue_batch(nullptr, 3, stream_), DC_ERROR_INVALID_ARGUMENT,
                  "launches is NULL with count 3");
  // The stream is checked also for an empty batch.
  EXPECT_DC_ERROR(dc_launch_enqueue_batch(nullptr, 0, nullptr), DC_ERROR_INVALID_HANDLE, "stream is NULL");
}

TEST_F(LaunchBatchTest, AnInvalidHandleAtIndexKRefusesTheWholeBatch) {
  REQUIRE_NVRTC();
  dc_buffer a = upload(std::vector<uint32_t>(kCount, 0));
  dc_launch good = fill(a, 5);
  dc_launch released = fill(a, 6);
  dc_launch_release(released);
  launches_.erase(std::find(launches_.begin(), launches_.end(), released));
  long before = launches_made();
  dc_launch batch[] = {good, good, released, good};
  EXPECT_DC_ERROR(dc_launch_enqueue_batch(batch, 4, stream_), DC_ERROR_INVALID_HANDLE, "launches[2]");
  // A handle of another type, and NULL, are refused the same way.
  dc_launch other = reinterpret_cast<dc_launch>(a);
  dc_launch batch2[] = {good, other};
  EXPECT_DC_ERROR(dc_launch_enqueue_batch(batch2, 2, stream_), DC_ERROR_INVALID_HANDLE, "launches[1]");
  dc_launch batch3[] = {nullptr, good};
  EXPECT_DC_ERROR(dc_launch_enqueue_batch(batch3, 2, stream_), DC_ERROR_INVALID_HANDLE, "launches[0]");
  sync();
  // Nothing was enqueued: the buffer is untouched, and the driver saw no launch.
  expect_all(a, 0);
  if (dctest::fake_driver()) {
    EXPECT_EQ(launches_made(), before);
  }
}

TEST_F(LaunchBatchTest, AnUnboundLaunchAtIndexKRefusesTheWholeBatch) {
  REQUIRE_NVRTC();
  dc_buffer a = upload(std::vector<uint32_t>(kCount, 0));
  dc_launch good = fill(a, 5);
  dc_launch unbound = prepare(kernel("fill_u32"), config_1d(2, 256));
  ASSERT_NE(unbound, nullptr);
  long before = launches_made();
  dc_launch batch[] = {good, unbound, good};
  EXPECT_DC_ERROR(dc_launch_enqueue_batch(batch, 3, stream_), DC_ERROR_INVALID_STATE,
                  "launches[1]: argument 0 of fill_u32 is not bound");
  sync();
  expect_all(a, 0);
  if (dctest::fake_driver()) {
    EXPECT_EQ(launches_made(), before);
  }
}

TEST_F(LaunchBatchTest, ADriverFailureHalfWaySaysHowManyWereEnqueued) {
  REQUIRE_FAKE_DRIVER();
  REQUIRE_NVRTC();
  dc_buffer a = upload(std::vector<uint32_t>(kCount, 0)), b = upload(std::vector<uint32_t>(kCount, 0));
  dc_launch a1 = fill(a, 1), b2 = fill(b, 2), a3 = fill(a, 3);
  dc_launch batch[] = {a1, b2, a3};
  // The third launch is refused by the driver (a transient, non-sticky result).
  dctest::fake_driver()->inject("cuLaunchKernel", 3, CUDA_ERROR_OUT_OF_MEMORY, 1);
  dc_status s = dc_launch_enqueue_batch(batch, 3, stream_);
  EXPECT_NE(s, DC_SUCCESS);
  EXPECT_NE(std::string(dc_last_error_message()).find("dc_launch_enqueue_batch: launches[2]: 2 launches before it "
                                                       "were enqueued"),
            std::string::npos)
      << dc_last_error_message();
  EXPECT_EQ(dc_last_error_cuda(), CUDA_ERROR_OUT_OF_MEMORY);
  sync();
  // The two before it ran; the third did not.
  expect_all(a, 1);
  expect_all(b, 2);
}

TEST_F(LaunchBatchTest, BatchesWhileAnotherThreadRebinds) {
  REQUIRE_NVRTC();
  dc_buffer b1 = upload(std::vector<uint32_t>(kCount, 0)), b2 = upload(std::vector<uint32_t>(kCount, 0));
  dc_launch l = fill(b1, 1);
  dc_launch other = fill(b2, 1);
  std::atomic<bool> stop{false};
  std::atomic<int> failures{0}, batches{0};
  std::vector<std::thread> pool;
  for (int t = 0; t < 2; ++t)
    pool.emplace_back([&] {
      dc_launch batch[] = {l, other, l, l};
      while (!stop) {
        if (dc_launch_enqueue_batch(batch, 4, stream_) != DC_SUCCESS) ++failures;
        ++batches;
      }
    });
  while (batches.load() == 0) std::this_thread::yield();
  uint64_t n = kCount;
  for (int i = 0; i < 200 || batches.load() < 100; ++i) {
    uint32_t v = 1 + i % 2;
    dc_arg next[] = {buffer_arg(i % 3 ? b1 : b2), value_of(v), value_of(n)};
    if (dc_launch_set_args(l, next, 3) != DC_SUCCESS) ++failures;
    dc_launch_config c = config_1d(i % 2 ? 2 : 4, 256);
    if (dc_launch_set_config(l, &c) != DC_SUCCESS) ++failures;
  }
  stop = true;
  for (std::thread& t : pool) t.join();
  EXPECT_EQ(failures.load(), 0) << dc_last_error_message();
  sync();
  // Every launch wrote a whole buffer with one value: never half of a change.
  for (dc_buffer b : {b1, b2}) {
    std::vector<uint32_t> got = download<uint32_t>(b, kCount);
    EXPECT_LE(got[0], 2u);
    for (uint64_t i = 0; i < kCount; ++i) ASSERT_EQ(got[i], got[0]) << i;
  }
}

}  // namespace
