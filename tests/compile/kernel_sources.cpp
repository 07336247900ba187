#include "compile/kernel_sources.h"

#if defined(_WIN32)
#include <windows.h>
#endif
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <random>

namespace dctest {

std::string unique_source(const std::string& base) {
  static std::atomic<uint64_t> counter{0};
  std::random_device rd;
  uint64_t nonce = (uint64_t(rd()) << 32) ^ rd() ^
                   static_cast<uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
  return "// unique " + std::to_string(::getpid()) + "-" + std::to_string(counter++) + "-" + std::to_string(nonce) +
         "\n" + base;
}

std::string next_to_executable(const char* name) {
#if defined(_WIN32)
  char self[4096];
  DWORD n = GetModuleFileNameA(nullptr, self, sizeof self);
  if (n == 0 || n >= sizeof self) return name;
  std::string path(self, n);
  return path.substr(0, path.find_last_of("\\/") + 1) + name;
#else
  char self[4096];
  ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  if (n <= 0) return name;
  std::string path(self, static_cast<size_t>(n));
  return path.substr(0, path.rfind('/') + 1) + name;
#endif
}

}  // namespace dctest
