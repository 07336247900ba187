// Opening files dccuda reads (module images, kernel cache entries, the NVRTC
// memo) so that no file can make it hang or read without end: open() never
// blocks (O_NONBLOCK: a FIFO with no writer answers at once), the result must
// be a regular file (fstat, on the descriptor: no check-then-open race), and
// where the caller asks, a symbolic link in the last component is refused
// (O_NOFOLLOW). POSIX in regular_file.cpp; Windows in
// regular_file_windows.cpp (CreateFileW, UTF-16 paths; a directory
// "descriptor" there is dccuda's own, windows_directories.h).
#pragma once

#include <fcntl.h>
#include <sys/stat.h>

#include <cstddef>
#include <cstdint>

namespace dc::platform {

// The `dir_fd` that means "a path, relative to the working directory":
// AT_FDCWD; on Windows a value no descriptor has.
#if defined(_WIN32)
inline constexpr int kWorkingDirectory = -100;
#else
inline constexpr int kWorkingDirectory = AT_FDCWD;
#endif

// A file descriptor, closed when it goes.
class UniqueFd {
 public:
  UniqueFd() noexcept = default;
  explicit UniqueFd(int fd) noexcept : fd_(fd) {}
  UniqueFd(UniqueFd&& o) noexcept : fd_(o.release()) {}
  UniqueFd& operator=(UniqueFd&& o) noexcept;
  UniqueFd(const UniqueFd&) = delete;
  UniqueFd& operator=(const UniqueFd&) = delete;
  ~UniqueFd();
  int get() const noexcept { return fd_; }
  explicit operator bool() const noexcept { return fd_ >= 0; }
  int release() noexcept {
    int fd = fd_;
    fd_ = -1;
    return fd;
  }

 private:
  int fd_ = -1;
};

enum class OpenResult {
  kOk,
  kNotFound,     // no such file (or a path component is not a directory)
  kDirectory,    // a directory
  kNotRegular,   // a device, FIFO, socket
  kSymlink,      // a symbolic link, and links are refused
  kFailed,       // another error (errno in *error)
};

struct RegularFile {
  UniqueFd fd;
  struct stat st {};  // of the open file
  uint64_t file_size() const noexcept { return static_cast<uint64_t>(st.st_size); }
};

// Opens `name` for reading: relative to the directory `dir_fd`, or a path
// (kWorkingDirectory). `follow_links` false refuses a symbolic link as the last
// component. Never blocks; succeeds only for a regular file.
OpenResult open_regular_file(int dir_fd, const char* name, bool follow_links, RegularFile* out, int* error) noexcept;

// Reads exactly `n` bytes from the current offset; false on an error or an
// early end of file (the file shrank).
bool read_exactly(int fd, void* data, size_t n) noexcept;

}  // namespace dc::platform
