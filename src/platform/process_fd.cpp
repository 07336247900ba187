#include "platform/process_fd.h"

#include <cerrno>

#if defined(__linux__)
#include <sys/syscall.h>
#include <unistd.h>
#elif !defined(_WIN32)
#include <unistd.h>
#endif

// Older C libraries lack the numbers; they are the same on every Linux architecture (the unified table).
#if defined(__linux__)
#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
#ifndef SYS_pidfd_getfd
#define SYS_pidfd_getfd 438
#endif
#endif

namespace dc::platform {

int take_process_fd(long pid, int fd, int* error) noexcept {
#if defined(__linux__)
  int pidfd = static_cast<int>(syscall(SYS_pidfd_open, static_cast<pid_t>(pid), 0));
  if (pidfd < 0) {
    *error = errno;
    return -1;
  }
  int taken = static_cast<int>(syscall(SYS_pidfd_getfd, pidfd, fd, 0));
  int saved = errno;
  close(pidfd);
  if (taken < 0) *error = saved;
  return taken;
#else
  (void)pid;
  (void)fd;
  *error = ENOSYS;
  return -1;
#endif
}

void close_fd(int fd) noexcept {
#if !defined(_WIN32)
  if (fd >= 0) close(fd);
#else
  (void)fd;
#endif
}

}  // namespace dc::platform
