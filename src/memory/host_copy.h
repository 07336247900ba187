// Host-side memcpy split over a persistent pool of threads. One thread copies
// ordinary (pageable) memory at a fraction of what the memory system gives;
// staging a pageable copy through pinned buffers only beats the driver's own
// pageable path if the host side is fast too.
#pragma once

#include <cstddef>

namespace dc {

namespace host_copy {
// Threads that copy one piece each, the calling thread included (default;
// DCCUDA_COPY_THREADS overrides it for tuning runs, 1..64, read by
// core/config.cpp); 1 disables the pool.
// 16: on a 16-core H200 host, 16 threads staged 256 MiB pageable copies at
// 46-49 GB/s both ways against 28-33 GB/s (H2D) and 25-32 GB/s (D2H) with 8.
inline constexpr unsigned kThreads = 16;
// The smallest piece worth handing to another thread (waking it costs
// microseconds).
inline constexpr size_t kMinPieceBytes = size_t(256) << 10;
}  // namespace host_copy

// memcpy(dst, src, n) with up to host_copy::kThreads threads (never more than
// the machine has). While another copy uses the pool, the calling thread
// copies alone. The workers start at the first call and live for the process.
// `streaming`: each piece is copied by streaming_memcpy (for large staged
// copies, whose destination the CPU does not read again soon).
void parallel_memcpy(void* dst, const void* src, size_t n, bool streaming = false) noexcept;

// memcpy(dst, src, n) whose stores bypass the CPU caches where the processor
// has such stores (x86-64: non-temporal 16-byte stores, then a store fence),
// else memcpy. A cached store first reads the destination's line from memory
// (read for ownership), so copying into a staging buffer costs three memory
// transfers per byte, and the DMA engine's read a fourth; a streaming store
// spares the first read. Whether that is faster depends on the machine:
// DCCUDA_COPY_STREAMING (yes/no) decides for the staged copies (staging.h).
void streaming_memcpy(void* dst, const void* src, size_t n) noexcept;

// `rows` rows of `width` bytes from `src` (rows `src_pitch` apart) to `dst`
// (rows `dst_pitch` apart), the rows split over the same pool: a pitched
// region's rows are each too small for parallel_memcpy to split.
void parallel_copy_rows(void* dst, size_t dst_pitch, const void* src, size_t src_pitch, size_t width,
                        size_t rows) noexcept;

}  // namespace dc
