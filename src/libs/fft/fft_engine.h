// One cuFFT plan with its work area: what a dc_fft_plan runs, and what the
// plan cache keeps while no handle uses it. Not thread-safe: one owner at a
// time (a live plan, or the cache).
#pragma once

#include "loader/cuda_abi/cufft_abi.h"

#include <cstdint>
#include <memory>

#include "device/device.h"
#include "libs/fft/fft_shape.h"
#include "memory/buffer.h"
#include "stream/stream.h"

namespace dc {

struct FftEngine {
  Ref<Device> device;
  uint32_t generation = 0;     // the device's when made: after a reset the plan died with the context
  cufftHandle handle = 0;
  bool handle_made = false;    // cufftCreate succeeded: cufftDestroy is due
  Ref<Buffer> work;            // dccuda's work area; null when cuFFT needs none
  uint64_t work_bytes = 0;
  Ref<Stream> last_stream;     // where it last ran (kept alive for a switch of streams)
  CUevent switch_event = nullptr;
  CUstream bound_stream = nullptr;  // what cufftSetStream was last given
  bool stream_bound = false;

  FftEngine() = default;
  FftEngine(const FftEngine&) = delete;
  FftEngine& operator=(const FftEngine&) = delete;
  // cufftDestroy and the event's destruction, with the context bound; nothing
  // when the device was reset since (those objects died with the context).
  ~FftEngine();

  // Makes the plan for `shape` on `device` (its context bound): cufftCreate,
  // cufftSetAutoAllocation(0), cufftMakePlanMany64, the work area,
  // cufftSetWorkArea. Fails with the cuFFT result mapped to a dc_status.
  static std::unique_ptr<FftEngine> make(Ref<Device> device, const FftShape& shape);

  // Makes `stream` wait for the work this engine enqueued elsewhere, then
  // binds the plan to it (cufftSetStream) if it is not already.
  void use_stream(Stream& stream);
};

// Fails with the dc_status a cuFFT result maps to, naming `entry` and what to do.
[[noreturn]] void fail_cufft(int result, const char* entry, const char* hint = nullptr);
inline void check_cufft(int result, const char* entry, const char* hint = nullptr) {
  if (result != 0) [[unlikely]]
    fail_cufft(result, entry, hint);
}

// How many plans cufftMakePlanMany64 made in this process (tests see the
// cache work through it and through dc_fft_plan_info.reused).
uint64_t fft_plans_made() noexcept;

}  // namespace dc
