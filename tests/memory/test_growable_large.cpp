// A growable buffer grown from 2 MiB to 8 GiB on a GPU (256 MiB on the fake
// driver, or 8 GiB there too with DCTEST_LARGE=1), doubling each time: its
// device address never changes and a marker written into every chunk as it
// was mapped is intact at the end. Its own binary, without the memcheck label:
// under compute-sanitizer 8 GiB of mappings would take too long.
#include <vector>

#include "memory/memory_test.h"

namespace {

using namespace memtest;

class GrowableLargeTest : public MemoryTest {};

TEST_F(GrowableLargeTest, GrowsFrom2MiBTo8GiBWithItsAddressAndDataIntact) {
  const uint64_t start = 2ull << 20;
  const uint64_t end = (!dctest::fake_driver() || large_tests()) ? (8ull << 30) : (256ull << 20);
  uint64_t free_bytes = 0, total_bytes = 0;
  ASSERT_DC_OK(dc_device_memory_info(device_, &free_bytes, &total_bytes));
  if (free_bytes < end + (1ull << 30)) GTEST_SKIP() << "needs " << end << " bytes of free device memory";
  dc_buffer b = nullptr;
  ASSERT_DC_OK(dc_buffer_alloc_growable(device_, end, start, &b));
  uint64_t address = 0, now = 0, size = 0;
  ASSERT_DC_OK(dc_buffer_device_pointer(b, &address));
  // Each chunk's marker: 4 KiB of its own pattern at its first byte.
  std::vector<uint64_t> marked;
  auto mark = [&](uint64_t at) {
    std::vector<uint8_t> m = random_bytes(4096, static_cast<uint32_t>(at >> 20));
    ASSERT_DC_OK(dc_buffer_write(b, at, m.data(), m.size()));
    marked.push_back(at);
  };
  mark(0);
  for (uint64_t target = start * 2; target <= end; target *= 2) {
    uint64_t before = 0;
    ASSERT_DC_OK(dc_buffer_size(b, &before));
    ASSERT_DC_OK(dc_buffer_grow(b, target));
    ASSERT_DC_OK(dc_buffer_size(b, &size));
    ASSERT_EQ(size, target);
    ASSERT_DC_OK(dc_buffer_device_pointer(b, &now));
    ASSERT_EQ(now, address) << "at " << target << " bytes";
    mark(before);
  }
  // The last byte is there too.
  uint8_t last = 0x7e, got = 0;
  ASSERT_DC_OK(dc_buffer_write(b, end - 1, &last, 1));
  ASSERT_DC_OK(dc_buffer_read(b, end - 1, &got, 1));
  EXPECT_EQ(got, last);
  std::vector<uint8_t> back(4096);
  for (uint64_t at : marked) {
    SCOPED_TRACE(at);
    std::vector<uint8_t> m = random_bytes(4096, static_cast<uint32_t>(at >> 20));
    ASSERT_DC_OK(dc_buffer_read(b, at, back.data(), back.size()));
    EXPECT_EQ(first_difference(back.data(), m.data(), m.size()), -1);
  }
  dc_buffer_release(b);
}

}  // namespace
