// atomic_file.h on Linux and other POSIX systems (atomic_file_windows.cpp on Windows).
#if !defined(_WIN32)

#include "platform/atomic_file.h"

#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include <cerrno>

namespace dc::platform {
namespace {

bool write_all(int fd, const unsigned char* p, size_t n) noexcept {
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

}  // namespace

bool write_file_atomically(int dir_fd, const std::string& name, const std::string& temp_name, const void* data,
                           size_t size, bool durable, mode_t mode) noexcept {
  int fd = ::openat(dir_fd, temp_name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
  if (fd < 0) return false;
  bool ok = write_all(fd, static_cast<const unsigned char*>(data), size) && (!durable || ::fsync(fd) == 0);
  ok = (::close(fd) == 0) && ok;
  if (!ok || ::renameat(dir_fd, temp_name.c_str(), dir_fd, name.c_str()) != 0) {
    ::unlinkat(dir_fd, temp_name.c_str(), 0);
    return false;
  }
  if (durable) ::fsync(dir_fd);  // the rename itself
  return true;
}

}  // namespace dc::platform

#endif  // !_WIN32
