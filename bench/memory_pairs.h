// What bench_memory and bench_copy_sweep share: device 0 opened through
// dccuda with the raw driver bound to the same context, and host<->device
// copies timed as pairs (one dc_ copy and one raw copy per iteration, order
// alternating; samples.h) with their medians reported as counters:
//   dc_us, raw_us        median time per operation
//   speedup              raw median / dc median (above 1: dccuda is faster)
//   dc_GB/s, raw_GB/s    bandwidth from the medians, for copies and fills
//   samples              operations timed per side
// Google Benchmark's own Time column is manual time: the mean over iterations
// of (dc_ time + raw time), from the same samples (bytes_per_second likewise
// counts both sides' bytes); the counters are the figures to read.
//
// The raw equivalents of the copies: cuMemcpyHtoD / cuMemcpyDtoH from the
// same host memory (pinned: a pinned buffer's host pointer; pageable:
// ordinary, already touched memory). Copies move random non-zero bytes
// (random_bytes.h): host memory is filled with them, and device memory a copy
// reads from (D2H) is written from such host memory before timing.
#pragma once

#include <benchmark/benchmark.h>

#include <cstdint>
#include <memory>
#include <string>

#include "checks.h"
#include "dccuda.h"
#include "raw_driver.h"
#include "samples.h"

namespace bench {

struct MemoryEnv {
  dc_device device = nullptr;
  CUcontext context = nullptr;
  const RawDriver* raw = nullptr;
  std::string name;
};

// The one environment of the process (the benchmarks run on one thread).
MemoryEnv& memory_env();

// Opens device 0 and binds the raw driver; false with the reason in *why.
bool open_memory_env(std::string* why);
void close_memory_env();

// The raw calls need the device's context current on the benchmark thread.
void bind_memory_env();

// Sets the counters above from the pairs' medians; `bytes` 0 for operations
// that move no data (no GB/s counters then).
void report_pairs(benchmark::State& state, uint64_t bytes, const PairedSamples& samples);

// Warms both sides, then times one dc_ operation and one raw operation per
// iteration (order alternating) and reports the medians. Each operation
// returns false on failure (after marking the state skipped).
template <class Dc, class Raw>
void compare_pairs(benchmark::State& state, uint64_t bytes, Dc&& dc, Raw&& raw) {
  bind_memory_env();
  if (!dc() || !raw()) return;  // warm: pools, staging buffers, first-touch costs
  PairedSamples samples(expected_samples(state));
  for (auto _ : state) {
    if (!samples.time_pair(dc, raw)) return;
    state.SetIterationTime(samples.last_pair_seconds());
  }
  // Both sides move `bytes` in each iteration's time.
  if (bytes) state.SetBytesProcessed(2 * static_cast<int64_t>(samples.size()) * static_cast<int64_t>(bytes));
  report_pairs(state, bytes, samples);
}

// Host memory for a copy benchmark: a pinned buffer's, or ordinary memory,
// filled with random non-zero bytes (which also touches ordinary memory once,
// so that page faults are not measured). `p` is null when allocation failed.
struct HostMemory {
  dc_buffer pinned = nullptr;
  std::unique_ptr<char[]> pageable;
  void* p = nullptr;
  HostMemory(uint64_t size, bool use_pinned);
  ~HostMemory();
  HostMemory(const HostMemory&) = delete;
  HostMemory& operator=(const HostMemory&) = delete;
};

// Device memory from dccuda's pool; `address` is 0 when allocation failed.
struct DeviceMemory {
  dc_buffer buffer = nullptr;
  uint64_t address = 0;
  explicit DeviceMemory(uint64_t size);
  ~DeviceMemory();
  DeviceMemory(const DeviceMemory&) = delete;
  DeviceMemory& operator=(const DeviceMemory&) = delete;
};

// Gives device memory a copy reads from random non-zero contents, written
// from `host` (host memory already holding them).
bool fill_from(benchmark::State& state, const DeviceMemory& dev, const HostMemory& host, uint64_t size);

// dc_buffer_write against cuMemcpyHtoD, and dc_buffer_read against
// cuMemcpyDtoH, of state.range(0) bytes from pinned or pageable host memory.
void host_to_device(benchmark::State& state, bool pinned);
// dc_buffer_write from pageable memory against cuMemcpyHtoD followed by a
// synchronisation of the legacy stream (the same guarantee: a complete copy).
void host_to_device_raw_synced(benchmark::State& state);
void device_to_host(benchmark::State& state, bool pinned);

}  // namespace bench
