// A stream: one the library created (owned), one of the device's default
// streams, or another library's CUstream wrapped without ownership.
#pragma once

#include "loader/cuda_abi/driver_abi.h"

#include <cstdint>

#include "dccuda.h"
#include "device/device.h"

namespace dc {

// Cache-line aligned: what a launch reads (type, device, generation, the
// CUstream) is one line of it.
class alignas(64) Stream : public DeviceObject {
 public:
  static constexpr HandleType kHandleType = HandleType::Stream;

  enum class Kind : uint8_t {
    Owned,      // cuStreamCreateWithPriority; destroyed with the object
    Legacy,     // CU_STREAM_LEGACY
    PerThread,  // CU_STREAM_PER_THREAD
    Wrapped,    // another library's stream: never destroyed here
  };

  // dc_stream_create: non-blocking unless DC_STREAM_BLOCKING; `priority`
  // clamped to the device's range. The device's context must be bound.
  static Ref<Stream> create(Ref<Device> device, uint32_t flags, int32_t priority);
  // DC_STREAM_LEGACY / DC_STREAM_PER_THREAD (the caller has checked `which`).
  static Ref<Stream> default_stream(Ref<Device> device, int32_t which);
  static Ref<Stream> wrap(Ref<Device> device, CUstream stream);
  ~Stream() override;

  CUstream handle() const noexcept { return handle_; }
  Kind kind() const noexcept { return kind_; }

  // The stream a stream-ordered free of memory last used here goes to, from
  // any thread: the per-thread default stream names the calling thread's
  // stream, so a free on it from another thread would be ordered after the
  // wrong work; the legacy stream waits for every blocking stream, the
  // per-thread ones included.
  CUstream free_handle() const noexcept { return kind_ == Kind::PerThread ? CU_STREAM_LEGACY : handle_; }

  // Whether the stream is capturing a graph now (work enqueued on it is
  // recorded, not run). False when the driver cannot tell.
  bool capturing() const noexcept;

  // Fails with DC_ERROR_INVALID_ARGUMENT unless the stream is on `device`
  // ("stream is on device 1, dst is on device 0"); `what` names the other side.
  void require_device(const Device& device, const char* what) const;

 private:
  Stream(Ref<Device> device, CUstream handle, Kind kind) noexcept
      : DeviceObject(HandleType::Stream, std::move(device)), handle_(handle), kind_(kind) {}

  CUstream handle_;
  Kind kind_;
};

}  // namespace dc
