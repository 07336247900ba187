#include "memory/region.h"

#include <cinttypes>

#include "core/error.h"

namespace dc {
namespace {

using u128 = unsigned __int128;

// The end (one past the last byte) of linear row k: offset + k * pitch + width.
u128 row_end(const Region& r, uint64_t width, u128 k) { return u128(r.offset) + k * r.pitch + width; }

// The linear index of row `row` of plane `plane`.
u128 linear_row(const Region& r, const Extent& e, uint64_t plane, uint64_t row) {
  return e.depth > 1 ? u128(plane) * r.rows_per_plane + row : u128(row);
}

}  // namespace

void check_region(const Region& region, const Extent& extent, uint64_t memory_size, const RegionNames& names) {
  if (extent.empty()) return;
  if (extent.rows() > 1 && region.pitch < extent.width)
    fail(DC_ERROR_INVALID_ARGUMENT, "%s %" PRIu64 " is less than width %" PRIu64 "; rows would overlap: pass the "
         "distance in bytes from one row to the next (at least the width)", names.pitch, region.pitch, extent.width);
  if (extent.depth > 1 && region.rows_per_plane < extent.height)
    fail(DC_ERROR_INVALID_ARGUMENT, "%s %" PRIu64 " is less than height %" PRIu64 "; planes would overlap: pass the "
         "number of rows from one plane to the next (at least the height)", names.rows_per_plane,
         region.rows_per_plane, extent.height);
  u128 last = linear_row(region, extent, extent.depth - 1, extent.height - 1);
  if (row_end(region, extent.width, last) <= memory_size) return;
  // The first row that ends past the memory: ends grow with the linear row
  // index, so it is the first linear row past `memory_size`, moved to the
  // next plane's row 0 when it falls between planes.
  u128 k = 0;
  if (row_end(region, extent.width, 0) <= memory_size)
    k = (u128(memory_size) - region.offset - extent.width) / region.pitch + 1;
  uint64_t plane = 0, row = 0;
  if (extent.depth > 1) {
    plane = static_cast<uint64_t>(k / region.rows_per_plane);
    row = static_cast<uint64_t>(k % region.rows_per_plane);
    if (row >= extent.height) ++plane, row = 0;
    k = linear_row(region, extent, plane, row);
  } else {
    row = static_cast<uint64_t>(k);
  }
  u128 start = u128(region.offset) + k * region.pitch;
  u128 end = start + extent.width;
  // Byte positions beyond 64 bits are shown saturated: such a region is absurd anyway.
  auto shown = [](u128 v) { return v > UINT64_MAX ? UINT64_MAX : static_cast<uint64_t>(v); };
  if (extent.depth > 1)
    fail(DC_ERROR_OUT_OF_RANGE, "%s: row %" PRIu64 " of plane %" PRIu64 " (of %" PRIu64 " rows x %" PRIu64
         " planes) spans bytes [%" PRIu64 ", %" PRIu64 "), past %s %" PRIu64
         "; check %s, %s, %s, width, height and depth",
         names.region, row, plane, extent.height, extent.depth, shown(start), shown(end), names.memory, memory_size,
         names.offset, names.pitch, names.rows_per_plane);
  fail(DC_ERROR_OUT_OF_RANGE, "%s: row %" PRIu64 " (of %" PRIu64 ") spans bytes [%" PRIu64 ", %" PRIu64
       "), past %s %" PRIu64 "; check %s, %s, width and height", names.region, row, extent.height, shown(start),
       shown(end), names.memory, memory_size, names.offset, names.pitch);
}

Span region_span(const Region& region, const Extent& extent) noexcept {
  u128 last = linear_row(region, extent, extent.depth - 1, extent.height - 1);
  return {region.offset, static_cast<uint64_t>(row_end(region, extent.width, last))};
}

bool regions_overlap(uint64_t a_base, const Region& a, uint64_t b_base, const Region& b, const Extent& extent) {
  if (extent.empty()) return false;
  Span sa = region_span(a, extent), sb = region_span(b, extent);
  u128 a0 = u128(a_base) + sa.first, a1 = u128(a_base) + sa.last;
  u128 b0 = u128(b_base) + sb.first, b1 = u128(b_base) + sb.last;
  if (a1 <= b0 || b1 <= a0) return false;
  // One plane, one pitch (tiles of one matrix): row i of a meets row j of b
  // when |d + (i - j) * pitch| < width, d being the distance of the first
  // rows; the k = i - j nearest to -d / pitch decide it.
  if (extent.depth == 1 && a.pitch == b.pitch && a.pitch > 0) {
    __int128 d = static_cast<__int128>(a0) - static_cast<__int128>(b0);
    __int128 p = a.pitch, w = extent.width, kmax = static_cast<__int128>(extent.height) - 1;
    __int128 q = -d / p;
    for (__int128 k : {q - 1, q, q + 1}) {
      k = k < -kmax ? -kmax : k > kmax ? kmax : k;
      __int128 gap = d + k * p;
      if (gap < w && -gap < w) return true;
    }
    return false;
  }
  return true;
}

}  // namespace dc
