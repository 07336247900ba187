// Entry points: sharing buffers, pools and events with other processes (the
// driver's handles inside dccuda's own bytes, core/ipc_blob.h).
#include <cerrno>
#include <cinttypes>
#include <cstring>

#include "dccuda.h"

#include "core/args.h"
#include "core/fork_guard.h"
#include "core/guard.h"
#include "core/ipc_blob.h"
#include "device/device.h"
#include "memory/buffer.h"
#include "memory/pool.h"
#include "platform/process_fd.h"
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

const char* exported_what(uint32_t kind) {
  switch (kind) {
    case IpcBlob::kMemory: return "buffer (dc_buffer_export_ipc)";
    case IpcBlob::kEvent: return "event (dc_event_export_ipc)";
    case IpcBlob::kPool: return "pool (dc_pool_export_ipc)";
    default: return "buffer of an exportable pool (dc_buffer_export_ipc)";
  }
}

// Checks the caller's bytes before the driver sees any of them.
IpcBlob read_blob(const void* handle, uint64_t size, uint32_t kind) {
  require_room(handle, size);
  IpcBlob blob;
  std::memcpy(&blob, handle, sizeof blob);
  // The one mix-up the caller can mend by calling something else.
  if (blob.valid() && kind == IpcBlob::kMemory && blob.kind == IpcBlob::kPoolMemory)
    fail(DC_ERROR_INVALID_ARGUMENT, "handle is the bytes of a buffer allocated from an exportable dc_pool; import the "
         "pool first (dc_pool_import_ipc) and the buffer with dc_buffer_import_ipc_from_pool");
  if (!blob.valid() || blob.kind != kind)
    fail(DC_ERROR_INVALID_ARGUMENT, "handle is not the bytes of an exported %s; pass the %d bytes the exporter wrote",
         exported_what(kind), DC_IPC_HANDLE_SIZE);
  bool memory = kind == IpcBlob::kMemory || kind == IpcBlob::kPoolMemory;
  if (memory && (blob.size == 0 || blob.offset + blob.size < blob.offset))
    fail(DC_ERROR_INVALID_ARGUMENT, "handle names %" PRIu64 " bytes at offset %" PRIu64 ", which is no range; pass "
         "the bytes the exporter wrote", blob.size, blob.offset);
  if (kind == IpcBlob::kPool && (blob.process == 0 || blob.offset > INT32_MAX))
    fail(DC_ERROR_INVALID_ARGUMENT, "handle names descriptor %" PRIu64 " of process %u, which is none; pass the bytes "
         "the exporter wrote", blob.offset, blob.process);
  return blob;
}

// A copy of the exporter's pool descriptor in this process (pidfd_getfd).
int take_exporters_fd(const IpcBlob& blob) {
  int error = 0;
  int fd = platform::take_process_fd(static_cast<long>(blob.process), static_cast<int>(blob.offset), &error);
  if (fd >= 0) return fd;
  const char* way_out = "or have the exporter send its descriptor (dc_pool_export_fd) over a Unix socket "
                        "(SCM_RIGHTS) and import that with dc_pool_import_fd";
  switch (error) {
    case EPERM:
    case EACCES:
      fail(DC_ERROR_NOT_SUPPORTED, "the system does not let this process take process %u's pool descriptor "
           "(pidfd_getfd: %s; another user, or Yama's kernel.yama.ptrace_scope above 0 for a process that is not an "
           "ancestor); run both as one user, and have the exporter allow this process with "
           "prctl(PR_SET_PTRACER, pid), %s", blob.process, std::strerror(error), way_out);
    case ENOSYS:
      fail(DC_ERROR_NOT_SUPPORTED, "this kernel lacks pidfd_open/pidfd_getfd (Linux 5.6 and later); %s", way_out);
    case ESRCH:
      fail(DC_ERROR_INVALID_ARGUMENT, "the exporting process %u no longer runs; the exporter must outlive the "
           "import", blob.process);
    case EBADF:
      fail(DC_ERROR_INVALID_ARGUMENT, "process %u has no descriptor %" PRIu64 " (the pool was released there?); "
           "the exporter must keep its pool until the import is done", blob.process, blob.offset);
    default:
      fail(DC_ERROR_IO, "taking descriptor %" PRIu64 " of process %u failed (pidfd_getfd: %s); %s", blob.offset,
           blob.process, std::strerror(error), way_out);
  }
}

// Imports the pool from a descriptor of this process, which stays the caller's.
dc_pool import_pool(Device& d, Ref<Device> device, int fd) {
  forbid_in_host_callback();
  d.check_usable();
  ContextScope bind(d);
  Ref<Pool> p = Pool::import_fd(std::move(device), fd);
  return issue_handle<dc_pool>(p.get());
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
    if (b->export_ipc(blob.driver, &blob.offset)) blob.kind = IpcBlob::kPoolMemory;
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

DC_API dc_status dc_pool_export_ipc(dc_pool pool, void* handle, uint64_t size) {
  return guarded("dc_pool_export_ipc", [&] {
    forbid_after_fork();
    Pinned<Pool> p = pin<Pool>(pool, "pool");
    require_room(handle, size);
    require_linux();
    p->check_usable();
    ContextScope bind(p->device());
    IpcBlob blob = new_blob(IpcBlob::kPool);
    blob.offset = static_cast<uint64_t>(p->export_fd());
    std::memcpy(handle, &blob, sizeof blob);
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_pool_import_ipc(dc_device device, const void* handle, uint64_t size, dc_pool* pool) {
  return guarded("dc_pool_import_ipc", [&] {
    clear_out(pool);
    forbid_after_fork();
    Pinned<Device> d = pin<Device>(device, "device");
    require_arg(pool, "pool");
    IpcBlob blob = read_blob(handle, size, IpcBlob::kPool);
    require_linux();
    forbid_in_host_callback();
    int fd = take_exporters_fd(blob);
    // The copy is this call's: the driver keeps what it needs of the pool.
    struct CloseCopy {
      int fd;
      ~CloseCopy() { platform::close_fd(fd); }
    } close_copy{fd};
    *pool = import_pool(*d, d.share(), fd);
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_pool_export_fd(dc_pool pool, int32_t* fd) {
  return guarded("dc_pool_export_fd", [&] {
    clear_out(fd);
    forbid_after_fork();
    Pinned<Pool> p = pin<Pool>(pool, "pool");
    require_arg(fd, "fd");
    require_linux();
    p->check_usable();
    ContextScope bind(p->device());
    *fd = p->export_fd();
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_pool_import_fd(dc_device device, int32_t fd, dc_pool* pool) {
  return guarded("dc_pool_import_fd", [&] {
    clear_out(pool);
    forbid_after_fork();
    Pinned<Device> d = pin<Device>(device, "device");
    require_arg(pool, "pool");
    if (fd < 0) fail(DC_ERROR_INVALID_ARGUMENT, "fd is %d; pass an open descriptor of an exported pool", fd);
    require_linux();
    *pool = import_pool(*d, d.share(), fd);
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_buffer_import_ipc_from_pool(dc_pool pool, const void* handle, uint64_t size, dc_buffer* buffer) {
  return guarded("dc_buffer_import_ipc_from_pool", [&] {
    clear_out(buffer);
    forbid_after_fork();
    Pinned<Pool> p = pin<Pool>(pool, "pool");
    require_arg(buffer, "buffer");
    IpcBlob blob = read_blob(handle, size, IpcBlob::kPoolMemory);
    require_linux();
    forbid_in_host_callback();
    if (!p->imported())
      fail(DC_ERROR_INVALID_ARGUMENT, "pool was made in this process (dc_pool_create); pass the pool imported from "
           "the exporter with dc_pool_import_ipc or dc_pool_import_fd");
    p->check_usable();
    ContextScope bind(p->device());
    Ref<Buffer> b = Buffer::import_from_pool(*p, blob.driver, blob.offset, blob.size);
    *buffer = issue_handle<dc_buffer>(b.get());
    return DC_SUCCESS;
  });
}

}  // extern "C"
