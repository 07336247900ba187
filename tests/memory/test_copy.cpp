// Copies: random-data round trips of every copy kind at sizes from 1 byte to
// tens of MiB (1 GiB with DCTEST_LARGE=1) at odd offsets, bounds and overlap
// checks with the numbers in the message, zero sizes, NULL pointers, the
// staged pageable path and the direct pinned path.
#include <atomic>
#include <cstdlib>
#include <thread>

#include "memory_test.h"

namespace {

using memtest::first_difference;
using memtest::MemoryTest;
using memtest::random_bytes;

constexpr uint64_t kMiB = 1ull << 20;

// Sizes around the interesting boundaries: tiny, the staging threshold, more
// than one staging chunk, more chunks than staging buffers.
const uint64_t kSizes[] = {1, 3, 4097, 65537, (256 << 10) - 1, 256 << 10, kMiB + 7, 9 * kMiB + 13, 37 * kMiB + 5};
const uint64_t kOffsets[] = {0, 1, 7};

class CopyTest : public MemoryTest {
 protected:
  // Writes `data` into a fresh device buffer at `offset` with `write`, reads
  // it back with `read`, and checks every byte.
  template <class Write, class Read>
  void round_trip(uint64_t size, uint64_t offset, uint32_t seed, Write&& write, Read&& read) {
    SCOPED_TRACE(testing::Message() << "size " << size << ", offset " << offset);
    dc_buffer b = alloc(size + offset + 3);
    ASSERT_NE(b, nullptr);
    std::vector<uint8_t> data = random_bytes(size, seed), back(size, 0);
    ASSERT_NO_FATAL_FAILURE(write(b, offset, data.data(), size));
    ASSERT_NO_FATAL_FAILURE(read(b, offset, back.data(), size));
    EXPECT_EQ(first_difference(data.data(), back.data(), size), -1);
    dc_buffer_release(b);
  }
};

TEST_F(CopyTest, SynchronousPageableRoundTrips) {
  for (uint64_t size : kSizes)
    for (uint64_t offset : kOffsets)
      round_trip(
          size, offset, static_cast<uint32_t>(size + offset),
          [](dc_buffer b, uint64_t off, const void* src, uint64_t n) { ASSERT_DC_OK(dc_buffer_write(b, off, src, n)); },
          [](dc_buffer b, uint64_t off, void* dst, uint64_t n) { ASSERT_DC_OK(dc_buffer_read(b, off, dst, n)); });
}

TEST_F(CopyTest, AsynchronousPageableRoundTrips) {
  dc_stream s = stream();
  for (uint64_t size : kSizes)
    for (uint64_t offset : kOffsets)
      round_trip(
          size, offset, static_cast<uint32_t>(3 * size + offset),
          [&](dc_buffer b, uint64_t off, const void* src, uint64_t n) {
            ASSERT_DC_OK(dc_buffer_write_async(b, off, src, n, s));
          },
          [&](dc_buffer b, uint64_t off, void* dst, uint64_t n) {
            ASSERT_DC_OK(dc_buffer_read_async(b, off, dst, n, s));
            ASSERT_DC_OK(dc_stream_synchronize(s));
          });
  dc_stream_release(s);
}

TEST_F(CopyTest, PinnedHostMemoryRoundTrips) {
  dc_stream s = stream();
  dc_buffer pinned_in = nullptr, pinned_out = nullptr;
  const uint64_t max = 37 * kMiB + 16;
  ASSERT_DC_OK(dc_buffer_alloc_pinned(device_, max, 0, &pinned_in));
  ASSERT_DC_OK(dc_buffer_alloc_pinned(device_, max, 0, &pinned_out));
  void *in = nullptr, *out = nullptr;
  ASSERT_DC_OK(dc_buffer_host_pointer(pinned_in, &in));
  ASSERT_DC_OK(dc_buffer_host_pointer(pinned_out, &out));
  for (bool async : {false, true}) {
    for (uint64_t size : kSizes) {
      for (uint64_t offset : kOffsets) {
        SCOPED_TRACE(testing::Message() << (async ? "async" : "sync") << " size " << size << " offset " << offset);
        std::vector<uint8_t> data = random_bytes(size, static_cast<uint32_t>(size * 7 + offset));
        // The host pointers of pinned buffers, at odd places inside them.
        uint8_t* src = static_cast<uint8_t*>(in) + offset;
        uint8_t* dst = static_cast<uint8_t*>(out) + 2 * offset;
        std::memcpy(src, data.data(), size);
        std::memset(dst, 0, size);
        dc_buffer b = alloc(size + offset);
        if (async) {
          ASSERT_DC_OK(dc_buffer_write_async(b, offset, src, size, s));
          ASSERT_DC_OK(dc_buffer_read_async(b, offset, dst, size, s));
          ASSERT_DC_OK(dc_stream_synchronize(s));
        } else {
          ASSERT_DC_OK(dc_buffer_write(b, offset, src, size));
          ASSERT_DC_OK(dc_buffer_read(b, offset, dst, size));
        }
        EXPECT_EQ(first_difference(data.data(), dst, size), -1);
        dc_buffer_release(b);
      }
    }
  }
  dc_buffer_release(pinned_in);
  dc_buffer_release(pinned_out);
  dc_stream_release(s);
}

TEST_F(CopyTest, BufferToBufferEveryKind) {
  dc_stream s = stream();
  const uint64_t sizes[] = {1, 4097, kMiB + 7, 9 * kMiB + 13};
  for (uint64_t size : sizes) {
    // One buffer of each kind that copies between buffers accept.
    std::vector<std::pair<const char*, dc_buffer>> kinds;
    dc_buffer b = nullptr;
    ASSERT_DC_OK(dc_buffer_alloc(device_, size + 16, 0, &b));
    kinds.push_back({"device", b});
    ASSERT_DC_OK(dc_buffer_alloc(device_, size + 16, DC_ALLOC_NO_POOL, &b));
    kinds.push_back({"device (cuMemAlloc)", b});
    ASSERT_DC_OK(dc_buffer_alloc_pinned(device_, size + 16, 0, &b));
    kinds.push_back({"pinned", b});
    ASSERT_DC_OK(dc_buffer_alloc_managed(device_, size + 16, 0, &b));
    kinds.push_back({"managed", b});
    std::vector<uint8_t> registered_memory(size + 16);
    ASSERT_DC_OK(dc_buffer_register_host(device_, registered_memory.data(), size + 16, 0, &b));
    kinds.push_back({"registered", b});
    for (auto& [src_name, src] : kinds) {
      for (auto& [dst_name, dst] : kinds) {
        if (src == dst) continue;
        for (bool async : {false, true}) {
          SCOPED_TRACE(testing::Message() << src_name << " -> " << dst_name << ", size " << size
                                          << (async ? ", async" : ", sync"));
          std::vector<uint8_t> data = random_bytes(size, static_cast<uint32_t>(size + async)), back(size);
          ASSERT_DC_OK(dc_buffer_write(src, 5, data.data(), size));
          if (async) {
            ASSERT_DC_OK(dc_buffer_copy_async(dst, 3, src, 5, size, s));
            ASSERT_DC_OK(dc_stream_synchronize(s));
          } else {
            ASSERT_DC_OK(dc_buffer_copy(dst, 3, src, 5, size));
          }
          ASSERT_DC_OK(dc_buffer_read(dst, 3, back.data(), size));
          ASSERT_EQ(first_difference(data.data(), back.data(), size), -1);
        }
      }
    }
    for (auto& [name, buffer] : kinds) dc_buffer_release(buffer);
  }
  dc_stream_release(s);
}

TEST_F(CopyTest, WithinOneBufferWithoutOverlap) {
  const uint64_t n = 3 * kMiB;
  dc_buffer b = alloc(2 * n + 1);
  std::vector<uint8_t> data = random_bytes(n, 11), back(n);
  ASSERT_DC_OK(dc_buffer_write(b, 0, data.data(), n));
  ASSERT_DC_OK(dc_buffer_copy(b, n + 1, b, 0, n));  // adjacent ranges: allowed
  ASSERT_DC_OK(dc_buffer_read(b, n + 1, back.data(), n));
  EXPECT_EQ(first_difference(data.data(), back.data(), n), -1);
  dc_buffer_release(b);
}

TEST_F(CopyTest, OverlappingRangesAreRefused) {
  dc_buffer b = alloc(4096);
  EXPECT_DC_ERROR(dc_buffer_copy(b, 100, b, 0, 200), DC_ERROR_INVALID_ARGUMENT,
                  "dst_offset 100 and src_offset 0 with size 200");
  EXPECT_DC_ERROR(dc_buffer_copy(b, 0, b, 0, 1), DC_ERROR_INVALID_ARGUMENT, "overlap");
  dc_stream s = stream();
  EXPECT_DC_ERROR(dc_buffer_copy_async(b, 0, b, 199, 200, s), DC_ERROR_INVALID_ARGUMENT, "overlap");
  // Two wrappers of the same memory overlap too.
  uint64_t ptr = 0;
  ASSERT_DC_OK(dc_buffer_device_pointer(b, &ptr));
  dc_buffer alias = nullptr;
  ASSERT_DC_OK(dc_buffer_wrap_device(device_, ptr + 1024, 1024, &alias));
  EXPECT_DC_ERROR(dc_buffer_copy(alias, 0, b, 1000, 100), DC_ERROR_INVALID_ARGUMENT, "overlap");
  EXPECT_DC_OK(dc_buffer_copy(alias, 0, b, 0, 1024));
  dc_buffer_release(alias);
  dc_stream_release(s);
  dc_buffer_release(b);
}

TEST_F(CopyTest, OutOfRangeNamesTheNumbers) {
  dc_buffer b = alloc(1024);
  dc_buffer small = alloc(100);
  dc_stream s = stream();
  std::vector<uint8_t> host(8192);
  EXPECT_DC_ERROR(dc_buffer_write(b, 64, host.data(), 4096), DC_ERROR_OUT_OF_RANGE,
                  "dc_buffer_write: dst_offset 64 + size 4096 exceeds dst's size 1024");
  EXPECT_DC_ERROR(dc_buffer_write(b, 1025, host.data(), 0), DC_ERROR_OUT_OF_RANGE,
                  "dst_offset 1025 is past the end of dst (size 1024)");
  EXPECT_DC_ERROR(dc_buffer_read(b, 1000, host.data(), 25), DC_ERROR_OUT_OF_RANGE,
                  "dc_buffer_read: src_offset 1000 + size 25 exceeds src's size 1024");
  EXPECT_DC_ERROR(dc_buffer_write_async(b, 1, host.data(), 1024, s), DC_ERROR_OUT_OF_RANGE,
                  "dst_offset 1 + size 1024 exceeds dst's size 1024");
  EXPECT_DC_ERROR(dc_buffer_read_async(b, 0, host.data(), 1025, s), DC_ERROR_OUT_OF_RANGE,
                  "src_offset 0 + size 1025 exceeds src's size 1024");
  EXPECT_DC_ERROR(dc_buffer_copy(small, 0, b, 0, 101), DC_ERROR_OUT_OF_RANGE,
                  "dst_offset 0 + size 101 exceeds dst's size 100");
  EXPECT_DC_ERROR(dc_buffer_copy(b, 0, small, 50, 51), DC_ERROR_OUT_OF_RANGE,
                  "src_offset 50 + size 51 exceeds src's size 100");
  EXPECT_DC_ERROR(dc_buffer_copy_async(b, 1000, small, 0, 100, s), DC_ERROR_OUT_OF_RANGE,
                  "dst_offset 1000 + size 100 exceeds dst's size 1024");
  // Sums that overflow 64 bits are still out of range.
  const uint64_t huge = ~uint64_t(0);
  EXPECT_DC_ERROR(dc_buffer_write(b, 8, host.data(), huge), DC_ERROR_OUT_OF_RANGE,
                  "dst_offset 8 + size 18446744073709551615 exceeds dst's size 1024");
  EXPECT_DC_ERROR(dc_buffer_read(b, huge, host.data(), 2), DC_ERROR_OUT_OF_RANGE, "src_offset 18446744073709551615");
  EXPECT_DC_ERROR(dc_buffer_copy(b, 0, small, 1, huge), DC_ERROR_OUT_OF_RANGE, "exceeds");
  // Nothing was written by the refused copies.
  std::vector<uint8_t> zeros(1024, 0), back(1024, 1);
  ASSERT_DC_OK(dc_buffer_write(b, 0, zeros.data(), 1024));
  EXPECT_DC_ERROR(dc_buffer_write(b, 512, host.data(), 1024), DC_ERROR_OUT_OF_RANGE, "exceeds");
  ASSERT_DC_OK(dc_buffer_read(b, 0, back.data(), 1024));
  EXPECT_EQ(back, zeros);
  dc_stream_release(s);
  dc_buffer_release(small);
  dc_buffer_release(b);
}

TEST_F(CopyTest, ZeroSizesAndNullPointers) {
  dc_buffer b = alloc(1024);
  dc_buffer c = alloc(1024);
  dc_stream s = stream();
  // Size 0 is a valid copy that does nothing, NULL host pointers included.
  EXPECT_DC_OK(dc_buffer_write(b, 0, nullptr, 0));
  EXPECT_DC_OK(dc_buffer_read(b, 1024, nullptr, 0));
  EXPECT_DC_OK(dc_buffer_copy(b, 1024, c, 0, 0));
  EXPECT_DC_OK(dc_buffer_copy(b, 0, b, 0, 0));
  EXPECT_DC_OK(dc_buffer_write_async(b, 10, nullptr, 0, s));
  EXPECT_DC_OK(dc_buffer_read_async(b, 10, nullptr, 0, s));
  EXPECT_DC_OK(dc_buffer_copy_async(b, 10, c, 10, 0, s));
  // ... but the handles are still checked.
  EXPECT_DC_ERROR(dc_buffer_write(nullptr, 0, nullptr, 0), DC_ERROR_INVALID_HANDLE, "dst is NULL");
  EXPECT_DC_ERROR(dc_buffer_copy(b, 0, nullptr, 0, 0), DC_ERROR_INVALID_HANDLE, "src is NULL");
  EXPECT_DC_ERROR(dc_buffer_write_async(b, 0, nullptr, 0, nullptr), DC_ERROR_INVALID_HANDLE, "stream is NULL");
  // NULL host memory with a size is refused.
  EXPECT_DC_ERROR(dc_buffer_write(b, 0, nullptr, 16), DC_ERROR_INVALID_ARGUMENT, "src is NULL with size 16");
  EXPECT_DC_ERROR(dc_buffer_read(b, 0, nullptr, 16), DC_ERROR_INVALID_ARGUMENT, "dst is NULL with size 16");
  EXPECT_DC_ERROR(dc_buffer_write_async(b, 0, nullptr, 1, s), DC_ERROR_INVALID_ARGUMENT, "src is NULL");
  EXPECT_DC_ERROR(dc_buffer_read_async(b, 0, nullptr, 1, s), DC_ERROR_INVALID_ARGUMENT, "dst is NULL");
  dc_stream_release(s);
  dc_buffer_release(b);
  dc_buffer_release(c);
}

TEST_F(CopyTest, PageableCopiesAreStagedPinnedOnesAreDirect) {
  auto* f = dctest::fake_driver();
  if (!f) GTEST_SKIP() << "counts driver calls: fake driver only";
  for (const char* knob : {"DCCUDA_STAGING_MIN_BYTES", "DCCUDA_STAGING_MIN_BYTES_H2D", "DCCUDA_STAGING_CHUNK_BYTES", "DCCUDA_STAGING_MIN_CHUNK_BYTES",
                           "DCCUDA_STAGING_BUFFERS"})
    if (std::getenv(knob)) GTEST_SKIP() << "counts calls for the default tuning; " << knob << " is set";
  const uint64_t n = 9 * kMiB + 13;
  dc_buffer b = alloc(n);
  std::vector<uint8_t> data = random_bytes(n, 21), back(n);
  f->reset();
  ASSERT_DC_OK(dc_buffer_write(b, 0, data.data(), n));
  ASSERT_DC_OK(dc_buffer_read(b, 0, back.data(), n));
  EXPECT_EQ(first_difference(data.data(), back.data(), n), -1);
  EXPECT_EQ(f->call_count("cuMemcpyHtoD"), 0) << "a large pageable write went straight to the driver";
  EXPECT_EQ(f->call_count("cuMemcpyDtoH"), 0) << "a large pageable read went straight to the driver";
  EXPECT_GE(f->call_count("cuMemcpyHtoDAsync"), 4) << "not staged in chunks";
  EXPECT_GE(f->call_count("cuMemcpyDtoHAsync"), 4) << "not staged in chunks";
  EXPECT_EQ(f->call_count("cuMemHostAlloc"), 4) << "the staging buffers are made once, at first use";
  // Again: the staging buffers are reused.
  ASSERT_DC_OK(dc_buffer_write(b, 0, data.data(), n));
  EXPECT_EQ(f->call_count("cuMemHostAlloc"), 4);

  dc_buffer pinned = nullptr;
  ASSERT_DC_OK(dc_buffer_alloc_pinned(device_, n, 0, &pinned));
  void* host = nullptr;
  ASSERT_DC_OK(dc_buffer_host_pointer(pinned, &host));
  f->reset();
  ASSERT_DC_OK(dc_buffer_write(b, 0, host, n));
  ASSERT_DC_OK(dc_buffer_read(b, 0, host, n));
  EXPECT_EQ(f->call_count("cuMemcpyHtoD"), 1) << "pinned memory is copied directly";
  EXPECT_EQ(f->call_count("cuMemcpyDtoH"), 1);
  EXPECT_EQ(f->call_count("cuMemcpyHtoDAsync"), 0);
  // Small pageable copies: one synchronous driver copy each (through a pinned buffer: below).
  f->reset();
  ASSERT_DC_OK(dc_buffer_write(b, 0, data.data(), 1000));
  ASSERT_DC_OK(dc_buffer_read(b, 0, back.data(), 1000));
  EXPECT_EQ(f->call_count("cuMemcpyHtoD"), 1);
  EXPECT_EQ(f->call_count("cuMemcpyDtoH"), 1);
  dc_buffer_release(pinned);
  dc_buffer_release(b);
}

// A small synchronous pageable write goes through one of dccuda's pinned
// buffers: the driver's copy from pinned memory is complete when it returns,
// so no wait for the legacy stream follows (the driver's pageable copy may
// return before its DMA is done, and needed one). Reads take the same path.
TEST_F(CopyTest, SmallPageableCopiesGoThroughAPinnedBufferWithoutAStreamWait) {
  auto* f = dctest::fake_driver();
  if (!f) GTEST_SKIP() << "counts driver calls: fake driver only";
  for (const char* knob : {"DCCUDA_STAGING_MIN_BYTES", "DCCUDA_STAGING_MIN_BYTES_H2D", "DCCUDA_STAGING_SMALL_BYTES"})
    if (std::getenv(knob)) GTEST_SKIP() << "counts calls for the default tuning; " << knob << " is set";
  for (uint64_t n : {uint64_t(1), uint64_t(4096), uint64_t(65536), kMiB, 4 * kMiB - 1}) {
    SCOPED_TRACE(testing::Message() << n << " bytes");
    dc_buffer b = alloc(n);
    std::vector<uint8_t> data = random_bytes(n, static_cast<uint32_t>(n)), back(n);
    f->reset();
    ASSERT_DC_OK(dc_buffer_write(b, 0, data.data(), n));
    EXPECT_EQ(f->call_count("cuMemcpyHtoD"), 1);
    EXPECT_EQ(f->call_count("cuStreamSynchronize"), 0) << "a small pageable write waited for the stream";
    EXPECT_EQ(f->call_count("cuMemcpyHtoDAsync"), 0) << "a small pageable write was pipelined";
    if (n < (256u << 10)) {  // below the pipelined reads' threshold
      ASSERT_DC_OK(dc_buffer_read(b, 0, back.data(), n));
      EXPECT_EQ(f->call_count("cuMemcpyDtoH"), 1);
      EXPECT_EQ(f->call_count("cuMemcpyDtoHAsync"), 0);
    } else {
      ASSERT_DC_OK(dc_buffer_read(b, 0, back.data(), n));
    }
    EXPECT_EQ(first_difference(data.data(), back.data(), n), -1);
    EXPECT_LE(f->call_count("cuMemHostAlloc"), 4) << "the pinned buffers are the staging buffers, made once";
    dc_buffer_release(b);
  }
}

// Sizes on both sides of the small-copy limit (DCCUDA_STAGING_SMALL_BYTES
// when set, e.g. by test_copy_small, else its default) and of the staging
// chunk: every byte arrives, both ways, at odd offsets.
TEST_F(CopyTest, SynchronousCopiesAroundTheSmallCopyLimit) {
  uint64_t limit = 4 * kMiB;
  if (const char* v = std::getenv("DCCUDA_STAGING_SMALL_BYTES")) limit = std::strtoull(v, nullptr, 10);
  uint64_t chunk = 8 * kMiB;
  if (const char* v = std::getenv("DCCUDA_STAGING_CHUNK_BYTES")) chunk = std::strtoull(v, nullptr, 10);
  std::vector<uint64_t> sizes = {limit - 1, limit, limit + 1};
  if (chunk < limit) sizes.insert(sizes.end(), {chunk - 1, chunk, chunk + 1, 2 * chunk + 5});
  for (uint64_t size : sizes)
    for (uint64_t offset : {uint64_t(0), uint64_t(3)})
      round_trip(
          size, offset, static_cast<uint32_t>(7 * size + offset),
          [](dc_buffer b, uint64_t off, const void* src, uint64_t n) { ASSERT_DC_OK(dc_buffer_write(b, off, src, n)); },
          [](dc_buffer b, uint64_t off, void* dst, uint64_t n) { ASSERT_DC_OK(dc_buffer_read(b, off, dst, n)); });
}

TEST_F(CopyTest, AsyncPageableWriteMayReuseTheSourceOnReturn) {
  // The documented contract: with pageable src, src may be reused as soon as
  // the call returns.
  dc_stream s = stream();
  const uint64_t n = 20 * kMiB + 1;
  dc_buffer b = alloc(n);
  std::vector<uint8_t> data = random_bytes(n, 31), src = data, back(n);
  ASSERT_DC_OK(dc_buffer_write_async(b, 0, src.data(), n, s));
  std::fill(src.begin(), src.end(), uint8_t(0xEE));
  ASSERT_DC_OK(dc_buffer_read_async(b, 0, back.data(), n, s));
  // A pageable read returns when the data is there.
  EXPECT_EQ(first_difference(data.data(), back.data(), n), -1);
  ASSERT_DC_OK(dc_stream_synchronize(s));
  dc_buffer_release(b);
  dc_stream_release(s);
}

TEST_F(CopyTest, ConcurrentStagedCopiesFromManyThreads) {
  const uint64_t n = 6 * kMiB + 3;
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      dc_buffer b = nullptr;
      if (dc_buffer_alloc(device_, n, 0, &b) != DC_SUCCESS) {
        ++failures;
        return;
      }
      std::vector<uint8_t> data = random_bytes(n, 40 + t), back(n);
      for (int i = 0; i < 3; ++i) {
        if (dc_buffer_write(b, 0, data.data(), n) != DC_SUCCESS || dc_buffer_read(b, 0, back.data(), n) != DC_SUCCESS ||
            back != data)
          ++failures;
      }
      dc_buffer_release(b);
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(failures.load(), 0);
}

TEST_F(CopyTest, OneGibibyteRoundTrip) {
  if (!memtest::large_tests()) GTEST_SKIP() << "set DCTEST_LARGE=1 to copy 1 GiB";
  const uint64_t n = 1ull << 30;
  dc_buffer b = alloc(n + 1);
  ASSERT_NE(b, nullptr);
  std::vector<uint8_t> data = random_bytes(n, 1234), back(n);
  ASSERT_DC_OK(dc_buffer_write(b, 1, data.data(), n));
  ASSERT_DC_OK(dc_buffer_read(b, 1, back.data(), n));
  EXPECT_EQ(first_difference(data.data(), back.data(), n), -1);
  dc_stream s = stream();
  std::fill(back.begin(), back.end(), uint8_t(0));
  ASSERT_DC_OK(dc_buffer_write_async(b, 1, data.data(), n, s));
  ASSERT_DC_OK(dc_buffer_read_async(b, 1, back.data(), n, s));
  ASSERT_DC_OK(dc_stream_synchronize(s));
  EXPECT_EQ(first_difference(data.data(), back.data(), n), -1);
  dc_buffer c = alloc(n);
  ASSERT_DC_OK(dc_buffer_copy(c, 0, b, 1, n));
  std::fill(back.begin(), back.end(), uint8_t(0));
  ASSERT_DC_OK(dc_buffer_read(c, 0, back.data(), n));
  EXPECT_EQ(first_difference(data.data(), back.data(), n), -1);
  dc_buffer_release(c);
  dc_stream_release(s);
  dc_buffer_release(b);
}

}  // namespace
