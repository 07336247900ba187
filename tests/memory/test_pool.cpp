// Memory pools you control (dc_pool): statistics that move with allocations,
// attributes read back, the size limit, stream-ordered allocation, the
// lifetime rule (a released pool lives until its last buffer goes), peer
// access on one device, and dccuda's own pool's statistics. Two devices:
// test_multi_device.cpp. Old drivers and devices without pools:
// test_old_driver_memory.cpp, test_no_pools.cpp.
#include <vector>

#include "memory/memory_test.h"

namespace {

using namespace memtest;

constexpr uint64_t kMiB = 1ull << 20;

class PoolTest : public MemoryTest {
 protected:
  dc_pool make_pool(uint64_t max_size = 0, uint32_t flags = 0) {
    dc_pool p = nullptr;
    EXPECT_EQ(dc_pool_create(device_, max_size, flags, &p), DC_SUCCESS) << dc_last_error_message();
    return p;
  }
  static dc_pool_stats stats_of(dc_pool p) {
    dc_pool_stats s = DC_POOL_STATS_INIT;
    EXPECT_EQ(dc_pool_statistics(p, &s), DC_SUCCESS) << dc_last_error_message();
    return s;
  }
};

TEST_F(PoolTest, StatisticsMoveWithAllocations) {
  dc_pool pool = make_pool();
  // Keep freed memory reserved, so that reserved only falls when trimmed.
  ASSERT_DC_OK(dc_pool_set_attribute(pool, DC_POOL_RELEASE_THRESHOLD, UINT64_MAX));
  dc_pool_stats s = stats_of(pool);
  EXPECT_EQ(s.device_ordinal, 0);
  EXPECT_EQ(s.used_current, 0u);
  EXPECT_EQ(s.reserved_current, 0u);

  dc_buffer a = nullptr, b = nullptr;
  ASSERT_DC_OK(dc_buffer_alloc_from_pool(pool, nullptr, 3 * kMiB, &a));
  ASSERT_DC_OK(dc_buffer_alloc_from_pool(pool, nullptr, 5 * kMiB, &b));
  s = stats_of(pool);
  EXPECT_GE(s.used_current, 8 * kMiB);
  EXPECT_GE(s.reserved_current, s.used_current);
  EXPECT_GE(s.used_high, s.used_current);
  EXPECT_GE(s.reserved_high, s.reserved_current);
  const uint64_t used_both = s.used_current;

  // Freed (synchronously used only: at once): no longer used, still reserved.
  dc_buffer_release(b);
  ASSERT_DC_OK(dc_device_synchronize(device_));
  s = stats_of(pool);
  EXPECT_LT(s.used_current, used_both);
  EXPECT_GE(s.used_current, 3 * kMiB);
  EXPECT_EQ(s.used_high, used_both) << "the high-water mark stays until reset";
  EXPECT_GE(s.reserved_current, used_both);

  // Resetting the marks brings them to the current values.
  ASSERT_DC_OK(dc_pool_reset_high_water(pool));
  s = stats_of(pool);
  EXPECT_EQ(s.used_high, s.used_current);
  EXPECT_EQ(s.reserved_high, s.reserved_current);

  // Trimming gives the cached memory back; what is in use stays. (A GPU's pool
  // reserves in chunks that may hold both buffers, so the trim may keep them.)
  const uint64_t reserved_before_trim = s.reserved_current;
  ASSERT_DC_OK(dc_pool_trim(pool, 0));
  s = stats_of(pool);
  EXPECT_GE(s.reserved_current, s.used_current);
  EXPECT_LE(s.reserved_current, reserved_before_trim);
  if (dctest::fake_driver()) {
    EXPECT_LT(s.reserved_current, used_both);
  }
  dc_buffer_release(a);
  ASSERT_DC_OK(dc_device_synchronize(device_));
  ASSERT_DC_OK(dc_pool_trim(pool, 0));
  s = stats_of(pool);
  EXPECT_EQ(s.used_current, 0u);
  EXPECT_EQ(s.reserved_current, 0u);
  dc_pool_release(pool);
}

TEST_F(PoolTest, BuffersFromAPoolAreOrdinaryBuffers) {
  dc_pool pool = make_pool();
  dc_stream s = stream();
  std::vector<uint8_t> data = random_bytes(70001, 3), back(data.size());
  dc_buffer sync_buffer = nullptr, async_buffer = nullptr;
  ASSERT_DC_OK(dc_buffer_alloc_from_pool(pool, nullptr, data.size(), &sync_buffer));
  ASSERT_DC_OK(dc_buffer_alloc_from_pool(pool, s, data.size(), &async_buffer));
  int32_t kind = 0;
  EXPECT_DC_OK(dc_buffer_kind(async_buffer, &kind));
  EXPECT_EQ(kind, DC_BUFFER_DEVICE);
  ASSERT_DC_OK(dc_buffer_write(sync_buffer, 0, data.data(), data.size()));
  ASSERT_DC_OK(dc_buffer_copy_async(async_buffer, 0, sync_buffer, 0, data.size(), s));
  ASSERT_DC_OK(dc_buffer_read_async(async_buffer, 0, back.data(), back.size(), s));
  ASSERT_DC_OK(dc_stream_synchronize(s));
  EXPECT_EQ(first_difference(back.data(), data.data(), data.size()), -1);
  dc_buffer_release(async_buffer);  // freed in order on s
  dc_buffer_release(sync_buffer);
  dc_stream_release(s);
  dc_pool_release(pool);
}

TEST_F(PoolTest, AReleasedPoolLivesUntilItsLastBufferGoes) {
  dc_pool pool = make_pool();
  dc_buffer b = nullptr;
  ASSERT_DC_OK(dc_buffer_alloc_from_pool(pool, nullptr, kMiB, &b));
  auto* fake = dctest::fake_driver();
  int pools_before = fake ? fake->live("pools") : 0;
  dc_pool_release(pool);
  uint64_t count = 1;
  ASSERT_DC_OK(dc_handle_count(DC_HANDLE_POOL, &count));
  EXPECT_EQ(count, 0u);
  // The handle is gone; the driver's pool is not.
  dc_pool_stats st = DC_POOL_STATS_INIT;
  EXPECT_DC_ERROR(dc_pool_statistics(pool, &st), DC_ERROR_INVALID_HANDLE, "pool");
  if (fake) {
    EXPECT_EQ(fake->live("pools"), pools_before);
  }
  std::vector<uint8_t> data = random_bytes(kMiB, 4), back(kMiB);
  ASSERT_DC_OK(dc_buffer_write(b, 0, data.data(), data.size()));
  ASSERT_DC_OK(dc_buffer_read(b, 0, back.data(), back.size()));
  EXPECT_EQ(first_difference(back.data(), data.data(), data.size()), -1);
  dc_buffer_release(b);
  if (fake) {
    EXPECT_EQ(fake->live("pools"), pools_before - 1) << "the pool goes with its last buffer";
  }
}

TEST_F(PoolTest, AttributesReadBack) {
  dc_pool pool = make_pool();
  uint64_t v = 7;
  for (int32_t a : {DC_POOL_REUSE_FOLLOW_EVENT_DEPENDENCIES, DC_POOL_REUSE_ALLOW_OPPORTUNISTIC,
                    DC_POOL_REUSE_ALLOW_INTERNAL_DEPENDENCIES}) {
    SCOPED_TRACE(a);
    ASSERT_DC_OK(dc_pool_attribute(pool, a, &v));
    EXPECT_EQ(v, 1u) << "reuse is on by default";
    ASSERT_DC_OK(dc_pool_set_attribute(pool, a, 0));
    ASSERT_DC_OK(dc_pool_attribute(pool, a, &v));
    EXPECT_EQ(v, 0u);
    EXPECT_DC_ERROR(dc_pool_set_attribute(pool, a, 2), DC_ERROR_INVALID_ARGUMENT, "is not 0 or 1");
  }
  ASSERT_DC_OK(dc_pool_attribute(pool, DC_POOL_RELEASE_THRESHOLD, &v));
  EXPECT_EQ(v, 0u);
  ASSERT_DC_OK(dc_pool_set_attribute(pool, DC_POOL_RELEASE_THRESHOLD, 64 * kMiB));
  ASSERT_DC_OK(dc_pool_attribute(pool, DC_POOL_RELEASE_THRESHOLD, &v));
  EXPECT_EQ(v, 64 * kMiB);
  EXPECT_DC_ERROR(dc_pool_set_attribute(pool, 5, 0), DC_ERROR_INVALID_ARGUMENT, "attribute 5 is not a DC_POOL_*");
  EXPECT_DC_ERROR(dc_pool_attribute(pool, 0, &v), DC_ERROR_INVALID_ARGUMENT, "attribute 0 is not a DC_POOL_*");
  EXPECT_EQ(v, 0u) << "the out-value is cleared on failure";
  dc_pool_release(pool);
}

TEST_F(PoolTest, MaxSizeBoundsThePool) {
  dc_pool pool = make_pool(4 * kMiB);
  dc_buffer b = nullptr;
  EXPECT_DC_ERROR(dc_buffer_alloc_from_pool(pool, nullptr, 4 * kMiB + 1, &b), DC_ERROR_OUT_OF_MEMORY,
                  "exceeds the pool's max_size (4194304 bytes)");
  EXPECT_EQ(b, nullptr);
  ASSERT_DC_OK(dc_buffer_alloc_from_pool(pool, nullptr, 2 * kMiB, &b));
  dc_buffer_release(b);
  dc_pool_release(pool);
}

TEST_F(PoolTest, ArgumentsAreChecked) {
  dc_pool pool = nullptr;
  EXPECT_DC_ERROR(dc_pool_create(device_, 0, 0x2, &pool), DC_ERROR_INVALID_ARGUMENT,
                  "flags 0x2 has bits this call does not take");
  EXPECT_DC_ERROR(dc_pool_create(device_, UINT64_MAX, 0, &pool), DC_ERROR_INVALID_ARGUMENT,
                  "max_size 18446744073709551615 exceeds device 0's memory");
  EXPECT_DC_ERROR(dc_pool_create(device_, 0, 0, nullptr), DC_ERROR_INVALID_ARGUMENT, "pool");
  pool = make_pool();
  dc_buffer b = nullptr;
  EXPECT_DC_ERROR(dc_buffer_alloc_from_pool(pool, nullptr, 0, &b), DC_ERROR_INVALID_ARGUMENT, "size is 0");
  EXPECT_DC_ERROR(dc_pool_set_access(pool, device_, 2), DC_ERROR_INVALID_ARGUMENT, "enable is 2");
  EXPECT_DC_OK(dc_pool_set_access(pool, device_, 1));
  EXPECT_DC_ERROR(dc_pool_set_access(pool, device_, 0), DC_ERROR_INVALID_ARGUMENT,
                  "accessor is the pool's own device 0");
  dc_pool_stats st = DC_POOL_STATS_INIT;
  st.struct_size = 4;
  EXPECT_DC_ERROR(dc_pool_statistics(pool, &st), DC_ERROR_INVALID_ARGUMENT, "DC_POOL_STATS_INIT");
  dc_pool_release(pool);
}

TEST_F(PoolTest, DccudasOwnPoolHasStatisticsToo) {
  dc_buffer warm = alloc(kMiB);  // makes dccuda's pool
  ASSERT_DC_OK(dc_device_synchronize(device_));
  dc_pool_stats before = DC_POOL_STATS_INIT;
  ASSERT_DC_OK(dc_device_pool_statistics(device_, &before));
  EXPECT_EQ(before.device_ordinal, 0);
  EXPECT_GE(before.used_current, kMiB);
  dc_buffer b = alloc(6 * kMiB);
  dc_pool_stats during = DC_POOL_STATS_INIT;
  ASSERT_DC_OK(dc_device_pool_statistics(device_, &during));
  EXPECT_GE(during.used_current, before.used_current + 6 * kMiB);
  EXPECT_GE(during.reserved_current, during.used_current);
  dc_buffer_release(b);
  ASSERT_DC_OK(dc_device_synchronize(device_));
  dc_pool_stats after = DC_POOL_STATS_INIT;
  ASSERT_DC_OK(dc_device_pool_statistics(device_, &after));
  EXPECT_EQ(after.used_current, before.used_current);
  // dccuda's pool keeps what was freed until dc_device_trim_memory.
  EXPECT_GE(after.reserved_current, during.used_current);
  EXPECT_GE(after.used_high, during.used_current);
  dc_buffer_release(warm);
}

TEST_F(PoolTest, APoolDiesWithADeviceReset) {
  dc_pool pool = make_pool();
  ASSERT_DC_OK(dc_device_reset(device_));
  dc_pool_stats st = DC_POOL_STATS_INIT;
  EXPECT_DC_ERROR(dc_pool_statistics(pool, &st), DC_ERROR_CONTEXT_LOST, "dc_device_reset");
  dc_buffer b = nullptr;
  EXPECT_DC_ERROR(dc_buffer_alloc_from_pool(pool, nullptr, 64, &b), DC_ERROR_CONTEXT_LOST, "dc_device_reset");
  dc_pool_release(pool);
}

}  // namespace
