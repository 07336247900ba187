#include "core/error.h"

#include <cstdarg>
#include <cstddef>
#include <cstdio>
#include <new>

#include "platform/process.h"
#include "platform/thread_exit.h"

namespace dc {
namespace detail {

// The last error must outlive the thread's C++ thread_local objects: glibc
// destroys those before atexit handlers, static destructors and pthread key
// destructors run, and a dc_ call from any of them would write into a
// destroyed object (a heap-use-after-free). So the object lives in
// trivially destructible thread-local storage that nothing destroys
// implicitly (ErrorSlot, error.h), and a thread-exit slot
// (platform/thread_exit.h) destroys it when a thread ends, after the
// thread_local destructors (a dc_ call after that makes it again, and the slot
// destroys it again). The main thread's is never destroyed: it serves calls
// until the process is gone, its memory still referenced from there.
constinit thread_local ErrorSlot t_error_slot = {};  // no guard, no destructor

// What every call reads of the slot lies in its first cache line (error.h):
// the slot's own words, then the ThreadError's call, status and
// in_log_callback. (ThreadError holds strings: offsetof is conditionally
// supported there, and g++ and clang give the layout it says.)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winvalid-offsetof"
static_assert(offsetof(ErrorSlot, bytes) + offsetof(ThreadError, in_log_callback) + sizeof(bool) <= 64,
              "the words every call reads must stay in the thread slot's first cache line");
#pragma GCC diagnostic pop

}  // namespace detail

namespace {

void destroy_thread_error(void* object) {
  static_cast<ThreadError*>(object)->~ThreadError();
  detail::t_error_slot.constructed = false;
}

}  // namespace

namespace detail {

[[gnu::noinline]] ThreadError& make_thread_error(ErrorSlot& slot) noexcept {
  ThreadError* e = new (slot.bytes) ThreadError();
  slot.constructed = true;
  // Without a slot (the process used up its thread-specific keys) the object
  // is never destroyed: its strings leak when the thread ends, nothing worse.
  static const platform::ThreadExitSlot at_exit(destroy_thread_error);
  at_exit.arm(e);
  return *e;
}

}  // namespace detail

unsigned long long current_thread_id_cached(ThreadError& e) noexcept {
  if (e.thread_id == 0) [[unlikely]]
    e.thread_id = platform::current_thread_id();
  return e.thread_id;
}

void clear_thread_error(ThreadError& e) noexcept {
  e.status = DC_SUCCESS;
  e.cuda = 0;
  e.nvrtc = 0;
  e.message.clear();
  e.detail.clear();
}

namespace {

std::string vstrf(const char* format, va_list args) {
  va_list copy;
  va_copy(copy, args);
  char small[256];
  int n = std::vsnprintf(small, sizeof small, format, copy);
  va_end(copy);
  if (n < 0) return std::string(format);
  if (static_cast<size_t>(n) < sizeof small) return std::string(small, static_cast<size_t>(n));
  std::string out(static_cast<size_t>(n) + 1, '\0');
  std::vsnprintf(out.data(), out.size(), format, args);
  out.resize(static_cast<size_t>(n));
  return out;
}

void store(dc_status status, int32_t cuda, int32_t nvrtc, const char* format, va_list args) {
  ThreadError& e = thread_error();
  std::string text = vstrf(format, args);
  e.status = status;
  e.cuda = cuda;
  e.nvrtc = nvrtc;
  e.message.assign(e.call);
  e.message += ": ";
  e.message += text;
}

[[noreturn]] void raise(dc_status status, int32_t cuda, int32_t nvrtc, const char* format, va_list args) {
  store(status, cuda, nvrtc, format, args);
  va_end(args);
  throw Failure{status};
}

}  // namespace

void fail_again_with_prefix(const Failure& failure, const std::string& prefix) {
  ThreadError& e = thread_error();
  size_t at = std::string(e.call).size();
  if (e.message.compare(0, at, e.call) == 0 && e.message.compare(at, 2, ": ") == 0) at += 2;
  else at = 0;
  e.message.insert(at, prefix);
  throw Failure{failure.status};
}

std::string strf(const char* format, ...) {
  va_list args;
  va_start(args, format);
  std::string s = vstrf(format, args);
  va_end(args);
  return s;
}

void fail(dc_status status, const char* format, ...) {
  va_list args;
  va_start(args, format);
  raise(status, 0, 0, format, args);
}

void fail_cuda(dc_status status, int32_t cuda_result, const char* format, ...) {
  va_list args;
  va_start(args, format);
  raise(status, cuda_result, 0, format, args);
}

void fail_nvrtc(dc_status status, int32_t nvrtc_result, const char* format, ...) {
  va_list args;
  va_start(args, format);
  raise(status, 0, nvrtc_result, format, args);
}

dc_status record_failure(dc_status status, const char* format, ...) {
  va_list args;
  va_start(args, format);
  try {
    store(status, 0, 0, format, args);
  } catch (...) {
    // Out of memory while formatting: keep the status, lose the text.
    thread_error().status = status;
  }
  va_end(args);
  return status;
}

void set_error_detail(std::string detail) { thread_error().detail = std::move(detail); }

}  // namespace dc
