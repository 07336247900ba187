// bench_peer: copies between two devices, dc_buffer_copy against the raw
// cuMemcpyPeer (followed by a synchronisation of the legacy stream, as
// dc_buffer_copy returns when the copy is complete), for every ordered pair of
// devices, without and with peer access enabled. Reports GB/s of both and
// their ratio. Needs two devices; otherwise it says so and exits 0.
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "dccuda.h"
#include "raw_driver.h"

namespace {

using Clock = std::chrono::steady_clock;

constexpr uint64_t kBytes = uint64_t(256) << 20;

struct Env {
  std::vector<dc_device> devices;
  std::vector<CUcontext> contexts;
  std::vector<dc_buffer> buffers;  // one kBytes buffer per device
  const bench::RawDriver* raw = nullptr;
};
Env g_env;

bool setup(std::string* why) {
  int32_t count = 0;
  if (dc_device_count(&count) != DC_SUCCESS) {
    *why = dc_last_error_message();
    return false;
  }
  if (count < 2) {
    *why = "copies between devices need two devices; the driver reports " + std::to_string(count);
    return false;
  }
  g_env.raw = bench::raw_driver(why);
  if (!g_env.raw) return false;
  for (int32_t i = 0; i < count; ++i) {
    dc_device d = nullptr;
    dc_buffer b = nullptr;
    void* ctx = nullptr;
    if (dc_device_open(i, &d) != DC_SUCCESS || dc_buffer_alloc(d, kBytes, 0, &b) != DC_SUCCESS ||
        dc_buffer_fill(b, 0, kBytes, 0x3f800000u + static_cast<uint32_t>(i), 4) != DC_SUCCESS) {
      *why = dc_last_error_message();
      return false;
    }
    dc_device_native(d, nullptr, &ctx);
    g_env.devices.push_back(d);
    g_env.contexts.push_back(static_cast<CUcontext>(ctx));
    g_env.buffers.push_back(b);
  }
  return true;
}

void set_peer(int a, int b, bool on) {
  auto f = on ? dc_device_enable_peer_access : dc_device_disable_peer_access;
  f(g_env.devices[a], g_env.devices[b]);
  f(g_env.devices[b], g_env.devices[a]);
}

// args: source ordinal, destination ordinal, peer access on (1) or off (0).
void BM_PeerCopy(benchmark::State& state) {
  int src = static_cast<int>(state.range(0)), dst = static_cast<int>(state.range(1));
  bool peer = state.range(2) != 0;
  if (src >= static_cast<int>(g_env.devices.size()) || dst >= static_cast<int>(g_env.devices.size())) {
    state.SkipWithError("no such device");
    return;
  }
  int32_t can = 0;
  dc_device_can_access_peer(g_env.devices[dst], g_env.devices[src], &can);
  if (peer && !can) {
    state.SkipWithError("no peer-to-peer path between these devices");
    return;
  }
  set_peer(src, dst, peer);
  dc_buffer s = g_env.buffers[static_cast<size_t>(src)], d = g_env.buffers[static_cast<size_t>(dst)];
  int32_t path = 0;
  dc_buffer_copy_path(d, s, &path);
  double dc_seconds = 0;
  for (auto _ : state) {
    auto t0 = Clock::now();
    if (dc_buffer_copy(d, 0, s, 0, kBytes) != DC_SUCCESS) {
      state.SkipWithError(dc_last_error_message());
      break;
    }
    dc_seconds += std::chrono::duration<double>(Clock::now() - t0).count();
  }
  uint64_t sp = 0, dp = 0;
  dc_buffer_device_pointer(s, &sp);
  dc_buffer_device_pointer(d, &dp);
  const bench::RawDriver& raw = *g_env.raw;
  raw.cuCtxSetCurrent(g_env.contexts[static_cast<size_t>(dst)]);
  double raw_seconds = 0;
  for (int64_t i = 0; i < state.iterations(); ++i) {
    auto t0 = Clock::now();
    CUresult r = raw.cuMemcpyPeer(dp, g_env.contexts[static_cast<size_t>(dst)], sp,
                                  g_env.contexts[static_cast<size_t>(src)], kBytes);
    if (r == CUDA_SUCCESS) r = raw.cuStreamSynchronize(CU_STREAM_LEGACY);
    if (r != CUDA_SUCCESS) {
      state.SkipWithError("cuMemcpyPeer failed");
      break;
    }
    raw_seconds += std::chrono::duration<double>(Clock::now() - t0).count();
  }
  set_peer(src, dst, false);
  double n = static_cast<double>(state.iterations());
  state.counters["dc_GB/s"] = kBytes * n / dc_seconds / 1e9;
  state.counters["raw_GB/s"] = kBytes * n / raw_seconds / 1e9;
  state.counters["ratio"] = raw_seconds / dc_seconds;
  state.counters["path_peer"] = path == DC_COPY_PATH_PEER ? 1 : 0;
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  std::string why;
  if (!setup(&why)) {
    std::printf("bench_peer: skipping: %s\n", why.c_str());
    return 0;
  }
  int n = static_cast<int>(g_env.devices.size());
  for (int src = 0; src < n; ++src)
    for (int dst = 0; dst < n; ++dst)
      if (src != dst)
        for (int peer = 0; peer <= 1; ++peer)
          benchmark::RegisterBenchmark("BM_PeerCopy", BM_PeerCopy)->Args({src, dst, peer})->Iterations(20);
  benchmark::RunSpecifiedBenchmarks();
  for (size_t i = 0; i < g_env.devices.size(); ++i) {
    dc_buffer_release(g_env.buffers[i]);
    dc_device_release(g_env.devices[i]);
  }
  return 0;
}
