// Stream memory operations (dccuda.h, "Stream memory operations"): a stream
// waits for a 32/64-bit value in a buffer, or writes one, in stream order
// (cuStreamWaitValue32/64, cuStreamWriteValue32/64, cuStreamBatchMemOp).
// Every operation is checked as a copy is: the buffer usable and reachable
// from the stream's device, the value inside it and aligned to its size.
#pragma once

#include <cstdint>

#include "dccuda.h"
#include "stream/stream.h"

namespace dc {

// Checks and enqueues `count` operations on `stream` (one driver call for
// a batch: cuStreamBatchMemOp; messages then name ops[i]). The caller has
// checked `ops`, `count` (1 to 256) and the stream, bound nothing.
void enqueue_mem_ops(Stream& stream, const dc_stream_mem_op* ops, uint32_t count, bool batch);

constexpr uint32_t kMaxMemOps = 256;

}  // namespace dc
