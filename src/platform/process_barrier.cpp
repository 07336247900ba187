#if !defined(_WIN32)
#include "platform/process_barrier.h"

#if defined(__linux__)
#include <linux/membarrier.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#endif

// Thread sanitizers do not know the system call: under them the callers take
// their symmetric fences, which they check.
#if defined(__SANITIZE_THREAD__)
#define DC_THREAD_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define DC_THREAD_SANITIZER 1
#endif
#endif

namespace dc::platform {

#if defined(__linux__) && defined(__NR_membarrier) && !defined(DC_THREAD_SANITIZER)

namespace {

long membarrier(int command) noexcept { return ::syscall(__NR_membarrier, command, 0u, 0); }

bool register_expedited() noexcept { return membarrier(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED) == 0; }

}  // namespace

bool process_barrier_available() noexcept {
  static const bool available = [] {
    long commands = membarrier(MEMBARRIER_CMD_QUERY);
    if (commands < 0 || !(commands & MEMBARRIER_CMD_PRIVATE_EXPEDITED)) return false;
    return register_expedited();
  }();
  return available;
}

bool process_barrier() noexcept {
  if (!process_barrier_available()) return false;
  if (membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED) == 0) return true;
  // A forked child does not inherit the registration: register again.
  if (errno == EPERM && register_expedited()) return membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED) == 0;
  return false;
}

#else

bool process_barrier_available() noexcept { return false; }
bool process_barrier() noexcept { return false; }

#endif

}  // namespace dc::platform
#endif  // !_WIN32
