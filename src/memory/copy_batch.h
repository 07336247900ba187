// A batch of asynchronous copies on one stream (dc_buffer_copy_batch_async):
// every copy checked as its single call checks it, and the copies checked
// against each other (none may write what another reads or writes: the batch
// does not order them), before anything is enqueued. Copies between two
// buffers that the driver can take in one cuMemcpyBatchAsync go there; the
// others are enqueued one by one as their single calls enqueue them (host
// memory keeps its staging and its contract).
#pragma once

#include <cstdint>

#include "dccuda.h"
#include "stream/stream.h"

namespace dc {

void copy_batch(const dc_copy_op* ops, uint32_t count, Stream& stream);

}  // namespace dc
