// A batch of prepared launches on one stream (dc_launch_enqueue_batch): one
// validation pass over every launch before anything is enqueued, then the
// launches in order with the context bound once.
#pragma once

#include <cstdint>

#include "dccuda.h"
#include "stream/stream.h"

namespace dc {

// Pins every handle of `launches` (each once, a bad one refused naming its
// index), checks each as dc_launch_enqueue would, then enqueues them in order
// on `stream`. A failure while enqueueing names the launch and how many were
// enqueued before it.
void enqueue_batch(const dc_launch* launches, uint32_t count, Stream& stream);

}  // namespace dc
