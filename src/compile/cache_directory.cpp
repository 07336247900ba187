#include "compile/cache_directory.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>

#include "core/config.h"
#include "platform/private_files.h"

namespace dc {
namespace {

// A shared cache's key: at least 256 bits.
constexpr size_t kMinKeyBytes = 32;
constexpr size_t kMaxKeyBytes = 4096;

struct CacheDirectory {
  std::string path;     // "" when off or refused
  std::string warning;  // why the configured one is not used
  std::string mac_key;  // "" for a private cache
  platform::DirectoryRule rule = platform::DirectoryRule::kPrivate;
};

std::string chosen_path(const Config& c) {
  std::string dir;
  if (!c.cache_dir.empty()) {
    dir = c.cache_dir;
#if defined(_WIN32)
  } else if (!c.local_app_data.empty()) {
    // Windows keeps a user's machine-local caches under %LOCALAPPDATA%
    // (not the roaming profile): %LOCALAPPDATA%\dccuda\kernels.
    dir = c.local_app_data + "\\dccuda\\kernels";
#else
  } else if (!c.xdg_cache_home.empty()) {
    dir = c.xdg_cache_home + "/dccuda";
  } else if (!c.home.empty()) {
    dir = c.home + "/.cache/dccuda";
#endif
  } else {
    return {};  // nowhere to keep it
  }
#if defined(_WIN32)
  while (dir.size() > 3 && (dir.back() == '/' || dir.back() == '\\')) dir.pop_back();
#else
  while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
#endif
  return dir;
}

CacheDirectory refused(const std::string& what) {
  CacheDirectory d;
  d.warning = "kernel cache: " + what +
              "; the disk cache is off. Whoever can write the cache chooses the code dc_compile returns: use a "
              "directory of your own (DCCUDA_CACHE_DIR, dc_init's cache_dir), or share one deliberately with "
              "DCCUDA_CACHE_KEY_FILE";
  return d;
}

CacheDirectory resolve() {
  const Config& c = config();
  if (c.flags & DC_INIT_NO_DISK_CACHE) return {};
  CacheDirectory d;
  d.path = chosen_path(c);
  if (d.path.empty()) return {};
  if (!c.cache_key_file.empty()) {
    std::string problem = platform::read_private_key_file(c.cache_key_file, kMinKeyBytes, kMaxKeyBytes, &d.mac_key);
    if (!problem.empty()) return refused("the shared cache's key file is not used: " + problem);
    d.rule = platform::DirectoryRule::kShared;
  }
  platform::UniqueFd fd = platform::open_directory(d.path);
  if (!fd && errno == ENOENT) {
    std::string problem = platform::make_private_directories(d.path);
    if (!problem.empty()) return refused(d.path + " is not used: " + problem);
    fd = platform::open_directory(d.path);
  }
  if (!fd) return refused(d.path + " cannot be opened: " + std::strerror(errno));
  std::string problem = platform::open_directory_problem(fd.get(), d.rule);
  if (!problem.empty()) return refused(d.path + " is not used: " + problem);
  return d;
}

const CacheDirectory& cache_directory() {
  static const CacheDirectory* d = new CacheDirectory(resolve());  // a failure to read the settings retries
  return *d;
}

}  // namespace

const std::string& disk_cache_directory() { return cache_directory().path; }

const std::string& disk_cache_warning() { return cache_directory().warning; }

const std::string& disk_cache_mac_key() { return cache_directory().mac_key; }

mode_t disk_cache_file_mode() { return cache_directory().mac_key.empty() ? 0600 : 0640; }

bool disk_cache_file_trusted(const struct stat& st) {
  if (!cache_directory().mac_key.empty()) return true;  // authenticated entry by entry
  return platform::file_is_private(st);
}

platform::UniqueFd open_cache_directory(bool create) {
  const CacheDirectory& d = cache_directory();
  if (d.path.empty()) return {};
  platform::UniqueFd fd = platform::open_directory(d.path);
  if (!fd && errno == ENOENT && create && platform::make_private_directories(d.path).empty())
    fd = platform::open_directory(d.path);
  if (!fd || !platform::open_directory_problem(fd.get(), d.rule).empty()) return {};
  return fd;
}

}  // namespace dc
