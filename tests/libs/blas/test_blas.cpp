// dc_blas: handles, GEMM and the level-1/2 calls against CPU references, every
// bad input refused before cuBLAS sees it, releases in either order, and
// cuBLAS's failures. CTest runs it on the fake driver and the fake cuBLAS
// (tests/fake_cublas); the GPU suite runs the same binary on the real driver
// and the real cuBLAS, where the tests that need the fake's counters skip.
//
// Error bounds (relative to max(1, |reference|), inputs k/8 with |k| <= 8, so
// exact in every type): F64 1e-12; F32 with compute 32F 1e-5; F16/BF16 inputs
// with F32 output 1e-5 (the inputs are exact, the sums are F32); BF16 output
// 2^-8 (one rounding to 8 bits); F16 output 2^-11; F32 data with
// COMPUTE_32F_FAST_TF32 or _16BF 1e-2 (inputs rounded to 10 or 7 bits: the
// k/8 values are exact even then, so the bound is loose on purpose).
#include <cinttypes>
#include <cmath>
#include <thread>

#include "libs/blas/blas_test.h"

namespace {

using namespace blastest;

struct GemmCase {
  int32_t ab_type = DC_BLAS_F32, c_type = DC_BLAS_F32, compute = DC_BLAS_COMPUTE_DEFAULT;
  bool ta = false, tb = false;
  int64_t m = 7, n = 5, k = 3, batches = 1;
  int64_t pad_ld = 2;        // ld = stored rows + pad_ld
  uint64_t offset_elems = 3; // each matrix starts this many elements in
  int64_t stride_gap = 4;    // extra elements between batches
  double alpha = 1.5, beta = -0.5;
  double bound = 1e-5;
};

class BlasGemm : public BlasTest {
 protected:
  // Runs `g` through dc_blas_gemm and compares C (every batch) with the
  // reference; also checks that no byte of C's buffer outside C changed.
  void run(const GemmCase& g, uint32_t seed) {
    size_t abe = element_size(g.ab_type), ce = element_size(g.c_type);
    int64_t a_rows = g.ta ? g.k : g.m, a_cols = g.ta ? g.m : g.k;
    int64_t b_rows = g.tb ? g.n : g.k, b_cols = g.tb ? g.k : g.n;
    int64_t lda = a_rows + g.pad_ld, ldb = b_rows + g.pad_ld, ldc = g.m + g.pad_ld;
    int64_t sa = lda * a_cols + g.stride_gap, sb = ldb * b_cols + g.stride_gap, sc = ldc * g.n + g.stride_gap;
    size_t na = g.offset_elems + size_t(sa * g.batches), nb = g.offset_elems + size_t(sb * g.batches);
    size_t nc = g.offset_elems + size_t(sc * g.batches);
    std::vector<uint8_t> a = random_elements(g.ab_type, na, 0, seed);
    std::vector<uint8_t> b = random_elements(g.ab_type, nb, 0, seed + 1);
    std::vector<uint8_t> c = random_elements(g.c_type, nc, 0, seed + 2);
    dc_blas_gemm_desc d = DC_BLAS_GEMM_DESC_INIT;
    d.transa = g.ta ? DC_BLAS_OP_T : DC_BLAS_OP_N;
    d.transb = g.tb ? DC_BLAS_OP_T : DC_BLAS_OP_N;
    d.ab_type = g.ab_type;
    d.c_type = g.c_type;
    d.compute = g.compute;
    d.m = g.m, d.n = g.n, d.k = g.k, d.batch_count = g.batches;
    d.a_buffer = upload(a), d.a_offset = g.offset_elems * abe, d.lda = lda, d.a_stride = sa;
    d.b_buffer = upload(b), d.b_offset = g.offset_elems * abe, d.ldb = ldb, d.b_stride = sb;
    d.c_buffer = upload(c), d.c_offset = g.offset_elems * ce, d.ldc = ldc, d.c_stride = sc;
    d.alpha = g.alpha, d.beta = g.beta;
    ASSERT_EQ(dc_blas_gemm(blas_, &d), DC_SUCCESS) << dc_last_error_message();
    std::vector<uint8_t> out = download(d.c_buffer, c.size());

    auto as_doubles = [](const std::vector<uint8_t>& v, int32_t t, size_t from, size_t n) {
      std::vector<double> r(n);
      for (size_t i = 0; i < n; ++i) r[i] = get(v, from + i, t);
      return r;
    };
    for (int64_t bt = 0; bt < g.batches; ++bt) {
      std::vector<double> ra = as_doubles(a, g.ab_type, g.offset_elems + bt * sa, size_t(lda * a_cols));
      std::vector<double> rb = as_doubles(b, g.ab_type, g.offset_elems + bt * sb, size_t(ldb * b_cols));
      std::vector<double> want = as_doubles(c, g.c_type, g.offset_elems + bt * sc, size_t(ldc * g.n));
      std::vector<double> got = as_doubles(out, g.c_type, g.offset_elems + bt * sc, size_t(ldc * g.n));
      reference_gemm(g.ta, g.tb, g.m, g.n, g.k, g.alpha, ra.data(), lda, rb.data(), ldb, g.beta, want.data(), ldc);
      // Only the m x n part holds results; the padding rows must be untouched.
      for (int64_t j = 0; j < g.n; ++j)
        for (int64_t i = g.m; i < ldc; ++i)
          ASSERT_EQ(got[i + j * ldc], get(c, g.offset_elems + bt * sc + i + j * ldc, g.c_type))
              << "padding row " << i << " of column " << j << " of batch " << bt << " was written";
      double err = max_relative_error(got.data(), want.data(), got.size());
      EXPECT_LE(err, g.bound) << "batch " << bt << " of " << g.m << "x" << g.n << "x" << g.k << " ta " << g.ta
                              << " tb " << g.tb;
    }
    // Before the first matrix and after the last batch's C: untouched.
    for (size_t i = 0; i < g.offset_elems; ++i) EXPECT_EQ(get(out, i, g.c_type), get(c, i, g.c_type));
  }
};

TEST_F(BlasGemm, F32EveryTransposeAgainstTheReference) {
  for (int t = 0; t < 4; ++t) {
    GemmCase g;
    g.ta = t & 1, g.tb = t & 2;
    g.m = 13, g.n = 7, g.k = 11;
    run(g, 10 + t);
  }
}

TEST_F(BlasGemm, F64OddSizes) {
  GemmCase g;
  g.ab_type = g.c_type = DC_BLAS_F64;
  g.m = 9, g.n = 17, g.k = 5, g.ta = true, g.bound = 1e-12;
  run(g, 20);
}

TEST_F(BlasGemm, StridedBatchesWithGaps) {
  GemmCase g;
  g.batches = 3, g.m = 6, g.n = 4, g.k = 5, g.tb = true;
  run(g, 30);
  g.ab_type = g.c_type = DC_BLAS_F64, g.bound = 1e-12;
  run(g, 31);
}

TEST_F(BlasGemm, HalfAndBfloat16) {
  GemmCase g;
  g.m = 11, g.n = 6, g.k = 9;
  g.ab_type = DC_BLAS_BF16, g.c_type = DC_BLAS_F32;
  run(g, 40);
  g.c_type = DC_BLAS_BF16, g.bound = std::ldexp(1.0, -8);
  run(g, 41);
  g.ab_type = DC_BLAS_F16, g.c_type = DC_BLAS_F32, g.bound = 1e-5;
  run(g, 42);
  g.c_type = DC_BLAS_F16, g.bound = std::ldexp(1.0, -11);
  run(g, 43);
}

TEST_F(BlasGemm, FastComputeTypesReachCublas) {
  GemmCase g;
  g.m = 8, g.n = 8, g.k = 8, g.bound = 1e-2;
  const int32_t computes[] = {DC_BLAS_COMPUTE_32F_FAST_TF32, DC_BLAS_COMPUTE_32F_FAST_16BF, DC_BLAS_COMPUTE_32F_FAST_16F,
                              DC_BLAS_COMPUTE_32F_PEDANTIC};
  const int cublas_values[] = {77, 75, 74, 69};  // cublasComputeType_t
  for (int i = 0; i < 4; ++i) {
    g.compute = computes[i];
    run(g, 50 + i);
    if (fake_cublas()) {
      EXPECT_EQ(fake_cublas()->last_compute(), cublas_values[i]);
    }
  }
}

TEST_F(BlasGemm, LargerOnTheGpuSizes) {
  // 257 x 131 x 513: past every tile size, odd everywhere.
  GemmCase g;
  g.m = 257, g.n = 131, g.k = 513, g.bound = 1e-5;
  run(g, 60);
  g.ab_type = DC_BLAS_BF16, g.c_type = DC_BLAS_BF16, g.bound = std::ldexp(1.0, -8);
  run(g, 61);
  g.ab_type = g.c_type = DC_BLAS_F64, g.bound = 1e-12;
  run(g, 62);
}

TEST_F(BlasGemm, KZeroScalesCOnlyAndReadsNoA) {
  // A and B are not read: the descriptor may leave them NULL.
  std::vector<uint8_t> c = random_elements(DC_BLAS_F32, 7 * 5, 0, 70);
  dc_blas_gemm_desc d = DC_BLAS_GEMM_DESC_INIT;
  d.m = 7, d.n = 5, d.k = 0, d.lda = 7, d.ldb = 1, d.ldc = 7, d.beta = 2.0;
  d.c_buffer = upload(c);
  ASSERT_DC_OK(dc_blas_gemm(blas_, &d));
  std::vector<uint8_t> out = download(d.c_buffer, c.size());
  for (size_t i = 0; i < 35; ++i) EXPECT_EQ(get(out, i, DC_BLAS_F32), 2.0 * get(c, i, DC_BLAS_F32));
}

TEST_F(BlasGemm, DeviceScalars) {
  ASSERT_DC_OK(dc_blas_set_pointer_mode(blas_, DC_BLAS_POINTER_DEVICE));
  std::vector<uint8_t> a = random_elements(DC_BLAS_F32, 4 * 3, 0, 80), b = random_elements(DC_BLAS_F32, 3 * 2, 0, 81);
  std::vector<uint8_t> c(4 * 2 * 4, 0), scalars(16, 0);
  put(scalars, 1, DC_BLAS_F32, 2.0);   // alpha at byte 4
  put(scalars, 3, DC_BLAS_F32, 0.0);   // beta at byte 12
  dc_blas_gemm_desc d = DC_BLAS_GEMM_DESC_INIT;
  d.m = 4, d.n = 2, d.k = 3, d.lda = 4, d.ldb = 3, d.ldc = 4;
  d.a_buffer = upload(a), d.b_buffer = upload(b), d.c_buffer = upload(c);
  d.alpha_buffer = d.beta_buffer = upload(scalars);
  d.alpha_offset = 4, d.beta_offset = 12;
  d.alpha = 100, d.beta = 100;  // ignored in device mode
  ASSERT_DC_OK(dc_blas_gemm(blas_, &d));
  std::vector<uint8_t> out = download(d.c_buffer, c.size());
  std::vector<double> ra(12), rb(6), want(8, 0), got(8);
  for (int i = 0; i < 12; ++i) ra[i] = get(a, i, DC_BLAS_F32);
  for (int i = 0; i < 6; ++i) rb[i] = get(b, i, DC_BLAS_F32);
  for (int i = 0; i < 8; ++i) got[i] = get(out, i, DC_BLAS_F32);
  reference_gemm(false, false, 4, 2, 3, 2.0, ra.data(), 4, rb.data(), 3, 0.0, want.data(), 4);
  EXPECT_LE(max_relative_error(got.data(), want.data(), 8), 1e-6);
  // Beyond the buffer: refused, naming it.
  d.beta_offset = 13;
  EXPECT_EQ(dc_blas_gemm(blas_, &d), DC_ERROR_OUT_OF_RANGE);
  EXPECT_NE(std::string(dc_last_error_message()).find("beta_buffer"), std::string::npos) << dc_last_error_message();
}

// ---- Bad input: each refused with its status and a message naming it, and
// cuBLAS never called.

class BlasBadInput : public BlasTest {
 protected:
  void SetUp() override {
    BlasTest::SetUp();
    if (IsSkipped()) return;
    a_ = upload(std::vector<uint8_t>(8 * 8 * 4, 0));
    b_ = upload(std::vector<uint8_t>(8 * 8 * 4, 0));
    c_ = upload(std::vector<uint8_t>(8 * 8 * 4, 0));
    d_.m = 8, d_.n = 8, d_.k = 8, d_.lda = 8, d_.ldb = 8, d_.ldc = 8;
    d_.a_buffer = a_, d_.b_buffer = b_, d_.c_buffer = c_;
    ASSERT_DC_OK(dc_blas_gemm(blas_, &d_));  // the base case is valid
  }
  // dc_blas_gemm(d) fails with `status` and a message holding every `words`,
  // and cuBLAS's GEMM is not called.
  void refused(const dc_blas_gemm_desc& d, dc_status status, std::initializer_list<const char*> words) {
    long before = fake_cublas() ? fake_cublas()->calls("cublasGemmEx_64") +
                                      fake_cublas()->calls("cublasGemmStridedBatchedEx_64")
                                : 0;
    EXPECT_EQ(dc_blas_gemm(blas_, &d), status) << dc_last_error_message();
    std::string msg = dc_last_error_message();
    EXPECT_NE(msg.find("dc_blas_gemm"), std::string::npos) << msg;
    for (const char* w : words) EXPECT_NE(msg.find(w), std::string::npos) << "no \"" << w << "\" in: " << msg;
    if (fake_cublas()) {
      EXPECT_EQ(fake_cublas()->calls("cublasGemmEx_64") + fake_cublas()->calls("cublasGemmStridedBatchedEx_64"),
                before)
          << "cuBLAS saw a refused GEMM";
    }
  }
  dc_buffer a_ = nullptr, b_ = nullptr, c_ = nullptr;
  dc_blas_gemm_desc d_ = DC_BLAS_GEMM_DESC_INIT;
};

TEST_F(BlasBadInput, MatricesPastTheirBuffers) {
  dc_blas_gemm_desc d = d_;
  d.b_offset = 4;  // one element past
  refused(d, DC_ERROR_OUT_OF_RANGE, {"B (desc->b_buffer)", "260 bytes", "holds 256 bytes"});
  d = d_;
  d.lda = 9;
  refused(d, DC_ERROR_OUT_OF_RANGE, {"A (desc->a_buffer)", "284 bytes"});
  d = d_;
  d.m = 9, d.lda = 9, d.ldc = 9;
  refused(d, DC_ERROR_OUT_OF_RANGE, {"C (desc->c_buffer)"});
  d = d_;
  d.batch_count = 2, d.a_stride = 64, d.b_stride = 0, d.c_stride = 64;  // B broadcast, A and C need 2 x 256
  refused(d, DC_ERROR_OUT_OF_RANGE, {"C (desc->c_buffer)", "512 bytes", "2 batches"});
  d.c_buffer = upload(std::vector<uint8_t>(512, 0));
  refused(d, DC_ERROR_OUT_OF_RANGE, {"A (desc->a_buffer)", "512 bytes", "2 batches"});
  d.a_buffer = upload(std::vector<uint8_t>(512, 0));
  ASSERT_DC_OK(dc_blas_gemm(blas_, &d));  // and with room for both batches, it runs
  // An extent past 2^64 bytes: computed without overflow.
  d = d_;
  d.ldb = INT64_MAX;
  refused(d, DC_ERROR_OUT_OF_RANGE, {"B (desc->b_buffer)", "more than 2^64"});
  d = d_;
  d.batch_count = INT64_MAX, d.a_stride = INT64_MAX, d.b_stride = 0, d.c_stride = INT64_MAX;
  refused(d, DC_ERROR_OUT_OF_RANGE, {"more than 2^64"});
}

TEST_F(BlasBadInput, AViewsRangeIsItsOwn) {
  dc_buffer view = nullptr;
  ASSERT_DC_OK(dc_buffer_view(a_, 4, 252, &view));  // one element short of an 8 x 8 A
  dc_blas_gemm_desc d = d_;
  d.a_buffer = view;
  refused(d, DC_ERROR_OUT_OF_RANGE, {"A (desc->a_buffer)", "256 bytes", "holds 252 bytes"});
  dc_buffer_release(view);
}

TEST_F(BlasBadInput, SizesLeadingDimensionsAndEnums) {
  dc_blas_gemm_desc d = d_;
  d.m = -1;
  refused(d, DC_ERROR_INVALID_ARGUMENT, {"desc->m is -1"});
  d = d_, d.k = -3;
  refused(d, DC_ERROR_INVALID_ARGUMENT, {"desc->k is -3"});
  d = d_, d.lda = 7;
  refused(d, DC_ERROR_INVALID_ARGUMENT, {"desc->lda is 7", "max(1, m) = 8"});
  d = d_, d.transb = DC_BLAS_OP_T, d.n = 4, d.ldb = 3;
  refused(d, DC_ERROR_INVALID_ARGUMENT, {"desc->ldb is 3", "n (B is transposed)"});
  d = d_, d.ldc = 0;
  refused(d, DC_ERROR_INVALID_ARGUMENT, {"desc->ldc is 0"});
  d = d_, d.transa = 2;
  refused(d, DC_ERROR_INVALID_ARGUMENT, {"desc->transa is 2"});
  d = d_, d.ab_type = 9;
  refused(d, DC_ERROR_INVALID_ARGUMENT, {"desc->ab_type is 9"});
  d = d_, d.c_type = DC_BLAS_F64;
  refused(d, DC_ERROR_INVALID_ARGUMENT, {"not a combination", "DC_BLAS_F32", "DC_BLAS_F64"});
  d = d_, d.compute = DC_BLAS_COMPUTE_64F;
  refused(d, DC_ERROR_INVALID_ARGUMENT, {"64F compute types take F64"});
  d = d_, d.ab_type = DC_BLAS_BF16, d.compute = DC_BLAS_COMPUTE_32F_FAST_TF32;
  refused(d, DC_ERROR_INVALID_ARGUMENT, {"32F_FAST_"});
  d = d_, d.compute = 99;
  refused(d, DC_ERROR_INVALID_ARGUMENT, {"compute is 99"});
  d = d_, d.batch_count = 0;
  refused(d, DC_ERROR_INVALID_ARGUMENT, {"desc->batch_count is 0"});
  d = d_, d.batch_count = 2, d.a_stride = -1;
  refused(d, DC_ERROR_INVALID_ARGUMENT, {"desc->a_stride is -1"});
  d = d_, d.batch_count = 2, d.a_stride = 0, d.b_stride = 0, d.c_stride = 63;
  refused(d, DC_ERROR_INVALID_ARGUMENT, {"overlap"});
  d = d_, d.reserved = 1;
  refused(d, DC_ERROR_INVALID_ARGUMENT, {"reserved"});
  d = d_, d.struct_size = 8;
  refused(d, DC_ERROR_INVALID_ARGUMENT, {"struct_size", "DC_BLAS_GEMM_DESC_INIT"});
}

TEST_F(BlasBadInput, HandlesAndScalars) {
  dc_blas_gemm_desc d = d_;
  d.c_buffer = nullptr;
  refused(d, DC_ERROR_INVALID_HANDLE, {"C (desc->c_buffer)"});
  d = d_;
  d.alpha_buffer = c_;
  refused(d, DC_ERROR_INVALID_ARGUMENT, {"alpha_buffer", "host pointer mode"});
  ASSERT_DC_OK(dc_blas_set_pointer_mode(blas_, DC_BLAS_POINTER_DEVICE));
  refused(d_, DC_ERROR_INVALID_ARGUMENT, {"alpha_buffer is NULL", "device pointer mode"});
  EXPECT_EQ(dc_blas_gemm(blas_, nullptr), DC_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(dc_blas_gemm(nullptr, &d_), DC_ERROR_INVALID_HANDLE);
  EXPECT_EQ(dc_blas_set_pointer_mode(blas_, 2), DC_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(dc_blas_set_math_mode(blas_, 1), DC_ERROR_INVALID_ARGUMENT);
}

TEST_F(BlasBadInput, BufferOfAnotherKindOfHandle) {
  dc_blas_gemm_desc d = d_;
  d.a_buffer = reinterpret_cast<dc_buffer>(stream_);
  refused(d, DC_ERROR_INVALID_HANDLE, {"A (desc->a_buffer)"});
}

// ---- Level 1 and 2.

class BlasLevel12 : public BlasTest {};

TEST_F(BlasLevel12, AxpyScalDotNrm2WithIncrementsAndOffsets) {
  for (int32_t type : {DC_BLAS_F32, DC_BLAS_F64}) {
    size_t e = element_size(type);
    const int64_t n = 37, incx = 2, incy = 3;
    std::vector<uint8_t> x = random_elements(type, n * incx + 5, 0, 90), y = random_elements(type, n * incy + 5, 0, 91);
    dc_buffer bx = upload(x), by = upload(y);
    double xs[n], ys[n];
    for (int64_t i = 0; i < n; ++i) xs[i] = get(x, 1 + i * incx, type), ys[i] = get(y, 2 + i * incy, type);
    double dot = 0, nrm = 0;
    for (int64_t i = 0; i < n; ++i) dot += xs[i] * ys[i], nrm += xs[i] * xs[i];
    double got = -1;
    ASSERT_DC_OK(dc_blas_dot(blas_, type, n, bx, e, incx, by, 2 * e, incy, &got, nullptr, 0));
    EXPECT_NEAR(got, dot, 1e-5);
    ASSERT_DC_OK(dc_blas_nrm2(blas_, type, n, bx, e, incx, &got, nullptr, 0));
    EXPECT_NEAR(got, std::sqrt(nrm), 1e-5);
    ASSERT_DC_OK(dc_blas_axpy(blas_, type, n, 0.5, bx, e, incx, by, 2 * e, incy, nullptr, 0));
    std::vector<uint8_t> y2 = download(by, y.size());
    for (int64_t i = 0; i < n; ++i) EXPECT_NEAR(get(y2, 2 + i * incy, type), ys[i] + 0.5 * xs[i], 1e-6) << i;
    EXPECT_EQ(get(y2, 3, type), get(y, 3, type)) << "an element between increments was written";
    ASSERT_DC_OK(dc_blas_scal(blas_, type, n, -2.0, bx, e, incx, nullptr, 0));
    std::vector<uint8_t> x2 = download(bx, x.size());
    for (int64_t i = 0; i < n; ++i) EXPECT_EQ(get(x2, 1 + i * incx, type), -2.0 * xs[i]) << i;
    EXPECT_EQ(get(x2, 0, type), get(x, 0, type));
  }
}

TEST_F(BlasLevel12, GemvBothWays) {
  for (int32_t type : {DC_BLAS_F32, DC_BLAS_F64}) {
    for (int32_t trans : {DC_BLAS_OP_N, DC_BLAS_OP_T}) {
      const int64_t m = 11, n = 6, lda = 13;
      bool t = trans == DC_BLAS_OP_T;
      std::vector<uint8_t> a = random_elements(type, lda * n, 0, 100), x = random_elements(type, 2 * (t ? m : n), 0, 101);
      std::vector<uint8_t> y = random_elements(type, t ? n : m, 0, 102);
      dc_buffer ba = upload(a), bx = upload(x), by = upload(y);
      ASSERT_DC_OK(dc_blas_gemv(blas_, type, trans, m, n, 1.5, ba, 0, lda, bx, 0, 2, -1.0, by, 0, 1, nullptr, 0));
      std::vector<uint8_t> out = download(by, y.size());
      for (int64_t i = 0; i < (t ? n : m); ++i) {
        double s = 0;
        for (int64_t p = 0; p < (t ? m : n); ++p)
          s += (t ? get(a, p + i * lda, type) : get(a, i + p * lda, type)) * get(x, 2 * p, type);
        EXPECT_NEAR(get(out, i, type), 1.5 * s - get(y, i, type), 1e-5) << "row " << i << " trans " << trans;
      }
    }
  }
}

TEST_F(BlasLevel12, DeviceModeResultsAndScalars) {
  ASSERT_DC_OK(dc_blas_set_pointer_mode(blas_, DC_BLAS_POINTER_DEVICE));
  std::vector<uint8_t> x = random_elements(DC_BLAS_F64, 10, 0, 110);
  std::vector<uint8_t> scal(32, 0);
  put(scal, 1, DC_BLAS_F64, 3.0);
  dc_buffer bx = upload(x), bs = upload(scal);
  double untouched = 42;
  ASSERT_DC_OK(dc_blas_dot(blas_, DC_BLAS_F64, 10, bx, 0, 1, bx, 0, 1, &untouched, bs, 16));
  ASSERT_DC_OK(dc_blas_scal(blas_, DC_BLAS_F64, 10, 100.0, bx, 0, 1, bs, 8));  // alpha 3 from the buffer
  std::vector<uint8_t> s2 = download(bs, 32), x2 = download(bx, 80);
  double dot = 0;
  for (int i = 0; i < 10; ++i) dot += get(x, i, DC_BLAS_F64) * get(x, i, DC_BLAS_F64);
  EXPECT_NEAR(get(s2, 2, DC_BLAS_F64), dot, 1e-12);
  for (int i = 0; i < 10; ++i) EXPECT_EQ(get(x2, i, DC_BLAS_F64), 3.0 * get(x, i, DC_BLAS_F64));
  // Host-mode arguments in device mode, and the reverse.
  EXPECT_EQ(dc_blas_nrm2(blas_, DC_BLAS_F64, 10, bx, 0, 1, &untouched, nullptr, 0), DC_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(dc_last_error_message()).find("device pointer mode"), std::string::npos);
  EXPECT_EQ(dc_blas_nrm2(blas_, DC_BLAS_F64, 10, bx, 0, 1, nullptr, bs, 32 - 4), DC_ERROR_OUT_OF_RANGE);
  ASSERT_DC_OK(dc_blas_set_pointer_mode(blas_, DC_BLAS_POINTER_HOST));
  EXPECT_EQ(dc_blas_nrm2(blas_, DC_BLAS_F64, 10, bx, 0, 1, &untouched, bs, 0), DC_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(dc_blas_nrm2(blas_, DC_BLAS_F64, 10, bx, 0, 1, nullptr, nullptr, 0), DC_ERROR_INVALID_ARGUMENT);
}

TEST_F(BlasLevel12, BadInputNeverReachesCublas) {
  dc_buffer x = upload(std::vector<uint8_t>(40, 0)), y = upload(std::vector<uint8_t>(40, 0));
  double r = 0;
  struct Case {
    dc_status status;
    const char* words;
    dc_status got;
  };
  std::vector<Case> cases = {
      {DC_ERROR_OUT_OF_RANGE, "x needs 44 bytes", dc_blas_axpy(blas_, DC_BLAS_F32, 11, 1, x, 0, 1, y, 0, 1, nullptr, 0)},
      {DC_ERROR_OUT_OF_RANGE, "y needs 48 bytes", dc_blas_dot(blas_, DC_BLAS_F32, 6, x, 0, 1, y, 4, 2, &r, nullptr, 0)},
      {DC_ERROR_INVALID_ARGUMENT, "incx is 0", dc_blas_scal(blas_, DC_BLAS_F32, 3, 1, x, 0, 0, nullptr, 0)},
      {DC_ERROR_INVALID_ARGUMENT, "n is -1", dc_blas_nrm2(blas_, DC_BLAS_F32, -1, x, 0, 1, &r, nullptr, 0)},
      {DC_ERROR_INVALID_ARGUMENT, "DC_BLAS_F16", dc_blas_axpy(blas_, DC_BLAS_F16, 3, 1, x, 0, 1, y, 0, 1, nullptr, 0)},
      {DC_ERROR_INVALID_ARGUMENT, "lda is 2", dc_blas_gemv(blas_, DC_BLAS_F32, 0, 3, 3, 1, x, 0, 2, x, 0, 1, 0, y, 0, 1, nullptr, 0)},
      {DC_ERROR_INVALID_ARGUMENT, "trans is 5", dc_blas_gemv(blas_, DC_BLAS_F32, 5, 3, 3, 1, x, 0, 3, x, 0, 1, 0, y, 0, 1, nullptr, 0)},
      {DC_ERROR_OUT_OF_RANGE, "A needs 48 bytes", dc_blas_gemv(blas_, DC_BLAS_F32, 0, 3, 4, 1, x, 0, 3, x, 0, 1, 0, y, 0, 1, nullptr, 0)},
      {DC_ERROR_OUT_OF_RANGE, "y needs 44 bytes", dc_blas_gemv(blas_, DC_BLAS_F32, 1, 3, 3, 1, x, 0, 3, x, 0, 1, 0, y, 32, 1, nullptr, 0)},
  };
  for (const Case& c : cases) EXPECT_EQ(c.got, c.status) << c.words;
  // (The messages: one call again per case, since the last error is per call.)
  EXPECT_EQ(dc_blas_gemv(blas_, DC_BLAS_F32, 1, 3, 3, 1, x, 0, 3, x, 0, 1, 0, y, 32, 1, nullptr, 0), DC_ERROR_OUT_OF_RANGE);
  EXPECT_NE(std::string(dc_last_error_message()).find("y needs 44 bytes"), std::string::npos) << dc_last_error_message();
  EXPECT_NE(std::string(dc_last_error_message()).find("holds 40 bytes"), std::string::npos) << dc_last_error_message();
  if (auto* f = fake_cublas()) {
    for (const char* fn : {"cublasSaxpy_v2_64", "cublasSdot_v2_64", "cublasSscal_v2_64", "cublasSnrm2_v2_64", "cublasSgemv_v2_64"})
      EXPECT_EQ(f->calls(fn), 0) << fn << " saw refused input";
  }
}

// ---- Handles: streams, workspace, modes, releases, failures.

class BlasHandle : public BlasTest {};

TEST_F(BlasHandle, BoundToItsStreamWithItsOwnWorkspace) {
  REQUIRE_FAKE_CUBLAS();
  void* h = fake_cublas()->last_handle();
  void* native = nullptr;
  ASSERT_DC_OK(dc_stream_native(stream_, &native));
  EXPECT_EQ(fake_cublas()->stream(h), native);
  EXPECT_EQ(fake_cublas()->workspace_size(h), 32ull << 20);
  dc_stream other = nullptr;
  ASSERT_DC_OK(dc_stream_create(device_, 0, 0, &other));
  ASSERT_DC_OK(dc_blas_set_stream(blas_, other));
  ASSERT_DC_OK(dc_stream_native(other, &native));
  EXPECT_EQ(fake_cublas()->stream(h), native);
  EXPECT_EQ(fake_cublas()->workspace_size(h), 32ull << 20) << "cublasSetStream drops the workspace: it must be given again";
  dc_stream bound = nullptr;
  ASSERT_DC_OK(dc_blas_stream(blas_, &bound));
  void* bound_native = nullptr;
  ASSERT_DC_OK(dc_stream_native(bound, &bound_native));
  EXPECT_EQ(bound_native, native);
  dc_stream_release(bound);
  dc_stream_release(other);  // the handle keeps it alive
  ASSERT_DC_OK(dc_blas_set_workspace_size(blas_, 1 << 20));
  EXPECT_EQ(fake_cublas()->workspace_size(h), 1u << 20);
  ASSERT_DC_OK(dc_blas_set_workspace_size(blas_, 0));
  EXPECT_EQ(fake_cublas()->workspace_size(h), 0u);
  ASSERT_DC_OK(dc_blas_set_stream(blas_, nullptr));  // the legacy default stream
  EXPECT_EQ(fake_cublas()->stream(h), reinterpret_cast<void*>(0x1));
  ASSERT_DC_OK(dc_blas_set_math_mode(blas_, DC_BLAS_MATH_TF32_TENSOR_OP));
  EXPECT_EQ(fake_cublas()->math_mode(h), 3);
  ASSERT_DC_OK(dc_blas_set_pointer_mode(blas_, DC_BLAS_POINTER_DEVICE));
  EXPECT_EQ(fake_cublas()->pointer_mode(h), 1);
}

TEST_F(BlasHandle, CreateChecksItsArguments) {
  dc_blas b = reinterpret_cast<dc_blas>(1);
  EXPECT_EQ(dc_blas_create(nullptr, nullptr, &b), DC_ERROR_INVALID_HANDLE);
  EXPECT_EQ(b, nullptr);
  EXPECT_EQ(dc_blas_create(device_, reinterpret_cast<dc_stream>(device_), &b), DC_ERROR_INVALID_HANDLE);
  EXPECT_EQ(dc_blas_create(device_, nullptr, nullptr), DC_ERROR_INVALID_ARGUMENT);
  dc_blas_release(nullptr);
  int32_t version = 0;
  ASSERT_DC_OK(dc_blas_library_version(&version));
  EXPECT_GE(version, 120000);
  if (fake_cublas()) {
    EXPECT_EQ(version, 130100);
  }
  uint64_t count = 0;
  ASSERT_DC_OK(dc_handle_count(DC_HANDLE_BLAS, &count));
  EXPECT_EQ(count, 1u);
}

TEST_F(BlasHandle, ReleasedWhileItsStreamAndBuffersLive) {
  std::vector<uint8_t> x = random_elements(DC_BLAS_F32, 4, 0, 120);
  dc_buffer bx = upload(x);
  ASSERT_DC_OK(dc_blas_scal(blas_, DC_BLAS_F32, 4, 2.0, bx, 0, 1, nullptr, 0));
  dc_blas_release(blas_);
  blas_ = nullptr;
  std::vector<uint8_t> out = download(bx, 16);  // the stream and buffer still work
  for (int i = 0; i < 4; ++i) EXPECT_EQ(get(out, i, DC_BLAS_F32), 2.0 * get(x, i, DC_BLAS_F32));
  EXPECT_EQ(dc_blas_scal(blas_, DC_BLAS_F32, 4, 2.0, bx, 0, 1, nullptr, 0), DC_ERROR_INVALID_HANDLE);
  if (auto* f = fake_cublas()) {
    EXPECT_EQ(f->live_handles(), 0);
  }
}

TEST_F(BlasHandle, OutlivesItsStreamAndDeviceHandles) {
  std::vector<uint8_t> x = random_elements(DC_BLAS_F64, 4, 0, 130);
  dc_buffer bx = upload(x);
  dc_stream_release(stream_);
  stream_ = nullptr;
  dc_device_release(device_);
  device_ = nullptr;
  ASSERT_DC_OK(dc_blas_scal(blas_, DC_BLAS_F64, 4, 3.0, bx, 0, 1, nullptr, 0));
  double r = 0;
  ASSERT_DC_OK(dc_blas_nrm2(blas_, DC_BLAS_F64, 4, bx, 0, 1, &r, nullptr, 0));
  double want = 0;
  for (int i = 0; i < 4; ++i) want += 9 * get(x, i, DC_BLAS_F64) * get(x, i, DC_BLAS_F64);
  EXPECT_NEAR(r, std::sqrt(want), 1e-12);
}

TEST_F(BlasHandle, CublasFailuresBecomeStatusesWithTheirNames) {
  REQUIRE_FAKE_CUBLAS();
  dc_buffer x = upload(std::vector<uint8_t>(16, 0));
  fake_cublas()->inject("cublasSscal_v2_64", 1, 13);  // EXECUTION_FAILED
  EXPECT_EQ(dc_blas_scal(blas_, DC_BLAS_F32, 4, 1, x, 0, 1, nullptr, 0), DC_ERROR_DRIVER);
  EXPECT_NE(std::string(dc_last_error_message()).find("cublasSscal_v2_64 failed with CUBLAS_STATUS_EXECUTION_FAILED"),
            std::string::npos) << dc_last_error_message();
  fake_cublas()->reset();
  fake_cublas()->inject("cublasCreate_v2", 1, 3);  // ALLOC_FAILED
  dc_blas b = nullptr;
  EXPECT_EQ(dc_blas_create(device_, nullptr, &b), DC_ERROR_OUT_OF_MEMORY);
  EXPECT_EQ(b, nullptr);
  fake_cublas()->reset();
  fake_cublas()->inject("cublasSetWorkspace_v2", 1, 15);  // NOT_SUPPORTED: the half-made handle is destroyed
  EXPECT_EQ(dc_blas_create(device_, nullptr, &b), DC_ERROR_NOT_SUPPORTED);
  EXPECT_EQ(fake_cublas()->live_handles(), 1) << "only the fixture's handle may live";
  fake_cublas()->reset();
  fake_cublas()->inject("cublasSetWorkspace_v2", 1, 3);
  EXPECT_EQ(dc_blas_set_workspace_size(blas_, 4096), DC_ERROR_OUT_OF_MEMORY);
  fake_cublas()->reset();
}

TEST_F(BlasHandle, OneHandleFromManyThreads) {
  // Calls on one handle are serialised by dccuda: four threads each run axpy
  // on their own vector; every result must be exact.
  const int kThreads = 4, kN = 64, kRounds = 25;
  std::vector<dc_buffer> ys;
  for (int t = 0; t < kThreads; ++t) ys.push_back(upload(std::vector<uint8_t>(kN * 4, 0)));
  std::vector<uint8_t> ones(kN * 4);
  for (int i = 0; i < kN; ++i) put(ones, i, DC_BLAS_F32, 1.0);
  dc_buffer x = upload(ones);
  std::vector<std::thread> threads;
  std::vector<int> failures(kThreads, 0);
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      for (int r = 0; r < kRounds; ++r)
        if (dc_blas_axpy(blas_, DC_BLAS_F32, kN, t + 1, x, 0, 1, ys[t], 0, 1, nullptr, 0) != DC_SUCCESS) ++failures[t];
    });
  for (std::thread& th : threads) th.join();
  for (int t = 0; t < kThreads; ++t) {
    EXPECT_EQ(failures[t], 0);
    std::vector<uint8_t> out = download(ys[t], kN * 4);
    for (int i = 0; i < kN; ++i) ASSERT_EQ(get(out, i, DC_BLAS_F32), double(kRounds * (t + 1))) << t << " " << i;
  }
}

}  // namespace
