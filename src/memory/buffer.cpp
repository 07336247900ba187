#include "memory/buffer.h"

#include <cinttypes>
#include <cstring>

#include "core/error.h"
#include "device/cuda_check.h"
#include "device/quiet_context.h"
#include "loader/driver.h"
#include "memory/memory_state.h"
#include "memory/pool.h"
#include "memory/virtual_range.h"
#include "memory/vmm_pieces.h"
#include "platform/physical_memory.h"
#include "stream/device_wait.h"

namespace dc {
namespace {

// A request larger than the whole device can never succeed: say so plainly
// (the driver's answer to it varies).
void require_fits(const Device& device, const MemoryState& state, uint64_t size) {
  if (size > state.total_memory)
    fail(DC_ERROR_OUT_OF_MEMORY, "size %" PRIu64 " bytes exceeds device %d's total memory (%" PRIu64 " bytes)", size,
         device.ordinal(), state.total_memory);
}

// The machine's physical memory in bytes, 0 if unknown.
uint64_t host_memory() noexcept { return platform::physical_memory_bytes(); }

// Host memory (pinned, or managed memory's backing) beyond what the machine
// has can never succeed; the driver's answer to it varies.
void require_host_fits(uint64_t size, uint64_t also_available, const char* what) {
  uint64_t have = host_memory();
  if (have && size > have + also_available)
    fail(DC_ERROR_OUT_OF_MEMORY, "size %" PRIu64 " bytes exceeds what %s can use (%" PRIu64 " bytes)", size, what,
         have + also_available);
}

// Checks an allocation's result; the hint is only formatted on failure, so
// that a successful allocation pays nothing for it.
void check_alloc(CUresult r, const char* entry, Device& device, uint64_t size) {
  if (r == CUDA_SUCCESS) [[likely]]
    return;
  std::string hint = strf("device %d has no room for %" PRIu64 " more bytes; release buffers you no longer need, or "
                          "call dc_device_trim_memory",
                          device.ordinal(), size);
  fail_driver(r, entry, &device, hint.c_str());
}

// After an allocation ran out of memory: waits for the whole device, so
// that memory freed in stream order is free when the retry comes. Not while
// a stream of the device captures a graph (stream/device_wait.h): the caller
// then gets the out-of-memory error.
bool wait_for_pending_frees(const Device& device) { return wait_for_device(device) == CUDA_SUCCESS; }

// A pool allocation; on CUDA_ERROR_OUT_OF_MEMORY, waits for the device once
// (memory freed in stream order becomes reusable when its stream gets there)
// and tries again.
CUresult pool_alloc(const Device& device, CUdeviceptr* p, uint64_t size, CUmemoryPool pool, CUstream stream) {
  const DriverApi& api = driver_api();
  CUresult r = api.cuMemAllocFromPoolAsync(p, static_cast<size_t>(size), pool, stream);
  if (r == CUDA_ERROR_OUT_OF_MEMORY && wait_for_pending_frees(device))
    r = api.cuMemAllocFromPoolAsync(p, static_cast<size_t>(size), pool, stream);
  return r;
}

// Waits for the work on `stream` (bound to the stream's own device), before
// memory it may still use is freed. Never throws.
void wait_quietly(Stream* stream) noexcept {
  if (!stream || !stream->current() || stream->capturing()) return;
  QuietContextScope bind(stream->device());
  if (bind.ok()) driver_api().cuStreamSynchronize(stream->free_handle());
}

}  // namespace

Ref<Buffer> Buffer::alloc_device(Ref<Device> device, uint64_t size, uint32_t flags) {
  const DriverApi& api = driver_api();
  Device& d = *device;
  MemoryState& state = memory_state(d);
  require_fits(d, state, size);
  bool pooled = state.pool && !(flags & DC_ALLOC_NO_POOL);
  // The object first: if the driver call fails, its destructor frees nothing;
  // once the memory is in it, the destructor frees it on any later failure.
  Ref<Buffer> b = Ref<Buffer>::adopt(new Buffer(std::move(device), DC_BUFFER_DEVICE,
                                                pooled ? Memory::Pool : Memory::Driver, size, flags));
  CUdeviceptr p = 0;
  if (pooled) {
    check_alloc(pool_alloc(d, &p, size, state.pool, state.internal), "cuMemAllocFromPoolAsync", d, size);
    b->address_ = b->device_address_ = p;
    // Allocated in order on the internal stream: once that stream is past the
    // allocation, every stream may use the memory.
    check(api.cuStreamSynchronize(state.internal), "cuStreamSynchronize", &d);
    return b;
  }
  CUresult r = api.cuMemAlloc(&p, static_cast<size_t>(size));
  if (r == CUDA_ERROR_OUT_OF_MEMORY && state.pool && wait_for_pending_frees(d)) {
    // dccuda's own pool may hold the memory this needs, cached: give it back.
    api.cuMemPoolTrimTo(state.pool, 0);
    r = api.cuMemAlloc(&p, static_cast<size_t>(size));
  }
  check_alloc(r, "cuMemAlloc", d, size);
  b->address_ = b->device_address_ = p;
  return b;
}

Ref<Buffer> Buffer::alloc_pitched(Ref<Device> device, uint64_t width, uint64_t height, uint32_t element_size,
                                  uint64_t* pitch) {
  Device& d = *device;
  MemoryState& state = memory_state(d);
  // width * height is a lower bound of the size (the pitch is at least the width).
  if (width > state.total_memory || height > state.total_memory / width)
    fail(DC_ERROR_OUT_OF_MEMORY, "%" PRIu64 " rows of %" PRIu64 " bytes exceed device %d's total memory (%" PRIu64
         " bytes)", height, width, d.ordinal(), state.total_memory);
  // The object first: if the driver call fails, its destructor frees nothing.
  Ref<Buffer> b = Ref<Buffer>::adopt(new Buffer(std::move(device), DC_BUFFER_DEVICE, Memory::Driver, 0, 0));
  CUdeviceptr p = 0;
  size_t got_pitch = 0;
  CUresult r = driver_api().cuMemAllocPitch(&p, &got_pitch, static_cast<size_t>(width), static_cast<size_t>(height),
                                            element_size);
  if (r == CUDA_ERROR_OUT_OF_MEMORY && state.pool && wait_for_pending_frees(d)) {
    driver_api().cuMemPoolTrimTo(state.pool, 0);
    r = driver_api().cuMemAllocPitch(&p, &got_pitch, static_cast<size_t>(width), static_cast<size_t>(height),
                                     element_size);
  }
  check_alloc(r, "cuMemAllocPitch", d, width * height);
  b->address_ = b->device_address_ = p;
  b->size_ = static_cast<uint64_t>(got_pitch) * height;
  *pitch = got_pitch;
  return b;
}

Ref<Buffer> Buffer::alloc_device_async(Stream& stream, uint64_t size, uint32_t flags) {
  Device& d = stream.device();
  MemoryState& state = memory_state(d);
  require_fits(d, state, size);
  if (!state.pool || (flags & DC_ALLOC_NO_POOL)) return alloc_device(stream.device_ref(), size, flags | DC_ALLOC_NO_POOL);
  Ref<Buffer> b = Ref<Buffer>::adopt(new Buffer(stream.device_ref(), DC_BUFFER_DEVICE, Memory::Pool, size, flags));
  CUdeviceptr p = 0;
  check_alloc(pool_alloc(d, &p, size, state.pool, stream.handle()), "cuMemAllocFromPoolAsync", d, size);
  b->address_ = b->device_address_ = p;
  // Freed in order on the stream it was allocated on, unless used elsewhere later.
  b->note_use(&stream);
  return b;
}

Ref<Buffer> Buffer::alloc_from_pool(Pool& pool, Stream* stream, uint64_t size) {
  Device& d = pool.device();
  // The driver's rule: an imported pool holds only memory imported into it.
  if (pool.imported())
    fail(DC_ERROR_INVALID_ARGUMENT, "pool was imported from another process (dc_pool_import_ipc), and the driver "
         "allocates nothing from an imported pool; import the exporter's buffers with "
         "dc_buffer_import_ipc_from_pool, or allocate from a pool of this process");
  MemoryState& state = memory_state(d);
  require_fits(d, state, size);
  if (pool.max_size() != 0 && size > pool.max_size())
    fail(DC_ERROR_OUT_OF_MEMORY, "size %" PRIu64 " bytes exceeds the pool's max_size (%" PRIu64
         " bytes); allocate less, or from a larger pool", size, pool.max_size());
  Ref<Buffer> b = Ref<Buffer>::adopt(new Buffer(pool.device_ref(), DC_BUFFER_DEVICE, Memory::Pool, size, 0));
  CUdeviceptr p = 0;
  CUstream on = stream ? stream->handle() : state.internal;
  check_alloc(pool_alloc(d, &p, size, pool.handle(), on), "cuMemAllocFromPoolAsync", d, size);
  b->address_ = b->device_address_ = p;
  // The pool outlives the free the buffer enqueues (members die after the destructor's body).
  b->owner_ = Ref<Object>::share(&pool);
  if (stream) {
    b->note_use(stream);
  } else {
    check(driver_api().cuStreamSynchronize(state.internal), "cuStreamSynchronize", &d);
  }
  return b;
}

Ref<Buffer> Buffer::alloc_pinned(Ref<Device> device, uint64_t size, uint32_t flags) {
  const DriverApi& api = driver_api();
  Device& d = *device;
  unsigned cu_flags = 0;
  if (flags & DC_ALLOC_PORTABLE) cu_flags |= CU_MEMHOSTALLOC_PORTABLE;
  if (flags & DC_ALLOC_DEVICE_MAPPED) cu_flags |= CU_MEMHOSTALLOC_DEVICEMAP;
  if (flags & DC_ALLOC_WRITE_COMBINED) cu_flags |= CU_MEMHOSTALLOC_WRITECOMBINED;
  require_host_fits(size, 0, "this machine's memory");
  Ref<Buffer> b = Ref<Buffer>::adopt(new Buffer(std::move(device), DC_BUFFER_PINNED, Memory::Pinned, size, flags));
  void* h = nullptr;
  CUresult r = api.cuMemHostAlloc(&h, static_cast<size_t>(size), cu_flags);
  if (r != CUDA_SUCCESS)
    fail_driver(r, "cuMemHostAlloc", &d,
                strf("the system could not page-lock %" PRIu64 " bytes; allocate less, or use ordinary memory", size)
                    .c_str());
  b->host_ = h;
  b->address_ = reinterpret_cast<CUdeviceptr>(h);
  // Under unified addressing pinned memory is mapped at its host address,
  // except write-combined memory, which has a device address of its own.
  CUdeviceptr mapped = 0;
  if (api.cuMemHostGetDevicePointer(&mapped, h, 0) == CUDA_SUCCESS)
    b->device_address_ = mapped;
  else if (!(flags & DC_ALLOC_WRITE_COMBINED))
    b->device_address_ = reinterpret_cast<CUdeviceptr>(h);
  return b;
}

Ref<Buffer> Buffer::alloc_managed(Ref<Device> device, uint64_t size, uint32_t flags) {
  Device& d = *device;
  if (!d.limits().managed_memory)
    fail(DC_ERROR_NOT_SUPPORTED, "device %d does not support managed memory; use dc_buffer_alloc and copies",
         d.ordinal());
  require_host_fits(size, memory_state(d).total_memory, "managed memory (host and device memory together)");
  Ref<Buffer> b = Ref<Buffer>::adopt(new Buffer(std::move(device), DC_BUFFER_MANAGED, Memory::Managed, size, flags));
  CUdeviceptr p = 0;
  unsigned attach = (flags & DC_ALLOC_ATTACH_HOST) ? CU_MEM_ATTACH_HOST : CU_MEM_ATTACH_GLOBAL;
  check_alloc(driver_api().cuMemAllocManaged(&p, static_cast<size_t>(size), attach), "cuMemAllocManaged", d, size);
  b->address_ = b->device_address_ = p;
  b->host_ = reinterpret_cast<void*>(p);
  return b;
}

Ref<Buffer> Buffer::alloc_growable(Ref<Device> device, uint64_t max_size, uint64_t initial) {
  Device& d = *device;
  MemoryState& state = memory_state(d);
  require_fits(d, state, initial);
  Ref<Buffer> b = Ref<Buffer>::adopt(new Buffer(std::move(device), DC_BUFFER_DEVICE, Memory::Virtual, 0, 0));
  b->virtual_ = VirtualRange::create(d, max_size, initial);
  b->address_ = b->device_address_ = b->virtual_->base();
  b->size_.store(b->virtual_->mapped(), std::memory_order_release);
  return b;
}

uint64_t Buffer::grow(uint64_t size) {
  uint64_t now = virtual_->grow(device(), size);
  // Another grow may have published a larger size already: never shrink it.
  uint64_t seen = size_.load(std::memory_order_relaxed);
  while (seen < now && !size_.compare_exchange_weak(seen, now, std::memory_order_release, std::memory_order_relaxed)) {
  }
  return size_.load(std::memory_order_acquire);
}

Ref<Buffer> Buffer::import_ipc(Ref<Device> device, const void* driver_handle, uint64_t offset, uint64_t size) {
  Device& d = *device;
  Ref<Buffer> b =
      Ref<Buffer>::adopt(new Buffer(std::move(device), DC_BUFFER_WRAPPED_DEVICE, Memory::Imported, size, 0));
  CUipcMemHandle h;
  std::memcpy(&h, driver_handle, sizeof h);
  CUdeviceptr base = 0;
  CUresult r = driver_api().cuIpcOpenMemHandle(&base, h, CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS);
  if (r == CUDA_ERROR_INVALID_VALUE || r == CUDA_ERROR_INVALID_HANDLE || r == CUDA_ERROR_INVALID_CONTEXT ||
      r == CUDA_ERROR_MAP_FAILED)
    fail_cuda(DC_ERROR_INVALID_ARGUMENT, r, "the driver refused the exported memory (cuIpcOpenMemHandle: %s); "
              "import it in another process than the exporter, while the exporter's buffer lives",
              cuda_error_name(r));
  check(r, "cuIpcOpenMemHandle", &d);
  // The driver maps the whole allocation; the buffer is the exported range of it.
  b->ipc_base_ = base;
  b->address_ = b->device_address_ = base + offset;
  return b;
}

Ref<Buffer> Buffer::import_from_pool(Pool& pool, const void* share_data, uint64_t offset, uint64_t size) {
  Device& d = pool.device();
  Ref<Buffer> b =
      Ref<Buffer>::adopt(new Buffer(pool.device_ref(), DC_BUFFER_WRAPPED_DEVICE, Memory::PoolImported, size, 0));
  CUmemPoolPtrExportData data;
  std::memcpy(&data, share_data, sizeof data);
  CUdeviceptr base = 0;
  CUresult r = driver_api().cuMemPoolImportPointer(&base, pool.handle(), &data);
  if (r == CUDA_ERROR_INVALID_VALUE || r == CUDA_ERROR_INVALID_HANDLE || r == CUDA_ERROR_NOT_FOUND)
    fail_cuda(DC_ERROR_INVALID_ARGUMENT, r, "the driver refused the exported pool memory (cuMemPoolImportPointer: %s); "
              "import it into the pool it was allocated from (dc_pool_import_ipc of that pool), while the exporter's "
              "buffer lives", cuda_error_name(r));
  check(r, "cuMemPoolImportPointer", &d);
  b->ipc_base_ = base;
  b->address_ = b->device_address_ = base + offset;
  // The imported pool outlives the cuMemFree of this memory (members die after the destructor's body).
  b->owner_ = Ref<Object>::share(&pool);
  return b;
}

bool Buffer::export_ipc(void* driver_handle, uint64_t* offset) const {
  const Buffer& root = parent_ ? *parent_ : *this;
  const char* refusal = nullptr;
  const Pool* pool = dynamic_cast<const Pool*>(root.owner_.get());
  switch (root.memory_) {
    case Memory::Driver: break;
    case Memory::Pool:
      if (!pool)
        refusal = "memory from dccuda's own stream-ordered pool cannot be exported; allocate it with DC_ALLOC_NO_POOL, "
                  "or from a dc_pool created with DC_POOL_EXPORTABLE";
      else if (!(pool->flags() & DC_POOL_EXPORTABLE))
        refusal = "the buffer's dc_pool was created without DC_POOL_EXPORTABLE, so its memory cannot be exported; "
                  "allocate from a pool created with DC_POOL_EXPORTABLE, or with DC_ALLOC_NO_POOL";
      break;
    case Memory::Pinned:
    case Memory::Registered:
      refusal = "host memory cannot be exported (the driver shares device memory only); share it through the "
                "operating system, or copy into a buffer allocated with DC_ALLOC_NO_POOL";
      break;
    case Memory::Managed:
      refusal = "managed memory cannot be exported (the driver's rule); use a buffer allocated with DC_ALLOC_NO_POOL";
      break;
    case Memory::Virtual:
      refusal = "a growable buffer cannot be exported; use a buffer allocated with DC_ALLOC_NO_POOL";
      break;
    case Memory::Imported:
    case Memory::PoolImported:
    case Memory::Borrowed:
      refusal = "the buffer does not own its memory (wrapped, imported or a module global); export it from the "
                "buffer that allocated it";
      break;
  }
  if (refusal) fail(DC_ERROR_NOT_SUPPORTED, "%s", refusal);
  *offset = view_offset_;
  if (root.memory_ == Memory::Pool) {
    CUmemPoolPtrExportData data{};
    check(driver_api().cuMemPoolExportPointer(&data, root.address_), "cuMemPoolExportPointer", &device());
    std::memcpy(driver_handle, &data, sizeof data);
    return true;
  }
  CUipcMemHandle h{};
  check(driver_api().cuIpcGetMemHandle(&h, root.address_), "cuIpcGetMemHandle", &device());
  std::memcpy(driver_handle, &h, sizeof h);
  return false;
}

Ref<Buffer> Buffer::wrap_device(Ref<Device> device, CUdeviceptr pointer, uint64_t size) {
  const DriverApi& api = driver_api();
  // A range built with the dc_vmm_* calls: the driver's attributes describe one
  // mapping, so the wrap is checked against the mappings back to back there.
  uint64_t mapped = 0;
  if (vmm::mapped_from(*device, pointer, &mapped)) {
    if (size > mapped)
      fail(DC_ERROR_OUT_OF_RANGE, "device_pointer 0x%" PRIx64 " + size %" PRIu64 " runs past the memory mapped there "
           "back to back (%" PRIu64 " bytes, dc_vmm_map); map more first, or wrap less",
           static_cast<uint64_t>(pointer), size, mapped);
    Ref<Buffer> b =
        Ref<Buffer>::adopt(new Buffer(std::move(device), DC_BUFFER_WRAPPED_DEVICE, Memory::Borrowed, size, 0));
    b->address_ = b->device_address_ = pointer;
    return b;
  }
  // Where the driver knows the allocation, a size that runs past it would let
  // bounds checks pass for copies that fault: refuse it now.
  CUdeviceptr start = 0;
  size_t range = 0;
  if (api.cuPointerGetAttribute(&start, CU_POINTER_ATTRIBUTE_RANGE_START_ADDR, pointer) == CUDA_SUCCESS &&
      api.cuPointerGetAttribute(&range, CU_POINTER_ATTRIBUTE_RANGE_SIZE, pointer) == CUDA_SUCCESS && range != 0 &&
      start <= pointer) {
    uint64_t available = range - (pointer - start);
    if (pointer - start > range || size > available)
      fail(DC_ERROR_OUT_OF_RANGE,
           "device_pointer 0x%" PRIx64 " + size %" PRIu64 " runs past the allocation it lies in (%zu bytes from 0x%" PRIx64
           "); pass the size of the memory that is really there",
           static_cast<uint64_t>(pointer), size, range, static_cast<uint64_t>(start));
  }
  Ref<Buffer> b = Ref<Buffer>::adopt(new Buffer(std::move(device), DC_BUFFER_WRAPPED_DEVICE, Memory::Borrowed, size, 0));
  b->address_ = b->device_address_ = pointer;
  return b;
}

Ref<Buffer> Buffer::register_host(Ref<Device> device, void* host, uint64_t size, uint32_t flags) {
  const DriverApi& api = driver_api();
  Device& d = *device;
  unsigned cu_flags = 0;
  if (flags & DC_ALLOC_PORTABLE) cu_flags |= CU_MEMHOSTREGISTER_PORTABLE;
  if (flags & DC_ALLOC_DEVICE_MAPPED) cu_flags |= CU_MEMHOSTREGISTER_DEVICEMAP;
  if (flags & DC_ALLOC_READ_ONLY) cu_flags |= CU_MEMHOSTREGISTER_READ_ONLY;
  Ref<Buffer> b =
      Ref<Buffer>::adopt(new Buffer(std::move(device), DC_BUFFER_REGISTERED_HOST, Memory::Borrowed, size, flags));
  CUresult r = api.cuMemHostRegister(host, static_cast<size_t>(size), cu_flags);
  if (r == CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED)
    fail_cuda(DC_ERROR_INVALID_ARGUMENT, r,
              "host memory %p + %" PRIu64 " bytes overlaps memory already registered or pinned with the driver; "
              "register each range once (or use the existing buffer)",
              host, size);
  check(r, "cuMemHostRegister", &d, "the memory could not be page-locked; register less, or copy without registering");
  b->memory_ = Memory::Registered;
  b->host_ = host;
  b->address_ = reinterpret_cast<CUdeviceptr>(host);
  CUdeviceptr mapped = 0;
  if (api.cuMemHostGetDevicePointer(&mapped, host, 0) == CUDA_SUCCESS) b->device_address_ = mapped;
  return b;
}

Ref<Buffer> Buffer::wrap_module_global(Ref<Device> device, CUdeviceptr pointer, uint64_t size, Ref<Object> owner) {
  Ref<Buffer> b = Ref<Buffer>::adopt(new Buffer(std::move(device), DC_BUFFER_MODULE_GLOBAL, Memory::Borrowed, size, 0));
  b->address_ = b->device_address_ = pointer;
  b->owner_ = std::move(owner);
  return b;
}

Ref<Buffer> Buffer::make_view(const Buffer& parent, uint64_t offset, uint64_t size) {
  const Buffer& root = parent.parent_ ? *parent.parent_ : parent;
  uint64_t at = parent.view_offset_ + offset;
  Ref<Buffer> b = Ref<Buffer>::adopt(new Buffer(root.device_ref(), root.kind_, Memory::Borrowed, size, root.flags_));
  b->parent_ = Ref<Buffer>::share(const_cast<Buffer*>(&root));
  b->view_offset_ = at;
  b->address_ = root.address_ + at;
  b->device_address_ = root.device_address_ ? root.device_address_ + at : 0;
  b->host_ = root.host_ ? static_cast<char*>(root.host_) + at : nullptr;
  return b;
}

void Buffer::note_use_slow(Stream* stream) noexcept {
  if (stream) stream->retain();
  Stream* old = last_stream_.exchange(stream, std::memory_order_acq_rel);
  if (old) old->unref();
}

Buffer::~Buffer() {
  // The stream reference goes after the free has been enqueued on it.
  Ref<Stream> last = Ref<Stream>::adopt(last_stream_.exchange(nullptr, std::memory_order_acq_rel));
  // A view frees nothing; work it enqueued must finish before its root's
  // memory is freed, so the root frees in order on the view's last stream.
  if (parent_) {
    if (last) parent_->note_use(last.get());
    return;
  }
  if (memory_ == Memory::Borrowed || (!address_ && !host_)) return;
  // Made before dc_device_reset: the memory died with the old context.
  if (!current()) return;
  free_memory(last.get());
}

// A persistent kernel (DC_LAUNCH_PERSISTENT) still runs on `last`: waiting
// for that stream would never return, so the free is handed to the device's
// residency, which runs it once the kernel has ended (device/residency.h).
bool Buffer::defer_behind_resident(Stream* last) noexcept {
  if (!last || &last->device() != &device()) return false;
  Device& d = device();
  uint32_t generation = d.generation();
  Memory memory = memory_;
  CUdeviceptr address = address_;
  void* host = host_;
  std::shared_ptr<VirtualRange> range = virtual_;
  return d.residency().defer(last->handle(), [&d, generation, memory, address, host, range] {
    // After dc_device_reset the memory died with the old context.
    if (d.generation() != generation) return;
    const DriverApi& api = driver_api();
    if (memory == Memory::Virtual) range->release();
    else if (memory == Memory::Pinned) release_quietly([&] { return api.cuMemFreeHost(host); });
    else if (memory == Memory::Registered) release_quietly([&] { return api.cuMemHostUnregister(host); });
    else release_quietly([&] { return api.cuMemFree(address); });
  });
}

void Buffer::free_memory(Stream* last) noexcept {
  const DriverApi& api = driver_api();
  QuietContextScope bind(device());
  if (!bind.ok()) return;
  if (last && !last->current()) last = nullptr;
  switch (memory_) {
    case Memory::Pool: {
      MemoryState* state = existing_memory_state(device());
      if (!state) return;
      CUstream on = state->internal;
      if (last && &last->device() == &device() && !last->capturing()) {
        on = last->free_handle();
      } else if (last) {
        // A stream of another device, or one capturing a graph (a free there
        // would become a node of the graph): wait for it where possible, then
        // free on the internal stream.
        wait_quietly(last);
      }
      if (api.cuMemFreeAsync(address_, on) != CUDA_SUCCESS) {
        // Not freed in order: wait for that stream, then free synchronously.
        if (on != state->internal) wait_quietly(last);
        release_quietly([&] { return api.cuMemFree(address_); });
      }
      return;
    }
    case Memory::Driver:
    case Memory::Managed:
      if (defer_behind_resident(last)) return;
      wait_quietly(last);
      release_quietly([&] { return api.cuMemFree(address_); });
      return;
    case Memory::Pinned:
      if (defer_behind_resident(last)) return;
      wait_quietly(last);
      release_quietly([&] { return api.cuMemFreeHost(host_); });
      return;
    case Memory::Registered:
      if (defer_behind_resident(last)) return;
      wait_quietly(last);
      release_quietly([&] { return api.cuMemHostUnregister(host_); });
      return;
    case Memory::Imported:
      wait_quietly(last);
      release_quietly([&] { return api.cuIpcCloseMemHandle(ipc_base_); });
      return;
    case Memory::PoolImported:
      // The driver requires the import freed before the exporter frees: work on it must end first.
      wait_quietly(last);
      release_quietly([&] { return api.cuMemFree(ipc_base_); });
      return;
    case Memory::Virtual:
      if (defer_behind_resident(last)) return;
      wait_quietly(last);
      virtual_->release();
      return;
    case Memory::Borrowed:
      return;
  }
}

}  // namespace dc
