// Growable buffers (dc_buffer_alloc_growable, dc_buffer_grow): the address
// stays, the data stays, copies and fills cross the chunks mapped by
// different grows, sizes are rounded to the granularity, and every misuse
// is refused. Kernels on a growable buffer: test_launch. The long growth (2
// MiB to 8 GiB on a GPU): test_growable_large.cpp.
#include <vector>

#include "memory/memory_test.h"

namespace {

using namespace memtest;

class GrowableTest : public MemoryTest {
 protected:
  void SetUp() override {
    MemoryTest::SetUp();
    if (HasFatalFailure() || IsSkipped()) return;
    ASSERT_DC_OK(dc_device_allocation_granularity(device_, DC_GRANULARITY_MINIMUM, &granularity_));
  }
  uint64_t granularity_ = 0;
};

TEST_F(GrowableTest, GrowingKeepsTheAddressAndTheData) {
  const uint64_t g = granularity_;
  ASSERT_GT(g, 0u);
  EXPECT_EQ(g & (g - 1), 0u) << "a power of two";
  uint64_t recommended = 0;
  ASSERT_DC_OK(dc_device_allocation_granularity(device_, DC_GRANULARITY_RECOMMENDED, &recommended));
  EXPECT_GE(recommended, g);
  if (dctest::fake_driver()) {
    EXPECT_EQ(g, 2u << 20);
  }

  dc_buffer b = nullptr;
  ASSERT_DC_OK(dc_buffer_alloc_growable(device_, 10 * g + 1, 1, &b));
  uint64_t size = 0, reserved = 0, address = 0, after = 0;
  ASSERT_DC_OK(dc_buffer_size(b, &size));
  EXPECT_EQ(size, g) << "1 byte rounds up to the granularity";
  ASSERT_DC_OK(dc_buffer_reserved_size(b, &reserved));
  EXPECT_EQ(reserved, 11 * g);
  int32_t kind = 0;
  ASSERT_DC_OK(dc_buffer_kind(b, &kind));
  EXPECT_EQ(kind, DC_BUFFER_DEVICE);
  ASSERT_DC_OK(dc_buffer_device_pointer(b, &address));

  std::vector<uint8_t> first = random_bytes(g, 1);
  ASSERT_DC_OK(dc_buffer_write(b, 0, first.data(), first.size()));
  ASSERT_DC_OK(dc_buffer_grow(b, 3 * g + 5));
  ASSERT_DC_OK(dc_buffer_size(b, &size));
  EXPECT_EQ(size, 4 * g);
  ASSERT_DC_OK(dc_buffer_device_pointer(b, &after));
  EXPECT_EQ(after, address) << "the address never changes";
  std::vector<uint8_t> back(g);
  ASSERT_DC_OK(dc_buffer_read(b, 0, back.data(), back.size()));
  EXPECT_EQ(first_difference(back.data(), first.data(), g), -1) << "the data survives the growth";

  // Copies and fills across the boundary between two grows' chunks.
  std::vector<uint8_t> across = random_bytes(4096, 2);
  ASSERT_DC_OK(dc_buffer_write(b, g - 1000, across.data(), across.size()));
  std::memcpy(first.data() + g - 1000, across.data(), 1000);
  std::vector<uint8_t> got(4096);
  ASSERT_DC_OK(dc_buffer_read(b, g - 1000, got.data(), got.size()));
  EXPECT_EQ(first_difference(got.data(), across.data(), got.size()), -1);
  dc_buffer plain = alloc(3 * g);
  ASSERT_DC_OK(dc_buffer_copy(plain, 0, b, g / 2, 3 * g));
  ASSERT_DC_OK(dc_buffer_fill(b, 2 * g - 8, 16, 0x5a5a5a5a, 4));
  ASSERT_DC_OK(dc_buffer_read(b, 2 * g - 8, got.data(), 16));
  for (int i = 0; i < 16; ++i) EXPECT_EQ(got[i], 0x5a) << i;
  ASSERT_DC_OK(dc_buffer_read(plain, g / 2 - 1000, got.data(), 4096));
  EXPECT_EQ(first_difference(got.data(), across.data(), got.size()), -1);

  // A view of the grown part; a stream-ordered copy into the new memory.
  dc_buffer view = nullptr;
  ASSERT_DC_OK(dc_buffer_view(b, 3 * g, g, &view));
  dc_stream s = stream();
  ASSERT_DC_OK(dc_buffer_copy_async(view, 0, plain, 0, 4096, s));
  ASSERT_DC_OK(dc_stream_synchronize(s));
  ASSERT_DC_OK(dc_buffer_read(b, 3 * g, got.data(), 4096));
  std::vector<uint8_t> expect(4096);
  ASSERT_DC_OK(dc_buffer_read(plain, 0, expect.data(), 4096));
  EXPECT_EQ(first_difference(got.data(), expect.data(), 4096), -1);

  // Smaller or equal: nothing changes; past the reservation: refused, size unchanged.
  ASSERT_DC_OK(dc_buffer_grow(b, 5));
  ASSERT_DC_OK(dc_buffer_size(b, &size));
  EXPECT_EQ(size, 4 * g);
  EXPECT_DC_ERROR(dc_buffer_grow(b, 11 * g + 1), DC_ERROR_OUT_OF_RANGE, "bytes reserved for the buffer");
  ASSERT_DC_OK(dc_buffer_grow(b, 11 * g));
  ASSERT_DC_OK(dc_buffer_size(b, &size));
  EXPECT_EQ(size, 11 * g);
  ASSERT_DC_OK(dc_buffer_read(b, 0, back.data(), back.size()));
  EXPECT_EQ(first_difference(back.data(), first.data(), g), -1);

  dc_stream_release(s);
  dc_buffer_release(view);
  dc_buffer_release(plain);
  dc_buffer_release(b);
}

TEST_F(GrowableTest, ArgumentsAreChecked) {
  dc_buffer b = nullptr;
  EXPECT_DC_ERROR(dc_buffer_alloc_growable(device_, 0, 1, &b), DC_ERROR_INVALID_ARGUMENT, "max_size is 0");
  EXPECT_DC_ERROR(dc_buffer_alloc_growable(device_, 64, 0, &b), DC_ERROR_INVALID_ARGUMENT, "initial_size is 0");
  EXPECT_DC_ERROR(dc_buffer_alloc_growable(device_, 64, 65, &b), DC_ERROR_INVALID_ARGUMENT,
                  "initial_size 65 exceeds max_size 64");
  EXPECT_DC_ERROR(dc_buffer_alloc_growable(device_, UINT64_MAX, 1, &b), DC_ERROR_OUT_OF_MEMORY, "max_size");
  uint64_t g = 7;
  EXPECT_DC_ERROR(dc_device_allocation_granularity(device_, 2, &g), DC_ERROR_INVALID_ARGUMENT, "which is 2");
  EXPECT_EQ(g, 0u);
  dc_buffer plain = alloc(4096);
  EXPECT_DC_ERROR(dc_buffer_grow(plain, 8192), DC_ERROR_INVALID_ARGUMENT, "not made by dc_buffer_alloc_growable");
  uint64_t reserved = 0;
  ASSERT_DC_OK(dc_buffer_reserved_size(plain, &reserved));
  EXPECT_EQ(reserved, 4096u) << "any other buffer: its size";
  ASSERT_DC_OK(dc_buffer_alloc_growable(device_, 4 * granularity_, 1, &b));
  dc_buffer view = nullptr;
  ASSERT_DC_OK(dc_buffer_view(b, 0, 64, &view));
  EXPECT_DC_ERROR(dc_buffer_grow(view, 2 * granularity_), DC_ERROR_INVALID_ARGUMENT, "buffer is a view");
  ASSERT_DC_OK(dc_buffer_reserved_size(view, &reserved));
  EXPECT_EQ(reserved, 64u);
  dc_buffer_release(view);
  dc_buffer_release(b);
  dc_buffer_release(plain);
}

// Nothing is left behind: every chunk unmapped and released, the range freed.
TEST_F(GrowableTest, ReleaseFreesEveryChunkAndTheRange) {
  auto* fake = dctest::fake_driver();
  if (!fake) GTEST_SKIP() << "counts the fake driver's objects";
  dc_buffer b = nullptr;
  ASSERT_DC_OK(dc_buffer_alloc_growable(device_, 8 * granularity_, granularity_, &b));
  ASSERT_DC_OK(dc_buffer_grow(b, 2 * granularity_));
  ASSERT_DC_OK(dc_buffer_grow(b, 5 * granularity_));
  EXPECT_EQ(fake->live("reservations"), 1);
  EXPECT_EQ(fake->live("physical"), 3);
  dc_buffer_release(b);
  EXPECT_EQ(fake->live("reservations"), 0);
  EXPECT_EQ(fake->live("physical"), 0);
}

}  // namespace
