// Probe (GPU machine only): what dc_graph_launch adds to cuGraphLaunch, and
// whether the driver needs a current context for a graph launch.
//
// 1. Context: launches an executable graph (one kernel writing a value) with
//    cuGraphLaunch from a thread with no current context and from one with
//    another context current, and reports the driver's answer and whether the
//    value arrived; the same for cuLaunchKernel. Then dc_graph_launch of each
//    library given, in the same situations, and the context current after it.
// 2. Cost: graphs of 1, 10 and 100 empty kernels launched in bursts of 16,
//    variants taking turns burst by burst in a new random order each round
//    (so drift, and what the burst before leaves behind, falls on all
//    alike): raw
//    cuGraphLaunch, raw through the pointer cuGetProcAddress_v2 gives (as
//    dccuda calls it), raw on a second stream with a second executable graph
//    (the spread between two raw sides: what a difference below it means),
//    raw on the first library's stream, raw with cuCtxGetCurrent before it,
//    raw with the pins' and the latch's atomics around it, and
//    dc_graph_launch of each library (builds of libdccuda loaded side by side
//    with dlopen). Median per launch, and its difference to raw; the whole
//    table is printed `passes` times (the second argument form below).
// Build: g++ -O2 -std=c++20 graph_launch_ab.cpp -I<repo>/include -I<cuda>/include
//        -L<cuda>/lib64/stubs -lcuda -ldl -lpthread
// Run:   graph_launch_ab [--passes N] <libdccuda A> [<libdccuda B> ...]
#include <cuda.h>
#include <dlfcn.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <functional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "dccuda.h"

namespace {

const char kPtx[] =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry empty()\n{\n ret;\n}\n"
    ".visible .entry set(.param .u64 p, .param .u32 v)\n{\n .reg .b64 %rd<2>;\n .reg .b32 %r<2>;\n"
    " ld.param.u64 %rd1, [p];\n ld.param.u32 %r1, [v];\n st.global.u32 [%rd1], %r1;\n ret;\n}\n";

#define CHECK(call)                                                          \
  do {                                                                       \
    CUresult r_ = (call);                                                    \
    if (r_ != CUDA_SUCCESS) {                                                \
      const char* n_ = nullptr;                                              \
      cuGetErrorName(r_, &n_);                                               \
      std::printf("%s:%d %s: %s\n", __FILE__, __LINE__, #call, n_ ? n_ : "?"); \
      std::exit(1);                                                          \
    }                                                                        \
  } while (0)

const char* name(CUresult r) {
  const char* n = nullptr;
  cuGetErrorName(r, &n);
  return n ? n : "?";
}

struct alignas(64) Counter {
  std::atomic<unsigned long> value{0};
};
Counter g_counters[4];
alignas(64) std::atomic<bool> g_latch{false};

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// The dccuda functions the probe calls, resolved in each library.
#define PROBE_FUNCTIONS(X)                                                                       \
  X(dc_device_open) X(dc_device_native) X(dc_module_load) X(dc_module_get_function)               \
  X(dc_stream_create) X(dc_stream_native) X(dc_stream_synchronize) X(dc_stream_begin_capture)     \
  X(dc_stream_end_capture) X(dc_launch_kernel) X(dc_graph_instantiate) X(dc_graph_launch)         \
  X(dc_last_error_message)

// One libdccuda build, loaded on its own.
struct Lib {
  std::string path;
  void* so = nullptr;
#define FN(n) decltype(&::n) n = nullptr;
  PROBE_FUNCTIONS(FN)
#undef FN
  dc_device dev = nullptr;
  dc_module module = nullptr;
  dc_function empty = nullptr, set = nullptr;
  dc_stream stream = nullptr;

  bool load() {
    so = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!so) {
      std::printf("dlopen %s: %s\n", path.c_str(), dlerror());
      return false;
    }
#define FN(n)                                           \
  n = reinterpret_cast<decltype(n)>(dlsym(so, #n)); \
  if (!n) return false;
    PROBE_FUNCTIONS(FN)
#undef FN
    if (dc_device_open(0, &dev) || dc_module_load(dev, kPtx, sizeof kPtx, nullptr, &module) ||
        dc_module_get_function(module, "empty", &empty) || dc_module_get_function(module, "set", &set) ||
        dc_stream_create(dev, 0, 0, &stream)) {
      std::printf("%s setup: %s\n", path.c_str(), dc_last_error_message());
      return false;
    }
    return true;
  }
  dc_graph graph_of(int kernels) {
    dc_launch_config c = DC_LAUNCH_CONFIG_INIT;
    c.block[0] = 32;
    dc_graph g = nullptr;
    if (dc_stream_begin_capture(stream, DC_CAPTURE_THREAD_LOCAL)) return nullptr;
    for (int i = 0; i < kernels; ++i) dc_launch_kernel(empty, &c, nullptr, 0, stream);
    if (dc_stream_end_capture(stream, &g) || dc_graph_instantiate(g)) {
      std::printf("%s graph: %s\n", path.c_str(), dc_last_error_message());
      return nullptr;
    }
    return g;
  }
  dc_graph set_graph(CUdeviceptr p, uint32_t v) {
    dc_launch_config c = DC_LAUNCH_CONFIG_INIT;
    dc_arg args[2] = {{DC_ARG_VALUE, sizeof p, &p, nullptr, 0}, {DC_ARG_VALUE, sizeof v, &v, nullptr, 0}};
    dc_graph g = nullptr;
    if (dc_stream_begin_capture(stream, DC_CAPTURE_THREAD_LOCAL) || dc_launch_kernel(set, &c, args, 2, stream) ||
        dc_stream_end_capture(stream, &g) || dc_graph_instantiate(g)) {
      std::printf("%s set graph: %s\n", path.c_str(), dc_last_error_message());
      return nullptr;
    }
    return g;
  }
};

// Runs `body` on a fresh thread with `ctx` current (nullptr: none).
void on_thread(CUcontext ctx, const std::function<void()>& body) {
  std::thread t([&] {
    if (ctx) CHECK(cuCtxSetCurrent(ctx));
    body();
  });
  t.join();
}

}  // namespace

int main(int argc, char** argv) {
  CHECK(cuInit(0));
  CUdevice dev;
  CHECK(cuDeviceGet(&dev, 0));
  CUcontext primary = nullptr, foreign = nullptr;
  CHECK(cuDevicePrimaryCtxRetain(&primary, dev));
  CHECK(cuCtxSetCurrent(primary));
  CUmodule mod;
  CUfunction empty, set;
  CHECK(cuModuleLoadData(&mod, kPtx));
  CHECK(cuModuleGetFunction(&empty, mod, "empty"));
  CHECK(cuModuleGetFunction(&set, mod, "set"));
  CUstream stream;
  CHECK(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
  CUdeviceptr cell;
  CHECK(cuMemAlloc(&cell, 4));
  uint32_t value = 0;
  void* params[2] = {&cell, &value};
  auto set_exec = [&](uint32_t v) {
    value = v;
    CUgraph g;
    CUgraphExec e;
    CHECK(cuStreamBeginCapture(stream, CU_STREAM_CAPTURE_MODE_THREAD_LOCAL));
    CHECK(cuLaunchKernel(set, 1, 1, 1, 1, 1, 1, 0, stream, params, nullptr));
    CHECK(cuStreamEndCapture(stream, &g));
    CHECK(cuGraphInstantiate(&e, g, 0));
    return e;
  };
  auto read_cell = [&] {
    uint32_t v = 0;
    CUcontext saved = nullptr;
    cuCtxGetCurrent(&saved);
    cuCtxSetCurrent(primary);
    cuStreamSynchronize(stream);
    cuMemcpyDtoH(&v, cell, 4);
    cuCtxSetCurrent(saved);
    return v;
  };
  CUctxCreateParams create_params = {};
  CHECK(cuCtxCreate(&foreign, &create_params, 0, dev));  // now current: put the primary back
  CHECK(cuCtxSetCurrent(primary));

  std::printf("== context: raw driver\n");
  CUgraphExec e1 = set_exec(11), e2 = set_exec(12);
  on_thread(nullptr, [&] {
    CUresult r = cuGraphLaunch(e1, stream);
    std::printf("cuGraphLaunch, no current context:        %s, value %u (expect 11)\n", name(r), read_cell());
  });
  on_thread(foreign, [&] {
    CUresult r = cuGraphLaunch(e2, stream);
    std::printf("cuGraphLaunch, another context current:   %s, value %u (expect 12)\n", name(r), read_cell());
  });
  on_thread(nullptr, [&] {
    value = 13;
    CUresult r = cuLaunchKernel(set, 1, 1, 1, 1, 1, 1, 0, stream, params, nullptr);
    std::printf("cuLaunchKernel, no current context:       %s, value %u (expect 13)\n", name(r), read_cell());
  });
  on_thread(foreign, [&] {
    value = 14;
    CUresult r = cuLaunchKernel(set, 1, 1, 1, 1, 1, 1, 0, stream, params, nullptr);
    std::printf("cuLaunchKernel, another context current:  %s, value %u (expect 14)\n", name(r), read_cell());
  });

  int passes = 1;
  std::vector<Lib> libs;
  for (int i = 1; i < argc; ++i) {
    if (std::string(argv[i]) == "--passes" && i + 1 < argc) {
      passes = std::atoi(argv[++i]);
      continue;
    }
    libs.push_back(Lib{argv[i]});
  }
  // The entry point as dccuda resolves it (cuGetProcAddress_v2 at 10000).
  CUresult (*resolved)(CUgraphExec, CUstream) = nullptr;
  CUdriverProcAddressQueryResult found{};
  CHECK(cuGetProcAddress("cuGraphLaunch", reinterpret_cast<void**>(&resolved), 10000, CU_GET_PROC_ADDRESS_DEFAULT,
                         &found));
  std::printf("cuGraphLaunch: exported %p, cuGetProcAddress_v2 at 10000 %p (%s)\n",
              reinterpret_cast<void*>(&cuGraphLaunch), reinterpret_cast<void*>(resolved),
              reinterpret_cast<void*>(&cuGraphLaunch) == reinterpret_cast<void*>(resolved) ? "the same" : "differ");
  CUstream other_stream;
  CHECK(cuStreamCreate(&other_stream, CU_STREAM_NON_BLOCKING));
  for (Lib& l : libs)
    if (!l.load()) return 1;

  std::printf("== context: dc_graph_launch\n");
  for (Lib& l : libs) {
    uint32_t v = 100;
    for (int situation = 0; situation < 3; ++situation) {
      dc_graph g = l.set_graph(cell, ++v);
      CUcontext before = situation == 1 ? foreign : nullptr;
      on_thread(before, [&] {
        if (situation == 2) {
          // The library binds its context first; then the caller unbinds it
          // with the driver behind the library's back.
          dc_graph warm = l.set_graph(cell, 0);
          l.dc_graph_launch(warm, l.stream);
          cuCtxSetCurrent(nullptr);
        }
        dc_status s = l.dc_graph_launch(g, l.stream);
        CUcontext after = nullptr;
        cuCtxGetCurrent(&after);
        l.dc_stream_synchronize(l.stream);
        const char* what[] = {"no context", "another context", "none, changed behind the library"};
        std::printf("%s: %-34s status %d, value %u (expect %u), current after: %s\n", l.path.c_str(), what[situation],
                    s, read_cell(), v,
                    after == primary ? "primary" : after == foreign ? "the other context" : after ? "?" : "none");
      });
    }
  }
  CHECK(cuCtxSetCurrent(primary));

  void* first_lib_stream = nullptr;
  if (!libs.empty()) libs[0].dc_stream_native(libs[0].stream, &first_lib_stream);
  for (int pass = 1; pass <= passes; ++pass) {
  std::printf("== cost, pass %d of %d: bursts of 16 launches, median per graph launch\n", pass, passes);
  for (int kernels : {1, 10, 100}) {
    CUgraph g;
    CUgraphExec raw_exec, other_exec;
    CHECK(cuStreamBeginCapture(stream, CU_STREAM_CAPTURE_MODE_THREAD_LOCAL));
    for (int i = 0; i < kernels; ++i) CHECK(cuLaunchKernel(empty, 1, 1, 1, 32, 1, 1, 0, stream, nullptr, nullptr));
    CHECK(cuStreamEndCapture(stream, &g));
    CHECK(cuGraphInstantiate(&raw_exec, g, 0));
    CHECK(cuGraphInstantiate(&other_exec, g, 0));
    CUcontext current = nullptr;
    auto raw = [&] { cuGraphLaunch(raw_exec, stream); };
    CUstream lib_stream = static_cast<CUstream>(first_lib_stream);
    struct Variant {
      std::string name;
      std::function<void()> launch;
      std::function<void()> sync;
      std::vector<double> samples;
    };
    auto raw_sync = [&] { cuStreamSynchronize(stream); };
    std::vector<Variant> variants = {
        {"raw cuGraphLaunch", raw, raw_sync, {}},
        {"raw via cuGetProcAddress", [&] { resolved(raw_exec, stream); }, raw_sync, {}},
        {"raw, other exec + stream", [&] { cuGraphLaunch(other_exec, other_stream); },
         [&] { cuStreamSynchronize(other_stream); }, {}},
        {"cuCtxGetCurrent + raw", [&] { cuCtxGetCurrent(&current); raw(); }, raw_sync, {}},
        {"2 RMW + latch + raw + 2 RMW",
         [&] {
           g_counters[0].value.fetch_add(1, std::memory_order_acq_rel);
           g_counters[1].value.fetch_add(1, std::memory_order_acq_rel);
           while (g_latch.exchange(true, std::memory_order_acquire)) {
           }
           raw();
           g_latch.store(false, std::memory_order_release);
           g_counters[0].value.fetch_sub(1, std::memory_order_acq_rel);
           g_counters[1].value.fetch_sub(1, std::memory_order_acq_rel);
         },
         raw_sync,
         {}},
    };
    if (lib_stream)
      variants.push_back({"raw on library 1's stream", [&] { cuGraphLaunch(raw_exec, lib_stream); },
                          [&] { cuStreamSynchronize(lib_stream); }, {}});
    for (Lib& l : libs) {
      dc_graph dg = l.graph_of(kernels);
      if (!dg) return 1;
      Lib* lp = &l;
      variants.push_back({"dc_graph_launch " + l.path, [lp, dg] { lp->dc_graph_launch(dg, lp->stream); },
                          [lp] { lp->dc_stream_synchronize(lp->stream); }, {}});
    }
    const int kBurst = 16, kRounds = 3000;
    for (Variant& v : variants) {
      v.launch();
      v.sync();
    }
    // A new random order every round: a variant that always came after the
    // same other one inherits that one's stream and executable graph state
    // (a burst right after a burst on the same stream and graph ran up to
    // 20 ns faster per launch on an H100), so a fixed or merely rotated order
    // biases the comparison.
    std::mt19937 order_rng(12345u + static_cast<unsigned>(kernels));
    std::vector<size_t> order(variants.size());
    for (size_t k = 0; k < order.size(); ++k) order[k] = k;
    for (int round = 0; round < kRounds; ++round) {
      std::shuffle(order.begin(), order.end(), order_rng);
      for (size_t k = 0; k < variants.size(); ++k) {
        Variant& v = variants[order[k]];
        auto t0 = std::chrono::steady_clock::now();
        for (int i = 0; i < kBurst; ++i) v.launch();
        auto t1 = std::chrono::steady_clock::now();
        v.samples.push_back(std::chrono::duration<double, std::nano>(t1 - t0).count() / kBurst);
        v.sync();
      }
    }
    double base = median(variants[0].samples);
    std::printf("-- %d kernel(s) per graph\n", kernels);
    for (Variant& v : variants) {
      double m = median(v.samples);
      std::printf("%-44s %8.1f ns  %+7.1f ns  %.4fx\n", v.name.c_str(), m, m - base, m / base);
    }
    cuGraphExecDestroy(raw_exec);
    cuGraphExecDestroy(other_exec);
    cuGraphDestroy(g);
  }
  }
  return 0;
}
