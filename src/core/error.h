// The thread-local last error (the header's "Last error" convention) and the exception that carries a
// failure from deep inside the library up to the extern "C" entry point.
//
// Every entry point runs its body in guarded() (core/guard.h), which names the
// call and clears the last error. Code below it reports a failure with fail(...), which formats the
// message ("<call>: <what>"), stores it for this thread and throws Failure; the
// entry point's guard turns Failure back into the dc_status it carries.
#pragma once

#include <cstdint>
#include <new>
#include <string>

#include "dccuda.h"

namespace dc {

struct ThreadError {
  const char* call = "";       // the dc_ function now running on this thread
  dc_status status = DC_SUCCESS;
  int32_t cuda = 0;            // raw CUresult behind the failure
  int32_t nvrtc = 0;           // raw nvrtcResult behind the failure
  bool in_log_callback = false; // the log callback runs on this thread (core/log.h): calls are refused
  // The rest is written on failure and read rarely.
  std::string message;
  std::string detail;          // long logs (compiler, JIT)
  unsigned long long thread_id = 0;  // the system's id of this thread, 0 until asked (thread_id())
};

// The system's id of the calling thread, cached in its ThreadError.
unsigned long long current_thread_id_cached(ThreadError& e) noexcept;

namespace detail {
// Constant-initialised storage for this thread's ThreadError: no guard, no
// destructor (error.cpp makes the object on first use and destroys it when
// the thread ends). It also holds two plain words of per-thread state of the
// layers above (valid from the thread's start to its end, whether or not the
// ThreadError exists), so that one thread-local lookup serves a whole call.
// Cache-line aligned, the words every call reads first (these, then the
// ThreadError's call, status and in_log_callback): one line per call.
struct alignas(64) ErrorSlot {
  bool constructed;
  // A host function runs on this thread (stream/host_callback.h).
  bool in_host_callback;
  // The CUcontext this thread had current when the library last bound or
  // found one (device/device.h, LaunchContext).
  void* context_seen;
  alignas(ThreadError) unsigned char bytes[sizeof(ThreadError)];
};
extern constinit thread_local ErrorSlot t_error_slot;
ThreadError& make_thread_error(ErrorSlot& slot) noexcept;
}  // namespace detail

// Inline: every entry point asks for it once.
inline ThreadError& thread_error(detail::ErrorSlot& slot) noexcept {
  if (!slot.constructed) [[unlikely]]
    return detail::make_thread_error(slot);
  return *std::launder(reinterpret_cast<ThreadError*>(slot.bytes));
}
inline ThreadError& thread_error() noexcept { return thread_error(detail::t_error_slot); }

// Thrown by fail(); holds only the status: the text is already in thread_error().
struct Failure {
  dc_status status;
};

// Clears the last error (a failure recovered, or a new call beginning).
void clear_thread_error(ThreadError& e) noexcept;

// Records a failure for this thread and throws Failure. `format` is printf-like;
// the call name and ": " are put in front.
// printf's checks for the formats below; on MinGW those of its C99 printf
// (__USE_MINGW_ANSI_STDIO, which the build sets: %zu, %lld), not msvcrt's.
#if defined(__MINGW32__)
#define DC_PRINTF_FORMAT gnu_printf
#else
#define DC_PRINTF_FORMAT printf
#endif

[[noreturn]] void fail(dc_status status, const char* format, ...) __attribute__((format(DC_PRINTF_FORMAT, 2, 3)));

// As fail(), with the raw driver / NVRTC result kept beside the message.
[[noreturn]] void fail_cuda(dc_status status, int32_t cuda_result, const char* format, ...)
    __attribute__((format(DC_PRINTF_FORMAT, 3, 4)));
[[noreturn]] void fail_nvrtc(dc_status status, int32_t nvrtc_result, const char* format, ...)
    __attribute__((format(DC_PRINTF_FORMAT, 3, 4)));

// Records a failure for this thread without throwing; returns `status`. For
// the entry-point guard, which must not throw.
dc_status record_failure(dc_status status, const char* format, ...) __attribute__((format(DC_PRINTF_FORMAT, 2, 3)));

// Raises `failure` again (its status, CUresult and detail kept) with `prefix`
// put after the call's name: "dc_x: launches[3]: <the message>". For the
// batch calls, which name the element that failed.
[[noreturn]] void fail_again_with_prefix(const Failure& failure, const std::string& prefix);

// Attaches a long log (compiler output) to the failure about to be raised.
void set_error_detail(std::string detail);

// printf into a std::string.
std::string strf(const char* format, ...) __attribute__((format(DC_PRINTF_FORMAT, 1, 2)));

}  // namespace dc
