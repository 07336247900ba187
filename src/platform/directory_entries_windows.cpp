// directory_entries.h on Windows: FindFirstFileExW over the open directory's
// path (the directory itself cannot move while open, windows_files.h), and
// the file's own handle for its facts. A reparse point (link, junction) is
// described as a link (S_IFLNK's value), never followed.
#if defined(_WIN32)

#include "platform/directory_entries.h"

#include <io.h>
#include <windows.h>

#include <cerrno>

#include "platform/utf16.h"
#include "platform/windows_files.h"

namespace dc::platform {
namespace {

constexpr unsigned kModeLink = 0120000;  // S_IFLNK, which the Windows C runtime lacks

}  // namespace

std::vector<std::string> directory_names(int dir_fd) {
  std::vector<std::string> names;
  std::wstring pattern = win::path_at(dir_fd, "*");
  if (pattern.empty()) return names;
  WIN32_FIND_DATAW found;
  HANDLE h = ::FindFirstFileExW(pattern.c_str(), FindExInfoBasic, &found, FindExSearchNameMatch, nullptr, 0);
  if (h == INVALID_HANDLE_VALUE) return names;
  do {
    std::wstring name = found.cFileName;
    if (name != L"." && name != L"..") names.push_back(narrow(name));
  } while (::FindNextFileW(h, &found));
  ::FindClose(h);
  return names;
}

bool stat_no_follow(int dir_fd, const std::string& name, struct stat* st) noexcept {
  try {
    std::wstring path = win::path_at(dir_fd, name);
    if (path.empty()) return false;
    HANDLE h = ::CreateFileW(path.c_str(), FILE_READ_ATTRIBUTES, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE,
                             nullptr, OPEN_EXISTING, FILE_FLAG_BACKUP_SEMANTICS | FILE_FLAG_OPEN_REPARSE_POINT, nullptr);
    if (h == INVALID_HANDLE_VALUE) {
      win::set_errno_from(::GetLastError());
      return false;
    }
    BY_HANDLE_FILE_INFORMATION info;
    bool disk = ::GetFileType(h) == FILE_TYPE_DISK;
    bool ok = ::GetFileInformationByHandle(h, &info) != 0;
    ::CloseHandle(h);
    if (!ok) return false;
    *st = {};
    if (info.dwFileAttributes & FILE_ATTRIBUTE_REPARSE_POINT)
      st->st_mode = static_cast<decltype(st->st_mode)>(kModeLink);
    else if (info.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY)
      st->st_mode = S_IFDIR | S_IREAD | S_IWRITE | S_IEXEC;
    else if (disk)
      st->st_mode = S_IFREG | S_IREAD | ((info.dwFileAttributes & FILE_ATTRIBUTE_READONLY) ? 0 : S_IWRITE);
    st->st_nlink = static_cast<decltype(st->st_nlink)>(info.nNumberOfLinks);
    st->st_size = static_cast<decltype(st->st_size)>((uint64_t(info.nFileSizeHigh) << 32) | info.nFileSizeLow);
    uint64_t t = (uint64_t(info.ftLastWriteTime.dwHighDateTime) << 32) | info.ftLastWriteTime.dwLowDateTime;
    st->st_mtime = static_cast<decltype(st->st_mtime)>((t - 116444736000000000ull) / 10000000);
    return true;
  } catch (...) {
    errno = ENOMEM;
    return false;
  }
}

bool remove_file_at(int dir_fd, const std::string& name) noexcept {
  try {
    std::wstring path = win::path_at(dir_fd, name);
    if (path.empty()) return false;
    // DeleteFileW removes a symbolic link itself, never its target.
    if (::DeleteFileW(path.c_str())) return true;
    win::set_errno_from(::GetLastError());
    return false;
  } catch (...) {
    errno = ENOMEM;
    return false;
  }
}

void touch(int fd) noexcept {
  HANDLE h = reinterpret_cast<HANDLE>(::_get_osfhandle(fd));
  if (h == INVALID_HANDLE_VALUE) return;
  // The reader's handle has no FILE_WRITE_ATTRIBUTES: a second handle of
  // the same file gets it (where this user may; another user's file in a
  // shared cache is left as it is).
  HANDLE w = ::ReOpenFile(h, FILE_WRITE_ATTRIBUTES, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, 0);
  if (w == INVALID_HANDLE_VALUE) return;
  FILETIME now;
  ::GetSystemTimeAsFileTime(&now);
  ::SetFileTime(w, nullptr, nullptr, &now);
  ::CloseHandle(w);
}

}  // namespace dc::platform

#endif  // _WIN32
