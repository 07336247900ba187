// path_facts.h on Windows: the file opened for its attributes only (any
// sharing), GetFileInformationByHandle.
#if defined(_WIN32)

#include "platform/path_facts.h"

#include <windows.h>

#include "platform/utf16.h"

namespace dc::platform {

bool path_facts(const std::string& path, PathFacts* out) noexcept {
  try {
    bool valid = true;
    std::wstring wide = widen(path, &valid);
    if (!valid || wide.empty()) return false;
    // FILE_FLAG_BACKUP_SEMANTICS: directories open too.
    HANDLE h = ::CreateFileW(wide.c_str(), FILE_READ_ATTRIBUTES, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE,
                             nullptr, OPEN_EXISTING, FILE_FLAG_BACKUP_SEMANTICS, nullptr);
    if (h == INVALID_HANDLE_VALUE) return false;
    BY_HANDLE_FILE_INFORMATION info;
    bool ok = ::GetFileInformationByHandle(h, &info) != 0;
    ::CloseHandle(h);
    if (!ok) return false;
    out->regular = !(info.dwFileAttributes & (FILE_ATTRIBUTE_DIRECTORY | FILE_ATTRIBUTE_DEVICE));
    out->id = (uint64_t(info.nFileIndexHigh) << 32) | info.nFileIndexLow;
    out->size = (uint64_t(info.nFileSizeHigh) << 32) | info.nFileSizeLow;
    // FILETIME: 100 ns steps since 1601.
    uint64_t t = (uint64_t(info.ftLastWriteTime.dwHighDateTime) << 32) | info.ftLastWriteTime.dwLowDateTime;
    constexpr uint64_t kSteps1601To1970 = 116444736000000000ull;
    int64_t since_1970 = static_cast<int64_t>(t - kSteps1601To1970);
    out->mtime_sec = since_1970 / 10000000;
    out->mtime_nsec = (since_1970 % 10000000) * 100;
    return true;
  } catch (...) {
    return false;  // out of memory converting the path
  }
}

int64_t modification_time_ns(const struct stat& st) noexcept {
  return static_cast<int64_t>(st.st_mtime) * 1000000000;
}

}  // namespace dc::platform

#endif  // _WIN32
