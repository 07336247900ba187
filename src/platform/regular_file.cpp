// regular_file.h on Linux and other POSIX systems (regular_file_windows.cpp on Windows).
#if !defined(_WIN32)

#include "platform/regular_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <utility>

namespace dc::platform {

UniqueFd& UniqueFd::operator=(UniqueFd&& o) noexcept {
  if (this != &o) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = o.release();
  }
  return *this;
}

UniqueFd::~UniqueFd() {
  if (fd_ >= 0) ::close(fd_);
}

OpenResult open_regular_file(int dir_fd, const char* name, bool follow_links, RegularFile* out, int* error) noexcept {
  int flags = O_RDONLY | O_NONBLOCK | O_CLOEXEC | (follow_links ? 0 : O_NOFOLLOW);
  int fd;
  do {
    fd = ::openat(dir_fd, name, flags);
  } while (fd < 0 && errno == EINTR);
  if (fd < 0) {
    int e = errno;
    if (error) *error = e;
    if (e == ENOENT || e == ENOTDIR) return OpenResult::kNotFound;
    if (e == ELOOP && !follow_links) return OpenResult::kSymlink;
    if (e == ENXIO) return OpenResult::kNotRegular;  // a socket, or a FIFO opened for writing
    return OpenResult::kFailed;
  }
  UniqueFd owned(fd);
  struct stat st;
  if (::fstat(fd, &st) != 0) {
    if (error) *error = errno;
    return OpenResult::kFailed;
  }
  if (S_ISDIR(st.st_mode)) return OpenResult::kDirectory;
  if (!S_ISREG(st.st_mode)) return OpenResult::kNotRegular;
  out->fd = std::move(owned);
  out->st = st;
  return OpenResult::kOk;
}

bool read_exactly(int fd, void* data, size_t n) noexcept {
  auto* p = static_cast<unsigned char*>(data);
  while (n) {
    ssize_t r = ::read(fd, p, n);
    if (r < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    if (r == 0) return false;
    p += r;
    n -= static_cast<size_t>(r);
  }
  return true;
}

}  // namespace dc::platform

#endif  // !_WIN32
