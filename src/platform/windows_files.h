// What the Windows platform files share (Windows only): dccuda's own
// directory "descriptors" and paths relative to them, and errno from Win32
// errors.
//
// The cache code works relative to an open directory (POSIX openat and
// friends) so that a directory swapped in under its path never receives or
// supplies a file. Windows has no openat; here an open directory is a
// handle opened WITHOUT FILE_SHARE_DELETE, so that while dccuda holds it
// nobody can rename, move or delete that directory, and a name relative to
// it resolves to the same directory the checks were made on. The int that
// stands for it (from kFirstDirectory up) is not a C runtime descriptor:
// only the functions of platform/ accept it.
#pragma once
#if defined(_WIN32)

#include <string>

namespace dc::platform::win {

inline constexpr int kFirstDirectory = 1 << 24;

// Opens the directory at `path` (UTF-8); -1 with errno set on failure
// (ENOTDIR for a file).
int open_directory_descriptor(const std::string& path) noexcept;

// The open directory's handle (a HANDLE), or nullptr if `dir_fd` is none.
void* directory_handle(int dir_fd) noexcept;

// Closes a directory descriptor or a C runtime descriptor.
void close_descriptor(int fd) noexcept;

// The UTF-16 path of `name` (UTF-8) in the directory `dir_fd`, or of `name`
// itself for kWorkingDirectory ('/' becomes '\'). Empty (errno EBADF or
// EILSEQ) if the directory is unknown or the name is not valid UTF-8.
std::wstring path_at(int dir_fd, const std::string& name);

// Sets errno from a Win32 error code (GetLastError) and returns it.
int set_errno_from(unsigned long code) noexcept;

}  // namespace dc::platform::win

#endif  // _WIN32
