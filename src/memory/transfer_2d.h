// 2D and 3D copies and 2D fills (dccuda.h, "2D and 3D (pitched) memory"):
// the same paths as the 1D copies of memory/transfer.h (CPU between host
// buffers, staging for large pageable host regions, cuMemcpy3DPeerAsync
// between devices, the legacy stream and a wait for synchronous calls), with
// regions checked by memory/region.h before anything reaches the driver.
//
// The entry points check the regions (check_region) and the handles; these
// functions check that source and destination do not share bytes, and bind
// the contexts they need. `stream` null means synchronous.
#pragma once

#include <cstdint>

#include "memory/buffer.h"
#include "memory/region.h"
#include "stream/stream.h"

namespace dc {

void copy_3d(Buffer& dst, const Region& dst_region, Buffer& src, const Region& src_region, const Extent& extent,
             Stream* stream);
void write_2d(Buffer& dst, const Region& dst_region, const void* src, const Region& src_region, const Extent& extent,
              Stream* stream);
void read_2d(Buffer& src, const Region& src_region, void* dst, const Region& dst_region, const Extent& extent,
             Stream* stream);

// DC_ERROR_INVALID_ARGUMENT / DC_ERROR_OUT_OF_RANGE unless a 2D fill of
// `buffer` is valid (element_size 1, 2 or 4, a value that fits, offset, width
// and pitch multiples of element_size, the region inside the buffer).
void check_fill_2d(const Buffer& buffer, const Region& region, const Extent& extent, uint32_t value,
                   uint32_t element_size);
void fill_2d(Buffer& buffer, const Region& region, const Extent& extent, uint32_t value, uint32_t element_size,
             Stream* stream);

}  // namespace dc
