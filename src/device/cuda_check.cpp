// fail_driver: the one place a failed driver call becomes a dc_ failure (it
// needs the loader, for the driver's version and entry points, and the device,
// to mark it lost; so it lives in the device layer, not in core).
#include "device/cuda_check.h"

#include "core/error.h"
#include "core/status.h"
#include "device/device.h"
#include "loader/driver.h"

namespace dc {

void fail_driver(CUresult result, const char* entry, Device* device, const char* hint) {
  int32_t r = static_cast<int32_t>(result);
  if (r == kCudaMissingSymbol) {
    int needs = driver_entry_version(entry);
    fail_cuda(DC_ERROR_NOT_SUPPORTED, r,
              "the installed driver (CUDA %s) lacks %s, which needs a driver for CUDA %s or newer; update the NVIDIA "
              "driver",
              cuda_version_string(driver_state().version).c_str(), entry,
              needs ? cuda_version_string(needs).c_str() : "(newer)");
  }
  if (is_sticky_cuda_error(r)) {
    if (device) {
      device->mark_lost(result);
      fail_cuda(DC_ERROR_CONTEXT_LOST, r,
                "%s failed with %s: a kernel fault destroyed device %d's context; call dc_device_reset() on the "
                "device to recover (objects made before the reset become unusable)",
                entry, cuda_error_name(r), device->ordinal());
    }
    fail_cuda(DC_ERROR_CONTEXT_LOST, r,
              "%s failed with %s: an earlier kernel fault poisoned the CUDA state of this process and the driver "
              "refuses new work; call dc_device_reset() on the faulted device, and if that fails too, restart the "
              "process",
              entry, cuda_error_name(r));
  }
  // A failure is never reported with a non-error status: CUDA_ERROR_NOT_READY
  // from a call that is not a query (a query handles it before calling this)
  // would otherwise come back as DC_NOT_READY, which callers read as success.
  dc_status status = status_from_cuda(r);
  if (status >= DC_SUCCESS) status = DC_ERROR_DRIVER;
  fail_cuda(status, r, "%s failed with %s (%d)%s%s", entry, cuda_error_name(r), r, hint ? "; " : "",
            hint ? hint : "");
}

}  // namespace dc
