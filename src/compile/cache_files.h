// The files dccuda keeps in a kernel cache directory, by name, and how a file
// is recognised as dccuda's own before it is deleted: its exact name AND its
// contents (an entry's magic, the memo's first word), as a regular file, not
// a link. The directory may hold other files, or be shared with other
// programs: eviction and dc_cache_clear touch nothing else.
#pragma once

#include <sys/stat.h>

#include <string>
#include <string_view>

namespace dc {

enum class CacheFileKind {
  kNone,   // not a name dccuda gives
  kEntry,  // <64 hex digits>.dcc: a compiled kernel (cache_entry.h)
  kMemo,   // nvrtc-<32 hex digits>.id: which NVRTC an earlier process used (nvrtc_identity.h)
  kTemp,   // <entry or memo name>.tmp.<pid>.<n>.<ns>: a write in progress, or left by a writer that died
  kLock,   // <64 hex digits>.lock: empty; locked by the process compiling that entry (disk_cache.h)
};

// The first bytes of a memo file.
inline constexpr std::string_view kMemoMagic = "dccuda-nvrtc-1 ";

// What `name` would be, by its name alone.
CacheFileKind cache_file_kind(std::string_view name) noexcept;

std::string entry_file_name(const std::string& key_hex);
std::string memo_file_name(const std::string& context_hex);
std::string lock_file_name(const std::string& key_hex);
// A temporary name for writing `final_name`, unique to this writer.
std::string temp_file_name(const std::string& final_name);

// Whether `name` in the directory `dir_fd` (whose lstat is `st`) is a file
// dccuda wrote: a regular file of a kind's exact name whose contents begin
// as that kind's do (a temporary file may also be empty: its writer died
// before writing; a lock file is always empty). Opens the file without
// blocking or following links.
bool is_own_cache_file(int dir_fd, const std::string& name, const struct stat& st) noexcept;

}  // namespace dc
