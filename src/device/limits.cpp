#include "device/limits.h"

#include <cinttypes>

#include "device/cuda_check.h"
#include "core/error.h"
#include "loader/driver.h"

namespace dc {
namespace {

const char* limit_name(int32_t limit) {
  switch (limit) {
    case DC_LIMIT_STACK_SIZE: return "DC_LIMIT_STACK_SIZE";
    case DC_LIMIT_PRINTF_FIFO_SIZE: return "DC_LIMIT_PRINTF_FIFO_SIZE";
    case DC_LIMIT_MALLOC_HEAP_SIZE: return "DC_LIMIT_MALLOC_HEAP_SIZE";
    case DC_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT: return "DC_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT";
    case DC_LIMIT_PERSISTING_L2_CACHE_SIZE: return "DC_LIMIT_PERSISTING_L2_CACHE_SIZE";
    default: return nullptr;
  }
}

// The CUlimit of a DC_LIMIT_* (the same numbers), or a failure naming it.
CUlimit cu_limit(int32_t limit) {
  if (!limit_name(limit))
    fail(DC_ERROR_INVALID_ARGUMENT, "limit %d is not a DC_LIMIT_* value; use DC_LIMIT_STACK_SIZE, "
         "DC_LIMIT_PRINTF_FIFO_SIZE, DC_LIMIT_MALLOC_HEAP_SIZE, DC_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT or "
         "DC_LIMIT_PERSISTING_L2_CACHE_SIZE", limit);
  return static_cast<CUlimit>(limit);
}

void check_limit_result(CUresult r, const char* entry, Device& device, int32_t limit, const uint64_t* value) {
  if (r == CUDA_SUCCESS) return;
  if (r == CUDA_ERROR_UNSUPPORTED_LIMIT)
    fail_cuda(DC_ERROR_NOT_SUPPORTED, r, "%s: device %d does not support %s", entry, device.ordinal(),
              limit_name(limit));
  if (r == CUDA_ERROR_INVALID_VALUE && value)
    fail_cuda(DC_ERROR_INVALID_ARGUMENT, r, "cuCtxSetLimit refused %s = %" PRIu64 " on device %d: the value is out of "
              "its range, or the limit cannot change any more in this context (the heap size after a kernel used "
              "malloc); set limits before the kernels that depend on them, or dc_device_reset first",
              limit_name(limit), *value, device.ordinal());
  check(r, entry, &device);
}

}  // namespace

void set_limit(Device& device, int32_t limit, uint64_t value) {
  CUlimit l = cu_limit(limit);
  ContextScope bind(device);
  // Buffers the driver reserves in device memory cannot exceed it. Checked
  // here because drivers differ: an H200 with CUDA 13.0 answers
  // CUDA_SUCCESS to a printf FIFO of 2^64 - 1 bytes.
  if (limit == DC_LIMIT_PRINTF_FIFO_SIZE || limit == DC_LIMIT_MALLOC_HEAP_SIZE) {
    size_t total = 0;
    check(driver_api().cuDeviceTotalMem(&total, device.cu_device()), "cuDeviceTotalMem", &device);
    if (value > total)
      fail(DC_ERROR_INVALID_ARGUMENT, "%s = %" PRIu64 " bytes is more than device %d's memory (%zu bytes); pass a "
           "size the device can hold", limit_name(limit), value, device.ordinal(), total);
  }
  check_limit_result(driver_api().cuCtxSetLimit(l, static_cast<size_t>(value)), "cuCtxSetLimit", device, limit,
                     &value);
}

uint64_t get_limit(Device& device, int32_t limit) {
  CUlimit l = cu_limit(limit);
  ContextScope bind(device);
  size_t v = 0;
  check_limit_result(driver_api().cuCtxGetLimit(&v, l), "cuCtxGetLimit", device, limit, nullptr);
  return v;
}

void set_cache_config(Device& device, int32_t preference) {
  if (preference < DC_CACHE_PREFER_NONE || preference > DC_CACHE_PREFER_EQUAL)
    fail(DC_ERROR_INVALID_ARGUMENT, "preference %d is not a DC_CACHE_PREFER_* value (0..3)", preference);
  ContextScope bind(device);
  check(driver_api().cuCtxSetCacheConfig(static_cast<CUfunc_cache>(preference)), "cuCtxSetCacheConfig", &device);
}

int32_t get_cache_config(Device& device) {
  ContextScope bind(device);
  CUfunc_cache c = CU_FUNC_CACHE_PREFER_NONE;
  check(driver_api().cuCtxGetCacheConfig(&c), "cuCtxGetCacheConfig", &device);
  return static_cast<int32_t>(c);
}

}  // namespace dc
