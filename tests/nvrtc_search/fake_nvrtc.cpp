// A stand-in NVRTC (a test double, never a compiler), put beside a copy of
// libdccuda to show which NVRTC dccuda loads: it reports version 99.1, which
// no real NVRTC has, and every compile fails with a log that names it.
#include <cstring>
#include <type_traits>

#include "loader/cuda_abi/nvrtc_abi.h"

#define FAKE_NVRTC extern "C" __attribute__((visibility("default")))

namespace {
struct _nvrtcProgram_fake {};
const char kLog[] = "the fake NVRTC beside libdccuda (tests/nvrtc_search) compiles nothing";
}  // namespace

FAKE_NVRTC nvrtcResult nvrtcVersion(int* major, int* minor) {
  *major = 99;
  *minor = 1;
  return NVRTC_SUCCESS;
}
FAKE_NVRTC const char* nvrtcGetErrorString(nvrtcResult) { return "NVRTC_ERROR (fake NVRTC)"; }
FAKE_NVRTC nvrtcResult nvrtcCreateProgram(nvrtcProgram* prog, const char*, const char*, int, const char* const*,
                                          const char* const*) {
  *prog = reinterpret_cast<nvrtcProgram>(new _nvrtcProgram_fake);
  return NVRTC_SUCCESS;
}
FAKE_NVRTC nvrtcResult nvrtcDestroyProgram(nvrtcProgram* prog) {
  delete reinterpret_cast<_nvrtcProgram_fake*>(*prog);
  *prog = nullptr;
  return NVRTC_SUCCESS;
}
FAKE_NVRTC nvrtcResult nvrtcCompileProgram(nvrtcProgram, int, const char* const*) { return NVRTC_ERROR_COMPILATION; }
FAKE_NVRTC nvrtcResult nvrtcGetProgramLogSize(nvrtcProgram, size_t* size) {
  *size = sizeof kLog;
  return NVRTC_SUCCESS;
}
FAKE_NVRTC nvrtcResult nvrtcGetProgramLog(nvrtcProgram, char* log) {
  std::memcpy(log, kLog, sizeof kLog);
  return NVRTC_SUCCESS;
}
FAKE_NVRTC nvrtcResult nvrtcGetPTXSize(nvrtcProgram, size_t*) { return NVRTC_ERROR_INVALID_PROGRAM; }
FAKE_NVRTC nvrtcResult nvrtcGetPTX(nvrtcProgram, char*) { return NVRTC_ERROR_INVALID_PROGRAM; }
FAKE_NVRTC nvrtcResult nvrtcGetCUBINSize(nvrtcProgram, size_t*) { return NVRTC_ERROR_INVALID_PROGRAM; }
FAKE_NVRTC nvrtcResult nvrtcGetCUBIN(nvrtcProgram, char*) { return NVRTC_ERROR_INVALID_PROGRAM; }
FAKE_NVRTC nvrtcResult nvrtcAddNameExpression(nvrtcProgram, const char* const) { return NVRTC_SUCCESS; }
FAKE_NVRTC nvrtcResult nvrtcGetLoweredName(nvrtcProgram, const char* const, const char**) {
  return NVRTC_ERROR_INVALID_PROGRAM;
}

// Each definition has the signature dccuda's declarations give it. These are
// the functions dccuda requires (loader/nvrtc_functions.inc); the optional
// ones are left out, as an older NVRTC lacks them.
#define DC_NVRTC_REQUIRED(name) \
  static_assert(std::is_same_v<decltype(&name), PFN_##name>, #name " differs from nvrtc_abi.h");
DC_NVRTC_REQUIRED(nvrtcVersion)
DC_NVRTC_REQUIRED(nvrtcGetErrorString)
DC_NVRTC_REQUIRED(nvrtcCreateProgram)
DC_NVRTC_REQUIRED(nvrtcDestroyProgram)
DC_NVRTC_REQUIRED(nvrtcCompileProgram)
DC_NVRTC_REQUIRED(nvrtcGetProgramLogSize)
DC_NVRTC_REQUIRED(nvrtcGetProgramLog)
DC_NVRTC_REQUIRED(nvrtcGetPTXSize)
DC_NVRTC_REQUIRED(nvrtcGetPTX)
DC_NVRTC_REQUIRED(nvrtcGetCUBINSize)
DC_NVRTC_REQUIRED(nvrtcGetCUBIN)
DC_NVRTC_REQUIRED(nvrtcAddNameExpression)
DC_NVRTC_REQUIRED(nvrtcGetLoweredName)
