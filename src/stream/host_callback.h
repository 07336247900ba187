// Host functions on streams (dc_stream_add_callback), and the guard that
// keeps dc_ calls that enqueue work or synchronise out of them: the driver
// forbids CUDA calls on its callback thread (they may deadlock), so such a
// call is refused with DC_ERROR_INVALID_STATE instead.
#pragma once

#include "dccuda.h"
#include "stream/stream.h"

namespace dc {

namespace detail {
bool& in_host_callback() noexcept;
[[noreturn]] void fail_in_host_callback();
}  // namespace detail

// Call at the start of every entry point that enqueues work or synchronises
// (copies, fills, allocations, launches, synchronisation): costs a
// thread-local read.
inline void forbid_in_host_callback() {
  if (detail::in_host_callback()) [[unlikely]]
    detail::fail_in_host_callback();
}

// Enqueues fn(user_data) on `stream` through cuLaunchHostFunc; the device's
// context must be bound. The function runs on a driver thread.
void enqueue_host_callback(Stream& stream, dc_host_fn fn, void* user_data);

}  // namespace dc
