// Entry points: events.
#include "dccuda.h"

#include "core/args.h"
#include "core/fork_guard.h"
#include "core/guard.h"
#include "device/device.h"
#include "stream/event.h"
#include "stream/host_callback.h"
#include "stream/stream.h"

using namespace dc;

extern "C" {

DC_API dc_status dc_event_create(dc_device device, uint32_t flags, dc_event* event) {
  return guarded("dc_event_create", [&] {
    clear_out(event);
    forbid_after_fork();
    Pinned<Device> d = pin<Device>(device, "device");
    require_arg(event, "event");
    require_flags(flags, DC_EVENT_DISABLE_TIMING | DC_EVENT_BLOCKING_SYNC | DC_EVENT_INTERPROCESS, "flags",
                  "DC_EVENT_*");
    if ((flags & DC_EVENT_INTERPROCESS) && !(flags & DC_EVENT_DISABLE_TIMING))
      fail(DC_ERROR_INVALID_ARGUMENT, "flags 0x%x has DC_EVENT_INTERPROCESS without DC_EVENT_DISABLE_TIMING; an "
           "interprocess event cannot time (the driver's rule): add DC_EVENT_DISABLE_TIMING", flags);
    forbid_in_host_callback();
    d->check_usable();
    ContextScope bind(*d);
    Ref<Event> e = Event::create(d.share(), flags);
    *event = issue_handle<dc_event>(e.get());
    return DC_SUCCESS;
  });
}

DC_API void dc_event_release(dc_event event) { close_handle<Event>(event); }

DC_API dc_status dc_event_record(dc_event event, dc_stream stream) {
  return guarded("dc_event_record", [&] {
    forbid_after_fork();
    Pinned<Event> e = pin<Event>(event, "event");
    Pinned<Stream> s = pin<Stream>(stream, "stream");
    s->require_device(e->device(), "event");
    forbid_in_host_callback();
    e->check_usable();
    s->check_usable();
    ContextScope bind(e->device());
    e->record(*s);
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_event_synchronize(dc_event event) {
  return guarded("dc_event_synchronize", [&] {
    forbid_after_fork();
    Pinned<Event> e = pin<Event>(event, "event");
    forbid_in_host_callback();
    e->check_usable();
    ContextScope bind(e->device());
    e->synchronize();
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_event_query(dc_event event) {
  return guarded("dc_event_query", [&] {
    forbid_after_fork();
    Pinned<Event> e = pin<Event>(event, "event");
    forbid_in_host_callback();
    e->check_usable();
    ContextScope bind(e->device());
    return e->query() ? DC_SUCCESS : DC_NOT_READY;
  });
}

DC_API dc_status dc_event_elapsed_ms(dc_event start, dc_event end, float* milliseconds) {
  return guarded("dc_event_elapsed_ms", [&] {
    clear_out(milliseconds);
    forbid_after_fork();
    Pinned<Event> a = pin<Event>(start, "start");
    Pinned<Event> b = pin<Event>(end, "end");
    require_arg(milliseconds, "milliseconds");
    forbid_in_host_callback();
    a->check_usable();
    b->check_usable();
    ContextScope bind(a->device());
    *milliseconds = Event::elapsed_ms(*a, *b);
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_event_native(dc_event event, void** cu_event) {
  return guarded("dc_event_native", [&] {
    clear_out(cu_event);
    forbid_after_fork();
    Pinned<Event> e = pin<Event>(event, "event");
    require_arg(cu_event, "cu_event");
    e->check_usable();
    *cu_event = e->handle();
    return DC_SUCCESS;
  });
}

}  // extern "C"
