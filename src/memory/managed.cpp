#include "memory/managed.h"

#include <cinttypes>

#include "core/error.h"
#include "device/cuda_check.h"
#include "loader/driver.h"
#include "memory/transfer.h"

namespace dc {
namespace {

static_assert(DC_LOCATION_HOST == CU_DEVICE_CPU, "DC_LOCATION_HOST is CUDA's CU_DEVICE_CPU");
static_assert(DC_ADVISE_SET_READ_MOSTLY == CU_MEM_ADVISE_SET_READ_MOSTLY &&
                  DC_ADVISE_UNSET_READ_MOSTLY == CU_MEM_ADVISE_UNSET_READ_MOSTLY &&
                  DC_ADVISE_SET_PREFERRED_LOCATION == CU_MEM_ADVISE_SET_PREFERRED_LOCATION &&
                  DC_ADVISE_UNSET_PREFERRED_LOCATION == CU_MEM_ADVISE_UNSET_PREFERRED_LOCATION &&
                  DC_ADVISE_SET_ACCESSED_BY == CU_MEM_ADVISE_SET_ACCESSED_BY &&
                  DC_ADVISE_UNSET_ACCESSED_BY == CU_MEM_ADVISE_UNSET_ACCESSED_BY,
              "DC_ADVISE_* are cuda.h's CUmem_advise values");

void require_managed(const Buffer& buffer) {
  if (buffer.kind() != DC_BUFFER_MANAGED)
    fail(DC_ERROR_INVALID_ARGUMENT, "buffer is not managed memory (its kind is %d); prefetch and advice apply to "
         "buffers from dc_buffer_alloc_managed", buffer.kind());
}

// The CUdevice for `location` (a device ordinal), or CU_DEVICE_CPU.
CUdevice location_device(int32_t location) {
  if (location == DC_LOCATION_HOST) return CU_DEVICE_CPU;
  int32_t count = device_count();
  if (location < 0 || location >= count)
    fail(DC_ERROR_INVALID_ARGUMENT, "location %d is neither DC_LOCATION_HOST (-1) nor a device ordinal (0..%d)",
         location, count - 1);
  CUdevice d = 0;
  check(driver_api().cuDeviceGet(&d, location), "cuDeviceGet");
  return d;
}

CUmemLocation cu_location(CUdevice device) {
  CUmemLocation loc{};
  loc.type = device == CU_DEVICE_CPU ? CU_MEM_LOCATION_TYPE_HOST : CU_MEM_LOCATION_TYPE_DEVICE;
  loc.id = device == CU_DEVICE_CPU ? 0 : device;
  return loc;
}

}  // namespace

void prefetch(Buffer& buffer, uint64_t offset, uint64_t size, int32_t location, Stream& stream) {
  require_managed(buffer);
  CUdevice target = location_device(location);
  check_range(buffer, offset, size, "buffer", "offset");
  const DriverApi& api = driver_api();
  Device& d = stream.device();
  if (!buffer.device().limits().concurrent_managed_access || !d.limits().concurrent_managed_access)
    fail(DC_ERROR_NOT_SUPPORTED, "device %d lacks concurrent managed access, which prefetching needs (Windows and "
         "some older GPUs); let the memory migrate on access instead", d.ordinal());
  if (size == 0) return;
  ContextScope bind(d);
  buffer.note_use(&stream);
  CUdeviceptr at = buffer.address() + offset;
  size_t n = static_cast<size_t>(size);
  // The location-based entry point needs a 12.2 driver (the loader leaves it
  // missing on older ones); the device-ordinal one serves 12.0 and 12.1.
  if (present(api.cuMemPrefetchAsync))
    check(api.cuMemPrefetchAsync(at, n, cu_location(target), 0, stream.handle()), "cuMemPrefetchAsync", &d);
  else
    check(api.cuMemPrefetchAsync_v8000(at, n, target, stream.handle()), "cuMemPrefetchAsync", &d);
}

void advise(Buffer& buffer, uint64_t offset, uint64_t size, int32_t advice, int32_t location) {
  require_managed(buffer);
  if (advice < DC_ADVISE_SET_READ_MOSTLY || advice > DC_ADVISE_UNSET_ACCESSED_BY)
    fail(DC_ERROR_INVALID_ARGUMENT, "advice %d is not a DC_ADVISE_* value (%d..%d)", advice,
         DC_ADVISE_SET_READ_MOSTLY, DC_ADVISE_UNSET_ACCESSED_BY);
  CUdevice target = location_device(location);
  check_range(buffer, offset, size, "buffer", "offset");
  if (size == 0) return;
  const DriverApi& api = driver_api();
  Device& d = buffer.device();
  ContextScope bind(d);
  CUdeviceptr at = buffer.address() + offset;
  size_t n = static_cast<size_t>(size);
  auto cu_advice = static_cast<CUmem_advise>(advice);
  if (present(api.cuMemAdvise))
    check(api.cuMemAdvise(at, n, cu_advice, cu_location(target)), "cuMemAdvise", &d);
  else
    check(api.cuMemAdvise_v8000(at, n, cu_advice, target), "cuMemAdvise", &d);
}

}  // namespace dc
