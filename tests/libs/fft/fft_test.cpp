#include "fft_test.h"

#include <cmath>

namespace ffttest {
namespace {

Layout side(const dc_fft_desc& desc, bool output, bool in_place) {
  Layout l;
  l.rank = desc.rank;
  l.batch = desc.batch;
  l.dbl = desc.precision == DC_FFT_DOUBLE;
  l.real = output ? desc.kind == DC_FFT_C2R : desc.kind == DC_FFT_R2C;
  bool half = desc.kind != DC_FFT_C2C && !l.real;
  for (int d = 0; d < desc.rank; ++d) l.m[d] = (d == desc.rank - 1 && half) ? desc.sizes[d] / 2 + 1 : desc.sizes[d];
  if (desc.advanced_layout) {
    for (int d = 0; d < desc.rank; ++d) l.embed[d] = output ? desc.onembed[d] : desc.inembed[d];
    l.stride = output ? desc.ostride : desc.istride;
    l.dist = output ? desc.odist : desc.idist;
  } else {
    uint64_t per = 1;
    for (int d = 0; d < desc.rank; ++d) {
      l.embed[d] = l.m[d];
      if (in_place && l.real && d == desc.rank - 1) l.embed[d] = 2 * (desc.sizes[d] / 2 + 1);
      per *= l.embed[d];
    }
    l.dist = per;
  }
  return l;
}

void coords(const Layout& l, uint64_t e, uint64_t* x) {
  for (int d = l.rank - 1; d >= 0; --d) {
    x[d] = e % l.m[d];
    e /= l.m[d];
  }
}

}  // namespace

Layout input_layout(const dc_fft_desc& desc, bool in_place) { return side(desc, false, in_place); }
Layout output_layout(const dc_fft_desc& desc, bool in_place) { return side(desc, true, in_place); }

std::vector<unsigned char> pack(const Layout& l, const std::vector<cld>& values, uint64_t total_bytes) {
  std::vector<unsigned char> out(total_bytes, 0);
  uint64_t per = l.logical();
  for (uint64_t b = 0; b < l.batch; ++b)
    for (uint64_t e = 0; e < per; ++e) {
      uint64_t x[3] = {0, 0, 0};
      coords(l, e, x);
      uint64_t at = l.index(b, x) * l.element_bytes();
      cld v = values[b * per + e];
      if (l.dbl) {
        double parts[2] = {static_cast<double>(v.real()), static_cast<double>(v.imag())};
        std::memcpy(&out[at], parts, l.element_bytes());
      } else {
        float parts[2] = {static_cast<float>(v.real()), static_cast<float>(v.imag())};
        std::memcpy(&out[at], parts, l.element_bytes());
      }
    }
  return out;
}

std::vector<cld> unpack(const Layout& l, const std::vector<unsigned char>& bytes) {
  uint64_t per = l.logical();
  std::vector<cld> out(per * l.batch);
  for (uint64_t b = 0; b < l.batch; ++b)
    for (uint64_t e = 0; e < per; ++e) {
      uint64_t x[3] = {0, 0, 0};
      coords(l, e, x);
      uint64_t at = l.index(b, x) * l.element_bytes();
      if (l.dbl) {
        double parts[2] = {0, 0};
        std::memcpy(parts, &bytes[at], l.element_bytes());
        out[b * per + e] = cld(parts[0], parts[1]);
      } else {
        float parts[2] = {0, 0};
        std::memcpy(parts, &bytes[at], l.element_bytes());
        out[b * per + e] = cld(parts[0], parts[1]);
      }
    }
  return out;
}

double error_bound(const dc_fft_desc& desc) {
  double n = 1;
  for (int d = 0; d < desc.rank; ++d) n *= static_cast<double>(desc.sizes[d]);
  double lg = std::max(1.0, std::log2(n));
  return (desc.precision == DC_FFT_DOUBLE ? 1e-12 : 1e-5) * lg;
}

double FftTest::run_against_reference(const dc_fft_desc& desc, int32_t direction, bool in_place, uint32_t seed) {
  Layout in = input_layout(desc, in_place), out = output_layout(desc, in_place);
  uint64_t n_full = 1;
  for (int d = 0; d < desc.rank; ++d) n_full *= desc.sizes[d];
  // Logical input and the expected logical output, per transform.
  std::vector<cld> x(in.logical() * desc.batch), expect(out.logical() * desc.batch);
  std::vector<double> r = random_values(2 * n_full * desc.batch, seed);
  for (uint64_t b = 0; b < desc.batch; ++b) {
    std::vector<cld> signal(n_full);
    for (uint64_t i = 0; i < n_full; ++i)
      signal[i] = desc.kind == DC_FFT_C2C ? cld(r[2 * (b * n_full + i)], r[2 * (b * n_full + i) + 1])
                                          : cld(r[2 * (b * n_full + i)], 0);
    if (desc.kind == DC_FFT_C2C) {
      std::vector<cld> y = reference_dft(signal, desc.sizes, desc.rank, direction);
      std::copy(signal.begin(), signal.end(), x.begin() + b * n_full);
      std::copy(y.begin(), y.end(), expect.begin() + b * n_full);
    } else {
      // R2C: a real signal and the half of its spectrum. C2R: that half in,
      // the signal times n out (cuFFT's inverse is unnormalised).
      std::vector<cld> spectrum = reference_dft(signal, desc.sizes, desc.rank, -1);
      std::vector<cld> half;
      uint64_t last = desc.sizes[desc.rank - 1], h = last / 2 + 1;
      for (uint64_t i = 0; i < n_full; ++i)
        if (i % last < h) half.push_back(spectrum[i]);
      if (desc.kind == DC_FFT_R2C) {
        std::copy(signal.begin(), signal.end(), x.begin() + b * n_full);
        std::copy(half.begin(), half.end(), expect.begin() + b * half.size());
      } else {
        std::copy(half.begin(), half.end(), x.begin() + b * half.size());
        for (uint64_t i = 0; i < n_full; ++i) expect[b * n_full + i] = signal[i] * static_cast<long double>(n_full);
      }
    }
  }
  uint64_t in_bytes = in.bytes(), out_bytes = out.bytes();
  if (in_place) in_bytes = out_bytes = std::max(in_bytes, out_bytes);
  dc_fft_plan plan = make_plan(desc);
  if (!plan) return -1;
  dc_fft_plan_info info = DC_FFT_PLAN_INFO_INIT;
  EXPECT_DC_OK(dc_fft_plan_info_get(plan, &info));
  // dccuda's own computation of what the plan spans agrees with the test's.
  if (in_place) {
    EXPECT_EQ(info.in_place_bytes, in_bytes);
  } else {
    EXPECT_EQ(info.input_bytes, in_bytes);
    EXPECT_EQ(info.output_bytes, out_bytes);
  }
  dc_buffer bin = alloc(in_bytes);
  dc_buffer bout = in_place ? bin : alloc(out_bytes);
  std::vector<unsigned char> host = pack(in, x, in_bytes);
  EXPECT_DC_OK(dc_buffer_write(bin, 0, host.data(), in_bytes));
  double err = -1;
  dc_status s = dc_fft_execute(plan, bin, 0, bout, 0, direction);
  EXPECT_EQ(s, DC_SUCCESS) << dc_last_error_message();
  if (s == DC_SUCCESS) {
    std::vector<unsigned char> result(out_bytes);
    EXPECT_DC_OK(dc_device_synchronize(device_));
    EXPECT_DC_OK(dc_buffer_read(bout, 0, result.data(), out_bytes));
    err = relative_error(unpack(out, result), expect);
  }
  if (!in_place) dc_buffer_release(bout);
  dc_buffer_release(bin);
  dc_fft_plan_release(plan);
  return err;
}

}  // namespace ffttest
