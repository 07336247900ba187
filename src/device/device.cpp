#include "device/device.h"

#include <map>
#include <mutex>

#include "core/error.h"
#include "device/cuda_check.h"
#include "loader/driver.h"

namespace dc {
namespace {

std::mutex g_registry_mutex;
// Plain pointers: the registry does not own devices; a Device removes itself.
std::map<int32_t, Device*>& registry() {
  static auto* r = new std::map<int32_t, Device*>;
  return *r;
}

int32_t attribute(CUdevice dev, CUdevice_attribute attr) {
  int value = 0;
  check(driver_api().cuDeviceGetAttribute(&value, attr, dev), "cuDeviceGetAttribute");
  return value;
}

// Drops our retain of the primary context, once more if the driver fails
// (as release_quietly does for other objects): a failure here cannot be
// reported, and a retain left behind keeps the context alive for the process.
void release_primary(CUdevice dev) noexcept {
  const DriverApi& api = driver_api();
  if (api.cuDevicePrimaryCtxRelease(dev) != CUDA_SUCCESS) api.cuDevicePrimaryCtxRelease(dev);
}

}  // namespace

Ref<Device> Device::open(int32_t ordinal) {
  require_driver();
  int32_t count = device_count();
  if (ordinal < 0 || ordinal >= count) {
    if (count == 0)
      fail(DC_ERROR_NO_DEVICE, "device ordinal %d: the driver reports no CUDA device (check nvidia-smi and "
           "CUDA_VISIBLE_DEVICES)", ordinal);
    fail(DC_ERROR_NO_DEVICE, "device ordinal %d is out of range: the driver reports %d device%s (0..%d)", ordinal,
         count, count == 1 ? "" : "s", count - 1);
  }
  std::lock_guard<std::mutex> lock(g_registry_mutex);
  auto it = registry().find(ordinal);
  if (it != registry().end() && it->second->try_retain()) return Ref<Device>::adopt(it->second);
  Ref<Device> device = Ref<Device>::adopt(new Device(ordinal));
  registry()[ordinal] = device.get();
  return device;
}

Device::Device(int32_t ordinal) : Object(HandleType::Device), ordinal_(ordinal) {
  const DriverApi& api = driver_api();
  check(api.cuDeviceGet(&cu_device_, ordinal), "cuDeviceGet");
  CUcontext ctx = nullptr;
  check(api.cuDevicePrimaryCtxRetain(&ctx, cu_device_), "cuDevicePrimaryCtxRetain", nullptr,
        "the device's primary context could not be created (out of memory, or the GPU is in exclusive mode and "
        "used by another process)");
  context_.store(ctx, std::memory_order_release);
  retained_ = true;
  try {
    DeviceLimits& l = limits_;
    CUdevice d = cu_device_;
    l.compute_major = attribute(d, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
    l.compute_minor = attribute(d, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
    l.multiprocessors = attribute(d, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
    l.warp_size = attribute(d, CU_DEVICE_ATTRIBUTE_WARP_SIZE);
    l.max_threads_per_block = attribute(d, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
    l.max_block_dim[0] = attribute(d, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X);
    l.max_block_dim[1] = attribute(d, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y);
    l.max_block_dim[2] = attribute(d, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z);
    l.max_grid_dim[0] = attribute(d, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X);
    l.max_grid_dim[1] = attribute(d, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y);
    l.max_grid_dim[2] = attribute(d, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z);
    l.max_shared_per_block = attribute(d, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK);
    l.max_shared_per_block_optin = attribute(d, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN);
    l.unified_addressing = attribute(d, CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING) != 0;
    l.managed_memory = attribute(d, CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY) != 0;
    l.concurrent_managed_access = attribute(d, CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS) != 0;
    l.cooperative_launch = attribute(d, CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH) != 0;
    l.cluster_launch = attribute(d, CU_DEVICE_ATTRIBUTE_CLUSTER_LAUNCH) != 0;
    l.memory_pools = attribute(d, CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED) != 0;
    l.virtual_memory = attribute(d, CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED) != 0;
  } catch (...) {
    release_primary(cu_device_);
    throw;
  }
}

Device::~Device() {
  // Pool, internal stream and staging buffers go before the context.
  if (auto teardown = memory_teardown_.load(std::memory_order_acquire)) teardown(*this);
  {
    std::lock_guard<std::mutex> lock(g_registry_mutex);
    auto it = registry().find(ordinal_);
    if (it != registry().end() && it->second == this) registry().erase(it);
  }
  if (retained_) release_primary(cu_device_);
}

void Device::mark_lost(CUresult result) noexcept {
  int32_t expected = 0;
  lost_result_.compare_exchange_strong(expected, static_cast<int32_t>(result));
}

void Device::fail_lost() const {
  int32_t r = lost_result_.load(std::memory_order_relaxed);
  fail_cuda(DC_ERROR_CONTEXT_LOST, r,
            "device %d's context is lost: an earlier kernel fault (%s) destroyed it; call dc_device_reset() on the "
            "device to recover (objects made before the reset become unusable)",
            ordinal_, cuda_error_name(r));
}

void Device::reset() {
  const DriverApi& api = driver_api();
  CUcontext old = context();
  CUcontext current = nullptr;
  api.cuCtxGetCurrent(&current);
  // Unbind the broken context from this thread, drop our hold on it, reset
  // it, and take a fresh one.
  if (current == old && old) api.cuCtxSetCurrent(nullptr);
  context_seen() = nullptr;  // asked again by the next launch
  if (retained_) {
    release_primary(cu_device_);
    retained_ = false;
  }
  CUresult r = api.cuDevicePrimaryCtxReset(cu_device_);
  CUcontext fresh = nullptr;
  CUresult retained = api.cuDevicePrimaryCtxRetain(&fresh, cu_device_);
  if (r == CUDA_SUCCESS) {
    // Objects of the old context are dead whether or not a new one comes.
    generation_.fetch_add(1, std::memory_order_acq_rel);
    peers_enabled_.store(0, std::memory_order_release);  // a fresh context has no peer mappings
  }
  // Else nothing was reset: the old context and its objects live on (the
  // objects stay usable, and are freed when released), lost or not.
  if (retained != CUDA_SUCCESS) {
    context_.store(nullptr, std::memory_order_release);
    mark_lost(retained);
    if (is_sticky_cuda_error(retained))
      fail_cuda(DC_ERROR_CONTEXT_LOST, retained,
                "device %d cannot be recovered in this process: after the fault the driver refuses every new "
                "context (cuDevicePrimaryCtxRetain returns %s), as NVIDIA drivers do for faults such as illegal "
                "addresses; restart the process (work that must survive kernel faults can run in a child process)",
                ordinal_, cuda_error_name(retained));
    check(retained, "cuDevicePrimaryCtxRetain", nullptr, "the device could not be recovered; restart the process");
  }
  retained_ = true;
  context_.store(fresh, std::memory_order_release);
  if (r == CUDA_SUCCESS) lost_result_.store(0, std::memory_order_relaxed);
  if (current == old) api.cuCtxSetCurrent(fresh);
  check(r, "cuDevicePrimaryCtxReset", nullptr, "the device was not reset; objects made on it are still usable");
}

void DeviceObject::fail_unusable() const {
  if (device_->lost()) device_->fail_lost();
  fail(DC_ERROR_CONTEXT_LOST,
       "this %s was made on device %d before dc_device_reset() and died with the old context; release it and make "
       "a new one",
       handle_type_name(type()), device_->ordinal());
}

ContextScope::ContextScope(const Device& device) {
  const DriverApi& api = driver_api();
  CUcontext ctx = device.context();
  CUcontext current = nullptr;
  api.cuCtxGetCurrent(&current);
  if (current != ctx) [[unlikely]] {
    check(api.cuCtxSetCurrent(ctx), "cuCtxSetCurrent");
    restore_ = current;
    changed_ = true;
  }
  // What the thread has current after the call (the destructor restores).
  context_seen() = restore_ ? restore_ : ctx;
}

ContextScope::~ContextScope() {
  if (restore_) driver_api().cuCtxSetCurrent(restore_);
}

int32_t device_count() {
  require_driver();
  if (driver_state().cuda_result == CUDA_ERROR_NO_DEVICE) return 0;
  int count = 0;
  CUresult r = driver_api().cuDeviceGetCount(&count);
  if (r == CUDA_ERROR_NO_DEVICE) return 0;
  check(r, "cuDeviceGetCount");
  return count;
}

}  // namespace dc
