// process.h on Linux and other POSIX systems (process_windows.cpp on Windows).
#if !defined(_WIN32)

#include "platform/process.h"

#include <pthread.h>
#include <cstdint>
#include <sys/syscall.h>
#include <unistd.h>

namespace dc::platform {

namespace detail {
std::atomic<bool> g_forked_child{false};
}

namespace {

std::atomic<long> g_pid{0};

// Runs in the child of every fork() of this process, before fork returns
// there: async-signal-safe (an atomic store).
void on_fork_child() { detail::g_forked_child.store(true, std::memory_order_relaxed); }

}  // namespace

void note_initialised() noexcept {
  // Once per process (a function-local static: thread-safe). A forked child
  // inherits the handler already installed, so it never runs this again.
  static const bool installed = [] {
    g_pid.store(static_cast<long>(::getpid()), std::memory_order_relaxed);
    return ::pthread_atfork(nullptr, nullptr, on_fork_child) == 0;
  }();
  (void)installed;
}

long initialising_process() noexcept { return g_pid.load(std::memory_order_relaxed); }

unsigned long long current_thread_id() noexcept {
#if defined(SYS_gettid)
  return static_cast<unsigned long long>(::syscall(SYS_gettid));  // glibc 2.28 has no gettid() wrapper
#else
  return reinterpret_cast<uintptr_t>(pthread_self());
#endif
}

}  // namespace dc::platform

#endif  // !_WIN32
