// path_facts.h on POSIX systems: stat.
#if !defined(_WIN32)

#include "platform/path_facts.h"

namespace dc::platform {

bool path_facts(const std::string& path, PathFacts* out) noexcept {
  struct stat st;
  if (path.empty() || ::stat(path.c_str(), &st) != 0) return false;
  out->regular = S_ISREG(st.st_mode);
  out->id = static_cast<uint64_t>(st.st_ino);
  out->size = static_cast<uint64_t>(st.st_size);
  out->mtime_sec = static_cast<int64_t>(st.st_mtim.tv_sec);
  out->mtime_nsec = static_cast<int64_t>(st.st_mtim.tv_nsec);
  return true;
}

int64_t modification_time_ns(const struct stat& st) noexcept {
  return static_cast<int64_t>(st.st_mtim.tv_sec) * 1000000000 + static_cast<int64_t>(st.st_mtim.tv_nsec);
}

}  // namespace dc::platform

#endif  // !_WIN32
