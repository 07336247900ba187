// bench_blas: GEMM through dc_blas_gemm against cublasGemmEx_64 called
// directly, in the same process and run, on the same cuBLAS library (the one
// dccuda loaded, found again with dlopen RTLD_NOLOAD), the same stream, the
// same matrices and the same handle setup (a workspace of 32 MiB of the
// device's memory, the default math mode, host pointer mode).
//
// Each iteration enqueues `reps` GEMMs through one side between two events,
// then `reps` through the other, in an order that alternates between
// iterations; a sample is the events' elapsed time / reps. Counters, the
// medians over the samples:
//   dc_ms, raw_ms        GPU time per GEMM
//   dc_tflops, raw_tflops  2 * m * n * k / time
//   ratio                dc median / raw median (the goal: within 1 %: it is the same call)
//
//   BM_Gemm/<type>/<n>   n x n x n, type 0 = F32 (compute 32F), 1 = BF16 in and out (compute 32F,
//                        tensor cores), 2 = F64 (compute 64F); n = 4096 and 8192
//
// Without a usable driver, device or cuBLAS it prints why and exits 0; on the
// fake driver (and the fake cuBLAS, a CPU loop) only a 64^3 smoke run is made.
#include <benchmark/benchmark.h>
#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "announce.h"
#include "dccuda.h"
#include "loader/cuda_abi/cublas_abi.h"
#include "samples.h"

namespace {

struct Env {
  dc_device device = nullptr;
  dc_stream stream = nullptr;
  dc_blas blas = nullptr;
  std::string name;
  bool fake = false;
  void* lib = nullptr;
  PFN_cublasCreate_v2 create = nullptr;
  PFN_cublasDestroy_v2 destroy = nullptr;
  PFN_cublasSetStream_v2 set_stream = nullptr;
  PFN_cublasSetWorkspace_v2 set_workspace = nullptr;
  PFN_cublasGemmEx_64 gemm = nullptr;
  cublasHandle_t raw = nullptr;
  dc_buffer raw_workspace = nullptr;
  dc_event start = nullptr, end = nullptr;
};
Env g_env;

// The cuBLAS dccuda loaded: already in the process, found by the names dccuda tries.
void* loaded_cublas() {
  std::vector<std::string> names;
  if (const char* own = std::getenv("DCCUDA_CUBLAS_LIBRARY")) names.push_back(own);
  for (const char* n : {"libcublas.so.13", "libcublas.so.12"}) names.push_back(n);
  for (const std::string& n : names)
    if (void* lib = dlopen(n.c_str(), RTLD_NOW | RTLD_NOLOAD)) return lib;
  return nullptr;
}

bool setup(std::string* why) {
  Env& e = g_env;
  int32_t version = 0;
  if (dc_device_open(0, &e.device) != DC_SUCCESS || dc_stream_create(e.device, 0, 0, &e.stream) != DC_SUCCESS ||
      dc_blas_library_version(&version) != DC_SUCCESS || dc_blas_create(e.device, e.stream, &e.blas) != DC_SUCCESS ||
      dc_event_create(e.device, 0, &e.start) != DC_SUCCESS || dc_event_create(e.device, 0, &e.end) != DC_SUCCESS) {
    *why = dc_last_error_message();
    return false;
  }
  dc_device_info info = DC_DEVICE_INFO_INIT;
  dc_device_get_info(e.device, &info);
  e.name = info.name;
  e.fake = e.name.find("fake") != std::string::npos;
  e.lib = loaded_cublas();
  if (!e.lib) {
    *why = "the cuBLAS dccuda loaded is not found by name (set DCCUDA_CUBLAS_LIBRARY)";
    return false;
  }
  e.create = reinterpret_cast<PFN_cublasCreate_v2>(dlsym(e.lib, "cublasCreate_v2"));
  e.destroy = reinterpret_cast<PFN_cublasDestroy_v2>(dlsym(e.lib, "cublasDestroy_v2"));
  e.set_stream = reinterpret_cast<PFN_cublasSetStream_v2>(dlsym(e.lib, "cublasSetStream_v2"));
  e.set_workspace = reinterpret_cast<PFN_cublasSetWorkspace_v2>(dlsym(e.lib, "cublasSetWorkspace_v2"));
  e.gemm = reinterpret_cast<PFN_cublasGemmEx_64>(dlsym(e.lib, "cublasGemmEx_64"));
  void* native = nullptr;
  uint64_t ws = 0;
  if (!e.create || !e.destroy || !e.set_stream || !e.set_workspace || !e.gemm ||
      dc_stream_native(e.stream, &native) != DC_SUCCESS ||
      dc_buffer_alloc(e.device, 32ull << 20, 0, &e.raw_workspace) != DC_SUCCESS ||
      dc_buffer_device_pointer(e.raw_workspace, &ws) != DC_SUCCESS) {
    *why = "cuBLAS lacks an entry point, or the raw side's setup failed";
    return false;
  }
  // The raw handle: the device's context is current (dccuda leaves its primary context current).
  if (e.create(&e.raw) != CUBLAS_STATUS_SUCCESS || e.set_stream(e.raw, static_cast<CUstream>(native)) != CUBLAS_STATUS_SUCCESS ||
      e.set_workspace(e.raw, reinterpret_cast<void*>(ws), 32ull << 20) != CUBLAS_STATUS_SUCCESS) {
    *why = "cublasCreate_v2 / SetStream / SetWorkspace failed on the raw side";
    return false;
  }
  return true;
}

void teardown() {
  Env& e = g_env;
  if (e.raw) e.destroy(e.raw);
  dc_buffer_release(e.raw_workspace);
  dc_event_release(e.start);
  dc_event_release(e.end);
  dc_blas_release(e.blas);
  dc_stream_release(e.stream);
  dc_device_release(e.device);
}

struct Shape {
  int32_t type;              // DC_BLAS_*
  cudaDataType cuda;
  uint32_t element;
  uint32_t fill;             // a 32-bit pattern of values near 1
  uint32_t fill_element;
  cublasComputeType_t compute;
};

Shape shape_of(int64_t which) {
  switch (which) {
    case 1: return {DC_BLAS_BF16, CUDA_R_16BF, 2, 0x3f803f80u, 4, CUBLAS_COMPUTE_32F};   // bf16 1.0
    case 2: return {DC_BLAS_F64, CUDA_R_64F, 8, 0x3ff00000u, 4, CUBLAS_COMPUTE_64F};     // about 1.0
    default: return {DC_BLAS_F32, CUDA_R_32F, 4, 0x3f800000u, 4, CUBLAS_COMPUTE_32F};    // 1.0f
  }
}

// GPU milliseconds of `reps` GEMMs enqueued by `enqueue`, or < 0 on failure.
template <class Enqueue>
double timed(int reps, Enqueue&& enqueue) {
  Env& e = g_env;
  if (dc_event_record(e.start, e.stream) != DC_SUCCESS) return -1;
  for (int r = 0; r < reps; ++r)
    if (!enqueue()) return -1;
  float ms = 0;
  if (dc_event_record(e.end, e.stream) != DC_SUCCESS || dc_event_synchronize(e.end) != DC_SUCCESS ||
      dc_event_elapsed_ms(e.start, e.end, &ms) != DC_SUCCESS)
    return -1;
  return ms / reps;
}

void BM_Gemm(benchmark::State& state) {
  Env& e = g_env;
  Shape s = shape_of(state.range(0));
  int64_t n = e.fake ? 64 : state.range(1);
  uint64_t bytes = uint64_t(n) * uint64_t(n) * s.element;
  dc_buffer a = nullptr, b = nullptr, c = nullptr;
  uint64_t pa = 0, pb = 0, pc = 0;
  if (dc_buffer_alloc(e.device, bytes, 0, &a) != DC_SUCCESS || dc_buffer_alloc(e.device, bytes, 0, &b) != DC_SUCCESS ||
      dc_buffer_alloc(e.device, bytes, 0, &c) != DC_SUCCESS || dc_buffer_fill(a, 0, bytes, s.fill, s.fill_element) ||
      dc_buffer_fill(b, 0, bytes, s.fill, s.fill_element) || dc_buffer_fill(c, 0, bytes, 0, 4) ||
      dc_buffer_device_pointer(a, &pa) || dc_buffer_device_pointer(b, &pb) || dc_buffer_device_pointer(c, &pc)) {
    state.SkipWithError(dc_last_error_message());
    dc_buffer_release(a), dc_buffer_release(b), dc_buffer_release(c);
    return;
  }
  dc_blas_gemm_desc d = DC_BLAS_GEMM_DESC_INIT;
  d.ab_type = d.c_type = s.type;
  d.m = d.n = d.k = n;
  d.lda = d.ldb = d.ldc = n;
  d.a_buffer = a, d.b_buffer = b, d.c_buffer = c;
  d.alpha = 1.0, d.beta = 0.0;
  float alpha32 = 1, beta32 = 0;
  double alpha64 = 1, beta64 = 0;
  const void* alpha = s.compute == CUBLAS_COMPUTE_64F ? static_cast<const void*>(&alpha64) : &alpha32;
  const void* beta = s.compute == CUBLAS_COMPUTE_64F ? static_cast<const void*>(&beta64) : &beta32;
  auto dc_side = [&] { return dc_blas_gemm(e.blas, &d) == DC_SUCCESS; };
  auto raw_side = [&] {
    return e.gemm(e.raw, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, alpha, reinterpret_cast<const void*>(pa), s.cuda, n,
                  reinterpret_cast<const void*>(pb), s.cuda, n, beta, reinterpret_cast<void*>(pc), s.cuda, n,
                  s.compute, CUBLAS_GEMM_DEFAULT) == CUBLAS_STATUS_SUCCESS;
  };
  // Enough GEMMs per sample for a few milliseconds of GPU time at full speed.
  int reps = e.fake ? 1 : n >= 8192 ? 4 : 16;
  bench::Samples dc_samples, raw_samples;
  if (timed(1, dc_side) < 0 || timed(1, raw_side) < 0) {  // warm-up: heuristics, kernels loaded
    state.SkipWithError(dc_last_error_message());
  }
  bool dc_first = true;
  for (auto _ : state) {
    double t_dc = 0, t_raw = 0;
    if (dc_first) {
      t_dc = timed(reps, dc_side);
      t_raw = timed(reps, raw_side);
    } else {
      t_raw = timed(reps, raw_side);
      t_dc = timed(reps, dc_side);
    }
    dc_first = !dc_first;
    if (t_dc < 0 || t_raw < 0) {
      state.SkipWithError("a GEMM or an event failed");
      break;
    }
    dc_samples.add(t_dc / 1e3);
    raw_samples.add(t_raw / 1e3);
    state.SetIterationTime((t_dc + t_raw) / 1e3);
  }
  if (dc_samples.size() > 0) {
    double flop = 2.0 * double(n) * double(n) * double(n);
    double dc_s = dc_samples.median(), raw_s = raw_samples.median();
    state.counters["dc_ms"] = dc_s * 1e3;
    state.counters["raw_ms"] = raw_s * 1e3;
    state.counters["dc_tflops"] = flop / dc_s / 1e12;
    state.counters["raw_tflops"] = flop / raw_s / 1e12;
    state.counters["ratio"] = dc_s / raw_s;
    state.counters["samples"] = double(dc_samples.size());
  }
  dc_buffer_release(a);
  dc_buffer_release(b);
  dc_buffer_release(c);
}

BENCHMARK(BM_Gemm)
    ->ArgNames({"type", "n"})
    ->ArgsProduct({{0, 1, 2}, {4096, 8192}})
    ->UseManualTime()
    ->Iterations(20)
    ->Unit(benchmark::kMillisecond);

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  std::string why;
  if (!setup(&why)) {
    std::printf("bench_blas: %s: skipping\n", why.c_str());
    teardown();
    return 0;
  }
  announce_and_run("bench_blas", g_env.name);
  teardown();
  return 0;
}
