#include "memory/pool.h"

#include <cinttypes>

#include "core/error.h"
#include "device/cuda_check.h"
#include "device/quiet_context.h"
#include "loader/driver.h"
#include "memory/memory_state.h"
#include "platform/process_fd.h"

namespace dc {

static_assert(DC_POOL_REUSE_FOLLOW_EVENT_DEPENDENCIES == CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES);
static_assert(DC_POOL_REUSE_ALLOW_OPPORTUNISTIC == CU_MEMPOOL_ATTR_REUSE_ALLOW_OPPORTUNISTIC);
static_assert(DC_POOL_REUSE_ALLOW_INTERNAL_DEPENDENCIES == CU_MEMPOOL_ATTR_REUSE_ALLOW_INTERNAL_DEPENDENCIES);
static_assert(DC_POOL_RELEASE_THRESHOLD == CU_MEMPOOL_ATTR_RELEASE_THRESHOLD);

namespace {

// The first driver whose CUmemPoolProps has maxSize (reserved bytes before).
constexpr int32_t kMaxSizeDriver = 12020;

bool is_reuse_attribute(int32_t attribute) {
  return attribute >= DC_POOL_REUSE_FOLLOW_EVENT_DEPENDENCIES && attribute <= DC_POOL_REUSE_ALLOW_INTERNAL_DEPENDENCIES;
}

void require_attribute(int32_t attribute) {
  if (!is_reuse_attribute(attribute) && attribute != DC_POOL_RELEASE_THRESHOLD)
    fail(DC_ERROR_INVALID_ARGUMENT,
         "attribute %d is not a DC_POOL_* attribute (DC_POOL_REUSE_FOLLOW_EVENT_DEPENDENCIES .. "
         "DC_POOL_RELEASE_THRESHOLD, %d..%d); the statistics come from dc_pool_statistics",
         attribute, DC_POOL_REUSE_FOLLOW_EVENT_DEPENDENCIES, DC_POOL_RELEASE_THRESHOLD);
}

uint64_t get(Device& device, CUmemoryPool pool, CUmemPool_attribute attr) {
  cuuint64_t value = 0;
  check(driver_api().cuMemPoolGetAttribute(pool, attr, &value), "cuMemPoolGetAttribute", &device);
  return value;
}

}  // namespace

Ref<Pool> Pool::create(Ref<Device> device, uint64_t max_size, uint32_t flags) {
  const DriverApi& api = driver_api();
  Device& d = *device;
  // A driver without the entry point is reported by check() below, naming it and the version needed.
  if (!d.limits().memory_pools)
    fail(DC_ERROR_NOT_SUPPORTED, "device %d has no stream-ordered memory pools; allocate with dc_buffer_alloc, which "
         "falls back to cuMemAlloc", d.ordinal());
  MemoryState& state = memory_state(d);
  if (max_size > state.total_memory)
    fail(DC_ERROR_INVALID_ARGUMENT, "max_size %" PRIu64 " exceeds device %d's memory (%" PRIu64
         " bytes); pass 0 for the device's memory, or less", max_size, d.ordinal(), state.total_memory);
  if (max_size != 0 && driver_state().version < kMaxSizeDriver)
    fail(DC_ERROR_NOT_SUPPORTED, "max_size %" PRIu64 " needs driver >= %s (the driver is %s); pass 0", max_size,
         cuda_version_string(kMaxSizeDriver).c_str(), cuda_version_string(driver_state().version).c_str());
#if defined(_WIN32)
  if (flags & DC_POOL_EXPORTABLE)
    fail(DC_ERROR_NOT_SUPPORTED, "DC_POOL_EXPORTABLE is for Linux (POSIX file descriptor handles); create the pool "
         "without it");
#endif
  CUmemPoolProps props{};
  props.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
  props.handleTypes = (flags & DC_POOL_EXPORTABLE) ? CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR : CU_MEM_HANDLE_TYPE_NONE;
  props.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  props.location.id = d.ordinal();
  props.maxSize = static_cast<size_t>(max_size);
  Ref<Pool> p = Ref<Pool>::adopt(new Pool(std::move(device), flags, max_size));
  CUresult r = api.cuMemPoolCreate(&p->pool_, &props);
  if (r == CUDA_ERROR_NOT_SUPPORTED)
    fail_cuda(DC_ERROR_NOT_SUPPORTED, r, "device %d refuses a pool with these properties (max_size %" PRIu64
              ", flags 0x%x); an exportable pool needs a device and driver that share memory between processes",
              d.ordinal(), max_size, flags);
  check(r, "cuMemPoolCreate", &d);
  return p;
}

Ref<Pool> Pool::import_fd(Ref<Device> device, int fd) {
  Device& d = *device;
  if (!d.limits().memory_pools)
    fail(DC_ERROR_NOT_SUPPORTED, "device %d has no stream-ordered memory pools, so it cannot import one; import on a "
         "device with pools", d.ordinal());
  Ref<Pool> p = Ref<Pool>::adopt(new Pool(std::move(device), 0, 0));
  p->imported_ = true;
  // A POSIX descriptor travels as the pointer-sized handle's value (the driver's convention).
  void* handle = reinterpret_cast<void*>(static_cast<uintptr_t>(fd));
  CUresult r = driver_api().cuMemPoolImportFromShareableHandle(&p->pool_, handle,
                                                                CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0);
  if (r == CUDA_ERROR_INVALID_VALUE || r == CUDA_ERROR_INVALID_HANDLE || r == CUDA_ERROR_INVALID_DEVICE) {
    p->pool_ = nullptr;
    fail_cuda(DC_ERROR_INVALID_ARGUMENT, r, "the driver refused descriptor %d as a shared pool "
              "(cuMemPoolImportFromShareableHandle: %s); pass a descriptor of a pool created with DC_POOL_EXPORTABLE "
              "(dc_pool_export_fd), imported on a device of the same kind", fd, cuda_error_name(r));
  }
  if (r != CUDA_SUCCESS) p->pool_ = nullptr;
  check(r, "cuMemPoolImportFromShareableHandle", &d);
  // This process maps the pool's memory for the devices granted access to it
  // here: as NVIDIA's IPC sample does, grant the importing device read-write
  // access unless it has it already.
  CUmemLocation here{};
  here.type = CU_MEM_LOCATION_TYPE_DEVICE;
  here.id = d.ordinal();
  CUmemAccess_flags granted = CU_MEM_ACCESS_FLAGS_PROT_NONE;
  check(driver_api().cuMemPoolGetAccess(&granted, p->pool_, &here), "cuMemPoolGetAccess", &d);
  if (granted != CU_MEM_ACCESS_FLAGS_PROT_READWRITE) {
    CUmemAccessDesc desc{};
    desc.location = here;
    desc.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
    check(driver_api().cuMemPoolSetAccess(p->pool_, &desc, 1), "cuMemPoolSetAccess", &d);
  }
  return p;
}

int Pool::export_fd() {
  if (imported_)
    fail(DC_ERROR_NOT_SUPPORTED, "the pool was imported from another process; export the pool from the process "
         "that created it");
  if (!(flags_ & DC_POOL_EXPORTABLE))
    fail(DC_ERROR_NOT_SUPPORTED, "the pool was created without DC_POOL_EXPORTABLE, so the driver cannot share it; "
         "create it with dc_pool_create(..., DC_POOL_EXPORTABLE, ...)");
  std::lock_guard<std::mutex> g(export_lock_);
  if (export_fd_ >= 0) return export_fd_;
  int fd = -1;
  check(driver_api().cuMemPoolExportToShareableHandle(&fd, pool_, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0),
        "cuMemPoolExportToShareableHandle", &device());
  export_fd_ = fd;
  return fd;
}

Pool::~Pool() {
  // The descriptor is the process's whatever became of the context.
  platform::close_fd(export_fd_);
  // Made before dc_device_reset: the pool died with the old context.
  if (!pool_ || !current()) return;
  QuietContextScope bind(device());
  // Frees still in flight: the driver destroys the pool once they have run.
  if (bind.ok()) release_quietly([&] { return driver_api().cuMemPoolDestroy(pool_); });
}

void Pool::set_attribute(int32_t attribute, uint64_t value) {
  require_attribute(attribute);
  const DriverApi& api = driver_api();
  CUmemPool_attribute attr = static_cast<CUmemPool_attribute>(attribute);
  if (is_reuse_attribute(attribute)) {
    if (value > 1)
      fail(DC_ERROR_INVALID_ARGUMENT, "value %" PRIu64 " for reuse attribute %d is not 0 or 1", value, attribute);
    int flag = static_cast<int>(value);
    check(api.cuMemPoolSetAttribute(pool_, attr, &flag), "cuMemPoolSetAttribute", &device());
    return;
  }
  cuuint64_t bytes = value;
  check(api.cuMemPoolSetAttribute(pool_, attr, &bytes), "cuMemPoolSetAttribute", &device());
}

uint64_t Pool::attribute(int32_t attribute) const {
  require_attribute(attribute);
  CUmemPool_attribute attr = static_cast<CUmemPool_attribute>(attribute);
  if (is_reuse_attribute(attribute)) {
    int flag = 0;
    check(driver_api().cuMemPoolGetAttribute(pool_, attr, &flag), "cuMemPoolGetAttribute", &device());
    return flag != 0 ? 1 : 0;
  }
  return get(device(), pool_, attr);
}

void Pool::reset_high_water() {
  // The driver takes only 0 for the high-water marks: it resets them to the current values.
  const DriverApi& api = driver_api();
  cuuint64_t zero = 0;
  check(api.cuMemPoolSetAttribute(pool_, CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH, &zero), "cuMemPoolSetAttribute",
        &device());
  zero = 0;
  check(api.cuMemPoolSetAttribute(pool_, CU_MEMPOOL_ATTR_USED_MEM_HIGH, &zero), "cuMemPoolSetAttribute", &device());
}

void Pool::trim(uint64_t keep_bytes) {
  check(driver_api().cuMemPoolTrimTo(pool_, static_cast<size_t>(keep_bytes)), "cuMemPoolTrimTo", &device());
}

void Pool::set_access(Device& accessor, bool enable) {
  Device& owner = device();
  if (accessor.ordinal() == owner.ordinal()) {
    if (enable) return;  // the owner always has access
    fail(DC_ERROR_INVALID_ARGUMENT, "accessor is the pool's own device %d, whose access cannot be taken away; pass "
         "another device", owner.ordinal());
  }
  int can = 0;
  check(driver_api().cuDeviceCanAccessPeer(&can, accessor.cu_device(), owner.cu_device()), "cuDeviceCanAccessPeer");
  if (!can)
    fail(DC_ERROR_NOT_SUPPORTED, "device %d cannot access device %d's memory (no peer-to-peer path between them); "
         "copy the data instead", accessor.ordinal(), owner.ordinal());
  CUmemAccessDesc desc{};
  desc.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  desc.location.id = accessor.ordinal();
  desc.flags = enable ? CU_MEM_ACCESS_FLAGS_PROT_READWRITE : CU_MEM_ACCESS_FLAGS_PROT_NONE;
  CUresult r = driver_api().cuMemPoolSetAccess(pool_, &desc, 1);
  if (r == CUDA_ERROR_INVALID_DEVICE)
    fail_cuda(DC_ERROR_NOT_SUPPORTED, r, "device %d cannot be given access to device %d's pool; copy the data "
              "instead", accessor.ordinal(), owner.ordinal());
  check(r, "cuMemPoolSetAccess", &owner);
}

void read_pool_stats(Device& device, CUmemoryPool pool, dc_pool_stats* stats) {
  stats->device_ordinal = device.ordinal();
  stats->reserved_current = stats->reserved_high = stats->used_current = stats->used_high = 0;
  if (!pool) return;
  stats->reserved_current = get(device, pool, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT);
  stats->reserved_high = get(device, pool, CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH);
  stats->used_current = get(device, pool, CU_MEMPOOL_ATTR_USED_MEM_CURRENT);
  stats->used_high = get(device, pool, CU_MEMPOOL_ATTR_USED_MEM_HIGH);
}

}  // namespace dc
