#include "loader/nvjitlink.h"

#include <mutex>
#include <vector>

#include "core/config.h"
#include "core/error.h"
#include "loader/library_search.h"
#include "loader/shared_library.h"

namespace dc {
namespace {

NvJitLinkApi g_api;
NvJitLinkState g_state;
std::once_flag g_once;

// The same order as NVRTC's (loader/nvrtc.cpp): beside libdccuda, the
// system's search, the toolkit's folders.
std::vector<std::string> candidates() {
  const Config& cfg = config();
  return library_candidates(cfg.nvjitlink_library, nvjitlink_file_names(), toolkit_nvrtc_folders(cfg.cuda_home, cfg.cuda_path));
}

void load() {
  FoundLibrary found = open_first_library(candidates());
  void* lib = found.handle;
  const std::string& errors = found.tried;
  g_state.path = found.path;
  if (!lib) {
    g_state.message = strf("nvJitLink is not available (tried %s); install the CUDA toolkit's nvJitLink "
                           "(libnvjitlink-12-x or -13-x), put %s beside libdccuda, or set DCCUDA_NVJITLINK_LIBRARY "
                           "to its path",
                           errors.c_str(), nvjitlink_file_names().front().c_str());
    return;
  }
  std::string missing;
#define DC_NVJITLINK_FN(name, required)                                               \
  g_api.name = reinterpret_cast<PFN_##name>(find_shared_library_symbol(lib, #name)); \
  if (!g_api.name && (required)) missing += missing.empty() ? #name : ", " #name;
#include "loader/nvjitlink_functions.inc"
#undef DC_NVJITLINK_FN
  if (!missing.empty()) {
    g_state.message = strf("%s is not a usable nvJitLink: it lacks %s; set DCCUDA_NVJITLINK_LIBRARY to a CUDA 12 or "
                           "13 libnvJitLink", g_state.path.c_str(), missing.c_str());
    return;
  }
  unsigned major = 0, minor = 0;
  if (g_api.nvJitLinkVersion && g_api.nvJitLinkVersion(&major, &minor) == NVJITLINK_SUCCESS) {
    g_state.major = static_cast<int32_t>(major);
    g_state.minor = static_cast<int32_t>(minor);
  }
  g_state.status = DC_SUCCESS;
}

}  // namespace

const NvJitLinkState& nvjitlink_state() {
  // The settings first: a malformed one fails here, outside call_once.
  config();
  std::call_once(g_once, load);
  return g_state;
}

const NvJitLinkApi& nvjitlink_api() noexcept { return g_api; }

const NvJitLinkApi& require_nvjitlink() {
  const NvJitLinkState& s = nvjitlink_state();
  if (s.status != DC_SUCCESS) fail(DC_ERROR_NOT_SUPPORTED, "%s", s.message.c_str());
  return g_api;
}

}  // namespace dc
