// Ownership and permission rules for what decides the code dccuda runs: the
// kernel cache directory and the key of a shared cache. Whoever can write
// the cache directory chooses what dc_compile returns as a cache hit, so a
// directory is trusted only if it is owned by this process's effective user
// and nobody else may write it (the rule pip applies to its cache); the
// directories dccuda creates are made 0700. POSIX here; a Windows branch
// (owner SID and ACL) goes beside it.
#pragma once

#include <sys/stat.h>

#include <cstddef>
#include <string>

#include "platform/regular_file.h"

namespace dc::platform {

enum class DirectoryRule {
  kPrivate,  // owned by the effective user; not writable by group or others
  kShared,   // any owner, writable by its group; not by others (entries are authenticated)
};

// "" when the directory whose fstat is `st` passes `rule`, else what is wrong
// ("it is owned by uid 1001 (alice), not by this process's effective user,
// uid 1000 (bob)", "it is writable by its group (mode 0775)", ...).
std::string directory_problem(const struct stat& st, DirectoryRule rule);

// The same for an open directory, judged by fstat on its descriptor (what
// it is now, whatever its path points to).
std::string open_directory_problem(int dir_fd, DirectoryRule rule);

// Whether a file (its fstat) is owned by the effective user and writable by
// nobody else.
bool file_is_private(const struct stat& st) noexcept;

// mkdir -p `path`, each directory it creates 0700. A directory it creates
// (or finds made in its place meanwhile by someone else) must pass
// kPrivate. Returns "" or what is wrong.
std::string make_private_directories(const std::string& path);

// Opens a directory (following links: the directory is judged by what it
// is, with fstat on the descriptor). Invalid on failure, with errno set.
UniqueFd open_directory(const std::string& path) noexcept;

// Reads a secret key from `path`: a regular file owned by the effective user
// that neither group nor others may read or write, of `min_bytes` to
// `max_bytes`. Returns "" (and the key) or what is wrong.
std::string read_private_key_file(const std::string& path, size_t min_bytes, size_t max_bytes, std::string* key);

}  // namespace dc::platform
