#include "core/log.h"

#include <cstdarg>
#include <cstdio>
#include <mutex>
#include <shared_mutex>
#include <string>

namespace dc {
namespace detail {
std::atomic<int32_t> g_log_threshold{kLogOff};
}  // namespace detail

namespace {

struct LogSink {
  dc_log_fn fn = nullptr;
  void* user_data = nullptr;
  int32_t min_level = detail::kLogOff;
};

// Readers (threads delivering a message) share it; dc_set_log_callback takes
// it alone, so that it returns only when no thread runs the previous callback.
std::shared_mutex& sink_mutex() {
  static auto* m = new std::shared_mutex;  // never destroyed: messages may come during exit
  return *m;
}
LogSink g_sink;  // guarded by sink_mutex()

std::string format_message(const char* format, va_list args) {
  va_list copy;
  va_copy(copy, args);
  char small[512];
  int n = std::vsnprintf(small, sizeof small, format, copy);
  va_end(copy);
  if (n < 0) return std::string(format);
  if (static_cast<size_t>(n) < sizeof small) return std::string(small, static_cast<size_t>(n));
  std::string out(static_cast<size_t>(n) + 1, '\0');
  std::vsnprintf(out.data(), out.size(), format, args);
  out.resize(static_cast<size_t>(n));
  return out;
}

}  // namespace

void log_message(int32_t level, const char* category, const char* format, ...) noexcept {
  ThreadError& e = thread_error();
  if (e.in_log_callback) return;  // a message arising inside the callback: dropped, never recursing
  try {
    va_list args;
    va_start(args, format);
    std::string text = format_message(format, args);
    va_end(args);
    std::shared_lock<std::shared_mutex> lock(sink_mutex());
    if (!g_sink.fn || level < g_sink.min_level) return;
    // The callback may try dc_ calls: they are refused and record their
    // refusal in this thread's last error, which belongs to the call that is
    // running: it is put back afterwards.
    ThreadError saved = e;
    e.in_log_callback = true;
    g_sink.fn(g_sink.user_data, level, category, text.c_str());
    e = std::move(saved);
    e.in_log_callback = false;
  } catch (...) {
    // Out of memory while formatting or saving: the message is lost, the call goes on.
    e.in_log_callback = false;
  }
}

void set_log_callback(int32_t min_level, dc_log_fn fn, void* user_data) {
  if (min_level < DC_LOG_TRACE || min_level > DC_LOG_ERROR)
    fail(DC_ERROR_INVALID_ARGUMENT, "min_level %d is not a DC_LOG_* level; pass DC_LOG_TRACE (0) to DC_LOG_ERROR (4)",
         min_level);
  std::unique_lock<std::shared_mutex> lock(sink_mutex());
  g_sink.fn = fn;
  g_sink.user_data = fn ? user_data : nullptr;
  g_sink.min_level = fn ? min_level : detail::kLogOff;
  detail::g_log_threshold.store(g_sink.min_level, std::memory_order_relaxed);
}

dc_status refuse_in_log_callback(const char* call) noexcept {
  // The thread's error state is put back when the callback returns
  // (log_message), so naming this call here misleads nobody afterwards.
  thread_error().call = call;
  return record_failure(DC_ERROR_INVALID_STATE,
                        "called from inside a dccuda callback (the log callback or a launch-trace callback), which "
                        "runs while dccuda may hold its own locks; do not call dccuda from the callback: keep what it "
                        "was told and act on it after the callback returns");
}

}  // namespace dc
