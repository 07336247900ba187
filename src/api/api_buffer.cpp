// Entry points: buffers (allocation, wrapping, queries, managed memory) and
// trimming the device's memory pool.
#include <cinttypes>

#include "dccuda.h"

#include "core/args.h"
#include "core/fork_guard.h"
#include "core/guard.h"
#include "device/cuda_check.h"
#include "device/device.h"
#include "memory/buffer.h"
#include "memory/managed.h"
#include "memory/memory_state.h"
#include "stream/host_callback.h"
#include "stream/stream.h"

using namespace dc;

namespace {

void require_size(uint64_t size) {
  if (size == 0) fail(DC_ERROR_INVALID_ARGUMENT, "size is 0; allocate at least 1 byte");
}

// Flags a kind of buffer takes: anything else is named in the message.
void require_buffer_flags(uint32_t flags, uint32_t allowed, const char* allowed_names) {
  if (flags & ~allowed)
    fail(DC_ERROR_INVALID_ARGUMENT, "flags 0x%x has bits this call does not take (0x%x); it accepts %s", flags,
         flags & ~allowed, allowed_names);
}

}  // namespace

extern "C" {

DC_API dc_status dc_buffer_alloc(dc_device device, uint64_t size, uint32_t flags, dc_buffer* buffer) {
  return guarded("dc_buffer_alloc", [&] {
    clear_out(buffer);
    forbid_after_fork();
    Pinned<Device> d = pin<Device>(device, "device");
    require_arg(buffer, "buffer");
    require_size(size);
    require_buffer_flags(flags, DC_ALLOC_NO_POOL, "DC_ALLOC_NO_POOL only");
    forbid_in_host_callback();
    d->check_usable();
    ContextScope bind(*d);
    Ref<Buffer> b = Buffer::alloc_device(d.share(), size, flags);
    *buffer = issue_handle<dc_buffer>(b.get());
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_buffer_alloc_async(dc_stream stream, uint64_t size, uint32_t flags, dc_buffer* buffer) {
  return guarded("dc_buffer_alloc_async", [&] {
    clear_out(buffer);
    forbid_after_fork();
    Pinned<Stream> s = pin<Stream>(stream, "stream");
    require_arg(buffer, "buffer");
    require_size(size);
    require_buffer_flags(flags, DC_ALLOC_NO_POOL, "DC_ALLOC_NO_POOL only");
    forbid_in_host_callback();
    s->check_usable();
    ContextScope bind(s->device());
    Ref<Buffer> b = Buffer::alloc_device_async(*s, size, flags);
    *buffer = issue_handle<dc_buffer>(b.get());
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_buffer_alloc_pinned(dc_device device, uint64_t size, uint32_t flags, dc_buffer* buffer) {
  return guarded("dc_buffer_alloc_pinned", [&] {
    clear_out(buffer);
    forbid_after_fork();
    Pinned<Device> d = pin<Device>(device, "device");
    require_arg(buffer, "buffer");
    require_size(size);
    require_buffer_flags(flags, DC_ALLOC_PORTABLE | DC_ALLOC_DEVICE_MAPPED | DC_ALLOC_WRITE_COMBINED,
                         "DC_ALLOC_PORTABLE, DC_ALLOC_DEVICE_MAPPED and DC_ALLOC_WRITE_COMBINED");
    forbid_in_host_callback();
    d->check_usable();
    ContextScope bind(*d);
    Ref<Buffer> b = Buffer::alloc_pinned(d.share(), size, flags);
    *buffer = issue_handle<dc_buffer>(b.get());
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_buffer_alloc_managed(dc_device device, uint64_t size, uint32_t flags, dc_buffer* buffer) {
  return guarded("dc_buffer_alloc_managed", [&] {
    clear_out(buffer);
    forbid_after_fork();
    Pinned<Device> d = pin<Device>(device, "device");
    require_arg(buffer, "buffer");
    require_size(size);
    require_buffer_flags(flags, DC_ALLOC_ATTACH_HOST, "DC_ALLOC_ATTACH_HOST only");
    forbid_in_host_callback();
    d->check_usable();
    ContextScope bind(*d);
    Ref<Buffer> b = Buffer::alloc_managed(d.share(), size, flags);
    *buffer = issue_handle<dc_buffer>(b.get());
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_buffer_wrap_device(dc_device device, uint64_t device_pointer, uint64_t size, dc_buffer* buffer) {
  return guarded("dc_buffer_wrap_device", [&] {
    clear_out(buffer);
    forbid_after_fork();
    Pinned<Device> d = pin<Device>(device, "device");
    require_arg(buffer, "buffer");
    if (device_pointer == 0)
      fail(DC_ERROR_INVALID_ARGUMENT, "device_pointer is 0; pass the CUdeviceptr of the memory to wrap");
    if (size == 0) fail(DC_ERROR_INVALID_ARGUMENT, "size is 0; pass the size of the memory at device_pointer");
    if (device_pointer + size < device_pointer)
      fail(DC_ERROR_OUT_OF_RANGE, "device_pointer 0x%" PRIx64 " + size %" PRIu64 " wraps around the address space",
           device_pointer, size);
    forbid_in_host_callback();
    d->check_usable();
    ContextScope bind(*d);
    Ref<Buffer> b = Buffer::wrap_device(d.share(), static_cast<CUdeviceptr>(device_pointer), size);
    *buffer = issue_handle<dc_buffer>(b.get());
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_buffer_register_host(dc_device device, void* host, uint64_t size, uint32_t flags,
                                         dc_buffer* buffer) {
  return guarded("dc_buffer_register_host", [&] {
    clear_out(buffer);
    forbid_after_fork();
    Pinned<Device> d = pin<Device>(device, "device");
    require_arg(buffer, "buffer");
    require_arg(host, "host");
    if (size == 0) fail(DC_ERROR_INVALID_ARGUMENT, "size is 0; pass the size of the memory at host");
    // Refused here rather than by the driver, whose message cannot name the
    // argument. No process has memory at or past 2^57 (the largest user
    // address space of x86-64 and AArch64 Linux): such a size is wrong, and
    // copies bounded by it could reach any address.
    constexpr uint64_t kUserAddressEnd = uint64_t(1) << 57;
    uint64_t start = reinterpret_cast<uintptr_t>(host);
    if (start >= kUserAddressEnd || size > kUserAddressEnd - start)
      fail(DC_ERROR_INVALID_ARGUMENT, "host %p + size %" PRIu64 " runs past the end of the address space; pass the "
           "size of the memory at host", host, size);
    require_buffer_flags(flags, DC_ALLOC_PORTABLE | DC_ALLOC_DEVICE_MAPPED | DC_ALLOC_READ_ONLY,
                         "DC_ALLOC_PORTABLE, DC_ALLOC_DEVICE_MAPPED and DC_ALLOC_READ_ONLY");
    forbid_in_host_callback();
    d->check_usable();
    ContextScope bind(*d);
    Ref<Buffer> b = Buffer::register_host(d.share(), host, size, flags);
    *buffer = issue_handle<dc_buffer>(b.get());
    return DC_SUCCESS;
  });
}

DC_API void dc_buffer_release(dc_buffer buffer) { close_handle<Buffer>(buffer); }

DC_API dc_status dc_buffer_size(dc_buffer buffer, uint64_t* size) {
  return guarded("dc_buffer_size", [&] {
    clear_out(size);
    forbid_after_fork();
    Pinned<Buffer> b = pin<Buffer>(buffer, "buffer");
    require_arg(size, "size");
    *size = b->size();
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_buffer_kind(dc_buffer buffer, int32_t* kind) {
  return guarded("dc_buffer_kind", [&] {
    clear_out(kind);
    forbid_after_fork();
    Pinned<Buffer> b = pin<Buffer>(buffer, "buffer");
    require_arg(kind, "kind");
    *kind = b->kind();
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_buffer_device(dc_buffer buffer, dc_device* device) {
  return guarded("dc_buffer_device", [&] {
    clear_out(device);
    forbid_after_fork();
    Pinned<Buffer> b = pin<Buffer>(buffer, "buffer");
    require_arg(device, "device");
    *device = issue_handle<dc_device>(&b->device());
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_buffer_device_pointer(dc_buffer buffer, uint64_t* device_pointer) {
  return guarded("dc_buffer_device_pointer", [&] {
    clear_out(device_pointer);
    forbid_after_fork();
    Pinned<Buffer> b = pin<Buffer>(buffer, "buffer");
    require_arg(device_pointer, "device_pointer");
    b->check_usable();
    if (b->is_host() && (!(b->flags() & DC_ALLOC_DEVICE_MAPPED) || !b->device_address()))
      fail(DC_ERROR_NOT_SUPPORTED, "this %s buffer has no device address; %s it with DC_ALLOC_DEVICE_MAPPED",
           b->kind() == DC_BUFFER_PINNED ? "pinned" : "registered",
           b->kind() == DC_BUFFER_PINNED ? "allocate" : "register");
    *device_pointer = b->device_address();
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_buffer_host_pointer(dc_buffer buffer, void** host_pointer) {
  return guarded("dc_buffer_host_pointer", [&] {
    clear_out(host_pointer);
    forbid_after_fork();
    Pinned<Buffer> b = pin<Buffer>(buffer, "buffer");
    require_arg(host_pointer, "host_pointer");
    b->check_usable();
    if (!b->host_pointer())
      fail(DC_ERROR_NOT_SUPPORTED, "device memory has no CPU address; copy it with dc_buffer_read, or use pinned "
           "(dc_buffer_alloc_pinned) or managed memory (dc_buffer_alloc_managed)");
    *host_pointer = b->host_pointer();
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_buffer_view(dc_buffer parent, uint64_t offset, uint64_t size, dc_buffer* view) {
  return guarded("dc_buffer_view", [&] {
    clear_out(view);
    forbid_after_fork();
    Pinned<Buffer> p = pin<Buffer>(parent, "parent");
    require_arg(view, "view");
    if (size == 0) fail(DC_ERROR_INVALID_ARGUMENT, "size is 0; a view covers at least one byte of its parent");
    if (offset > p->size() || size > p->size() - offset)
      fail(DC_ERROR_OUT_OF_RANGE, "offset %" PRIu64 " + size %" PRIu64 " runs past the end of parent (%" PRIu64
           " bytes); pass a range inside the parent", offset, size, p->size());
    p->check_usable();
    Ref<Buffer> v = Buffer::make_view(*p, offset, size);
    *view = issue_handle<dc_buffer>(v.get());
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_buffer_prefetch(dc_buffer buffer, uint64_t offset, uint64_t size, int32_t location,
                                    dc_stream stream) {
  return guarded("dc_buffer_prefetch", [&] {
    forbid_after_fork();
    Pinned<Buffer> b = pin<Buffer>(buffer, "buffer");
    Pinned<Stream> s = pin<Stream>(stream, "stream");
    forbid_in_host_callback();
    b->check_usable();
    s->check_usable();
    prefetch(*b, offset, size, location, *s);
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_buffer_advise(dc_buffer buffer, uint64_t offset, uint64_t size, int32_t advice, int32_t location) {
  return guarded("dc_buffer_advise", [&] {
    forbid_after_fork();
    Pinned<Buffer> b = pin<Buffer>(buffer, "buffer");
    forbid_in_host_callback();
    b->check_usable();
    advise(*b, offset, size, advice, location);
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_device_trim_memory(dc_device device, uint64_t keep_bytes) {
  return guarded("dc_device_trim_memory", [&] {
    forbid_after_fork();
    Pinned<Device> d = pin<Device>(device, "device");
    forbid_in_host_callback();
    d->check_usable();
    ContextScope bind(*d);
    trim_memory(*d, keep_bytes);
    return DC_SUCCESS;
  });
}

}  // extern "C"
