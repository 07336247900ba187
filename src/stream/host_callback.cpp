#include "stream/host_callback.h"

#include "core/error.h"
#include "device/cuda_check.h"
#include "loader/driver.h"
#include "platform/managed_threads.h"
#include "stream/capture_registry.h"

namespace dc {
namespace detail {

void fail_in_host_callback() {
  fail(DC_ERROR_INVALID_STATE,
       "called from a host function running on a stream (dc_stream_add_callback); the driver forbids CUDA work "
       "there: record what is needed and do it after the callback has returned");
}

}  // namespace detail

namespace {

// C and C++ function pointers of this shape have the same calling convention
// on every 64-bit platform the driver supports (CUDA_CB is empty there, and
// __stdcall is ignored on x64 Windows), so a captured callback may call the
// caller's function directly.
static_assert(sizeof(CUhostFn) == sizeof(dc_host_fn));

struct HostCall {
  dc_host_fn fn;
  void* user_data;
};

// Runs the caller's function on the driver's callback thread, marked so that
// dc_ calls from it are refused instead of deadlocking, and leaves the thread
// as it found it (a managed runtime the function attached it to lets go).
void run_host_function(dc_host_fn fn, void* user_data) {
  platform::ManagedThreadScope managed;
  bool& flag = detail::in_host_callback();
  bool outer = flag;
  flag = true;
  fn(user_data);
  flag = outer;
}

void CUDA_CB trampoline(void* p) {
  HostCall call = *static_cast<HostCall*>(p);
  delete static_cast<HostCall*>(p);
  run_host_function(call.fn, call.user_data);
}

}  // namespace

void CUDA_CB HostFunction::run(void* self) {
  const HostFunction* h = static_cast<const HostFunction*>(self);
  run_host_function(h->fn_, h->user_data_);
}

void enqueue_host_callback(Stream& stream, dc_host_fn fn, void* user_data) {
  const DriverApi& api = driver_api();
  // Asked with its error checked: a capture taken for none would put the
  // trampoline's one-shot record into a graph that runs it many times.
  CUstreamCaptureStatus status = CU_STREAM_CAPTURE_STATUS_NONE;
  check(api.cuStreamIsCapturing(stream.handle(), &status), "cuStreamIsCapturing", &stream.device());
  if (status != CU_STREAM_CAPTURE_STATUS_NONE) {
    // A captured host node runs at every launch of the graph: it cannot own a
    // record that the first run frees. A capture begun with
    // dc_stream_begin_capture hands what it keeps to its graph, which then
    // keeps a record for as long as it can run; a capture begun elsewhere
    // keeps nothing, so the caller's function goes in as it is (without the
    // trampoline's marking of the thread).
    Ref<HostFunction> record = Ref<HostFunction>::adopt(new HostFunction(fn, user_data));
    if (capture_registry::keep(stream.handle(), record.get())) {
      check(api.cuLaunchHostFunc(stream.handle(), &HostFunction::run, record.get()), "cuLaunchHostFunc",
            &stream.device());
      return;
    }
    check(api.cuLaunchHostFunc(stream.handle(), reinterpret_cast<CUhostFn>(fn), user_data), "cuLaunchHostFunc",
          &stream.device());
    return;
  }
  auto* call = new HostCall{fn, user_data};
  CUresult r = api.cuLaunchHostFunc(stream.handle(), trampoline, call);
  if (r != CUDA_SUCCESS) {
    delete call;
    check(r, "cuLaunchHostFunc", &stream.device());
  }
}

}  // namespace dc
