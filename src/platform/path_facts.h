// What dccuda remembers about a file to notice that it changed (the include
// scan's memo, the NVRTC identity): its identity on its volume, size and
// modification time. POSIX (stat) in path_facts_posix.cpp, Windows
// (GetFileInformationByHandle, UTF-16 paths) in path_facts_windows.cpp.
#pragma once

#include <sys/stat.h>

#include <cstdint>
#include <string>

namespace dc::platform {

struct PathFacts {
  bool regular = false;    // a regular file (else a directory or something else)
  uint64_t id = 0;         // inode number; the file index on Windows
  uint64_t size = 0;
  int64_t mtime_sec = 0;   // modification time, seconds since 1970
  int64_t mtime_nsec = 0;  // and nanoseconds (100 ns steps on Windows)
};

// The facts of the file at `path` (links followed); false if it cannot be
// examined.
bool path_facts(const std::string& path, PathFacts* out) noexcept;

// The modification time of an fstat/lstat result, in nanoseconds since 1970
// (whole seconds where the system's stat has no more).
int64_t modification_time_ns(const struct stat& st) noexcept;

}  // namespace dc::platform
