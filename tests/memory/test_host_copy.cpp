// The host side of staged copies (white-box): parallel_memcpy and
// parallel_copy_rows give the bytes a plain memcpy gives, for odd sizes,
// pitches and row counts, below and above the size at which the rows are
// split over the copy threads.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include "memory/host_copy.h"

namespace {

uint8_t pattern(size_t i) { return static_cast<uint8_t>((i * 2654435761u) >> 13); }

TEST(HostCopy, ParallelMemcpyCopiesEveryByte) {
  for (size_t n : {size_t(1), size_t(4095), size_t(512) << 10, (size_t(3) << 20) + 77}) {
    std::vector<uint8_t> src(n), dst(n + 64, 0xEE);
    for (size_t i = 0; i < n; ++i) src[i] = pattern(i);
    dc::parallel_memcpy(dst.data(), src.data(), n);
    EXPECT_EQ(std::memcmp(dst.data(), src.data(), n), 0) << n << " bytes";
    for (size_t i = n; i < dst.size(); ++i) ASSERT_EQ(dst[i], 0xEE) << "wrote past the end, " << n << " bytes";
  }
}

// The streaming copy (non-temporal stores on x86-64) at every alignment of
// both ends and odd lengths, alone and split over the copy threads.
TEST(HostCopy, StreamingCopiesCopyEveryByteAndNothingElse) {
  for (size_t n : {size_t(0), size_t(1), size_t(255), size_t(256), size_t(300), size_t(4099), size_t(65536 + 7),
                   (size_t(1) << 20) + 33}) {
    for (size_t dst_shift : {size_t(0), size_t(1), size_t(15)}) {
      for (size_t src_shift : {size_t(0), size_t(3)}) {
        std::vector<uint8_t> src(n + 16), dst(n + 64, 0xEE);
        for (size_t i = 0; i < src.size(); ++i) src[i] = pattern(i);
        for (bool parallel : {false, true}) {
          std::fill(dst.begin(), dst.end(), uint8_t(0xEE));
          if (parallel) dc::parallel_memcpy(dst.data() + dst_shift, src.data() + src_shift, n, true);
          else dc::streaming_memcpy(dst.data() + dst_shift, src.data() + src_shift, n);
          SCOPED_TRACE(testing::Message() << n << " bytes, dst +" << dst_shift << ", src +" << src_shift
                                          << (parallel ? ", parallel" : ""));
          ASSERT_EQ(std::memcmp(dst.data() + dst_shift, src.data() + src_shift, n), 0);
          for (size_t i = 0; i < dst_shift; ++i) ASSERT_EQ(dst[i], 0xEE) << "wrote before the start";
          for (size_t i = dst_shift + n; i < dst.size(); ++i) ASSERT_EQ(dst[i], 0xEE) << "wrote past the end";
        }
      }
    }
  }
}

struct Shape {
  size_t width, rows, src_pitch, dst_pitch;
};

TEST(HostCopy, ParallelCopyRowsCopiesEveryRowAndNothingElse) {
  // Small (one thread), and large enough to be split (at least 512 KiB), with
  // pitches that are not multiples of each other or of a cache line.
  for (Shape s : {Shape{3, 5, 7, 11}, Shape{1000, 300, 1003, 1024}, Shape{4099, 700, 4160, 4101},
                  Shape{65536, 33, 65600, 65536}, Shape{777, 4001, 800, 777}}) {
    std::vector<uint8_t> src(s.src_pitch * s.rows), dst(s.dst_pitch * s.rows, 0xEE);
    for (size_t i = 0; i < src.size(); ++i) src[i] = pattern(i);
    dc::parallel_copy_rows(dst.data(), s.dst_pitch, src.data(), s.src_pitch, s.width, s.rows);
    for (size_t r = 0; r < s.rows; ++r) {
      ASSERT_EQ(std::memcmp(dst.data() + r * s.dst_pitch, src.data() + r * s.src_pitch, s.width), 0)
          << "row " << r << " of " << s.rows << " (width " << s.width << ")";
      for (size_t k = s.width; k < s.dst_pitch; ++k)
        ASSERT_EQ(dst[r * s.dst_pitch + k], 0xEE) << "wrote into the pitch gap of row " << r;
    }
  }
}

}  // namespace
