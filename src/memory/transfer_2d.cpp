#include "memory/transfer_2d.h"

#include <cinttypes>
#include <cstring>

#include "device/cuda_check.h"
#include "core/error.h"
#include "loader/driver.h"
#include "memory/copy_params.h"
#include "memory/host_copy.h"
#include "memory/staging.h"

namespace dc {
namespace {

void finish_legacy(Device& device) {
  check(driver_api().cuStreamSynchronize(CU_STREAM_LEGACY), "cuStreamSynchronize", &device);
}

// Device memory on two devices: the driver needs both contexts
// (cuMemcpy3DPeerAsync). Managed memory is one address space.
bool is_peer_copy(const Buffer& dst, const Buffer& src) {
  return &dst.device() != &src.device() && !dst.is_host() && !src.is_host() && dst.kind() != DC_BUFFER_MANAGED &&
         src.kind() != DC_BUFFER_MANAGED;
}

uint64_t region_bytes(const Extent& e) { return e.width * e.height * e.depth; }

// Copies the region's rows on the CPU, plane by plane.
void cpu_copy(char* to, const Region& to_region, const char* from, const Region& from_region, const Extent& e) {
  for (uint64_t p = 0; p < e.depth; ++p)
    for (uint64_t r = 0; r < e.height; ++r) {
      uint64_t to_row = (e.depth > 1 ? p * to_region.rows_per_plane : 0) + r;
      uint64_t from_row = (e.depth > 1 ? p * from_region.rows_per_plane : 0) + r;
      parallel_memcpy(to + to_region.offset + to_row * to_region.pitch,
                      from + from_region.offset + from_row * from_region.pitch, static_cast<size_t>(e.width));
    }
}

void refuse_overlap(uint64_t a_base, const Region& a, uint64_t b_base, const Region& b, const Extent& e,
                    const char* what) {
  if (regions_overlap(a_base, a, b_base, b, e))
    fail(DC_ERROR_INVALID_ARGUMENT, "%s share bytes: the copy's result would depend on its order; copy through a "
         "temporary buffer", what);
}

void enqueue_copy(const CUDA_MEMCPY3D& p, Device& d, CUstream on) {
  check(driver_api().cuMemcpy3DAsync(&p, on), "cuMemcpy3DAsync", &d,
        "the driver refused the 2D/3D copy; a pitch above the device's maximum pitch is one cause");
}

}  // namespace

void copy_3d(Buffer& dst, const Region& dst_region, Buffer& src, const Region& src_region, const Extent& extent,
             Stream* stream) {
  if (extent.empty()) return;
  refuse_overlap(dst.address(), dst_region, src.address(), src_region, extent, "the dst and src regions");
  if (dst.is_host() && src.is_host() && !stream) {
    cpu_copy(static_cast<char*>(dst.host_pointer()), dst_region, static_cast<const char*>(src.host_pointer()),
             src_region, extent);
    return;
  }
  Device& d = stream ? stream->device() : (dst.is_host() ? src.device() : dst.device());
  ContextScope bind(d);
  CUstream on = stream ? stream->handle() : CU_STREAM_LEGACY;
  if (stream) {
    dst.note_use(stream);
    src.note_use(stream);
  }
  CopySide to = buffer_side(dst, dst_region, extent), from = buffer_side(src, src_region, extent);
  if (is_peer_copy(dst, src)) {
    CUDA_MEMCPY3D_PEER p = make_copy_3d_peer(to, dst.device().context(), from, src.device().context(), extent);
    check(driver_api().cuMemcpy3DPeerAsync(&p, on), "cuMemcpy3DPeerAsync", &d);
  } else {
    enqueue_copy(make_copy_3d(to, from, extent), d, on);
  }
  if (!stream) finish_legacy(d);
}

void write_2d(Buffer& dst, const Region& dst_region, const void* src, const Region& src_region, const Extent& extent,
              Stream* stream) {
  if (extent.empty()) return;
  refuse_overlap(dst.address(), dst_region, reinterpret_cast<uintptr_t>(src), src_region, extent,
                 "src and dst's region");
  if (dst.is_host() && !stream) {
    cpu_copy(static_cast<char*>(dst.host_pointer()), dst_region, static_cast<const char*>(src), src_region, extent);
    return;
  }
  Device& d = dst.device();
  ContextScope bind(d);
  CUstream on = stream ? stream->handle() : CU_STREAM_LEGACY;
  if (stream) dst.note_use(stream);
  CopySide to = buffer_side(dst, dst_region, extent), from = host_side(src, src_region, extent);
  Span span = region_span(src_region, extent);
  const char* first = static_cast<const char*>(src) + span.first;
  if (!dst.is_host() && wants_staging(first, span.last - span.first, true) &&
      region_bytes(extent) >= staging::tuning().min_bytes_to_device &&
      staged_write_2d(d, to.device, to.pitch, to.type, first, from.pitch, extent.width, extent.height, on)) {
    if (!stream) finish_legacy(d);
    return;
  }
  enqueue_copy(make_copy_3d(to, from, extent), d, on);
  if (!stream) finish_legacy(d);
}

void read_2d(Buffer& src, const Region& src_region, void* dst, const Region& dst_region, const Extent& extent,
             Stream* stream) {
  if (extent.empty()) return;
  refuse_overlap(src.address(), src_region, reinterpret_cast<uintptr_t>(dst), dst_region, extent,
                 "dst and src's region");
  if (src.is_host() && !stream) {
    cpu_copy(static_cast<char*>(dst), dst_region, static_cast<const char*>(src.host_pointer()), src_region, extent);
    return;
  }
  Device& d = src.device();
  ContextScope bind(d);
  CUstream on = stream ? stream->handle() : CU_STREAM_LEGACY;
  if (stream) src.note_use(stream);
  CopySide to = host_side(dst, dst_region, extent), from = buffer_side(src, src_region, extent);
  Span span = region_span(dst_region, extent);
  char* first = static_cast<char*>(dst) + span.first;
  // Staged reads return when the data is in `dst`, as the driver's pageable path does.
  if (!src.is_host() && wants_staging(first, span.last - span.first, false) &&
      region_bytes(extent) >= staging::tuning().min_bytes &&
      staged_read_2d(d, first, to.pitch, from.device, from.pitch, from.type, extent.width, extent.height, on))
    return;
  enqueue_copy(make_copy_3d(to, from, extent), d, on);
  if (!stream) finish_legacy(d);
}

void check_fill_2d(const Buffer& buffer, const Region& region, const Extent& extent, uint32_t value,
                   uint32_t element_size) {
  if (element_size != 1 && element_size != 2 && element_size != 4)
    fail(DC_ERROR_INVALID_ARGUMENT, "element_size %u is not 1, 2 or 4", element_size);
  if (element_size < 4 && value >> (8 * element_size))
    fail(DC_ERROR_INVALID_ARGUMENT, "value 0x%x does not fit in %u byte%s; pass a value below 0x%x or a wider "
         "element_size", value, element_size, element_size == 1 ? "" : "s", 1u << (8 * element_size));
  if (region.offset % element_size || extent.width % element_size || region.pitch % element_size)
    fail(DC_ERROR_INVALID_ARGUMENT, "offset %" PRIu64 ", width %" PRIu64 " and pitch %" PRIu64
         " must be multiples of element_size %u", region.offset, extent.width, region.pitch, element_size);
  check_region(region, extent, buffer.size(), {"buffer", "offset", "pitch", nullptr, "the buffer's size"});
}

void fill_2d(Buffer& buffer, const Region& region, const Extent& extent, uint32_t value, uint32_t element_size,
             Stream* stream) {
  if (extent.empty()) return;
  if (buffer.is_host() && !stream) {
    char* base = static_cast<char*>(buffer.host_pointer()) + region.offset;
    for (uint64_t r = 0; r < extent.height; ++r) {
      char* row = base + r * region.pitch;
      for (uint64_t i = 0; i < extent.width; i += element_size) std::memcpy(row + i, &value, element_size);
    }
    return;
  }
  CUdeviceptr at = buffer.device_address();
  if (!at)
    fail(DC_ERROR_NOT_SUPPORTED, "the driver gave this host memory no device mapping, so it cannot be filled in "
         "stream order; use dc_buffer_fill_2d, or register it with DC_ALLOC_DEVICE_MAPPED");
  if (buffer.kind() == DC_BUFFER_REGISTERED_HOST && (buffer.flags() & DC_ALLOC_READ_ONLY))
    fail(DC_ERROR_INVALID_ARGUMENT, "the buffer was registered with DC_ALLOC_READ_ONLY: the device may only read it; "
         "use dc_buffer_fill_2d, which fills it on the CPU");
  at += region.offset;
  if (at % element_size)
    fail(DC_ERROR_INVALID_ARGUMENT, "the buffer's address 0x%" PRIx64 " + offset is not aligned to element_size %u; "
         "fill with element_size 1", static_cast<uint64_t>(at - region.offset), element_size);
  const DriverApi& api = driver_api();
  Device& d = buffer.device();
  ContextScope bind(d);
  CUstream on = stream ? stream->handle() : CU_STREAM_LEGACY;
  // One row needs no pitch; the driver still wants one of at least the row.
  size_t pitch = static_cast<size_t>(extent.height > 1 ? region.pitch : extent.width);
  size_t count = static_cast<size_t>(extent.width / element_size), rows = static_cast<size_t>(extent.height);
  if (stream) buffer.note_use(stream);
  switch (element_size) {
    case 1:
      check(api.cuMemsetD2D8Async(at, pitch, static_cast<unsigned char>(value), count, rows, on), "cuMemsetD2D8Async",
            &d);
      break;
    case 2:
      check(api.cuMemsetD2D16Async(at, pitch, static_cast<unsigned short>(value), count, rows, on),
            "cuMemsetD2D16Async", &d);
      break;
    default:
      check(api.cuMemsetD2D32Async(at, pitch, value, count, rows, on), "cuMemsetD2D32Async", &d);
      break;
  }
  if (!stream) finish_legacy(d);
}

}  // namespace dc
