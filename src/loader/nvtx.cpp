#include "loader/nvtx.h"

#include <cstdint>
#include <mutex>

#include "core/config.h"
#include "core/error.h"
#include "core/log.h"
#include "loader/shared_library.h"

namespace dc {
namespace detail {
std::atomic<int> g_nvtx_state{0};
}  // namespace detail

namespace {

// NVTX's protocol (nvtxDetail/nvtxTypes.h, NVTX v3), by value: the export
// tables a tool may ask for, the callback modules and the slots used.
constexpr uint32_t kExportTableCallbacks = 1;    // NVTX_ETID_CALLBACKS
constexpr uint32_t kExportTableVersionInfo = 3;  // NVTX_ETID_VERSIONINFO
constexpr int kModuleCore = 1;                   // NVTX_CB_MODULE_CORE
constexpr int kModuleCuda = 2;                   // NVTX_CB_MODULE_CUDA
constexpr int kCoreMarkA = 2;                    // NVTX_CBID_CORE_MarkA
constexpr int kCoreRangePushA = 9;               // NVTX_CBID_CORE_RangePushA
constexpr int kCoreRangePop = 11;                // NVTX_CBID_CORE_RangePop
constexpr int kCoreSize = 16;                    // NVTX_CBID_CORE_SIZE
constexpr int kCudaNameCuStreamA = 5;            // NVTX_CBID_CUDA_NameCuStreamA
constexpr int kCudaSize = 9;                     // NVTX_CBID_CUDA_SIZE
constexpr uint32_t kNvtxVersion = 3;             // NVTX_VERSION

using FunctionPointer = void (*)();    // NvtxFunctionPointer
using FunctionTable = FunctionPointer**;  // NvtxFunctionTable: the slots' addresses
using GetExportTable = const void* (*)(uint32_t);
using InitializeInjection = int (*)(GetExportTable);

struct ExportTableCallbacks {  // NvtxExportTableCallbacks
  size_t struct_size;
  int (*GetModuleFunctionTable)(int module, FunctionTable* out_table, unsigned int* out_size);
};

struct ExportTableVersionInfo {  // NvtxExportTableVersionInfo
  size_t struct_size;
  uint32_t version;
  uint32_t reserved0;
  void (*SetInjectionNvtxVersion)(uint32_t version);
};

// The slots the tool fills, and the tables of their addresses it is given
// (index = NVTX's callback id; the last entry stays null, as NVTX's).
std::atomic<FunctionPointer> g_core[kCoreSize] = {};
std::atomic<FunctionPointer> g_cuda[kCudaSize] = {};
FunctionPointer* g_core_table[kCoreSize + 1] = {};
FunctionPointer* g_cuda_table[kCudaSize + 1] = {};
// The tool writes plain function pointers through the table: the slots are
// atomics of the same size and representation.
static_assert(sizeof(std::atomic<FunctionPointer>) == sizeof(FunctionPointer));

std::string g_description;
std::once_flag g_once;

int get_module_function_table(int module, FunctionTable* out_table, unsigned int* out_size) {
  if (!out_table || !out_size) return 0;
  if (module == kModuleCore) {
    *out_table = g_core_table;
    *out_size = kCoreSize;
    return 1;
  }
  if (module == kModuleCuda) {
    *out_table = g_cuda_table;
    *out_size = kCudaSize;
    return 1;
  }
  return 0;  // OpenCL, CUDA runtime, sync: dccuda emits none of those
}

void set_injection_version(uint32_t) {}

const ExportTableCallbacks kCallbacks = {sizeof(ExportTableCallbacks), &get_module_function_table};
const ExportTableVersionInfo kVersionInfo = {sizeof(ExportTableVersionInfo), kNvtxVersion, 0, &set_injection_version};

const void* get_export_table(uint32_t id) {
  if (id == kExportTableCallbacks) return &kCallbacks;
  if (id == kExportTableVersionInfo) return &kVersionInfo;
  return nullptr;
}

void load_tool() {
  for (int i = 0; i < kCoreSize; ++i) g_core_table[i] = reinterpret_cast<FunctionPointer*>(&g_core[i]);
  for (int i = 0; i < kCudaSize; ++i) g_cuda_table[i] = reinterpret_cast<FunctionPointer*>(&g_cuda[i]);
  g_core_table[0] = g_cuda_table[0] = nullptr;  // id 0 is NVTX's "invalid"
  const Config* cfg = config_if_fixed();
  std::string path;
  try {
    path = cfg ? cfg->nvtx_injection_path : config().nvtx_injection_path;
  } catch (...) {
    return;  // a malformed setting: the call that needs the settings reports it
  }
  if (path.empty()) return;
  std::string why;
  void* lib = open_shared_library(path, &why);
  auto init = lib ? reinterpret_cast<InitializeInjection>(find_shared_library_symbol(lib, "InitializeInjectionNvtx2"))
                  : nullptr;
  if (!init) {
    g_description = strf("the profiler's library %s (NVTX_INJECTION64_PATH) %s; ranges go nowhere", path.c_str(),
                         lib ? "has no InitializeInjectionNvtx2" : ("could not be loaded: " + why).c_str());
    DC_LOG(DC_LOG_WARNING, "profiler", "%s", g_description.c_str());
    return;
  }
  if (init(&get_export_table) == 0) {
    g_description = strf("the profiler's library %s (NVTX_INJECTION64_PATH) declined to attach; ranges go nowhere",
                         path.c_str());
    DC_LOG(DC_LOG_WARNING, "profiler", "%s", g_description.c_str());
    return;
  }
  g_description = path;
  DC_LOG(DC_LOG_INFO, "profiler", "NVTX tool %s attached: ranges, marks and stream names go to it", path.c_str());
  detail::g_nvtx_state.store(2, std::memory_order_release);
}

// No exception may leave call_once (see loader/driver.cpp).
void load() noexcept {
  try {
    load_tool();
  } catch (...) {
  }
}

template <class Fn>
Fn slot(std::atomic<FunctionPointer>& s) noexcept {
  return reinterpret_cast<Fn>(s.load(std::memory_order_acquire));
}

}  // namespace

namespace detail {
void nvtx_initialise() noexcept {
  std::call_once(g_once, load);
  int expected = 0;
  g_nvtx_state.compare_exchange_strong(expected, 1, std::memory_order_acq_rel);
}
}  // namespace detail

int nvtx_range_push(const char* name) noexcept {
  if (!nvtx_attached()) return -1;
  auto fn = slot<int (*)(const char*)>(g_core[kCoreRangePushA]);
  return fn ? fn(name) : -1;
}

int nvtx_range_pop() noexcept {
  if (!nvtx_attached()) return -1;
  auto fn = slot<int (*)()>(g_core[kCoreRangePop]);
  return fn ? fn() : -1;
}

void nvtx_mark(const char* name) noexcept {
  if (!nvtx_attached()) return;
  if (auto fn = slot<void (*)(const char*)>(g_core[kCoreMarkA])) fn(name);
}

void nvtx_name_stream(CUstream stream, const char* name) noexcept {
  if (!nvtx_attached()) return;
  if (auto fn = slot<void (*)(CUstream, const char*)>(g_cuda[kCudaNameCuStreamA])) fn(stream, name);
}

const std::string& nvtx_tool_description() noexcept {
  nvtx_attached();
  return g_description;
}

}  // namespace dc
