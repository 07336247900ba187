// Entry points: pitched allocation, 2D and 3D copies, 2D fills.
#include <cinttypes>

#include "dccuda.h"

#include "core/args.h"
#include "core/fork_guard.h"
#include "core/guard.h"
#include "memory/buffer.h"
#include "memory/region.h"
#include "memory/transfer_2d.h"
#include "stream/host_callback.h"
#include "stream/stream.h"

using namespace dc;

namespace {

constexpr RegionNames kDst2d{"dst", "dst_offset", "dst_pitch", nullptr, "dst's size"};
constexpr RegionNames kSrc2d{"src", "src_offset", "src_pitch", nullptr, "src's size"};
constexpr RegionNames kDst3d{"dst", "dst_offset", "dst_pitch", "dst_rows_per_plane", "dst's size"};
constexpr RegionNames kSrc3d{"src", "src_offset", "src_pitch", "src_rows_per_plane", "src's size"};
constexpr RegionNames kHostSrc{"src", "the region's start (0)", "src_pitch", nullptr, "src_size"};
constexpr RegionNames kHostDst{"dst", "the region's start (0)", "dst_pitch", nullptr, "dst_size"};

void require_host_memory(const void* p, const Extent& e, const char* name) {
  if (!p && !e.empty())
    fail(DC_ERROR_INVALID_ARGUMENT, "%s is NULL with a %" PRIu64 " x %" PRIu64 " region; pass the host memory to copy "
         "%s", name, e.width, e.height, name[0] == 's' ? "from" : "to");
}

// A stream for work on `buffer`: usable and on the buffer's device.
Pinned<Stream> stream_for(dc_stream stream, const Buffer& buffer, const char* buffer_name) {
  Pinned<Stream> s = pin<Stream>(stream, "stream");
  s->require_device(buffer.device(), buffer_name);
  s->check_usable();
  return s;
}

// A stream of either buffer's device.
Pinned<Stream> stream_for_copy(dc_stream stream, const Buffer& dst, const Buffer& src) {
  Pinned<Stream> st = pin<Stream>(stream, "stream");
  if (&st->device() != &dst.device() && &st->device() != &src.device())
    fail(DC_ERROR_INVALID_ARGUMENT, "stream is on device %d, but dst is on device %d and src on device %d; use a "
         "stream of either buffer's device", st->device().ordinal(), dst.device().ordinal(), src.device().ordinal());
  st->check_usable();
  return st;
}

dc_status copy_between(dc_buffer dst, const Region& dr, dc_buffer src, const Region& sr, const Extent& e,
                       dc_stream stream, bool three_d) {
  forbid_after_fork();
  Pinned<Buffer> d = pin<Buffer>(dst, "dst");
  Pinned<Buffer> s = pin<Buffer>(src, "src");
  Pinned<Stream> st;
  if (stream) st = stream_for_copy(stream, *d, *s);
  check_region(dr, e, d->size(), three_d ? kDst3d : kDst2d);
  check_region(sr, e, s->size(), three_d ? kSrc3d : kSrc2d);
  forbid_in_host_callback();
  d->check_usable();
  s->check_usable();
  copy_3d(*d, dr, *s, sr, e, st.get());
  return DC_SUCCESS;
}

dc_status write_rows(dc_buffer dst, const Region& dr, const void* src, uint64_t src_size, const Region& sr,
                     const Extent& e, dc_stream stream) {
  forbid_after_fork();
  Pinned<Buffer> b = pin<Buffer>(dst, "dst");
  Pinned<Stream> st;
  if (stream) st = stream_for(stream, *b, "dst");
  require_host_memory(src, e, "src");
  check_region(dr, e, b->size(), kDst2d);
  check_region(sr, e, src_size, kHostSrc);
  forbid_in_host_callback();
  b->check_usable();
  write_2d(*b, dr, src, sr, e, st.get());
  return DC_SUCCESS;
}

dc_status read_rows(dc_buffer src, const Region& sr, void* dst, uint64_t dst_size, const Region& dr, const Extent& e,
                    dc_stream stream) {
  forbid_after_fork();
  Pinned<Buffer> b = pin<Buffer>(src, "src");
  Pinned<Stream> st;
  if (stream) st = stream_for(stream, *b, "src");
  require_host_memory(dst, e, "dst");
  check_region(sr, e, b->size(), kSrc2d);
  check_region(dr, e, dst_size, kHostDst);
  forbid_in_host_callback();
  b->check_usable();
  read_2d(*b, sr, dst, dr, e, st.get());
  return DC_SUCCESS;
}

dc_status fill_rows(dc_buffer buffer, const Region& r, const Extent& e, uint32_t value, uint32_t element_size,
                    dc_stream stream) {
  forbid_after_fork();
  Pinned<Buffer> b = pin<Buffer>(buffer, "buffer");
  Pinned<Stream> st;
  if (stream) st = stream_for(stream, *b, "buffer");
  check_fill_2d(*b, r, e, value, element_size);
  forbid_in_host_callback();
  b->check_usable();
  fill_2d(*b, r, e, value, element_size, st.get());
  return DC_SUCCESS;
}

}  // namespace

extern "C" {

DC_API dc_status dc_buffer_alloc_pitched(dc_device device, uint64_t width, uint64_t height, uint32_t element_size,
                                         uint32_t flags, uint64_t* pitch, dc_buffer* buffer) {
  return guarded("dc_buffer_alloc_pitched", [&] {
    clear_out(pitch);
    clear_out(buffer);
    forbid_after_fork();
    Pinned<Device> d = pin<Device>(device, "device");
    require_arg(pitch, "pitch");
    require_arg(buffer, "buffer");
    if (width == 0 || height == 0)
      fail(DC_ERROR_INVALID_ARGUMENT, "width %" PRIu64 " and height %" PRIu64 " must both be above 0", width, height);
    if (element_size != 4 && element_size != 8 && element_size != 16)
      fail(DC_ERROR_INVALID_ARGUMENT, "element_size %u is not 4, 8 or 16; pass the size of the elements kernels "
           "access (smaller elements: 4)", element_size);
    if (flags != 0) fail(DC_ERROR_INVALID_ARGUMENT, "flags 0x%x: this call takes no flags; pass 0", flags);
    forbid_in_host_callback();
    d->check_usable();
    ContextScope bind(*d);
    uint64_t got = 0;
    Ref<Buffer> b = Buffer::alloc_pitched(d.share(), width, height, element_size, &got);
    *buffer = issue_handle<dc_buffer>(b.get());
    *pitch = got;
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_buffer_copy_2d(dc_buffer dst, uint64_t dst_offset, uint64_t dst_pitch, dc_buffer src,
                                   uint64_t src_offset, uint64_t src_pitch, uint64_t width, uint64_t height) {
  return guarded("dc_buffer_copy_2d", [&] {
    return copy_between(dst, {dst_offset, dst_pitch, 0}, src, {src_offset, src_pitch, 0}, {width, height, 1},
                        nullptr, false);
  });
}

DC_API dc_status dc_buffer_copy_2d_async(dc_buffer dst, uint64_t dst_offset, uint64_t dst_pitch, dc_buffer src,
                                         uint64_t src_offset, uint64_t src_pitch, uint64_t width, uint64_t height,
                                         dc_stream stream) {
  return guarded("dc_buffer_copy_2d_async", [&] {
    if (!stream) pin<Stream>(stream, "stream");
    return copy_between(dst, {dst_offset, dst_pitch, 0}, src, {src_offset, src_pitch, 0}, {width, height, 1}, stream,
                        false);
  });
}

DC_API dc_status dc_buffer_copy_3d(dc_buffer dst, uint64_t dst_offset, uint64_t dst_pitch,
                                   uint64_t dst_rows_per_plane, dc_buffer src, uint64_t src_offset,
                                   uint64_t src_pitch, uint64_t src_rows_per_plane, uint64_t width, uint64_t height,
                                   uint64_t depth) {
  return guarded("dc_buffer_copy_3d", [&] {
    return copy_between(dst, {dst_offset, dst_pitch, dst_rows_per_plane}, src,
                        {src_offset, src_pitch, src_rows_per_plane}, {width, height, depth}, nullptr, true);
  });
}

DC_API dc_status dc_buffer_copy_3d_async(dc_buffer dst, uint64_t dst_offset, uint64_t dst_pitch,
                                         uint64_t dst_rows_per_plane, dc_buffer src, uint64_t src_offset,
                                         uint64_t src_pitch, uint64_t src_rows_per_plane, uint64_t width,
                                         uint64_t height, uint64_t depth, dc_stream stream) {
  return guarded("dc_buffer_copy_3d_async", [&] {
    if (!stream) pin<Stream>(stream, "stream");
    return copy_between(dst, {dst_offset, dst_pitch, dst_rows_per_plane}, src,
                        {src_offset, src_pitch, src_rows_per_plane}, {width, height, depth}, stream, true);
  });
}

DC_API dc_status dc_buffer_write_2d(dc_buffer dst, uint64_t dst_offset, uint64_t dst_pitch, const void* src,
                                    uint64_t src_size, uint64_t src_pitch, uint64_t width, uint64_t height) {
  return guarded("dc_buffer_write_2d", [&] {
    return write_rows(dst, {dst_offset, dst_pitch, 0}, src, src_size, {0, src_pitch, 0}, {width, height, 1}, nullptr);
  });
}

DC_API dc_status dc_buffer_write_2d_async(dc_buffer dst, uint64_t dst_offset, uint64_t dst_pitch, const void* src,
                                          uint64_t src_size, uint64_t src_pitch, uint64_t width, uint64_t height,
                                          dc_stream stream) {
  return guarded("dc_buffer_write_2d_async", [&] {
    if (!stream) pin<Stream>(stream, "stream");
    return write_rows(dst, {dst_offset, dst_pitch, 0}, src, src_size, {0, src_pitch, 0}, {width, height, 1}, stream);
  });
}

DC_API dc_status dc_buffer_read_2d(dc_buffer src, uint64_t src_offset, uint64_t src_pitch, void* dst,
                                   uint64_t dst_size, uint64_t dst_pitch, uint64_t width, uint64_t height) {
  return guarded("dc_buffer_read_2d", [&] {
    return read_rows(src, {src_offset, src_pitch, 0}, dst, dst_size, {0, dst_pitch, 0}, {width, height, 1}, nullptr);
  });
}

DC_API dc_status dc_buffer_read_2d_async(dc_buffer src, uint64_t src_offset, uint64_t src_pitch, void* dst,
                                         uint64_t dst_size, uint64_t dst_pitch, uint64_t width, uint64_t height,
                                         dc_stream stream) {
  return guarded("dc_buffer_read_2d_async", [&] {
    if (!stream) pin<Stream>(stream, "stream");
    return read_rows(src, {src_offset, src_pitch, 0}, dst, dst_size, {0, dst_pitch, 0}, {width, height, 1}, stream);
  });
}

DC_API dc_status dc_buffer_fill_2d(dc_buffer buffer, uint64_t offset, uint64_t pitch, uint64_t width,
                                   uint64_t height, uint32_t value, uint32_t element_size) {
  return guarded("dc_buffer_fill_2d",
                 [&] { return fill_rows(buffer, {offset, pitch, 0}, {width, height, 1}, value, element_size, nullptr); });
}

DC_API dc_status dc_buffer_fill_2d_async(dc_buffer buffer, uint64_t offset, uint64_t pitch, uint64_t width,
                                         uint64_t height, uint32_t value, uint32_t element_size, dc_stream stream) {
  return guarded("dc_buffer_fill_2d_async", [&] {
    if (!stream) pin<Stream>(stream, "stream");
    return fill_rows(buffer, {offset, pitch, 0}, {width, height, 1}, value, element_size, stream);
  });
}

}  // extern "C"
