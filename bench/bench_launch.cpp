// bench_launch: the CPU cost of dccuda's launches against raw cuLaunchKernel
// for the same kernel and arguments, and graph replay against raw
// cuGraphLaunch, in the same process and run.
//
// Launches are timed in bursts (range(0) launches) followed by a stream
// synchronisation that is not timed: a long burst fills the launch queue,
// which then throttles the CPU to the GPU's own launch rate (about 4 us per
// launch) and hides the wrapper's cost. After one warm-up call of each side,
// each iteration times one dc_ burst and one raw burst on the steady clock,
// alternating which goes first. Every burst is a sample: (burst time / calls
// per burst / kernels per call). Counters, the medians over those samples:
//   dc_ns, raw_ns   median CPU time per launch (per kernel for graphs)
//   ratio           dc median / raw median (the goal: <= 1.03, or dc_ns - raw_ns <= 50)
//   overhead_ns     dc median - raw median
//   samples         bursts timed per side
// Google Benchmark's own Time column is manual time: the mean over iterations
// of (dc_ burst + raw burst), from the same samples.
//
//   BM_EmptyEnqueue      dc_launch_enqueue (prepared) vs cuLaunchKernel, empty kernel
//   BM_EmptyOneShot      dc_launch_kernel vs cuLaunchKernel, empty kernel
//   BM_FourArgsEnqueue   the same with saxpy(float, float*, float*, int), n = 0
//   BM_FourArgsOneShot   dc_launch_kernel with two buffer arguments (checked, pinned)
//   BM_RoundTrip         one launch + synchronisation, timed whole (bursts of 1)
//   BM_GraphReplay/N     a graph of N empty kernels: dc_graph_launch vs cuGraphLaunch
//   BM_GraphReplayControl/N  the same graph instantiated twice, raw cuGraphLaunch
//                        of one against raw cuGraphLaunch of the other (an A/A
//                        control: its ratio's distance from 1 is what the
//                        method alone shows between two identical calls)
//   BM_GraphNodeUpdate   dc_graph_set_kernel_node vs instantiating the graph again (raw)
//
// Without a usable driver, device or NVRTC it prints why and exits 0.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <string>

#include "announce.h"
#include "checks.h"
#include "dccuda.h"
#include "raw_driver.h"
#include "samples.h"

namespace {

const char* kSource = R"(
extern "C" __global__ void empty() {}
extern "C" __global__ void saxpy(float a, const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
)";

struct Env {
  dc_device device = nullptr;
  CUcontext context = nullptr;
  const bench::RawDriver* raw = nullptr;
  std::string name;
  dc_module module = nullptr;
  dc_function empty = nullptr, saxpy = nullptr;
  CUfunction raw_empty = nullptr, raw_saxpy = nullptr;
  dc_stream stream = nullptr;
  CUstream raw_stream = nullptr;
  dc_buffer x = nullptr, y = nullptr;
  CUdeviceptr raw_x = 0, raw_y = 0;
};

Env g_env;

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
  void* ctx = nullptr;
  dc_device_native(g_env.device, nullptr, &ctx);
  g_env.context = static_cast<CUcontext>(ctx);
  g_env.raw = bench::raw_driver(why);
  if (!g_env.raw) return false;
  dc_device_info info = DC_DEVICE_INFO_INIT;
  dc_device_get_info(g_env.device, &info);
  g_env.name = info.name;
  if (dc_module_compile_and_load(g_env.device, kSource, "bench_launch.cu", nullptr, &g_env.module) != DC_SUCCESS)
    return failed("dc_module_compile_and_load");
  void* native = nullptr;
  if (dc_module_get_function(g_env.module, "empty", &g_env.empty) != DC_SUCCESS ||
      dc_module_get_function(g_env.module, "saxpy", &g_env.saxpy) != DC_SUCCESS)
    return failed("dc_module_get_function");
  dc_function_native(g_env.empty, &native);
  g_env.raw_empty = static_cast<CUfunction>(native);
  dc_function_native(g_env.saxpy, &native);
  g_env.raw_saxpy = static_cast<CUfunction>(native);
  if (dc_stream_create(g_env.device, 0, 0, &g_env.stream) != DC_SUCCESS) return failed("dc_stream_create");
  dc_stream_native(g_env.stream, &native);
  g_env.raw_stream = static_cast<CUstream>(native);
  if (dc_buffer_alloc(g_env.device, 4096, 0, &g_env.x) != DC_SUCCESS ||
      dc_buffer_alloc(g_env.device, 4096, 0, &g_env.y) != DC_SUCCESS)
    return failed("dc_buffer_alloc");
  uint64_t address = 0;
  dc_buffer_device_pointer(g_env.x, &address);
  g_env.raw_x = address;
  dc_buffer_device_pointer(g_env.y, &address);
  g_env.raw_y = address;
  return true;
}

void teardown() {
  dc_buffer_release(g_env.x);
  dc_buffer_release(g_env.y);
  dc_stream_release(g_env.stream);
  dc_function_release(g_env.empty);
  dc_function_release(g_env.saxpy);
  dc_module_release(g_env.module);
  dc_device_release(g_env.device);
}

// The raw calls need the device's context current on the benchmark thread.
void bind() { g_env.raw->cuCtxSetCurrent(g_env.context); }

bool sync(benchmark::State& state) {
  return raw_ok(state, g_env.raw->cuStreamSynchronize(g_env.raw_stream), "cuStreamSynchronize");
}

// `units`: kernels launched by one burst of one side.
void report(benchmark::State& state, const bench::PairedSamples& samples, double units) {
  if (samples.size() == 0 || units <= 0) return;
  double dc_ns = samples.dc().median() / units * 1e9, raw_ns = samples.raw().median() / units * 1e9;
  state.counters["dc_ns"] = dc_ns;
  state.counters["raw_ns"] = raw_ns;
  state.counters["ratio"] = raw_ns > 0 ? dc_ns / raw_ns : 0;
  state.counters["overhead_ns"] = dc_ns - raw_ns;
  state.counters["samples"] = static_cast<double>(samples.size());
}

// `count` calls of `call`, stopping at the first failure.
template <class Call>
bool repeat(int64_t count, Call& call) {
  for (int64_t i = 0; i < count; ++i)
    if (!call()) return false;
  return true;
}

// One burst of `burst` calls of each side per iteration (order alternating),
// each burst timed, the synchronisation after each burst not.
// `per_call` is how many kernels one call launches.
template <class Dc, class Raw>
void bursts(benchmark::State& state, int per_call, Dc&& dc, Raw&& raw) {
  bind();
  const int64_t burst = state.range(0);
  if (!dc() || !raw() || !sync(state)) return;  // warm: first-use costs
  auto dc_burst = [&] { return repeat(burst, dc); };
  auto raw_burst = [&] { return repeat(burst, raw); };
  bench::PairedSamples samples(bench::expected_samples(state));
  for (auto _ : state) {
    if (!samples.time_pair(dc_burst, raw_burst, [&] { return sync(state); })) return;
    state.SetIterationTime(samples.last_pair_seconds());
  }
  report(state, samples, static_cast<double>(burst) * per_call);
}

dc_launch_config one_warp() {
  dc_launch_config c = DC_LAUNCH_CONFIG_INIT;
  c.block[0] = 32;
  return c;
}

// -- Launches -----------------------------------------------------------------

void BM_EmptyEnqueue(benchmark::State& state) {
  dc_launch_config c = one_warp();
  dc_launch l = nullptr;
  if (!dc_ok(state, dc_launch_create(g_env.empty, &c, &l))) return;
  bursts(
      state, 1, [&] { return dc_ok(state, dc_launch_enqueue(l, g_env.stream)); },
      [&] {
        return raw_ok(state, g_env.raw->cuLaunchKernel(g_env.raw_empty, 1, 1, 1, 32, 1, 1, 0, g_env.raw_stream, nullptr,
                                                       nullptr),
                      "cuLaunchKernel");
      });
  dc_launch_release(l);
}

void BM_EmptyOneShot(benchmark::State& state) {
  dc_launch_config c = one_warp();
  bursts(
      state, 1, [&] { return dc_ok(state, dc_launch_kernel(g_env.empty, &c, nullptr, 0, g_env.stream)); },
      [&] {
        return raw_ok(state, g_env.raw->cuLaunchKernel(g_env.raw_empty, 1, 1, 1, 32, 1, 1, 0, g_env.raw_stream, nullptr,
                                                       nullptr),
                      "cuLaunchKernel");
      });
}

// saxpy with n = 0: four arguments, no GPU work.
struct FourArgs {
  float a = 2.0f;
  int n = 0;
  dc_arg args[4];
  void* raw_params[4];
  FourArgs() {
    args[0] = {DC_ARG_VALUE, sizeof a, &a, nullptr, 0};
    args[1] = {DC_ARG_BUFFER, 8, nullptr, g_env.x, 0};
    args[2] = {DC_ARG_BUFFER, 8, nullptr, g_env.y, 0};
    args[3] = {DC_ARG_VALUE, sizeof n, &n, nullptr, 0};
    raw_params[0] = &a;
    raw_params[1] = &g_env.raw_x;
    raw_params[2] = &g_env.raw_y;
    raw_params[3] = &n;
  }
  bool raw(benchmark::State& state) {
    return raw_ok(state, g_env.raw->cuLaunchKernel(g_env.raw_saxpy, 1, 1, 1, 32, 1, 1, 0, g_env.raw_stream, raw_params,
                                                   nullptr),
                  "cuLaunchKernel");
  }
};

void BM_FourArgsEnqueue(benchmark::State& state) {
  FourArgs f;
  dc_launch_config c = one_warp();
  dc_launch l = nullptr;
  if (!dc_ok(state, dc_launch_create(g_env.saxpy, &c, &l))) return;
  if (dc_ok(state, dc_launch_set_args(l, f.args, 4)))
    bursts(
        state, 1, [&] { return dc_ok(state, dc_launch_enqueue(l, g_env.stream)); }, [&] { return f.raw(state); });
  dc_launch_release(l);
}

void BM_FourArgsOneShot(benchmark::State& state) {
  FourArgs f;
  dc_launch_config c = one_warp();
  bursts(
      state, 1, [&] { return dc_ok(state, dc_launch_kernel(g_env.saxpy, &c, f.args, 4, g_env.stream)); },
      [&] { return f.raw(state); });
}

// One launch and a synchronisation, timed whole (the latency a caller sees).
void BM_RoundTrip(benchmark::State& state) {
  dc_launch_config c = one_warp();
  dc_launch l = nullptr;
  if (!dc_ok(state, dc_launch_create(g_env.empty, &c, &l))) return;
  bursts(
      state, 1,
      [&] { return dc_ok(state, dc_launch_enqueue(l, g_env.stream)) && dc_ok(state, dc_stream_synchronize(g_env.stream)); },
      [&] {
        return raw_ok(state, g_env.raw->cuLaunchKernel(g_env.raw_empty, 1, 1, 1, 32, 1, 1, 0, g_env.raw_stream, nullptr,
                                                       nullptr),
                      "cuLaunchKernel") &&
               sync(state);
      });
  dc_launch_release(l);
}

// -- The diagnostics hooks (issue 24) ------------------------------------------
// Not against the raw driver: dccuda against itself in the same run, the
// "dc" side with a no-op launch-trace hook set, the "raw" side with none, so
// ratio = (launch with a hook) / (launch with the hook unset) and
// overhead_ns = what setting a hook costs a launch. The hook is switched at
// the start of each burst on both sides alike. The unset hook is one relaxed
// load in the launch path, which the other launch cases (hook unset) measure
// against cuLaunchKernel.
void no_op_trace(void*, const dc_launch_trace*) {}

void BM_EmptyEnqueueTraceHookSetVsUnset(benchmark::State& state) {
  dc_launch_config c = one_warp();
  dc_launch l = nullptr;
  if (!dc_ok(state, dc_launch_create(g_env.empty, &c, &l))) return;
  bool hooked = false;
  auto enqueue = [&](bool hook) {
    if (hook != hooked) {
      if (!dc_ok(state, dc_set_launch_trace(hook ? &no_op_trace : nullptr, nullptr, nullptr))) return false;
      hooked = hook;
    }
    return dc_ok(state, dc_launch_enqueue(l, g_env.stream));
  };
  bursts(state, 1, [&] { return enqueue(true); }, [&] { return enqueue(false); });
  dc_set_launch_trace(nullptr, nullptr, nullptr);
  dc_launch_release(l);
}

// A profiler range without a profiler attached (NVTX_INJECTION64_PATH unset):
// dc_range_push + dc_range_pop against an empty dc_ call pair
// (dc_last_error_status twice is no call at all, so dc_stream_query twice,
// which the burst's synchronisation leaves idle).
void BM_RangePushPopNoTool(benchmark::State& state) {
  bursts(
      state, 1,
      [&] {
        if (!dc_ok(state, dc_range_push("bench"))) return false;
        dc_range_pop();
        return true;
      },
      [&] {
        return dc_stream_query(g_env.stream) == DC_SUCCESS && dc_stream_query(g_env.stream) == DC_SUCCESS;
      });
}

// -- Graphs -------------------------------------------------------------------

// A graph of `kernels` empty kernels captured through the driver on the raw
// stream, the context bound; nullptr (the benchmark's error set) on failure.
// The caller destroys it.
CUgraph capture_raw_graph(benchmark::State& state, int kernels) {
  bind();
  const bench::RawDriver& raw = *g_env.raw;
  CUgraph graph = nullptr;
  bool ok = raw_ok(state, raw.cuStreamBeginCapture(g_env.raw_stream, CU_STREAM_CAPTURE_MODE_THREAD_LOCAL),
                   "cuStreamBeginCapture");
  for (int i = 0; ok && i < kernels; ++i)
    ok = raw_ok(state, raw.cuLaunchKernel(g_env.raw_empty, 1, 1, 1, 32, 1, 1, 0, g_env.raw_stream, nullptr, nullptr),
                "cuLaunchKernel");
  bool ended = raw_ok(state, raw.cuStreamEndCapture(g_env.raw_stream, &graph), "cuStreamEndCapture");
  if (ended && ok) return graph;
  if (graph) raw.cuGraphDestroy(graph);
  return nullptr;
}

void BM_GraphReplay(benchmark::State& state) {
  const int kernels = static_cast<int>(state.range(1));
  dc_launch_config c = one_warp();
  // dccuda's graph, captured through dccuda.
  dc_graph graph = nullptr;
  if (!dc_ok(state, dc_stream_begin_capture(g_env.stream, DC_CAPTURE_THREAD_LOCAL))) return;
  for (int i = 0; i < kernels; ++i)
    if (!dc_ok(state, dc_launch_kernel(g_env.empty, &c, nullptr, 0, g_env.stream))) break;
  if (!dc_ok(state, dc_stream_end_capture(g_env.stream, &graph))) return;
  if (state.error_occurred()) {
    dc_graph_release(graph);
    return;
  }
  // The raw graph, captured through the driver.
  const bench::RawDriver& raw = *g_env.raw;
  CUgraph raw_graph = capture_raw_graph(state, kernels);
  CUgraphExec raw_exec = nullptr;
  if (raw_graph &&
      raw_ok(state, raw.cuGraphInstantiateWithFlags(&raw_exec, raw_graph, 0), "cuGraphInstantiateWithFlags") &&
      dc_ok(state, dc_graph_instantiate(graph))) {
    bursts(
        state, kernels, [&] { return dc_ok(state, dc_graph_launch(graph, g_env.stream)); },
        [&] { return raw_ok(state, raw.cuGraphLaunch(raw_exec, g_env.raw_stream), "cuGraphLaunch"); });
  }
  if (raw_exec) raw.cuGraphExecDestroy(raw_exec);
  if (raw_graph) raw.cuGraphDestroy(raw_graph);
  dc_graph_release(graph);
}

// The A/A control of BM_GraphReplay: the "dc" side is a second executable
// graph of the same raw capture, launched raw, so both sides are the same
// call. What its ratio shows is the spread of the method itself (two
// executable graphs, the order of the sides), the floor under any
// difference BM_GraphReplay reports.
void BM_GraphReplayControl(benchmark::State& state) {
  const int kernels = static_cast<int>(state.range(1));
  const bench::RawDriver& raw = *g_env.raw;
  CUgraph raw_graph = capture_raw_graph(state, kernels);
  CUgraphExec first = nullptr, second = nullptr;
  if (raw_graph &&
      raw_ok(state, raw.cuGraphInstantiateWithFlags(&first, raw_graph, 0), "cuGraphInstantiateWithFlags") &&
      raw_ok(state, raw.cuGraphInstantiateWithFlags(&second, raw_graph, 0), "cuGraphInstantiateWithFlags")) {
    bursts(
        state, kernels, [&] { return raw_ok(state, raw.cuGraphLaunch(second, g_env.raw_stream), "cuGraphLaunch"); },
        [&] { return raw_ok(state, raw.cuGraphLaunch(first, g_env.raw_stream), "cuGraphLaunch"); });
  }
  if (second) raw.cuGraphExecDestroy(second);
  if (first) raw.cuGraphExecDestroy(first);
  if (raw_graph) raw.cuGraphDestroy(raw_graph);
}

// Changing one kernel node of an instantiated graph in place
// (dc_graph_set_kernel_node: checks + cuGraphKernelNodeSetParams +
// cuGraphExecKernelNodeSetParams) against what it spares: instantiating the
// same one-kernel graph again (raw cuGraphInstantiateWithFlags +
// cuGraphExecDestroy). A ratio far below 1 is the point.
void BM_GraphNodeUpdate(benchmark::State& state) {
  dc_launch_config c = one_warp();
  dc_graph graph = nullptr;
  uint64_t node = 0;
  if (!dc_ok(state, dc_graph_create(g_env.device, &graph))) return;
  if (!dc_ok(state, dc_graph_add_kernel_node(graph, g_env.empty, &c, nullptr, 0, nullptr, 0, &node)) ||
      !dc_ok(state, dc_graph_instantiate(graph))) {
    dc_graph_release(graph);
    return;
  }
  const bench::RawDriver& raw = *g_env.raw;
  CUgraph raw_graph = capture_raw_graph(state, 1);
  if (raw_graph) {
    bursts(
        state, 1, [&] { return dc_ok(state, dc_graph_set_kernel_node(graph, node, &c, nullptr, 0)); },
        [&] {
          CUgraphExec e = nullptr;
          bool r = raw_ok(state, raw.cuGraphInstantiateWithFlags(&e, raw_graph, 0), "cuGraphInstantiateWithFlags");
          if (e) raw.cuGraphExecDestroy(e);
          return r;
        });
  }
  if (raw_graph) raw.cuGraphDestroy(raw_graph);
  dc_graph_release(graph);
}

void launch_bursts(benchmark::internal::Benchmark* b) {
  for (int64_t burst : {32, 128}) b->Arg(burst);
  b->UseManualTime()->Unit(benchmark::kMicrosecond);
}
void round_trips(benchmark::internal::Benchmark* b) {
  b->Arg(1)->UseManualTime()->Unit(benchmark::kMicrosecond);
}
void graph_sizes(benchmark::internal::Benchmark* b) {
  for (int64_t kernels : {1, 10, 100}) b->Args({16, kernels});
  b->ArgNames({"burst", "kernels"})->UseManualTime()->Unit(benchmark::kMicrosecond);
}

BENCHMARK(BM_EmptyEnqueue)->Apply(launch_bursts);
BENCHMARK(BM_EmptyOneShot)->Apply(launch_bursts);
BENCHMARK(BM_FourArgsEnqueue)->Apply(launch_bursts);
BENCHMARK(BM_FourArgsOneShot)->Apply(launch_bursts);
BENCHMARK(BM_RoundTrip)->Apply(round_trips);
BENCHMARK(BM_EmptyEnqueueTraceHookSetVsUnset)->Apply(launch_bursts);
BENCHMARK(BM_RangePushPopNoTool)->Apply(launch_bursts);
BENCHMARK(BM_GraphReplay)->Apply(graph_sizes);
BENCHMARK(BM_GraphReplayControl)->Apply(graph_sizes);
BENCHMARK(BM_GraphNodeUpdate)->Arg(16)->UseManualTime()->Unit(benchmark::kMicrosecond);

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  std::string why;
  if (!setup(&why)) {
    std::printf("bench_launch: %s: skipping\n", why.c_str());
    teardown();
    return 0;
  }
  announce_and_run("bench_launch", g_env.name);
  teardown();
  return 0;
}
