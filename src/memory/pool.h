// A memory pool of the caller's own (dc_pool): a CUmemoryPool on one device
// with its own limit, attributes, statistics and peer access. Buffers
// allocated from it (Buffer::alloc_from_pool) hold a reference to it, so the
// driver's pool is destroyed only after the last of them has enqueued its
// free: dc_pool_release never leaves a buffer over a destroyed pool.
#pragma once

#include "loader/cuda_abi/driver_abi.h"

#include <cstdint>
#include <mutex>

#include "dccuda.h"
#include "device/device.h"

namespace dc {

class Pool : public DeviceObject {
 public:
  static constexpr HandleType kHandleType = HandleType::Pool;

  // The device's context must be bound; flags are checked by the entry point.
  static Ref<Pool> create(Ref<Device> device, uint64_t max_size, uint32_t flags);
  // Another process's exportable pool, from a descriptor of this process for
  // it (the caller keeps and closes `fd`). Allocation from it is refused: it
  // only holds memory imported with Buffer::import_from_pool.
  static Ref<Pool> import_fd(Ref<Device> device, int fd);
  ~Pool() override;

  CUmemoryPool handle() const noexcept { return pool_; }
  bool imported() const noexcept { return imported_; }
  // The descriptor that shares the pool (cuMemPoolExportToShareableHandle),
  // made at the first call and closed with the pool; NOT_SUPPORTED for a pool
  // made without DC_POOL_EXPORTABLE, or imported. Bind the context first.
  int export_fd();
  uint32_t flags() const noexcept { return flags_; }
  uint64_t max_size() const noexcept { return max_size_; }

  // DC_POOL_* attributes; the values are checked here. Bind the context first.
  void set_attribute(int32_t attribute, uint64_t value);
  uint64_t attribute(int32_t attribute) const;
  void reset_high_water();
  void trim(uint64_t keep_bytes);
  // Grants (or takes back) `accessor`'s access to the pool's memory.
  void set_access(Device& accessor, bool enable);

 private:
  Pool(Ref<Device> device, uint32_t flags, uint64_t max_size) noexcept
      : DeviceObject(HandleType::Pool, std::move(device)), flags_(flags), max_size_(max_size) {}

  CUmemoryPool pool_ = nullptr;
  // Guards export_fd_'s creation (threads may export the pool at once).
  std::mutex export_lock_;
  int export_fd_ = -1;
  bool imported_ = false;
  uint32_t flags_;
  uint64_t max_size_;
};

// Fills the statistics fields of `stats` (not struct_size) from any pool of
// `device`, dccuda's own included; a null pool reads all zero.
void read_pool_stats(Device& device, CUmemoryPool pool, dc_pool_stats* stats);

}  // namespace dc
