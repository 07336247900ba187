// The byte extents dc_blas checks operands against (libs/blas/blas_operands):
// sizes near 2^63 give element counts near 2^126, and times the element size
// past 2^128, where a wrapped product would look small enough to pass.
#include <gtest/gtest.h>

#include <cstdint>

#include "libs/blas/blas_operands.h"

namespace {

constexpr int64_t k2to62 = int64_t(1) << 62;
const unsigned __int128 k2to64 = static_cast<unsigned __int128>(1) << 64;

TEST(BlasExtents, AMatrixOf2To125ElementsOfDoublesIsPast2To64Bytes) {
  // (batches - 1) * stride = 2^124, (cols - 1) * ld = 2^124, + 1 row: 2^125 + 1
  // elements; times 8 bytes, 2^128 + 8 would wrap to 8.
  unsigned __int128 end = dc::matrix_end(0, 1, k2to62 + 1, k2to62, k2to62, k2to62 + 1, 8);
  EXPECT_TRUE(end > k2to64) << "the extent wrapped to " << static_cast<uint64_t>(end);
}

TEST(BlasExtents, AVectorPast2To128BytesIsPast2To64Bytes) {
  // (n - 1) * inc + 1 = (2^63 - 2) * (2^63 - 1) + 1, about 2^126; times 8 past 2^128.
  unsigned __int128 end = dc::vector_end(64, INT64_MAX - 1, INT64_MAX, 8);
  EXPECT_TRUE(end > k2to64) << "the extent wrapped to " << static_cast<uint64_t>(end);
}

TEST(BlasExtents, OrdinaryExtentsAreExact) {
  // An 8 x 8 float matrix at offset 16 with ld 10: 7 * 10 + 8 = 78 elements.
  EXPECT_TRUE(dc::matrix_end(16, 8, 8, 10, 0, 1, 4) == 16 + 78 * 4);
  // Two batches 100 elements apart.
  EXPECT_TRUE(dc::matrix_end(0, 8, 8, 8, 100, 2, 8) == (100 + 64) * 8);
  // 5 elements 3 apart: 13 elements spanned.
  EXPECT_TRUE(dc::vector_end(4, 5, 3, 4) == 4 + 13 * 4);
}

}  // namespace
