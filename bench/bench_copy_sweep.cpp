// bench_copy_sweep: host<->device copies at every power of two from 4 KiB to
// 1 GiB, pinned and pageable, both directions, dccuda (dc_buffer_write /
// dc_buffer_read) against the raw driver (cuMemcpyHtoD / cuMemcpyDtoH) in the
// same process and run: the data of the bandwidth plot (bench/plot). The
// method is bench_memory's (memory_pairs.h): after one warm-up copy of each
// side, each iteration times one dc_ copy and one raw copy, order
// alternating, and the counters are medians (dc_GB/s, raw_GB/s, dc_us,
// raw_us, speedup, samples).
//
// The number of pairs per size is fixed (not Google Benchmark's min_time, so
// that each size's buffers are set up once and the whole sweep's time is
// known in advance): 4 GiB of data per side divided by the size, at least 10
// and at most 300 pairs. That is 300 pairs up to 8 MiB, then 256, 128, 64, 32,
// 16 pairs at 16..256 MiB and 10 at 512 MiB and 1 GiB, about 43 GB per side in
// all: on an H100 host (55 GB/s pinned, 8-10 GB/s raw pageable) about 17 s of
// copies and 30-40 s with the set-up.
//
//   bench_copy_sweep [--benchmark_filter=Pinned/1048576/]
//
// Without a usable driver and device it prints why and exits 0.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdio>
#include <string>

#include "announce.h"
#include "memory_pairs.h"

namespace {

constexpr int64_t kMinBytes = int64_t(4) << 10;
constexpr int64_t kMaxBytes = int64_t(1) << 30;
constexpr int64_t kBytesPerSide = int64_t(4) << 30;
constexpr int64_t kMinPairs = 10, kMaxPairs = 300;

int64_t pairs_for(int64_t bytes) { return std::clamp(kBytesPerSide / bytes, kMinPairs, kMaxPairs); }

// One benchmark per (direction, host memory, size), so that each size has
// its own fixed number of iterations. Names: BM_Sweep_H2D_Pinned/<bytes>/...
void register_sweep() {
  struct Family {
    const char* name;
    void (*run)(benchmark::State&, bool);
    bool pinned;
  };
  const Family families[] = {
      {"BM_Sweep_H2D_Pinned", bench::host_to_device, true},
      {"BM_Sweep_H2D_Pageable", bench::host_to_device, false},
      {"BM_Sweep_D2H_Pinned", bench::device_to_host, true},
      {"BM_Sweep_D2H_Pageable", bench::device_to_host, false},
  };
  for (const Family& family : families)
    for (int64_t bytes = kMinBytes; bytes <= kMaxBytes; bytes *= 2) {
      auto run = family.run;
      bool pinned = family.pinned;
      benchmark::RegisterBenchmark(family.name, [run, pinned](benchmark::State& state) { run(state, pinned); })
          ->Arg(bytes)
          ->Iterations(pairs_for(bytes))
          ->UseManualTime()
          ->Unit(benchmark::kMicrosecond);
    }
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  std::string why;
  if (!bench::open_memory_env(&why)) {
    std::printf("bench_copy_sweep: %s: skipping\n", why.c_str());
    bench::close_memory_env();
    return 0;
  }
  register_sweep();
  announce_and_run("bench_copy_sweep", bench::memory_env().name);
  bench::close_memory_env();
  return 0;
}
