// Entry points: message queues and resident kernels' control blocks.
#include <cinttypes>

#include "dccuda.h"

#include "core/args.h"
#include "core/fork_guard.h"
#include "core/guard.h"
#include "device/device.h"
#include "queue/control.h"
#include "queue/queue.h"
#include "stream/host_callback.h"

using namespace dc;

namespace {

// A message pointer may be NULL only for an empty message.
void require_message(const void* p, uint64_t size, const char* name) {
  if (!p && size) fail(DC_ERROR_INVALID_ARGUMENT, "%s is NULL with size %" PRIu64 "; pass the message", name, size);
}

}  // namespace

extern "C" {

DC_API dc_status dc_queue_create(dc_device device, int32_t direction, uint32_t slot_size, uint32_t capacity,
                                 dc_queue* queue) {
  return guarded("dc_queue_create", [&] {
    clear_out(queue);
    forbid_after_fork();
    Pinned<Device> d = pin<Device>(device, "device");
    require_arg(queue, "queue");
    forbid_in_host_callback();
    d->check_usable();
    ContextScope bind(*d);
    Ref<Queue> q = Queue::create(d.share(), direction, slot_size, capacity);
    *queue = issue_handle<dc_queue>(q.get());
    return DC_SUCCESS;
  });
}

DC_API void dc_queue_release(dc_queue queue) { close_handle<Queue>(queue); }

DC_API dc_status dc_queue_buffer(dc_queue queue, dc_buffer* buffer) {
  return guarded("dc_queue_buffer", [&] {
    clear_out(buffer);
    forbid_after_fork();
    Pinned<Queue> q = pin<Queue>(queue, "queue");
    require_arg(buffer, "buffer");
    *buffer = issue_handle<dc_buffer>(q->buffer().get());
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_queue_try_enqueue(dc_queue queue, const void* message, uint32_t size) {
  return guarded("dc_queue_try_enqueue", [&] {
    forbid_after_fork();
    Pinned<Queue> q = pin<Queue>(queue, "queue");
    require_message(message, size, "message");
    return q->try_enqueue(message, size) ? DC_SUCCESS : DC_NOT_READY;
  });
}

DC_API dc_status dc_queue_enqueue(dc_queue queue, const void* message, uint32_t size, int32_t wait,
                                  uint64_t timeout_us) {
  return guarded("dc_queue_enqueue", [&] {
    forbid_after_fork();
    Pinned<Queue> q = pin<Queue>(queue, "queue");
    require_message(message, size, "message");
    forbid_in_host_callback();
    if (q->enqueue(message, size, wait, timeout_us)) return DC_SUCCESS;
    fail(DC_ERROR_TIMEOUT, "the queue stayed full for %" PRIu64 " us; the kernel is not dequeuing (stopped, stalled, "
         "or slower than the host): check it with dc_control_status, or wait longer", timeout_us);
  });
}

DC_API dc_status dc_queue_enqueue_batch(dc_queue queue, const void* messages, uint64_t size, uint32_t message_size,
                                        uint32_t* enqueued) {
  return guarded("dc_queue_enqueue_batch", [&] {
    clear_out(enqueued);
    forbid_after_fork();
    Pinned<Queue> q = pin<Queue>(queue, "queue");
    require_message(messages, size, "messages");
    require_arg(enqueued, "enqueued");
    *enqueued = q->enqueue_batch(messages, size, message_size);
    return *enqueued || size == 0 ? DC_SUCCESS : DC_NOT_READY;
  });
}

DC_API dc_status dc_queue_try_dequeue(dc_queue queue, void* message, uint32_t max_size, uint32_t* size) {
  return guarded("dc_queue_try_dequeue", [&] {
    clear_out(size);
    forbid_after_fork();
    Pinned<Queue> q = pin<Queue>(queue, "queue");
    require_message(message, max_size, "message");
    require_arg(size, "size");
    return q->try_dequeue(message, max_size, size) ? DC_SUCCESS : DC_NOT_READY;
  });
}

DC_API dc_status dc_queue_dequeue(dc_queue queue, void* message, uint32_t max_size, uint32_t* size, int32_t wait,
                                  uint64_t timeout_us) {
  return guarded("dc_queue_dequeue", [&] {
    clear_out(size);
    forbid_after_fork();
    Pinned<Queue> q = pin<Queue>(queue, "queue");
    require_message(message, max_size, "message");
    require_arg(size, "size");
    forbid_in_host_callback();
    if (q->dequeue(message, max_size, size, wait, timeout_us)) return DC_SUCCESS;
    fail(DC_ERROR_TIMEOUT, "the queue stayed empty for %" PRIu64 " us; the kernel sent nothing (stopped, stalled, "
         "or still working): check it with dc_control_status, or wait longer", timeout_us);
  });
}

DC_API dc_status dc_queue_dequeue_batch(dc_queue queue, void* messages, uint64_t size, uint32_t stride,
                                        uint32_t* count) {
  return guarded("dc_queue_dequeue_batch", [&] {
    clear_out(count);
    forbid_after_fork();
    Pinned<Queue> q = pin<Queue>(queue, "queue");
    require_arg(messages, "messages");
    require_arg(count, "count");
    *count = q->dequeue_batch(messages, size, stride);
    return *count ? DC_SUCCESS : DC_NOT_READY;
  });
}

DC_API dc_status dc_queue_counters(dc_queue queue, dc_queue_stats* stats) {
  return guarded("dc_queue_counters", [&] {
    forbid_after_fork();
    Pinned<Queue> q = pin<Queue>(queue, "queue");
    require_arg(stats, "stats");
    require_struct_size(stats->struct_size, sizeof(dc_queue_stats), "stats", "DC_QUEUE_STATS_INIT");
    q->fill_stats(stats);
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_control_create(dc_device device, dc_control* control) {
  return guarded("dc_control_create", [&] {
    clear_out(control);
    forbid_after_fork();
    Pinned<Device> d = pin<Device>(device, "device");
    require_arg(control, "control");
    forbid_in_host_callback();
    d->check_usable();
    ContextScope bind(*d);
    Ref<Control> c = Control::create(d.share());
    *control = issue_handle<dc_control>(c.get());
    return DC_SUCCESS;
  });
}

DC_API void dc_control_release(dc_control control) { close_handle<Control>(control); }

DC_API dc_status dc_control_buffer(dc_control control, dc_buffer* buffer) {
  return guarded("dc_control_buffer", [&] {
    clear_out(buffer);
    forbid_after_fork();
    Pinned<Control> c = pin<Control>(control, "control");
    require_arg(buffer, "buffer");
    *buffer = issue_handle<dc_buffer>(c->buffer().get());
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_control_request_stop(dc_control control) {
  return guarded("dc_control_request_stop", [&] {
    forbid_after_fork();
    Pinned<Control> c = pin<Control>(control, "control");
    c->request_stop();
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_control_wait_stopped(dc_control control, int32_t wait, uint64_t timeout_us) {
  return guarded("dc_control_wait_stopped", [&] {
    forbid_after_fork();
    Pinned<Control> c = pin<Control>(control, "control");
    forbid_in_host_callback();
    if (c->wait_stopped(wait, timeout_us)) return DC_SUCCESS;
    dc_control_info info{};
    c->fill_info(&info);
    fail(DC_ERROR_TIMEOUT, "the kernel did not stop within %" PRIu64 " us: it is %s, stop %s, heartbeat %" PRIu64
         ", no new heartbeat seen for %" PRIu64 " us; a kernel must poll dc_control_stop_requested in its loop",
         timeout_us, control_state_name(info.state), info.stop_requested ? "requested" : "NOT requested",
         info.heartbeat, info.idle_us);
  });
}

DC_API dc_status dc_control_status(dc_control control, dc_control_info* info) {
  return guarded("dc_control_status", [&] {
    forbid_after_fork();
    Pinned<Control> c = pin<Control>(control, "control");
    require_arg(info, "info");
    require_struct_size(info->struct_size, sizeof(dc_control_info), "info", "DC_CONTROL_INFO_INIT");
    c->fill_info(info);
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_control_check_progress(dc_control control, uint64_t stall_us) {
  return guarded("dc_control_check_progress", [&] {
    forbid_after_fork();
    Pinned<Control> c = pin<Control>(control, "control");
    if (stall_us == 0) fail(DC_ERROR_INVALID_ARGUMENT, "stall_us is 0; give the longest pause between heartbeats");
    uint64_t idle = 0, beat = 0;
    if (c->check_progress(stall_us, &idle, &beat)) return DC_SUCCESS;
    fail(DC_ERROR_TIMEOUT, "the kernel is running but its heartbeat (%" PRIu64 ") has not changed for %" PRIu64
         " us (limit %" PRIu64 " us): it is stuck, or waits without calling dc_control_beat",
         beat, idle, stall_us);
  });
}

DC_API dc_status dc_control_reset(dc_control control) {
  return guarded("dc_control_reset", [&] {
    forbid_after_fork();
    Pinned<Control> c = pin<Control>(control, "control");
    c->reset();
    return DC_SUCCESS;
  });
}

}  // extern "C"
