#include "loader/nvml.h"

#include <mutex>

#include "core/config.h"
#include "core/error.h"
#include "core/log.h"
#include "loader/shared_library.h"

namespace dc {
namespace {

NvmlApi g_api;
NvmlState g_state;
std::once_flag g_once;

void load() {
  const Config& cfg = config();
  std::string path = cfg.nvml_library.empty() ? default_nvml_library() : cfg.nvml_library;
  const char* origin = cfg.nvml_library.empty() ? "the default" : "DCCUDA_NVML_LIBRARY";
  g_state.path = path;
  std::string why;
  void* lib = open_shared_library(path, &why);
  if (!lib) {
    g_state.message = strf("NVML is not available: could not load %s (%s, %s); it comes with the NVIDIA driver: "
                           "install the driver, or set DCCUDA_NVML_LIBRARY to the path of %s",
                           path.c_str(), origin, why.c_str(), default_nvml_library());
    DC_LOG(DC_LOG_DEBUG, "fallback", "%s: telemetry fields are reported unavailable", g_state.message.c_str());
    return;
  }
  std::string missing;
#define DC_NVML_FN(name, required)                                                    \
  g_api.name = reinterpret_cast<PFN_##name>(find_shared_library_symbol(lib, #name)); \
  if (!g_api.name && (required)) missing += missing.empty() ? #name : ", " #name;
#include "loader/nvml_functions.inc"
#undef DC_NVML_FN
  if (!missing.empty()) {
    g_state.message = strf("%s is not a usable NVML: it lacks %s; set DCCUDA_NVML_LIBRARY to the NVIDIA driver's %s",
                           path.c_str(), missing.c_str(), default_nvml_library());
    return;
  }
  nvml::Return r = g_api.nvmlInit_v2();
  if (r != nvml::kSuccess) {
    g_state.nvml_result = r;
    g_state.message = strf("nvmlInit_v2 in %s failed with %s (%d): %s; check nvidia-smi", path.c_str(),
                           nvml_result_name(r), r, g_api.nvmlErrorString ? g_api.nvmlErrorString(r) : "");
    return;
  }
  if (g_api.nvmlSystemGetDriverVersion) {
    char version[96] = {};
    if (g_api.nvmlSystemGetDriverVersion(version, sizeof version) == nvml::kSuccess) g_state.driver_version = version;
  }
  g_state.status = DC_SUCCESS;
  DC_LOG(DC_LOG_INFO, "driver", "loaded NVML %s (driver %s) for telemetry", path.c_str(),
         g_state.driver_version.empty() ? "version unknown" : g_state.driver_version.c_str());
}

}  // namespace

const NvmlState& nvml_state() {
  config();  // a malformed setting fails here, outside call_once
  std::call_once(g_once, load);
  return g_state;
}

const NvmlApi& nvml_api() noexcept { return g_api; }

const char* nvml_result_name(int result) noexcept {
  switch (result) {
    case 0: return "NVML_SUCCESS";
    case 1: return "NVML_ERROR_UNINITIALIZED";
    case 2: return "NVML_ERROR_INVALID_ARGUMENT";
    case 3: return "NVML_ERROR_NOT_SUPPORTED";
    case 4: return "NVML_ERROR_NO_PERMISSION";
    case 5: return "NVML_ERROR_ALREADY_INITIALIZED";
    case 6: return "NVML_ERROR_NOT_FOUND";
    case 7: return "NVML_ERROR_INSUFFICIENT_SIZE";
    case 8: return "NVML_ERROR_INSUFFICIENT_POWER";
    case 9: return "NVML_ERROR_DRIVER_NOT_LOADED";
    case 10: return "NVML_ERROR_TIMEOUT";
    case 11: return "NVML_ERROR_IRQ_ISSUE";
    case 12: return "NVML_ERROR_LIBRARY_NOT_FOUND";
    case 13: return "NVML_ERROR_FUNCTION_NOT_FOUND";
    case 14: return "NVML_ERROR_CORRUPTED_INFOROM";
    case 15: return "NVML_ERROR_GPU_IS_LOST";
    case 16: return "NVML_ERROR_RESET_REQUIRED";
    case 17: return "NVML_ERROR_OPERATING_SYSTEM";
    case 18: return "NVML_ERROR_LIB_RM_VERSION_MISMATCH";
    case 19: return "NVML_ERROR_IN_USE";
    case 20: return "NVML_ERROR_MEMORY";
    case 21: return "NVML_ERROR_NO_DATA";
    case 999: return "NVML_ERROR_UNKNOWN";
  }
  return "NVML_ERROR (another code)";
}

}  // namespace dc
