// bench_fft: dc_fft_execute against cufftExec* called directly, in the same
// process and run: the same libcufft (dlopen'd by the name dccuda loads, so
// the same copy), the same transform shape, the same stream. Each side has
// its own plan and buffers; dccuda's plan has its work area from dccuda, the
// direct plan cuFFT's own.
//
// Each iteration times `reps` executes of one side and then of the other
// (alternating which goes first), each burst from the first enqueue to the
// stream's completion on the steady clock. Counters, medians over the bursts:
//   dc_us, raw_us   time per transform (one execute: all `batch` transforms)
//   ratio           dc median / raw median (the same cuFFT kernels: ~1.00)
//   gflops          5 N log2(N) * batch / raw time (the usual FFT flop count;
//                   N the transform's points; R2C counted as half)
//   gbps            bytes read + written once / raw time
//
//   BM_Fft/c2c_s_2^20      1D C2C single, 2^20 points
//   BM_Fft/c2c_s_2^24      1D C2C single, 2^24 points
//   BM_Fft/z2z_d_2^24      1D C2C double, 2^24 points
//   BM_Fft/r2c_s_2^24      1D R2C single, 2^24 points
//   BM_Fft/c2c_s_1024x4096 4096 transforms of 1024 points
//   BM_Fft/c2c_s_512^3     3D C2C single, 512^3 (1 GiB a buffer)
//
// Without a driver, device or cuFFT it prints why and exits 0.
#include <benchmark/benchmark.h>
#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "announce.h"
#include "dccuda.h"
#include "loader/cuda_abi/cufft_abi.h"

namespace {

struct RawCufft {
  PFN_cufftCreate create = nullptr;
  PFN_cufftDestroy destroy = nullptr;
  PFN_cufftMakePlanMany64 make = nullptr;
  PFN_cufftSetStream set_stream = nullptr;
  PFN_cufftExecC2C c2c = nullptr;
  PFN_cufftExecZ2Z z2z = nullptr;
  PFN_cufftExecR2C r2c = nullptr;
};

struct Env {
  dc_device device = nullptr;
  dc_stream stream = nullptr;
  CUstream raw_stream = nullptr;
  RawCufft raw;
  std::string name;
} g_env;

struct Case {
  const char* name;
  int32_t rank;
  uint64_t sizes[3];
  uint64_t batch;
  int32_t kind;
  int32_t precision;
};

const Case kCases[] = {
    {"c2c_s_2^20", 1, {1u << 20, 0, 0}, 1, DC_FFT_C2C, DC_FFT_SINGLE},
    {"c2c_s_2^24", 1, {1u << 24, 0, 0}, 1, DC_FFT_C2C, DC_FFT_SINGLE},
    {"z2z_d_2^24", 1, {1u << 24, 0, 0}, 1, DC_FFT_C2C, DC_FFT_DOUBLE},
    {"r2c_s_2^24", 1, {1u << 24, 0, 0}, 1, DC_FFT_R2C, DC_FFT_SINGLE},
    {"c2c_s_1024x4096", 1, {1024, 0, 0}, 4096, DC_FFT_C2C, DC_FFT_SINGLE},
    {"c2c_s_512^3", 3, {512, 512, 512}, 1, DC_FFT_C2C, DC_FFT_SINGLE},
};

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

void BM_Fft(benchmark::State& state, const Case& c) {
  dc_fft_desc d = DC_FFT_DESC_INIT;
  d.rank = c.rank;
  d.kind = c.kind;
  d.precision = c.precision;
  uint64_t points = 1;
  for (int i = 0; i < c.rank; ++i) {
    d.sizes[i] = c.sizes[i];
    points *= c.sizes[i];
  }
  d.batch = c.batch;
  dc_fft_plan plan = nullptr;
  if (dc_fft_plan_create(g_env.device, &d, &plan) != DC_SUCCESS ||
      dc_fft_plan_set_stream(plan, g_env.stream) != DC_SUCCESS) {
    state.SkipWithError(dc_last_error_message());
    dc_fft_plan_release(plan);
    return;
  }
  dc_fft_plan_info info = DC_FFT_PLAN_INFO_INIT;
  dc_fft_plan_info_get(plan, &info);
  // Two buffers per side, out of place.
  dc_buffer in[2] = {}, out[2] = {};
  for (int s = 0; s < 2; ++s)
    if (dc_buffer_alloc(g_env.device, info.input_bytes, 0, &in[s]) != DC_SUCCESS ||
        dc_buffer_alloc(g_env.device, info.output_bytes, 0, &out[s]) != DC_SUCCESS) {
      state.SkipWithError(dc_last_error_message());
      for (int k = 0; k < 2; ++k) {
        dc_buffer_release(in[k]);
        dc_buffer_release(out[k]);
      }
      dc_fft_plan_release(plan);
      return;
    }
  // The direct plan: the same shape, cuFFT's own work area.
  cufftHandle raw = 0;
  long long n[3] = {(long long)c.sizes[0], (long long)c.sizes[1], (long long)c.sizes[2]};
  size_t work = 0;
  cufftType type = c.kind == DC_FFT_R2C ? CUFFT_R2C : c.precision == DC_FFT_DOUBLE ? CUFFT_Z2Z : CUFFT_C2C;
  if (g_env.raw.create(&raw) != CUFFT_SUCCESS ||
      g_env.raw.make(raw, c.rank, n, nullptr, 1, 0, nullptr, 1, 0, type, (long long)c.batch, &work) != CUFFT_SUCCESS ||
      g_env.raw.set_stream(raw, g_env.raw_stream) != CUFFT_SUCCESS) {
    state.SkipWithError("the direct cuFFT plan failed");
  }
  uint64_t raw_in = 0, raw_out = 0;
  dc_buffer_device_pointer(in[1], &raw_in);
  dc_buffer_device_pointer(out[1], &raw_out);
  auto dc_exec = [&] {
    return dc_fft_execute(plan, in[0], 0, out[0], 0, DC_FFT_FORWARD) ==
           DC_SUCCESS;
  };
  auto raw_exec = [&] {
    void* i = reinterpret_cast<void*>(raw_in);
    void* o = reinterpret_cast<void*>(raw_out);
    cufftResult r = type == CUFFT_R2C   ? g_env.raw.r2c(raw, static_cast<cufftReal*>(i), static_cast<cufftComplex*>(o))
                    : type == CUFFT_Z2Z ? g_env.raw.z2z(raw, static_cast<cufftDoubleComplex*>(i),
                                                        static_cast<cufftDoubleComplex*>(o), CUFFT_FORWARD)
                                        : g_env.raw.c2c(raw, static_cast<cufftComplex*>(i), static_cast<cufftComplex*>(o),
                                                        CUFFT_FORWARD);
    return r == CUFFT_SUCCESS;
  };
  const int reps = points * c.batch >= (1u << 26) ? 5 : 20;
  // Warm-up: one of each.
  bool ok = dc_exec() && raw_exec() && dc_stream_synchronize(g_env.stream) == DC_SUCCESS;
  if (!ok) state.SkipWithError(dc_last_error_message());
  std::vector<double> dc_s, raw_s;
  bool dc_first = true;
  for (auto _ : state) {
    if (!ok) break;
    double t_dc = 0, t_raw = 0;
    for (int side = 0; side < 2; ++side) {
      bool dc_side = (side == 0) == dc_first;
      auto t0 = std::chrono::steady_clock::now();
      for (int r = 0; r < reps; ++r) ok = ok && (dc_side ? dc_exec() : raw_exec());
      ok = ok && dc_stream_synchronize(g_env.stream) == DC_SUCCESS;
      (dc_side ? t_dc : t_raw) = seconds_since(t0) / reps;
    }
    dc_first = !dc_first;
    dc_s.push_back(t_dc);
    raw_s.push_back(t_raw);
    state.SetIterationTime((t_dc + t_raw) * reps);
  }
  if (!ok) state.SkipWithError(dc_last_error_message());
  double dcm = median(dc_s), rawm = median(raw_s);
  double flops = 5.0 * static_cast<double>(points) * std::log2(static_cast<double>(points)) * c.batch;
  if (c.kind == DC_FFT_R2C) flops /= 2;
  state.counters["dc_us"] = dcm * 1e6;
  state.counters["raw_us"] = rawm * 1e6;
  state.counters["ratio"] = rawm > 0 ? dcm / rawm : 0;
  state.counters["gflops"] = rawm > 0 ? flops / rawm / 1e9 : 0;
  state.counters["gbps"] = rawm > 0 ? static_cast<double>(info.input_bytes + info.output_bytes) / rawm / 1e9 : 0;
  state.counters["samples"] = static_cast<double>(dc_s.size());
  g_env.raw.destroy(raw);
  for (int k = 0; k < 2; ++k) {
    dc_buffer_release(in[k]);
    dc_buffer_release(out[k]);
  }
  dc_fft_plan_release(plan);
}

// The library dccuda loaded, opened again by the same name (the same copy).
bool open_raw_cufft(std::string* why) {
  std::vector<std::string> names;
  if (const char* e = std::getenv("DCCUDA_CUFFT_LIBRARY")) names.push_back(e);
  for (const char* n : {"libcufft.so.12", "libcufft.so.11"}) {
    names.push_back(n);
    for (const char* root : std::vector<const char*>{std::getenv("CUDA_HOME"), std::getenv("CUDA_PATH"), "/usr/local/cuda"})
      if (root && *root) names.push_back(std::string(root) + "/lib64/" + n);
  }
  for (const std::string& n : names) {
    void* lib = dlopen(n.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!lib) continue;
    RawCufft& r = g_env.raw;
    r.create = reinterpret_cast<PFN_cufftCreate>(dlsym(lib, "cufftCreate"));
    r.destroy = reinterpret_cast<PFN_cufftDestroy>(dlsym(lib, "cufftDestroy"));
    r.make = reinterpret_cast<PFN_cufftMakePlanMany64>(dlsym(lib, "cufftMakePlanMany64"));
    r.set_stream = reinterpret_cast<PFN_cufftSetStream>(dlsym(lib, "cufftSetStream"));
    r.c2c = reinterpret_cast<PFN_cufftExecC2C>(dlsym(lib, "cufftExecC2C"));
    r.z2z = reinterpret_cast<PFN_cufftExecZ2Z>(dlsym(lib, "cufftExecZ2Z"));
    r.r2c = reinterpret_cast<PFN_cufftExecR2C>(dlsym(lib, "cufftExecR2C"));
    if (r.create && r.destroy && r.make && r.set_stream && r.c2c && r.z2z && r.r2c) return true;
  }
  *why = "cuFFT could not be opened directly (set DCCUDA_CUFFT_LIBRARY)";
  return false;
}

bool setup(std::string* why) {
  int32_t version = 0;
  if (dc_fft_library_version(&version) != DC_SUCCESS) {
    *why = dc_last_error_message();
    return false;
  }
  if (!open_raw_cufft(why)) return false;
  if (dc_device_open(0, &g_env.device) != DC_SUCCESS || dc_stream_create(g_env.device, 0, 0, &g_env.stream) != DC_SUCCESS) {
    *why = dc_last_error_message();
    return false;
  }
  void* s = nullptr;
  dc_stream_native(g_env.stream, &s);
  g_env.raw_stream = static_cast<CUstream>(s);
  dc_device_info info = DC_DEVICE_INFO_INIT;
  if (dc_device_get_info(g_env.device, &info) == DC_SUCCESS) g_env.name = info.name;
  for (const Case& c : kCases)
    benchmark::RegisterBenchmark((std::string("BM_Fft/") + c.name).c_str(), BM_Fft, c)
        ->UseManualTime()
        ->Unit(benchmark::kMicrosecond)
        ->Iterations(10);
  return true;
}

void teardown() {
  dc_stream_release(g_env.stream);
  dc_device_release(g_env.device);
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  std::string why;
  if (!setup(&why)) {
    std::printf("bench_fft: %s: skipping\n", why.c_str());
    teardown();
    return 0;
  }
  announce_and_run("bench_fft", g_env.name);
  teardown();
  return 0;
}
