// Copies and fills: bounds checks and the choice of driver path. The entry
// points pin and check the handles (usable, stream on the right device); these
// functions bind the contexts they need themselves.
//
// `stream` null means synchronous: the call returns when the work is complete
// (device-side work then runs on the legacy default stream, as the driver's
// own synchronous copies do, and is waited for).
#pragma once

#include <cstdint>

#include "memory/buffer.h"
#include "stream/stream.h"

namespace dc {

// Fails with DC_ERROR_OUT_OF_RANGE unless [offset, offset + size) lies in
// `buffer`, naming both ("dst_offset 64 + size 4096 exceeds dst's size 1024").
void check_range(const Buffer& buffer, uint64_t offset, uint64_t size, const char* buffer_name,
                 const char* offset_name);

void write(Buffer& dst, uint64_t dst_offset, const void* src, uint64_t size, Stream* stream);
void read(Buffer& src, uint64_t src_offset, void* dst, uint64_t size, Stream* stream);
// The ranges must not overlap (checked here: DC_ERROR_INVALID_ARGUMENT).
void copy(Buffer& dst, uint64_t dst_offset, Buffer& src, uint64_t src_offset, uint64_t size, Stream* stream);
// Fails with DC_ERROR_INVALID_ARGUMENT / DC_ERROR_OUT_OF_RANGE unless the
// fill's arguments are valid for `buffer` (element_size 1, 2 or 4, a value
// that fits, aligned offset and size, in range).
void check_fill(const Buffer& buffer, uint64_t offset, uint64_t size, uint32_t value, uint32_t element_size);
// Arguments checked by check_fill.
void fill(Buffer& buffer, uint64_t offset, uint64_t size, uint32_t value, uint32_t element_size, Stream* stream);

// DC_COPY_PATH_* for a copy from `src` to `dst`.
int32_t copy_path(const Buffer& dst, const Buffer& src);

}  // namespace dc
