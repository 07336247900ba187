// Turning a failed driver call into a dc_ failure with a useful message.
#pragma once

#include "loader/cuda_abi/driver_abi.h"

namespace dc {

class Device;

// Raises the dc_status that `result` maps to, naming the entry point. A
// sticky error marks `device` (if given) as lost; a missing entry point
// becomes DC_ERROR_NOT_SUPPORTED with the driver version it needs. `hint`, if
// given, is appended ("; " + hint) to tell the caller what to do.
[[noreturn]] void fail_driver(CUresult result, const char* entry, Device* device, const char* hint = nullptr);

inline void check(CUresult result, const char* entry, Device* device = nullptr, const char* hint = nullptr) {
  if (result != CUDA_SUCCESS) [[unlikely]]
    fail_driver(result, entry, device, hint);
}

}  // namespace dc
