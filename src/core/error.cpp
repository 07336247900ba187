#include "core/error.h"

#include <cstdarg>
#include <cstdio>

namespace dc {

ThreadError& thread_error() noexcept {
  thread_local ThreadError error;
  return error;
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
