#include "loader/cufft.h"

#include <mutex>
#include <vector>

#include "core/config.h"
#include "core/error.h"
#include "loader/library_search.h"
#include "loader/shared_library.h"

namespace dc {
namespace {

CufftApi g_api;
CufftState g_state;
std::once_flag g_once;

// The same order as NVRTC's (loader/nvrtc.cpp): beside libdccuda, the
// system's search, the toolkit's folders.
std::vector<std::string> candidates() {
  const Config& cfg = config();
  return library_candidates(cfg.cufft_library, cufft_file_names(), toolkit_nvrtc_folders(cfg.cuda_home, cfg.cuda_path));
}

void load() {
  FoundLibrary found = open_first_library(candidates());
  void* lib = found.handle;
  const std::string& errors = found.tried;
  g_state.path = found.path;
  if (!lib) {
    g_state.message = strf("cuFFT is not available (tried %s); cuFFT 11 or 12 is needed: install the CUDA toolkit's "
                           "cuFFT (libcufft-12-x, or the nvidia-cufft Python wheel), put %s beside libdccuda, or set "
                           "DCCUDA_CUFFT_LIBRARY to its path",
                           errors.c_str(), cufft_file_names().front().c_str());
    return;
  }
  std::string missing;
#define DC_CUFFT_FN(name, required)                                                   \
  g_api.name = reinterpret_cast<PFN_##name>(find_shared_library_symbol(lib, #name)); \
  if (!g_api.name && (required)) missing += missing.empty() ? #name : ", " #name;
#include "loader/cufft_functions.inc"
#undef DC_CUFFT_FN
  if (!missing.empty()) {
    g_state.message = strf("%s is not a usable cuFFT: it lacks %s; cuFFT 11 or 12 is needed: set DCCUDA_CUFFT_LIBRARY "
                           "to a CUDA 11.x-13.x libcufft", g_state.path.c_str(), missing.c_str());
    return;
  }
  int version = 0;
  if (g_api.cufftGetVersion(&version) == CUFFT_SUCCESS) g_state.version = version;
  g_state.status = DC_SUCCESS;
}

}  // namespace

const CufftState& cufft_state() {
  // The settings first: a malformed one fails here, outside call_once.
  config();
  std::call_once(g_once, load);
  return g_state;
}

const CufftApi& require_cufft() {
  const CufftState& s = cufft_state();
  if (s.status != DC_SUCCESS) fail(DC_ERROR_NOT_SUPPORTED, "%s", s.message.c_str());
  return g_api;
}

const CufftApi& cufft_api() noexcept { return g_api; }

const char* cufft_result_name(int result) noexcept {
  switch (result) {
    case CUFFT_SUCCESS: return "CUFFT_SUCCESS";
    case CUFFT_INVALID_PLAN: return "CUFFT_INVALID_PLAN";
    case CUFFT_ALLOC_FAILED: return "CUFFT_ALLOC_FAILED";
    case CUFFT_INVALID_TYPE: return "CUFFT_INVALID_TYPE";
    case CUFFT_INVALID_VALUE: return "CUFFT_INVALID_VALUE";
    case CUFFT_INTERNAL_ERROR: return "CUFFT_INTERNAL_ERROR";
    case CUFFT_EXEC_FAILED: return "CUFFT_EXEC_FAILED";
    case CUFFT_SETUP_FAILED: return "CUFFT_SETUP_FAILED";
    case CUFFT_INVALID_SIZE: return "CUFFT_INVALID_SIZE";
    case CUFFT_UNALIGNED_DATA: return "CUFFT_UNALIGNED_DATA";
    case CUFFT_INVALID_DEVICE: return "CUFFT_INVALID_DEVICE";
    case CUFFT_NO_WORKSPACE: return "CUFFT_NO_WORKSPACE";
    case CUFFT_NOT_IMPLEMENTED: return "CUFFT_NOT_IMPLEMENTED";
    case CUFFT_NOT_SUPPORTED: return "CUFFT_NOT_SUPPORTED";
    default: return "CUFFT_(unknown)";
  }
}

}  // namespace dc
