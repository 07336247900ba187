// A buffer: device memory (from dccuda's pool or cuMemAlloc), pinned host
// memory, managed memory, or memory someone else owns (a wrapped device
// pointer, registered host memory, a module's global variable).
//
// Stream-ordered release. A buffer remembers the last stream it was used on
// asynchronously and keeps that stream alive. When the buffer dies, memory it
// owns is freed in order on that stream (cuMemFreeAsync for pool memory;
// waiting for the stream first for other kinds), so work already enqueued
// that uses it completes first; a buffer only used synchronously is freed at
// once. Code that enqueues work using a buffer (copies, fills, prefetches,
// kernel launches) must tell it:
//
//     buffer->note_use(stream);   // after the work was enqueued on `stream`
//
// On the hot path (the same stream as last time) this is one relaxed load and
// a compare; a new stream costs a reference count exchange. If a buffer is
// used on several streams, the caller orders them (dccuda.h says so): the
// last one noted is where the free goes.
#pragma once

#include "loader/cuda_abi/driver_abi.h"

#include <atomic>
#include <cstdint>
#include <memory>

#include "dccuda.h"
#include "device/device.h"
#include "stream/stream.h"

namespace dc {

class Pool;
class VirtualRange;

class Buffer : public DeviceObject {
 public:
  static constexpr HandleType kHandleType = HandleType::Buffer;

  // Where the memory came from, and so how it is freed.
  enum class Memory : uint8_t {
    Pool,        // dccuda's pool or the caller's (cuMemAllocFromPoolAsync): cuMemFreeAsync
    Driver,      // cuMemAlloc: cuMemFree
    Pinned,      // cuMemHostAlloc: cuMemFreeHost
    Managed,     // cuMemAllocManaged: cuMemFree
    Registered,  // cuMemHostRegister on the caller's memory: cuMemHostUnregister
    Borrowed,    // a wrapped pointer or a module global: nothing to free
    Virtual,     // a growable buffer (memory/virtual_range.h): unmap, release, free the range
    Imported,    // another process's memory (cuIpcOpenMemHandle): cuIpcCloseMemHandle
    PoolImported,  // another process's pool memory (cuMemPoolImportPointer): cuMemFree, as the driver requires
  };

  // Every factory needs the device's context bound and takes checked
  // arguments (size > 0, known flags): the entry points check them.
  static Ref<Buffer> alloc_device(Ref<Device> device, uint64_t size, uint32_t flags);
  static Ref<Buffer> alloc_device_async(Stream& stream, uint64_t size, uint32_t flags);
  // From the caller's pool: in order on `stream` (of the pool's device), or,
  // with a null stream, on the internal stream and waited for. The buffer
  // keeps the pool alive (memory/pool.h).
  static Ref<Buffer> alloc_from_pool(Pool& pool, Stream* stream, uint64_t size);
  static Ref<Buffer> alloc_pinned(Ref<Device> device, uint64_t size, uint32_t flags);
  static Ref<Buffer> alloc_managed(Ref<Device> device, uint64_t size, uint32_t flags);
  // `height` rows of `width` bytes padded to the driver's pitch
  // (cuMemAllocPitch, never the pool); the size is *pitch * height.
  static Ref<Buffer> alloc_pitched(Ref<Device> device, uint64_t width, uint64_t height, uint32_t element_size,
                                   uint64_t* pitch);
  // A growable buffer: `max_size` bytes of address space reserved, `initial`
  // bytes mapped (both rounded up to the granularity); its size is what is
  // mapped. Grows with grow().
  static Ref<Buffer> alloc_growable(Ref<Device> device, uint64_t max_size, uint64_t initial);
  // Another process's memory (core/ipc_blob.h, checked by the caller): mapped
  // with cuIpcOpenMemHandle, unmapped when the buffer dies.
  static Ref<Buffer> import_ipc(Ref<Device> device, const void* driver_handle, uint64_t offset, uint64_t size);
  // Memory another process allocated from its exportable pool (`pool`, from
  // Pool::import_fd): `share_data` is cuMemPoolExportPointer's 64 bytes, the
  // buffer the range [offset, offset + size) of that allocation. Keeps the
  // pool alive; freed with cuMemFree when the buffer dies.
  static Ref<Buffer> import_from_pool(Pool& pool, const void* share_data, uint64_t offset, uint64_t size);
  // The driver's 64 bytes that share the allocation and this buffer's offset
  // in it: cuMemPoolExportPointer's for memory of a DC_POOL_EXPORTABLE pool
  // (returns true), cuIpcGetMemHandle's for cuMemAlloc memory (false);
  // NOT_SUPPORTED for memory that cannot be shared.
  bool export_ipc(void* driver_handle, uint64_t* offset) const;
  static Ref<Buffer> wrap_device(Ref<Device> device, CUdeviceptr pointer, uint64_t size);
  static Ref<Buffer> register_host(Ref<Device> device, void* host, uint64_t size, uint32_t flags);
  // A module's __device__ variable (DC_BUFFER_MODULE_GLOBAL): keeps `owner`
  // (the module) alive, frees nothing.
  static Ref<Buffer> wrap_module_global(Ref<Device> device, CUdeviceptr pointer, uint64_t size, Ref<Object> owner);
  // A view of [offset, offset + size) of `parent` (checked by the entry
  // point): the same kind, flags and memory, nothing to free; it keeps the
  // root buffer (never another view) alive.
  static Ref<Buffer> make_view(const Buffer& parent, uint64_t offset, uint64_t size);
  ~Buffer() override;

  int32_t kind() const noexcept { return kind_; }
  // Only a growable buffer's size changes, and only upwards: an acquire load
  // sees its memory mapped.
  uint64_t size() const noexcept { return size_.load(std::memory_order_acquire); }
  void describe(ObjectDescription& d) const noexcept override {
    DeviceObject::describe(d);
    d.size = size();
    d.buffer_kind = kind_;
    d.view = parent_.get() != nullptr;
  }
  // A growable buffer's reservation, null for others.
  VirtualRange* virtual_range() const noexcept { return virtual_.get(); }
  // Grows a growable buffer to at least `size` bytes (memory/virtual_range.h);
  // returns its new size. The device's context must be bound.
  uint64_t grow(uint64_t size);
  uint32_t flags() const noexcept { return flags_; }
  Memory memory() const noexcept { return memory_; }
  // The buffer a view is a view of (never itself a view); null for others.
  Buffer* view_parent() const noexcept { return parent_.get(); }
  // The byte of the root buffer a view's offset 0 is (0 for others).
  uint64_t view_offset() const noexcept { return view_offset_; }

  // Pinned or registered host memory: the CPU reads and writes it directly.
  bool is_host() const noexcept { return kind_ == DC_BUFFER_PINNED || kind_ == DC_BUFFER_REGISTERED_HOST; }
  // The address copies use (cuMemcpy resolves it by unified addressing):
  // device memory's device address, host memory's host address.
  CUdeviceptr address() const noexcept { return address_; }
  // The address the device uses (kernels, fills): 0 for host memory the
  // driver gave no device mapping.
  CUdeviceptr device_address() const noexcept { return device_address_; }
  // The CPU address: null for device memory.
  void* host_pointer() const noexcept { return host_; }

  // Records that work using this buffer was enqueued on `stream` (see the top
  // of this file). Never fails.
  void note_use(Stream* stream) noexcept {
    if (last_stream_.load(std::memory_order_relaxed) != stream) [[unlikely]]
      note_use_slow(stream);
  }
  // The last stream noted, for tests and diagnostics (may change concurrently).
  Stream* last_stream() const noexcept { return last_stream_.load(std::memory_order_acquire); }

 private:
  Buffer(Ref<Device> device, int32_t kind, Memory memory, uint64_t size, uint32_t flags) noexcept
      : DeviceObject(HandleType::Buffer, std::move(device)), kind_(kind), memory_(memory), flags_(flags), size_(size) {}
  void note_use_slow(Stream* stream) noexcept;
  bool defer_behind_resident(Stream* last) noexcept;
  void free_memory(Stream* last) noexcept;

  int32_t kind_;
  Memory memory_;
  uint32_t flags_;
  std::atomic<uint64_t> size_;
  CUdeviceptr address_ = 0;
  CUdeviceptr device_address_ = 0;
  void* host_ = nullptr;
  // Owns one reference to the stream it points to.
  std::atomic<Stream*> last_stream_{nullptr};
  Ref<Object> owner_;
  // A view's root buffer: its last stream is handed to the root when the view dies.
  Ref<Buffer> parent_;
  uint64_t view_offset_ = 0;
  // A growable buffer's range (shared with a free deferred behind a persistent kernel).
  std::shared_ptr<VirtualRange> virtual_;
  // An imported buffer's mapping (the driver's allocation base).
  CUdeviceptr ipc_base_ = 0;
};

}  // namespace dc
