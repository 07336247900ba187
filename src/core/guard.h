// The shape of every extern "C" entry point: name the call, clear the last
// error, run the body, and turn anything thrown into a status. No exception
// ever crosses the C boundary.
#pragma once

#include <exception>
#include <new>
#include <type_traits>

#include "core/error.h"
#include "core/log.h"

namespace dc {

// A body that takes a detail::ErrorSlot& is given this thread's slot, so that
// the per-thread words of the layers above (the host-function flag, the
// context seen) cost no second thread-local lookup (the hot launch paths).
template <class Body>
inline dc_status guarded(const char* call, Body&& body) noexcept {
  // One thread-local lookup per call: the reference serves the end as well.
  detail::ErrorSlot& slot = detail::t_error_slot;
  ThreadError& e = thread_error(slot);
  if (e.in_log_callback) [[unlikely]]
    return refuse_in_log_callback(call);
  e.call = call;
  if (e.status != DC_SUCCESS) clear_thread_error(e);
  try {
    dc_status status;
    if constexpr (std::is_invocable_v<Body&, detail::ErrorSlot&>)
      status = body(slot);
    else
      status = body();
    // A failure recovered inside the call must not leave a stale message.
    if (status >= DC_SUCCESS && e.status != DC_SUCCESS) [[unlikely]]
      clear_thread_error(e);
    return status;
  } catch (const Failure& failure) {
    return failure.status;
  } catch (const std::bad_alloc&) {
    return record_failure(DC_ERROR_OUT_OF_MEMORY, "out of host memory; free memory and try again");
  } catch (const std::exception& ex) {
    return record_failure(DC_ERROR_INTERNAL, "internal error (%s); this is a dccuda bug, please report it", ex.what());
  } catch (...) {
    return record_failure(DC_ERROR_INTERNAL, "internal error (unknown exception); this is a dccuda bug, please report it");
  }
}

// Every out-pointer is zeroed before the body runs, so that it reads NULL / 0
// on any failure (the header's "Out-pointers" convention).
template <class T>
inline void clear_out(T* out) noexcept {
  if (out) *out = T{};
}

}  // namespace dc
