// bench_nccl: dc_comm_all_reduce against ncclAllReduce called directly, from
// the same libnccl.so.2 (found among the libraries dccuda loaded, else by the
// same search), in the same process and run. Float sums, in place, from 8 B to
// 256 MiB (x4), on one rank (device 0: a one-rank communicator on each side;
// NCCL still launches its kernel) and, when the machine has several GPUs, on
// every GPU (dc_comm_init_all against ncclCommInitAll, each round grouped).
// Each side is an all-reduce then a synchronisation of the streams; after a
// warm-up of each side, dc_ and raw rounds alternate which goes first. The
// counters are medians over the samples:
//   dc_us, raw_us       one round
//   ratio               raw median / dc median (above 1: dccuda is faster)
//   busbw_GB/s          NCCL's bus bandwidth of the dc_ side: bytes / time x
//                       2(n-1)/n (0 on one rank: nothing crosses a link)
//   algbw_GB/s          bytes / time of the dc_ side
// Without a GPU or NCCL it says so and exits 0.
#include <benchmark/benchmark.h>
#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "announce.h"
#include "dccuda.h"
#include "loader/cuda_abi/nccl_abi.h"
#include "raw_driver.h"
#include "samples.h"

namespace {

constexpr uint64_t kMaxBytes = uint64_t(256) << 20;

struct RawNccl {
  PFN_ncclGetUniqueId ncclGetUniqueId = nullptr;
  PFN_ncclCommInitRank ncclCommInitRank = nullptr;
  PFN_ncclCommInitAll ncclCommInitAll = nullptr;
  PFN_ncclCommDestroy ncclCommDestroy = nullptr;
  PFN_ncclAllReduce ncclAllReduce = nullptr;
  PFN_ncclGroupStart ncclGroupStart = nullptr;
  PFN_ncclGroupEnd ncclGroupEnd = nullptr;
};

struct Rank {
  dc_device device = nullptr;
  dc_stream stream = nullptr;
  dc_buffer buffer = nullptr;
  dc_comm comm = nullptr;       // dccuda's
  ncclComm_t raw_comm = nullptr;  // the direct one
  CUstream cu_stream = nullptr;
  void* pointer = nullptr;
};

struct Env {
  RawNccl nccl;
  const bench::RawDriver* raw = nullptr;
  std::vector<Rank> one;  // device 0 alone
  std::vector<Rank> all;  // every device (when there are several)
  std::vector<std::string> names;
};
Env g_env;

// The library dccuda loaded (it is loaded by now: dc_nccl_library_version).
void* open_same_nccl() {
  const char* env = std::getenv("DCCUDA_NCCL_LIBRARY");
  for (const char* name : {env, "libnccl.so.2", "/usr/local/cuda/lib64/libnccl.so.2", "/usr/local/cuda/lib/libnccl.so.2"})
    if (name)
      if (void* lib = dlopen(name, RTLD_NOW | RTLD_NOLOAD)) return lib;
  return nullptr;
}

bool make_ranks(std::vector<Rank>& ranks, int n, std::string* why) {
  ranks.resize(n);
  std::vector<int32_t> ordinals;
  std::vector<dc_comm> comms(n);
  for (int i = 0; i < n; ++i) ordinals.push_back(i);
  if (dc_comm_init_all(ordinals.data(), n, comms.data()) != DC_SUCCESS) {
    *why = dc_last_error_message();
    return false;
  }
  std::vector<ncclComm_t> raw(n);
  if (g_env.nccl.ncclCommInitAll(raw.data(), n, ordinals.data()) != ncclSuccess) {
    *why = "ncclCommInitAll failed";
    return false;
  }
  for (int i = 0; i < n; ++i) {
    Rank& r = ranks[i];
    r.comm = comms[i];
    r.raw_comm = raw[i];
    uint64_t p = 0;
    void* s = nullptr;
    if (dc_device_open(i, &r.device) != DC_SUCCESS || dc_stream_create(r.device, 0, 0, &r.stream) != DC_SUCCESS ||
        dc_buffer_alloc(r.device, kMaxBytes, 0, &r.buffer) != DC_SUCCESS ||
        dc_buffer_fill(r.buffer, 0, kMaxBytes, 0x3f800000u, 4) != DC_SUCCESS ||  // 1.0f
        dc_buffer_device_pointer(r.buffer, &p) != DC_SUCCESS || dc_stream_native(r.stream, &s) != DC_SUCCESS) {
      *why = dc_last_error_message();
      return false;
    }
    r.pointer = reinterpret_cast<void*>(static_cast<uintptr_t>(p));
    r.cu_stream = static_cast<CUstream>(s);
  }
  return true;
}

bool setup(std::string* why) {
  int32_t count = 0, version = 0;
  if (dc_device_count(&count) != DC_SUCCESS || count < 1) {
    *why = count < 1 ? "no GPU" : dc_last_error_message();
    return false;
  }
  if (dc_nccl_library_version(&version) != DC_SUCCESS) {
    *why = dc_last_error_message();
    return false;
  }
  g_env.raw = bench::raw_driver(why);
  if (!g_env.raw) return false;
  void* lib = open_same_nccl();
  if (!lib) {
    *why = "the NCCL dccuda loaded cannot be opened again by name; set DCCUDA_NCCL_LIBRARY to its path";
    return false;
  }
#define BENCH_NCCL_FN(name)                                                    \
  g_env.nccl.name = reinterpret_cast<PFN_##name>(dlsym(lib, #name));           \
  if (!g_env.nccl.name) {                                                      \
    *why = "the NCCL library lacks " #name;                                    \
    return false;                                                              \
  }
  BENCH_NCCL_FN(ncclGetUniqueId)
  BENCH_NCCL_FN(ncclCommInitRank)
  BENCH_NCCL_FN(ncclCommInitAll)
  BENCH_NCCL_FN(ncclCommDestroy)
  BENCH_NCCL_FN(ncclAllReduce)
  BENCH_NCCL_FN(ncclGroupStart)
  BENCH_NCCL_FN(ncclGroupEnd)
#undef BENCH_NCCL_FN
  if (!make_ranks(g_env.one, 1, why)) return false;
  if (count > 1 && !make_ranks(g_env.all, count, why)) return false;
  for (int32_t i = 0; i < count; ++i) {
    dc_device_info info = DC_DEVICE_INFO_INIT;
    dc_device_get_info((g_env.all.empty() ? g_env.one : g_env.all)[static_cast<size_t>(i)].device, &info);
    g_env.names.push_back(info.name);
  }
  std::printf("bench_nccl: NCCL %d.%d.%d, %d GPU%s\n", version / 10000, version / 100 % 100, version % 100, count,
              count == 1 ? "" : "s");
  return true;
}

// args: bytes; which set of ranks (0: device 0 alone, 1: every device).
void BM_AllReduce(benchmark::State& state) {
  uint64_t bytes = static_cast<uint64_t>(state.range(0));
  std::vector<Rank>& ranks = state.range(1) ? g_env.all : g_env.one;
  if (ranks.empty()) {
    state.SkipWithError("one GPU only");
    return;
  }
  uint64_t count = bytes / 4;
  const RawNccl& nccl = g_env.nccl;
  const bench::RawDriver& raw = *g_env.raw;
  bool grouped = ranks.size() > 1;
  auto sync = [&] {
    for (Rank& r : ranks)
      if (raw.cuStreamSynchronize(r.cu_stream) != CUDA_SUCCESS) return false;
    return true;
  };
  auto dc_side = [&] {
    bool ok = !grouped || dc_nccl_group_start() == DC_SUCCESS;
    for (Rank& r : ranks)
      ok = ok && dc_comm_all_reduce(r.comm, r.buffer, 0, r.buffer, 0, count, DC_NCCL_FLOAT32, DC_NCCL_SUM,
                                    r.stream) == DC_SUCCESS;
    ok = (!grouped || dc_nccl_group_end() == DC_SUCCESS) && ok;
    // The same wait as the raw side's (cuStreamSynchronize on the same streams): only the calls differ.
    if (ok && sync()) return true;
    state.SkipWithError(dc_last_error_message());
    return false;
  };
  auto raw_side = [&] {
    bool ok = !grouped || nccl.ncclGroupStart() == ncclSuccess;
    for (Rank& r : ranks)
      ok = ok && nccl.ncclAllReduce(r.pointer, r.pointer, count, ncclFloat32, ncclSum, r.raw_comm, r.cu_stream) ==
                     ncclSuccess;
    ok = (!grouped || nccl.ncclGroupEnd() == ncclSuccess) && ok;
    if (ok && sync()) return true;
    state.SkipWithError("ncclAllReduce failed");
    return false;
  };
  bench::PairedSamples samples(bench::expected_samples(state));
  if (dc_side() && raw_side()) {
    for (auto _ : state) {
      if (!samples.time_pair(dc_side, raw_side)) break;
      state.SetIterationTime(samples.last_pair_seconds());
    }
  }
  double dc = samples.dc().median(), rw = samples.raw().median();
  if (dc <= 0 || rw <= 0) return;
  double n = static_cast<double>(ranks.size());
  state.counters["dc_us"] = dc * 1e6;
  state.counters["raw_us"] = rw * 1e6;
  state.counters["ratio"] = rw / dc;
  state.counters["algbw_GB/s"] = static_cast<double>(bytes) / dc / 1e9;
  state.counters["busbw_GB/s"] = static_cast<double>(bytes) / dc / 1e9 * 2 * (n - 1) / n;
  state.counters["samples"] = static_cast<double>(samples.size());
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  std::string why;
  if (!setup(&why)) {
    std::printf("bench_nccl: skipping: %s\n", why.c_str());
    return 0;
  }
  for (int all = 0; all <= (g_env.all.empty() ? 0 : 1); ++all)
    for (uint64_t bytes = 8; bytes <= kMaxBytes; bytes *= 4)
      benchmark::RegisterBenchmark(all ? "BM_AllReduce/every_gpu" : "BM_AllReduce/one_rank", BM_AllReduce)
          ->Args({static_cast<int64_t>(bytes), all})
          ->Iterations(bytes >= (uint64_t(16) << 20) ? 20 : 200)
          ->UseManualTime();
  bench::announce("bench_nccl", g_env.names);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  for (std::vector<Rank>* set : {&g_env.one, &g_env.all})
    for (Rank& r : *set) {
      dc_buffer_release(r.buffer);
      dc_comm_release(r.comm);
      g_env.nccl.ncclCommDestroy(r.raw_comm);
      dc_stream_release(r.stream);
      dc_device_release(r.device);
    }
  return 0;
}
