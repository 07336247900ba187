// Probe (GPU machine only): where a prepared launch's overhead goes. Times
// bursts of launches of an empty kernel, raw and with the pieces dccuda's
// dc_launch_enqueue adds to cuLaunchKernel done by hand around the raw call:
// atomic read-modify-writes (dccuda's handle pins and launch guard: six, three
// of them after the driver call) and cuCtxGetCurrent, and dc_launch_enqueue
// itself. Variants take turns burst by burst; each figure is the median over
// bursts of the time per launch. Compare a variant's cost here with what the
// same pieces cost timed alone (costs.cpp).
// Build: g++ -O2 -std=c++17 launch_pieces.cpp -I<repo>/include -I<cuda>/include
//        -L<cuda>/lib64/stubs -L<build> -ldccuda -lcuda
#include <cuda.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <functional>
#include <vector>

#include "dccuda.h"

namespace {

const char kPtx[] =
    ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry empty()\n{\n ret;\n}\n";

// Six counters on separate cache lines, as the pins of two objects and a guard are.
struct alignas(64) Counter {
  std::atomic<unsigned long> value{0};
};
Counter g_counters[6];

void rmw(int first, int count) {
  for (int i = first; i < first + count; ++i) g_counters[i].value.fetch_add(1, std::memory_order_acq_rel);
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main() {
  dc_device dev = nullptr;
  dc_module module = nullptr;
  dc_function function = nullptr;
  dc_stream stream = nullptr;
  dc_launch launch = nullptr;
  dc_launch_config config = DC_LAUNCH_CONFIG_INIT;
  config.block[0] = 32;
  if (dc_device_open(0, &dev) != DC_SUCCESS || dc_module_load(dev, kPtx, sizeof kPtx, nullptr, &module) != DC_SUCCESS ||
      dc_module_get_function(module, "empty", &function) != DC_SUCCESS ||
      dc_stream_create(dev, 0, 0, &stream) != DC_SUCCESS || dc_launch_create(function, &config, &launch) != DC_SUCCESS) {
    std::printf("setup: %s\n", dc_last_error_message());
    return 1;
  }
  void *ctx = nullptr, *native = nullptr;
  dc_device_native(dev, nullptr, &ctx);
  cuCtxSetCurrent(static_cast<CUcontext>(ctx));
  dc_function_native(function, &native);
  CUfunction f = static_cast<CUfunction>(native);
  dc_stream_native(stream, &native);
  CUstream s = static_cast<CUstream>(native);
  auto raw = [&] { cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, s, nullptr, nullptr); };
  CUcontext current = nullptr;

  struct Variant {
    const char* name;
    std::function<void()> launch;
    std::vector<double> samples;
  };
  std::vector<Variant> variants = {
      {"raw cuLaunchKernel", [&] { raw(); }, {}},
      {"raw + 3 atomic RMW after", [&] { raw(); rmw(3, 3); }, {}},
      {"3 atomic RMW before + raw", [&] { rmw(0, 3); raw(); }, {}},
      {"cuCtxGetCurrent + raw", [&] { cuCtxGetCurrent(&current); raw(); }, {}},
      {"3 RMW + cuCtxGetCurrent + raw + 3 RMW", [&] { rmw(0, 3); cuCtxGetCurrent(&current); raw(); rmw(3, 3); }, {}},
      {"dc_launch_enqueue", [&] { dc_launch_enqueue(launch, stream); }, {}},
  };
  const int kBurst = 32, kRounds = 1500;
  for (Variant& v : variants) v.launch();  // warm
  cuStreamSynchronize(s);
  for (int round = 0; round < kRounds; ++round) {
    for (size_t k = 0; k < variants.size(); ++k) {
      Variant& v = variants[(k + round) % variants.size()];  // the order rotates
      auto t0 = std::chrono::steady_clock::now();
      for (int i = 0; i < kBurst; ++i) v.launch();
      auto t1 = std::chrono::steady_clock::now();
      v.samples.push_back(std::chrono::duration<double, std::nano>(t1 - t0).count() / kBurst);
      cuStreamSynchronize(s);
    }
  }
  double base = median(variants[0].samples);
  for (Variant& v : variants) {
    double m = median(v.samples);
    std::printf("%-40s %7.1f ns per launch  %+6.1f ns\n", v.name, m, m - base);
  }
  dc_launch_release(launch);
  dc_stream_release(stream);
  dc_function_release(function);
  dc_module_release(module);
  dc_device_release(dev);
  return 0;
}
