// A dc_fft_plan: one cuFFT plan (an FftEngine, from the plan cache or made
// anew) bound to a stream of its device. Releasing the last reference gives
// the engine back to the cache (libs/fft/plan_cache.h).
#pragma once

#include <cstdint>
#include <memory>

#include "dccuda.h"
#include "device/device.h"
#include "libs/fft/fft_engine.h"
#include "libs/fft/fft_shape.h"
#include "memory/buffer.h"
#include "stream/stream.h"

namespace dc {

class FftPlan : public DeviceObject {
 public:
  static constexpr HandleType kHandleType = HandleType::FftPlan;

  // The device's context must be bound; `shape` is checked (fft_shape_from).
  static Ref<FftPlan> create(Ref<Device> device, const FftShape& shape);
  ~FftPlan() override;

  const FftShape& shape() const noexcept { return shape_; }
  const FftBytes& bytes() const noexcept { return bytes_; }
  bool reused() const noexcept { return reused_; }
  uint64_t work_area_bytes() const noexcept { return engine_->work_bytes; }

  // Later executes go to `stream` (of this device; the caller checked).
  void set_stream(Ref<Stream> stream) noexcept { stream_ = std::move(stream); }

  // Checks the buffers, offsets and direction against the plan, then
  // enqueues the transform on the plan's stream. Bind the context first.
  void execute(Buffer& in, uint64_t in_offset, Buffer& out, uint64_t out_offset, int32_t direction);

 private:
  FftPlan(Ref<Device> device, const FftShape& shape) noexcept;

  FftShape shape_;
  FftBytes bytes_;
  bool reused_ = false;
  std::unique_ptr<FftEngine> engine_;
  Ref<Stream> stream_;
};

}  // namespace dc
