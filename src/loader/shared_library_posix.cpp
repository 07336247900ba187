// shared_library.h on Linux and other POSIX systems: dlopen, dlsym, dladdr.
#if !defined(_WIN32)

#include "loader/shared_library.h"

#include <dlfcn.h>
#include <unistd.h>

#include <climits>
#include <cstdlib>

namespace dc {

void* open_shared_library(const std::string& path, std::string* error) {
  void* library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!library && error) {
    const char* why = dlerror();
    *error = why ? why : "unknown error";
  }
  return library;
}

void* find_shared_library_symbol(void* library, const char* name) { return dlsym(library, name); }

std::string dccuda_library_folder() {
  // Any function of the library names the file it was loaded from.
  Dl_info info{};
  if (!dladdr(reinterpret_cast<void*>(&dccuda_library_folder), &info) || !info.dli_fname) return {};
  std::string file = info.dli_fname;
  size_t slash = file.rfind('/');
  if (slash == std::string::npos) return {};
  std::string folder = slash == 0 ? "/" : file.substr(0, slash);
  if (folder[0] != '/') {
    // Loaded through a relative path: relative to the working directory.
    char cwd[PATH_MAX];
    if (!getcwd(cwd, sizeof cwd)) return {};
    folder = std::string(cwd) + "/" + folder;
  }
  return folder;
}

std::string path_in_folder(const std::string& folder, const std::string& name) {
  if (!folder.empty() && folder.back() == '/') return folder + name;
  return folder + "/" + name;
}

std::string loaded_library_file(const void* address) {
  Dl_info info{};
  if (!address || !dladdr(address, &info) || !info.dli_fname) return {};
  char resolved[PATH_MAX];
  if (!::realpath(info.dli_fname, resolved)) return {};
  return resolved;
}

const char* default_driver_library() { return "libcuda.so.1"; }

const char* default_nvml_library() { return "libnvidia-ml.so.1"; }

std::vector<std::string> nvrtc_file_names() { return {"libnvrtc.so.13", "libnvrtc.so.12"}; }

std::vector<std::string> nvjitlink_file_names() { return {"libnvJitLink.so.13", "libnvJitLink.so.12"}; }

std::vector<std::string> cufft_file_names() { return {"libcufft.so.12", "libcufft.so.11"}; }

std::vector<std::string> toolkit_nvrtc_folders(const std::string& cuda_home, const std::string& cuda_path) {
  std::vector<std::string> out;
  for (const std::string& root : {cuda_home, cuda_path})
    if (!root.empty()) out.push_back(root + "/lib64");
  out.push_back("/usr/local/cuda/lib64");
  return out;
}

}  // namespace dc

#endif  // !_WIN32
