// Entry points: devices.
#include <string>

#include "dccuda.h"

#include "core/args.h"
#include "core/fork_guard.h"
#include "core/guard.h"
#include "device/cuda_check.h"
#include "device/device.h"
#include "device/device_info.h"
#include "device/limits.h"
#include "loader/driver.h"
#include "stream/device_wait.h"
#include "stream/host_callback.h"

using namespace dc;

extern "C" {

DC_API dc_status dc_device_count(int32_t* count) {
  return guarded("dc_device_count", [&] {
    clear_out(count);
    forbid_after_fork();
    require_arg(count, "count");
    *count = device_count();
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_device_open(int32_t ordinal, dc_device* device) {
  return guarded("dc_device_open", [&] {
    clear_out(device);
    forbid_after_fork();
    require_arg(device, "device");
    Ref<Device> d = Device::open(ordinal);
    *device = issue_handle<dc_device>(d.get());
    return DC_SUCCESS;
  });
}

DC_API void dc_device_release(dc_device device) { close_handle<Device>(device); }

DC_API dc_status dc_device_get_info(dc_device device, dc_device_info* info) {
  return guarded("dc_device_get_info", [&] {
    forbid_after_fork();
    Pinned<Device> d = pin<Device>(device, "device");
    require_arg(info, "info");
    require_struct_size(info->struct_size, kDeviceInfoV1Size, "info", "DC_DEVICE_INFO_INIT");
    d->check_usable();
    fill_device_info(*d, info);
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_device_attribute(dc_device device, int32_t attribute, int32_t* value) {
  return guarded("dc_device_attribute", [&] {
    clear_out(value);
    forbid_after_fork();
    Pinned<Device> d = pin<Device>(device, "device");
    require_arg(value, "value");
    // Checked before the cast: a value outside the enumeration is undefined behaviour in C++.
    if (attribute <= 0 || attribute >= CU_DEVICE_ATTRIBUTE_MAX)
      fail(DC_ERROR_INVALID_ARGUMENT, "attribute %d is not a CUdevice_attribute (1..%d in the CUDA %d.%d headers "
           "dccuda was built with); use a CU_DEVICE_ATTRIBUTE_* value from cuda.h", attribute,
           CU_DEVICE_ATTRIBUTE_MAX - 1, CUDA_VERSION / 1000, (CUDA_VERSION % 1000) / 10);
    int v = 0;
    CUresult r = driver_api().cuDeviceGetAttribute(&v, static_cast<CUdevice_attribute>(attribute), d->cu_device());
    if (r == CUDA_ERROR_INVALID_VALUE)
      fail_cuda(DC_ERROR_INVALID_ARGUMENT, r, "attribute %d is not a CUdevice_attribute this driver knows; use a "
                "CU_DEVICE_ATTRIBUTE_* value from cuda.h", attribute);
    check(r, "cuDeviceGetAttribute", d.get());
    *value = v;
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_device_set_limit(dc_device device, int32_t limit, uint64_t value) {
  return guarded("dc_device_set_limit", [&] {
    forbid_after_fork();
    Pinned<Device> d = pin<Device>(device, "device");
    forbid_in_host_callback();
    d->check_usable();
    set_limit(*d, limit, value);
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_device_limit(dc_device device, int32_t limit, uint64_t* value) {
  return guarded("dc_device_limit", [&] {
    clear_out(value);
    forbid_after_fork();
    Pinned<Device> d = pin<Device>(device, "device");
    require_arg(value, "value");
    forbid_in_host_callback();
    d->check_usable();
    *value = get_limit(*d, limit);
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_device_set_cache_config(dc_device device, int32_t preference) {
  return guarded("dc_device_set_cache_config", [&] {
    forbid_after_fork();
    Pinned<Device> d = pin<Device>(device, "device");
    forbid_in_host_callback();
    d->check_usable();
    set_cache_config(*d, preference);
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_device_cache_config(dc_device device, int32_t* preference) {
  return guarded("dc_device_cache_config", [&] {
    clear_out(preference);
    forbid_after_fork();
    Pinned<Device> d = pin<Device>(device, "device");
    require_arg(preference, "preference");
    forbid_in_host_callback();
    d->check_usable();
    *preference = get_cache_config(*d);
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_device_memory_info(dc_device device, uint64_t* free_bytes, uint64_t* total_bytes) {
  return guarded("dc_device_memory_info", [&] {
    clear_out(free_bytes);
    clear_out(total_bytes);
    forbid_after_fork();
    Pinned<Device> d = pin<Device>(device, "device");
    require_arg(free_bytes, "free_bytes");
    require_arg(total_bytes, "total_bytes");
    d->check_usable();
    ContextScope bind(*d);
    size_t f = 0, t = 0;
    check(driver_api().cuMemGetInfo(&f, &t), "cuMemGetInfo", d.get());
    *free_bytes = f;
    *total_bytes = t;
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_device_synchronize(dc_device device) {
  return guarded("dc_device_synchronize", [&] {
    forbid_after_fork();
    forbid_in_host_callback();
    Pinned<Device> d = pin<Device>(device, "device");
    d->check_usable();
    ContextScope bind(*d);
    int captures = 0;
    std::string resident;
    CUresult r = wait_for_device(*d, &captures, &resident);
    if (r == CUDA_ERROR_NOT_READY && !resident.empty())
      fail(DC_ERROR_INVALID_STATE, "device %d runs the persistent kernel %s (DC_LAUNCH_PERSISTENT), which ends only "
           "when told to: waiting for the whole device would never return; stop the kernel (dc_control_request_stop, "
           "dc_control_wait_stopped) first, or wait for the streams you use with dc_stream_synchronize",
           d->ordinal(), resident.c_str());
    // Refused before the driver was asked: the captures go on.
    if (captures != 0)
      fail(DC_ERROR_INVALID_STATE, "device %d has %d stream(s) capturing a graph (dc_stream_begin_capture, perhaps on "
           "another thread); waiting for the whole device now would invalidate them; wait for the streams you use "
           "with dc_stream_synchronize, or synchronize the device once the captures have ended", d->ordinal(),
           captures);
    check(r, "cuCtxSynchronize", d.get());
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_device_reset(dc_device device) {
  return guarded("dc_device_reset", [&] {
    forbid_after_fork();
    forbid_in_host_callback();
    Pinned<Device> d = pin<Device>(device, "device");
    d->reset();
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_device_native(dc_device device, int32_t* cu_device, void** cu_context) {
  return guarded("dc_device_native", [&] {
    clear_out(cu_device);
    clear_out(cu_context);
    forbid_after_fork();
    Pinned<Device> d = pin<Device>(device, "device");
    if (cu_device) *cu_device = d->cu_device();
    if (cu_context) *cu_context = d->context();
    return DC_SUCCESS;
  });
}

}  // extern "C"
