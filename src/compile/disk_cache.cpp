#include "compile/disk_cache.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <vector>

#include "compile/cache_entry.h"
#include "compile/memory_cache.h"
#include "core/config.h"
#include "core/error.h"

namespace dc {
namespace {

constexpr char kSuffix[] = ".dcc";
constexpr char kTempMark[] = ".tmp.";
// A temporary file this old belongs to a writer that died.
constexpr time_t kStaleTempSeconds = 3600;
// Entries larger than this are not real kernels: refuse to read them.
constexpr off_t kMaxEntryBytes = off_t(1) << 31;

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

bool ends_with(const std::string& s, const char* suffix) {
  size_t n = std::strlen(suffix);
  return s.size() >= n && s.compare(s.size() - n, n, suffix) == 0;
}

// The cache's own files: entries, NVRTC memos (nvrtc_identity.h) and the
// temporary files of both. The directory may hold other things.
bool is_entry(const std::string& name) { return ends_with(name, kSuffix); }
bool is_memo(const std::string& name) { return name.rfind("nvrtc-", 0) == 0 && ends_with(name, ".id"); }
bool is_temp(const std::string& name) {
  size_t at = name.find(kTempMark);
  return at != std::string::npos && (is_entry(name.substr(0, at)) || is_memo(name.substr(0, at)));
}

// mkdir -p, private to the user for the parts it creates.
bool make_directories(const std::string& path) {
  struct stat st;
  if (::stat(path.c_str(), &st) == 0) return S_ISDIR(st.st_mode);
  size_t slash = path.rfind('/');
  if (slash != std::string::npos && slash > 0 && !make_directories(path.substr(0, slash))) return false;
  return ::mkdir(path.c_str(), 0700) == 0 || errno == EEXIST;
}

bool write_all(int fd, const uint8_t* p, size_t n) {
  while (n) {
    ssize_t w = ::write(fd, p, n);
    if (w < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    p += w;
    n -= static_cast<size_t>(w);
  }
  return true;
}

bool read_all(int fd, uint8_t* p, size_t n) {
  while (n) {
    ssize_t r = ::read(fd, p, n);
    if (r < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    if (r == 0) return false;  // shrank under us
    p += r;
    n -= static_cast<size_t>(r);
  }
  return true;
}

std::string temp_name(const std::string& final_path) {
  static std::atomic<uint64_t> counter{0};
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return final_path + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(counter.fetch_add(1)) + "." +
         std::to_string(ts.tv_nsec);
}

struct DirEntry {
  std::string path;
  off_t size;
  struct timespec mtime;
};

// Deletes the least recently used entries until the directory fits the
// limit; the entry just written is kept. Also removes temporary files left
// by writers that died.
void evict(const std::string& dir, const std::string& keep) {
  DIR* d = ::opendir(dir.c_str());
  if (!d) return;
  std::vector<DirEntry> entries;
  uint64_t total = 0;
  time_t now = ::time(nullptr);
  while (struct dirent* e = ::readdir(d)) {
    std::string name = e->d_name;
    bool entry = is_entry(name);
    bool temp = is_temp(name);
    if (!entry && !temp) continue;
    std::string path = dir + "/" + name;
    struct stat st;
    if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) continue;
    if (temp) {
      if (now - st.st_mtime > kStaleTempSeconds) ::unlink(path.c_str());
      continue;
    }
    total += static_cast<uint64_t>(st.st_size);
    if (path != keep) entries.push_back({path, st.st_size, st.st_mtim});
  }
  ::closedir(d);
  uint64_t limit = cache_max_bytes();
  if (total <= limit) return;
  std::sort(entries.begin(), entries.end(), [](const DirEntry& a, const DirEntry& b) {
    return a.mtime.tv_sec != b.mtime.tv_sec ? a.mtime.tv_sec < b.mtime.tv_sec : a.mtime.tv_nsec < b.mtime.tv_nsec;
  });
  for (const DirEntry& e : entries) {
    if (total <= limit) break;
    if (::unlink(e.path.c_str()) == 0 || errno == ENOENT) total -= static_cast<uint64_t>(e.size);
  }
}

}  // namespace

const std::string& disk_cache_directory() {
  static const std::string* dir = new std::string(resolve_directory());
  return *dir;
}

std::shared_ptr<const CompiledOutput> disk_cache_load(const CacheKey& key) {
  const std::string& dir = disk_cache_directory();
  if (dir.empty()) return nullptr;
  std::string path = dir + "/" + key.hex + kSuffix;
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return nullptr;
  std::shared_ptr<const CompiledOutput> out;
  struct stat st;
  if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 && st.st_size < kMaxEntryBytes) {
    std::vector<uint8_t> bytes(static_cast<size_t>(st.st_size));
    if (read_all(fd, bytes.data(), bytes.size())) {
      std::string why;
      out = decode_cache_entry(bytes.data(), bytes.size(), key.digest, &why);
      // A hit is a use: refresh the time the eviction goes by.
      if (out) ::futimens(fd, nullptr);
    }
  }
  ::close(fd);
  return out;
}

bool write_file_atomically(const std::string& path, const void* data, size_t size, bool durable) {
  size_t slash = path.rfind('/');
  std::string dir = slash == std::string::npos ? std::string(".") : path.substr(0, slash);
  if (!make_directories(dir)) return false;
  std::string temp = temp_name(path);
  int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) return false;
  bool ok = write_all(fd, static_cast<const uint8_t*>(data), size) && (!durable || ::fsync(fd) == 0);
  ok = (::close(fd) == 0) && ok;
  if (!ok || ::rename(temp.c_str(), path.c_str()) != 0) {
    ::unlink(temp.c_str());
    return false;
  }
  if (durable) {
    // Make the rename itself durable.
    int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd >= 0) {
      ::fsync(dfd);
      ::close(dfd);
    }
  }
  return true;
}

void disk_cache_store(const CacheKey& key, const CompiledOutput& output) {
  const std::string& dir = disk_cache_directory();
  if (dir.empty()) return;
  std::vector<uint8_t> bytes = encode_cache_entry(key.digest, output);
  if (bytes.size() > cache_max_bytes()) return;
  std::string final_path = dir + "/" + key.hex + kSuffix;
  if (write_file_atomically(final_path, bytes.data(), bytes.size(), true)) evict(dir, final_path);
}

void disk_cache_clear() {
  const std::string& dir = disk_cache_directory();
  if (dir.empty()) return;
  DIR* d = ::opendir(dir.c_str());
  if (!d) {
    if (errno == ENOENT) return;
    fail(DC_ERROR_IO, "cannot open the cache directory %s: %s", dir.c_str(), std::strerror(errno));
  }
  std::string first_error;
  while (struct dirent* e = ::readdir(d)) {
    std::string name = e->d_name;
    // Only our own files: the directory may be shared with other things.
    if (!is_entry(name) && !is_memo(name) && !is_temp(name)) continue;
    std::string path = dir + "/" + name;
    if (::unlink(path.c_str()) != 0 && errno != ENOENT && first_error.empty())
      first_error = path + ": " + std::strerror(errno);
  }
  ::closedir(d);
  if (!first_error.empty())
    fail(DC_ERROR_IO, "cannot delete cache entry %s; check the directory's permissions", first_error.c_str());
}

}  // namespace dc
