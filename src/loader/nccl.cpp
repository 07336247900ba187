#include "loader/nccl.h"

#include <mutex>

#include "core/config.h"
#include "core/error.h"
#include "loader/library_search.h"
#include "loader/shared_library.h"

namespace dc {
namespace {

NcclApi g_api;
NcclState g_state;
std::once_flag g_once;

constexpr const char* kFileName = "libnccl.so.2";

void load() {
#if defined(_WIN32)
  g_state.message = "NCCL is Linux-only: NVIDIA ships no NCCL for Windows (there is no nccl.dll); run the "
                    "multi-GPU part on Linux";
#else
  FoundLibrary found = open_first_library(nccl_candidates());
  void* lib = found.handle;
  const std::string& errors = found.tried;
  g_state.path = found.path;
  if (!lib) {
    g_state.message = strf("NCCL is not available (tried %s); install NCCL 2 (the libnccl2 package, the CUDA "
                           "toolkit's NCCL or the nvidia-nccl-cu12/cu13 Python wheel), put %s beside libdccuda, "
                           "or set DCCUDA_NCCL_LIBRARY to its path",
                           errors.c_str(), kFileName);
    return;
  }
  std::string missing;
#define DC_NCCL_FN(name, since)                                                  \
  g_api.name = reinterpret_cast<PFN_##name>(find_shared_library_symbol(lib, #name)); \
  if (!g_api.name && (since) == 0) missing += missing.empty() ? #name : ", " #name;
#include "loader/nccl_functions.inc"
#undef DC_NCCL_FN
  if (!missing.empty()) {
    g_state.message = strf("%s is not a usable NCCL 2: it lacks %s; set DCCUDA_NCCL_LIBRARY to a libnccl.so.2",
                           g_state.path.c_str(), missing.c_str());
    return;
  }
  int code = 0;
  if (g_api.ncclGetVersion(&code) != ncclSuccess || code <= 0) {
    g_state.message = strf("%s is not a usable NCCL 2: ncclGetVersion failed; set DCCUDA_NCCL_LIBRARY to a "
                           "libnccl.so.2", g_state.path.c_str());
    return;
  }
  decode_nccl_version(code, &g_state.major, &g_state.minor, &g_state.patch);
  if (g_state.major != 2) {
    g_state.message = strf("%s is NCCL %d.%d.%d; dccuda needs NCCL 2; set DCCUDA_NCCL_LIBRARY to a libnccl.so.2",
                           g_state.path.c_str(), g_state.major, g_state.minor, g_state.patch);
    return;
  }
  g_state.version = g_state.major * 10000 + g_state.minor * 100 + g_state.patch;
  g_state.status = DC_SUCCESS;
#endif
}

}  // namespace

void decode_nccl_version(int32_t code, int32_t* major, int32_t* minor, int32_t* patch) noexcept {
  // 2.9 on: 2*10000 + minor*100 + patch (22809 = 2.28.9); up to 2.8: 2*1000 +
  // minor*100 + patch (2804 = 2.8.4). The old form never reaches 10000.
  if (code >= 10000) {
    *major = code / 10000;
    *minor = (code % 10000) / 100;
    *patch = code % 100;
  } else {
    *major = code / 1000;
    *minor = (code % 1000) / 100;
    *patch = code % 100;
  }
}

std::vector<std::string> nccl_candidates() {
  const Config& cfg = config();
  // The toolkit keeps NCCL in lib64 or (CUDA 13) lib.
  std::vector<std::string> folders;
  for (const std::string& root : {cfg.cuda_home, cfg.cuda_path, std::string("/usr/local/cuda")})
    if (!root.empty())
      for (const char* sub : {"/lib64", "/lib"}) folders.push_back(root + sub);
  return library_candidates(cfg.nccl_library, {kFileName}, folders);
}

const NcclState& nccl_state() {
  // The settings first: a malformed one fails here, outside call_once.
  config();
  std::call_once(g_once, load);
  return g_state;
}

const NcclApi& require_nccl() {
  const NcclState& s = nccl_state();
  if (s.status != DC_SUCCESS) fail(DC_ERROR_NOT_SUPPORTED, "%s", s.message.c_str());
  return g_api;
}

void require_nccl_function(const void* fn, const char* fn_name, int32_t since, const char* what) {
  if (fn) return;
  const NcclState& s = nccl_state();
  fail(DC_ERROR_NOT_SUPPORTED, "%s needs NCCL %d.%d or newer (%s); the NCCL loaded is %d.%d.%d (%s); install a "
       "newer NCCL or set DCCUDA_NCCL_LIBRARY to one", what, since / 10000, (since % 10000) / 100, fn_name, s.major,
       s.minor, s.patch, s.path.c_str());
}

}  // namespace dc
