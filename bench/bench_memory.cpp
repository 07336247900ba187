// bench_memory: dccuda's allocation, copies and fills against the raw driver
// API, in the same process and run. After one warm-up call of each side, each
// Google Benchmark iteration times ONE dc_ operation and ONE raw driver
// operation, each on its own with the steady clock, in an order that
// alternates between iterations (neither side always goes first). The
// per-operation samples are kept, and the counters are their medians (dc_us,
// raw_us, speedup, dc_GB/s, raw_GB/s, samples: memory_pairs.h).
//
// The raw equivalents: cuMemAlloc + cuMemFree; cuMemcpyHtoD / cuMemcpyDtoH
// from the same host memory (pinned and pageable; memory_pairs.h);
// cuMemcpyDtoD and cuMemsetD32 followed by a synchronisation of the legacy
// stream (dc_buffer_copy and dc_buffer_fill return when the work is
// complete). Copies move random non-zero bytes (fixed seed). Fills write a
// non-zero 32-bit pattern. Allocation runs at every power of four from 4 KiB
// to 1 GiB (the allocation plot's sizes, bench/plot), copies and fills at
// 4 KiB, 1 MiB and 256 MiB; bench_copy_sweep has the copies at every power of
// two.
//
// Without a usable driver and device it prints why and exits 0.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <string>

#include "announce.h"
#include "checks.h"
#include "dccuda.h"
#include "memory_pairs.h"

namespace {

using bench::compare_pairs;
using bench::DeviceMemory;
using bench::HostMemory;

const bench::MemoryEnv& env() { return bench::memory_env(); }

// -- Allocation ---------------------------------------------------------------

void alloc_free(benchmark::State& state, uint32_t flags) {
  const bench::RawDriver& raw = *env().raw;
  uint64_t size = static_cast<uint64_t>(state.range(0));
  compare_pairs(
      state, 0,
      [&] {
        dc_buffer b = nullptr;
        if (!dc_ok(state, dc_buffer_alloc(env().device, size, flags, &b))) return false;
        dc_buffer_release(b);
        return true;
      },
      [&] {
        CUdeviceptr p = 0;
        if (!raw_ok(state, raw.cuMemAlloc(&p, size), "cuMemAlloc")) return false;
        return raw_ok(state, raw.cuMemFree(p), "cuMemFree");
      });
}

void BM_AllocFree(benchmark::State& state) { alloc_free(state, 0); }
void BM_AllocFreeNoPool(benchmark::State& state) { alloc_free(state, DC_ALLOC_NO_POOL); }

// -- Copies -------------------------------------------------------------------

void BM_H2D_Pinned(benchmark::State& state) { bench::host_to_device(state, true); }
void BM_H2D_Pageable(benchmark::State& state) { bench::host_to_device(state, false); }
void BM_D2H_Pinned(benchmark::State& state) { bench::device_to_host(state, true); }
void BM_D2H_Pageable(benchmark::State& state) { bench::device_to_host(state, false); }

void BM_D2D(benchmark::State& state) {
  const bench::RawDriver& raw = *env().raw;
  uint64_t size = static_cast<uint64_t>(state.range(0));
  DeviceMemory a(size), b(size);
  if (!a.address || !b.address) {
    state.SkipWithError(dc_last_error_message());
    return;
  }
  if (!bench::fill_from(state, a, HostMemory(size, false), size)) return;
  compare_pairs(
      state, size, [&] { return dc_ok(state, dc_buffer_copy(b.buffer, 0, a.buffer, 0, size)); },
      [&] {
        return raw_ok(state, raw.cuMemcpyDtoD(b.address, a.address, size), "cuMemcpyDtoD") &&
               raw_ok(state, raw.cuStreamSynchronize(CU_STREAM_LEGACY), "cuStreamSynchronize");
      });
}

void BM_Memset(benchmark::State& state) {
  const bench::RawDriver& raw = *env().raw;
  uint64_t size = static_cast<uint64_t>(state.range(0));
  DeviceMemory a(size);
  if (!a.address) {
    state.SkipWithError(dc_last_error_message());
    return;
  }
  compare_pairs(
      state, size, [&] { return dc_ok(state, dc_buffer_fill(a.buffer, 0, size, 0x01020304u, 4)); },
      [&] {
        return raw_ok(state, raw.cuMemsetD32(a.address, 0x01020304u, size / 4), "cuMemsetD32") &&
               raw_ok(state, raw.cuStreamSynchronize(CU_STREAM_LEGACY), "cuStreamSynchronize");
      });
}

constexpr int64_t kKiB = 1024, kMiB = 1024 * 1024;

// Every power of four from 4 KiB to 1 GiB: the allocation plot's x axis.
void alloc_sizes(benchmark::internal::Benchmark* b) {
  for (int64_t s = 4 * kKiB; s <= 1024 * kMiB; s *= 4) b->Arg(s);
  b->UseManualTime()->Unit(benchmark::kMicrosecond);
}
void copy_sizes(benchmark::internal::Benchmark* b) {
  for (int64_t s : {4 * kKiB, kMiB, 256 * kMiB}) b->Arg(s);
  b->UseManualTime()->Unit(benchmark::kMicrosecond);
}

BENCHMARK(BM_AllocFree)->Apply(alloc_sizes);
BENCHMARK(BM_AllocFreeNoPool)->Apply(alloc_sizes);
BENCHMARK(BM_H2D_Pinned)->Apply(copy_sizes);
BENCHMARK(BM_H2D_Pageable)->Apply(copy_sizes);
BENCHMARK(BM_D2H_Pinned)->Apply(copy_sizes);
BENCHMARK(BM_D2H_Pageable)->Apply(copy_sizes);
BENCHMARK(BM_D2D)->Apply(copy_sizes);
BENCHMARK(BM_Memset)->Apply(copy_sizes);

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  std::string why;
  if (!bench::open_memory_env(&why)) {
    std::printf("bench_memory: %s: skipping\n", why.c_str());
    bench::close_memory_env();
    return 0;
  }
  announce_and_run("bench_memory", env().name);
  bench::close_memory_env();
  return 0;
}
