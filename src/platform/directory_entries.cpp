// directory_entries.h on Linux and other POSIX systems (directory_entries_windows.cpp on Windows).
#if !defined(_WIN32)

#include "platform/directory_entries.h"

#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

namespace dc::platform {

std::vector<std::string> directory_names(int dir_fd) {
  std::vector<std::string> names;
  // A second descriptor is read, so that `dir_fd` stays usable.
  int fd = ::dup(dir_fd);
  if (fd < 0) return names;
  DIR* d = ::fdopendir(fd);
  if (!d) {
    ::close(fd);
    return names;
  }
  ::rewinddir(d);
  while (struct dirent* e = ::readdir(d)) names.emplace_back(e->d_name);
  ::closedir(d);
  return names;
}

bool stat_no_follow(int dir_fd, const std::string& name, struct stat* st) noexcept {
  return ::fstatat(dir_fd, name.c_str(), st, AT_SYMLINK_NOFOLLOW) == 0;
}

bool remove_file_at(int dir_fd, const std::string& name) noexcept { return ::unlinkat(dir_fd, name.c_str(), 0) == 0; }

void touch(int fd) noexcept { ::futimens(fd, nullptr); }

}  // namespace dc::platform

#endif  // !_WIN32
