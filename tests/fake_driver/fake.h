// Internals shared by the fake driver's source files (a test double).
//
// Each file defines entry points with cuda.h's own names, declared with C
// linkage by dccuda's loader/cuda_abi/driver_prototypes.h (so cuMemAlloc
// defines cuMemAlloc_v2, as the real driver exports it: driver_symbols.h;
// a definition whose signature differs does not compile) and registers them
// for cuGetProcAddress with FAKE_EXPORT(name, version). Each entry point
// starts with FAKE_ENTER(name), which counts the call and returns an injected
// fault if one is due; entry points that need a current context use
// FAKE_REQUIRE_CONTEXT(), which also returns the sticky error of a broken
// context.
#pragma once

#include "loader/cuda_abi/driver_prototypes.h"

#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "fake_control.h"

#if defined(_WIN32)
#define FAKE_API extern "C" __declspec(dllexport)
#else
#define FAKE_API extern "C" __attribute__((visibility("default")))
#endif

namespace fake {

struct Context;

struct DeviceState {
  int ordinal = 0;
  Context* primary = nullptr;
};

struct Context {
  int ordinal = 0;
  int retains = 0;                   // primary context retain count
  int broken = 0;                    // sticky CUresult, 0 if healthy
  std::vector<int> peers_enabled;    // ordinals this context may access
  // cuCtxSetLimit's values by CUlimit (0..6), a real device's defaults; and
  // cuCtxSetCacheConfig's. A reset restores them (cuDevicePrimaryCtxReset).
  size_t limits[7] = {1024, size_t(1) << 20, size_t(8) << 20, 2, 2048, 32, 0};
  int cache_config = 0;
  bool heap_used = false;  // a kernel used device malloc: the heap size is fixed
};

struct Config {
  int devices = 1;
  int driver_version = 13000;
  std::vector<std::string> missing;
  bool no_pools = false;
  bool no_peer = false;
  bool no_vmm = false;   // DCFAKE_NO_VMM: no virtual memory management (attribute 0)
  int init_result = 0;
  size_t device_memory = size_t(8) << 30;  // each device's memory (DCFAKE_DEVICE_MEMORY)
  bool host_fn_thread = false;  // DCFAKE_HOST_FN_THREAD: host functions on a thread of their own
};

// One lock for the whole fake: simple, and tests are not about its speed.
std::recursive_mutex& lock();
const Config& config();
bool initialised();
DeviceState* device(int ordinal);      // nullptr if out of range
Context*& current_context();           // the calling thread's
Context* context_of_device(int ordinal);

// Runs a host function (cuLaunchHostFunc, a graph's host node) and returns
// when it has run: on the calling thread, or with DCFAKE_HOST_FN_THREAD=1 on
// the fake's one callback thread that lives until exit (fake_host_thread.cpp).
void run_host_function(CUhostFn fn, void* data);

// Live-object counters, by kind (see dcfake_live).
void live_add(const char* kind, long delta);

// Called on cuDevicePrimaryCtxReset for every context being reset: each
// fake file that owns per-context objects registers one to drop them.
std::vector<void (*)(Context*)>& reset_hooks();
struct ResetHook {
  explicit ResetHook(void (*hook)(Context*)) { reset_hooks().push_back(hook); }
};

// Device bytes in use per ordinal (for cuMemGetInfo); the memory file keeps it.
std::map<int, size_t>& device_bytes_in_use();

// Registration for cuGetProcAddress.
void register_entry(const char* name, int version, void* fn);
struct Registrar {
  Registrar(const char* name, int version, void* fn) { register_entry(name, version, fn); }
};

// Counts the call; returns the injected CUresult if one is due (else 0).
int enter(const char* entry);
// CUDA_SUCCESS if a usable context is current, else the error to return.
CUresult require_context();

}  // namespace fake

#define FAKE_CAT2(a, b) a##b
#define FAKE_CAT(a, b) FAKE_CAT2(a, b)
// Registers an entry point: `name` at `version` resolves to this file's
// definition of the (possibly versioned) name, as cuda.h maps it.
#define FAKE_EXPORT(name, version) \
  static fake::Registrar FAKE_CAT(fake_registrar_, __LINE__)(#name, version, reinterpret_cast<void*>(&name));
#define FAKE_ENTER(name)                                     \
  do {                                                       \
    int fake_injected_ = fake::enter(#name);                 \
    if (fake_injected_) return static_cast<CUresult>(fake_injected_); \
  } while (0)
#define FAKE_REQUIRE_CONTEXT()                          \
  do {                                                  \
    CUresult fake_ctx_ = fake::require_context();       \
    if (fake_ctx_ != CUDA_SUCCESS) return fake_ctx_;    \
  } while (0)
