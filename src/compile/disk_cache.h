// The on-disk kernel cache: one file per entry, `<dir>/<sha256>.dcc`.
//
// Writes are atomic (platform/atomic_file.h): a reader sees no file or a
// complete one, and processes writing the same entry at once each replace it
// whole. Every file is opened without blocking and without following links,
// must be a regular file, and is judged by its header (cache_entry.h) before
// its payload is read: a FIFO, a link, a huge, truncated, corrupt or foreign
// file is a miss, replaced by the next store. The total size is kept under
// the limit by deleting the least recently used entries (a hit refreshes the
// file's modification time); eviction and dc_cache_clear delete only files
// recognised as dccuda's by exact name and contents (cache_files.h). Failures
// to write never fail a compile.
#pragma once

#include <chrono>
#include <memory>
#include <string>

#include "compile/cache_directory.h"
#include "compile/cache_key.h"
#include "compile/program.h"
#include "platform/file_lock.h"

namespace dc {

// The cached output for `key`, or nullptr on a miss or a bad file.
std::shared_ptr<const CompiledOutput> disk_cache_load(const CacheKey& key);

// Stores `output` under `key`; silently does nothing if it cannot.
void disk_cache_store(const CacheKey& key, const CompiledOutput& output);

// Held by the process that compiles `key`: other processes that miss the
// same key wait for it (single flight across processes; single_flight.h does
// it within one), then find the entry on disk. An advisory lock on
// `<key>.lock` in the cache directory (platform/file_lock.h): released by
// the kernel if the holder dies; a waiter gives a live holder at most
// kEntryLockWait, then compiles itself. Without a disk cache it holds nothing.
class DiskEntryLock {
 public:
  DiskEntryLock() noexcept = default;
  DiskEntryLock(DiskEntryLock&&) noexcept = default;
  DiskEntryLock& operator=(DiskEntryLock&&) noexcept = default;
  ~DiskEntryLock() { release(); }
  // Another process held the lock first: look in the cache again.
  bool waited() const noexcept { return waited_; }
  // The entry is stored (or will not be): removes the lock file, releases.
  void release() noexcept;

 private:
  friend DiskEntryLock disk_cache_lock_entry(const CacheKey& key);
  platform::UniqueFd dir_;
  platform::FileLock lock_;
  std::string name_;
  bool waited_ = false;
};

// A compile takes tens of milliseconds to seconds; a holder that keeps the
// lock longer than this is taken for stuck (or stopped), and the waiter
// compiles itself.
inline constexpr std::chrono::seconds kEntryLockWait{60};

DiskEntryLock disk_cache_lock_entry(const CacheKey& key);

// Deletes every entry, memo and left-over temporary or lock file of
// dccuda's. Fails with DC_ERROR_IO.
void disk_cache_clear();

// A small file of the cache directory (the NVRTC memo): its contents if it is
// a regular file of at most `max_bytes`, else false.
bool disk_cache_read_small_file(const std::string& name, size_t max_bytes, std::string* contents);

// Writes a small file of the cache directory whole (not flushed: losing it is
// harmless). False if it cannot.
bool disk_cache_write_small_file(const std::string& name, const std::string& contents);

}  // namespace dc
