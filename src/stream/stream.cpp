#include "stream/stream.h"

#include <atomic>
#include <string>

#include "core/error.h"
#include "device/cuda_check.h"
#include "device/quiet_context.h"
#include "loader/driver.h"
#include "loader/nvtx.h"
#include "stream/capture_registry.h"

namespace dc {

Ref<Stream> Stream::create(Ref<Device> device, uint32_t flags, int32_t priority) {
  const DriverApi& api = driver_api();
  int least = 0, greatest = 0;
  check(api.cuCtxGetStreamPriorityRange(&least, &greatest), "cuCtxGetStreamPriorityRange", device.get());
  // Lower numbers are higher priority: greatest <= priority <= least.
  int clamped = priority < greatest ? greatest : priority > least ? least : priority;
  unsigned cu_flags = (flags & DC_STREAM_BLOCKING) ? CU_STREAM_DEFAULT : CU_STREAM_NON_BLOCKING;
  // The object first, so that nothing leaks if allocating it throws.
  Ref<Stream> s = Ref<Stream>::adopt(new Stream(device, nullptr, Kind::Owned));
  check(api.cuStreamCreateWithPriority(&s->handle_, cu_flags, clamped), "cuStreamCreateWithPriority", device.get());
  // Under a profiler (NVTX tool attached) dccuda's streams carry a name in
  // its timeline; without one this is one relaxed load.
  if (nvtx_attached()) {
    static std::atomic<uint64_t> g_streams{0};
    std::string name = strf("dccuda stream %llu (device %d)",
                            static_cast<unsigned long long>(g_streams.fetch_add(1, std::memory_order_relaxed) + 1),
                            device->ordinal());
    nvtx_name_stream(s->handle_, name.c_str());
  }
  return s;
}

Ref<Stream> Stream::default_stream(Ref<Device> device, int32_t which) {
  bool legacy = which == DC_STREAM_LEGACY;
  return Ref<Stream>::adopt(
      new Stream(std::move(device), legacy ? CU_STREAM_LEGACY : CU_STREAM_PER_THREAD, legacy ? Kind::Legacy : Kind::PerThread));
}

Ref<Stream> Stream::wrap(Ref<Device> device, CUstream stream) {
  return Ref<Stream>::adopt(new Stream(std::move(device), stream, Kind::Wrapped));
}

Stream::~Stream() {
  if (kind_ != Kind::Owned || !handle_) return;
  // A capture left open (the caller released the stream without ending it):
  // its registration would keep what it used alive for ever, and would
  // adopt the launches of the next stream the driver gives the same handle.
  std::vector<Ref<Object>> kept = capture_registry::end(handle_);
  // A stream made before dc_device_reset died with its context.
  if (!current()) return;
  QuietContextScope bind(device());
  if (!bind.ok()) return;
  const DriverApi& api = driver_api();
  CUstreamCaptureStatus status = CU_STREAM_CAPTURE_STATUS_NONE;
  if (api.cuStreamIsCapturing(handle_, &status) == CUDA_SUCCESS && status != CU_STREAM_CAPTURE_STATUS_NONE) {
    // Nothing can use the recorded graph any more: end the capture and drop it.
    CUgraph graph = nullptr;
    if (api.cuStreamEndCapture(handle_, &graph) == CUDA_SUCCESS && graph) api.cuGraphDestroy(graph);
  }
  release_quietly([&] { return api.cuStreamDestroy(handle_); });
}

bool Stream::capturing() const noexcept {
  CUstreamCaptureStatus status = CU_STREAM_CAPTURE_STATUS_NONE;
  if (driver_api().cuStreamIsCapturing(handle_, &status) != CUDA_SUCCESS) return false;
  return status != CU_STREAM_CAPTURE_STATUS_NONE;
}

void Stream::require_device(const Device& other, const char* what) const {
  if (&device() != &other) [[unlikely]]
    fail(DC_ERROR_INVALID_ARGUMENT, "stream is on device %d, %s is on device %d; use a stream of device %d",
         device().ordinal(), what, other.ordinal(), other.ordinal());
}

}  // namespace dc
