// Stream capture: dc_stream_begin_capture / end_capture / is_capturing.
// The stream's context must be bound.
#pragma once

#include <cstdint>

#include "core/object.h"
#include "graph/graph.h"
#include "stream/stream.h"

namespace dc {

void begin_capture(Stream& stream, int32_t mode);
Ref<Graph> end_capture(Stream& stream);
// Capturing, or invalidated but not yet ended.
bool is_capturing(Stream& stream);

}  // namespace dc
