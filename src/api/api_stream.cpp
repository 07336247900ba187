// Entry points: streams.
#include "dccuda.h"

#include "core/args.h"
#include "core/fork_guard.h"
#include "core/guard.h"
#include "device/cuda_check.h"
#include "device/device.h"
#include "loader/driver.h"
#include "stream/event.h"
#include "stream/host_callback.h"
#include "stream/stream.h"
#include "memory/stream_values.h"

using namespace dc;

extern "C" {

DC_API dc_status dc_stream_create(dc_device device, uint32_t flags, int32_t priority, dc_stream* stream) {
  return guarded("dc_stream_create", [&] {
    clear_out(stream);
    forbid_after_fork();
    Pinned<Device> d = pin<Device>(device, "device");
    require_arg(stream, "stream");
    require_flags(flags, DC_STREAM_BLOCKING, "flags", "DC_STREAM_*");
    forbid_in_host_callback();
    d->check_usable();
    ContextScope bind(*d);
    Ref<Stream> s = Stream::create(d.share(), flags, priority);
    *stream = issue_handle<dc_stream>(s.get());
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_stream_priority_range(dc_device device, int32_t* least, int32_t* greatest) {
  return guarded("dc_stream_priority_range", [&] {
    clear_out(least);
    clear_out(greatest);
    forbid_after_fork();
    Pinned<Device> d = pin<Device>(device, "device");
    require_arg(least, "least");
    require_arg(greatest, "greatest");
    d->check_usable();
    ContextScope bind(*d);
    int l = 0, g = 0;
    check(driver_api().cuCtxGetStreamPriorityRange(&l, &g), "cuCtxGetStreamPriorityRange", d.get());
    *least = l;
    *greatest = g;
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_stream_get_default(dc_device device, int32_t which, dc_stream* stream) {
  return guarded("dc_stream_get_default", [&] {
    clear_out(stream);
    forbid_after_fork();
    Pinned<Device> d = pin<Device>(device, "device");
    require_arg(stream, "stream");
    if (which != DC_STREAM_LEGACY && which != DC_STREAM_PER_THREAD)
      fail(DC_ERROR_INVALID_ARGUMENT, "which is %d; pass DC_STREAM_LEGACY (%d) or DC_STREAM_PER_THREAD (%d)", which,
           DC_STREAM_LEGACY, DC_STREAM_PER_THREAD);
    Ref<Stream> s = Stream::default_stream(d.share(), which);
    *stream = issue_handle<dc_stream>(s.get());
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_stream_wrap(dc_device device, void* cu_stream, dc_stream* stream) {
  return guarded("dc_stream_wrap", [&] {
    clear_out(stream);
    forbid_after_fork();
    Pinned<Device> d = pin<Device>(device, "device");
    require_arg(stream, "stream");
    if (!cu_stream)
      fail(DC_ERROR_INVALID_ARGUMENT, "cu_stream is NULL (the default stream); use dc_stream_get_default for the "
           "default streams");
    CUstream h = static_cast<CUstream>(cu_stream);
    Ref<Stream> s = h == CU_STREAM_LEGACY       ? Stream::default_stream(d.share(), DC_STREAM_LEGACY)
                    : h == CU_STREAM_PER_THREAD ? Stream::default_stream(d.share(), DC_STREAM_PER_THREAD)
                                                : Stream::wrap(d.share(), h);
    *stream = issue_handle<dc_stream>(s.get());
    return DC_SUCCESS;
  });
}

DC_API void dc_stream_release(dc_stream stream) { close_handle<Stream>(stream); }

DC_API dc_status dc_stream_synchronize(dc_stream stream) {
  return guarded("dc_stream_synchronize", [&] {
    forbid_after_fork();
    Pinned<Stream> s = pin<Stream>(stream, "stream");
    forbid_in_host_callback();
    s->check_usable();
    ContextScope bind(s->device());
    check(driver_api().cuStreamSynchronize(s->handle()), "cuStreamSynchronize", &s->device());
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_stream_query(dc_stream stream) {
  return guarded("dc_stream_query", [&] {
    forbid_after_fork();
    Pinned<Stream> s = pin<Stream>(stream, "stream");
    forbid_in_host_callback();
    s->check_usable();
    ContextScope bind(s->device());
    CUresult r = driver_api().cuStreamQuery(s->handle());
    if (r == CUDA_ERROR_NOT_READY) return DC_NOT_READY;
    check(r, "cuStreamQuery", &s->device());
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_stream_wait_event(dc_stream stream, dc_event event) {
  return guarded("dc_stream_wait_event", [&] {
    forbid_after_fork();
    Pinned<Stream> s = pin<Stream>(stream, "stream");
    Pinned<Event> e = pin<Event>(event, "event");
    forbid_in_host_callback();
    s->check_usable();
    e->check_usable();
    ContextScope bind(s->device());
    check(driver_api().cuStreamWaitEvent(s->handle(), e->handle(), 0), "cuStreamWaitEvent", &s->device());
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_stream_add_callback(dc_stream stream, dc_host_fn fn, void* user_data) {
  return guarded("dc_stream_add_callback", [&] {
    forbid_after_fork();
    Pinned<Stream> s = pin<Stream>(stream, "stream");
    if (!fn) fail(DC_ERROR_INVALID_ARGUMENT, "fn is NULL; pass the function to run");
    forbid_in_host_callback();
    s->check_usable();
    ContextScope bind(s->device());
    enqueue_host_callback(*s, fn, user_data);
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_stream_native(dc_stream stream, void** cu_stream) {
  return guarded("dc_stream_native", [&] {
    clear_out(cu_stream);
    forbid_after_fork();
    Pinned<Stream> s = pin<Stream>(stream, "stream");
    require_arg(cu_stream, "cu_stream");
    s->check_usable();
    *cu_stream = s->handle();
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_stream_device(dc_stream stream, dc_device* device) {
  return guarded("dc_stream_device", [&] {
    clear_out(device);
    forbid_after_fork();
    Pinned<Stream> s = pin<Stream>(stream, "stream");
    require_arg(device, "device");
    *device = issue_handle<dc_device>(&s->device());
    return DC_SUCCESS;
  });
}

}  // extern "C"

// Stream memory operations (memory/stream_values.h).
namespace {

dc_status enqueue_mem_op(const char* call, dc_stream stream, const dc_stream_mem_op& op) {
  return guarded(call, [&] {
    forbid_after_fork();
    Pinned<Stream> s = pin<Stream>(stream, "stream");
    forbid_in_host_callback();
    enqueue_mem_ops(*s, &op, 1, false);
    return DC_SUCCESS;
  });
}

}  // namespace

extern "C" {

DC_API dc_status dc_stream_wait_value32(dc_stream stream, dc_buffer buffer, uint64_t offset, uint32_t value,
                                        int32_t compare, uint32_t flags) {
  return enqueue_mem_op("dc_stream_wait_value32", stream,
                        dc_stream_mem_op{DC_MEM_OP_WAIT32, compare, flags, 0, buffer, offset, value});
}

DC_API dc_status dc_stream_wait_value64(dc_stream stream, dc_buffer buffer, uint64_t offset, uint64_t value,
                                        int32_t compare, uint32_t flags) {
  return enqueue_mem_op("dc_stream_wait_value64", stream,
                        dc_stream_mem_op{DC_MEM_OP_WAIT64, compare, flags, 0, buffer, offset, value});
}

DC_API dc_status dc_stream_write_value32(dc_stream stream, dc_buffer buffer, uint64_t offset, uint32_t value,
                                         uint32_t flags) {
  return enqueue_mem_op("dc_stream_write_value32", stream,
                        dc_stream_mem_op{DC_MEM_OP_WRITE32, 0, flags, 0, buffer, offset, value});
}

DC_API dc_status dc_stream_write_value64(dc_stream stream, dc_buffer buffer, uint64_t offset, uint64_t value,
                                         uint32_t flags) {
  return enqueue_mem_op("dc_stream_write_value64", stream,
                        dc_stream_mem_op{DC_MEM_OP_WRITE64, 0, flags, 0, buffer, offset, value});
}

DC_API dc_status dc_stream_batch_mem_ops(dc_stream stream, const dc_stream_mem_op* ops, uint32_t count) {
  return guarded("dc_stream_batch_mem_ops", [&] {
    forbid_after_fork();
    Pinned<Stream> s = pin<Stream>(stream, "stream");
    require_arg(ops, "ops");
    if (count == 0 || count > kMaxMemOps)
      fail(DC_ERROR_INVALID_ARGUMENT, "count is %u; pass 1 to %u operations", count, kMaxMemOps);
    forbid_in_host_callback();
    enqueue_mem_ops(*s, ops, count, true);
    return DC_SUCCESS;
  });
}

}  // extern "C"
