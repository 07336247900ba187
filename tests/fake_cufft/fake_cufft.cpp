// A fake cuFFT (libcufft.so.12) for the tests: exports the cuFFT functions
// dccuda uses (src/loader/cuda_abi/cufft_declarations.inc) and computes each
// transform with a naive DFT on the CPU, in double precision, on the fake
// driver's memory (tests/fake_driver: a device pointer is a host address).
// Before it reads or writes, it asks the fake driver whether every byte it
// would touch lies in a live allocation (dcfake_device_range_ok), and fails
// the call with CUFFT_EXEC_FAILED (counted by dcfake_cufft_bad_ranges) if not:
// a bounds bug in dccuda shows as a failed test, not as corrupted memory. The
// work area is used as scratch (written whole at each execute), so a work area
// that is missing, too small or freed is caught the same way.
//
//   DCFAKE_CUFFT_VERSION   what cufftGetVersion answers (default 12000)
//   DCFAKE_CUFFT_FAIL      "entry[:nth[:result]]": call nth (1-based, default
//                          1) of `entry` returns `result` (default
//                          CUFFT_INTERNAL_ERROR, 5); also dcfake_cufft_inject
//   DCFAKE_CUFFT_WORK      the work area each plan asks for, in bytes
//                          (default 64 + 16 per element of one transform)
//
// Control (dlsym from this library): dcfake_cufft_reset,
// dcfake_cufft_inject(entry, nth, result), dcfake_cufft_call_count(entry),
// dcfake_cufft_plans_made, dcfake_cufft_live_plans, dcfake_cufft_bad_ranges.
#include <dlfcn.h>

#include <complex>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "loader/cuda_abi/cufft_abi.h"

#define FAKE_API extern "C" __attribute__((visibility("default")))

namespace {

using cd = std::complex<double>;

struct Plan {
  bool made = false;
  bool auto_alloc = true;
  int rank = 0;
  long long n[3] = {1, 1, 1};
  bool advanced = false;
  long long inembed[3] = {0, 0, 0}, onembed[3] = {0, 0, 0};
  long long istride = 1, idist = 0, ostride = 1, odist = 0;
  cufftType type = CUFFT_C2C;
  long long batch = 1;
  size_t work_size = 0;
  void* work = nullptr;
  CUstream stream = nullptr;
};

struct State {
  std::recursive_mutex mutex;
  std::map<int, Plan> plans;
  int next = 1;
  long plans_made = 0;
  long bad_ranges = 0;
  std::map<std::string, long> calls;
  // entry -> (the call that fails, counted from the injection, result)
  struct Fault {
    long at;
    int result;
  };
  std::map<std::string, Fault> faults;
};

State& state() {
  static State* s = [] {
    auto* st = new State;
    if (const char* f = std::getenv("DCFAKE_CUFFT_FAIL")) {
      std::string spec = f;
      std::string entry = spec.substr(0, spec.find(':'));
      long nth = 1;
      int result = CUFFT_INTERNAL_ERROR;
      size_t c1 = spec.find(':');
      if (c1 != std::string::npos) {
        nth = std::atol(spec.c_str() + c1 + 1);
        size_t c2 = spec.find(':', c1 + 1);
        if (c2 != std::string::npos) result = std::atoi(spec.c_str() + c2 + 1);
      }
      st->faults[entry] = {nth, result};
    }
    return st;
  }();
  return *s;
}

// Counts the call; the injected result if this call is due to fail, else 0.
int enter(const char* entry) {
  State& s = state();
  long n = ++s.calls[entry];
  auto it = s.faults.find(entry);
  if (it != s.faults.end() && it->second.at == n) return it->second.result;
  return 0;
}

#define FAKE_ENTER(name)                                \
  std::lock_guard<std::recursive_mutex> guard(state().mutex); \
  if (int injected = enter(#name)) return static_cast<cufftResult>(injected)

// The fake driver's range check, found in the driver dccuda loaded.
int range_ok(const void* p, unsigned long long n) {
  using Fn = int (*)(unsigned long long, unsigned long long);
  static Fn fn = [] {
    const char* path = std::getenv("DCCUDA_DRIVER_LIBRARY");
    void* lib = path ? dlopen(path, RTLD_NOW | RTLD_NOLOAD) : nullptr;
    return lib ? reinterpret_cast<Fn>(dlsym(lib, "dcfake_device_range_ok")) : nullptr;
  }();
  if (!fn) {
    std::fprintf(stderr, "fake cuFFT: the fake driver's dcfake_device_range_ok was not found (DCCUDA_DRIVER_LIBRARY)\n");
    return 0;
  }
  return fn(reinterpret_cast<unsigned long long>(p), n);
}

bool is_real_in(cufftType t) { return t == CUFFT_R2C || t == CUFFT_D2Z; }
bool is_real_out(cufftType t) { return t == CUFFT_C2R || t == CUFFT_Z2D; }
bool is_double(cufftType t) { return t == CUFFT_Z2Z || t == CUFFT_D2Z || t == CUFFT_Z2D; }

// A side's logical extents and storage.
struct Side {
  long long m[3] = {1, 1, 1};      // logical extents
  long long embed[3] = {1, 1, 1};  // storage extents
  long long stride = 1, dist = 0;
  bool real = false;
  size_t elem = 8;
};

Side side_of(const Plan& p, bool output, bool in_place) {
  Side s;
  s.real = output ? is_real_out(p.type) : is_real_in(p.type);
  bool half = p.type != CUFFT_C2C && p.type != CUFFT_Z2Z && !s.real;
  size_t scalar = is_double(p.type) ? 8 : 4;
  s.elem = s.real ? scalar : 2 * scalar;
  for (int d = 0; d < p.rank; ++d) s.m[d] = (d == p.rank - 1 && half) ? p.n[d] / 2 + 1 : p.n[d];
  if (p.advanced) {
    for (int d = 0; d < p.rank; ++d) s.embed[d] = output ? p.onembed[d] : p.inembed[d];
    s.stride = output ? p.ostride : p.istride;
    s.dist = output ? p.odist : p.idist;
  } else {
    long long per = 1;
    for (int d = 0; d < p.rank; ++d) {
      s.embed[d] = s.m[d];
      // In place, the real side's rows are padded to 2 * (n/2 + 1) (FFTW's layout).
      if (in_place && s.real && p.type != CUFFT_C2C && p.type != CUFFT_Z2Z && d == p.rank - 1)
        s.embed[d] = 2 * (p.n[d] / 2 + 1);
      per *= s.embed[d];
    }
    s.stride = 1;
    s.dist = per;
  }
  return s;
}

// Element index of (b, x) on a side.
long long index_of(const Plan& p, const Side& s, long long b, const long long* x) {
  long long i = 0;
  for (int d = 0; d < p.rank; ++d) i = i * (d == 0 ? 1 : s.embed[d]) + x[d];
  return b * s.dist + i * s.stride;
}

// Bytes from the base the side spans (the last element's end).
unsigned long long span(const Plan& p, const Side& s) {
  long long last[3] = {0, 0, 0};
  for (int d = 0; d < p.rank; ++d) last[d] = s.m[d] - 1;
  return static_cast<unsigned long long>(index_of(p, s, p.batch - 1, last) + 1) * s.elem;
}

long long count(const Plan& p) {
  long long c = 1;
  for (int d = 0; d < p.rank; ++d) c *= p.n[d];
  return c;
}

cd load(const void* base, const Side& s, long long i, bool dbl) {
  if (s.real) return dbl ? cd(static_cast<const double*>(base)[i], 0) : cd(static_cast<const float*>(base)[i], 0);
  if (dbl) return cd(static_cast<const double*>(base)[2 * i], static_cast<const double*>(base)[2 * i + 1]);
  return cd(static_cast<const float*>(base)[2 * i], static_cast<const float*>(base)[2 * i + 1]);
}

void store(void* base, const Side& s, long long i, cd v, bool dbl) {
  if (s.real) {
    if (dbl) static_cast<double*>(base)[i] = v.real();
    else static_cast<float*>(base)[i] = static_cast<float>(v.real());
    return;
  }
  if (dbl) {
    static_cast<double*>(base)[2 * i] = v.real();
    static_cast<double*>(base)[2 * i + 1] = v.imag();
  } else {
    static_cast<float*>(base)[2 * i] = static_cast<float>(v.real());
    static_cast<float*>(base)[2 * i + 1] = static_cast<float>(v.imag());
  }
}

// Naive DFT along every dimension of a dense row-major array of extents n.
void dft(std::vector<cd>& a, const long long* n, int rank, int sign) {
  const double pi = 3.14159265358979323846;
  long long total = 1;
  for (int d = 0; d < rank; ++d) total *= n[d];
  for (int d = 0; d < rank; ++d) {
    long long inner = 1;
    for (int e = d + 1; e < rank; ++e) inner *= n[e];
    long long len = n[d], outer = total / (inner * len);
    std::vector<cd> line(len), out(len);
    for (long long o = 0; o < outer; ++o)
      for (long long in = 0; in < inner; ++in) {
        long long base = o * len * inner + in;
        for (long long k = 0; k < len; ++k) line[k] = a[base + k * inner];
        for (long long k = 0; k < len; ++k) {
          cd sum = 0;
          for (long long j = 0; j < len; ++j) sum += line[j] * std::polar(1.0, sign * 2 * pi * double((j * k) % len) / len);
          out[k] = sum;
        }
        for (long long k = 0; k < len; ++k) a[base + k * inner] = out[k];
      }
  }
}

cufftResult exec(cufftHandle h, const void* idata, void* odata, int direction) {
  State& st = state();
  auto it = st.plans.find(h);
  if (it == st.plans.end() || !it->second.made) return CUFFT_INVALID_PLAN;
  Plan& p = it->second;
  if (direction != CUFFT_FORWARD && direction != CUFFT_INVERSE) return CUFFT_INVALID_VALUE;
  if (!p.auto_alloc && p.work_size > 0 && !p.work) return CUFFT_NO_WORKSPACE;
  bool in_place = idata == odata;
  Side in = side_of(p, false, in_place), out = side_of(p, true, in_place);
  bool dbl = is_double(p.type);
  if (!range_ok(idata, span(p, in)) || !range_ok(odata, span(p, out)) ||
      (p.work_size > 0 && !range_ok(p.work, p.work_size))) {
    ++st.bad_ranges;
    std::fprintf(stderr, "fake cuFFT: an execute would touch memory outside a live allocation (input %p + %llu, "
                 "output %p + %llu, work %p + %zu)\n", idata, span(p, in), static_cast<void*>(odata), span(p, out),
                 p.work, p.work_size);
    return CUFFT_EXEC_FAILED;
  }
  // Scratch: the whole work area is written, as a real plan may.
  if (p.work_size > 0) std::memset(p.work, 0xa5, p.work_size);
  long long total = count(p);
  std::vector<std::vector<cd>> data(p.batch, std::vector<cd>(total));
  // Gather every transform first (in place, the output overwrites the input).
  for (long long b = 0; b < p.batch; ++b) {
    for (long long e = 0; e < total; ++e) {
      long long x[3] = {0, 0, 0}, r = e;
      for (int d = p.rank - 1; d >= 0; --d) {
        x[d] = r % p.n[d];
        r /= p.n[d];
      }
      if (p.type == CUFFT_C2R || p.type == CUFFT_Z2D) {
        // The full spectrum from the half: X[k] = conj(X[(n - k) mod n]).
        long long last = p.rank - 1;
        if (x[last] < in.m[last]) {
          data[b][e] = load(idata, in, index_of(p, in, b, x), dbl);
        } else {
          long long y[3];
          for (int d = 0; d < p.rank; ++d) y[d] = (p.n[d] - x[d]) % p.n[d];
          data[b][e] = std::conj(load(idata, in, index_of(p, in, b, y), dbl));
        }
      } else {
        data[b][e] = load(idata, in, index_of(p, in, b, x), dbl);
      }
    }
  }
  int sign = (p.type == CUFFT_R2C || p.type == CUFFT_D2Z) ? -1 : (p.type == CUFFT_C2R || p.type == CUFFT_Z2D) ? 1 : direction;
  for (long long b = 0; b < p.batch; ++b) dft(data[b], p.n, p.rank, sign);
  for (long long b = 0; b < p.batch; ++b)
    for (long long e = 0; e < total; ++e) {
      long long x[3] = {0, 0, 0}, r = e;
      for (int d = p.rank - 1; d >= 0; --d) {
        x[d] = r % p.n[d];
        r /= p.n[d];
      }
      if (x[p.rank - 1] >= out.m[p.rank - 1]) continue;  // R2C keeps the half
      store(odata, out, index_of(p, out, b, x), data[b][e], dbl);
    }
  return CUFFT_SUCCESS;
}

}  // namespace

FAKE_API cufftResult cufftCreate(cufftHandle* handle) {
  FAKE_ENTER(cufftCreate);
  if (!handle) return CUFFT_INVALID_VALUE;
  State& s = state();
  *handle = s.next++;
  s.plans[*handle] = Plan{};
  return CUFFT_SUCCESS;
}

FAKE_API cufftResult cufftDestroy(cufftHandle plan) {
  FAKE_ENTER(cufftDestroy);
  return state().plans.erase(plan) ? CUFFT_SUCCESS : CUFFT_INVALID_PLAN;
}

FAKE_API cufftResult cufftSetAutoAllocation(cufftHandle plan, int autoAllocate) {
  FAKE_ENTER(cufftSetAutoAllocation);
  auto it = state().plans.find(plan);
  if (it == state().plans.end()) return CUFFT_INVALID_PLAN;
  it->second.auto_alloc = autoAllocate != 0;
  return CUFFT_SUCCESS;
}

FAKE_API cufftResult cufftMakePlanMany64(cufftHandle plan, int rank, long long int* n, long long int* inembed,
                                         long long int istride, long long int idist, long long int* onembed,
                                         long long int ostride, long long int odist, cufftType type,
                                         long long int batch, size_t* workSize) {
  FAKE_ENTER(cufftMakePlanMany64);
  auto it = state().plans.find(plan);
  if (it == state().plans.end()) return CUFFT_INVALID_PLAN;
  if (rank < 1 || rank > 3 || !n || batch < 1 || !workSize) return CUFFT_INVALID_VALUE;
  if ((inembed == nullptr) != (onembed == nullptr)) return CUFFT_INVALID_VALUE;
  if (type != CUFFT_C2C && type != CUFFT_Z2Z && type != CUFFT_R2C && type != CUFFT_D2Z && type != CUFFT_C2R &&
      type != CUFFT_Z2D)
    return CUFFT_INVALID_TYPE;
  Plan p;
  p.auto_alloc = it->second.auto_alloc;
  p.rank = rank;
  long long total = 1;
  for (int d = 0; d < rank; ++d) {
    if (n[d] < 1) return CUFFT_INVALID_SIZE;
    p.n[d] = n[d];
    total *= n[d];
  }
  // A naive DFT: the tests keep transforms small.
  if (total * batch > (1 << 16)) return CUFFT_INVALID_SIZE;
  p.advanced = inembed != nullptr;
  if (p.advanced) {
    for (int d = 0; d < rank; ++d) {
      p.inembed[d] = inembed[d];
      p.onembed[d] = onembed[d];
    }
    p.istride = istride;
    p.idist = idist;
    p.ostride = ostride;
    p.odist = odist;
  }
  p.type = type;
  p.batch = batch;
  const char* w = std::getenv("DCFAKE_CUFFT_WORK");
  p.work_size = w ? static_cast<size_t>(std::atoll(w)) : 64 + 16 * static_cast<size_t>(total);
  p.made = true;
  it->second = p;
  *workSize = p.work_size;
  ++state().plans_made;
  return CUFFT_SUCCESS;
}

FAKE_API cufftResult cufftSetWorkArea(cufftHandle plan, void* workArea) {
  FAKE_ENTER(cufftSetWorkArea);
  auto it = state().plans.find(plan);
  if (it == state().plans.end()) return CUFFT_INVALID_PLAN;
  it->second.work = workArea;
  return CUFFT_SUCCESS;
}

FAKE_API cufftResult cufftSetStream(cufftHandle plan, CUstream stream) {
  FAKE_ENTER(cufftSetStream);
  auto it = state().plans.find(plan);
  if (it == state().plans.end()) return CUFFT_INVALID_PLAN;
  it->second.stream = stream;
  return CUFFT_SUCCESS;
}

FAKE_API cufftResult cufftExecC2C(cufftHandle plan, cufftComplex* idata, cufftComplex* odata, int direction) {
  FAKE_ENTER(cufftExecC2C);
  if (state().plans.count(plan) && state().plans[plan].type != CUFFT_C2C) return CUFFT_INVALID_VALUE;
  return exec(plan, idata, odata, direction);
}
FAKE_API cufftResult cufftExecZ2Z(cufftHandle plan, cufftDoubleComplex* idata, cufftDoubleComplex* odata,
                                  int direction) {
  FAKE_ENTER(cufftExecZ2Z);
  if (state().plans.count(plan) && state().plans[plan].type != CUFFT_Z2Z) return CUFFT_INVALID_VALUE;
  return exec(plan, idata, odata, direction);
}
FAKE_API cufftResult cufftExecR2C(cufftHandle plan, cufftReal* idata, cufftComplex* odata) {
  FAKE_ENTER(cufftExecR2C);
  if (state().plans.count(plan) && state().plans[plan].type != CUFFT_R2C) return CUFFT_INVALID_VALUE;
  return exec(plan, idata, odata, CUFFT_FORWARD);
}
FAKE_API cufftResult cufftExecD2Z(cufftHandle plan, cufftDoubleReal* idata, cufftDoubleComplex* odata) {
  FAKE_ENTER(cufftExecD2Z);
  if (state().plans.count(plan) && state().plans[plan].type != CUFFT_D2Z) return CUFFT_INVALID_VALUE;
  return exec(plan, idata, odata, CUFFT_FORWARD);
}
FAKE_API cufftResult cufftExecC2R(cufftHandle plan, cufftComplex* idata, cufftReal* odata) {
  FAKE_ENTER(cufftExecC2R);
  if (state().plans.count(plan) && state().plans[plan].type != CUFFT_C2R) return CUFFT_INVALID_VALUE;
  return exec(plan, idata, odata, CUFFT_INVERSE);
}
FAKE_API cufftResult cufftExecZ2D(cufftHandle plan, cufftDoubleComplex* idata, cufftDoubleReal* odata) {
  FAKE_ENTER(cufftExecZ2D);
  if (state().plans.count(plan) && state().plans[plan].type != CUFFT_Z2D) return CUFFT_INVALID_VALUE;
  return exec(plan, idata, odata, CUFFT_INVERSE);
}

namespace {
int fake_version() {
  const char* v = std::getenv("DCFAKE_CUFFT_VERSION");
  return v ? std::atoi(v) : 12000;
}
}  // namespace

FAKE_API cufftResult cufftGetVersion(int* version) {
  FAKE_ENTER(cufftGetVersion);
  if (!version) return CUFFT_INVALID_VALUE;
  *version = fake_version();
  return CUFFT_SUCCESS;
}

FAKE_API cufftResult cufftGetProperty(libraryPropertyType type, int* value) {
  FAKE_ENTER(cufftGetProperty);
  if (!value) return CUFFT_INVALID_VALUE;
  int v = fake_version();
  *value = type == MAJOR_VERSION ? v / 1000 : type == MINOR_VERSION ? (v % 1000) / 100 : v % 100;
  return CUFFT_SUCCESS;
}

// ---- control ----

FAKE_API void dcfake_cufft_reset(void) {
  std::lock_guard<std::recursive_mutex> guard(state().mutex);
  state().calls.clear();
  state().faults.clear();
  state().bad_ranges = 0;
}

FAKE_API void dcfake_cufft_inject(const char* entry, int nth, int result) {
  std::lock_guard<std::recursive_mutex> guard(state().mutex);
  State& s = state();
  s.faults[entry] = {s.calls[entry] + nth, result};
}

FAKE_API long dcfake_cufft_call_count(const char* entry) {
  std::lock_guard<std::recursive_mutex> guard(state().mutex);
  auto it = state().calls.find(entry);
  return it == state().calls.end() ? 0 : it->second;
}

FAKE_API long dcfake_cufft_plans_made(void) {
  std::lock_guard<std::recursive_mutex> guard(state().mutex);
  return state().plans_made;
}

FAKE_API long dcfake_cufft_live_plans(void) {
  std::lock_guard<std::recursive_mutex> guard(state().mutex);
  return static_cast<long>(state().plans.size());
}

FAKE_API long dcfake_cufft_bad_ranges(void) {
  std::lock_guard<std::recursive_mutex> guard(state().mutex);
  return state().bad_ranges;
}
