// The fake driver's context-independent libraries (a test double, never a
// GPU): cuLibraryLoadData parses the image once and keeps it; a kernel's
// cuKernelGetFunction loads the image as a module of the calling thread's
// context the first time that context asks (as the real driver loads lazily),
// so each device gets its own functions. A context reset drops those modules
// (fake_module.cpp's hook); the next request loads them again.
#include <algorithm>
#include <cstring>
#include <map>
#include <memory>
#include <set>
#include <string>

#include "fake.h"
#include "fake_image.h"
#include "fake_module.h"

namespace fake {
namespace {

struct Library;

struct Kernel {
  Library* library = nullptr;
  std::string name;
};

struct Library {
  ParsedImage parsed;
  std::vector<std::unique_ptr<Kernel>> kernels;
  std::map<Context*, CUmodule> loaded;  // the per-context modules
};

std::set<Library*>& libraries() {
  static auto* s = new std::set<Library*>;
  return *s;
}
std::set<Kernel*>& kernels() {
  static auto* s = new std::set<Kernel*>;
  return *s;
}

Library* live_library(CUlibrary h) {
  Library* l = reinterpret_cast<Library*>(h);
  return libraries().count(l) ? l : nullptr;
}
Kernel* live_kernel(CUkernel h) {
  Kernel* k = reinterpret_cast<Kernel*>(h);
  return kernels().count(k) ? k : nullptr;
}

// A reset context's modules are dropped by fake_module.cpp's hook; forget them
// here so that the next request loads the library into the new context.
void forget_context(Context* c) {
  for (Library* l : libraries()) l->loaded.erase(c);
}
ResetHook g_reset_hook(forget_context);

}  // namespace
}  // namespace fake

using namespace fake;

CUresult CUDAAPI cuLibraryLoadData(CUlibrary* library, const void* code, CUjit_option* jitOptions,
                                   void** jitOptionsValues, unsigned int numJitOptions, CUlibraryOption* libraryOptions,
                                   void** libraryOptionValues, unsigned int numLibraryOptions) {
  FAKE_ENTER(cuLibraryLoadData);
  if (!initialised()) return CUDA_ERROR_NOT_INITIALIZED;
  if (!library || !code || (numJitOptions && (!jitOptions || !jitOptionsValues)) ||
      (numLibraryOptions && (!libraryOptions || !libraryOptionValues)))
    return CUDA_ERROR_INVALID_VALUE;
  *library = nullptr;
  char* error_log = nullptr;
  size_t error_size = 0;
  for (unsigned i = 0; i < numJitOptions; ++i) {
    if (jitOptions[i] >= CU_JIT_NUM_OPTIONS) return CUDA_ERROR_INVALID_VALUE;
    if (jitOptions[i] == CU_JIT_ERROR_LOG_BUFFER) error_log = static_cast<char*>(jitOptionsValues[i]);
    if (jitOptions[i] == CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES)
      error_size = reinterpret_cast<uintptr_t>(jitOptionsValues[i]);
  }
  std::lock_guard<std::recursive_mutex> g(lock());
  ParsedImage parsed = parse_image(code, kFakeDeviceArch, fake_max_ptx_isa());
  if (!parsed.ok) {
    if (error_log && error_size) {
      size_t n = std::min(error_size - 1, parsed.log.size());
      std::memcpy(error_log, parsed.log.data(), n);
      error_log[n] = '\0';
    }
    return static_cast<CUresult>(parsed.result);
  }
  auto* l = new Library;
  for (const ImageKernel& k : parsed.kernels) {
    auto kernel = std::make_unique<Kernel>();
    kernel->library = l;
    kernel->name = k.name;
    kernels().insert(kernel.get());
    l->kernels.push_back(std::move(kernel));
  }
  l->parsed = std::move(parsed);
  libraries().insert(l);
  live_add("libraries", 1);
  *library = reinterpret_cast<CUlibrary>(l);
  return CUDA_SUCCESS;
}
FAKE_EXPORT(cuLibraryLoadData, 12000)

CUresult CUDAAPI cuLibraryUnload(CUlibrary library) {
  FAKE_ENTER(cuLibraryUnload);
  std::lock_guard<std::recursive_mutex> g(lock());
  Library* l = live_library(library);
  if (!l) return CUDA_ERROR_INVALID_HANDLE;
  for (auto& [context, module] : l->loaded) unload_module(module);
  for (auto& k : l->kernels) kernels().erase(k.get());
  libraries().erase(l);
  live_add("libraries", -1);
  delete l;
  return CUDA_SUCCESS;
}
FAKE_EXPORT(cuLibraryUnload, 12000)

CUresult CUDAAPI cuLibraryGetKernel(CUkernel* pKernel, CUlibrary library, const char* name) {
  FAKE_ENTER(cuLibraryGetKernel);
  if (!pKernel || !name) return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard<std::recursive_mutex> g(lock());
  Library* l = live_library(library);
  if (!l) return CUDA_ERROR_INVALID_HANDLE;
  for (auto& k : l->kernels)
    if (k->name == name) {
      *pKernel = reinterpret_cast<CUkernel>(k.get());
      return CUDA_SUCCESS;
    }
  return CUDA_ERROR_NOT_FOUND;
}
FAKE_EXPORT(cuLibraryGetKernel, 12000)

CUresult CUDAAPI cuKernelGetFunction(CUfunction* pFunc, CUkernel kernel) {
  FAKE_ENTER(cuKernelGetFunction);
  FAKE_REQUIRE_CONTEXT();
  if (!pFunc) return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard<std::recursive_mutex> g(lock());
  Kernel* k = live_kernel(kernel);
  if (!k) return CUDA_ERROR_INVALID_HANDLE;
  Library* l = k->library;
  Context* c = current_context();
  auto it = l->loaded.find(c);
  if (it == l->loaded.end()) {
    // Loaded lazily into this context (again, after a reset dropped it).
    l->loaded[c] = load_module(l->parsed, c);
    it = l->loaded.find(c);
  }
  *pFunc = module_function(it->second, k->name.c_str());
  return *pFunc ? CUDA_SUCCESS : CUDA_ERROR_NOT_FOUND;
}
FAKE_EXPORT(cuKernelGetFunction, 12000)

CUresult CUDAAPI cuKernelGetName(const char** name, CUkernel kernel) {
  FAKE_ENTER(cuKernelGetName);
  if (!name) return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard<std::recursive_mutex> g(lock());
  Kernel* k = live_kernel(kernel);
  if (!k) return CUDA_ERROR_INVALID_HANDLE;
  *name = k->name.c_str();
  return CUDA_SUCCESS;
}
FAKE_EXPORT(cuKernelGetName, 12030)

CUresult CUDAAPI cuLibraryGetKernelCount(unsigned int* count, CUlibrary library) {
  FAKE_ENTER(cuLibraryGetKernelCount);
  if (!count) return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard<std::recursive_mutex> g(lock());
  Library* l = live_library(library);
  if (!l) return CUDA_ERROR_INVALID_HANDLE;
  *count = static_cast<unsigned int>(l->kernels.size());
  return CUDA_SUCCESS;
}
FAKE_EXPORT(cuLibraryGetKernelCount, 12040)

CUresult CUDAAPI cuLibraryEnumerateKernels(CUkernel* out, unsigned int numKernels, CUlibrary library) {
  FAKE_ENTER(cuLibraryEnumerateKernels);
  if (!out) return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard<std::recursive_mutex> g(lock());
  Library* l = live_library(library);
  if (!l) return CUDA_ERROR_INVALID_HANDLE;
  if (numKernels != l->kernels.size()) return CUDA_ERROR_INVALID_VALUE;
  for (unsigned i = 0; i < numKernels; ++i) out[i] = reinterpret_cast<CUkernel>(l->kernels[i].get());
  return CUDA_SUCCESS;
}
FAKE_EXPORT(cuLibraryEnumerateKernels, 12040)
