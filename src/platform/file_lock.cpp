// file_lock.h on Linux and other POSIX systems (file_lock_windows.cpp on Windows).
#if !defined(_WIN32)

#include "platform/file_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <thread>

namespace dc::platform {

FileLock FileLock::acquire(int dir_fd, const std::string& name, mode_t mode, std::chrono::milliseconds limit,
                           Outcome* outcome) noexcept {
  FileLock lock;
  *outcome = Outcome::kFailed;
  // O_RDONLY is enough to lock, and is what another user of a shared cache
  // may open the file with.
  int fd;
  do {
    fd = ::openat(dir_fd, name.c_str(), O_RDONLY | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, mode);
  } while (fd < 0 && errno == EINTR);
  if (fd < 0) return lock;
  UniqueFd owned(fd);
  struct stat st;
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) return lock;
  auto deadline = std::chrono::steady_clock::now() + limit;
  auto pause = std::chrono::milliseconds(1);
  bool waited = false;
  for (;;) {
    if (::flock(fd, LOCK_EX | LOCK_NB) == 0) break;
    if (errno == EINTR) continue;
    if (errno != EWOULDBLOCK) return lock;
    if (std::chrono::steady_clock::now() >= deadline) {
      *outcome = Outcome::kTimedOut;
      return lock;
    }
    // Polled, not blocked: a blocking flock could not give up at the limit.
    // 10 ms at most between looks, against a compile of tens of milliseconds.
    waited = true;
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::milliseconds(10));
  }
  *outcome = waited ? Outcome::kAcquiredLater : Outcome::kAcquired;
  lock.fd_ = std::move(owned);
  return lock;
}

void FileLock::remove_and_release(int dir_fd, const std::string& name) noexcept {
  if (!fd_) return;
  ::unlinkat(dir_fd, name.c_str(), 0);
  fd_ = UniqueFd();
}

}  // namespace dc::platform

#endif  // !_WIN32
