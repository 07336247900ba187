// 2D and 3D regions (dccuda.h, "2D and 3D (pitched) memory"): `depth` planes of
// `height` rows of `width` bytes in some memory of a known size; row r of
// plane p starts at offset + (p * rows_per_plane + r) * pitch. The checks run
// before any driver call, so that a bad region is an error naming its first
// bad row, never a fault or a copy past the end.
#pragma once

#include <cstdint>

namespace dc {

struct Extent {
  uint64_t width = 0;   // bytes per row
  uint64_t height = 1;  // rows per plane
  uint64_t depth = 1;   // planes
  bool empty() const noexcept { return width == 0 || height == 0 || depth == 0; }
  uint64_t rows() const noexcept { return height * depth; }
};

struct Region {
  uint64_t offset = 0;
  uint64_t pitch = 0;           // bytes from one row to the next
  uint64_t rows_per_plane = 0;  // rows from one plane to the next (3D only)
};

// The names a region's messages use: "dst" and its parameters
// ("dst_offset", "dst_pitch", "dst_rows_per_plane"); `memory` says what the
// size is ("dst's size", "src_size").
struct RegionNames {
  const char* region;          // "dst"
  const char* offset;          // "dst_offset"
  const char* pitch;           // "dst_pitch"
  const char* rows_per_plane;  // "dst_rows_per_plane" (3D), or nullptr
  const char* memory;          // "dst's size", "src_size"
};

// Fails with DC_ERROR_INVALID_ARGUMENT when the pitch is below the width (with
// more than one row) or rows_per_plane below the height (with more than one
// plane), and DC_ERROR_OUT_OF_RANGE naming the first row (and plane) that ends
// past `memory_size`. Does nothing for an empty extent.
void check_region(const Region& region, const Extent& extent, uint64_t memory_size, const RegionNames& names);

// The bytes [first, last) the region spans (first row's start to last row's
// end); the extent must not be empty and the region must have been checked.
struct Span {
  uint64_t first, last;
};
Span region_span(const Region& region, const Extent& extent) noexcept;

// Whether two checked regions in one address space share a byte: the spans
// overlap and some row of one meets some row of the other. Exact for regions
// whose rows are all of one pitch on each side; conservative (true) where
// the rows interleave in ways it does not enumerate (then the caller refuses,
// asking for a temporary buffer).
bool regions_overlap(uint64_t a_base, const Region& a, uint64_t b_base, const Region& b, const Extent& extent);

}  // namespace dc
