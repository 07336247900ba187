// Entry points: sharing buffers and events with other processes (the
// driver's legacy IPC handles inside dccuda's own bytes, core/ipc_blob.h).
#include <cinttypes>
#include <cstring>

#include "dccuda.h"

#include "core/args.h"
#include "core/fork_guard.h"
#include "core/guard.h"
#include "core/ipc_blob.h"
#include "device/device.h"
#include "memory/buffer.h"
#include "stream/event.h"
#include "stream/host_callback.h"

#if !defined(_WIN32)
#include <unistd.h>
#endif

using namespace dc;

namespace {

void require_linux() {
#if defined(_WIN32)
  fail(DC_ERROR_NOT_SUPPORTED, "the driver shares memory and events between processes with these handles on Linux "
       "only");
#endif
}

uint32_t this_process() {
#if defined(_WIN32)
  return 0;
#else
  return static_cast<uint32_t>(getpid());
#endif
}

void require_room(const void* handle, uint64_t size) {
  require_arg(handle, "handle");
  if (size < DC_IPC_HANDLE_SIZE)
    fail(DC_ERROR_INVALID_ARGUMENT, "size %" PRIu64 " is below DC_IPC_HANDLE_SIZE (%d); pass %d bytes", size,
         DC_IPC_HANDLE_SIZE, DC_IPC_HANDLE_SIZE);
}

// Checks the caller's bytes before the driver sees any of them.
IpcBlob read_blob(const void* handle, uint64_t size, uint32_t kind) {
  require_room(handle, size);
  IpcBlob blob;
  std::memcpy(&blob, handle, sizeof blob);
  const char* what = kind == IpcBlob::kMemory ? "buffer (dc_buffer_export_ipc)" : "event (dc_event_export_ipc)";
  if (!blob.valid() || blob.kind != kind)
    fail(DC_ERROR_INVALID_ARGUMENT, "handle is not the bytes of an exported %s; pass the %d bytes the exporter wrote",
         what, DC_IPC_HANDLE_SIZE);
  if (kind == IpcBlob::kMemory && (blob.size == 0 || blob.offset + blob.size < blob.offset))
    fail(DC_ERROR_INVALID_ARGUMENT, "handle names %" PRIu64 " bytes at offset %" PRIu64 ", which is no range; pass "
         "the bytes the exporter wrote", blob.size, blob.offset);
  return blob;
}

IpcBlob new_blob(uint32_t kind) {
  IpcBlob blob{};
  std::memcpy(blob.magic, IpcBlob::kMagic, sizeof blob.magic);
  blob.kind = kind;
  blob.process = this_process();
  return blob;
}

}  // namespace

extern "C" {

DC_API dc_status dc_buffer_export_ipc(dc_buffer buffer, void* handle, uint64_t size) {
  return guarded("dc_buffer_export_ipc", [&] {
    forbid_after_fork();
    Pinned<Buffer> b = pin<Buffer>(buffer, "buffer");
    require_room(handle, size);
    require_linux();
    b->check_usable();
    ContextScope bind(b->device());
    IpcBlob blob = new_blob(IpcBlob::kMemory);
    b->export_ipc(blob.driver, &blob.offset);
    blob.size = b->size();
    std::memcpy(handle, &blob, sizeof blob);
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_buffer_import_ipc(dc_device device, const void* handle, uint64_t size, dc_buffer* buffer) {
  return guarded("dc_buffer_import_ipc", [&] {
    clear_out(buffer);
    forbid_after_fork();
    Pinned<Device> d = pin<Device>(device, "device");
    require_arg(buffer, "buffer");
    IpcBlob blob = read_blob(handle, size, IpcBlob::kMemory);
    require_linux();
    forbid_in_host_callback();
    d->check_usable();
    ContextScope bind(*d);
    Ref<Buffer> b = Buffer::import_ipc(d.share(), blob.driver, blob.offset, blob.size);
    *buffer = issue_handle<dc_buffer>(b.get());
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_event_export_ipc(dc_event event, void* handle, uint64_t size) {
  return guarded("dc_event_export_ipc", [&] {
    forbid_after_fork();
    Pinned<Event> e = pin<Event>(event, "event");
    require_room(handle, size);
    require_linux();
    e->check_usable();
    ContextScope bind(e->device());
    IpcBlob blob = new_blob(IpcBlob::kEvent);
    e->export_ipc(blob.driver);
    std::memcpy(handle, &blob, sizeof blob);
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_event_import_ipc(dc_device device, const void* handle, uint64_t size, dc_event* event) {
  return guarded("dc_event_import_ipc", [&] {
    clear_out(event);
    forbid_after_fork();
    Pinned<Device> d = pin<Device>(device, "device");
    require_arg(event, "event");
    IpcBlob blob = read_blob(handle, size, IpcBlob::kEvent);
    require_linux();
    forbid_in_host_callback();
    d->check_usable();
    ContextScope bind(*d);
    Ref<Event> e = Event::import_ipc(d.share(), blob.driver);
    *event = issue_handle<dc_event>(e.get());
    return DC_SUCCESS;
  });
}

}  // extern "C"
