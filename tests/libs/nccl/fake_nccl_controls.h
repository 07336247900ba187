// The fake NCCL's controls (tests/fake_nccl/fake_nccl_control.h), found in
// the library dccuda loaded (DCCUDA_NCCL_LIBRARY); null members when the
// library is a real NCCL.
#pragma once

#include <dlfcn.h>

#include <cstdlib>

struct FakeNccl {
  void (*reset)() = nullptr;
  void (*inject)(const char*, int, int, int) = nullptr;
  long (*call_count)(const char*) = nullptr;
  long (*live_comms)() = nullptr;
  void (*set_async_error)(int) = nullptr;

  // Call after the first dc_ NCCL call (dccuda loads the library then).
  static FakeNccl find() {
    FakeNccl f;
    const char* path = std::getenv("DCCUDA_NCCL_LIBRARY");
    void* lib = path ? dlopen(path, RTLD_NOW | RTLD_NOLOAD) : nullptr;
    if (!lib) return f;
    f.reset = reinterpret_cast<void (*)()>(dlsym(lib, "dcfake_nccl_reset"));
    f.inject = reinterpret_cast<void (*)(const char*, int, int, int)>(dlsym(lib, "dcfake_nccl_inject"));
    f.call_count = reinterpret_cast<long (*)(const char*)>(dlsym(lib, "dcfake_nccl_call_count"));
    f.live_comms = reinterpret_cast<long (*)()>(dlsym(lib, "dcfake_nccl_live_comms"));
    f.set_async_error = reinterpret_cast<void (*)(int)>(dlsym(lib, "dcfake_nccl_set_async_error"));
    return f;
  }
  explicit operator bool() const { return reset != nullptr; }
};
