#include "libs/fft/fft_shape.h"

#include <algorithm>

#include "core/args.h"
#include "core/error.h"

namespace dc {
namespace {

// cuFFT's 64-bit interface takes long long: every value stays below 2^63.
constexpr uint64_t kMaxValue = uint64_t(1) << 62;

// a * b, or false on overflow past 2^64.
bool mul(uint64_t a, uint64_t b, uint64_t* out) noexcept { return !__builtin_mul_overflow(a, b, out); }
bool add(uint64_t a, uint64_t b, uint64_t* out) noexcept { return !__builtin_add_overflow(a, b, out); }

uint32_t real_bytes(int32_t precision) noexcept { return precision == DC_FFT_DOUBLE ? 8u : 4u; }

bool input_is_real(const FftShape& s) noexcept { return s.type == DC_FFT_R2C; }
bool output_is_real(const FftShape& s) noexcept { return s.type == DC_FFT_C2R; }

uint64_t extent(const FftShape& s, int d, bool complex_half) noexcept {
  if (d == s.rank - 1 && complex_half) return s.n[d] / 2 + 1;
  return s.n[d];
}

// The bytes one side spans from its offset: the last element's index + 1,
// times the element size; false on overflow. Basic layout: transforms packed
// one after another (`padded_last`: the last dimension's storage, which the
// in-place real side pads); advanced: cuFFT's embed/stride/dist formula.
bool side_bytes(const FftShape& s, bool output, bool padded, uint64_t* bytes) noexcept {
  const bool real = output ? output_is_real(s) : input_is_real(s);
  const bool half = s.type != DC_FFT_C2C && !real;
  uint32_t elem = real ? real_bytes(s.precision) : 2 * real_bytes(s.precision);
  uint64_t count = 0;
  if (!s.advanced) {
    uint64_t per = 1;
    for (int d = 0; d < s.rank; ++d) {
      uint64_t e = extent(s, d, half);
      // The in-place real side: rows of 2 * (n/2 + 1) reals.
      if (real && padded && d == s.rank - 1) e = 2 * (s.n[d] / 2 + 1);
      if (!mul(per, e, &per)) return false;
    }
    if (!mul(per, s.batch, &count)) return false;
  } else {
    const uint64_t* embed = output ? s.onembed : s.inembed;
    uint64_t stride = output ? s.ostride : s.istride;
    uint64_t dist = output ? s.odist : s.idist;
    // Index of the last element of one transform: sum of (m_d - 1) * the
    // storage of the faster dimensions, times the stride.
    uint64_t last = 0;
    for (int d = 0; d < s.rank; ++d) {
      uint64_t term = extent(s, d, half) - 1;
      for (int e = d + 1; e < s.rank; ++e)
        if (!mul(term, embed[e], &term)) return false;
      if (!add(last, term, &last)) return false;
    }
    if (!mul(last, stride, &last)) return false;
    uint64_t first_of_last = 0;
    if (!mul(s.batch - 1, dist, &first_of_last)) return false;
    if (!add(first_of_last, last, &count) || !add(count, 1, &count)) return false;
  }
  return mul(count, elem, bytes);
}

}  // namespace

const char* fft_type_name(int32_t type) noexcept {
  switch (type) {
    case DC_FFT_C2C: return "C2C";
    case DC_FFT_R2C: return "R2C";
    case DC_FFT_C2R: return "C2R";
    default: return "an unknown type";
  }
}

uint32_t fft_input_element_bytes(const FftShape& s) noexcept {
  return input_is_real(s) ? real_bytes(s.precision) : 2 * real_bytes(s.precision);
}
uint32_t fft_output_element_bytes(const FftShape& s) noexcept {
  return output_is_real(s) ? real_bytes(s.precision) : 2 * real_bytes(s.precision);
}
uint64_t fft_input_extent(const FftShape& s, int d) noexcept { return extent(s, d, s.type == DC_FFT_C2R); }
uint64_t fft_output_extent(const FftShape& s, int d) noexcept { return extent(s, d, s.type == DC_FFT_R2C); }

FftShape fft_shape_from(const dc_fft_desc& desc) {
  require_struct_size(desc.struct_size, sizeof(dc_fft_desc), "desc", "DC_FFT_DESC_INIT");
  FftShape s;
  if (desc.rank < 1 || desc.rank > 3)
    fail(DC_ERROR_INVALID_ARGUMENT, "desc->rank is %d; pass 1, 2 or 3 (cuFFT's transforms have 1 to 3 dimensions; "
         "more transforms of one shape go in desc->batch)", desc.rank);
  s.rank = desc.rank;
  if (desc.kind != DC_FFT_C2C && desc.kind != DC_FFT_R2C && desc.kind != DC_FFT_C2R)
    fail(DC_ERROR_INVALID_ARGUMENT, "desc->kind is %d; pass DC_FFT_C2C (%d), DC_FFT_R2C (%d) or DC_FFT_C2R (%d)",
         desc.kind, DC_FFT_C2C, DC_FFT_R2C, DC_FFT_C2R);
  s.type = desc.kind;
  if (desc.precision != DC_FFT_SINGLE && desc.precision != DC_FFT_DOUBLE)
    fail(DC_ERROR_INVALID_ARGUMENT, "desc->precision is %d; pass DC_FFT_SINGLE (%d) or DC_FFT_DOUBLE (%d)",
         desc.precision, DC_FFT_SINGLE, DC_FFT_DOUBLE);
  s.precision = desc.precision;
  if (desc.reserved != 0)
    fail(DC_ERROR_INVALID_ARGUMENT, "desc->reserved is %d; set it to 0 (DC_FFT_DESC_INIT does)", desc.reserved);
  for (int d = 0; d < s.rank; ++d) {
    if (desc.sizes[d] == 0 || desc.sizes[d] > kMaxValue)
      fail(DC_ERROR_INVALID_ARGUMENT, "desc->sizes[%d] is %llu; each of the first rank (%d) sizes must be 1 .. 2^62",
           d, static_cast<unsigned long long>(desc.sizes[d]), s.rank);
    s.n[d] = desc.sizes[d];
  }
  if (desc.batch == 0 || desc.batch > kMaxValue)
    fail(DC_ERROR_INVALID_ARGUMENT, "desc->batch is %llu; pass 1 .. 2^62 transforms",
         static_cast<unsigned long long>(desc.batch));
  s.batch = desc.batch;
  if (desc.advanced_layout != 0 && desc.advanced_layout != 1)
    fail(DC_ERROR_INVALID_ARGUMENT, "desc->advanced_layout is %d; pass 0 (basic layout) or 1 (the embed, stride and "
         "dist fields)", desc.advanced_layout);
  s.advanced = desc.advanced_layout == 1;
  if (s.advanced) {
    struct Side {
      const char* name;
      const uint64_t* embed;
      uint64_t stride, dist;
      uint64_t* out_embed;
      uint64_t* out_stride;
      uint64_t* out_dist;
      bool output;
    } sides[2] = {{"i", desc.inembed, desc.istride, desc.idist, s.inembed, &s.istride, &s.idist, false},
                  {"o", desc.onembed, desc.ostride, desc.odist, s.onembed, &s.ostride, &s.odist, true}};
    for (Side& side : sides) {
      if (side.stride == 0 || side.stride > kMaxValue)
        fail(DC_ERROR_INVALID_ARGUMENT, "desc->%sstride is %llu; pass 1 .. 2^62 elements", side.name,
             static_cast<unsigned long long>(side.stride));
      if (side.dist > kMaxValue || (side.dist == 0 && s.batch > 1))
        fail(DC_ERROR_INVALID_ARGUMENT, "desc->%sdist is %llu with batch %llu; pass 1 .. 2^62 elements between "
             "transforms (0 only for one transform)", side.name, static_cast<unsigned long long>(side.dist),
             static_cast<unsigned long long>(s.batch));
      for (int d = 0; d < s.rank; ++d) {
        uint64_t m = side.output ? fft_output_extent(s, d) : fft_input_extent(s, d);
        // embed[0] is not part of cuFFT's address: only its range is checked.
        if (side.embed[d] > kMaxValue || (d > 0 && side.embed[d] < m))
          fail(DC_ERROR_INVALID_ARGUMENT, "desc->%snembed[%d] is %llu, smaller than the %s's extent %llu in that "
               "dimension; pass at least the extent (and at most 2^62)", side.name, d,
               static_cast<unsigned long long>(side.embed[d]), side.output ? "output" : "input",
               static_cast<unsigned long long>(m));
        side.out_embed[d] = side.embed[d];
      }
      *side.out_stride = side.stride;
      *side.out_dist = side.dist;
    }
  }
  uint64_t bytes = 0;
  if (!side_bytes(s, false, true, &bytes) || !side_bytes(s, true, true, &bytes) || !side_bytes(s, false, false, &bytes) ||
      !side_bytes(s, true, false, &bytes))
    fail(DC_ERROR_INVALID_ARGUMENT, "desc describes a transform larger than 2^64 bytes (sizes, batch, embed, stride "
         "and dist multiply past it); make it smaller");
  return s;
}

FftBytes fft_bytes(const FftShape& s) noexcept {
  FftBytes b;
  side_bytes(s, false, false, &b.input);
  side_bytes(s, true, false, &b.output);
  uint64_t in_padded = 0, out_padded = 0;
  side_bytes(s, false, true, &in_padded);
  side_bytes(s, true, true, &out_padded);
  b.in_place = std::max(in_padded, out_padded);
  return b;
}

}  // namespace dc
