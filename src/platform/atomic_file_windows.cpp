// atomic_file.h on Windows: the temporary file created new (CREATE_NEW: an
// existing file or link of that name is an error, never followed), written,
// flushed when durable, then MoveFileExW over the final name. Readers open
// with FILE_SHARE_DELETE; even so, Windows (and Wine) may refuse to replace a
// file another handle has open: the write then fails, the temporary file is
// removed and the complete old file stays (a cache entry of the same name
// holds the same kernel, so nothing is lost but the store). `mode`
// has no Windows meaning: the file inherits the directory's access control
// list (the kernel cache's directory is private, private_files_windows.cpp).
#if defined(_WIN32)

#include "platform/atomic_file.h"

#include <windows.h>

#include "platform/windows_files.h"

namespace dc::platform {

bool write_file_atomically(int dir_fd, const std::string& name, const std::string& temp_name, const void* data,
                           size_t size, bool durable, mode_t /*mode*/) noexcept {
  try {
    std::wstring temp = win::path_at(dir_fd, temp_name);
    std::wstring final_path = win::path_at(dir_fd, name);
    if (temp.empty() || final_path.empty()) return false;
    HANDLE h = ::CreateFileW(temp.c_str(), GENERIC_WRITE, FILE_SHARE_READ | FILE_SHARE_DELETE, nullptr, CREATE_NEW,
                             FILE_ATTRIBUTE_NORMAL, nullptr);
    if (h == INVALID_HANDLE_VALUE) return false;
    const auto* p = static_cast<const unsigned char*>(data);
    bool ok = true;
    while (ok && size) {
      DWORD chunk = size > (1u << 30) ? (1u << 30) : static_cast<DWORD>(size);
      DWORD written = 0;
      ok = ::WriteFile(h, p, chunk, &written, nullptr) && written > 0;
      p += written;
      size -= written;
    }
    if (ok && durable) ok = ::FlushFileBuffers(h) != 0;
    ok = ::CloseHandle(h) && ok;
    DWORD move = MOVEFILE_REPLACE_EXISTING | (durable ? MOVEFILE_WRITE_THROUGH : 0);
    if (!ok || !::MoveFileExW(temp.c_str(), final_path.c_str(), move)) {
      ::DeleteFileW(temp.c_str());
      return false;
    }
    return true;
  } catch (...) {
    return false;  // out of memory converting a name
  }
}

}  // namespace dc::platform

#endif  // _WIN32
