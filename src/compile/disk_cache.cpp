#include "compile/disk_cache.h"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <vector>

#include "compile/cache_entry.h"
#include "compile/cache_files.h"
#include "compile/memory_cache.h"
#include "core/error.h"
#include "platform/atomic_file.h"
#include "platform/directory_entries.h"
#include "platform/path_facts.h"
#include "platform/regular_file.h"

namespace dc {
namespace {

// A temporary file this old belongs to a writer that died.
constexpr time_t kStaleTempSeconds = 3600;

struct DirEntry {
  std::string name;
  off_t size;
  int64_t mtime_ns;
};

// Deletes the least recently used entries until the directory fits the
// limit; the entry just written is kept. Also removes temporary files left
// by writers that died. Only dccuda's own files are deleted or counted.
void evict(int dir_fd, const std::string& keep) {
  std::vector<DirEntry> entries;
  uint64_t total = 0;
  time_t now = ::time(nullptr);
  for (const std::string& name : platform::directory_names(dir_fd)) {
    CacheFileKind kind = cache_file_kind(name);
    if (kind != CacheFileKind::kEntry && kind != CacheFileKind::kTemp && kind != CacheFileKind::kLock) continue;
    struct stat st;
    if (!platform::stat_no_follow(dir_fd, name, &st) || !S_ISREG(st.st_mode)) continue;
    if (kind == CacheFileKind::kTemp) {
      if (now - st.st_mtime > kStaleTempSeconds && is_own_cache_file(dir_fd, name, st))
        platform::remove_file_at(dir_fd, name);
      continue;
    }
    if (kind == CacheFileKind::kLock) {
      // Left by a holder that died: removed once nobody holds it.
      if (now - st.st_mtime > kStaleTempSeconds && is_own_cache_file(dir_fd, name, st)) {
        platform::FileLock::Outcome outcome;
        platform::FileLock stale =
            platform::FileLock::acquire(dir_fd, name, disk_cache_file_mode(), std::chrono::milliseconds(0), &outcome);
        if (stale.held()) stale.remove_and_release(dir_fd, name);
      }
      continue;
    }
    total += static_cast<uint64_t>(st.st_size);
    if (name != keep) entries.push_back({name, st.st_size, platform::modification_time_ns(st)});
  }
  uint64_t limit = cache_max_bytes();
  if (total <= limit) return;
  std::sort(entries.begin(), entries.end(),
            [](const DirEntry& a, const DirEntry& b) { return a.mtime_ns < b.mtime_ns; });
  for (const DirEntry& e : entries) {
    if (total <= limit) break;
    struct stat st;
    // Only an entry of dccuda's is deleted; anything else named like one is
    // left alone and not counted.
    if (platform::stat_no_follow(dir_fd, e.name, &st) && is_own_cache_file(dir_fd, e.name, st)) {
      if (!platform::remove_file_at(dir_fd, e.name) && errno != ENOENT) continue;
    }
    total -= static_cast<uint64_t>(e.size);
  }
}

}  // namespace

std::shared_ptr<const CompiledOutput> disk_cache_load(const CacheKey& key) {
  platform::UniqueFd dir = open_cache_directory(false);
  if (!dir) return nullptr;
  platform::RegularFile file;
  std::string name = entry_file_name(key.hex);
  if (platform::open_regular_file(dir.get(), name.c_str(), false, &file, nullptr) != platform::OpenResult::kOk ||
      !disk_cache_file_trusted(file.st))
    return nullptr;
  // The header first: a huge, truncated or foreign file is refused unread.
  uint64_t size = file.file_size();
  std::vector<uint8_t> bytes(kCacheEntryHeaderSize);
  std::string why;
  if (size < kCacheEntryHeaderSize || !platform::read_exactly(file.fd.get(), bytes.data(), bytes.size()) ||
      !cache_entry_header_fits(bytes.data(), size, key.digest, cache_max_bytes(), &why, disk_cache_mac_key()))
    return nullptr;
  bytes.resize(static_cast<size_t>(size));
  if (!platform::read_exactly(file.fd.get(), bytes.data() + kCacheEntryHeaderSize, bytes.size() - kCacheEntryHeaderSize))
    return nullptr;
  std::shared_ptr<const CompiledOutput> out =
      decode_cache_entry(bytes.data(), bytes.size(), key.digest, &why, disk_cache_mac_key());
  // A hit is a use: refresh the time the eviction goes by.
  if (out) platform::touch(file.fd.get());
  return out;
}

void disk_cache_store(const CacheKey& key, const CompiledOutput& output) {
  std::vector<uint8_t> bytes = encode_cache_entry(key.digest, output, disk_cache_mac_key());
  if (bytes.size() > cache_max_bytes()) return;
  platform::UniqueFd dir = open_cache_directory(true);
  if (!dir) return;
  std::string name = entry_file_name(key.hex);
  if (platform::write_file_atomically(dir.get(), name, temp_file_name(name), bytes.data(), bytes.size(), true,
                                      disk_cache_file_mode()))
    evict(dir.get(), name);
}

void DiskEntryLock::release() noexcept {
  if (lock_.held()) lock_.remove_and_release(dir_.get(), name_);
  dir_ = platform::UniqueFd();
}

DiskEntryLock disk_cache_lock_entry(const CacheKey& key) {
  DiskEntryLock l;
  l.dir_ = open_cache_directory(true);
  if (!l.dir_) return l;
  l.name_ = lock_file_name(key.hex);
  platform::FileLock::Outcome outcome;
  l.lock_ = platform::FileLock::acquire(l.dir_.get(), l.name_, disk_cache_file_mode(), kEntryLockWait, &outcome);
  // Timed out or failed: compile without the lock (the worst case is the
  // old one, every process compiling); waited: the holder's entry is there.
  l.waited_ = outcome == platform::FileLock::Outcome::kAcquiredLater || outcome == platform::FileLock::Outcome::kTimedOut;
  return l;
}

bool disk_cache_read_small_file(const std::string& name, size_t max_bytes, std::string* contents) {
  platform::UniqueFd dir = open_cache_directory(false);
  if (!dir) return false;
  platform::RegularFile file;
  if (platform::open_regular_file(dir.get(), name.c_str(), false, &file, nullptr) != platform::OpenResult::kOk ||
      !disk_cache_file_trusted(file.st) || file.file_size() > max_bytes)
    return false;
  contents->resize(static_cast<size_t>(file.file_size()));
  return platform::read_exactly(file.fd.get(), contents->data(), contents->size());
}

bool disk_cache_write_small_file(const std::string& name, const std::string& contents) {
  platform::UniqueFd dir = open_cache_directory(true);
  return dir && platform::write_file_atomically(dir.get(), name, temp_file_name(name), contents.data(),
                                                contents.size(), false, disk_cache_file_mode());
}

void disk_cache_clear() {
  const std::string& path = disk_cache_directory();
  if (path.empty()) return;
  platform::UniqueFd dir = open_cache_directory(false);
  if (!dir) {
    if (errno == ENOENT) return;
    fail(DC_ERROR_IO, "cannot open the cache directory %s: %s", path.c_str(), std::strerror(errno));
  }
  std::string first_error;
  for (const std::string& name : platform::directory_names(dir.get())) {
    // Only dccuda's own files: the directory may be shared with other things.
    if (cache_file_kind(name) == CacheFileKind::kNone) continue;
    struct stat st;
    if (!platform::stat_no_follow(dir.get(), name, &st) || !is_own_cache_file(dir.get(), name, st)) continue;
    if (!platform::remove_file_at(dir.get(), name) && errno != ENOENT && first_error.empty())
      first_error = path + "/" + name + ": " + std::strerror(errno);
  }
  if (!first_error.empty())
    fail(DC_ERROR_IO, "cannot delete cache entry %s; check the directory's permissions", first_error.c_str());
}

}  // namespace dc
