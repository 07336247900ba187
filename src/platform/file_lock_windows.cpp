// file_lock.h on Windows: LockFileEx on the lock file's first byte, polled
// with LOCKFILE_FAIL_IMMEDIATELY up to the limit (as flock is on POSIX).
// Windows releases the lock when the handle closes or its process dies.
#if defined(_WIN32)

#include "platform/file_lock.h"

#include <fcntl.h>
#include <io.h>
#include <windows.h>

#include <algorithm>
#include <thread>

#include "platform/windows_files.h"

namespace dc::platform {

FileLock FileLock::acquire(int dir_fd, const std::string& name, mode_t /*mode*/, std::chrono::milliseconds limit,
                           Outcome* outcome) noexcept {
  FileLock lock;
  *outcome = Outcome::kFailed;
  std::wstring path;
  try {
    path = win::path_at(dir_fd, name);
  } catch (...) {
    return lock;
  }
  if (path.empty()) return lock;
  // FILE_SHARE_DELETE: the holder removes the file while others have it open
  // (remove_and_release). A link or a non-disk file is refused.
  HANDLE h = ::CreateFileW(path.c_str(), GENERIC_READ, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, nullptr,
                           OPEN_ALWAYS, FILE_ATTRIBUTE_NORMAL | FILE_FLAG_OPEN_REPARSE_POINT, nullptr);
  if (h == INVALID_HANDLE_VALUE) return lock;
  BY_HANDLE_FILE_INFORMATION info;
  if (::GetFileType(h) != FILE_TYPE_DISK || !::GetFileInformationByHandle(h, &info) ||
      (info.dwFileAttributes & (FILE_ATTRIBUTE_REPARSE_POINT | FILE_ATTRIBUTE_DIRECTORY))) {
    ::CloseHandle(h);
    return lock;
  }
  int fd = ::_open_osfhandle(reinterpret_cast<intptr_t>(h), _O_RDONLY | _O_BINARY);
  if (fd < 0) {
    ::CloseHandle(h);
    return lock;
  }
  UniqueFd owned(fd);
  auto deadline = std::chrono::steady_clock::now() + limit;
  auto pause = std::chrono::milliseconds(1);
  bool waited = false;
  for (;;) {
    OVERLAPPED at{};
    if (::LockFileEx(h, LOCKFILE_EXCLUSIVE_LOCK | LOCKFILE_FAIL_IMMEDIATELY, 0, 1, 0, &at)) break;
    if (::GetLastError() != ERROR_LOCK_VIOLATION) return lock;
    if (std::chrono::steady_clock::now() >= deadline) {
      *outcome = Outcome::kTimedOut;
      return lock;
    }
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
  try {
    std::wstring path = win::path_at(dir_fd, name);
    if (!path.empty()) ::DeleteFileW(path.c_str());
  } catch (...) {
  }
  fd_ = UniqueFd();
}

}  // namespace dc::platform

#endif  // _WIN32
