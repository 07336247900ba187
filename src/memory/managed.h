// Managed (unified) memory: prefetching to a location and advice, with the
// location-based entry points of CUDA 12.2+ and the device-ordinal ones a
// CUDA 12.0 or 12.1 driver has instead.
#pragma once

#include <cstdint>

#include "memory/buffer.h"
#include "stream/stream.h"

namespace dc {

// dc_buffer_prefetch: the buffer must be managed; `location` is
// DC_LOCATION_HOST or a device ordinal. Binds the stream's context.
void prefetch(Buffer& buffer, uint64_t offset, uint64_t size, int32_t location, Stream& stream);

// dc_buffer_advise: `advice` is DC_ADVISE_*. Binds the buffer's context.
void advise(Buffer& buffer, uint64_t offset, uint64_t size, int32_t advice, int32_t location);

}  // namespace dc
