// cuda_error_name asks the loaded driver first (its names are the ones users
// search for), so it belongs to the loader; core/status.cpp keeps the
// driver-free table it falls back on.
#include "core/status.h"
#include "loader/driver.h"

namespace dc {

const char* cuda_error_name(int32_t r) noexcept {
  if (r == kCudaMissingSymbol) return "entry point missing from the driver";
  const char* name = nullptr;
  const DriverApi& api = driver_api();
  if (api.cuGetErrorName(static_cast<CUresult>(r), &name) == CUDA_SUCCESS && name) return name;
  return cuda_result_name(r);
}

}  // namespace dc
