// windows_files.h: the directory table, paths, errno.
#if defined(_WIN32)

#include "platform/windows_files.h"

#include <io.h>
#include <windows.h>

#include <cerrno>
#include <mutex>
#include <unordered_map>

#include "platform/regular_file.h"
#include "platform/utf16.h"

namespace dc::platform::win {
namespace {

struct OpenDirectory {
  HANDLE handle;
  std::wstring path;  // as resolved when opened (links followed)
};

std::mutex g_mutex;
int g_next = kFirstDirectory;
std::unordered_map<int, OpenDirectory>& table() {
  static auto* t = new std::unordered_map<int, OpenDirectory>;  // never destroyed: used until exit
  return *t;
}

std::wstring final_path(HANDLE h, const std::wstring& fallback) {
  DWORD n = ::GetFinalPathNameByHandleW(h, nullptr, 0, FILE_NAME_NORMALIZED);
  if (!n) return fallback;
  std::wstring out(n, L'\0');
  n = ::GetFinalPathNameByHandleW(h, out.data(), n, FILE_NAME_NORMALIZED);
  if (!n || n >= out.size()) return fallback;
  out.resize(n);
  return out;
}

}  // namespace

int set_errno_from(unsigned long code) noexcept {
  int e;
  switch (code) {
    case ERROR_FILE_NOT_FOUND:
    case ERROR_PATH_NOT_FOUND:
    case ERROR_INVALID_NAME:
    case ERROR_BAD_NETPATH:
      e = ENOENT;
      break;
    case ERROR_ACCESS_DENIED:
    case ERROR_SHARING_VIOLATION:
    case ERROR_LOCK_VIOLATION:
      e = EACCES;
      break;
    case ERROR_FILE_EXISTS:
    case ERROR_ALREADY_EXISTS:
      e = EEXIST;
      break;
    case ERROR_DIRECTORY:
      e = ENOTDIR;
      break;
    case ERROR_NOT_ENOUGH_MEMORY:
    case ERROR_OUTOFMEMORY:
      e = ENOMEM;
      break;
    case ERROR_DISK_FULL:
      e = ENOSPC;
      break;
    default:
      e = EIO;
  }
  errno = e;
  return e;
}

std::wstring path_at(int dir_fd, const std::string& name) {
  bool valid = true;
  std::wstring wide = widen(name, &valid);
  if (!valid) {
    errno = EILSEQ;
    return {};
  }
  for (wchar_t& c : wide)
    if (c == L'/') c = L'\\';
  if (dir_fd == kWorkingDirectory) return wide;
  std::lock_guard<std::mutex> lock(g_mutex);
  auto it = table().find(dir_fd);
  if (it == table().end()) {
    errno = EBADF;
    return {};
  }
  std::wstring out = it->second.path;
  if (!out.empty() && out.back() != L'\\') out += L'\\';
  return out + wide;
}

int open_directory_descriptor(const std::string& path) noexcept {
  try {
    std::wstring wide = path_at(kWorkingDirectory, path);
    if (wide.empty()) {
      if (errno != EILSEQ) errno = ENOENT;
      return -1;
    }
    // No FILE_SHARE_DELETE: the directory cannot be renamed or removed while
    // it is open. FILE_FLAG_BACKUP_SEMANTICS opens a directory.
    HANDLE h = ::CreateFileW(wide.c_str(), FILE_LIST_DIRECTORY | FILE_READ_ATTRIBUTES | READ_CONTROL,
                             FILE_SHARE_READ | FILE_SHARE_WRITE, nullptr, OPEN_EXISTING, FILE_FLAG_BACKUP_SEMANTICS,
                             nullptr);
    if (h == INVALID_HANDLE_VALUE) {
      set_errno_from(::GetLastError());
      return -1;
    }
    BY_HANDLE_FILE_INFORMATION info;
    if (!::GetFileInformationByHandle(h, &info) || !(info.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY)) {
      ::CloseHandle(h);
      errno = ENOTDIR;
      return -1;
    }
    std::wstring resolved = final_path(h, wide);
    std::lock_guard<std::mutex> lock(g_mutex);
    int fd = g_next++;
    table().emplace(fd, OpenDirectory{h, std::move(resolved)});
    return fd;
  } catch (...) {
    errno = ENOMEM;
    return -1;
  }
}

void* directory_handle(int dir_fd) noexcept {
  std::lock_guard<std::mutex> lock(g_mutex);
  auto it = table().find(dir_fd);
  return it == table().end() ? nullptr : it->second.handle;
}

void close_descriptor(int fd) noexcept {
  if (fd >= kFirstDirectory) {
    HANDLE h = nullptr;
    {
      std::lock_guard<std::mutex> lock(g_mutex);
      auto it = table().find(fd);
      if (it == table().end()) return;
      h = it->second.handle;
      table().erase(it);
    }
    ::CloseHandle(h);
    return;
  }
  if (fd >= 0) ::_close(fd);
}

}  // namespace dc::platform::win

#endif  // _WIN32
