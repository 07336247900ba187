// A CUDA 12.0 driver (fake, DCFAKE_DRIVER_VERSION=12000): it lacks the
// location-based cuMemPrefetchAsync / cuMemAdvise of 12.2 and the
// cuEventElapsedTime of 12.8; dccuda uses the older entry points instead and
// everything still works.
#include <cstdlib>

#include "memory_test.h"

namespace {

using memtest::MemoryTest;

class OldDriverMemoryTest : public MemoryTest {
 protected:
  void SetUp() override {
    REQUIRE_FAKE_DRIVER();
    const char* v = std::getenv("DCFAKE_DRIVER_VERSION");
    if (!v || std::atoi(v) != 12000) GTEST_SKIP() << "runs with DCFAKE_DRIVER_VERSION=12000";
    MemoryTest::SetUp();
  }
};

// CUmemPoolProps::maxSize came with 12.2 (reserved bytes before, which must be 0).
TEST_F(OldDriverMemoryTest, APoolSizeLimitNeedsDriver12_2) {
  dc_pool pool = nullptr;
  EXPECT_DC_ERROR(dc_pool_create(device_, 1 << 20, 0, &pool), DC_ERROR_NOT_SUPPORTED, "needs driver >= 12.2");
  ASSERT_DC_OK(dc_pool_create(device_, 0, 0, &pool));
  dc_pool_release(pool);
}

TEST_F(OldDriverMemoryTest, PrefetchAndAdviceUseTheDeviceOrdinalEntryPoints) {
  auto* f = dctest::fake_driver();
  dc_buffer m = nullptr;
  ASSERT_DC_OK(dc_buffer_alloc_managed(device_, 1 << 20, 0, &m));
  dc_stream s = stream();
  std::vector<uint8_t> data = memtest::random_bytes(1 << 20, 1), back(1 << 20);
  ASSERT_DC_OK(dc_buffer_write(m, 0, data.data(), data.size()));
  ASSERT_DC_OK(dc_buffer_prefetch(m, 0, 1 << 20, 0, s));
  ASSERT_DC_OK(dc_buffer_prefetch(m, 0, 4096, DC_LOCATION_HOST, s));
  ASSERT_DC_OK(dc_buffer_advise(m, 0, 1 << 20, DC_ADVISE_SET_PREFERRED_LOCATION, 0));
  ASSERT_DC_OK(dc_buffer_advise(m, 0, 1 << 20, DC_ADVISE_SET_ACCESSED_BY, DC_LOCATION_HOST));
  ASSERT_DC_OK(dc_stream_synchronize(s));
  EXPECT_EQ(f->call_count("cuMemPrefetchAsync_v8000"), 2);
  EXPECT_EQ(f->call_count("cuMemPrefetchAsync"), 0);
  EXPECT_EQ(f->call_count("cuMemAdvise_v8000"), 2);
  EXPECT_EQ(f->call_count("cuMemAdvise"), 0);
  ASSERT_DC_OK(dc_buffer_read(m, 0, back.data(), back.size()));
  EXPECT_EQ(back, data);
  EXPECT_DC_ERROR(dc_buffer_prefetch(m, 0, 64, 3, s), DC_ERROR_INVALID_ARGUMENT, "location 3");
  dc_stream_release(s);
  dc_buffer_release(m);
}

TEST_F(OldDriverMemoryTest, EventTimingUsesTheCuda2EntryPoint) {
  auto* f = dctest::fake_driver();
  dc_stream s = stream();
  dc_event a = nullptr, b = nullptr;
  ASSERT_DC_OK(dc_event_create(device_, 0, &a));
  ASSERT_DC_OK(dc_event_create(device_, 0, &b));
  ASSERT_DC_OK(dc_event_record(a, s));
  ASSERT_DC_OK(dc_event_record(b, s));
  ASSERT_DC_OK(dc_event_synchronize(b));
  float ms = -1;
  ASSERT_DC_OK(dc_event_elapsed_ms(a, b, &ms));
  EXPECT_GE(ms, 0.0f);
  EXPECT_EQ(f->call_count("cuEventElapsedTime_v2000"), 1);
  EXPECT_EQ(f->call_count("cuEventElapsedTime"), 0);
  dc_event_release(a);
  dc_event_release(b);
  dc_stream_release(s);
}

TEST_F(OldDriverMemoryTest, CopiesAndPoolsWork) {
  dc_buffer b = alloc(9 << 20);
  std::vector<uint8_t> data = memtest::random_bytes(9 << 20, 2), back(9 << 20);
  ASSERT_DC_OK(dc_buffer_write(b, 0, data.data(), data.size()));
  ASSERT_DC_OK(dc_buffer_read(b, 0, back.data(), back.size()));
  EXPECT_EQ(back, data);
  EXPECT_GT(dctest::fake_driver()->call_count("cuMemAllocFromPoolAsync"), 0);
  dc_buffer_release(b);
}

}  // namespace
