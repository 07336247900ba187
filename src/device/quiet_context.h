// Context binding for destructors and release paths, which must never throw
// (ContextScope reports a failure by throwing). Same rule as ContextScope: a
// thread without a current context keeps the device's afterwards; another
// context that was current is restored.
#pragma once

#include "loader/cuda_abi/driver_abi.h"

#include "device/device.h"
#include "loader/driver.h"

namespace dc {

class QuietContextScope {
 public:
  explicit QuietContextScope(const Device& device) noexcept {
    const DriverApi& api = driver_api();
    CUcontext ctx = device.context();
    if (!ctx) return;
    CUcontext current = nullptr;
    api.cuCtxGetCurrent(&current);
    if (current == ctx) {
      ok_ = true;
    } else if (api.cuCtxSetCurrent(ctx) == CUDA_SUCCESS || api.cuCtxSetCurrent(ctx) == CUDA_SUCCESS) {
      // (Tried twice, as release_quietly does: a release skipped here would
      // leak its driver object for the life of the context.)
      ok_ = true;
      restore_ = current;
    }
  }
  ~QuietContextScope() {
    if (restore_) driver_api().cuCtxSetCurrent(restore_);
  }
  QuietContextScope(const QuietContextScope&) = delete;
  QuietContextScope& operator=(const QuietContextScope&) = delete;

  // False if the context could not be bound: skip the driver calls.
  bool ok() const noexcept { return ok_; }

 private:
  CUcontext restore_ = nullptr;
  bool ok_ = false;
};

// Runs a driver call that frees or destroys something, trying once more if
// it fails: a release cannot report an error, and a transient failure would
// otherwise leak the object for the life of the context. Returns the result.
template <class Call>
CUresult release_quietly(Call&& call) noexcept {
  CUresult r = call();
  if (r != CUDA_SUCCESS) r = call();
  return r;
}

}  // namespace dc
