// The operating system's part of the loaders: opening a shared library,
// finding a symbol in it, and the folder dccuda itself was loaded from. One
// implementation file per system (shared_library_posix.cpp); the rest of the
// library calls only these.
#pragma once

#include <string>

namespace dc {

// Opens the library at `path` (a bare file name is looked up the system's
// way), binding every symbol now and keeping them out of the global scope.
// nullptr on failure, with the system's reason in *error.
void* open_shared_library(const std::string& path, std::string* error);

// The address of `name` in a library opened by open_shared_library, or nullptr.
void* find_shared_library_symbol(void* library, const char* name);

// The folder that holds the loaded dccuda library (libdccuda.so.1; the
// executable when dccuda is linked statically), without a trailing separator;
// empty if the system cannot say. A package puts NVRTC there (NuGet's
// runtimes/<rid>/native), so it is searched first (loader/nvrtc.cpp).
std::string dccuda_library_folder();

// `folder` joined with the file name `name` by the system's separator.
std::string path_in_folder(const std::string& folder, const std::string& name);

}  // namespace dc
