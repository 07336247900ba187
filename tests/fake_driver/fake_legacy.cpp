// The legacy, unversioned entry points a real driver still exports for old
// binaries (cuMemAlloc with 32-bit sizes and pointers, the pre-11.0 primary
// context calls...). The fake exports them too, under their plain names, and
// resolves them for requests below the version that replaced them, exactly as
// the real driver does. They must never be called: each one counts the call
// (dcfake_legacy_calls) and fails. This file does not include dccuda's CUDA
// declarations, whose macros (driver_symbols.h, as cuda.h's) would rename
// these functions to their _v2 successors.
namespace fake {
void register_entry(const char* name, int version, void* fn);
}
extern "C" int dcfake_note_legacy_call(void);

#define FAKE_LEGACY(name, version)                                                   \
  extern "C" __attribute__((visibility("default"))) int name(void) { return dcfake_note_legacy_call(); } \
  static int name##_registered = (fake::register_entry(#name, version, reinterpret_cast<void*>(&name)), 0);

FAKE_LEGACY(cuDeviceTotalMem, 2000)
FAKE_LEGACY(cuDeviceGetUuid, 9020)
FAKE_LEGACY(cuDevicePrimaryCtxRelease, 7000)
FAKE_LEGACY(cuDevicePrimaryCtxReset, 7000)
FAKE_LEGACY(cuMemGetInfo, 2000)
FAKE_LEGACY(cuMemAlloc, 2000)
FAKE_LEGACY(cuMemFree, 2000)
FAKE_LEGACY(cuMemHostGetDevicePointer, 2020)
FAKE_LEGACY(cuMemHostRegister, 4000)
FAKE_LEGACY(cuMemcpyHtoD, 2000)
FAKE_LEGACY(cuMemcpyDtoH, 2000)
FAKE_LEGACY(cuMemcpyDtoD, 2000)
FAKE_LEGACY(cuMemcpyHtoDAsync, 2000)
FAKE_LEGACY(cuMemcpyDtoHAsync, 2000)
FAKE_LEGACY(cuMemcpyDtoDAsync, 3000)
FAKE_LEGACY(cuMemsetD8, 2000)
FAKE_LEGACY(cuMemsetD16, 2000)
FAKE_LEGACY(cuMemsetD32, 2000)
FAKE_LEGACY(cuModuleGetGlobal, 2000)
FAKE_LEGACY(cuStreamDestroy, 2000)
FAKE_LEGACY(cuEventDestroy, 2000)
FAKE_LEGACY(cuStreamBeginCapture, 10000)
FAKE_LEGACY(cuGraphExecUpdate, 10020)
