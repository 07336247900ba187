// A fake cuBLAS (libcublas.so.13) for the tests: exports the cuBLAS entry
// points dccuda resolves (src/loader/cuda_abi/cublas_declarations.inc) and
// computes them on the CPU, in double precision, on the fake driver's memory
// (tests/fake_driver: a device pointer is its host address), F16 and BF16
// converted. Work runs at once on the calling thread, as the fake driver's
// streams do. It refuses what the real cuBLAS refuses (a leading dimension
// below the rows, a negative size) with CUBLAS_STATUS_INVALID_VALUE, so a
// check dccuda missed shows up as a failed test, and counts every call.
//
//   DCFAKE_CUBLAS_FAIL=name:nth:status[,..]  call nth (1-based) of `name` and
//                                            every later one answers `status`
//   DCFAKE_CUBLAS_VERSION=130100             what cublasGetProperty reports
//
// Built twice: libdcfake_cublas.so, and with DCFAKE_CUBLAS_11 a cuBLAS 11
// stand-in (libdcfake_cublas11.so) that lacks the _64 entry points.
//
// Controls for the tests (dlsym them from the same library):
//   long dcfake_cublas_calls(const char* name)    calls of `name` so far
//   long dcfake_cublas_live_handles(void)
//   void* dcfake_cublas_stream(void* handle)      the handle's CUstream
//   unsigned long long dcfake_cublas_workspace_size(void* handle)
//   int dcfake_cublas_pointer_mode(void* handle), dcfake_cublas_math_mode(void* handle)
//   int dcfake_cublas_last_compute(void)          the last GEMM's compute type
//   void dcfake_cublas_inject(const char* name, int nth, int status)   as the variable
//   void dcfake_cublas_reset(void)                forget counts and injections
//   void* dcfake_cublas_last_handle(void)         the handle cublasCreate_v2 made last
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string>

#include "loader/cuda_abi/cublas_abi.h"

#define FAKE_API extern "C" __attribute__((visibility("default")))

struct cublasContext {
  CUstream stream = nullptr;
  int pointer_mode = CUBLAS_POINTER_MODE_HOST;
  int math_mode = CUBLAS_DEFAULT_MATH;
  void* workspace = nullptr;
  size_t workspace_size = 0;
};

namespace {

struct Injection {
  long nth;
  int status;
};

struct State {
  std::mutex mutex;
  std::map<std::string, long> calls;
  std::map<std::string, Injection> injections;
  long live = 0;
  int last_compute = -1;
  cublasHandle_t last_handle = nullptr;
  bool env_read = false;
};

State& state() {
  static State* s = new State;  // never destroyed: calls may come during exit
  return *s;
}

void read_env(State& s) {
  if (s.env_read) return;
  s.env_read = true;
  const char* text = std::getenv("DCFAKE_CUBLAS_FAIL");
  if (!text) return;
  std::string all(text);
  size_t pos = 0;
  while (pos < all.size()) {
    size_t end = all.find(',', pos);
    if (end == std::string::npos) end = all.size();
    std::string item = all.substr(pos, end - pos);
    size_t a = item.find(':'), b = item.rfind(':');
    if (a != std::string::npos && b != a)
      s.injections[item.substr(0, a)] = {std::atol(item.c_str() + a + 1), std::atoi(item.c_str() + b + 1)};
    pos = end + 1;
  }
}

// Counts the call; returns the injected status for it, or success.
cublasStatus_t enter(const char* name) {
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  read_env(s);
  long n = ++s.calls[name];
  auto it = s.injections.find(name);
  if (it != s.injections.end() && n >= it->second.nth) return static_cast<cublasStatus_t>(it->second.status);
  return CUBLAS_STATUS_SUCCESS;
}

#define ENTER(name)                                       \
  do {                                                    \
    cublasStatus_t injected_ = enter(name);               \
    if (injected_ != CUBLAS_STATUS_SUCCESS) return injected_; \
  } while (0)

// IEEE half <-> float, round to nearest even.
float half_to_float(uint16_t h) {
  uint32_t sign = uint32_t(h & 0x8000) << 16, exp = (h >> 10) & 0x1f, man = h & 0x3ff;
  uint32_t bits;
  if (exp == 0) {
    if (man == 0) {
      bits = sign;
    } else {  // subnormal
      float f = std::ldexp(static_cast<float>(man), -24);
      return (h & 0x8000) ? -f : f;
    }
  } else if (exp == 31) {
    bits = sign | 0x7f800000 | (man << 13);
  } else {
    bits = sign | ((exp + 112) << 23) | (man << 13);
  }
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

uint16_t float_to_half(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  uint16_t sign = (x >> 16) & 0x8000;
  float a = std::fabs(f);
  if (std::isnan(f)) return sign | 0x7e00;
  if (a >= 65520.0f) return sign | 0x7c00;
  if (a < 6.103515625e-05f) {  // subnormal or zero: multiples of 2^-24
    float q = std::nearbyint(a * 16777216.0f);
    return sign | static_cast<uint16_t>(q);
  }
  int e;
  float m = std::frexp(a, &e);        // a = m * 2^e, m in [0.5, 1)
  float q = std::nearbyint(m * 2048.0f);  // 11 significant bits
  if (q >= 2048.0f) {
    q /= 2;
    ++e;
  }
  uint16_t exp = static_cast<uint16_t>(e - 1 + 15);
  if (exp >= 31) return sign | 0x7c00;
  return sign | static_cast<uint16_t>(exp << 10) | (static_cast<uint16_t>(q) & 0x3ff);
}

float bf16_to_float(uint16_t b) {
  uint32_t bits = uint32_t(b) << 16;
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

uint16_t float_to_bf16(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  if (std::isnan(f)) return static_cast<uint16_t>((x >> 16) | 0x40);
  x += 0x7fff + ((x >> 16) & 1);
  return static_cast<uint16_t>(x >> 16);
}

double load(const void* base, int64_t index, cudaDataType t) {
  switch (t) {
    case CUDA_R_32F: return static_cast<const float*>(base)[index];
    case CUDA_R_64F: return static_cast<const double*>(base)[index];
    case CUDA_R_16F: return half_to_float(static_cast<const uint16_t*>(base)[index]);
    case CUDA_R_16BF: return bf16_to_float(static_cast<const uint16_t*>(base)[index]);
  }
  return 0;
}

void store(void* base, int64_t index, cudaDataType t, double v) {
  switch (t) {
    case CUDA_R_32F: static_cast<float*>(base)[index] = static_cast<float>(v); break;
    case CUDA_R_64F: static_cast<double*>(base)[index] = v; break;
    case CUDA_R_16F: static_cast<uint16_t*>(base)[index] = float_to_half(static_cast<float>(v)); break;
    case CUDA_R_16BF: static_cast<uint16_t*>(base)[index] = float_to_bf16(static_cast<float>(v)); break;
  }
}

bool known_type(cudaDataType t) { return t == CUDA_R_32F || t == CUDA_R_64F || t == CUDA_R_16F || t == CUDA_R_16BF; }

double scalar(const void* p, bool f64) { return f64 ? *static_cast<const double*>(p) : *static_cast<const float*>(p); }

int64_t at_least_one(int64_t v) { return v > 1 ? v : 1; }

#ifndef DCFAKE_CUBLAS_11
cublasStatus_t gemm(const char* name, cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int64_t m, int64_t n,
                    int64_t k, const void* alpha, const void* A, cudaDataType at, int64_t lda, long long sa,
                    const void* B, cudaDataType bt, int64_t ldb, long long sb, const void* beta, void* C,
                    cudaDataType ct, int64_t ldc, long long sc, int64_t batches, cublasComputeType_t compute) {
  ENTER(name);
  if (!h || m < 0 || n < 0 || k < 0 || batches < 0) return CUBLAS_STATUS_INVALID_VALUE;
  if ((ta != CUBLAS_OP_N && ta != CUBLAS_OP_T) || (tb != CUBLAS_OP_N && tb != CUBLAS_OP_T))
    return CUBLAS_STATUS_INVALID_VALUE;
  if (!known_type(at) || !known_type(bt) || !known_type(ct) || at != bt) return CUBLAS_STATUS_NOT_SUPPORTED;
  int64_t a_rows = ta == CUBLAS_OP_N ? m : k, b_rows = tb == CUBLAS_OP_N ? k : n;
  if (lda < at_least_one(a_rows) || ldb < at_least_one(b_rows) || ldc < at_least_one(m))
    return CUBLAS_STATUS_INVALID_VALUE;
  {
    std::lock_guard<std::mutex> lock(state().mutex);
    state().last_compute = compute;
  }
  bool f64 = compute == CUBLAS_COMPUTE_64F || compute == CUBLAS_COMPUTE_64F_PEDANTIC;
  if (m == 0 || n == 0 || batches == 0) return CUBLAS_STATUS_SUCCESS;
  double al = scalar(alpha, f64), be = scalar(beta, f64);
  for (int64_t b = 0; b < batches; ++b) {
    for (int64_t j = 0; j < n; ++j) {
      for (int64_t i = 0; i < m; ++i) {
        double sum = 0;
        for (int64_t p = 0; p < k; ++p) {
          int64_t ai = ta == CUBLAS_OP_N ? i + p * lda : p + i * lda;
          int64_t bi = tb == CUBLAS_OP_N ? p + j * ldb : j + p * ldb;
          sum += load(A, b * sa + ai, at) * load(B, b * sb + bi, bt);
        }
        int64_t ci = b * sc + i + j * ldc;
        double old = be == 0 ? 0 : load(C, ci, ct);  // beta 0: C is not read (may hold NaN)
        store(C, ci, ct, al * sum + be * old);
      }
    }
  }
  return CUBLAS_STATUS_SUCCESS;
}

#endif  // !DCFAKE_CUBLAS_11
}  // namespace

FAKE_API cublasStatus_t cublasGetProperty(libraryPropertyType type, int* value) {
  ENTER("cublasGetProperty");
  const char* v = std::getenv("DCFAKE_CUBLAS_VERSION");
#ifdef DCFAKE_CUBLAS_11
  long version = v ? std::atol(v) : 110402;
#else
  long version = v ? std::atol(v) : 130100;
#endif
  if (!value) return CUBLAS_STATUS_INVALID_VALUE;
  *value = type == MAJOR_VERSION ? int(version / 10000) : type == MINOR_VERSION ? int(version / 100 % 100) : int(version % 100);
  return CUBLAS_STATUS_SUCCESS;
}

FAKE_API cublasStatus_t cublasCreate_v2(cublasHandle_t* handle) {
  ENTER("cublasCreate_v2");
  if (!handle) return CUBLAS_STATUS_INVALID_VALUE;
  *handle = new cublasContext;
  std::lock_guard<std::mutex> lock(state().mutex);
  ++state().live;
  state().last_handle = *handle;
  return CUBLAS_STATUS_SUCCESS;
}

FAKE_API cublasStatus_t cublasDestroy_v2(cublasHandle_t handle) {
  ENTER("cublasDestroy_v2");
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  delete handle;
  std::lock_guard<std::mutex> lock(state().mutex);
  --state().live;
  return CUBLAS_STATUS_SUCCESS;
}

FAKE_API cublasStatus_t cublasGetVersion_v2(cublasHandle_t handle, int* version) {
  ENTER("cublasGetVersion_v2");
  if (!handle || !version) return CUBLAS_STATUS_INVALID_VALUE;
  *version = 130100;
  return CUBLAS_STATUS_SUCCESS;
}

FAKE_API cublasStatus_t cublasSetStream_v2(cublasHandle_t handle, CUstream stream) {
  ENTER("cublasSetStream_v2");
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  handle->stream = stream;
  handle->workspace = nullptr;  // as the real one: back to cuBLAS's own pool
  handle->workspace_size = 0;
  return CUBLAS_STATUS_SUCCESS;
}

FAKE_API cublasStatus_t cublasSetPointerMode_v2(cublasHandle_t handle, cublasPointerMode_t mode) {
  ENTER("cublasSetPointerMode_v2");
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (mode != CUBLAS_POINTER_MODE_HOST && mode != CUBLAS_POINTER_MODE_DEVICE) return CUBLAS_STATUS_INVALID_VALUE;
  handle->pointer_mode = mode;
  return CUBLAS_STATUS_SUCCESS;
}

FAKE_API cublasStatus_t cublasSetMathMode(cublasHandle_t handle, cublasMath_t mode) {
  ENTER("cublasSetMathMode");
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  handle->math_mode = mode;
  return CUBLAS_STATUS_SUCCESS;
}

FAKE_API cublasStatus_t cublasSetWorkspace_v2(cublasHandle_t handle, void* workspace, size_t size) {
  ENTER("cublasSetWorkspace_v2");
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (size > 0 && !workspace) return CUBLAS_STATUS_INVALID_VALUE;
  handle->workspace = workspace;
  handle->workspace_size = size;
  return CUBLAS_STATUS_SUCCESS;
}

#ifndef DCFAKE_CUBLAS_11
FAKE_API cublasStatus_t cublasGemmEx_64(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb,
                                        int64_t m, int64_t n, int64_t k, const void* alpha, const void* A,
                                        cudaDataType Atype, int64_t lda, const void* B, cudaDataType Btype,
                                        int64_t ldb, const void* beta, void* C, cudaDataType Ctype, int64_t ldc,
                                        cublasComputeType_t computeType, cublasGemmAlgo_t) {
  return gemm("cublasGemmEx_64", handle, transa, transb, m, n, k, alpha, A, Atype, lda, 0, B, Btype, ldb, 0, beta, C,
              Ctype, ldc, 0, 1, computeType);
}

FAKE_API cublasStatus_t cublasGemmStridedBatchedEx_64(
    cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int64_t m, int64_t n, int64_t k,
    const void* alpha, const void* A, cudaDataType Atype, int64_t lda, long long int strideA, const void* B,
    cudaDataType Btype, int64_t ldb, long long int strideB, const void* beta, void* C, cudaDataType Ctype, int64_t ldc,
    long long int strideC, int64_t batchCount, cublasComputeType_t computeType, cublasGemmAlgo_t) {
  return gemm("cublasGemmStridedBatchedEx_64", handle, transa, transb, m, n, k, alpha, A, Atype, lda, strideA, B,
              Btype, ldb, strideB, beta, C, Ctype, ldc, strideC, batchCount, computeType);
}

namespace {

template <class T>
cublasStatus_t axpy(const char* name, cublasHandle_t h, int64_t n, const T* alpha, const T* x, int64_t incx, T* y,
                    int64_t incy) {
  ENTER(name);
  if (!h) return CUBLAS_STATUS_NOT_INITIALIZED;
  for (int64_t i = 0; i < n; ++i) y[i * incy] = *alpha * x[i * incx] + y[i * incy];
  return CUBLAS_STATUS_SUCCESS;
}

template <class T>
cublasStatus_t dot(const char* name, cublasHandle_t h, int64_t n, const T* x, int64_t incx, const T* y, int64_t incy,
                   T* result) {
  ENTER(name);
  if (!h || !result) return CUBLAS_STATUS_INVALID_VALUE;
  double sum = 0;
  for (int64_t i = 0; i < n; ++i) sum += double(x[i * incx]) * double(y[i * incy]);
  *result = static_cast<T>(sum);
  return CUBLAS_STATUS_SUCCESS;
}

template <class T>
cublasStatus_t nrm2(const char* name, cublasHandle_t h, int64_t n, const T* x, int64_t incx, T* result) {
  ENTER(name);
  if (!h || !result) return CUBLAS_STATUS_INVALID_VALUE;
  double sum = 0;
  for (int64_t i = 0; i < n; ++i) sum += double(x[i * incx]) * double(x[i * incx]);
  *result = static_cast<T>(std::sqrt(sum));
  return CUBLAS_STATUS_SUCCESS;
}

template <class T>
cublasStatus_t scal(const char* name, cublasHandle_t h, int64_t n, const T* alpha, T* x, int64_t incx) {
  ENTER(name);
  if (!h) return CUBLAS_STATUS_NOT_INITIALIZED;
  for (int64_t i = 0; i < n; ++i) x[i * incx] *= *alpha;
  return CUBLAS_STATUS_SUCCESS;
}

template <class T>
cublasStatus_t gemv(const char* name, cublasHandle_t h, cublasOperation_t trans, int64_t m, int64_t n, const T* alpha,
                    const T* A, int64_t lda, const T* x, int64_t incx, const T* beta, T* y, int64_t incy) {
  ENTER(name);
  if (!h || m < 0 || n < 0 || lda < at_least_one(m) || incx == 0 || incy == 0) return CUBLAS_STATUS_INVALID_VALUE;
  bool t = trans != CUBLAS_OP_N;
  int64_t rows = t ? n : m, inner = t ? m : n;
  for (int64_t i = 0; i < rows; ++i) {
    double sum = 0;
    for (int64_t p = 0; p < inner; ++p) sum += double(t ? A[p + i * lda] : A[i + p * lda]) * double(x[p * incx]);
    double old = *beta == 0 ? 0 : double(y[i * incy]);
    y[i * incy] = static_cast<T>(*alpha * sum + *beta * old);
  }
  return CUBLAS_STATUS_SUCCESS;
}

}  // namespace

FAKE_API cublasStatus_t cublasSaxpy_v2_64(cublasHandle_t h, int64_t n, const float* a, const float* x, int64_t incx,
                                          float* y, int64_t incy) {
  return axpy("cublasSaxpy_v2_64", h, n, a, x, incx, y, incy);
}
FAKE_API cublasStatus_t cublasDaxpy_v2_64(cublasHandle_t h, int64_t n, const double* a, const double* x, int64_t incx,
                                          double* y, int64_t incy) {
  return axpy("cublasDaxpy_v2_64", h, n, a, x, incx, y, incy);
}
FAKE_API cublasStatus_t cublasSdot_v2_64(cublasHandle_t h, int64_t n, const float* x, int64_t incx, const float* y,
                                         int64_t incy, float* r) {
  return dot("cublasSdot_v2_64", h, n, x, incx, y, incy, r);
}
FAKE_API cublasStatus_t cublasDdot_v2_64(cublasHandle_t h, int64_t n, const double* x, int64_t incx, const double* y,
                                         int64_t incy, double* r) {
  return dot("cublasDdot_v2_64", h, n, x, incx, y, incy, r);
}
FAKE_API cublasStatus_t cublasSnrm2_v2_64(cublasHandle_t h, int64_t n, const float* x, int64_t incx, float* r) {
  return nrm2("cublasSnrm2_v2_64", h, n, x, incx, r);
}
FAKE_API cublasStatus_t cublasDnrm2_v2_64(cublasHandle_t h, int64_t n, const double* x, int64_t incx, double* r) {
  return nrm2("cublasDnrm2_v2_64", h, n, x, incx, r);
}
FAKE_API cublasStatus_t cublasSscal_v2_64(cublasHandle_t h, int64_t n, const float* a, float* x, int64_t incx) {
  return scal("cublasSscal_v2_64", h, n, a, x, incx);
}
FAKE_API cublasStatus_t cublasDscal_v2_64(cublasHandle_t h, int64_t n, const double* a, double* x, int64_t incx) {
  return scal("cublasDscal_v2_64", h, n, a, x, incx);
}
FAKE_API cublasStatus_t cublasSgemv_v2_64(cublasHandle_t h, cublasOperation_t t, int64_t m, int64_t n, const float* a,
                                          const float* A, int64_t lda, const float* x, int64_t incx, const float* b,
                                          float* y, int64_t incy) {
  return gemv("cublasSgemv_v2_64", h, t, m, n, a, A, lda, x, incx, b, y, incy);
}
FAKE_API cublasStatus_t cublasDgemv_v2_64(cublasHandle_t h, cublasOperation_t t, int64_t m, int64_t n, const double* a,
                                          const double* A, int64_t lda, const double* x, int64_t incx, const double* b,
                                          double* y, int64_t incy) {
  return gemv("cublasDgemv_v2_64", h, t, m, n, a, A, lda, x, incx, b, y, incy);
}
#endif  // !DCFAKE_CUBLAS_11

// ---- Controls ----

FAKE_API long dcfake_cublas_calls(const char* name) {
  std::lock_guard<std::mutex> lock(state().mutex);
  auto it = state().calls.find(name);
  return it == state().calls.end() ? 0 : it->second;
}
FAKE_API long dcfake_cublas_live_handles(void) {
  std::lock_guard<std::mutex> lock(state().mutex);
  return state().live;
}
FAKE_API void* dcfake_cublas_stream(void* handle) { return static_cast<cublasHandle_t>(handle)->stream; }
FAKE_API unsigned long long dcfake_cublas_workspace_size(void* handle) {
  return static_cast<cublasHandle_t>(handle)->workspace_size;
}
FAKE_API int dcfake_cublas_pointer_mode(void* handle) { return static_cast<cublasHandle_t>(handle)->pointer_mode; }
FAKE_API int dcfake_cublas_math_mode(void* handle) { return static_cast<cublasHandle_t>(handle)->math_mode; }
FAKE_API int dcfake_cublas_last_compute(void) {
  std::lock_guard<std::mutex> lock(state().mutex);
  return state().last_compute;
}
FAKE_API void dcfake_cublas_inject(const char* name, int nth, int status) {
  std::lock_guard<std::mutex> lock(state().mutex);
  read_env(state());
  state().injections[name] = {state().calls[name] + nth, status};
}
FAKE_API void dcfake_cublas_reset(void) {
  std::lock_guard<std::mutex> lock(state().mutex);
  state().calls.clear();
  state().injections.clear();
  state().last_compute = -1;
}
FAKE_API void* dcfake_cublas_last_handle(void) {
  std::lock_guard<std::mutex> lock(state().mutex);
  return state().last_handle;
}
