// The fake driver's core (a test double, never a GPU): cuGetProcAddress_v2,
// initialisation, fault injection, devices, primary contexts, peers, errors.
#include <cstdlib>
#include <cstring>
#include <sstream>

#include "fake.h"
#include "fake_memory.h"
#include "core/sticky_errors.h"  // the library's list of sticky errors: one list for both

namespace fake {
namespace {

struct Entry {
  int version;
  void* fn;
};

struct Fault {
  long first;   // call number (1-based) of the first failing call
  long last;    // last failing call, or -1 for all from `first`
  int result;
};

struct State {
  Config config;
  bool initialised = false;
  std::vector<DeviceState> devices;
  std::map<std::string, long> calls;
  std::map<std::string, std::vector<Fault>> faults;
  std::map<std::string, long> live;
  long legacy_calls = 0;
};

State& state() {
  static State* s = new State;
  return *s;
}

std::map<std::string, std::vector<Entry>>& entries() {
  static auto* e = new std::map<std::string, std::vector<Entry>>;
  return *e;
}

int env_int(const char* name, int fallback) {
  const char* v = std::getenv(name);
  return v && *v ? std::atoi(v) : fallback;
}

Config read_config() {
  Config c;
  c.devices = env_int("DCFAKE_DEVICES", 1);
  c.driver_version = env_int("DCFAKE_DRIVER_VERSION", 13000);
  c.no_pools = env_int("DCFAKE_NO_POOLS", 0) != 0;
  c.no_peer = env_int("DCFAKE_NO_PEER", 0) != 0;
  c.no_vmm = env_int("DCFAKE_NO_VMM", 0) != 0;
  c.init_result = env_int("DCFAKE_INIT_RESULT", 0);
  c.host_fn_thread = env_int("DCFAKE_HOST_FN_THREAD", 0) != 0;
  if (const char* m = std::getenv("DCFAKE_DEVICE_MEMORY"); m && *m) c.device_memory = std::strtoull(m, nullptr, 0);
  if (const char* m = std::getenv("DCFAKE_MISSING")) {
    std::stringstream ss(m);
    std::string item;
    while (std::getline(ss, item, ','))
      if (!item.empty()) c.missing.push_back(item);
  }
  return c;
}

bool sticky(int r) { return dc::is_sticky_cuda_result(r); }

}  // namespace

std::recursive_mutex& lock() {
  static auto* m = new std::recursive_mutex;
  return *m;
}

const Config& config() { return state().config; }
bool initialised() { return state().initialised; }

DeviceState* device(int ordinal) {
  State& s = state();
  if (!s.initialised || ordinal < 0 || ordinal >= static_cast<int>(s.devices.size())) return nullptr;
  return &s.devices[static_cast<size_t>(ordinal)];
}

Context*& current_context() {
  thread_local Context* current = nullptr;
  return current;
}

Context* context_of_device(int ordinal) {
  DeviceState* d = device(ordinal);
  return d ? d->primary : nullptr;
}

void live_add(const char* kind, long delta) {
  std::lock_guard<std::recursive_mutex> g(lock());
  state().live[kind] += delta;
}

void register_entry(const char* name, int version, void* fn) { entries()[name].push_back({version, fn}); }

int enter(const char* entry) {
  std::lock_guard<std::recursive_mutex> g(lock());
  State& s = state();
  long n = ++s.calls[entry];
  auto it = s.faults.find(entry);
  if (it == s.faults.end()) return 0;
  for (const Fault& f : it->second) {
    if (n >= f.first && (f.last < 0 || n <= f.last)) {
      if (sticky(f.result) && current_context()) current_context()->broken = f.result;
      return f.result;
    }
  }
  return 0;
}

CUresult require_context() {
  std::lock_guard<std::recursive_mutex> g(lock());
  if (!state().initialised) return CUDA_ERROR_NOT_INITIALIZED;
  Context* c = current_context();
  if (!c || c->retains <= 0) return CUDA_ERROR_INVALID_CONTEXT;
  if (c->broken) return static_cast<CUresult>(c->broken);
  return CUDA_SUCCESS;
}

}  // namespace fake

using namespace fake;

// ---------------------------------------------------------------------------
// The control interface (fake_control.h)

FAKE_API void dcfake_reset(void) {
  std::lock_guard<std::recursive_mutex> g(lock());
  state().calls.clear();
  state().faults.clear();
  state().legacy_calls = 0;
}

FAKE_API void dcfake_inject(const char* entry, int nth, int result, int times) {
  std::lock_guard<std::recursive_mutex> g(lock());
  State& s = state();
  long base = s.calls[entry];
  long first = base + nth;
  s.faults[entry].push_back({first, times < 0 ? -1 : first + times - 1, result});
}

FAKE_API long dcfake_call_count(const char* entry) {
  std::lock_guard<std::recursive_mutex> g(lock());
  auto it = state().calls.find(entry);
  return it == state().calls.end() ? 0 : it->second;
}

FAKE_API int dcfake_current_device(void) {
  fake::Context* c = fake::current_context();
  return c ? c->ordinal : -1;
}

FAKE_API long dcfake_live(const char* kind) {
  static const char* const known[] = {"allocations", "host_allocations", "managed", "registrations", "pools",
                                      "streams", "events", "modules", "graphs", "graph_execs", "primary_retains",
                                      "link_states", "reservations", "physical", "ipc_opens", "libraries",
                                      "pool_imports", "pool_imports_orphaned"};
  bool ok = false;
  for (const char* k : known) ok = ok || std::strcmp(k, kind) == 0;
  if (!ok) return -1;
  std::lock_guard<std::recursive_mutex> g(lock());
  auto it = state().live.find(kind);
  return it == state().live.end() ? 0 : it->second;
}

FAKE_API long dcfake_legacy_calls(void) {
  std::lock_guard<std::recursive_mutex> g(lock());
  return state().legacy_calls;
}

FAKE_API void dcfake_break_context(int ordinal, int result) {
  std::lock_guard<std::recursive_mutex> g(lock());
  if (Context* c = context_of_device(ordinal)) c->broken = result;
}

// Called by the legacy stand-ins in fake_legacy.c.
FAKE_API int dcfake_note_legacy_call(void) {
  std::lock_guard<std::recursive_mutex> g(lock());
  ++state().legacy_calls;
  return CUDA_ERROR_NOT_SUPPORTED;
}

// ---------------------------------------------------------------------------
// Entry-point resolution, as the real driver does it: the newest version of
// `symbol` that is not newer than the requested version nor than the driver.

FAKE_API CUresult cuGetProcAddress_v2(const char* symbol, void** pfn, int cudaVersion, cuuint64_t flags,
                                      CUdriverProcAddressQueryResult* symbolStatus) {
  (void)flags;
  if (!symbol || !pfn) return CUDA_ERROR_INVALID_VALUE;
  *pfn = nullptr;
  const Config cfg = read_config();
  for (const std::string& m : cfg.missing) {
    if (m == symbol) {
      if (symbolStatus) *symbolStatus = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
      return CUDA_ERROR_NOT_FOUND;
    }
  }
  auto it = entries().find(symbol);
  if (it == entries().end()) {
    if (symbolStatus) *symbolStatus = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
    return CUDA_ERROR_NOT_FOUND;
  }
  const Entry* best = nullptr;
  bool exists_in_driver = false;
  for (const Entry& e : it->second) {
    if (e.version > cfg.driver_version) continue;  // this driver predates it
    exists_in_driver = true;
    if (e.version <= cudaVersion && (!best || e.version > best->version)) best = &e;
  }
  if (!best) {
    if (symbolStatus)
      *symbolStatus = exists_in_driver ? CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT
                                       : CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
    return CUDA_ERROR_NOT_FOUND;
  }
  *pfn = best->fn;
  if (symbolStatus) *symbolStatus = CU_GET_PROC_ADDRESS_SUCCESS;
  return CUDA_SUCCESS;
}

// ---------------------------------------------------------------------------
// Initialisation and errors

CUresult CUDAAPI cuInit(unsigned int flags) {
  FAKE_ENTER(cuInit);
  if (flags != 0) return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard<std::recursive_mutex> g(lock());
  State& s = state();
  if (s.initialised) return CUDA_SUCCESS;
  s.config = read_config();
  if (s.config.init_result) return static_cast<CUresult>(s.config.init_result);
  s.devices.resize(static_cast<size_t>(s.config.devices));
  for (int i = 0; i < s.config.devices; ++i) {
    s.devices[static_cast<size_t>(i)].ordinal = i;
    s.devices[static_cast<size_t>(i)].primary = new Context{i, 0, 0, {}};
  }
  s.initialised = true;
  return CUDA_SUCCESS;
}
FAKE_EXPORT(cuInit, 2000)

CUresult CUDAAPI cuDriverGetVersion(int* version) {
  FAKE_ENTER(cuDriverGetVersion);
  if (!version) return CUDA_ERROR_INVALID_VALUE;
  *version = read_config().driver_version;
  return CUDA_SUCCESS;
}
FAKE_EXPORT(cuDriverGetVersion, 2020)

namespace {
struct ErrorText {
  CUresult code;
  const char* name;
  const char* text;
};
const ErrorText kErrors[] = {
    {CUDA_SUCCESS, "CUDA_SUCCESS", "no error"},
    {CUDA_ERROR_INVALID_VALUE, "CUDA_ERROR_INVALID_VALUE", "invalid argument"},
    {CUDA_ERROR_OUT_OF_MEMORY, "CUDA_ERROR_OUT_OF_MEMORY", "out of memory"},
    {CUDA_ERROR_NOT_INITIALIZED, "CUDA_ERROR_NOT_INITIALIZED", "initialization error"},
    {CUDA_ERROR_NO_DEVICE, "CUDA_ERROR_NO_DEVICE", "no CUDA-capable device is detected"},
    {CUDA_ERROR_INVALID_DEVICE, "CUDA_ERROR_INVALID_DEVICE", "invalid device ordinal"},
    {CUDA_ERROR_INVALID_IMAGE, "CUDA_ERROR_INVALID_IMAGE", "device kernel image is invalid"},
    {CUDA_ERROR_INVALID_CONTEXT, "CUDA_ERROR_INVALID_CONTEXT", "invalid device context"},
    {CUDA_ERROR_INVALID_PTX, "CUDA_ERROR_INVALID_PTX", "a PTX JIT compilation failed"},
    {CUDA_ERROR_UNSUPPORTED_PTX_VERSION, "CUDA_ERROR_UNSUPPORTED_PTX_VERSION", "the provided PTX was compiled with an unsupported toolchain."},
    {CUDA_ERROR_INVALID_HANDLE, "CUDA_ERROR_INVALID_HANDLE", "invalid resource handle"},
    {CUDA_ERROR_NOT_FOUND, "CUDA_ERROR_NOT_FOUND", "named symbol not found"},
    {CUDA_ERROR_NOT_READY, "CUDA_ERROR_NOT_READY", "device not ready"},
    {CUDA_ERROR_ILLEGAL_ADDRESS, "CUDA_ERROR_ILLEGAL_ADDRESS", "an illegal memory access was encountered"},
    {CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES, "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES", "too many resources requested for launch"},
    {CUDA_ERROR_LAUNCH_FAILED, "CUDA_ERROR_LAUNCH_FAILED", "unspecified launch failure"},
    {CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE, "CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE", "too many blocks in cooperative launch"},
    {CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED, "CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED", "peer access is already enabled"},
    {CUDA_ERROR_PEER_ACCESS_NOT_ENABLED, "CUDA_ERROR_PEER_ACCESS_NOT_ENABLED", "peer access has not been enabled"},
    {CUDA_ERROR_PEER_ACCESS_UNSUPPORTED, "CUDA_ERROR_PEER_ACCESS_UNSUPPORTED", "peer access is not supported between these two devices"},
    {CUDA_ERROR_NOT_SUPPORTED, "CUDA_ERROR_NOT_SUPPORTED", "operation not supported"},
    {CUDA_ERROR_STREAM_CAPTURE_INVALIDATED, "CUDA_ERROR_STREAM_CAPTURE_INVALIDATED", "operation failed due to a previous error during capture"},
    {CUDA_ERROR_STREAM_CAPTURE_UNMATCHED, "CUDA_ERROR_STREAM_CAPTURE_UNMATCHED", "capture was not initiated in this stream"},
    {CUDA_ERROR_ILLEGAL_STATE, "CUDA_ERROR_ILLEGAL_STATE", "the operation is not permitted in this state"},
    {CUDA_ERROR_UNKNOWN, "CUDA_ERROR_UNKNOWN", "unknown error"},
};
}  // namespace

CUresult CUDAAPI cuGetErrorName(CUresult error, const char** str) {
  FAKE_ENTER(cuGetErrorName);
  if (!str) return CUDA_ERROR_INVALID_VALUE;
  for (const ErrorText& e : kErrors)
    if (e.code == error) {
      *str = e.name;
      return CUDA_SUCCESS;
    }
  *str = nullptr;
  return CUDA_ERROR_INVALID_VALUE;
}
FAKE_EXPORT(cuGetErrorName, 6000)

CUresult CUDAAPI cuGetErrorString(CUresult error, const char** str) {
  FAKE_ENTER(cuGetErrorString);
  if (!str) return CUDA_ERROR_INVALID_VALUE;
  for (const ErrorText& e : kErrors)
    if (e.code == error) {
      *str = e.text;
      return CUDA_SUCCESS;
    }
  *str = nullptr;
  return CUDA_ERROR_INVALID_VALUE;
}
FAKE_EXPORT(cuGetErrorString, 6000)

// ---------------------------------------------------------------------------
// Devices

#define FAKE_REQUIRE_INIT() \
  do {                      \
    if (!initialised()) return CUDA_ERROR_NOT_INITIALIZED; \
  } while (0)

CUresult CUDAAPI cuDeviceGetCount(int* count) {
  FAKE_ENTER(cuDeviceGetCount);
  FAKE_REQUIRE_INIT();
  if (!count) return CUDA_ERROR_INVALID_VALUE;
  *count = config().devices;
  return CUDA_SUCCESS;
}
FAKE_EXPORT(cuDeviceGetCount, 2000)

CUresult CUDAAPI cuDeviceGet(CUdevice* dev, int ordinal) {
  FAKE_ENTER(cuDeviceGet);
  FAKE_REQUIRE_INIT();
  if (!dev) return CUDA_ERROR_INVALID_VALUE;
  if (!device(ordinal)) return CUDA_ERROR_INVALID_DEVICE;
  *dev = ordinal;
  return CUDA_SUCCESS;
}
FAKE_EXPORT(cuDeviceGet, 2000)

CUresult CUDAAPI cuDeviceGetName(char* name, int len, CUdevice dev) {
  FAKE_ENTER(cuDeviceGetName);
  FAKE_REQUIRE_INIT();
  if (!name || len <= 0) return CUDA_ERROR_INVALID_VALUE;
  if (!device(dev)) return CUDA_ERROR_INVALID_DEVICE;
  std::snprintf(name, static_cast<size_t>(len), "dccuda fake device %d (test double, not a GPU)", dev);
  return CUDA_SUCCESS;
}
FAKE_EXPORT(cuDeviceGetName, 2000)

CUresult CUDAAPI cuDeviceGetUuid(CUuuid* uuid, CUdevice dev) {
  FAKE_ENTER(cuDeviceGetUuid);
  FAKE_REQUIRE_INIT();
  if (!uuid) return CUDA_ERROR_INVALID_VALUE;
  if (!device(dev)) return CUDA_ERROR_INVALID_DEVICE;
  for (int i = 0; i < 16; ++i) uuid->bytes[i] = static_cast<char>(0xd0 + i + dev);
  return CUDA_SUCCESS;
}
FAKE_EXPORT(cuDeviceGetUuid, 11040)


CUresult CUDAAPI cuDeviceTotalMem(size_t* bytes, CUdevice dev) {
  FAKE_ENTER(cuDeviceTotalMem);
  FAKE_REQUIRE_INIT();
  if (!bytes) return CUDA_ERROR_INVALID_VALUE;
  if (!device(dev)) return CUDA_ERROR_INVALID_DEVICE;
  *bytes = config().device_memory;
  return CUDA_SUCCESS;
}
FAKE_EXPORT(cuDeviceTotalMem, 3020)

// An H100-like device: the numbers a Hopper part reports.
static int fake_attribute(CUdevice_attribute a, int dev) {
  switch (a) {
    case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK: return 1024;
    case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X: return 1024;
    case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y: return 1024;
    case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z: return 64;
    case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X: return 2147483647;
    case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y: return 65535;
    case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z: return 65535;
    case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK: return 49152;
    case CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY: return 65536;
    case CU_DEVICE_ATTRIBUTE_WARP_SIZE: return 32;
    case CU_DEVICE_ATTRIBUTE_MAX_PITCH: return 2147483647;
    case CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK: return 65536;
    case CU_DEVICE_ATTRIBUTE_CLOCK_RATE: return 1980000;
    case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT: return 132;
    case CU_DEVICE_ATTRIBUTE_KERNEL_EXEC_TIMEOUT: return 0;
    case CU_DEVICE_ATTRIBUTE_INTEGRATED: return 0;
    case CU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY: return 1;
    case CU_DEVICE_ATTRIBUTE_CONCURRENT_KERNELS: return 1;
    case CU_DEVICE_ATTRIBUTE_ECC_ENABLED: return 1;
    case CU_DEVICE_ATTRIBUTE_PCI_BUS_ID: return 0x18 + dev;
    case CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID: return 0;
    case CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID: return 0;
    case CU_DEVICE_ATTRIBUTE_TCC_DRIVER: return 0;
    case CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE: return 2619000;
    case CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH: return 5120;
    case CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE: return 52428800;
    case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR: return 2048;
    case CU_DEVICE_ATTRIBUTE_ASYNC_ENGINE_COUNT: return 3;
    case CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING: return 1;
    case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR: return 9;
    case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR: return 0;
    case CU_DEVICE_ATTRIBUTE_STREAM_PRIORITIES_SUPPORTED: return 1;
    case CU_DEVICE_ATTRIBUTE_GLOBAL_L1_CACHE_SUPPORTED: return 1;
    case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR: return 233472;
    case CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR: return 65536;
    case CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY: return 1;
    case CU_DEVICE_ATTRIBUTE_MULTI_GPU_BOARD: return 0;
    case CU_DEVICE_ATTRIBUTE_HOST_NATIVE_ATOMIC_SUPPORTED: return 0;
    case CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS: return 0;
    case CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS: return 1;
    case CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH: return 1;
    case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN: return 232448;
    case CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR: return 32;
    case CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED: return config().no_pools ? 0 : 1;
    case CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED: return config().no_vmm ? 0 : 1;
    case CU_DEVICE_ATTRIBUTE_CLUSTER_LAUNCH: return 1;
    default: return 0;
  }
}

CUresult CUDAAPI cuDeviceGetAttribute(int* pi, CUdevice_attribute attrib, CUdevice dev) {
  FAKE_ENTER(cuDeviceGetAttribute);
  FAKE_REQUIRE_INIT();
  if (!pi) return CUDA_ERROR_INVALID_VALUE;
  if (!device(dev)) return CUDA_ERROR_INVALID_DEVICE;
  if (attrib <= 0 || attrib >= CU_DEVICE_ATTRIBUTE_MAX) return CUDA_ERROR_INVALID_VALUE;
  *pi = fake_attribute(attrib, dev);
  return CUDA_SUCCESS;
}
FAKE_EXPORT(cuDeviceGetAttribute, 2000)

// ---------------------------------------------------------------------------
// Primary contexts

CUresult CUDAAPI cuDevicePrimaryCtxRetain(CUcontext* pctx, CUdevice dev) {
  FAKE_ENTER(cuDevicePrimaryCtxRetain);
  FAKE_REQUIRE_INIT();
  if (!pctx) return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard<std::recursive_mutex> g(lock());
  DeviceState* d = device(dev);
  if (!d) return CUDA_ERROR_INVALID_DEVICE;
  ++d->primary->retains;
  live_add("primary_retains", 1);
  *pctx = reinterpret_cast<CUcontext>(d->primary);
  return CUDA_SUCCESS;
}
FAKE_EXPORT(cuDevicePrimaryCtxRetain, 7000)

CUresult CUDAAPI cuDevicePrimaryCtxRelease(CUdevice dev) {
  FAKE_ENTER(cuDevicePrimaryCtxRelease);
  FAKE_REQUIRE_INIT();
  std::lock_guard<std::recursive_mutex> g(lock());
  DeviceState* d = device(dev);
  if (!d) return CUDA_ERROR_INVALID_DEVICE;
  if (d->primary->retains <= 0) return CUDA_ERROR_INVALID_CONTEXT;
  --d->primary->retains;
  live_add("primary_retains", -1);
  return CUDA_SUCCESS;
}
FAKE_EXPORT(cuDevicePrimaryCtxRelease, 11000)

// Hooks that other fake files register to drop their objects of a context on
// reset (memory, streams, modules...).
namespace fake {
std::vector<void (*)(Context*)>& reset_hooks() {
  static auto* hooks = new std::vector<void (*)(Context*)>;
  return *hooks;
}
}  // namespace fake

CUresult CUDAAPI cuDevicePrimaryCtxReset(CUdevice dev) {
  FAKE_ENTER(cuDevicePrimaryCtxReset);
  FAKE_REQUIRE_INIT();
  std::lock_guard<std::recursive_mutex> g(lock());
  DeviceState* d = device(dev);
  if (!d) return CUDA_ERROR_INVALID_DEVICE;
  for (auto hook : reset_hooks()) hook(d->primary);
  d->primary->broken = 0;
  d->primary->peers_enabled.clear();
  *d->primary = Context{d->primary->ordinal, d->primary->retains, 0, {}};
  return CUDA_SUCCESS;
}
FAKE_EXPORT(cuDevicePrimaryCtxReset, 11000)

CUresult CUDAAPI cuCtxGetCurrent(CUcontext* pctx) {
  FAKE_ENTER(cuCtxGetCurrent);
  FAKE_REQUIRE_INIT();
  if (!pctx) return CUDA_ERROR_INVALID_VALUE;
  *pctx = reinterpret_cast<CUcontext>(current_context());
  return CUDA_SUCCESS;
}
FAKE_EXPORT(cuCtxGetCurrent, 4000)

CUresult CUDAAPI cuCtxSetCurrent(CUcontext ctx) {
  FAKE_ENTER(cuCtxSetCurrent);
  FAKE_REQUIRE_INIT();
  current_context() = reinterpret_cast<Context*>(ctx);
  return CUDA_SUCCESS;
}
FAKE_EXPORT(cuCtxSetCurrent, 4000)

// Limits and the cache preference of the current context, kept as set (a
// GPU may round them up; dccuda's tests read back at least the value set).
CUresult CUDAAPI cuCtxSetLimit(CUlimit limit, size_t value) {
  FAKE_ENTER(cuCtxSetLimit);
  FAKE_REQUIRE_CONTEXT();
  std::lock_guard<std::recursive_mutex> g(lock());
  int l = static_cast<int>(limit);
  if (l < 0 || l > 6) return CUDA_ERROR_INVALID_VALUE;
  // Sizes beyond the device's memory cannot be honoured; the printf FIFO's
  // is accepted anyway, as an H200 with CUDA 13.0 accepts 2^64 - 1 bytes.
  bool bytes = l == CU_LIMIT_STACK_SIZE || l == CU_LIMIT_MALLOC_HEAP_SIZE || l == CU_LIMIT_PERSISTING_L2_CACHE_SIZE;
  if (bytes && value > config().device_memory) return CUDA_ERROR_INVALID_VALUE;
  if (l == CU_LIMIT_MALLOC_HEAP_SIZE && current_context()->heap_used) return CUDA_ERROR_INVALID_VALUE;
  current_context()->limits[l] = value;
  return CUDA_SUCCESS;
}
FAKE_EXPORT(cuCtxSetLimit, 3010)

CUresult CUDAAPI cuCtxGetLimit(size_t* value, CUlimit limit) {
  FAKE_ENTER(cuCtxGetLimit);
  FAKE_REQUIRE_CONTEXT();
  std::lock_guard<std::recursive_mutex> g(lock());
  int l = static_cast<int>(limit);
  if (!value || l < 0 || l > 6) return CUDA_ERROR_INVALID_VALUE;
  *value = current_context()->limits[l];
  return CUDA_SUCCESS;
}
FAKE_EXPORT(cuCtxGetLimit, 3010)

CUresult CUDAAPI cuCtxSetCacheConfig(CUfunc_cache config) {
  FAKE_ENTER(cuCtxSetCacheConfig);
  FAKE_REQUIRE_CONTEXT();
  std::lock_guard<std::recursive_mutex> g(lock());
  int c = static_cast<int>(config);
  if (c < 0 || c > 3) return CUDA_ERROR_INVALID_VALUE;
  current_context()->cache_config = c;
  return CUDA_SUCCESS;
}
FAKE_EXPORT(cuCtxSetCacheConfig, 3020)

CUresult CUDAAPI cuCtxGetCacheConfig(CUfunc_cache* config) {
  FAKE_ENTER(cuCtxGetCacheConfig);
  FAKE_REQUIRE_CONTEXT();
  std::lock_guard<std::recursive_mutex> g(lock());
  if (!config) return CUDA_ERROR_INVALID_VALUE;
  *config = static_cast<CUfunc_cache>(current_context()->cache_config);
  return CUDA_SUCCESS;
}
FAKE_EXPORT(cuCtxGetCacheConfig, 3020)

CUresult CUDAAPI cuCtxSynchronize(void) {
  FAKE_ENTER(cuCtxSynchronize);
  FAKE_REQUIRE_CONTEXT();
  // As on a GPU: synchronising a context while one of its streams captures
  // is refused, and it invalidates the capture (whichever thread began it).
  std::unique_lock<std::recursive_mutex> g(fake::lock());
  if (fake::invalidate_captures_of(fake::current_context())) return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
  fake::run_all_held_work();
  // Resident kernels: wait until they end, as a GPU does (for ever, if
  // nothing tells them to).
  auto running = fake::running_residents(fake::current_context());
  g.unlock();
  for (auto& run : running) run->wait();
  return CUDA_SUCCESS;
}
FAKE_EXPORT(cuCtxSynchronize, 2000)

// The profiler's switch: nothing to collect here; a context must be current,
// as the driver wants one.
CUresult CUDAAPI cuProfilerStart(void) {
  FAKE_ENTER(cuProfilerStart);
  FAKE_REQUIRE_CONTEXT();
  return CUDA_SUCCESS;
}
FAKE_EXPORT(cuProfilerStart, 4000)

CUresult CUDAAPI cuProfilerStop(void) {
  FAKE_ENTER(cuProfilerStop);
  FAKE_REQUIRE_CONTEXT();
  return CUDA_SUCCESS;
}
FAKE_EXPORT(cuProfilerStop, 4000)

CUresult CUDAAPI cuCtxGetStreamPriorityRange(int* least, int* greatest) {
  FAKE_ENTER(cuCtxGetStreamPriorityRange);
  FAKE_REQUIRE_CONTEXT();
  if (least) *least = 0;
  if (greatest) *greatest = -5;
  return CUDA_SUCCESS;
}
FAKE_EXPORT(cuCtxGetStreamPriorityRange, 5050)

namespace fake {
// Bytes allocated on each device (kept by the memory file).
std::map<int, size_t>& device_bytes_in_use() {
  static auto* m = new std::map<int, size_t>;
  return *m;
}
}  // namespace fake

CUresult CUDAAPI cuMemGetInfo(size_t* free_bytes, size_t* total) {
  FAKE_ENTER(cuMemGetInfo);
  FAKE_REQUIRE_CONTEXT();
  if (!free_bytes || !total) return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard<std::recursive_mutex> g(lock());
  size_t used = device_bytes_in_use()[current_context()->ordinal];
  const size_t total_bytes = config().device_memory;
  *total = total_bytes;
  *free_bytes = used > total_bytes ? 0 : total_bytes - used;
  return CUDA_SUCCESS;
}
FAKE_EXPORT(cuMemGetInfo, 3020)

// ---------------------------------------------------------------------------
// Peers

CUresult CUDAAPI cuDeviceCanAccessPeer(int* can, CUdevice dev, CUdevice peer) {
  FAKE_ENTER(cuDeviceCanAccessPeer);
  FAKE_REQUIRE_INIT();
  if (!can) return CUDA_ERROR_INVALID_VALUE;
  if (!device(dev) || !device(peer)) return CUDA_ERROR_INVALID_DEVICE;
  *can = (dev != peer && !config().no_peer) ? 1 : 0;
  return CUDA_SUCCESS;
}
FAKE_EXPORT(cuDeviceCanAccessPeer, 4000)

CUresult CUDAAPI cuCtxEnablePeerAccess(CUcontext peer, unsigned int flags) {
  FAKE_ENTER(cuCtxEnablePeerAccess);
  FAKE_REQUIRE_CONTEXT();
  if (flags != 0 || !peer) return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard<std::recursive_mutex> g(lock());
  Context* self = current_context();
  Context* other = reinterpret_cast<Context*>(peer);
  if (other == self || config().no_peer) return CUDA_ERROR_PEER_ACCESS_UNSUPPORTED;
  for (int p : self->peers_enabled)
    if (p == other->ordinal) return CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED;
  self->peers_enabled.push_back(other->ordinal);
  return CUDA_SUCCESS;
}
FAKE_EXPORT(cuCtxEnablePeerAccess, 4000)

CUresult CUDAAPI cuCtxDisablePeerAccess(CUcontext peer) {
  FAKE_ENTER(cuCtxDisablePeerAccess);
  FAKE_REQUIRE_CONTEXT();
  if (!peer) return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard<std::recursive_mutex> g(lock());
  Context* self = current_context();
  Context* other = reinterpret_cast<Context*>(peer);
  for (size_t i = 0; i < self->peers_enabled.size(); ++i) {
    if (self->peers_enabled[i] == other->ordinal) {
      self->peers_enabled.erase(self->peers_enabled.begin() + static_cast<long>(i));
      return CUDA_SUCCESS;
    }
  }
  return CUDA_ERROR_PEER_ACCESS_NOT_ENABLED;
}
FAKE_EXPORT(cuCtxDisablePeerAccess, 4000)

CUresult CUDAAPI cuDeviceGetP2PAttribute(int* value, CUdevice_P2PAttribute attrib, CUdevice src, CUdevice dst) {
  FAKE_ENTER(cuDeviceGetP2PAttribute);
  FAKE_REQUIRE_INIT();
  if (!value) return CUDA_ERROR_INVALID_VALUE;
  if (!device(src) || !device(dst) || src == dst) return CUDA_ERROR_INVALID_DEVICE;
  bool peer = !config().no_peer;
  switch (attrib) {
    case CU_DEVICE_P2P_ATTRIBUTE_PERFORMANCE_RANK: *value = peer ? 1 : 0; break;
    case CU_DEVICE_P2P_ATTRIBUTE_ACCESS_SUPPORTED: *value = peer ? 1 : 0; break;
    case CU_DEVICE_P2P_ATTRIBUTE_NATIVE_ATOMIC_SUPPORTED: *value = peer ? 1 : 0; break;
    case CU_DEVICE_P2P_ATTRIBUTE_CUDA_ARRAY_ACCESS_SUPPORTED: *value = peer ? 1 : 0; break;
    default: return CUDA_ERROR_INVALID_VALUE;
  }
  return CUDA_SUCCESS;
}
FAKE_EXPORT(cuDeviceGetP2PAttribute, 8000)
