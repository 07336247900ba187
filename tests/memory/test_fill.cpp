// Fills: 8, 16 and 32-bit values on every kind of buffer, synchronous and in
// stream order, and every bad argument.
#include "memory_test.h"

namespace {

using memtest::MemoryTest;

// What a fill of `value` as `element` bytes leaves in memory (little endian).
std::vector<uint8_t> expected_fill(uint64_t size, uint32_t value, uint32_t element) {
  std::vector<uint8_t> out(size);
  for (uint64_t i = 0; i < size; ++i) out[i] = static_cast<uint8_t>(value >> (8 * (i % element)));
  return out;
}

class FillTest : public MemoryTest {};

TEST_F(FillTest, EveryElementSizeOnEveryKind) {
  dc_stream s = stream();
  const uint64_t n = 3 * (1 << 20) + 64;
  std::vector<uint8_t> registered_memory(n);
  for (int kind = 0; kind < 4; ++kind) {
    dc_buffer b = nullptr;
    switch (kind) {
      case 0: ASSERT_DC_OK(dc_buffer_alloc(device_, n, 0, &b)); break;
      case 1: ASSERT_DC_OK(dc_buffer_alloc_pinned(device_, n, 0, &b)); break;
      case 2: ASSERT_DC_OK(dc_buffer_alloc_managed(device_, n, 0, &b)); break;
      case 3: ASSERT_DC_OK(dc_buffer_register_host(device_, registered_memory.data(), n, DC_ALLOC_DEVICE_MAPPED, &b)); break;
    }
    for (uint32_t element : {1u, 2u, 4u}) {
      for (bool async : {false, true}) {
        SCOPED_TRACE(testing::Message() << "kind " << kind << ", element " << element << (async ? ", async" : ""));
        uint32_t value = element == 1 ? 0xA5u : element == 2 ? 0xBEEFu : 0xDEADBEEFu;
        // Background, then a fill of an inner range: the edges must stay.
        std::vector<uint8_t> background = memtest::random_bytes(n, element + (async ? 10 : 0));
        ASSERT_DC_OK(dc_buffer_write(b, 0, background.data(), n));
        uint64_t offset = 4 * element, size = n - 12 * element;
        if (async) {
          ASSERT_DC_OK(dc_buffer_fill_async(b, offset, size, value, element, s));
          ASSERT_DC_OK(dc_stream_synchronize(s));
        } else {
          ASSERT_DC_OK(dc_buffer_fill(b, offset, size, value, element));
        }
        std::vector<uint8_t> back(n), want = background;
        std::vector<uint8_t> filled = expected_fill(size, value, element);
        std::copy(filled.begin(), filled.end(), want.begin() + static_cast<long>(offset));
        ASSERT_DC_OK(dc_buffer_read(b, 0, back.data(), n));
        EXPECT_EQ(memtest::first_difference(want.data(), back.data(), n), -1);
      }
    }
    dc_buffer_release(b);
  }
  dc_stream_release(s);
}

TEST_F(FillTest, BadArguments) {
  dc_buffer b = alloc(1024);
  dc_stream s = stream();
  EXPECT_DC_ERROR(dc_buffer_fill(b, 0, 64, 0, 3), DC_ERROR_INVALID_ARGUMENT, "element_size 3 is not 1, 2 or 4");
  EXPECT_DC_ERROR(dc_buffer_fill(b, 0, 64, 0, 0), DC_ERROR_INVALID_ARGUMENT, "element_size 0");
  EXPECT_DC_ERROR(dc_buffer_fill(b, 0, 64, 0, 8), DC_ERROR_INVALID_ARGUMENT, "element_size 8");
  EXPECT_DC_ERROR(dc_buffer_fill(b, 0, 64, 0x100, 1), DC_ERROR_INVALID_ARGUMENT, "value 0x100 does not fit in 1 byte");
  EXPECT_DC_ERROR(dc_buffer_fill(b, 0, 64, 0x10000, 2), DC_ERROR_INVALID_ARGUMENT, "value 0x10000 does not fit in 2 bytes");
  EXPECT_DC_ERROR(dc_buffer_fill(b, 2, 64, 0, 4), DC_ERROR_INVALID_ARGUMENT,
                  "offset 2 and size 64 must be multiples of element_size 4");
  EXPECT_DC_ERROR(dc_buffer_fill(b, 0, 63, 0, 2), DC_ERROR_INVALID_ARGUMENT, "must be multiples of element_size 2");
  EXPECT_DC_ERROR(dc_buffer_fill(b, 1000, 32, 0, 4), DC_ERROR_OUT_OF_RANGE,
                  "offset 1000 + size 32 exceeds buffer's size 1024");
  EXPECT_DC_ERROR(dc_buffer_fill(b, 2048, 0, 0, 1), DC_ERROR_OUT_OF_RANGE, "offset 2048 is past the end of buffer");
  EXPECT_DC_ERROR(dc_buffer_fill_async(b, 1, 2, 0, 2, s), DC_ERROR_INVALID_ARGUMENT, "multiples");
  EXPECT_DC_ERROR(dc_buffer_fill_async(b, 0, 4, 0, 1, nullptr), DC_ERROR_INVALID_HANDLE, "stream is NULL");
  EXPECT_DC_ERROR(dc_buffer_fill(nullptr, 0, 4, 0, 1), DC_ERROR_INVALID_HANDLE, "buffer is NULL");
  EXPECT_DC_OK(dc_buffer_fill(b, 1024, 0, 0xFF, 1));  // size 0: nothing to do
  EXPECT_DC_OK(dc_buffer_fill(b, 0, 1024, 0xFFFFFFFFu, 4));
  // A wrapped pointer that is not aligned to the element.
  uint64_t ptr = 0;
  ASSERT_DC_OK(dc_buffer_device_pointer(b, &ptr));
  dc_buffer odd = nullptr;
  ASSERT_DC_OK(dc_buffer_wrap_device(device_, ptr + 1, 64, &odd));
  EXPECT_DC_ERROR(dc_buffer_fill(odd, 0, 8, 0, 4), DC_ERROR_INVALID_ARGUMENT, "not aligned to element_size 4");
  EXPECT_DC_OK(dc_buffer_fill(odd, 0, 8, 7, 1));
  dc_buffer_release(odd);
  dc_stream_release(s);
  dc_buffer_release(b);
}

TEST_F(FillTest, ReadOnlyRegisteredMemoryIsFilledOnlyByTheCpu) {
  std::vector<uint8_t> memory(8192, 0);
  dc_buffer r = nullptr;
  ASSERT_DC_OK(dc_buffer_register_host(device_, memory.data(), memory.size(), DC_ALLOC_READ_ONLY | DC_ALLOC_DEVICE_MAPPED, &r));
  dc_stream s = stream();
  EXPECT_DC_ERROR(dc_buffer_fill_async(r, 0, 64, 1, 1, s), DC_ERROR_INVALID_ARGUMENT, "DC_ALLOC_READ_ONLY");
  ASSERT_DC_OK(dc_buffer_fill(r, 0, 64, 1, 1));
  EXPECT_EQ(memory[0], 1);
  EXPECT_EQ(memory[63], 1);
  EXPECT_EQ(memory[64], 0);
  dc_stream_release(s);
  dc_buffer_release(r);
}

}  // namespace
