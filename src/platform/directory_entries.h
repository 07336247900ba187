// Working inside a directory already open (its descriptor): listing it, and
// examining, removing and touching its files without following links. The
// kernel cache uses these so that a path swapped under an operation never
// redirects it. POSIX here; a Windows branch goes beside it.
#pragma once

#include <sys/stat.h>

#include <string>
#include <vector>

namespace dc::platform {

// The names in the directory (empty if it cannot be read).
std::vector<std::string> directory_names(int dir_fd);

// lstat of `name` in the directory: a link is described, not followed.
bool stat_no_follow(int dir_fd, const std::string& name, struct stat* st) noexcept;

// Removes the file `name` (a link is removed, never its target). False with
// errno set on failure.
bool remove_file_at(int dir_fd, const std::string& name) noexcept;

// Sets an open file's modification time to now (the kernel cache's "recently
// used").
void touch(int fd) noexcept;

}  // namespace dc::platform
