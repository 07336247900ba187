// Aligned host memory for tests (memory to register with the driver):
// std::aligned_alloc/std::free, or on Windows, whose C runtime has no
// aligned_alloc, _aligned_malloc/_aligned_free.
#pragma once

#include <cstddef>
#include <cstdlib>

namespace dctest {

inline void* aligned_host_alloc(size_t alignment, size_t bytes) {
#if defined(_WIN32)
  return _aligned_malloc(bytes, alignment);
#else
  return std::aligned_alloc(alignment, bytes);
#endif
}

inline void aligned_host_free(void* p) {
#if defined(_WIN32)
  _aligned_free(p);
#else
  std::free(p);
#endif
}

}  // namespace dctest
