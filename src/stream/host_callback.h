// Host functions on streams (dc_stream_add_callback), and the guard that
// keeps dc_ calls that enqueue work or synchronise out of them: the driver
// forbids CUDA calls on its callback thread (they may deadlock), so such a
// call is refused with DC_ERROR_INVALID_STATE instead.
#pragma once

#include "loader/cuda_abi/driver_abi.h"

#include "core/error.h"
#include "core/object.h"
#include "dccuda.h"
#include "stream/stream.h"

namespace dc {

namespace detail {
// Set while a host function runs on this thread (run_host_function).
inline bool& in_host_callback() noexcept { return t_error_slot.in_host_callback; }
[[noreturn]] void fail_in_host_callback();
}  // namespace detail

// Call at the start of every entry point that enqueues work, waits, loads or
// unloads code, changes or resets a context, or asks the driver about a
// kernel (copies, fills, allocations, launches, synchronisation, module
// loads, function attributes, occupancy, resets): costs a thread-local read.
// include/dccuda.h lists them under dc_stream_add_callback, and
// tests/reliability/test_host_functions.cpp checks the list against the code.
// `thread`: this thread's slot, where the caller has it in hand (guarded()
// gives it to the body), so that the check costs no second lookup.
inline void forbid_in_host_callback(const detail::ErrorSlot& thread) {
  if (thread.in_host_callback) [[unlikely]]
    detail::fail_in_host_callback();
}
inline void forbid_in_host_callback() { forbid_in_host_callback(detail::t_error_slot); }

// Enqueues fn(user_data) on `stream` through cuLaunchHostFunc; the device's
// context must be bound. The function runs on a driver thread.
void enqueue_host_callback(Stream& stream, dc_host_fn fn, void* user_data);

// A host function of a graph node (dc_graph_add_host_node): the driver calls
// run(this) at every launch, which calls fn(user_data) with the same guard
// as a stream's host function. Kept alive by the graph (never a handle: its
// HandleType is only what Object needs).
class HostFunction : public Object {
 public:
  HostFunction(dc_host_fn fn, void* user_data) noexcept
      : Object(HandleType::Graph), fn_(fn), user_data_(user_data) {}
  static void CUDA_CB run(void* self);

 private:
  dc_host_fn fn_;
  void* user_data_;
};

}  // namespace dc
