// Copies between ordinary (pageable) host memory and the device, staged
// through reusable pinned buffers of the library's own. The driver's pageable
// path moves about 6-8 GB/s on an H200 host against 55 GB/s from pinned
// memory; copying chunks into pinned buffers with several threads while the
// previous chunk is on its way to the device (and the reverse for reads)
// keeps both the host and the DMA engine busy.
//
// Synchronous copies up to staging::tuning().small_bytes that are not
// pipelined take one pinned buffer and one synchronous driver copy from or to
// it: the driver's pageable path returns from a host-to-device copy before its
// DMA is done (a synchronous dc_buffer_write must then wait for the stream),
// and its pageable device-to-host path is slower than a pinned one. Other
// copies below the pipelining thresholds (min_bytes, min_bytes_to_device), and
// copies from or to memory the driver already knows (pinned, registered,
// managed: is_driver_memory), go straight to the driver.
#pragma once

#include "loader/cuda_abi/driver_abi.h"

#include <cstddef>
#include <cstdint>
#include <memory>

#include "device/device.h"

namespace dc {

struct MemoryState;

namespace staging {
// The defaults of the tunables (see Tuning below for overriding them).
// Below these a pageable copy goes straight to the driver: its own staging is
// as fast for small copies. Measured on an H200 host (16 cores): device to
// host gains from 1 MiB on (1.3-1.6x), host to device loses at 1 MiB (0.8-0.96x)
// and gains 5-7x at 256 MiB, so the host-to-device threshold is higher.
inline constexpr uint64_t kMinBytes = uint64_t(256) << 10;
inline constexpr uint64_t kMinBytesToDevice = uint64_t(4) << 20;
// The largest chunk moved through one pinned buffer at a time, and the
// smallest: a copy is split in at least `buffers` chunks (so that host copies
// and DMA overlap) unless that makes chunks smaller than kMinChunkBytes. On
// the H200 host (2026-11-25, bench/sweep_copies.sh and an A/B of two rounds)
// 16 MiB and 1 MiB moved 44-45 GB/s to the device and 42-52 GB/s back at 64
// and 256 MiB, against 43-45 and 39-41 GB/s with 8 MiB and 256 KiB.
inline constexpr uint64_t kChunkBytes = uint64_t(16) << 20;
inline constexpr uint64_t kMinChunkBytes = uint64_t(1) << 20;
// Synchronous pageable copies up to this size that are not pipelined go
// through one pinned buffer (above). On the H200 host a pinned 4 KiB copy
// took 7-8 us to the device against 10.7 us for the pageable copy and the
// wait dccuda needs, and 7 us back against 9.4 us pageable (2026-11-24/25).
// Every copy below the pipelining thresholds takes it by default.
inline constexpr uint64_t kSmallBytes = kMinBytesToDevice;
// Pinned buffers of `chunk_bytes` each, per device, reused by every copy.
inline constexpr int kBuffers = 4;
// Whether the pipelined copies' host side uses streaming stores
// (memory/host_copy.h, streaming_memcpy): always into the pinned buffers
// (the CPU never reads them), into the caller's memory only from this size on
// (larger than a CPU's last-level cache, so that the data could not have
// stayed cached for the caller anyway).
inline constexpr bool kStreaming = true;
inline constexpr uint64_t kStreamingReadMinBytes = uint64_t(32) << 20;
inline constexpr int kMaxBuffers = 16;

// The tunables in force: the defaults above, each overridable for tuning
// runs by an environment variable (read with the other settings, by
// core/config.cpp, which refuses a malformed or out-of-range value):
// DCCUDA_STAGING_MIN_BYTES (device to host), DCCUDA_STAGING_MIN_BYTES_H2D,
// DCCUDA_STAGING_CHUNK_BYTES, DCCUDA_STAGING_MIN_CHUNK_BYTES,
// DCCUDA_STAGING_SMALL_BYTES (1: practically off), DCCUDA_STAGING_BUFFERS
// (1..16), DCCUDA_COPY_STREAMING (yes/no), and DCCUDA_COPY_THREADS for
// memory/host_copy.h.
struct Tuning {
  uint64_t min_bytes = kMinBytes;                   // device to host
  uint64_t min_bytes_to_device = kMinBytesToDevice;  // host to device
  uint64_t chunk_bytes = kChunkBytes;
  uint64_t min_chunk_bytes = kMinChunkBytes;
  uint64_t small_bytes = kSmallBytes;
  int buffers = kBuffers;
  bool streaming = kStreaming;
};
const Tuning& tuning() noexcept;
}  // namespace staging

// Whether the driver knows [p, p + n) as its own memory (pinned, registered,
// managed, device): such copies need no staging and get the driver's full
// speed directly. The device's context must be bound.
bool is_driver_memory(const void* p, uint64_t n) noexcept;

class Stager {
 public:
  // Allocates the pinned buffers and their events; the context must be bound.
  static std::unique_ptr<Stager> create(Device& device);
  ~Stager();
  Stager(const Stager&) = delete;
  Stager& operator=(const Stager&) = delete;

  // Host to device on `stream`; returns once `src` has been read (the last
  // chunks may still be on their way: later copies wait for them).
  void write(Device& device, CUdeviceptr dst, const void* src, uint64_t n, CUstream stream);
  // Device to host on `stream`; returns once all of `dst` is written.
  void read(Device& device, void* dst, CUdeviceptr src, uint64_t n, CUstream stream);
  // Synchronous copies through one pinned buffer (a chunk at a time): the
  // CPU copy, then the driver's synchronous copy from or to pinned memory,
  // which returns when the copy is complete (in order with the legacy stream).
  void write_sync(Device& device, CUdeviceptr dst, const void* src, uint64_t n);
  void read_sync(Device& device, void* dst, CUdeviceptr src, uint64_t n);
  // The same for `height` rows of `width` bytes, `pitch` apart on each side:
  // rows are packed into the pinned buffers, moved by 2D copies, and
  // unpacked. `device_type` says how the driver should see `dst` / `src`.
  void write_2d(Device& device, CUdeviceptr dst, uint64_t dst_pitch, CUmemorytype device_type, const void* src,
                uint64_t src_pitch, uint64_t width, uint64_t height, CUstream stream);
  void read_2d(Device& device, void* dst, uint64_t dst_pitch, CUdeviceptr src, uint64_t src_pitch,
               CUmemorytype device_type, uint64_t width, uint64_t height, CUstream stream);

  // Waits for copies in flight and frees the pinned buffers and events (the
  // context must be bound and alive). Never throws.
  void free_driver_objects() noexcept;

 private:
  Stager() = default;
  uint64_t chunk_for(uint64_t n) const noexcept;
  // The length of the piece of a pipelined copy of n bytes that starts at
  // `done`, at most `chunk`: the first pieces grow from min_chunk_bytes (the
  // DMA engine starts early) and the last ones shrink back to it (less is left
  // to the DMA engine, or to the CPU, once the other side has finished).
  uint64_t piece_at(uint64_t done, uint64_t n, uint64_t chunk) const noexcept;
  // Waits until buffer b's last copy has completed; raises that copy's error
  // only if `report` (or if the context is lost).
  void wait(Device& device, int b, bool report);
  // Enqueues a copy that uses buffer b, then records b's event after it.
  template <class Copy>
  void enqueue(Device& device, int b, CUstream stream, const char* entry, Copy&& copy);

  int buffers_ = 0;
  uint64_t chunk_bytes_ = 0;        // the size of each pinned buffer
  uint64_t min_chunk_bytes_ = 0;
  void* pinned_[staging::kMaxBuffers] = {};
  CUevent done_[staging::kMaxBuffers] = {};
  bool pending_[staging::kMaxBuffers] = {};
};

// Whether a copy of n bytes from (to_device) or to host memory `p` should be
// staged: large enough, and memory the driver does not know (pageable).
inline bool wants_staging(const void* p, uint64_t n, bool to_device) noexcept {
  const staging::Tuning& t = staging::tuning();
  return n >= (to_device ? t.min_bytes_to_device : t.min_bytes) && !is_driver_memory(p, n);
}

// Copies through the device's stager; returns false (nothing done) if the
// staging buffers cannot be made (the caller then copies directly). The
// context must be bound.
bool staged_write(Device& device, CUdeviceptr dst, const void* src, uint64_t n, CUstream stream);
bool staged_read(Device& device, void* dst, CUdeviceptr src, uint64_t n, CUstream stream);
// Whether a synchronous copy of n bytes not pipelined should take the small
// path (Stager::write_sync / read_sync): at most small_bytes, and `p` memory
// the driver does not know (only the first byte is asked: the answer decides
// the speed, not the correctness). The context must be bound.
inline bool wants_small_staging(const void* p, uint64_t n) noexcept {
  return n <= staging::tuning().small_bytes && !is_driver_memory(p, 1);
}
// The synchronous copies through one pinned buffer; false (nothing done) if
// another copy holds the device's staging buffers right now or they cannot be
// made: the caller then copies directly. The context must be bound.
bool small_staged_write(Device& device, CUdeviceptr dst, const void* src, uint64_t n);
bool small_staged_read(Device& device, void* dst, CUdeviceptr src, uint64_t n);
// The 2D forms (Stager::write_2d, read_2d).
bool staged_write_2d(Device& device, CUdeviceptr dst, uint64_t dst_pitch, CUmemorytype device_type, const void* src,
                     uint64_t src_pitch, uint64_t width, uint64_t height, CUstream stream);
bool staged_read_2d(Device& device, void* dst, uint64_t dst_pitch, CUdeviceptr src, uint64_t src_pitch,
                    CUmemorytype device_type, uint64_t width, uint64_t height, CUstream stream);

}  // namespace dc
