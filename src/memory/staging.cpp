#include "memory/staging.h"

#include <algorithm>

#include "core/config.h"
#include "core/error.h"
#include "core/log.h"
#include "device/cuda_check.h"
#include "device/quiet_context.h"
#include "loader/driver.h"
#include "memory/host_copy.h"
#include "memory/memory_state.h"

namespace dc {

namespace staging {

static_assert(kMaxBuffers == static_cast<int>(kMaxStagingBuffers), "core/config.h checks the same range");

const Tuning& tuning() noexcept {
  static const Tuning t = [] {
    Tuning d;
    // Fixed by now: staging needs a device, which needed the settings.
    const Config* c = config_if_fixed();
    if (!c) return d;
    if (c->staging_min_bytes) d.min_bytes = c->staging_min_bytes;
    if (c->staging_min_bytes_to_device) d.min_bytes_to_device = c->staging_min_bytes_to_device;
    if (c->staging_chunk_bytes) d.chunk_bytes = c->staging_chunk_bytes;
    if (c->staging_min_chunk_bytes) d.min_chunk_bytes = c->staging_min_chunk_bytes;
    // A chunk set below the default smallest chunk lowers that as well.
    if (d.min_chunk_bytes > d.chunk_bytes) d.min_chunk_bytes = d.chunk_bytes;
    if (c->staging_buffers) d.buffers = static_cast<int>(c->staging_buffers);
    if (c->staging_small_bytes) d.small_bytes = c->staging_small_bytes;
    if (c->copy_streaming >= 0) d.streaming = c->copy_streaming == 1;
    return d;
  }();
  return t;
}

}  // namespace staging

bool is_driver_memory(const void* p, uint64_t n) noexcept {
  const DriverApi& api = driver_api();
  // Both ends: a range that starts in registered memory may run past it.
  // cuPointerGetAttributes, not cuPointerGetAttribute: for memory the driver
  // does not know it answers "type 0" at once, where the singular call takes
  // its error path (about 0.93 us against 0.07 us, measured on an H200 host).
  for (uintptr_t at : {reinterpret_cast<uintptr_t>(p), reinterpret_cast<uintptr_t>(p) + (n ? n - 1 : 0)}) {
    unsigned int type = 0;
    CUpointer_attribute attribute = CU_POINTER_ATTRIBUTE_MEMORY_TYPE;
    void* data[] = {&type};
    if (api.cuPointerGetAttributes(1, &attribute, data, static_cast<CUdeviceptr>(at)) != CUDA_SUCCESS) return false;
    if (type != CU_MEMORYTYPE_HOST && type != CU_MEMORYTYPE_DEVICE && type != CU_MEMORYTYPE_UNIFIED) return false;
  }
  return true;
}

std::unique_ptr<Stager> Stager::create(Device& device) {
  const DriverApi& api = driver_api();
  const staging::Tuning& t = staging::tuning();
  std::unique_ptr<Stager> s(new Stager);
  s->buffers_ = t.buffers;
  s->chunk_bytes_ = t.chunk_bytes;
  s->min_chunk_bytes_ = t.min_chunk_bytes;
  try {
    for (int b = 0; b < s->buffers_; ++b) {
      check(api.cuMemHostAlloc(&s->pinned_[b], static_cast<size_t>(s->chunk_bytes_), 0), "cuMemHostAlloc", &device);
      check(api.cuEventCreate(&s->done_[b], CU_EVENT_DISABLE_TIMING), "cuEventCreate", &device);
    }
  } catch (...) {
    s->free_driver_objects();
    throw;
  }
  return s;
}

Stager::~Stager() = default;

void Stager::free_driver_objects() noexcept {
  const DriverApi& api = driver_api();
  for (int b = 0; b < staging::kMaxBuffers; ++b) {
    if (done_[b]) {
      if (pending_[b]) api.cuEventSynchronize(done_[b]);
      release_quietly([&] { return api.cuEventDestroy(done_[b]); });
      done_[b] = nullptr;
    }
    pending_[b] = false;
    if (pinned_[b]) {
      release_quietly([&] { return api.cuMemFreeHost(pinned_[b]); });
      pinned_[b] = nullptr;
    }
  }
}

uint64_t Stager::chunk_for(uint64_t n) const noexcept {
  uint64_t c = (n + buffers_ - 1) / buffers_;
  c = (c + 0xFFFF) & ~uint64_t(0xFFFF);
  return std::clamp(c, min_chunk_bytes_, chunk_bytes_);
}

void Stager::wait(Device& device, int b, bool report) {
  if (!pending_[b]) return;
  CUresult r = driver_api().cuEventSynchronize(done_[b]);
  pending_[b] = false;
  // A failed copy is over too: the buffer is free. Its error belongs to the
  // copy that made it (reported by that stream's synchronisation) unless
  // this wait is how that copy reports (`report`), or the context is lost.
  if (report || is_sticky_cuda_error(r)) check(r, "cuEventSynchronize", &device);
}

template <class Copy>
void Stager::enqueue(Device& device, int b, CUstream stream, const char* entry, Copy&& copy) {
  const DriverApi& api = driver_api();
  check(copy(), entry, &device);
  CUresult r = api.cuEventRecord(done_[b], stream);
  if (r != CUDA_SUCCESS) {
    // Without the event nothing tells when the buffer is free again: wait for
    // the stream before the buffer is reused.
    api.cuStreamSynchronize(stream);
    check(r, "cuEventRecord", &device);
  }
  pending_[b] = true;
}

uint64_t Stager::piece_at(uint64_t done, uint64_t n, uint64_t chunk) const noexcept {
  uint64_t left = n - done;
  // Growing: as large as what is done already (doubling), from the smallest chunk.
  uint64_t c = std::min(chunk, std::max(min_chunk_bytes_, done));
  if (left <= c) return left;
  // Shrinking: at most half of what is left (in whole 64 KiB), down to the smallest chunk.
  uint64_t half = ((left / 2) + 0xFFFF) & ~uint64_t(0xFFFF);
  return std::min(c, std::max(min_chunk_bytes_, half));
}

void Stager::write(Device& device, CUdeviceptr dst, const void* src, uint64_t n, CUstream stream) {
  const DriverApi& api = driver_api();
  const char* from = static_cast<const char*>(src);
  const bool streaming = staging::tuning().streaming;
  uint64_t chunk = chunk_for(n);
  int b = 0;
  for (uint64_t off = 0, len = 0; off < n; off += len, b = (b + 1) % buffers_) {
    len = piece_at(off, n, chunk);
    wait(device, b, false);
    parallel_memcpy(pinned_[b], from + off, static_cast<size_t>(len), streaming);
    enqueue(device, b, stream, "cuMemcpyHtoDAsync",
            [&] { return api.cuMemcpyHtoDAsync(dst + off, pinned_[b], static_cast<size_t>(len), stream); });
  }
}

void Stager::read(Device& device, void* dst, CUdeviceptr src, uint64_t n, CUstream stream) {
  const DriverApi& api = driver_api();
  char* to = static_cast<char*>(dst);
  const bool streaming = staging::tuning().streaming && n >= staging::kStreamingReadMinBytes;
  uint64_t chunk = chunk_for(n);
  // Buffers still in use by an earlier write.
  for (int b = 0; b < buffers_; ++b) wait(device, b, false);
  // The piece each buffer holds (started in buffer order, finished in the same order).
  uint64_t piece_off[staging::kMaxBuffers] = {}, piece_len[staging::kMaxBuffers] = {};
  uint64_t started = 0;
  auto start = [&](int b) {
    uint64_t off = started, len = piece_at(off, n, chunk);
    enqueue(device, b, stream, "cuMemcpyDtoHAsync",
            [&] { return api.cuMemcpyDtoHAsync(pinned_[b], src + off, static_cast<size_t>(len), stream); });
    piece_off[b] = off;
    piece_len[b] = len;
    started += len;
  };
  for (int b = 0; b < buffers_ && started < n; ++b) start(b);
  for (uint64_t done = 0, b = 0; done < n; b = (b + 1) % static_cast<uint64_t>(buffers_)) {
    int i = static_cast<int>(b);
    wait(device, i, true);
    parallel_memcpy(to + piece_off[i], pinned_[i], static_cast<size_t>(piece_len[i]), streaming);
    done += piece_len[i];
    if (started < n) start(i);
  }
}

void Stager::write_sync(Device& device, CUdeviceptr dst, const void* src, uint64_t n) {
  const DriverApi& api = driver_api();
  const char* from = static_cast<const char*>(src);
  wait(device, 0, false);
  for (uint64_t off = 0; off < n; off += chunk_bytes_) {
    size_t len = static_cast<size_t>(std::min(chunk_bytes_, n - off));
    parallel_memcpy(pinned_[0], from + off, len);
    // From pinned memory the driver's synchronous copy returns when it is complete.
    check(api.cuMemcpyHtoD(dst + off, pinned_[0], len), "cuMemcpyHtoD", &device);
  }
}

void Stager::read_sync(Device& device, void* dst, CUdeviceptr src, uint64_t n) {
  const DriverApi& api = driver_api();
  char* to = static_cast<char*>(dst);
  wait(device, 0, false);
  for (uint64_t off = 0; off < n; off += chunk_bytes_) {
    size_t len = static_cast<size_t>(std::min(chunk_bytes_, n - off));
    check(api.cuMemcpyDtoH(pinned_[0], src + off, len), "cuMemcpyDtoH", &device);
    parallel_memcpy(to + off, pinned_[0], len);
  }
}

namespace {

// Copies `rows` rows of `width` bytes between two pitched layouts on the CPU
// (a contiguous run goes to the thread pool whole).
void copy_rows(char* to, uint64_t to_pitch, const char* from, uint64_t from_pitch, uint64_t width, uint64_t rows) {
  if (to_pitch == width && from_pitch == width) {
    parallel_memcpy(to, from, static_cast<size_t>(width * rows));
    return;
  }
  // Rows split over the copy threads (each row alone is too small to split):
  // one thread at a time made a pitched pageable copy 8 GB/s where the packed
  // one reached 44 (H200, 2026-11-25).
  parallel_copy_rows(to, static_cast<size_t>(to_pitch), from, static_cast<size_t>(from_pitch), static_cast<size_t>(width),
                     static_cast<size_t>(rows));
}

// A 2D copy of `rows` rows between a packed pinned buffer and pitched device memory.
CUresult copy_packed(void* host, CUdeviceptr device, uint64_t device_pitch, CUmemorytype device_type, uint64_t width,
                     uint64_t rows, bool to_device, CUstream stream) {
  CUDA_MEMCPY3D p{};
  p.WidthInBytes = static_cast<size_t>(width);
  p.Height = static_cast<size_t>(rows);
  p.Depth = 1;
  if (to_device) {
    p.srcMemoryType = CU_MEMORYTYPE_HOST;
    p.srcHost = host;
    p.srcPitch = static_cast<size_t>(width);
    p.dstMemoryType = device_type;
    p.dstDevice = device;
    p.dstPitch = static_cast<size_t>(std::max(device_pitch, width));
  } else {
    p.dstMemoryType = CU_MEMORYTYPE_HOST;
    p.dstHost = host;
    p.dstPitch = static_cast<size_t>(width);
    p.srcMemoryType = device_type;
    p.srcDevice = device;
    p.srcPitch = static_cast<size_t>(std::max(device_pitch, width));
  }
  return driver_api().cuMemcpy3DAsync(&p, stream);
}

}  // namespace

void Stager::write_2d(Device& device, CUdeviceptr dst, uint64_t dst_pitch, CUmemorytype device_type, const void* src,
                      uint64_t src_pitch, uint64_t width, uint64_t height, CUstream stream) {
  const char* from = static_cast<const char*>(src);
  if (width > chunk_bytes_) {
    // A row does not fit a buffer: each row is a 1D staged copy.
    for (uint64_t r = 0; r < height; ++r) write(device, dst + r * dst_pitch, from + r * src_pitch, width, stream);
    return;
  }
  uint64_t rows_per_chunk = std::max<uint64_t>(1, chunk_for(width * height) / width);
  int b = 0;
  for (uint64_t r = 0; r < height; r += rows_per_chunk, b = (b + 1) % buffers_) {
    uint64_t rows = std::min(rows_per_chunk, height - r);
    wait(device, b, false);
    copy_rows(static_cast<char*>(pinned_[b]), width, from + r * src_pitch, src_pitch, width, rows);
    enqueue(device, b, stream, "cuMemcpy3DAsync", [&] {
      return copy_packed(pinned_[b], dst + r * dst_pitch, dst_pitch, device_type, width, rows, true, stream);
    });
  }
}

void Stager::read_2d(Device& device, void* dst, uint64_t dst_pitch, CUdeviceptr src, uint64_t src_pitch,
                     CUmemorytype device_type, uint64_t width, uint64_t height, CUstream stream) {
  char* to = static_cast<char*>(dst);
  if (width > chunk_bytes_) {
    for (uint64_t r = 0; r < height; ++r) read(device, to + r * dst_pitch, src + r * src_pitch, width, stream);
    return;
  }
  uint64_t rows_per_chunk = std::max<uint64_t>(1, chunk_for(width * height) / width);
  uint64_t chunks = (height + rows_per_chunk - 1) / rows_per_chunk;
  for (int b = 0; b < buffers_; ++b) wait(device, b, false);
  auto rows_of = [&](uint64_t i) { return std::min(rows_per_chunk, height - i * rows_per_chunk); };
  auto start = [&](uint64_t i) {
    int b = static_cast<int>(i % buffers_);
    uint64_t r = i * rows_per_chunk;
    enqueue(device, b, stream, "cuMemcpy3DAsync", [&] {
      return copy_packed(pinned_[b], src + r * src_pitch, src_pitch, device_type, width, rows_of(i), false, stream);
    });
  };
  uint64_t ahead = std::min<uint64_t>(chunks, buffers_);
  for (uint64_t i = 0; i < ahead; ++i) start(i);
  for (uint64_t i = 0; i < chunks; ++i) {
    int b = static_cast<int>(i % buffers_);
    wait(device, b, true);
    copy_rows(to + i * rows_per_chunk * dst_pitch, dst_pitch, static_cast<const char*>(pinned_[b]), width, width,
              rows_of(i));
    if (i + buffers_ < chunks) start(i + buffers_);
  }
}

namespace {

// The device's stager, made on first use; null if staging is not possible
// (the pinned buffers could not be made once: the copy then goes directly).
// The caller holds state.staging_mutex.
Stager* stager_of(Device& device, MemoryState& state) {
  if (state.stager) return state.stager.get();
  if (state.staging_failed) return nullptr;
  try {
    state.stager = Stager::create(device);
  } catch (const Failure&) {
    // Not fatal: the driver's pageable path still works. Forget the message.
    state.staging_failed = true;
    clear_thread_error(thread_error());
    return nullptr;
  }
  return state.stager.get();
}

// Tells the log hook (core/log.h) how a large pageable copy went: staged
// through the pinned buffers, or directly because they could not be made.
// Called after the staging lock is let go.
void note_staging(const Device& device, uint64_t n, bool to_device, bool staged) {
  const staging::Tuning& t = staging::tuning();
  if (staged)
    DC_LOG(DC_LOG_DEBUG, "staging", "device %d: %llu bytes %s pageable host memory staged through pinned buffers of "
           "%llu bytes (staging starts at %llu bytes; DCCUDA_STAGING_MIN_BYTES%s)", device.ordinal(),
           static_cast<unsigned long long>(n), to_device ? "from" : "to",
           static_cast<unsigned long long>(t.chunk_bytes),
           static_cast<unsigned long long>(to_device ? t.min_bytes_to_device : t.min_bytes), to_device ? "_H2D" : "");
  else
    DC_LOG(DC_LOG_DEBUG, "fallback", "device %d: the pinned staging buffers could not be made: %llu bytes %s pageable "
           "host memory are copied directly by the driver (slower)", device.ordinal(),
           static_cast<unsigned long long>(n), to_device ? "from" : "to");
}

}  // namespace

bool staged_write(Device& device, CUdeviceptr dst, const void* src, uint64_t n, CUstream stream) {
  MemoryState& state = memory_state(device);
  bool staged = false;
  {
    std::lock_guard<std::mutex> lock(state.staging_mutex);
    if (Stager* s = stager_of(device, state)) {
      s->write(device, dst, src, n, stream);
      staged = true;
    }
  }
  note_staging(device, n, true, staged);
  return staged;
}

bool small_staged_write(Device& device, CUdeviceptr dst, const void* src, uint64_t n) {
  MemoryState& state = memory_state(device);
  // A small copy never waits behind a large one (or another small one): it
  // goes to the driver instead, as it did before this path existed.
  std::unique_lock<std::mutex> lock(state.staging_mutex, std::try_to_lock);
  if (!lock) return false;
  Stager* s = stager_of(device, state);
  if (!s) return false;
  s->write_sync(device, dst, src, n);
  return true;
}

bool small_staged_read(Device& device, void* dst, CUdeviceptr src, uint64_t n) {
  MemoryState& state = memory_state(device);
  std::unique_lock<std::mutex> lock(state.staging_mutex, std::try_to_lock);
  if (!lock) return false;
  Stager* s = stager_of(device, state);
  if (!s) return false;
  s->read_sync(device, dst, src, n);
  return true;
}

bool staged_read(Device& device, void* dst, CUdeviceptr src, uint64_t n, CUstream stream) {
  MemoryState& state = memory_state(device);
  bool staged = false;
  {
    std::lock_guard<std::mutex> lock(state.staging_mutex);
    if (Stager* s = stager_of(device, state)) {
      s->read(device, dst, src, n, stream);
      staged = true;
    }
  }
  note_staging(device, n, false, staged);
  return staged;
}

}  // namespace dc

namespace dc {

bool staged_write_2d(Device& device, CUdeviceptr dst, uint64_t dst_pitch, CUmemorytype device_type, const void* src,
                     uint64_t src_pitch, uint64_t width, uint64_t height, CUstream stream) {
  MemoryState& state = memory_state(device);
  bool staged = false;
  {
    std::lock_guard<std::mutex> lock(state.staging_mutex);
    if (Stager* s = stager_of(device, state)) {
      s->write_2d(device, dst, dst_pitch, device_type, src, src_pitch, width, height, stream);
      staged = true;
    }
  }
  note_staging(device, width * height, true, staged);
  return staged;
}

bool staged_read_2d(Device& device, void* dst, uint64_t dst_pitch, CUdeviceptr src, uint64_t src_pitch,
                    CUmemorytype device_type, uint64_t width, uint64_t height, CUstream stream) {
  MemoryState& state = memory_state(device);
  bool staged = false;
  {
    std::lock_guard<std::mutex> lock(state.staging_mutex);
    if (Stager* s = stager_of(device, state)) {
      s->read_2d(device, dst, dst_pitch, src, src_pitch, device_type, width, height, stream);
      staged = true;
    }
  }
  note_staging(device, width * height, false, staged);
  return staged;
}

}  // namespace dc
