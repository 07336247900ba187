#include "stream/device_wait.h"

#include <shared_mutex>

#include "loader/driver.h"
#include "stream/capture_registry.h"

namespace dc {

CUresult wait_for_device(const Device& device, int* captures, std::string* resident) noexcept {
  if (captures) *captures = 0;
  if (device.residency().running(resident)) return CUDA_ERROR_NOT_READY;
  std::shared_lock<std::shared_mutex> gate(device.capture_gate());
  int n = capture_registry::active_on(device);
  if (captures) *captures = n;
  if (n != 0) return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
  return driver_api().cuCtxSynchronize();
}

}  // namespace dc
