// A cuFFT transform's shape (dc_fft_desc checked and copied) and the bytes it
// reads and writes: what dc_fft_plan_create validates, the plan cache keys on
// and dc_fft_execute checks buffers against. No cuFFT call here.
#pragma once

#include <cstdint>

#include "dccuda.h"

namespace dc {

struct FftShape {
  int32_t rank = 1;
  int32_t type = DC_FFT_C2C;
  int32_t precision = DC_FFT_SINGLE;
  bool advanced = false;
  uint64_t n[3] = {0, 0, 0};
  uint64_t batch = 1;
  // Advanced layout only (all zero otherwise, so that equal shapes compare equal).
  uint64_t inembed[3] = {0, 0, 0};
  uint64_t istride = 0;
  uint64_t idist = 0;
  uint64_t onembed[3] = {0, 0, 0};
  uint64_t ostride = 0;
  uint64_t odist = 0;

  bool operator==(const FftShape&) const = default;
};

// Checks `desc` (struct_size, rank, type, precision, sizes, batch, layout),
// failing with DC_ERROR_INVALID_ARGUMENT naming the field and what to pass.
FftShape fft_shape_from(const dc_fft_desc& desc);

// The bytes of one element of the input and output sides: a real or a
// complex of the precision, by the type.
uint32_t fft_input_element_bytes(const FftShape& s) noexcept;
uint32_t fft_output_element_bytes(const FftShape& s) noexcept;

// The logical extent of dimension d of the input or output side: n[d], or
// n[rank-1]/2+1 in the last dimension of a complex side of R2C / C2R.
uint64_t fft_input_extent(const FftShape& s, int d) noexcept;
uint64_t fft_output_extent(const FftShape& s, int d) noexcept;

// Bytes from the offset that an out-of-place execute reads (input) and
// writes (output), and that one buffer must hold in place (the basic layout's
// real side padded as cuFFT requires). Never overflows: fft_shape_from has
// refused shapes whose extents pass 2^64 bytes.
struct FftBytes {
  uint64_t input = 0;
  uint64_t output = 0;
  uint64_t in_place = 0;
};
FftBytes fft_bytes(const FftShape& s) noexcept;

// "C2C single 2D 64x32 batch 4", for messages.
const char* fft_type_name(int32_t type) noexcept;

}  // namespace dc
