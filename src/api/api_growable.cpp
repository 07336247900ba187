// Entry points: growable buffers (virtual memory management) and the device's
// allocation granularity.
#include <cinttypes>

#include "dccuda.h"

#include "core/args.h"
#include "core/fork_guard.h"
#include "core/guard.h"
#include "device/device.h"
#include "memory/buffer.h"
#include "memory/virtual_range.h"
#include "stream/host_callback.h"

using namespace dc;

extern "C" {

DC_API dc_status dc_device_allocation_granularity(dc_device device, int32_t which, uint64_t* granularity) {
  return guarded("dc_device_allocation_granularity", [&] {
    clear_out(granularity);
    forbid_after_fork();
    Pinned<Device> d = pin<Device>(device, "device");
    require_arg(granularity, "granularity");
    if (which != DC_GRANULARITY_MINIMUM && which != DC_GRANULARITY_RECOMMENDED)
      fail(DC_ERROR_INVALID_ARGUMENT, "which is %d; pass DC_GRANULARITY_MINIMUM (0) or DC_GRANULARITY_RECOMMENDED (1)",
           which);
    d->check_usable();
    ContextScope bind(*d);
    *granularity = allocation_granularity(*d, which == DC_GRANULARITY_RECOMMENDED);
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_buffer_alloc_growable(dc_device device, uint64_t max_size, uint64_t initial_size,
                                          dc_buffer* buffer) {
  return guarded("dc_buffer_alloc_growable", [&] {
    clear_out(buffer);
    forbid_after_fork();
    Pinned<Device> d = pin<Device>(device, "device");
    require_arg(buffer, "buffer");
    if (max_size == 0) fail(DC_ERROR_INVALID_ARGUMENT, "max_size is 0; reserve at least as much as initial_size");
    if (initial_size == 0) fail(DC_ERROR_INVALID_ARGUMENT, "initial_size is 0; map at least 1 byte");
    if (initial_size > max_size)
      fail(DC_ERROR_INVALID_ARGUMENT, "initial_size %" PRIu64 " exceeds max_size %" PRIu64 "; reserve more", initial_size,
           max_size);
    forbid_in_host_callback();
    d->check_usable();
    ContextScope bind(*d);
    Ref<Buffer> b = Buffer::alloc_growable(d.share(), max_size, initial_size);
    *buffer = issue_handle<dc_buffer>(b.get());
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_buffer_grow(dc_buffer buffer, uint64_t size) {
  return guarded("dc_buffer_grow", [&] {
    forbid_after_fork();
    Pinned<Buffer> b = pin<Buffer>(buffer, "buffer");
    if (b->view_parent())
      fail(DC_ERROR_INVALID_ARGUMENT, "buffer is a view; grow the growable buffer it views (a view keeps its range)");
    if (!b->virtual_range())
      fail(DC_ERROR_INVALID_ARGUMENT, "buffer was not made by dc_buffer_alloc_growable; only growable buffers grow");
    forbid_in_host_callback();
    b->check_usable();
    ContextScope bind(b->device());
    b->grow(size);
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_buffer_reserved_size(dc_buffer buffer, uint64_t* size) {
  return guarded("dc_buffer_reserved_size", [&] {
    clear_out(size);
    forbid_after_fork();
    Pinned<Buffer> b = pin<Buffer>(buffer, "buffer");
    require_arg(size, "size");
    VirtualRange* range = b->view_parent() ? nullptr : b->virtual_range();
    *size = range ? range->reserved() : b->size();
    return DC_SUCCESS;
  });
}

}  // extern "C"
