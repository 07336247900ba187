// A growable stretch of device memory (virtual memory management): an
// address range reserved once (cuMemAddressReserve), with physical chunks
// (cuMemCreate) mapped back to back from its start (cuMemMap) and made
// accessible to the device (cuMemSetAccess) as it grows. The address never
// changes and nothing is ever copied. A growable buffer (Buffer::Memory::
// Virtual) holds one.
#pragma once

#include "loader/cuda_abi/driver_abi.h"

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

#include "device/device.h"

namespace dc {

// The device's allocation granularity for device memory (minimum or
// recommended). The device's context must be bound. NOT_SUPPORTED on a device
// without virtual memory management.
uint64_t allocation_granularity(Device& device, bool recommended);

class VirtualRange {
 public:
  // Reserves `max_size` bytes and maps `initial` bytes, each rounded up to
  // the granularity. The device's context must be bound.
  static std::shared_ptr<VirtualRange> create(Device& device, uint64_t max_size, uint64_t initial);
  VirtualRange(const VirtualRange&) = delete;
  VirtualRange& operator=(const VirtualRange&) = delete;
  ~VirtualRange();  // release() must have run

  CUdeviceptr base() const noexcept { return base_; }
  uint64_t reserved() const noexcept { return reserved_; }
  uint64_t granularity() const noexcept { return granularity_; }
  // Bytes mapped from base(); only ever grows. An acquire load: the mapping is
  // complete for whoever reads the new size.
  uint64_t mapped() const noexcept { return mapped_.load(std::memory_order_acquire); }

  // Maps chunks until at least `size` bytes (rounded up to the granularity)
  // are mapped; returns the mapped size. OUT_OF_RANGE past the reservation.
  // Serialised with other grows; the device's context must be bound.
  uint64_t grow(Device& device, uint64_t size);
  // Unmaps and releases every chunk and frees the address range. Never
  // throws; the device's context must be bound.
  void release() noexcept;

 private:
  VirtualRange() = default;

  std::mutex mutex_;  // serialises grows
  CUdeviceptr base_ = 0;
  uint64_t reserved_ = 0;
  uint64_t granularity_ = 0;
  std::atomic<uint64_t> mapped_{0};
  std::vector<std::pair<CUmemGenericAllocationHandle, uint64_t>> chunks_;  // handle, bytes, in address order
};

}  // namespace dc
