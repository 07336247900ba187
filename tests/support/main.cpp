// GoogleTest main for dccuda's tests: says up front which driver the tests
// run on, so that a log never passes a fake-driver run off as a GPU run.
#include <gtest/gtest.h>

#if !defined(_WIN32)
#include <execinfo.h>
#include <signal.h>
#include <unistd.h>
#endif

#include <cstdio>

#include "support/fake.h"

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#define DCTEST_SANITIZED 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define DCTEST_SANITIZED 1
#endif
#if defined(_WIN32)
#define DCTEST_NO_BACKTRACE 1  // a crash under Wine or Windows is reported by the system
#endif

#ifndef DCTEST_NO_BACKTRACE
namespace {

// A crash on a machine without a debugger (the GPU machine) still leaves a
// trace: the frames as module+offset, for addr2line against the build.
void print_trace_and_die(int signal_number) {
  static const char kHeader[] = "\n[ dccuda   ] fatal signal; backtrace (module+offset):\n";
  ssize_t ignored = write(STDERR_FILENO, kHeader, sizeof kHeader - 1);
  (void)ignored;
  void* frames[64];
  int n = backtrace(frames, 64);
  backtrace_symbols_fd(frames, n, STDERR_FILENO);
  signal(signal_number, SIG_DFL);
  raise(signal_number);
}

}  // namespace
#endif

int main(int argc, char** argv) {
  // Sanitizer builds have their own reports; their handlers stay in place.
#if !defined(DCTEST_SANITIZED) && !defined(DCTEST_NO_BACKTRACE)
  void* warm_up[1];
  backtrace(warm_up, 1);  // loads the unwinder now, not inside the handler
  for (int s : {SIGSEGV, SIGBUS, SIGFPE, SIGILL}) signal(s, print_trace_and_die);
#endif
  testing::InitGoogleTest(&argc, argv);
  std::printf("[ dccuda   ] %s\n", dctest::driver_description());
  return RUN_ALL_TESTS();
}
