// bench_batch: the per-operation CPU cost of dccuda's batch calls
// (dc_launch_enqueue_batch, dc_buffer_copy_batch_async) against N single dc_
// calls and against N raw driver calls, in the same process and run.
//
// Each row pairs a "dc" side with a "raw" side, timed as bench_launch times
// them: bursts of calls, each burst timed on the steady clock, the stream
// synchronisation after it not; the sides alternate which goes first. A burst
// holds 128 operations (128 / N calls of N operations), so that every row
// enqueues as much work before its synchronisation. Counters (medians):
//   dc_ns, raw_ns   CPU time per operation (per launch, per copy)
//   ratio           dc_ns / raw_ns
//   overhead_ns     dc_ns - raw_ns
//   samples         bursts timed per side
//
//   BM_LaunchBatch/N      dc_launch_enqueue_batch of N launches  vs N cuLaunchKernel
//   BM_LaunchSingles/N    N dc_launch_enqueue                    vs N cuLaunchKernel
//   BM_CopyBatchD2D/N     dc_buffer_copy_batch_async of N 4 KiB device-to-device copies
//                                                              vs N cuMemcpyDtoDAsync
//   BM_CopySinglesD2D/N   N dc_buffer_copy_async                 vs N cuMemcpyDtoDAsync
//   BM_CopyBatchH2D/N     the same from a pinned buffer (dc_buffer_alloc_pinned)
//                                                              vs N cuMemcpyHtoDAsync
//   BM_CopySinglesH2D/N   N dc_buffer_copy_async from that pinned buffer
//                                                              vs N cuMemcpyHtoDAsync
//   BM_RawCopyBatchD2D/N  raw cuMemcpyBatchAsync of N copies (the driver's own batch, the
//                         floor of the dc batch) vs N cuMemcpyDtoDAsync; left out where
//                         the driver lacks it (before CUDA 13.0)
// The goal's numbers: dc_ns of a Batch row against dc_ns of its Singles row at the
// same N (the batch's saving per operation), and each against raw_ns.
// N = 1, 8, 32, 128. Without a usable driver, device or NVRTC it prints why and exits 0.
#include <benchmark/benchmark.h>

#include <dlfcn.h>

#include <cstdio>
#include <string>
#include <vector>

#include "announce.h"
#include "checks.h"
#include "dccuda.h"
#include "raw_driver.h"
#include "samples.h"

namespace {

constexpr int64_t kOpsPerBurst = 128;
constexpr uint64_t kCopyBytes = 4096;

struct Env {
  dc_device device = nullptr;
  CUcontext context = nullptr;
  const bench::RawDriver* raw = nullptr;
  std::string name;
  dc_module module = nullptr;
  dc_function empty = nullptr;
  CUfunction raw_empty = nullptr;
  dc_stream stream = nullptr;
  CUstream raw_stream = nullptr;
  // kOpsPerBurst copies' worth of room each: every copy of a batch has its own range.
  dc_buffer dst = nullptr, src = nullptr, pinned = nullptr;
  CUdeviceptr raw_dst = 0, raw_src = 0;
  void* pinned_host = nullptr;
  // Raw entry points bench::RawDriver does not carry.
  PFN_cuMemcpyDtoDAsync_v3020 cuMemcpyDtoDAsync = nullptr;
  PFN_cuMemcpyHtoDAsync_v3020 cuMemcpyHtoDAsync = nullptr;
  PFN_cuMemcpyBatchAsync_v13000 cuMemcpyBatchAsync = nullptr;  // null before CUDA 13.0
};

Env g_env;

// An entry point of the driver dccuda loaded, at `version`, or null.
void* raw_entry(const char* name, int version) {
  const char* path = nullptr;
  if (dc_driver_library(&path) != DC_SUCCESS) return nullptr;
  void* lib = dlopen(path, RTLD_NOW | RTLD_NOLOAD);
  auto get_proc = lib ? reinterpret_cast<PFN_cuGetProcAddress_v12000>(dlsym(lib, "cuGetProcAddress_v2")) : nullptr;
  void* fn = nullptr;
  CUdriverProcAddressQueryResult found = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
  if (!get_proc || get_proc(name, &fn, version, CU_GET_PROC_ADDRESS_DEFAULT, &found) != CUDA_SUCCESS ||
      found != CU_GET_PROC_ADDRESS_SUCCESS)
    return nullptr;
  return fn;
}

bool setup(std::string* why) {
  auto failed = [&](const char* what) {
    *why = std::string(what) + ": " + dc_last_error_message();
    return false;
  };
  int32_t count = 0;
  if (dc_device_count(&count) != DC_SUCCESS) return failed("dc_device_count");
  if (count < 1) {
    *why = "the driver reports no CUDA device";
    return false;
  }
  int32_t major = 0, minor = 0;
  if (dc_nvrtc_version(&major, &minor) != DC_SUCCESS) return failed("NVRTC");
  if (dc_device_open(0, &g_env.device) != DC_SUCCESS) return failed("dc_device_open");
  void* native = nullptr;
  dc_device_native(g_env.device, nullptr, &native);
  g_env.context = static_cast<CUcontext>(native);
  g_env.raw = bench::raw_driver(why);
  if (!g_env.raw) return false;
  g_env.cuMemcpyDtoDAsync = reinterpret_cast<PFN_cuMemcpyDtoDAsync_v3020>(raw_entry("cuMemcpyDtoDAsync", 3020));
  g_env.cuMemcpyHtoDAsync = reinterpret_cast<PFN_cuMemcpyHtoDAsync_v3020>(raw_entry("cuMemcpyHtoDAsync", 3020));
  g_env.cuMemcpyBatchAsync = reinterpret_cast<PFN_cuMemcpyBatchAsync_v13000>(raw_entry("cuMemcpyBatchAsync", 13000));
  if (!g_env.cuMemcpyDtoDAsync || !g_env.cuMemcpyHtoDAsync) {
    *why = "the driver lacks cuMemcpyDtoDAsync or cuMemcpyHtoDAsync";
    return false;
  }
  dc_device_info info = DC_DEVICE_INFO_INIT;
  dc_device_get_info(g_env.device, &info);
  g_env.name = info.name;
  if (dc_module_compile_and_load(g_env.device, "extern \"C\" __global__ void empty() {}", "bench_batch.cu", nullptr,
                                 &g_env.module) != DC_SUCCESS)
    return failed("dc_module_compile_and_load");
  if (dc_module_get_function(g_env.module, "empty", &g_env.empty) != DC_SUCCESS) return failed("dc_module_get_function");
  dc_function_native(g_env.empty, &native);
  g_env.raw_empty = static_cast<CUfunction>(native);
  if (dc_stream_create(g_env.device, 0, 0, &g_env.stream) != DC_SUCCESS) return failed("dc_stream_create");
  dc_stream_native(g_env.stream, &native);
  g_env.raw_stream = static_cast<CUstream>(native);
  const uint64_t room = kCopyBytes * kOpsPerBurst;
  if (dc_buffer_alloc(g_env.device, room, 0, &g_env.dst) != DC_SUCCESS ||
      dc_buffer_alloc(g_env.device, room, 0, &g_env.src) != DC_SUCCESS)
    return failed("dc_buffer_alloc");
  if (dc_buffer_alloc_pinned(g_env.device, room, 0, &g_env.pinned) != DC_SUCCESS) return failed("dc_buffer_alloc_pinned");
  uint64_t address = 0;
  dc_buffer_device_pointer(g_env.dst, &address);
  g_env.raw_dst = address;
  dc_buffer_device_pointer(g_env.src, &address);
  g_env.raw_src = address;
  dc_buffer_host_pointer(g_env.pinned, &g_env.pinned_host);
  return true;
}

void teardown() {
  dc_buffer_release(g_env.dst);
  dc_buffer_release(g_env.src);
  dc_buffer_release(g_env.pinned);
  dc_stream_release(g_env.stream);
  dc_function_release(g_env.empty);
  dc_module_release(g_env.module);
  dc_device_release(g_env.device);
}

void bind() { g_env.raw->cuCtxSetCurrent(g_env.context); }

bool sync(benchmark::State& state) {
  return raw_ok(state, g_env.raw->cuStreamSynchronize(g_env.raw_stream), "cuStreamSynchronize");
}

void report(benchmark::State& state, const bench::PairedSamples& samples, double units) {
  if (samples.size() == 0 || units <= 0) return;
  double dc_ns = samples.dc().median() / units * 1e9, raw_ns = samples.raw().median() / units * 1e9;
  state.counters["dc_ns"] = dc_ns;
  state.counters["raw_ns"] = raw_ns;
  state.counters["ratio"] = raw_ns > 0 ? dc_ns / raw_ns : 0;
  state.counters["overhead_ns"] = dc_ns - raw_ns;
  state.counters["samples"] = static_cast<double>(samples.size());
}

// Bursts of kOpsPerBurst operations a side: `dc` and `raw` each do N
// operations per call (N = range(0)), called 128 / N times per burst.
template <class Dc, class Raw>
void bursts(benchmark::State& state, Dc&& dc, Raw&& raw) {
  bind();
  const int64_t n = state.range(0);
  const int64_t calls = kOpsPerBurst / n;
  if (!dc() || !raw() || !sync(state)) return;  // warm: first-use costs
  auto dc_burst = [&] {
    for (int64_t i = 0; i < calls; ++i)
      if (!dc()) return false;
    return true;
  };
  auto raw_burst = [&] {
    for (int64_t i = 0; i < calls; ++i)
      if (!raw()) return false;
    return true;
  };
  bench::PairedSamples samples(bench::expected_samples(state));
  for (auto _ : state) {
    if (!samples.time_pair(dc_burst, raw_burst, [&] { return sync(state); })) return;
    state.SetIterationTime(samples.last_pair_seconds());
  }
  report(state, samples, static_cast<double>(calls * n));
}

// -- Launches -----------------------------------------------------------------

struct Launches {
  std::vector<dc_launch> handles;
  explicit Launches(benchmark::State& state, int64_t n) {
    dc_launch_config c = DC_LAUNCH_CONFIG_INIT;
    c.block[0] = 32;
    dc_launch l = nullptr;
    if (!dc_ok(state, dc_launch_create(g_env.empty, &c, &l))) return;
    // The same prepared launch N times (a batch pins each entry).
    handles.assign(static_cast<size_t>(n), l);
  }
  ~Launches() {
    if (!handles.empty()) dc_launch_release(handles[0]);
  }
  bool raw(benchmark::State& state) const {
    for (size_t i = 0; i < handles.size(); ++i)
      if (!raw_ok(state, g_env.raw->cuLaunchKernel(g_env.raw_empty, 1, 1, 1, 32, 1, 1, 0, g_env.raw_stream, nullptr,
                                                   nullptr),
                  "cuLaunchKernel"))
        return false;
    return true;
  }
};

void BM_LaunchBatch(benchmark::State& state) {
  Launches l(state, state.range(0));
  if (l.handles.empty()) return;
  const uint32_t n = static_cast<uint32_t>(l.handles.size());
  bursts(
      state, [&] { return dc_ok(state, dc_launch_enqueue_batch(l.handles.data(), n, g_env.stream)); },
      [&] { return l.raw(state); });
}

void BM_LaunchSingles(benchmark::State& state) {
  Launches l(state, state.range(0));
  if (l.handles.empty()) return;
  bursts(
      state,
      [&] {
        for (dc_launch h : l.handles)
          if (!dc_ok(state, dc_launch_enqueue(h, g_env.stream))) return false;
        return true;
      },
      [&] { return l.raw(state); });
}

// -- Copies -------------------------------------------------------------------

// N copies of kCopyBytes, copy i at offset i * kCopyBytes on both sides.
struct Copies {
  std::vector<dc_copy_op> ops;
  std::vector<CUdeviceptr> raw_dst, raw_src;
  std::vector<size_t> sizes;
  dc_buffer from;
  bool pinned;
  Copies(int64_t n, bool from_pinned) : from(from_pinned ? g_env.pinned : g_env.src), pinned(from_pinned) {
    for (int64_t i = 0; i < n; ++i) {
      uint64_t at = static_cast<uint64_t>(i) * kCopyBytes;
      ops.push_back({DC_COPY_BUFFER_TO_BUFFER, 0, g_env.dst, at, from, at, nullptr, kCopyBytes});
      raw_dst.push_back(g_env.raw_dst + at);
      raw_src.push_back(from_pinned ? reinterpret_cast<CUdeviceptr>(static_cast<char*>(g_env.pinned_host) + at)
                                    : g_env.raw_src + at);
      sizes.push_back(kCopyBytes);
    }
  }
  bool raw(benchmark::State& state) const {
    for (size_t i = 0; i < ops.size(); ++i) {
      CUresult r = pinned ? g_env.cuMemcpyHtoDAsync(raw_dst[i], reinterpret_cast<const void*>(raw_src[i]), kCopyBytes,
                                                    g_env.raw_stream)
                          : g_env.cuMemcpyDtoDAsync(raw_dst[i], raw_src[i], kCopyBytes, g_env.raw_stream);
      if (!raw_ok(state, r, pinned ? "cuMemcpyHtoDAsync" : "cuMemcpyDtoDAsync")) return false;
    }
    return true;
  }
  bool batch(benchmark::State& state) const {
    return dc_ok(state, dc_buffer_copy_batch_async(ops.data(), static_cast<uint32_t>(ops.size()), g_env.stream));
  }
  bool singles(benchmark::State& state) const {
    for (const dc_copy_op& op : ops)
      if (!dc_ok(state, dc_buffer_copy_async(op.dst, op.dst_offset, op.src, op.src_offset, op.size, g_env.stream)))
        return false;
    return true;
  }
};

void BM_CopyBatchD2D(benchmark::State& state) {
  Copies c(state.range(0), false);
  bursts(state, [&] { return c.batch(state); }, [&] { return c.raw(state); });
}
void BM_CopySinglesD2D(benchmark::State& state) {
  Copies c(state.range(0), false);
  bursts(state, [&] { return c.singles(state); }, [&] { return c.raw(state); });
}
void BM_CopyBatchH2D(benchmark::State& state) {
  Copies c(state.range(0), true);
  bursts(state, [&] { return c.batch(state); }, [&] { return c.raw(state); });
}
void BM_CopySinglesH2D(benchmark::State& state) {
  Copies c(state.range(0), true);
  bursts(state, [&] { return c.singles(state); }, [&] { return c.raw(state); });
}

// The driver's own batch, without dccuda: the floor under BM_CopyBatchD2D
// (registered by main only where the driver has cuMemcpyBatchAsync).
void BM_RawCopyBatchD2D(benchmark::State& state) {
  Copies c(state.range(0), false);
  CUmemcpyAttributes attributes{};
  attributes.srcAccessOrder = CU_MEMCPY_SRC_ACCESS_ORDER_STREAM;
  size_t first = 0;
  bursts(
      state,
      [&] {
        return raw_ok(state,
                      g_env.cuMemcpyBatchAsync(c.raw_dst.data(), c.raw_src.data(), c.sizes.data(), c.sizes.size(),
                                               &attributes, &first, 1, g_env.raw_stream),
                      "cuMemcpyBatchAsync");
      },
      [&] { return c.raw(state); });
}

void batch_sizes(benchmark::internal::Benchmark* b) {
  for (int64_t n : {1, 8, 32, 128}) b->Arg(n);
  b->ArgNames({"n"})->UseManualTime()->Unit(benchmark::kMicrosecond);
}

BENCHMARK(BM_LaunchBatch)->Apply(batch_sizes);
BENCHMARK(BM_LaunchSingles)->Apply(batch_sizes);
BENCHMARK(BM_CopyBatchD2D)->Apply(batch_sizes);
BENCHMARK(BM_CopySinglesD2D)->Apply(batch_sizes);
BENCHMARK(BM_CopyBatchH2D)->Apply(batch_sizes);
BENCHMARK(BM_CopySinglesH2D)->Apply(batch_sizes);

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  std::string why;
  if (!setup(&why)) {
    std::printf("bench_batch: %s: skipping\n", why.c_str());
    teardown();
    return 0;
  }
  if (g_env.cuMemcpyBatchAsync)
    benchmark::RegisterBenchmark("BM_RawCopyBatchD2D", BM_RawCopyBatchD2D)->Apply(batch_sizes);
  else
    std::printf("bench_batch: the driver lacks cuMemcpyBatchAsync (CUDA 13.0): no BM_RawCopyBatchD2D rows\n");
  announce_and_run("bench_batch", g_env.name);
  teardown();
  return 0;
}
