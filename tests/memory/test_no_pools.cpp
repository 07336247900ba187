// Devices without stream-ordered memory pools (fake, DCFAKE_NO_POOLS=1, as on
// TCC devices and some virtualised GPUs): device memory comes from
// cuMemAlloc, asynchronous allocation falls back to it, trimming does nothing.
#include <cstdlib>

#include "memory_test.h"

namespace {

using memtest::MemoryTest;

class NoPoolsTest : public MemoryTest {
 protected:
  void SetUp() override {
    REQUIRE_FAKE_DRIVER();
    if (!std::getenv("DCFAKE_NO_POOLS")) GTEST_SKIP() << "runs with DCFAKE_NO_POOLS=1";
    MemoryTest::SetUp();
  }
};

TEST_F(NoPoolsTest, PoolsOfYourOwnAreNotSupported) {
  dc_pool pool = nullptr;
  EXPECT_DC_ERROR(dc_pool_create(device_, 0, 0, &pool), DC_ERROR_NOT_SUPPORTED, "has no stream-ordered memory pools");
  EXPECT_EQ(pool, nullptr);
  // dccuda's own pool does not exist either: its statistics read zero.
  dc_buffer b = alloc(1 << 20);
  dc_pool_stats st = DC_POOL_STATS_INIT;
  ASSERT_DC_OK(dc_device_pool_statistics(device_, &st));
  EXPECT_EQ(st.used_current, 0u);
  EXPECT_EQ(st.reserved_high, 0u);
  dc_buffer_release(b);
}

TEST_F(NoPoolsTest, GrowableBuffersNeedVirtualMemoryManagement) {
  if (!std::getenv("DCFAKE_NO_VMM")) GTEST_SKIP() << "runs with DCFAKE_NO_VMM=1";
  dc_buffer b = nullptr;
  EXPECT_DC_ERROR(dc_buffer_alloc_growable(device_, 1 << 30, 1, &b), DC_ERROR_NOT_SUPPORTED,
                  "has no virtual memory management");
  uint64_t g = 1;
  EXPECT_DC_ERROR(dc_device_allocation_granularity(device_, DC_GRANULARITY_MINIMUM, &g), DC_ERROR_NOT_SUPPORTED,
                  "has no virtual memory management");
}

TEST_F(NoPoolsTest, EverythingUsesCuMemAlloc) {
  auto* f = dctest::fake_driver();
  dc_device_info info = DC_DEVICE_INFO_INIT;
  ASSERT_DC_OK(dc_device_get_info(device_, &info));
  EXPECT_EQ(info.memory_pools_supported, 0);
  dc_stream s = stream();
  dc_buffer a = alloc(1 << 20), b = nullptr;
  ASSERT_DC_OK(dc_buffer_alloc_async(s, 1 << 20, 0, &b));
  std::vector<uint8_t> data = memtest::random_bytes(1 << 20, 3), back(1 << 20);
  ASSERT_DC_OK(dc_buffer_write_async(b, 0, data.data(), data.size(), s));
  ASSERT_DC_OK(dc_buffer_copy_async(a, 0, b, 0, data.size(), s));
  ASSERT_DC_OK(dc_buffer_read_async(a, 0, back.data(), back.size(), s));
  ASSERT_DC_OK(dc_stream_synchronize(s));
  EXPECT_EQ(back, data);
  EXPECT_EQ(f->call_count("cuMemAlloc"), 2);
  EXPECT_EQ(f->call_count("cuMemAllocFromPoolAsync"), 0);
  EXPECT_EQ(f->call_count("cuMemPoolCreate"), 0);
  EXPECT_DC_OK(dc_device_trim_memory(device_, 0));
  dc_buffer_release(a);
  dc_buffer_release(b);
  EXPECT_EQ(f->call_count("cuMemFree"), 2);
  dc_stream_release(s);
}

}  // namespace
