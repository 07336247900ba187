#include "memory/memory_state.h"

#include <string>

#include <limits>

#include "core/error.h"
#include "core/log.h"
#include "device/cuda_check.h"
#include "device/quiet_context.h"
#include "loader/driver.h"
#include "memory/staging.h"
#include "stream/device_wait.h"

namespace dc {
namespace {

std::mutex g_state_mutex;

// Makes the device's pool, or returns null where pools are not available
// (device attribute, driver entry point, or the driver refusing with
// CUDA_ERROR_NOT_SUPPORTED). Other failures (out of memory) are raised.
CUmemoryPool make_pool(Device& device) {
  const DriverApi& api = driver_api();
  if (!device.limits().memory_pools || !present(api.cuMemPoolCreate)) {
    DC_LOG(DC_LOG_DEBUG, "fallback", "device %d: no memory pool (%s): buffers are allocated with cuMemAlloc and "
           "freed with cuMemFree, synchronously", device.ordinal(),
           device.limits().memory_pools ? "the driver lacks cuMemPoolCreate" : "the device does not support pools");
    return nullptr;
  }
  CUmemPoolProps props{};
  props.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
  props.handleTypes = CU_MEM_HANDLE_TYPE_NONE;
  props.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  props.location.id = device.ordinal();
  CUmemoryPool pool = nullptr;
  CUresult r = api.cuMemPoolCreate(&pool, &props);
  if (r == CUDA_ERROR_NOT_SUPPORTED) {
    DC_LOG(DC_LOG_DEBUG, "fallback", "device %d: cuMemPoolCreate answered CUDA_ERROR_NOT_SUPPORTED: buffers are "
           "allocated with cuMemAlloc and freed with cuMemFree, synchronously", device.ordinal());
    return nullptr;
  }
  check(r, "cuMemPoolCreate", &device);
  // Keep freed memory cached: trimming is explicit (dc_device_trim_memory).
  cuuint64_t threshold = std::numeric_limits<cuuint64_t>::max();
  r = api.cuMemPoolSetAttribute(pool, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, &threshold);
  if (r != CUDA_SUCCESS) {
    release_quietly([&] { return api.cuMemPoolDestroy(pool); });
    check(r, "cuMemPoolSetAttribute", &device);
  }
  return pool;
}

}  // namespace

MemoryState::MemoryState() = default;
MemoryState::~MemoryState() = default;

namespace detail {

MemoryState& make_memory_state(Device& device) {
  std::lock_guard<std::mutex> lock(g_state_mutex);
  std::atomic<MemoryState*>& slot = device.memory_state();
  MemoryState* old = slot.load(std::memory_order_acquire);
  uint32_t generation = device.generation();
  if (old && old->generation == generation) return *old;

  const DriverApi& api = driver_api();
  auto state = std::make_unique<MemoryState>();
  state->generation = generation;
  size_t total = 0;
  check(api.cuDeviceTotalMem(&total, device.cu_device()), "cuDeviceTotalMem", &device);
  state->total_memory = total;
  check(api.cuStreamCreateWithPriority(&state->internal, CU_STREAM_NON_BLOCKING, 0), "cuStreamCreateWithPriority",
        &device);
  try {
    state->pool = make_pool(device);
  } catch (...) {
    release_quietly([&] { return api.cuStreamDestroy(state->internal); });
    throw;
  }
  // Older states stay reachable (and are freed with the device): a state is
  // tiny, and its driver objects died with the old context.
  state->retired = old;
  MemoryState* made = state.release();
  device.set_memory_teardown(&destroy_memory_state);
  slot.store(made, std::memory_order_release);
  return *made;
}

}  // namespace detail

void destroy_memory_state(Device& device) noexcept {
  MemoryState* s = device.memory_state().exchange(nullptr, std::memory_order_acq_rel);
  if (!s) return;
  if (s->generation == device.generation() && !device.lost()) {
    QuietContextScope bind(device);
    if (bind.ok()) {
      const DriverApi& api = driver_api();
      if (s->stager) s->stager->free_driver_objects();
      api.cuStreamSynchronize(s->internal);
      release_quietly([&] { return api.cuStreamDestroy(s->internal); });
      // Memory still in flight is released by the driver once its frees complete.
      if (s->pool) release_quietly([&] { return api.cuMemPoolDestroy(s->pool); });
    }
  }
  while (s) {
    MemoryState* next = s->retired;
    delete s;
    s = next;
  }
}

void trim_memory(Device& device, uint64_t keep_bytes) {
  MemoryState* s = existing_memory_state(device);
  if (!s || !s->pool) return;  // nothing cached
  const DriverApi& api = driver_api();
  // Frees enqueued on streams count as outstanding until they have happened:
  // wait for them, except while a stream of the device captures a graph
  // (stream/device_wait.h); then only the memory already free is trimmed.
  int captures = 0;
  std::string resident;
  CUresult r = wait_for_device(device, &captures, &resident);
  if (r == CUDA_ERROR_NOT_READY && !resident.empty())
    fail(DC_ERROR_INVALID_STATE, "device %d runs the persistent kernel %s (DC_LAUNCH_PERSISTENT): trimming waits for "
         "the device's frees, which would never return; stop the kernel first", device.ordinal(), resident.c_str());
  if (captures == 0) check(r, "cuCtxSynchronize", &device);
  check(api.cuMemPoolTrimTo(s->pool, static_cast<size_t>(keep_bytes)), "cuMemPoolTrimTo", &device);
  DC_LOG(DC_LOG_INFO, "pool", "device %d: pool trimmed to keep at most %llu bytes of freed memory%s", device.ordinal(),
         static_cast<unsigned long long>(keep_bytes),
         captures ? " (a stream was capturing: frees still pending were not waited for)" : "");
}

void set_pool_peer_access(Device& owner, Device& accessor, bool enable) {
  if (&owner == &accessor) return;
  ContextScope bind(owner);
  MemoryState* state = enable ? &memory_state(owner) : existing_memory_state(owner);
  if (!state || !state->pool) return;
  CUmemAccessDesc desc{};
  desc.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  desc.location.id = accessor.ordinal();
  desc.flags = enable ? CU_MEM_ACCESS_FLAGS_PROT_READWRITE : CU_MEM_ACCESS_FLAGS_PROT_NONE;
  check(driver_api().cuMemPoolSetAccess(state->pool, &desc, 1), "cuMemPoolSetAccess", &owner);
}

}  // namespace dc
