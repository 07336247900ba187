// dc_fft_*: transforms of every kind, precision and rank against a CPU
// reference, the advanced layout, in place, bad input refused before cuFFT
// sees it, the plan cache, release orders and cuFFT's failures. On the fake
// cuFFT in CI; the same binary on a GPU runs the transforms on the real one
// (the tests that need the fake's counters skip there).
#include "fft_test.h"

#include <cstdio>
#include <string>

namespace {

using namespace ffttest;

struct Shape {
  int32_t rank;
  std::initializer_list<uint64_t> sizes;
  uint64_t batch;
};

TEST_F(FftTest, TheLibraryVersionIsReported) {
  int32_t v = 0;
  ASSERT_DC_OK(dc_fft_library_version(&v));
  if (fake_cufft()) {
    EXPECT_EQ(v, 12000);
  }
  else EXPECT_GE(v, 11000);
  EXPECT_DC_ERROR(dc_fft_library_version(nullptr), DC_ERROR_INVALID_ARGUMENT, "version");
}

// Every kind and precision, 1D, 2D and 3D, batched and not, out of place.
TEST_F(FftTest, TransformsMatchTheReference) {
  const Shape shapes[] = {{1, {16}, 1}, {1, {12}, 3}, {1, {7}, 2}, {2, {8, 6}, 1}, {2, {5, 4}, 2}, {3, {4, 6, 5}, 1},
                          {3, {3, 4, 4}, 2}};
  uint32_t seed = 1;
  for (int32_t precision : {DC_FFT_SINGLE, DC_FFT_DOUBLE})
    for (int32_t kind : {DC_FFT_C2C, DC_FFT_R2C, DC_FFT_C2R})
      for (const Shape& s : shapes) {
        dc_fft_desc d = basic(s.rank, kind, precision, s.sizes, s.batch);
        std::vector<int32_t> directions = kind == DC_FFT_C2C ? std::vector<int32_t>{DC_FFT_FORWARD, DC_FFT_INVERSE}
                                        : kind == DC_FFT_R2C ? std::vector<int32_t>{DC_FFT_FORWARD}
                                                             : std::vector<int32_t>{DC_FFT_INVERSE};
        for (int32_t dir : directions) {
          double err = run_against_reference(d, dir, false, seed++);
          EXPECT_GE(err, 0.0);
          EXPECT_LT(err, error_bound(d)) << "kind " << kind << " precision " << precision << " rank " << s.rank
                                         << " batch " << s.batch << " direction " << dir;
        }
      }
}

// On the real cuFFT (the GPU suite): larger transforms, where cuFFT's own
// algorithms (not one small kernel) run; the reference is O(n^2), so the
// sizes stay where it takes well under a second each.
TEST_F(FftTest, LargerTransformsOnTheRealLibraryMatchTheReference) {
  if (fake_cufft()) GTEST_SKIP() << "for the real cuFFT (the fake's naive DFT is the same at every size)";
  uint32_t seed = 500;
  for (int32_t precision : {DC_FFT_SINGLE, DC_FFT_DOUBLE}) {
    for (dc_fft_desc d : {basic(1, DC_FFT_C2C, precision, {4096}), basic(1, DC_FFT_C2C, precision, {1000}, 3),
                          basic(2, DC_FFT_R2C, precision, {64, 48}), basic(3, DC_FFT_C2R, precision, {16, 12, 20}),
                          basic(1, DC_FFT_R2C, precision, {2187}, 2)}) {
      double err = run_against_reference(d, d.kind == DC_FFT_C2R ? DC_FFT_INVERSE : DC_FFT_FORWARD, false, seed++);
      std::printf("[ dccuda   ] cuFFT %s %s rank %d sizes %llu %llu %llu batch %llu: relative error %.3g (bound %.3g)\n",
                  d.kind == DC_FFT_C2C ? "C2C" : d.kind == DC_FFT_R2C ? "R2C" : "C2R",
                  precision == DC_FFT_DOUBLE ? "double" : "single", d.rank, (unsigned long long)d.sizes[0],
                  (unsigned long long)d.sizes[1], (unsigned long long)d.sizes[2], (unsigned long long)d.batch, err,
                  error_bound(d));
      EXPECT_GE(err, 0.0);
      EXPECT_LT(err, error_bound(d));
    }
  }
}

TEST_F(FftTest, InPlaceTransformsMatchTheReference) {
  uint32_t seed = 100;
  for (int32_t precision : {DC_FFT_SINGLE, DC_FFT_DOUBLE}) {
    for (dc_fft_desc d : {basic(1, DC_FFT_C2C, precision, {16}, 2), basic(2, DC_FFT_C2C, precision, {4, 6}),
                          basic(1, DC_FFT_R2C, precision, {10}, 2), basic(2, DC_FFT_R2C, precision, {4, 7}),
                          basic(1, DC_FFT_C2R, precision, {9}, 3), basic(3, DC_FFT_C2R, precision, {2, 3, 6})}) {
      double err = run_against_reference(d, d.kind == DC_FFT_C2R ? DC_FFT_INVERSE : DC_FFT_FORWARD, true, seed++);
      EXPECT_GE(err, 0.0);
      EXPECT_LT(err, error_bound(d)) << "kind " << d.kind << " rank " << d.rank;
    }
  }
}

// Forward then inverse gives n times the input (cuFFT does not normalise).
TEST_F(FftTest, ARoundTripScalesByN) {
  dc_fft_desc d = basic(2, DC_FFT_C2C, DC_FFT_DOUBLE, {6, 5}, 2);
  dc_fft_plan plan = make_plan(d);
  ASSERT_NE(plan, nullptr);
  const uint64_t count = 6 * 5 * 2;
  std::vector<double> x = random_values(2 * count, 7), y(2 * count);
  dc_buffer a = alloc(16 * count), b = alloc(16 * count);
  ASSERT_DC_OK(dc_buffer_write(a, 0, x.data(), 16 * count));
  ASSERT_DC_OK(dc_fft_execute(plan, a, 0, b, 0, DC_FFT_FORWARD));
  ASSERT_DC_OK(dc_fft_execute(plan, b, 0, a, 0, DC_FFT_INVERSE));
  ASSERT_DC_OK(dc_device_synchronize(device_));
  ASSERT_DC_OK(dc_buffer_read(a, 0, y.data(), 16 * count));
  for (size_t i = 0; i < 2 * count; ++i) EXPECT_NEAR(y[i], 30.0 * x[i], 1e-11) << i;
  dc_buffer_release(a);
  dc_buffer_release(b);
  dc_fft_plan_release(plan);
}

// cufftPlanMany's layout: interleaved transforms (stride = batch, dist = 1)
// and padded rows with a gap between transforms.
TEST_F(FftTest, TheAdvancedLayoutMatchesTheReference) {
  uint32_t seed = 200;
  {
    dc_fft_desc d = basic(1, DC_FFT_C2C, DC_FFT_SINGLE, {8}, 3);
    d.advanced_layout = 1;
    d.inembed[0] = 8;
    d.istride = 3;
    d.idist = 1;
    d.onembed[0] = 8;
    d.ostride = 3;
    d.odist = 1;
    double err = run_against_reference(d, DC_FFT_FORWARD, false, seed++);
    EXPECT_GE(err, 0.0);
    EXPECT_LT(err, error_bound(d));
  }
  for (int32_t kind : {DC_FFT_C2C, DC_FFT_R2C, DC_FFT_C2R}) {
    dc_fft_desc d = basic(2, kind, DC_FFT_DOUBLE, {4, 6}, 2);
    uint64_t in_last = kind == DC_FFT_C2R ? 4 : 6, out_last = kind == DC_FFT_R2C ? 4 : 6;
    d.advanced_layout = 1;
    d.inembed[0] = 5;
    d.inembed[1] = in_last + 3;
    d.istride = 1;
    d.idist = 5 * (in_last + 3) + 2;
    d.onembed[0] = 4;
    d.onembed[1] = out_last + 1;
    d.ostride = 1;
    d.odist = 4 * (out_last + 1) + 7;
    double err = run_against_reference(d, kind == DC_FFT_C2R ? DC_FFT_INVERSE : DC_FFT_FORWARD, false, seed++);
    EXPECT_GE(err, 0.0);
    EXPECT_LT(err, error_bound(d)) << "kind " << kind;
  }
}

// Every malformed descriptor is refused naming the field, and cuFFT never
// hears of it.
TEST_F(FftTest, BadDescriptorsAreRefusedBeforeCufft) {
  long made = fake_cufft() ? fake_cufft().call_count("cufftMakePlanMany64") : 0;
  long created = fake_cufft() ? fake_cufft().call_count("cufftCreate") : 0;
  struct Bad {
    const char* text;
    void (*spoil)(dc_fft_desc&);
  } bads[] = {
      {"desc->struct_size", [](dc_fft_desc& d) { d.struct_size = 8; }},
      {"desc->rank is 0", [](dc_fft_desc& d) { d.rank = 0; }},
      {"desc->rank is 4", [](dc_fft_desc& d) { d.rank = 4; }},
      {"desc->kind is 9", [](dc_fft_desc& d) { d.kind = 9; }},
      {"desc->precision is 0", [](dc_fft_desc& d) { d.precision = 0; }},
      {"desc->sizes[0] is 0", [](dc_fft_desc& d) { d.sizes[0] = 0; }},
      {"desc->sizes[1] is 0", [](dc_fft_desc& d) { d.rank = 2; }},
      {"desc->sizes[0] is 9223372036854775808", [](dc_fft_desc& d) { d.sizes[0] = uint64_t(1) << 63; }},
      {"desc->batch is 0", [](dc_fft_desc& d) { d.batch = 0; }},
      {"desc->reserved is 1", [](dc_fft_desc& d) { d.reserved = 1; }},
      {"desc->advanced_layout is 2", [](dc_fft_desc& d) { d.advanced_layout = 2; }},
      {"desc->istride is 0", [](dc_fft_desc& d) { d.advanced_layout = 1; d.istride = 0; }},
      {"desc->odist is 0 with batch 2",
       [](dc_fft_desc& d) { d.advanced_layout = 1; d.istride = d.ostride = 1; d.batch = 2; d.idist = 16; }},
      {"desc->onembed[1] is 3, smaller than the output's extent 4",
       [](dc_fft_desc& d) {
         d.rank = 2; d.sizes[1] = 4; d.advanced_layout = 1; d.istride = d.ostride = 1;
         d.inembed[1] = 4; d.onembed[1] = 3;
       }},
      {"larger than 2^64 bytes",
       [](dc_fft_desc& d) { d.rank = 3; d.sizes[0] = d.sizes[1] = d.sizes[2] = uint64_t(1) << 22; }},
  };
  for (const Bad& b : bads) {
    dc_fft_desc d = basic(1, DC_FFT_C2C, DC_FFT_SINGLE, {16});
    b.spoil(d);
    dc_fft_plan p = reinterpret_cast<dc_fft_plan>(uintptr_t(77));
    EXPECT_DC_ERROR(dc_fft_plan_create(device_, &d, &p), DC_ERROR_INVALID_ARGUMENT, b.text);
    EXPECT_EQ(p, nullptr);
  }
  dc_fft_desc d = basic(1, DC_FFT_C2C, DC_FFT_SINGLE, {16});
  dc_fft_plan p = nullptr;
  EXPECT_DC_ERROR(dc_fft_plan_create(device_, nullptr, &p), DC_ERROR_INVALID_ARGUMENT, "desc");
  EXPECT_DC_ERROR(dc_fft_plan_create(device_, &d, nullptr), DC_ERROR_INVALID_ARGUMENT, "plan");
  EXPECT_DC_ERROR(dc_fft_plan_create(nullptr, &d, &p), DC_ERROR_INVALID_HANDLE, "device");
  if (fake_cufft()) {
    EXPECT_EQ(fake_cufft().call_count("cufftMakePlanMany64"), made);
    EXPECT_EQ(fake_cufft().call_count("cufftCreate"), created);
  }
}

// Buffers too small, misaligned offsets, wrong directions, overlapping
// ranges: refused with what was needed, and no execute reaches cuFFT.
TEST_F(FftTest, BadExecutesAreRefusedBeforeCufft) {
  dc_fft_desc d = basic(2, DC_FFT_R2C, DC_FFT_SINGLE, {4, 6}, 2);  // in: 4*6*2 floats = 192 B; out: 4*4*2 complex = 256 B
  dc_fft_plan plan = make_plan(d);
  ASSERT_NE(plan, nullptr);
  dc_fft_plan_info info = DC_FFT_PLAN_INFO_INIT;
  ASSERT_DC_OK(dc_fft_plan_info_get(plan, &info));
  EXPECT_EQ(info.input_bytes, 192u);
  EXPECT_EQ(info.output_bytes, 256u);
  EXPECT_EQ(info.in_place_bytes, 256u);
  EXPECT_EQ(info.device_ordinal, 0);
  dc_buffer in = alloc(192), out = alloc(256), small_in = alloc(191), small_out = alloc(255), big = alloc(1024);
  long execs = fake_cufft() ? fake_cufft().call_count("cufftExecR2C") : 0;
  EXPECT_DC_ERROR(dc_fft_execute(plan, small_in, 0, out, 0, DC_FFT_FORWARD), DC_ERROR_OUT_OF_RANGE,
                  "the input needs 192 bytes from in_offset 0, but in holds 191 bytes");
  EXPECT_DC_ERROR(dc_fft_execute(plan, in, 0, small_out, 0, DC_FFT_FORWARD), DC_ERROR_OUT_OF_RANGE,
                  "the output needs 256 bytes from out_offset 0, but out holds 255 bytes");
  EXPECT_DC_ERROR(dc_fft_execute(plan, big, 900, out, 0, DC_FFT_FORWARD), DC_ERROR_OUT_OF_RANGE,
                  "the input needs 192 bytes from in_offset 900, but in holds 1024 bytes");
  EXPECT_DC_ERROR(dc_fft_execute(plan, in, 0, big, UINT64_MAX - 7, DC_FFT_FORWARD), DC_ERROR_OUT_OF_RANGE,
                  "the output needs 256 bytes");
  EXPECT_DC_ERROR(dc_fft_execute(plan, big, 2, out, 0, DC_FFT_FORWARD), DC_ERROR_INVALID_ARGUMENT,
                  "in_offset 2 is not a multiple of the input element size (4 bytes)");
  EXPECT_DC_ERROR(dc_fft_execute(plan, in, 0, big, 4, DC_FFT_FORWARD), DC_ERROR_INVALID_ARGUMENT,
                  "out_offset 4 is not a multiple of the output element size (8 bytes)");
  EXPECT_DC_ERROR(dc_fft_execute(plan, in, 0, out, 0, DC_FFT_INVERSE), DC_ERROR_INVALID_ARGUMENT,
                  "an R2C plan only transforms forward");
  EXPECT_DC_ERROR(dc_fft_execute(plan, in, 0, out, 0, 0), DC_ERROR_INVALID_ARGUMENT, "direction is 0");
  // In place needs the padded size; overlapping but not in place is refused.
  EXPECT_DC_ERROR(dc_fft_execute(plan, in, 0, in, 0, DC_FFT_FORWARD), DC_ERROR_OUT_OF_RANGE,
                  "the input needs 256 bytes from in_offset 0, but in holds 192 bytes");
  EXPECT_DC_ERROR(dc_fft_execute(plan, big, 0, big, 64, DC_FFT_FORWARD), DC_ERROR_INVALID_ARGUMENT, "overlap");
  EXPECT_DC_ERROR(dc_fft_execute(nullptr, in, 0, out, 0, DC_FFT_FORWARD), DC_ERROR_INVALID_HANDLE, "plan");
  EXPECT_DC_ERROR(dc_fft_execute(plan, nullptr, 0, out, 0, DC_FFT_FORWARD), DC_ERROR_INVALID_HANDLE, "in");
  EXPECT_DC_ERROR(dc_fft_execute(plan, in, 0, nullptr, 0, DC_FFT_FORWARD), DC_ERROR_INVALID_HANDLE, "out");
  if (fake_cufft()) {
    EXPECT_EQ(fake_cufft().call_count("cufftExecR2C"), execs);
  }
  // The exact sizes pass, and a view at an offset too.
  EXPECT_DC_OK(dc_fft_execute(plan, in, 0, out, 0, DC_FFT_FORWARD));
  EXPECT_DC_OK(dc_fft_execute(plan, big, 512, big, 0, DC_FFT_FORWARD));
  EXPECT_DC_OK(dc_device_synchronize(device_));
  if (fake_cufft()) {
    EXPECT_EQ(fake_cufft().bad_ranges(), 0);
  }
  for (dc_buffer b : {in, out, small_in, small_out, big}) dc_buffer_release(b);
  dc_fft_plan_release(plan);

  dc_fft_desc c2r = basic(1, DC_FFT_C2R, DC_FFT_DOUBLE, {8});
  dc_fft_plan p2 = make_plan(c2r);
  dc_buffer b2 = alloc(256);
  EXPECT_DC_ERROR(dc_fft_execute(p2, b2, 0, b2, 128, DC_FFT_FORWARD), DC_ERROR_INVALID_ARGUMENT,
                  "a C2R plan only transforms inverse");
  dc_buffer_release(b2);
  dc_fft_plan_release(p2);
}

TEST_F(FftTest, InfoAndStreamArgumentsAreChecked) {
  dc_fft_plan plan = make_plan(basic(1, DC_FFT_C2C, DC_FFT_SINGLE, {8}));
  ASSERT_NE(plan, nullptr);
  dc_fft_plan_info info = DC_FFT_PLAN_INFO_INIT;
  info.struct_size = 4;
  EXPECT_DC_ERROR(dc_fft_plan_info_get(plan, &info), DC_ERROR_INVALID_ARGUMENT, "info->struct_size");
  EXPECT_DC_ERROR(dc_fft_plan_info_get(plan, nullptr), DC_ERROR_INVALID_ARGUMENT, "info");
  EXPECT_DC_ERROR(dc_fft_plan_set_stream(nullptr, nullptr), DC_ERROR_INVALID_HANDLE, "plan");
  EXPECT_DC_ERROR(dc_fft_plan_set_stream(plan, reinterpret_cast<dc_stream>(uintptr_t(12345))), DC_ERROR_INVALID_HANDLE,
                  "stream");
  EXPECT_DC_OK(dc_fft_plan_set_stream(plan, nullptr));
  dc_fft_plan_release(plan);
}

// A plan on a stream of its own; a switch of streams makes the new stream
// wait for the old one (the work area is shared), once per switch.
TEST_F(FftTest, ExecutesRunOnThePlansStream) {
  dc_fft_plan plan = make_plan(basic(1, DC_FFT_C2C, DC_FFT_SINGLE, {32}, 4));
  ASSERT_NE(plan, nullptr);
  dc_stream s1 = nullptr, s2 = nullptr;
  ASSERT_DC_OK(dc_stream_create(device_, 0, 0, &s1));
  ASSERT_DC_OK(dc_stream_create(device_, 0, 0, &s2));
  dc_buffer a = alloc(32 * 4 * 8), b = alloc(32 * 4 * 8);
  std::vector<double> v = random_values(256, 3);
  std::vector<float> x(v.begin(), v.end());
  ASSERT_DC_OK(dc_buffer_write(a, 0, x.data(), x.size() * 4));
  const dctest::FakeDriver* fake = dctest::fake_driver();
  if (fake) fake->reset();
  ASSERT_DC_OK(dc_fft_plan_set_stream(plan, s1));
  ASSERT_DC_OK(dc_fft_execute(plan, a, 0, b, 0, DC_FFT_FORWARD));
  ASSERT_DC_OK(dc_fft_execute(plan, b, 0, a, 0, DC_FFT_INVERSE));
  if (fake) {
    EXPECT_EQ(fake->call_count("cuStreamWaitEvent"), 0);
  }
  ASSERT_DC_OK(dc_fft_plan_set_stream(plan, s2));
  // The stream the plan held stays alive after its handle goes.
  dc_stream_release(s1);
  ASSERT_DC_OK(dc_fft_execute(plan, a, 0, b, 0, DC_FFT_FORWARD));
  ASSERT_DC_OK(dc_fft_execute(plan, b, 0, a, 0, DC_FFT_INVERSE));
  if (fake) {
    EXPECT_EQ(fake->call_count("cuStreamWaitEvent"), 1);
  }
  if (fake_cufft()) {
    EXPECT_EQ(fake_cufft().call_count("cufftSetStream"), 2);
  }
  ASSERT_DC_OK(dc_stream_synchronize(s2));
  std::vector<float> y(x.size());
  ASSERT_DC_OK(dc_buffer_read(a, 0, y.data(), y.size() * 4));
  for (size_t i = 0; i < x.size(); ++i) EXPECT_NEAR(y[i], 32.0f * 32.0f * x[i], 1e-2f) << i;
  dc_buffer_release(a);
  dc_buffer_release(b);
  dc_stream_release(s2);
  dc_fft_plan_release(plan);
}

// A released plan is taken again by a create of the same descriptor; a live
// plan is never shared; another shape plans anew; trim gives them back.
TEST_F(FftTest, ThePlanCacheReusesReleasedPlans) {
  ASSERT_DC_OK(dc_fft_plan_cache_trim(device_, 0));
  long made = fake_cufft() ? fake_cufft().plans_made() : 0;
  dc_fft_desc d = basic(2, DC_FFT_C2C, DC_FFT_DOUBLE, {8, 4}, 3);
  dc_fft_plan a = make_plan(d);
  dc_fft_plan_info info = DC_FFT_PLAN_INFO_INIT;
  ASSERT_DC_OK(dc_fft_plan_info_get(a, &info));
  EXPECT_EQ(info.reused, 0);
  dc_fft_plan b = make_plan(d);  // a lives: b plans anew
  ASSERT_DC_OK(dc_fft_plan_info_get(b, &info));
  EXPECT_EQ(info.reused, 0);
  dc_fft_plan_release(a);
  dc_fft_plan c = make_plan(d);  // a's plan again
  ASSERT_DC_OK(dc_fft_plan_info_get(c, &info));
  EXPECT_EQ(info.reused, 1);
  dc_fft_desc other = d;
  other.batch = 4;  // any field differs: another plan
  dc_fft_plan e = make_plan(other);
  ASSERT_DC_OK(dc_fft_plan_info_get(e, &info));
  EXPECT_EQ(info.reused, 0);
  if (fake_cufft()) {
    EXPECT_EQ(fake_cufft().plans_made() - made, 3);
  }
  // A reused plan computes as a new one.
  EXPECT_LT(run_against_reference(d, DC_FFT_FORWARD, false, 11), error_bound(d));
  dc_fft_plan_release(b);
  dc_fft_plan_release(c);
  dc_fft_plan_release(e);
  long live = fake_cufft() ? fake_cufft().live_plans() : 0;
  ASSERT_DC_OK(dc_fft_plan_cache_trim(device_, 1));
  // Idle now: e, c, b and the reference run's plan (b and c were live then).
  if (fake_cufft()) {
    EXPECT_EQ(fake_cufft().live_plans(), live - 3);
  }
  ASSERT_DC_OK(dc_fft_plan_cache_trim(device_, 0));
  if (fake_cufft()) {
    EXPECT_EQ(fake_cufft().live_plans(), live - 4);
  }
  EXPECT_DC_ERROR(dc_fft_plan_cache_trim(nullptr, 0), DC_ERROR_INVALID_HANDLE, "device");
}

// The cache holds at most DCCUDA_FFT_PLAN_CACHE (default 16) idle plans per device.
TEST_F(FftTest, ThePlanCacheIsBounded) {
  REQUIRE_FAKE_CUFFT();
  ASSERT_DC_OK(dc_fft_plan_cache_trim(device_, 0));
  long live = fake_cufft().live_plans();
  std::vector<dc_fft_plan> plans;
  for (uint64_t n = 1; n <= 20; ++n) plans.push_back(make_plan(basic(1, DC_FFT_C2C, DC_FFT_SINGLE, {n})));
  EXPECT_EQ(fake_cufft().live_plans(), live + 20);
  for (dc_fft_plan p : plans) dc_fft_plan_release(p);
  EXPECT_EQ(fake_cufft().live_plans(), live + 16);
  // The most recently released stayed: n = 20 is reused, n = 1 is not.
  dc_fft_plan p20 = make_plan(basic(1, DC_FFT_C2C, DC_FFT_SINGLE, {20}));
  dc_fft_plan p1 = make_plan(basic(1, DC_FFT_C2C, DC_FFT_SINGLE, {1}));
  dc_fft_plan_info i20 = DC_FFT_PLAN_INFO_INIT, i1 = DC_FFT_PLAN_INFO_INIT;
  ASSERT_DC_OK(dc_fft_plan_info_get(p20, &i20));
  ASSERT_DC_OK(dc_fft_plan_info_get(p1, &i1));
  EXPECT_EQ(i20.reused, 1);
  EXPECT_EQ(i1.reused, 0);
  dc_fft_plan_release(p20);
  dc_fft_plan_release(p1);
  ASSERT_DC_OK(dc_fft_plan_cache_trim(device_, 0));
  EXPECT_EQ(fake_cufft().live_plans(), live);
}

// A plan keeps its device and work area alive: the device's handle may go first.
TEST_F(FftTest, ReleaseOrdersAreSafe) {
  dc_device dev = nullptr;
  ASSERT_DC_OK(dc_device_open(0, &dev));
  dc_fft_desc d = basic(1, DC_FFT_C2C, DC_FFT_SINGLE, {16});
  dc_fft_plan plan = nullptr;
  ASSERT_DC_OK(dc_fft_plan_create(dev, &d, &plan));
  dc_buffer a = nullptr;
  ASSERT_DC_OK(dc_buffer_alloc(dev, 128, 0, &a));
  std::vector<unsigned char> zeros(128, 0);
  ASSERT_DC_OK(dc_buffer_write(a, 0, zeros.data(), 128));
  uint64_t plans = 0;
  ASSERT_DC_OK(dc_handle_count(DC_HANDLE_FFT_PLAN, &plans));
  EXPECT_EQ(plans, 1u);
  dc_device_release(dev);
  EXPECT_DC_OK(dc_fft_execute(plan, a, 0, a, 0, DC_FFT_FORWARD));
  dc_buffer_release(a);  // freed in order after the transform
  dc_fft_plan_release(plan);
  dc_fft_plan_release(plan);  // twice: nothing happens
  ASSERT_DC_OK(dc_handle_count(DC_HANDLE_FFT_PLAN, &plans));
  EXPECT_EQ(plans, 0u);
  EXPECT_DC_ERROR(dc_fft_execute(plan, a, 0, a, 0, DC_FFT_FORWARD), DC_ERROR_INVALID_HANDLE, "plan");
  ASSERT_DC_OK(dc_device_synchronize(device_));
  if (fake_cufft()) {
    EXPECT_EQ(fake_cufft().bad_ranges(), 0);
  }
}

// cuFFT's failures: mapped to a status naming the call; nothing leaks.
TEST_F(FftTest, CufftFailuresAreReportedAndLeakNothing) {
  REQUIRE_FAKE_CUFFT();
  ASSERT_DC_OK(dc_fft_plan_cache_trim(device_, 0));
  long live = fake_cufft().live_plans();
  dc_fft_desc d = basic(1, DC_FFT_C2C, DC_FFT_SINGLE, {24});
  dc_fft_plan p = nullptr;
  fake_cufft().inject("cufftCreate", 1, 2 /* CUFFT_ALLOC_FAILED */);
  EXPECT_DC_ERROR(dc_fft_plan_create(device_, &d, &p), DC_ERROR_OUT_OF_MEMORY, "cufftCreate failed: CUFFT_ALLOC_FAILED");
  fake_cufft().inject("cufftMakePlanMany64", 1, 8 /* CUFFT_INVALID_SIZE */);
  EXPECT_DC_ERROR(dc_fft_plan_create(device_, &d, &p), DC_ERROR_INVALID_ARGUMENT,
                  "cufftMakePlanMany64 failed: CUFFT_INVALID_SIZE");
  fake_cufft().inject("cufftSetWorkArea", 1, 5 /* CUFFT_INTERNAL_ERROR */);
  EXPECT_DC_ERROR(dc_fft_plan_create(device_, &d, &p), DC_ERROR_DRIVER, "cufftSetWorkArea failed: CUFFT_INTERNAL_ERROR");
  fake_cufft().inject("cufftMakePlanMany64", 1, 16 /* CUFFT_NOT_SUPPORTED */);
  EXPECT_DC_ERROR(dc_fft_plan_create(device_, &d, &p), DC_ERROR_NOT_SUPPORTED, "CUFFT_NOT_SUPPORTED");
  EXPECT_EQ(p, nullptr);
  EXPECT_EQ(fake_cufft().live_plans(), live);
  // The work area's allocation failing.
  if (const dctest::FakeDriver* fake = dctest::fake_driver()) {
    fake->reset();
    fake->inject("cuMemAlloc", 1, 2 /* CUDA_ERROR_OUT_OF_MEMORY */, -1);  // every call: dccuda retries after a trim
    fake->inject("cuMemAllocFromPoolAsync", 1, 2 /* CUDA_ERROR_OUT_OF_MEMORY */, -1);
    dc_status s = dc_fft_plan_create(device_, &d, &p);
    EXPECT_GT(fake->call_count("cuMemAlloc") + fake->call_count("cuMemAllocFromPoolAsync"), 0);
    EXPECT_EQ(s, DC_ERROR_OUT_OF_MEMORY) << dc_last_error_message();
    EXPECT_EQ(fake_cufft().live_plans(), live);
    fake->reset();
    if (p) dc_fft_plan_release(p);
    p = nullptr;
  }
  ASSERT_DC_OK(dc_fft_plan_create(device_, &d, &p));
  dc_buffer a = alloc(24 * 8);
  fake_cufft().inject("cufftExecC2C", 1, 6 /* CUFFT_EXEC_FAILED */);
  EXPECT_DC_ERROR(dc_fft_execute(p, a, 0, a, 0, DC_FFT_FORWARD), DC_ERROR_DRIVER, "cufftExecC2C failed: CUFFT_EXEC_FAILED");
  fake_cufft().inject("cufftSetStream", 1, 1 /* CUFFT_INVALID_PLAN */);
  dc_stream s = nullptr;
  ASSERT_DC_OK(dc_stream_create(device_, 0, 0, &s));
  ASSERT_DC_OK(dc_fft_plan_set_stream(p, s));
  EXPECT_DC_ERROR(dc_fft_execute(p, a, 0, a, 0, DC_FFT_FORWARD), DC_ERROR_DRIVER, "cufftSetStream failed");
  EXPECT_DC_OK(dc_fft_execute(p, a, 0, a, 0, DC_FFT_FORWARD));  // the next one binds the stream and runs
  EXPECT_DC_OK(dc_stream_synchronize(s));
  dc_stream_release(s);
  dc_buffer_release(a);
  dc_fft_plan_release(p);
  ASSERT_DC_OK(dc_fft_plan_cache_trim(device_, 0));
  EXPECT_EQ(fake_cufft().live_plans(), live);
}

}  // namespace
