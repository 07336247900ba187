#include "compile/toolkit.h"

#include <algorithm>

#include "core/config.h"
#include "core/error.h"
#include "loader/nvrtc.h"
#include "loader/shared_library.h"
#include "platform/path_facts.h"

namespace dc {
namespace {

#if defined(_WIN32)
constexpr const char* kSeparators = "/\\";
#else
constexpr const char* kSeparators = "/";
#endif

// The folder holding `path` ("" for a bare name).
std::string parent_of(const std::string& path) {
  size_t end = path.find_last_not_of(kSeparators);
  if (end == std::string::npos) return {};
  size_t cut = path.find_last_of(kSeparators, end);
  if (cut == std::string::npos) return {};
  return cut == 0 ? path.substr(0, 1) : path.substr(0, cut);
}

bool is_file(const std::string& path) {
  platform::PathFacts f;
  return platform::path_facts(path, &f) && f.regular;
}

bool is_directory(const std::string& path) {
  platform::PathFacts f;
  return platform::path_facts(path, &f) && !f.regular;
}

std::string join(const std::string& a, const std::string& b) { return path_in_folder(a, b); }

std::string list(const std::vector<std::string>& items) {
  std::string s;
  for (const std::string& i : items) s += (s.empty() ? "" : ", ") + i;
  return s;
}

}  // namespace

std::vector<std::string> toolkit_roots() {
  const Config& c = config();
  std::vector<std::string> roots;
  auto add = [&](const std::string& r) {
    if (!r.empty() && std::find(roots.begin(), roots.end(), r) == roots.end()) roots.push_back(r);
  };
  add(c.cuda_path);
  add(c.cuda_home);
  // NVRTC lies in <root>/lib64 (a link into <root>/targets/<triple>/lib, whose
  // parent holds include/ and lib/ too); on Windows in <root>\bin or bin\x64.
  for (const std::string& nvrtc : {c.nvrtc_library, nvrtc_loaded_file()}) {
    std::string folder = parent_of(nvrtc);
    if (folder.empty()) continue;
    std::string root = parent_of(folder);
#if defined(_WIN32)
    std::string leaf = folder.substr(root.size());
    if (leaf == "\\x64" || leaf == "/x64") root = parent_of(root);
#endif
    add(root);
  }
#if !defined(_WIN32)
  add("/usr/local/cuda");
#endif
  return roots;
}

std::vector<std::string> toolkit_include_dirs() {
  std::vector<std::string> tried;
  for (const std::string& root : toolkit_roots()) {
    std::string include = join(root, "include");
    std::string marker = join(include, "cooperative_groups.h");
    tried.push_back(marker);
    if (!is_file(marker)) continue;
    std::vector<std::string> dirs{include};
    std::string cccl = join(include, "cccl");
    if (is_directory(cccl)) dirs.push_back(cccl);
    return dirs;
  }
  fail(DC_ERROR_NOT_FOUND, "the CUDA toolkit's headers were not found (tried %s); install the toolkit's headers "
       "(cuda-cudart-dev and cuda-cccl packages, or the full toolkit) or set CUDA_PATH or CUDA_HOME to the toolkit's "
       "folder", tried.empty() ? "no folder: set CUDA_PATH" : list(tried).c_str());
}

std::string toolkit_device_runtime() {
  std::vector<std::string> tried;
  for (const std::string& root : toolkit_roots()) {
#if defined(_WIN32)
    const char* const candidates[] = {"lib\\x64\\cudadevrt.lib"};
#else
    const char* const candidates[] = {"lib64/libcudadevrt.a", "lib/libcudadevrt.a"};
#endif
    for (const char* c : candidates) {
      std::string path = join(root, c);
      tried.push_back(path);
      if (is_file(path)) return path;
    }
  }
  fail(DC_ERROR_NOT_FOUND, "the CUDA device runtime (libcudadevrt) was not found (tried %s); install the toolkit's "
       "cuda-cudart-dev package, set CUDA_PATH or CUDA_HOME to the toolkit's folder, or give the archive's path in "
       "the input's path", tried.empty() ? "no folder: set CUDA_PATH" : list(tried).c_str());
}

}  // namespace dc
