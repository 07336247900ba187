// regular_file.h on Windows: CreateFileW (UTF-16 path), the handle's own
// information (no check-then-open race), then a C runtime descriptor over it.
// A named pipe or device answers at once and is refused (GetFileType); a
// reparse point (symbolic link, junction) is refused where links are.
#if defined(_WIN32)

#include "platform/regular_file.h"

#include <fcntl.h>
#include <io.h>
#include <windows.h>

#include <cerrno>
#include <climits>
#include <utility>

#include "platform/windows_files.h"

namespace dc::platform {

UniqueFd& UniqueFd::operator=(UniqueFd&& o) noexcept {
  if (this != &o) {
    if (fd_ >= 0) win::close_descriptor(fd_);
    fd_ = o.release();
  }
  return *this;
}

UniqueFd::~UniqueFd() {
  if (fd_ >= 0) win::close_descriptor(fd_);
}

OpenResult open_regular_file(int dir_fd, const char* name, bool follow_links, RegularFile* out, int* error) noexcept {
  std::wstring path;
  try {
    path = win::path_at(dir_fd, name);
  } catch (...) {
    errno = ENOMEM;
  }
  if (path.empty()) {
    if (error) *error = errno;
    return errno == EILSEQ || errno == EBADF || errno == ENOMEM ? OpenResult::kFailed : OpenResult::kNotFound;
  }
  // Readers share delete, so that a writer can replace or evict the file.
  // FILE_FLAG_BACKUP_SEMANTICS: a directory opens too, and is named as one.
  DWORD flags = FILE_FLAG_BACKUP_SEMANTICS | (follow_links ? 0 : FILE_FLAG_OPEN_REPARSE_POINT);
  HANDLE h = ::CreateFileW(path.c_str(), GENERIC_READ, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, nullptr,
                           OPEN_EXISTING, flags, nullptr);
  if (h == INVALID_HANDLE_VALUE) {
    int e = win::set_errno_from(::GetLastError());
    if (error) *error = e;
    return e == ENOENT ? OpenResult::kNotFound : OpenResult::kFailed;
  }
  BY_HANDLE_FILE_INFORMATION info;
  if (::GetFileType(h) != FILE_TYPE_DISK) {
    ::CloseHandle(h);
    return OpenResult::kNotRegular;
  }
  if (!::GetFileInformationByHandle(h, &info)) {
    int e = win::set_errno_from(::GetLastError());
    ::CloseHandle(h);
    if (error) *error = e;
    return OpenResult::kFailed;
  }
  if (info.dwFileAttributes & FILE_ATTRIBUTE_REPARSE_POINT && !follow_links) {
    ::CloseHandle(h);
    return OpenResult::kSymlink;
  }
  if (info.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY) {
    ::CloseHandle(h);
    return OpenResult::kDirectory;
  }
  int fd = ::_open_osfhandle(reinterpret_cast<intptr_t>(h), _O_RDONLY | _O_BINARY);
  if (fd < 0) {
    ::CloseHandle(h);
    if (error) *error = EMFILE;
    return OpenResult::kFailed;
  }
  UniqueFd owned(fd);
  struct stat st;
  if (::fstat(fd, &st) != 0) {
    if (error) *error = errno;
    return OpenResult::kFailed;
  }
  out->fd = std::move(owned);
  out->st = st;
  return OpenResult::kOk;
}

bool read_exactly(int fd, void* data, size_t n) noexcept {
  auto* p = static_cast<unsigned char*>(data);
  while (n) {
    unsigned chunk = n > (1u << 30) ? (1u << 30) : static_cast<unsigned>(n);
    int r = ::_read(fd, p, chunk);
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

#endif  // _WIN32
