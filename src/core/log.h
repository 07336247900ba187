// The log hook (dc_set_log_callback): dccuda's decisions, told to the caller's
// function. Reporting costs one relaxed atomic load while no callback is set
// (DC_LOG compares the level with the threshold before it formats anything).
//
// The callback runs on the thread that made the decision, possibly while
// dccuda holds its own locks (the staging lock, the loader's once-flag): so
// every dc_ call from inside it is refused (guarded() sees the thread's mark,
// core/guard.h) and messages arising on that thread meanwhile are dropped, never
// recursing. Replacing the callback waits until no thread runs the old one, so
// that its user_data may be freed as soon as dc_set_log_callback returns.
#pragma once

#include <atomic>
#include <cstdint>

#include "core/error.h"
#include "dccuda.h"

namespace dc {

namespace detail {
// The lowest level delivered; kLogOff while no callback is set.
inline constexpr int32_t kLogOff = 1000;
extern std::atomic<int32_t> g_log_threshold;
}  // namespace detail

inline bool log_enabled(int32_t level) noexcept {
  return level >= detail::g_log_threshold.load(std::memory_order_relaxed);
}

// Formats and delivers a message (call through DC_LOG, which checks the level
// first). Never throws; a callback's own exception cannot cross a C function.
void log_message(int32_t level, const char* category, const char* format, ...) noexcept
    __attribute__((format(DC_PRINTF_FORMAT, 3, 4)));

// dc_set_log_callback's work; fails (INVALID_ARGUMENT) on an unknown level.
void set_log_callback(int32_t min_level, dc_log_fn fn, void* user_data);

// The refusal of a dc_ call made from inside the log callback (guarded()
// checks the thread's mark, ThreadError::in_log_callback, before anything
// else): records DC_ERROR_INVALID_STATE naming `call` and returns it.
dc_status refuse_in_log_callback(const char* call) noexcept;

}  // namespace dc

// DC_LOG(DC_LOG_INFO, "pool", "device %d: ...", ordinal): nothing is formatted
// unless a callback wants the level.
#define DC_LOG(level, category, ...)                                      \
  do {                                                                    \
    if (::dc::log_enabled(level)) [[unlikely]]                            \
      ::dc::log_message((level), (category), __VA_ARGS__);                \
  } while (0)
