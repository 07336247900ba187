// Entry points: copies and fills.
#include <cinttypes>

#include "dccuda.h"

#include "core/args.h"
#include "core/fork_guard.h"
#include "core/guard.h"
#include "memory/buffer.h"
#include "memory/copy_batch.h"
#include "memory/transfer.h"
#include "stream/host_callback.h"
#include "stream/stream.h"

using namespace dc;

namespace {

void require_host_pointer(const void* p, uint64_t size, const char* name) {
  if (!p && size)
    fail(DC_ERROR_INVALID_ARGUMENT, "%s is NULL with size %" PRIu64 "; pass the host memory to copy %s", name, size,
         name[0] == 's' ? "from" : "to");
}

// A stream for work on `buffer`: usable and on the buffer's device.
Pinned<Stream> stream_for(dc_stream stream, const Buffer& buffer, const char* buffer_name) {
  Pinned<Stream> s = pin<Stream>(stream, "stream");
  s->require_device(buffer.device(), buffer_name);
  s->check_usable();
  return s;
}

}  // namespace

extern "C" {

DC_API dc_status dc_buffer_write(dc_buffer dst, uint64_t dst_offset, const void* src, uint64_t size) {
  return guarded("dc_buffer_write", [&] {
    forbid_after_fork();
    Pinned<Buffer> b = pin<Buffer>(dst, "dst");
    require_host_pointer(src, size, "src");
    check_range(*b, dst_offset, size, "dst", "dst_offset");
    forbid_in_host_callback();
    b->check_usable();
    write(*b, dst_offset, src, size, nullptr);
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_buffer_read(dc_buffer src, uint64_t src_offset, void* dst, uint64_t size) {
  return guarded("dc_buffer_read", [&] {
    forbid_after_fork();
    Pinned<Buffer> b = pin<Buffer>(src, "src");
    require_host_pointer(dst, size, "dst");
    check_range(*b, src_offset, size, "src", "src_offset");
    forbid_in_host_callback();
    b->check_usable();
    read(*b, src_offset, dst, size, nullptr);
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_buffer_copy(dc_buffer dst, uint64_t dst_offset, dc_buffer src, uint64_t src_offset, uint64_t size) {
  return guarded("dc_buffer_copy", [&] {
    forbid_after_fork();
    Pinned<Buffer> d = pin<Buffer>(dst, "dst");
    Pinned<Buffer> s = pin<Buffer>(src, "src");
    check_range(*d, dst_offset, size, "dst", "dst_offset");
    check_range(*s, src_offset, size, "src", "src_offset");
    forbid_in_host_callback();
    d->check_usable();
    s->check_usable();
    copy(*d, dst_offset, *s, src_offset, size, nullptr);
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_buffer_write_async(dc_buffer dst, uint64_t dst_offset, const void* src, uint64_t size,
                                       dc_stream stream) {
  return guarded("dc_buffer_write_async", [&] {
    forbid_after_fork();
    Pinned<Buffer> b = pin<Buffer>(dst, "dst");
    Pinned<Stream> s = stream_for(stream, *b, "dst");
    require_host_pointer(src, size, "src");
    check_range(*b, dst_offset, size, "dst", "dst_offset");
    forbid_in_host_callback();
    b->check_usable();
    write(*b, dst_offset, src, size, s.get());
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_buffer_read_async(dc_buffer src, uint64_t src_offset, void* dst, uint64_t size, dc_stream stream) {
  return guarded("dc_buffer_read_async", [&] {
    forbid_after_fork();
    Pinned<Buffer> b = pin<Buffer>(src, "src");
    Pinned<Stream> s = stream_for(stream, *b, "src");
    require_host_pointer(dst, size, "dst");
    check_range(*b, src_offset, size, "src", "src_offset");
    forbid_in_host_callback();
    b->check_usable();
    read(*b, src_offset, dst, size, s.get());
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_buffer_copy_async(dc_buffer dst, uint64_t dst_offset, dc_buffer src, uint64_t src_offset,
                                      uint64_t size, dc_stream stream) {
  return guarded("dc_buffer_copy_async", [&] {
    forbid_after_fork();
    Pinned<Buffer> d = pin<Buffer>(dst, "dst");
    Pinned<Buffer> s = pin<Buffer>(src, "src");
    Pinned<Stream> st = pin<Stream>(stream, "stream");
    if (&st->device() != &d->device() && &st->device() != &s->device())
      fail(DC_ERROR_INVALID_ARGUMENT, "stream is on device %d, but dst is on device %d and src on device %d; use a "
           "stream of either buffer's device", st->device().ordinal(), d->device().ordinal(), s->device().ordinal());
    check_range(*d, dst_offset, size, "dst", "dst_offset");
    check_range(*s, src_offset, size, "src", "src_offset");
    forbid_in_host_callback();
    d->check_usable();
    s->check_usable();
    st->check_usable();
    copy(*d, dst_offset, *s, src_offset, size, st.get());
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_buffer_copy_batch_async(const dc_copy_op* ops, uint32_t count, dc_stream stream) {
  return guarded("dc_buffer_copy_batch_async", [&] {
    forbid_after_fork();
    Pinned<Stream> s = pin<Stream>(stream, "stream");
    forbid_in_host_callback();
    copy_batch(ops, count, *s);
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_buffer_fill(dc_buffer buffer, uint64_t offset, uint64_t size, uint32_t value,
                                uint32_t element_size) {
  return guarded("dc_buffer_fill", [&] {
    forbid_after_fork();
    Pinned<Buffer> b = pin<Buffer>(buffer, "buffer");
    check_fill(*b, offset, size, value, element_size);
    forbid_in_host_callback();
    b->check_usable();
    fill(*b, offset, size, value, element_size, nullptr);
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_buffer_fill_async(dc_buffer buffer, uint64_t offset, uint64_t size, uint32_t value,
                                      uint32_t element_size, dc_stream stream) {
  return guarded("dc_buffer_fill_async", [&] {
    forbid_after_fork();
    Pinned<Buffer> b = pin<Buffer>(buffer, "buffer");
    Pinned<Stream> s = stream_for(stream, *b, "buffer");
    check_fill(*b, offset, size, value, element_size);
    forbid_in_host_callback();
    b->check_usable();
    fill(*b, offset, size, value, element_size, s.get());
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_buffer_copy_path(dc_buffer dst, dc_buffer src, int32_t* path) {
  return guarded("dc_buffer_copy_path", [&] {
    clear_out(path);
    forbid_after_fork();
    Pinned<Buffer> d = pin<Buffer>(dst, "dst");
    Pinned<Buffer> s = pin<Buffer>(src, "src");
    require_arg(path, "path");
    *path = copy_path(*d, *s);
    return DC_SUCCESS;
  });
}

}  // extern "C"
