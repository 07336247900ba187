#include "memory/virtual_range.h"

#include <cinttypes>

#include "core/error.h"
#include "device/cuda_check.h"
#include "device/quiet_context.h"
#include "loader/driver.h"

namespace dc {
namespace {

CUmemAllocationProp device_memory(const Device& device) {
  CUmemAllocationProp prop{};
  prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  prop.requestedHandleTypes = CU_MEM_HANDLE_TYPE_NONE;
  prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  prop.location.id = device.ordinal();
  return prop;
}

// `n` rounded up to a multiple of `unit`; false if that overflows.
bool round_up(uint64_t n, uint64_t unit, uint64_t* out) {
  uint64_t r = n % unit;
  if (r == 0) {
    *out = n;
    return true;
  }
  if (n > UINT64_MAX - (unit - r)) return false;
  *out = n + (unit - r);
  return true;
}

}  // namespace

uint64_t allocation_granularity(Device& device, bool recommended) {
  const DriverApi& api = driver_api();
  // A driver without the entry point is reported by check() below, naming it and the version needed.
  if (!device.limits().virtual_memory)
    fail(DC_ERROR_NOT_SUPPORTED, "device %d has no virtual memory management (cuMemCreate, cuMemMap); use "
         "dc_buffer_alloc and copy to grow", device.ordinal());
  CUmemAllocationProp prop = device_memory(device);
  size_t granularity = 0;
  check(api.cuMemGetAllocationGranularity(
            &granularity, &prop, recommended ? CU_MEM_ALLOC_GRANULARITY_RECOMMENDED : CU_MEM_ALLOC_GRANULARITY_MINIMUM),
        "cuMemGetAllocationGranularity", &device);
  if (granularity == 0) fail(DC_ERROR_DRIVER, "the driver gave device %d an allocation granularity of 0", device.ordinal());
  return granularity;
}

std::shared_ptr<VirtualRange> VirtualRange::create(Device& device, uint64_t max_size, uint64_t initial) {
  uint64_t granularity = allocation_granularity(device, false);
  uint64_t reserve = 0;
  if (!round_up(max_size, granularity, &reserve))
    fail(DC_ERROR_OUT_OF_MEMORY, "max_size %" PRIu64 " cannot be reserved (rounded up to the granularity, %" PRIu64
         " bytes, it overflows); reserve less", max_size, granularity);
  std::shared_ptr<VirtualRange> range(new VirtualRange);
  range->granularity_ = granularity;
  CUdeviceptr base = 0;
  CUresult r = driver_api().cuMemAddressReserve(&base, static_cast<size_t>(reserve), 0, 0, 0);
  if (r != CUDA_SUCCESS)
    fail_driver(r, "cuMemAddressReserve", &device,
                strf("device %d could not reserve %" PRIu64 " bytes of address space; reserve less", device.ordinal(),
                     reserve).c_str());
  range->base_ = base;
  range->reserved_ = reserve;
  try {
    range->grow(device, initial);
  } catch (...) {
    range->release();
    throw;
  }
  return range;
}

VirtualRange::~VirtualRange() = default;

uint64_t VirtualRange::grow(Device& device, uint64_t size) {
  std::lock_guard<std::mutex> lock(mutex_);
  uint64_t mapped = mapped_.load(std::memory_order_relaxed);
  if (size <= mapped) return mapped;
  uint64_t target = 0;
  if (size > reserved_ || !round_up(size, granularity_, &target))
    fail(DC_ERROR_OUT_OF_RANGE, "size %" PRIu64 " exceeds the %" PRIu64 " bytes reserved for the buffer; reserve "
         "more when allocating it (max_size)", size, reserved_);
  const DriverApi& api = driver_api();
  uint64_t chunk = target - mapped;
  CUmemAllocationProp prop = device_memory(device);
  CUmemGenericAllocationHandle handle = 0;
  CUresult r = api.cuMemCreate(&handle, static_cast<size_t>(chunk), &prop, 0);
  if (r != CUDA_SUCCESS)
    fail_driver(r, "cuMemCreate", &device,
                strf("device %d has no room for %" PRIu64 " more bytes (growing from %" PRIu64 " to %" PRIu64
                     "); release buffers you no longer need, or call dc_device_trim_memory",
                     device.ordinal(), chunk, mapped, target).c_str());
  CUdeviceptr at = base_ + mapped;
  r = api.cuMemMap(at, static_cast<size_t>(chunk), 0, handle, 0);
  if (r != CUDA_SUCCESS) {
    release_quietly([&] { return api.cuMemRelease(handle); });
    check(r, "cuMemMap", &device);
  }
  CUmemAccessDesc access{};
  access.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  access.location.id = device.ordinal();
  access.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
  r = api.cuMemSetAccess(at, static_cast<size_t>(chunk), &access, 1);
  if (r != CUDA_SUCCESS) {
    release_quietly([&] { return api.cuMemUnmap(at, static_cast<size_t>(chunk)); });
    release_quietly([&] { return api.cuMemRelease(handle); });
    check(r, "cuMemSetAccess", &device);
  }
  chunks_.emplace_back(handle, chunk);
  mapped_.store(target, std::memory_order_release);
  return target;
}

void VirtualRange::release() noexcept {
  const DriverApi& api = driver_api();
  CUdeviceptr at = base_;
  for (const auto& [handle, bytes] : chunks_) {
    CUdeviceptr chunk_at = at;
    size_t chunk_bytes = static_cast<size_t>(bytes);
    release_quietly([&] { return api.cuMemUnmap(chunk_at, chunk_bytes); });
    CUmemGenericAllocationHandle h = handle;
    release_quietly([&] { return api.cuMemRelease(h); });
    at += bytes;
  }
  chunks_.clear();
  mapped_.store(0, std::memory_order_release);
  if (base_) {
    CUdeviceptr base = base_;
    size_t reserved = static_cast<size_t>(reserved_);
    release_quietly([&] { return api.cuMemAddressFree(base, reserved); });
    base_ = 0;
  }
}

}  // namespace dc
