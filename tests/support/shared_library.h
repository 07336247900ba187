// The tests' own access to loaded libraries (the fake driver's controls, a
// driver entry point called directly): dlopen/dlsym, or on Windows
// LoadLibraryExA/GetModuleHandleA/GetProcAddress. Test paths are ASCII.
#pragma once

#if defined(_WIN32)
#include <windows.h>
#else
#include <dlfcn.h>
#endif

namespace dctest {

// Opens (or finds already open) the library at `path`; nullptr if it cannot.
inline void* open_library(const char* path) {
#if defined(_WIN32)
  return reinterpret_cast<void*>(::LoadLibraryExA(path, nullptr, LOAD_WITH_ALTERED_SEARCH_PATH));
#else
  return dlopen(path, RTLD_NOW | RTLD_LOCAL);
#endif
}

// The library at `path` if this process has loaded it already (RTLD_NOLOAD);
// never loads it.
inline void* loaded_library(const char* path) {
#if defined(_WIN32)
  return reinterpret_cast<void*>(::GetModuleHandleA(path));
#else
  return dlopen(path, RTLD_NOW | RTLD_NOLOAD);
#endif
}

inline void* library_symbol(void* library, const char* name) {
#if defined(_WIN32)
  return reinterpret_cast<void*>(::GetProcAddress(static_cast<HMODULE>(library), name));
#else
  return dlsym(library, name);
#endif
}

}  // namespace dctest
