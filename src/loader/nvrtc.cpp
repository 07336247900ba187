#include "loader/nvrtc.h"

#include <atomic>
#include <mutex>
#include <vector>

#include "core/config.h"
#include "core/error.h"
#include "loader/library_search.h"
#include "loader/shared_library.h"

namespace dc {
namespace {

NvrtcApi g_api;
NvrtcState g_state;
std::once_flag g_once;
std::atomic<bool> g_loaded{false};  // set once g_state says DC_SUCCESS

std::vector<std::string> candidates() {
  const Config& cfg = config();
  return library_candidates(cfg.nvrtc_library, nvrtc_file_names(), toolkit_nvrtc_folders(cfg.cuda_home, cfg.cuda_path));
}

void load() {
  if (config().flags & DC_INIT_NO_NVRTC) {
    g_state.message = "NVRTC is disabled (DC_INIT_NO_NVRTC was given to dc_init)";
    return;
  }
  FoundLibrary found = open_first_library(candidates());
  void* lib = found.handle;
  const std::string& errors = found.tried;
  g_state.path = found.path;
  if (!lib) {
    g_state.message = strf("NVRTC is not available (tried %s); install the CUDA toolkit's NVRTC "
                           "(cuda-nvrtc-12-x or -13-x) or set DCCUDA_NVRTC_LIBRARY to %s's path",
                           errors.c_str(), nvrtc_file_names().front().c_str());
    return;
  }
  std::string missing;
#define DC_NVRTC_FN(name, required)                                                   \
  g_api.name = reinterpret_cast<PFN_##name>(find_shared_library_symbol(lib, #name)); \
  if (!g_api.name && (required)) missing += missing.empty() ? #name : ", " #name;
#include "loader/nvrtc_functions.inc"
#undef DC_NVRTC_FN
  if (!missing.empty()) {
    g_state.message = strf("%s is not a usable NVRTC: it lacks %s; set DCCUDA_NVRTC_LIBRARY to a CUDA 12 or 13 "
                           "libnvrtc", g_state.path.c_str(), missing.c_str());
    return;
  }
  int major = 0, minor = 0;
  if (g_api.nvrtcVersion(&major, &minor) != NVRTC_SUCCESS) {
    g_state.message = strf("nvrtcVersion failed in %s; the NVRTC install is broken", g_state.path.c_str());
    return;
  }
  g_state.major = major;
  g_state.minor = minor;
  g_state.status = DC_SUCCESS;
  g_loaded.store(true, std::memory_order_release);
}

}  // namespace

const NvrtcState& nvrtc_state() {
  // The settings first: a malformed one fails here. No exception may cross
  // call_once (pthread_once's C frames abort the unwinder).
  config();
  std::call_once(g_once, load);
  return g_state;
}

const NvrtcApi& nvrtc_api() noexcept { return g_api; }

std::string nvrtc_loaded_file() {
  if (!g_loaded.load(std::memory_order_acquire)) return {};
  return loaded_library_file(reinterpret_cast<const void*>(g_api.nvrtcVersion));
}

const NvrtcApi& require_nvrtc() {
  const NvrtcState& s = nvrtc_state();
  if (s.status != DC_SUCCESS) fail(DC_ERROR_NO_COMPILER, "%s", s.message.c_str());
  return g_api;
}

}  // namespace dc
