#include "graph/capture.h"

#include <mutex>
#include <shared_mutex>

#include "core/error.h"
#include "device/cuda_check.h"
#include "loader/driver.h"
#include "stream/capture_registry.h"

namespace dc {
namespace {

CUstreamCaptureStatus capture_status(Stream& s) {
  CUstreamCaptureStatus status = CU_STREAM_CAPTURE_STATUS_NONE;
  check(driver_api().cuStreamIsCapturing(s.handle(), &status), "cuStreamIsCapturing", &s.device());
  return status;
}

}  // namespace

void begin_capture(Stream& s, int32_t mode) {
  if (mode != DC_CAPTURE_GLOBAL && mode != DC_CAPTURE_THREAD_LOCAL && mode != DC_CAPTURE_RELAXED)
    fail(DC_ERROR_INVALID_ARGUMENT, "mode is %d; use DC_CAPTURE_GLOBAL (%d), DC_CAPTURE_THREAD_LOCAL (%d) or "
         "DC_CAPTURE_RELAXED (%d)", mode, DC_CAPTURE_GLOBAL, DC_CAPTURE_THREAD_LOCAL, DC_CAPTURE_RELAXED);
  if (s.kind() == Stream::Kind::Legacy || s.kind() == Stream::Kind::PerThread)
    fail(DC_ERROR_INVALID_ARGUMENT, "stream is one of the device's default streams, which dccuda does not capture; "
         "capture a stream made with dc_stream_create");
  CUstreamCaptureStatus status = capture_status(s);
  if (status != CU_STREAM_CAPTURE_STATUS_NONE)
    fail(DC_ERROR_INVALID_STATE, "stream is already capturing%s; end that capture with dc_stream_end_capture first",
         status == CU_STREAM_CAPTURE_STATUS_INVALIDATED ? " (a capture that was invalidated)" : "");
  // Not in the middle of a context-wide wait, which would invalidate the
  // capture at once (stream/device_wait.h).
  std::unique_lock<std::shared_mutex> gate(s.device().capture_gate());
  // Registered first: a launch from another thread right after the driver
  // call must find the capture.
  capture_registry::begin(s.handle(), s.device());
  CUresult r = driver_api().cuStreamBeginCapture(s.handle(), static_cast<CUstreamCaptureMode>(mode));
  if (r != CUDA_SUCCESS) {
    capture_registry::end(s.handle());
    check(r, "cuStreamBeginCapture", &s.device());
  }
}

Ref<Graph> end_capture(Stream& s) {
  if (capture_status(s) == CU_STREAM_CAPTURE_STATUS_NONE)
    fail(DC_ERROR_INVALID_STATE, "stream is not capturing; call dc_stream_begin_capture first");
  const DriverApi& api = driver_api();
  CUgraph graph = nullptr;
  CUresult r = api.cuStreamEndCapture(s.handle(), &graph);
  // Still capturing (ended on the wrong thread): the registration stays.
  std::vector<Ref<Object>> keep;
  if (r != CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD) keep = capture_registry::end(s.handle());
  if (r == CUDA_ERROR_STREAM_CAPTURE_INVALIDATED)
    fail_cuda(DC_ERROR_INVALID_STATE, r,
              "the capture was invalidated by a call that is not allowed while a stream captures (a synchronisation "
              "of the stream, or, in DC_CAPTURE_GLOBAL or DC_CAPTURE_THREAD_LOCAL mode, a call the driver forbids "
              "during capture such as a synchronous copy or allocation; or a synchronisation of the context the "
              "driver made for another thread, as loading a module's kernel may need); nothing was recorded and the "
              "stream has stopped capturing: begin again without that call (get functions before capturing), or use "
              "DC_CAPTURE_RELAXED");
  if (r == CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD)
    fail_cuda(DC_ERROR_INVALID_STATE, r,
              "the capture was begun on another thread in DC_CAPTURE_GLOBAL or DC_CAPTURE_THREAD_LOCAL mode; end it on "
              "that thread, or begin it with DC_CAPTURE_RELAXED");
  check(r, "cuStreamEndCapture", &s.device());
  try {
    return make_ref<Graph>(s.device_ref(), graph, std::move(keep));
  } catch (...) {
    api.cuGraphDestroy(graph);
    throw;
  }
}

bool is_capturing(Stream& s) { return capture_status(s) != CU_STREAM_CAPTURE_STATUS_NONE; }

}  // namespace dc
