#include "loader/cublas.h"

#include <mutex>
#include <vector>

#include "core/config.h"
#include "core/error.h"
#include "loader/library_search.h"
#include "loader/shared_library.h"

namespace dc {
namespace {

CublasApi g_api;
CublasState g_state;
std::once_flag g_once;

// The same order as NVRTC's (loader/nvrtc.cpp): beside libdccuda, the
// system's search, the toolkit's folders (cuBLAS lies beside NVRTC there).
std::vector<std::string> candidates() {
  const Config& cfg = config();
  return library_candidates(cfg.cublas_library, cublas_file_names(), toolkit_nvrtc_folders(cfg.cuda_home, cfg.cuda_path));
}

void load() {
  FoundLibrary found = open_first_library(candidates());
  void* lib = found.handle;
  const std::string& errors = found.tried;
  g_state.path = found.path;
  if (!lib) {
    g_state.message = strf("cuBLAS is not available (tried %s); install the CUDA toolkit's cuBLAS (libcublas-13-x or "
                           "-12-x, or the nvidia-cublas Python wheel), put %s beside libdccuda, or set "
                           "DCCUDA_CUBLAS_LIBRARY to its path",
                           errors.c_str(), cublas_file_names().front().c_str());
    return;
  }
#define DC_CUBLAS_FN(name, since)                                                      \
  g_api.name = reinterpret_cast<PFN_##name>(find_shared_library_symbol(lib, #name)); \
  if (!g_api.name) g_state.missing += g_state.missing.empty() ? #name : ", " #name;
#include "loader/cublas_functions.inc"
#undef DC_CUBLAS_FN
  // A library without these is not cuBLAS at all: nothing can be done with it.
  if (!g_api.cublasCreate_v2 || !g_api.cublasDestroy_v2 || !g_api.cublasGetProperty || !g_api.cublasSetStream_v2) {
    g_state.message = strf("%s is not a usable cuBLAS: it lacks %s; set DCCUDA_CUBLAS_LIBRARY to a cuBLAS 12 or 13 "
                           "(libcublas.so.13)", g_state.path.c_str(), g_state.missing.c_str());
    return;
  }
  int major = 0, minor = 0, patch = 0;
  if (g_api.cublasGetProperty(MAJOR_VERSION, &major) == CUBLAS_STATUS_SUCCESS &&
      g_api.cublasGetProperty(MINOR_VERSION, &minor) == CUBLAS_STATUS_SUCCESS &&
      g_api.cublasGetProperty(PATCH_LEVEL, &patch) == CUBLAS_STATUS_SUCCESS)
    g_state.version = major * 10000 + minor * 100 + patch;
  g_state.status = DC_SUCCESS;
}

}  // namespace

std::vector<std::string> cublas_file_names() {
#ifdef _WIN32
  return {"cublas64_13.dll", "cublas64_12.dll"};
#else
  return {"libcublas.so.13", "libcublas.so.12"};
#endif
}

const CublasState& cublas_state() {
  // The settings first: a malformed one fails here, outside call_once.
  config();
  std::call_once(g_once, load);
  return g_state;
}

const CublasApi& cublas_api_unchecked() noexcept { return g_api; }

const CublasApi& require_cublas() {
  const CublasState& s = cublas_state();
  if (s.status != DC_SUCCESS) fail(DC_ERROR_NOT_SUPPORTED, "%s", s.message.c_str());
  return g_api;
}

void require_cublas_fn(const void* fn, const char* name, const char* since) {
  if (fn) [[likely]]
    return;
  const CublasState& s = cublas_state();
  fail(DC_ERROR_NOT_SUPPORTED, "%s (cuBLAS %d.%d.%d) lacks %s, which cuBLAS %s and later export; install a newer "
       "cuBLAS (13 or 12) or set DCCUDA_CUBLAS_LIBRARY to one", s.path.c_str(), s.version / 10000,
       s.version / 100 % 100, s.version % 100, name, since);
}

std::string cublas_status_name(int status) {
  switch (status) {
    case CUBLAS_STATUS_SUCCESS: return "CUBLAS_STATUS_SUCCESS";
    case CUBLAS_STATUS_NOT_INITIALIZED: return "CUBLAS_STATUS_NOT_INITIALIZED";
    case CUBLAS_STATUS_ALLOC_FAILED: return "CUBLAS_STATUS_ALLOC_FAILED";
    case CUBLAS_STATUS_INVALID_VALUE: return "CUBLAS_STATUS_INVALID_VALUE";
    case CUBLAS_STATUS_ARCH_MISMATCH: return "CUBLAS_STATUS_ARCH_MISMATCH";
    case CUBLAS_STATUS_MAPPING_ERROR: return "CUBLAS_STATUS_MAPPING_ERROR";
    case CUBLAS_STATUS_EXECUTION_FAILED: return "CUBLAS_STATUS_EXECUTION_FAILED";
    case CUBLAS_STATUS_INTERNAL_ERROR: return "CUBLAS_STATUS_INTERNAL_ERROR";
    case CUBLAS_STATUS_NOT_SUPPORTED: return "CUBLAS_STATUS_NOT_SUPPORTED";
    case CUBLAS_STATUS_LICENSE_ERROR: return "CUBLAS_STATUS_LICENSE_ERROR";
    default: return strf("cuBLAS status %d", status);
  }
}

}  // namespace dc
