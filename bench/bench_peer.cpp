// bench_peer: copies between two devices, dc_buffer_copy against the raw
// cuMemcpyPeer (followed by a synchronisation of the legacy stream, as
// dc_buffer_copy returns when the copy is complete), for every ordered pair of
// devices, without and with peer access enabled. The buffers hold random
// non-zero bytes (fixed seed). After one warm-up copy of each side, each of
// the 20 iterations times one dc_ copy and one raw copy on the steady clock,
// alternating which goes first; the counters are medians over those samples:
//   dc_GB/s, raw_GB/s   bandwidth from the median copy time
//   ratio               raw median / dc median (above 1: dccuda is faster)
//   path_peer           1 when dccuda reports the peer path, 0 when staged
//   samples             copies timed per side
// Google Benchmark's own Time column is manual time: the mean over iterations
// of (dc_ copy + raw copy). Needs two devices; otherwise it says so and exits 0.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <string>
#include <vector>

#include "announce.h"
#include "dccuda.h"
#include "random_bytes.h"
#include "raw_driver.h"
#include "samples.h"

namespace {

constexpr uint64_t kBytes = uint64_t(256) << 20;

struct Env {
  std::vector<dc_device> devices;
  std::vector<CUcontext> contexts;
  std::vector<dc_buffer> buffers;  // one kBytes buffer per device, random non-zero contents
  std::vector<std::string> names;
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
  const std::vector<unsigned char> random = bench::random_nonzero_sequence(kBytes);
  for (int32_t i = 0; i < count; ++i) {
    dc_device d = nullptr;
    dc_buffer b = nullptr;
    void* ctx = nullptr;
    if (dc_device_open(i, &d) != DC_SUCCESS || dc_buffer_alloc(d, kBytes, 0, &b) != DC_SUCCESS ||
        dc_buffer_write(b, 0, random.data(), kBytes) != DC_SUCCESS) {
      *why = dc_last_error_message();
      return false;
    }
    dc_device_native(d, nullptr, &ctx);
    dc_device_info info = DC_DEVICE_INFO_INIT;
    dc_device_get_info(d, &info);
    g_env.devices.push_back(d);
    g_env.contexts.push_back(static_cast<CUcontext>(ctx));
    g_env.buffers.push_back(b);
    g_env.names.push_back(info.name);
  }
  return true;
}

void set_peer(int a, int b, bool on) {
  auto f = on ? dc_device_enable_peer_access : dc_device_disable_peer_access;
  f(g_env.devices[a], g_env.devices[b]);
  f(g_env.devices[b], g_env.devices[a]);
}

void report(benchmark::State& state, const bench::PairedSamples& samples, int32_t path) {
  double dc = samples.dc().median(), raw = samples.raw().median();
  if (dc <= 0 || raw <= 0) return;
  state.counters["dc_GB/s"] = static_cast<double>(kBytes) / dc / 1e9;
  state.counters["raw_GB/s"] = static_cast<double>(kBytes) / raw / 1e9;
  state.counters["ratio"] = raw / dc;
  state.counters["path_peer"] = path == DC_COPY_PATH_PEER ? 1 : 0;
  state.counters["samples"] = static_cast<double>(samples.size());
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
  uint64_t sp = 0, dp = 0;
  dc_buffer_device_pointer(s, &sp);
  dc_buffer_device_pointer(d, &dp);
  const bench::RawDriver& raw = *g_env.raw;
  CUcontext src_ctx = g_env.contexts[static_cast<size_t>(src)], dst_ctx = g_env.contexts[static_cast<size_t>(dst)];
  // The raw side synchronises the current context's legacy stream: the
  // destination's, current for both sides (dccuda binds its own context per
  // call and restores the caller's).
  raw.cuCtxSetCurrent(dst_ctx);
  auto dc_copy = [&] {
    if (dc_buffer_copy(d, 0, s, 0, kBytes) == DC_SUCCESS) return true;
    state.SkipWithError(dc_last_error_message());
    return false;
  };
  auto raw_copy = [&] {
    CUresult r = raw.cuMemcpyPeer(dp, dst_ctx, sp, src_ctx, kBytes);
    if (r == CUDA_SUCCESS) r = raw.cuStreamSynchronize(CU_STREAM_LEGACY);
    if (r == CUDA_SUCCESS) return true;
    state.SkipWithError("cuMemcpyPeer failed");
    return false;
  };
  bench::PairedSamples samples(bench::expected_samples(state));
  if (dc_copy() && raw_copy()) {  // warm: staging buffers, peer mappings
    for (auto _ : state) {
      if (!samples.time_pair(dc_copy, raw_copy)) break;
      state.SetIterationTime(samples.last_pair_seconds());
    }
  }
  set_peer(src, dst, false);
  report(state, samples, path);
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
          benchmark::RegisterBenchmark("BM_PeerCopy", BM_PeerCopy)
              ->Args({src, dst, peer})
              ->Iterations(20)
              ->UseManualTime();
  bench::announce("bench_peer", g_env.names);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  for (size_t i = 0; i < g_env.devices.size(); ++i) {
    dc_buffer_release(g_env.buffers[i]);
    dc_device_release(g_env.devices[i]);
  }
  return 0;
}
