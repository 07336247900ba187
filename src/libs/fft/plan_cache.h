// The per-device cache of idle cuFFT plans (the header's "Plan cache"): a
// released dc_fft_plan's engine is kept, keyed by its whole shape, and a
// create of the same shape on the same device takes it instead of planning
// again. Bounded by DCCUDA_FFT_PLAN_CACHE per device (0: off), the least
// recently released pushed out first. An engine is in the cache or in one
// live plan, never both: cuFFT plans must not run on two streams at once.
//
// The cache lives for the process and is never destroyed (engines idle at
// exit are left to the process's end, as cuFFT's own teardown would need a
// driver that may already be gone). Thread-safe.
#pragma once

#include <cstdint>
#include <memory>

#include "device/device.h"
#include "libs/fft/fft_engine.h"
#include "libs/fft/fft_shape.h"

namespace dc {

// An idle engine of `shape` on `device` (of its current generation), or null.
std::unique_ptr<FftEngine> fft_cache_take(Device& device, const FftShape& shape);

// Keeps `engine` for reuse, pushing out (destroying) the oldest beyond the
// limit; destroys it at once when the cache is off or its device was reset.
// Never throws.
void fft_cache_give(const FftShape& shape, std::unique_ptr<FftEngine> engine) noexcept;

// Destroys idle engines of `device` until at most `keep` are left.
void fft_cache_trim(Device& device, uint32_t keep) noexcept;

// Idle engines of `device` now (tests).
uint64_t fft_cache_idle(Device& device) noexcept;

}  // namespace dc
