#include "compile/cache_directory.h"

#include <fcntl.h>
#include <sys/stat.h>

#include <cerrno>

#include "core/config.h"

namespace dc {
namespace {

std::string resolve_directory() {
  const Config& c = config();
  if (c.flags & DC_INIT_NO_DISK_CACHE) return {};
  std::string dir;
  if (!c.cache_dir.empty()) {
    dir = c.cache_dir;
  } else if (!c.xdg_cache_home.empty()) {
    dir = c.xdg_cache_home + "/dccuda";
  } else if (!c.home.empty()) {
    dir = c.home + "/.cache/dccuda";
  } else {
    return {};  // nowhere to keep it
  }
  while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
  return dir;
}

// mkdir -p, private to the user for the parts it creates.
bool make_directories(const std::string& path) {
  struct stat st;
  if (::stat(path.c_str(), &st) == 0) return S_ISDIR(st.st_mode);
  size_t slash = path.rfind('/');
  if (slash != std::string::npos && slash > 0 && !make_directories(path.substr(0, slash))) return false;
  return ::mkdir(path.c_str(), 0700) == 0 || errno == EEXIST;
}

platform::UniqueFd open_directory(const std::string& path) {
  return platform::UniqueFd(::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
}

}  // namespace

const std::string& disk_cache_directory() {
  static const std::string* dir = new std::string(resolve_directory());
  return *dir;
}

platform::UniqueFd open_cache_directory(bool create) {
  const std::string& dir = disk_cache_directory();
  if (dir.empty()) return {};
  platform::UniqueFd fd = open_directory(dir);
  if (!fd && errno == ENOENT && create && make_directories(dir)) fd = open_directory(dir);
  return fd;
}

}  // namespace dc
