#include "memory/transfer.h"

#include <cinttypes>
#include <cstring>

#include "core/error.h"
#include "device/cuda_check.h"
#include "loader/driver.h"
#include "memory/host_copy.h"
#include "memory/staging.h"

namespace dc {
namespace {

// Waits for the synchronous path's work (enqueued on the legacy stream of the
// bound context).
void finish_legacy(Device& device) {
  check(driver_api().cuStreamSynchronize(CU_STREAM_LEGACY), "cuStreamSynchronize", &device);
}

// Whether kernels and copies on `from` may access `to`'s memory directly.
// Whether dc_device_enable_peer_access opened a direct path between the two
// devices (either direction: cuMemcpyPeer then copies device to device).
bool peer_enabled(const Device& from, const Device& to) {
  return from.peer_enabled(to.ordinal()) || to.peer_enabled(from.ordinal());
}

// Two buffers whose copy goes through cuMemcpyPeer: device memory on two
// devices (managed memory is one address space: cuMemcpy handles it).
bool is_peer_copy(const Buffer& dst, const Buffer& src) {
  return &dst.device() != &src.device() && !dst.is_host() && !src.is_host() && dst.kind() != DC_BUFFER_MANAGED &&
         src.kind() != DC_BUFFER_MANAGED;
}

// Host memory given to a write or read that overlaps the buffer's own range
// (a registered or pinned buffer, or managed memory, reached through a second
// pointer): memcpy and the driver's copies are undefined for overlapping
// ranges, so it is refused as dc_buffer_copy refuses overlap. Addresses are
// comparable because every buffer lives in the one unified address space.
void refuse_host_overlap(const Buffer& buffer, uint64_t offset, const void* host, uint64_t size,
                         const char* host_name, const char* offset_name) {
  uint64_t at = buffer.address() + offset;
  auto h = static_cast<uint64_t>(reinterpret_cast<uintptr_t>(host));
  if (at < h + size && h < at + size) [[unlikely]]
    fail(DC_ERROR_INVALID_ARGUMENT,
         "%s %p and %s %" PRIu64 " with size %" PRIu64
         " overlap: the host range is the buffer's own memory; copy through a temporary buffer",
         host_name, host, offset_name, offset, size);
}

}  // namespace

void check_range(const Buffer& buffer, uint64_t offset, uint64_t size, const char* buffer_name,
                 const char* offset_name) {
  uint64_t have = buffer.size();
  if (offset > have) [[unlikely]]
    fail(DC_ERROR_OUT_OF_RANGE, "%s %" PRIu64 " is past the end of %s (size %" PRIu64 ")", offset_name, offset,
         buffer_name, have);
  if (size > have - offset) [[unlikely]]
    fail(DC_ERROR_OUT_OF_RANGE, "%s %" PRIu64 " + size %" PRIu64 " exceeds %s's size %" PRIu64, offset_name, offset,
         size, buffer_name, have);
}

void write(Buffer& dst, uint64_t dst_offset, const void* src, uint64_t size, Stream* stream) {
  if (size == 0) return;
  refuse_host_overlap(dst, dst_offset, src, size, "src", "dst_offset");
  const DriverApi& api = driver_api();
  Device& d = dst.device();
  size_t n = static_cast<size_t>(size);
  if (dst.is_host() && !stream) {
    parallel_memcpy(static_cast<char*>(dst.host_pointer()) + dst_offset, src, n);
    return;
  }
  ContextScope bind(d);
  CUdeviceptr to = dst.address() + dst_offset;
  if (stream) {
    // Noted before anything is enqueued: a failure half way must not let a
    // release free memory that enqueued chunks still write.
    dst.note_use(stream);
    if (dst.is_host()) {
      check(api.cuMemcpyAsync(to, reinterpret_cast<CUdeviceptr>(src), n, stream->handle()), "cuMemcpyAsync", &d);
    } else if (!wants_staging(src, size, true) || !staged_write(d, to, src, size, stream->handle())) {
      check(api.cuMemcpyHtoDAsync(to, src, n, stream->handle()), "cuMemcpyHtoDAsync", &d);
    }
    return;
  }
  // Small copies ask about their first byte only: the answer only decides
  // whether to wait below.
  const staging::Tuning& t = staging::tuning();
  bool large = size >= t.min_bytes_to_device;
  bool driver_memory = is_driver_memory(src, large ? size : 1);
  if (!driver_memory && large && staged_write(d, to, src, size, CU_STREAM_LEGACY)) {
    finish_legacy(d);
    return;
  }
  // Through a pinned buffer: the driver's copy from it is complete on return,
  // where the pageable copy below needs a wait for the stream after it.
  if (!driver_memory && !large && size <= t.small_bytes && small_staged_write(d, to, src, size)) return;
  check(api.cuMemcpyHtoD(to, src, n), "cuMemcpyHtoD", &d);
  // From pageable memory the driver may return before its DMA is done; the
  // call promises a complete copy. (From pinned memory it copies synchronously.)
  if (!driver_memory) finish_legacy(d);
}

void read(Buffer& src, uint64_t src_offset, void* dst, uint64_t size, Stream* stream) {
  if (size == 0) return;
  refuse_host_overlap(src, src_offset, dst, size, "dst", "src_offset");
  const DriverApi& api = driver_api();
  Device& d = src.device();
  size_t n = static_cast<size_t>(size);
  if (src.is_host() && !stream) {
    parallel_memcpy(dst, static_cast<const char*>(src.host_pointer()) + src_offset, n);
    return;
  }
  ContextScope bind(d);
  CUdeviceptr from = src.address() + src_offset;
  if (stream) {
    src.note_use(stream);
    if (src.is_host()) {
      check(api.cuMemcpyAsync(reinterpret_cast<CUdeviceptr>(dst), from, n, stream->handle()), "cuMemcpyAsync", &d);
    } else if (!wants_staging(dst, size, false) || !staged_read(d, dst, from, size, stream->handle())) {
      check(api.cuMemcpyDtoHAsync(dst, from, n, stream->handle()), "cuMemcpyDtoHAsync", &d);
    }
    return;
  }
  // Device to host returns when the data is there, pageable or pinned.
  if (wants_staging(dst, size, false) && staged_read(d, dst, from, size, CU_STREAM_LEGACY)) return;
  // Below the pipelining threshold, a pinned copy is still faster than the
  // driver's pageable one.
  if (size < staging::tuning().min_bytes && wants_small_staging(dst, size) && small_staged_read(d, dst, from, size))
    return;
  check(api.cuMemcpyDtoH(dst, from, n), "cuMemcpyDtoH", &d);
}

void copy(Buffer& dst, uint64_t dst_offset, Buffer& src, uint64_t src_offset, uint64_t size, Stream* stream) {
  CUdeviceptr to = dst.address() + dst_offset;
  CUdeviceptr from = src.address() + src_offset;
  if (size && to < from + size && from < to + size)
    fail(DC_ERROR_INVALID_ARGUMENT,
         "the ranges overlap: dst_offset %" PRIu64 " and src_offset %" PRIu64 " with size %" PRIu64
         " address the same memory; copy through a temporary buffer",
         dst_offset, src_offset, size);
  if (size == 0) return;
  const DriverApi& api = driver_api();
  size_t n = static_cast<size_t>(size);
  if (dst.is_host() && src.is_host() && !stream) {
    parallel_memcpy(static_cast<char*>(dst.host_pointer()) + dst_offset,
                    static_cast<const char*>(src.host_pointer()) + src_offset, n);
    return;
  }
  // The stream's device; for a synchronous copy, the device whose memory is
  // involved (the destination's unless that is host memory).
  Device& d = stream ? stream->device() : (dst.is_host() ? src.device() : dst.device());
  ContextScope bind(d);
  CUstream on = stream ? stream->handle() : CU_STREAM_LEGACY;
  if (stream) {
    dst.note_use(stream);
    src.note_use(stream);
  }
  if (is_peer_copy(dst, src)) {
    check(api.cuMemcpyPeerAsync(to, dst.device().context(), from, src.device().context(), n, on), "cuMemcpyPeerAsync",
          &d);
  } else if (!dst.is_host() && !src.is_host() && dst.kind() != DC_BUFFER_MANAGED && src.kind() != DC_BUFFER_MANAGED) {
    // Device to device on one device: the typed call spares the driver the
    // pointer-kind lookup of cuMemcpyAsync (measurable on small copies).
    check(api.cuMemcpyDtoDAsync(to, from, n, on), "cuMemcpyDtoDAsync", &d);
  } else {
    check(api.cuMemcpyAsync(to, from, n, on), "cuMemcpyAsync", &d);
  }
  if (!stream) finish_legacy(d);
}

namespace {

template <class T>
void host_fill(void* p, uint64_t count, T value) {
  T* at = static_cast<T*>(p);
  for (uint64_t i = 0; i < count; ++i) at[i] = value;
}

}  // namespace

void check_fill(const Buffer& buffer, uint64_t offset, uint64_t size, uint32_t value, uint32_t element_size) {
  if (element_size != 1 && element_size != 2 && element_size != 4)
    fail(DC_ERROR_INVALID_ARGUMENT, "element_size %u is not 1, 2 or 4", element_size);
  if (element_size < 4 && value >> (8 * element_size))
    fail(DC_ERROR_INVALID_ARGUMENT, "value 0x%x does not fit in %u byte%s; pass a value below 0x%x or a wider "
         "element_size", value, element_size, element_size == 1 ? "" : "s", 1u << (8 * element_size));
  if (offset % element_size || size % element_size)
    fail(DC_ERROR_INVALID_ARGUMENT, "offset %" PRIu64 " and size %" PRIu64 " must be multiples of element_size %u",
         offset, size, element_size);
  check_range(buffer, offset, size, "buffer", "offset");
}

void fill(Buffer& buffer, uint64_t offset, uint64_t size, uint32_t value, uint32_t element_size, Stream* stream) {
  if (size == 0) return;
  uint64_t count = size / element_size;
  if (buffer.is_host() && !stream) {
    char* p = static_cast<char*>(buffer.host_pointer()) + offset;
    if (element_size == 1) std::memset(p, static_cast<int>(value), static_cast<size_t>(size));
    else if (element_size == 2) host_fill<uint16_t>(p, count, static_cast<uint16_t>(value));
    else host_fill<uint32_t>(p, count, value);
    return;
  }
  CUdeviceptr at = buffer.device_address();
  if (!at)
    fail(DC_ERROR_NOT_SUPPORTED, "the driver gave this host memory no device mapping, so it cannot be filled in "
         "stream order; use dc_buffer_fill, or register it with DC_ALLOC_DEVICE_MAPPED");
  if (buffer.kind() == DC_BUFFER_REGISTERED_HOST && (buffer.flags() & DC_ALLOC_READ_ONLY))
    fail(DC_ERROR_INVALID_ARGUMENT, "the buffer was registered with DC_ALLOC_READ_ONLY: the device may only read it; "
         "use dc_buffer_fill, which fills it on the CPU");
  at += offset;
  if (at % element_size)
    fail(DC_ERROR_INVALID_ARGUMENT, "the buffer's address 0x%" PRIx64 " + offset is not aligned to element_size %u; "
         "fill with element_size 1", static_cast<uint64_t>(at - offset), element_size);
  const DriverApi& api = driver_api();
  Device& d = buffer.device();
  ContextScope bind(d);
  CUstream on = stream ? stream->handle() : CU_STREAM_LEGACY;
  size_t n = static_cast<size_t>(count);
  if (stream) buffer.note_use(stream);
  switch (element_size) {
    case 1: check(api.cuMemsetD8Async(at, static_cast<unsigned char>(value), n, on), "cuMemsetD8Async", &d); break;
    case 2: check(api.cuMemsetD16Async(at, static_cast<unsigned short>(value), n, on), "cuMemsetD16Async", &d); break;
    default: check(api.cuMemsetD32Async(at, value, n, on), "cuMemsetD32Async", &d); break;
  }
  if (!stream) finish_legacy(d);
}

int32_t copy_path(const Buffer& dst, const Buffer& src) {
  if (dst.is_host() || src.is_host()) return DC_COPY_PATH_HOST;
  if (&dst.device() == &src.device()) return DC_COPY_PATH_SAME_DEVICE;
  return peer_enabled(dst.device(), src.device()) ? DC_COPY_PATH_PEER : DC_COPY_PATH_STAGED;
}

}  // namespace dc
