// The NVML loader (telemetry, device/telemetry.h): optional, loaded at the
// first telemetry call, as the driver is: DCCUDA_NVML_LIBRARY if given, else
// libnvidia-ml.so.1 (nvml.dll on Windows), which the NVIDIA driver installs.
// It sits in the loader layer beside the driver and NVRTC loaders, because it
// is the same kind of thing (a library opened at run time and its function
// table) and needs nothing above core. Without it every telemetry field is
// reported unavailable (DC_TELEMETRY_NO_NVML) and nothing else changes.
#pragma once

#include "loader/nvml_abi.h"

#include <string>

#include "dccuda.h"

namespace dc {

struct NvmlApi {
#define DC_NVML_FN(name, required) PFN_##name name = nullptr;
#include "loader/nvml_functions.inc"
#undef DC_NVML_FN
};

struct NvmlState {
  dc_status status = DC_ERROR_NOT_SUPPORTED;  // DC_SUCCESS when usable
  int nvml_result = 0;                        // nvmlInit_v2's answer when it failed
  std::string message;                        // why it is not usable, what to do
  std::string path;                           // what was loaded
  std::string driver_version;                 // nvmlSystemGetDriverVersion ("580.65.06"), "" if unknown
};

// Loads and initialises NVML once (thread-safe) and reports the outcome.
// Never unloaded: telemetry may be asked for until the process ends.
const NvmlState& nvml_state();

// The table; only valid once nvml_state().status is DC_SUCCESS.
const NvmlApi& nvml_api() noexcept;

// NVML's name of a result ("NVML_ERROR_NOT_SUPPORTED"), dccuda's own table.
const char* nvml_result_name(int result) noexcept;

}  // namespace dc
