// The fake driver's modules and functions (a test double, never a GPU): it
// reads the kernels, their parameters and the globals out of PTX, CUBIN and
// fatbin images (fake_image.cpp) and generates no code.
#include <cstdlib>
#include <cstring>
#include <memory>
#include <set>

#include "fake.h"
#include "fake_image.h"
#include "fake_module.h"

namespace fake {
namespace {

struct Module;

struct Function {
  Module* module = nullptr;
  ImageKernel kernel;
  int max_dynamic_shared = 0;
  int carveout = -1;
  int cache_config = CU_FUNC_CACHE_PREFER_NONE;
};

struct Global {
  std::string name;
  size_t size;
  void* memory;  // host memory standing in for device memory
};

struct Module {
  Context* context = nullptr;
  bool from_ptx = false;
  int arch = 0;
  std::vector<std::unique_ptr<Function>> functions;
  std::vector<Global> globals;
};

std::set<Module*>& modules() {
  static auto* s = new std::set<Module*>;
  return *s;
}
std::set<Function*>& functions() {
  static auto* s = new std::set<Function*>;
  return *s;
}

// The PTX ISA each CUDA release's driver accepts (PTX ISA release notes).
int max_ptx_isa(int driver_version) {
  static const int table[][2] = {{12000, 80}, {12010, 81}, {12020, 82}, {12030, 83}, {12040, 84},
                                 {12050, 85}, {12060, 85}, {12080, 87}, {12090, 88}, {13000, 90}};
  int isa = 0;
  for (const auto& row : table)
    if (row[0] <= driver_version) isa = row[1];
  return isa;
}

constexpr int kSharedPerBlock = 49152;
constexpr int kSharedPerBlockOptin = 232448;
constexpr int kDeviceArch = 90;  // the fake devices are Hopper-like (fake_core.cpp)

void destroy(Module* m) {
  for (auto& f : m->functions) functions().erase(f.get());
  for (Global& g : m->globals) std::free(g.memory);
  modules().erase(m);
  live_add("modules", -1);
  delete m;
}

void drop_context_modules(Context* c) {
  std::vector<Module*> doomed;
  for (Module* m : modules())
    if (m->context == c) doomed.push_back(m);
  for (Module* m : doomed) destroy(m);
}
ResetHook g_reset_hook(drop_context_modules);

Module* live_module(CUmodule h) {
  Module* m = reinterpret_cast<Module*>(h);
  return modules().count(m) ? m : nullptr;
}
Function* live_function(CUfunction h) {
  Function* f = reinterpret_cast<Function*>(h);
  return functions().count(f) ? f : nullptr;
}

// Copies `text` into a JIT log buffer of `capacity` bytes, NUL-terminated.
size_t write_log(char* buffer, size_t capacity, const std::string& text) {
  if (!buffer || capacity == 0) return 0;
  size_t n = std::min(capacity - 1, text.size());
  std::memcpy(buffer, text.data(), n);
  buffer[n] = '\0';
  return n + 1;
}

}  // namespace

int kernel_max_threads(int registers, int launch_bounds) {
  int regs = registers > 0 ? registers : 16;
  int per_warp = (regs * 32 + 255) / 256 * 256;
  int warps = 65536 / per_warp;
  int limit = warps * 32 < 1024 ? warps * 32 : 1024;
  if (launch_bounds > 0 && launch_bounds < limit) limit = launch_bounds;
  return limit;
}

bool kernel_info(CUfunction h, KernelInfo* out) {
  Function* f = live_function(h);
  if (!f) return false;
  const ImageKernel& k = f->kernel;
  out->name = k.name;
  out->params_known = k.params_known;
  out->params = k.params;
  out->params_bytes = 0;
  for (const ImageParam& p : k.params)
    if (p.offset + p.size > out->params_bytes) out->params_bytes = p.offset + p.size;
  out->registers = k.registers ? k.registers : 16;
  out->static_shared = static_cast<int>(k.static_shared);
  out->max_dynamic_shared = f->max_dynamic_shared;
  out->max_threads = kernel_max_threads(k.registers, k.max_threads);
  out->context = f->module->context;
  out->module = f->module;
  return true;
}

CUmodule load_module(ParsedImage parsed, Context* context) {
  auto* m = new Module;
  m->context = context;
  m->from_ptx = parsed.from_ptx;
  m->arch = parsed.arch;
  for (ImageKernel& k : parsed.kernels) {
    auto f = std::make_unique<Function>();
    f->module = m;
    f->kernel = std::move(k);
    f->max_dynamic_shared = kSharedPerBlock - static_cast<int>(f->kernel.static_shared);
    functions().insert(f.get());
    m->functions.push_back(std::move(f));
  }
  for (ImageGlobal& ig : parsed.globals) {
    Global gl{ig.name, ig.size, std::calloc(1, ig.size ? ig.size : 1)};
    if (!ig.init.empty()) std::memcpy(gl.memory, ig.init.data(), std::min(ig.init.size(), ig.size));
    m->globals.push_back(std::move(gl));
  }
  modules().insert(m);
  live_add("modules", 1);
  return reinterpret_cast<CUmodule>(m);
}

bool module_live(CUmodule module) { return live_module(module) != nullptr; }

void unload_module(CUmodule module) {
  if (Module* m = live_module(module)) destroy(m);
}

CUfunction module_function(CUmodule module, const char* name) {
  Module* m = live_module(module);
  if (!m) return nullptr;
  for (auto& f : m->functions)
    if (f->kernel.name == name) return reinterpret_cast<CUfunction>(f.get());
  return nullptr;
}

int fake_max_ptx_isa() { return max_ptx_isa(config().driver_version); }

bool function_live(CUfunction h) { return live_function(h) != nullptr; }

void* module_global(const void* module, const char* name, size_t* size) {
  Module* m = const_cast<Module*>(static_cast<const Module*>(module));
  if (!modules().count(m)) return nullptr;
  for (Global& g : m->globals)
    if (g.name == name) {
      if (size) *size = g.size;
      return g.memory;
    }
  return nullptr;
}

bool module_global_range(CUdeviceptr address, CUdeviceptr* base, size_t* size) {
  std::lock_guard<std::recursive_mutex> g(lock());
  for (Module* m : modules())
    for (const Global& gl : m->globals) {
      CUdeviceptr b = reinterpret_cast<CUdeviceptr>(gl.memory);
      if (address >= b && address < b + gl.size) {
        if (base) *base = b;
        if (size) *size = gl.size;
        return true;
      }
    }
  return false;
}

}  // namespace fake

using namespace fake;

CUresult CUDAAPI cuModuleLoadDataEx(CUmodule* module, const void* image, unsigned int numOptions,
                                    CUjit_option* options, void** optionValues) {
  FAKE_ENTER(cuModuleLoadDataEx);
  FAKE_REQUIRE_CONTEXT();
  if (!module || !image || (numOptions && (!options || !optionValues))) return CUDA_ERROR_INVALID_VALUE;
  *module = nullptr;
  char* info_log = nullptr;
  char* error_log = nullptr;
  size_t info_size = 0, error_size = 0;
  int info_size_index = -1, error_size_index = -1;
  for (unsigned i = 0; i < numOptions; ++i) {
    uintptr_t v = reinterpret_cast<uintptr_t>(optionValues[i]);
    switch (options[i]) {
      case CU_JIT_INFO_LOG_BUFFER: info_log = static_cast<char*>(optionValues[i]); break;
      case CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES: info_size = v; info_size_index = static_cast<int>(i); break;
      case CU_JIT_ERROR_LOG_BUFFER: error_log = static_cast<char*>(optionValues[i]); break;
      case CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES: error_size = v; error_size_index = static_cast<int>(i); break;
      case CU_JIT_OPTIMIZATION_LEVEL: if (v > 4) return CUDA_ERROR_INVALID_VALUE; break;
      case CU_JIT_MAX_REGISTERS:
      case CU_JIT_GENERATE_DEBUG_INFO:
      case CU_JIT_GENERATE_LINE_INFO:
      case CU_JIT_LOG_VERBOSE:
      case CU_JIT_TARGET_FROM_CUCONTEXT:
        break;
      default:
        if (options[i] >= CU_JIT_NUM_OPTIONS) return CUDA_ERROR_INVALID_VALUE;
        break;
    }
  }
  std::lock_guard<std::recursive_mutex> g(lock());
  ParsedImage parsed = parse_image(image, kDeviceArch, max_ptx_isa(config().driver_version));
  // The driver writes back how much of each log it filled.
  if (!parsed.ok) {
    size_t n = write_log(error_log, error_size, parsed.log);
    if (error_size_index >= 0) optionValues[error_size_index] = reinterpret_cast<void*>(static_cast<uintptr_t>(n));
    if (info_size_index >= 0) optionValues[info_size_index] = nullptr;
    write_log(info_log, info_size, "");
    return static_cast<CUresult>(parsed.result);
  }
  size_t n = write_log(info_log, info_size, parsed.log);
  if (info_size_index >= 0) optionValues[info_size_index] = reinterpret_cast<void*>(static_cast<uintptr_t>(n));
  if (error_size_index >= 0) optionValues[error_size_index] = nullptr;
  write_log(error_log, error_size, "");

  *module = load_module(std::move(parsed), current_context());
  return CUDA_SUCCESS;
}
FAKE_EXPORT(cuModuleLoadDataEx, 2010)

CUresult CUDAAPI cuModuleUnload(CUmodule hmod) {
  FAKE_ENTER(cuModuleUnload);
  FAKE_REQUIRE_CONTEXT();
  std::lock_guard<std::recursive_mutex> g(lock());
  Module* m = live_module(hmod);
  if (!m) return CUDA_ERROR_INVALID_HANDLE;
  destroy(m);
  return CUDA_SUCCESS;
}
FAKE_EXPORT(cuModuleUnload, 2000)

CUresult CUDAAPI cuModuleGetFunction(CUfunction* hfunc, CUmodule hmod, const char* name) {
  FAKE_ENTER(cuModuleGetFunction);
  FAKE_REQUIRE_CONTEXT();
  if (!hfunc || !name) return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard<std::recursive_mutex> g(lock());
  Module* m = live_module(hmod);
  if (!m) return CUDA_ERROR_INVALID_HANDLE;
  for (auto& f : m->functions)
    if (f->kernel.name == name) {
      *hfunc = reinterpret_cast<CUfunction>(f.get());
      return CUDA_SUCCESS;
    }
  return CUDA_ERROR_NOT_FOUND;
}
FAKE_EXPORT(cuModuleGetFunction, 2000)

CUresult CUDAAPI cuModuleGetGlobal(CUdeviceptr* dptr, size_t* bytes, CUmodule hmod, const char* name) {
  FAKE_ENTER(cuModuleGetGlobal);
  FAKE_REQUIRE_CONTEXT();
  if (!name) return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard<std::recursive_mutex> g(lock());
  Module* m = live_module(hmod);
  if (!m) return CUDA_ERROR_INVALID_HANDLE;
  for (const Global& gl : m->globals)
    if (gl.name == name) {
      if (dptr) *dptr = reinterpret_cast<CUdeviceptr>(gl.memory);
      if (bytes) *bytes = gl.size;
      return CUDA_SUCCESS;
    }
  return CUDA_ERROR_NOT_FOUND;
}
FAKE_EXPORT(cuModuleGetGlobal, 3020)

CUresult CUDAAPI cuModuleGetFunctionCount(unsigned int* count, CUmodule hmod) {
  FAKE_ENTER(cuModuleGetFunctionCount);
  if (!count) return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard<std::recursive_mutex> g(lock());
  Module* m = live_module(hmod);
  if (!m) return CUDA_ERROR_INVALID_HANDLE;
  *count = static_cast<unsigned>(m->functions.size());
  return CUDA_SUCCESS;
}
FAKE_EXPORT(cuModuleGetFunctionCount, 12040)

CUresult CUDAAPI cuModuleEnumerateFunctions(CUfunction* out, unsigned int num, CUmodule hmod) {
  FAKE_ENTER(cuModuleEnumerateFunctions);
  FAKE_REQUIRE_CONTEXT();
  if (!out) return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard<std::recursive_mutex> g(lock());
  Module* m = live_module(hmod);
  if (!m) return CUDA_ERROR_INVALID_HANDLE;
  for (unsigned i = 0; i < num && i < m->functions.size(); ++i) out[i] = reinterpret_cast<CUfunction>(m->functions[i].get());
  return CUDA_SUCCESS;
}
FAKE_EXPORT(cuModuleEnumerateFunctions, 12040)

CUresult CUDAAPI cuFuncGetName(const char** name, CUfunction hfunc) {
  FAKE_ENTER(cuFuncGetName);
  if (!name || !hfunc) return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard<std::recursive_mutex> g(lock());
  Function* f = live_function(hfunc);
  if (!f) return CUDA_ERROR_INVALID_HANDLE;
  *name = f->kernel.name.c_str();
  return CUDA_SUCCESS;
}
FAKE_EXPORT(cuFuncGetName, 12030)

CUresult CUDAAPI cuFuncGetParamInfo(CUfunction hfunc, size_t index, size_t* offset, size_t* size) {
  FAKE_ENTER(cuFuncGetParamInfo);
  if (!offset) return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard<std::recursive_mutex> g(lock());
  Function* f = live_function(hfunc);
  if (!f) return CUDA_ERROR_INVALID_HANDLE;
  // A real driver always knows; the fake says so when it could not read the image.
  if (!f->kernel.params_known) return CUDA_ERROR_NOT_SUPPORTED;
  if (index >= f->kernel.params.size()) return CUDA_ERROR_INVALID_VALUE;
  *offset = f->kernel.params[index].offset;
  if (size) *size = f->kernel.params[index].size;
  return CUDA_SUCCESS;
}
FAKE_EXPORT(cuFuncGetParamInfo, 12040)

CUresult CUDAAPI cuFuncGetAttribute(int* value, CUfunction_attribute attrib, CUfunction hfunc) {
  FAKE_ENTER(cuFuncGetAttribute);
  if (!value) return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard<std::recursive_mutex> g(lock());
  Function* f = live_function(hfunc);
  if (!f) return CUDA_ERROR_INVALID_HANDLE;
  const ImageKernel& k = f->kernel;
  switch (attrib) {
    case CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK: *value = kernel_max_threads(k.registers, k.max_threads); break;
    case CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES: *value = static_cast<int>(k.static_shared); break;
    case CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES: *value = 0; break;
    case CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES: *value = 0; break;
    case CU_FUNC_ATTRIBUTE_NUM_REGS: *value = k.registers ? k.registers : 16; break;
    case CU_FUNC_ATTRIBUTE_PTX_VERSION: *value = f->module->arch; break;
    case CU_FUNC_ATTRIBUTE_BINARY_VERSION: *value = f->module->from_ptx ? kDeviceArch : f->module->arch; break;
    case CU_FUNC_ATTRIBUTE_CACHE_MODE_CA: *value = 0; break;
    case CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES: *value = f->max_dynamic_shared; break;
    case CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT: *value = f->carveout; break;
    case CU_FUNC_ATTRIBUTE_CLUSTER_SIZE_MUST_BE_SET:
    case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH:
    case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_HEIGHT:
    case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_DEPTH:
    case CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED:
    case CU_FUNC_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE:
      *value = 0;
      break;
    default:
      return CUDA_ERROR_INVALID_VALUE;
  }
  return CUDA_SUCCESS;
}
FAKE_EXPORT(cuFuncGetAttribute, 2020)

CUresult CUDAAPI cuFuncSetAttribute(CUfunction hfunc, CUfunction_attribute attrib, int value) {
  FAKE_ENTER(cuFuncSetAttribute);
  std::lock_guard<std::recursive_mutex> g(lock());
  Function* f = live_function(hfunc);
  if (!f) return CUDA_ERROR_INVALID_HANDLE;
  switch (attrib) {
    case CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES:
      if (value < 0 || value > kSharedPerBlockOptin - static_cast<int>(f->kernel.static_shared))
        return CUDA_ERROR_INVALID_VALUE;
      f->max_dynamic_shared = value;
      return CUDA_SUCCESS;
    case CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT:
      if (value < -1 || value > 100) return CUDA_ERROR_INVALID_VALUE;
      f->carveout = value;
      return CUDA_SUCCESS;
    case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH:
    case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_HEIGHT:
    case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_DEPTH:
    case CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED:
    case CU_FUNC_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE:
      return CUDA_SUCCESS;
    default:
      return CUDA_ERROR_INVALID_VALUE;  // read-only or unknown
  }
}
FAKE_EXPORT(cuFuncSetAttribute, 9000)

CUresult CUDAAPI cuFuncSetCacheConfig(CUfunction hfunc, CUfunc_cache config) {
  FAKE_ENTER(cuFuncSetCacheConfig);
  std::lock_guard<std::recursive_mutex> g(lock());
  Function* f = live_function(hfunc);
  if (!f) return CUDA_ERROR_INVALID_HANDLE;
  if (config < CU_FUNC_CACHE_PREFER_NONE || config > CU_FUNC_CACHE_PREFER_EQUAL) return CUDA_ERROR_INVALID_VALUE;
  f->cache_config = config;
  return CUDA_SUCCESS;
}
FAKE_EXPORT(cuFuncSetCacheConfig, 3000)
