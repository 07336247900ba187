#include "device/device_info.h"

#include <algorithm>
#include <cstring>

#include "device/cuda_check.h"
#include "loader/driver.h"

namespace dc {

void fill_device_info(Device& device, dc_device_info* out) {
  const DriverApi& api = driver_api();
  CUdevice d = device.cu_device();
  auto attr = [&](CUdevice_attribute a) {
    int v = 0;
    check(api.cuDeviceGetAttribute(&v, a, d), "cuDeviceGetAttribute", &device);
    return static_cast<int32_t>(v);
  };

  dc_device_info info;
  std::memset(&info, 0, sizeof info);
  info.struct_size = out->struct_size;
  info.ordinal = device.ordinal();
  check(api.cuDeviceGetName(info.name, static_cast<int>(sizeof info.name), d), "cuDeviceGetName", &device);
  info.name[sizeof info.name - 1] = '\0';
  CUuuid uuid;
  check(api.cuDeviceGetUuid(&uuid, d), "cuDeviceGetUuid", &device);
  static_assert(sizeof uuid.bytes == sizeof info.uuid);
  std::memcpy(info.uuid, uuid.bytes, sizeof info.uuid);
  info.pci_domain_id = attr(CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID);
  info.pci_bus_id = attr(CU_DEVICE_ATTRIBUTE_PCI_BUS_ID);
  info.pci_device_id = attr(CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID);
  info.compute_capability_major = attr(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
  info.compute_capability_minor = attr(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
  info.multiprocessor_count = attr(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
  size_t total = 0;
  check(api.cuDeviceTotalMem(&total, d), "cuDeviceTotalMem", &device);
  info.total_memory = total;
  {
    ContextScope bind(device);
    size_t free_bytes = 0, total_bytes = 0;
    check(api.cuMemGetInfo(&free_bytes, &total_bytes), "cuMemGetInfo", &device);
    info.free_memory = free_bytes;
  }
  info.clock_rate_khz = attr(CU_DEVICE_ATTRIBUTE_CLOCK_RATE);
  info.memory_clock_rate_khz = attr(CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE);
  info.memory_bus_width_bits = attr(CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH);
  info.warp_size = attr(CU_DEVICE_ATTRIBUTE_WARP_SIZE);
  info.max_threads_per_block = attr(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
  info.max_threads_per_multiprocessor = attr(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR);
  info.max_block_dim[0] = attr(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X);
  info.max_block_dim[1] = attr(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y);
  info.max_block_dim[2] = attr(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z);
  info.max_grid_dim[0] = attr(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X);
  info.max_grid_dim[1] = attr(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y);
  info.max_grid_dim[2] = attr(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z);
  info.max_shared_memory_per_block = attr(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK);
  info.max_shared_memory_per_block_optin = attr(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN);
  info.max_shared_memory_per_multiprocessor = attr(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR);
  info.max_registers_per_block = attr(CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK);
  info.l2_cache_size = attr(CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE);
  info.async_engine_count = attr(CU_DEVICE_ATTRIBUTE_ASYNC_ENGINE_COUNT);
  info.unified_addressing = attr(CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING);
  info.managed_memory = attr(CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY);
  info.concurrent_managed_access = attr(CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS);
  info.pageable_memory_access = attr(CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS);
  info.cooperative_launch = attr(CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH);
  info.cluster_launch = attr(CU_DEVICE_ATTRIBUTE_CLUSTER_LAUNCH);
  info.memory_pools_supported = attr(CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED);
  info.host_native_atomics = attr(CU_DEVICE_ATTRIBUTE_HOST_NATIVE_ATOMIC_SUPPORTED);
  info.ecc_enabled = attr(CU_DEVICE_ATTRIBUTE_ECC_ENABLED);
  info.kernel_exec_timeout = attr(CU_DEVICE_ATTRIBUTE_KERNEL_EXEC_TIMEOUT);
  info.integrated = attr(CU_DEVICE_ATTRIBUTE_INTEGRATED);
  info.tcc_driver = attr(CU_DEVICE_ATTRIBUTE_TCC_DRIVER);

  // Write only as many bytes as the caller's (possibly older) struct has.
  std::memcpy(out, &info, std::min<size_t>(out->struct_size, sizeof info));
}

}  // namespace dc
