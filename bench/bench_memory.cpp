// bench_memory: dccuda's allocation, copies and fills against the raw driver
// API, in the same process and run. After one warm-up call of each side, each
// Google Benchmark iteration times ONE dc_ operation and ONE raw driver
// operation, each on its own with the steady clock, in an order that
// alternates between iterations (neither side always goes first). The
// per-operation samples are kept, and the counters are their medians:
//   dc_us, raw_us        median time per operation
//   speedup              raw median / dc median (above 1: dccuda is faster)
//   dc_GB/s, raw_GB/s    bandwidth from the medians, for copies and fills
//   samples              operations timed per side
// Google Benchmark's own Time column is manual time: the mean over iterations
// of (dc_ time + raw time), from the same samples (bytes_per_second likewise
// counts both sides' bytes); the counters are the figures to read.
//
// The raw equivalents: cuMemAlloc + cuMemFree; cuMemcpyHtoD / cuMemcpyDtoH
// from the same host memory (pinned: a pinned buffer's host pointer;
// pageable: ordinary, already touched memory); cuMemcpyDtoD and cuMemsetD32
// followed by a synchronisation of the legacy stream (dc_buffer_copy and
// dc_buffer_fill return when the work is complete). Copies move random
// non-zero bytes (fixed seed): host memory is filled with them, and device
// memory a copy reads from (D2H, D2D) is written from such host memory before
// timing. Fills write a non-zero 32-bit pattern.
//
// Without a usable driver and device it prints why and exits 0.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <memory>
#include <string>

#include "announce.h"
#include "checks.h"
#include "dccuda.h"
#include "random_bytes.h"
#include "raw_driver.h"
#include "samples.h"

namespace {

struct Env {
  dc_device device = nullptr;
  CUcontext context = nullptr;
  const bench::RawDriver* raw = nullptr;
  std::string name;
};

Env g_env;

bool setup(std::string* why) {
  int32_t count = 0;
  if (dc_device_count(&count) != DC_SUCCESS) {
    *why = dc_last_error_message();
    return false;
  }
  if (count < 1) {
    *why = "the driver reports no CUDA device";
    return false;
  }
  if (dc_device_open(0, &g_env.device) != DC_SUCCESS) {
    *why = dc_last_error_message();
    return false;
  }
  void* ctx = nullptr;
  dc_device_native(g_env.device, nullptr, &ctx);
  g_env.context = static_cast<CUcontext>(ctx);
  g_env.raw = bench::raw_driver(why);
  if (!g_env.raw) return false;
  dc_device_info info = DC_DEVICE_INFO_INIT;
  dc_device_get_info(g_env.device, &info);
  g_env.name = info.name;
  return true;
}

// The raw calls need the device's context current on the benchmark thread.
void bind() { g_env.raw->cuCtxSetCurrent(g_env.context); }

void report(benchmark::State& state, uint64_t bytes, const bench::PairedSamples& samples) {
  double dc = samples.dc().median(), raw = samples.raw().median();
  if (dc <= 0 || raw <= 0) return;
  state.counters["dc_us"] = dc * 1e6;
  state.counters["raw_us"] = raw * 1e6;
  state.counters["speedup"] = raw / dc;
  state.counters["samples"] = static_cast<double>(samples.size());
  if (bytes) {
    state.counters["dc_GB/s"] = static_cast<double>(bytes) / dc / 1e9;
    state.counters["raw_GB/s"] = static_cast<double>(bytes) / raw / 1e9;
  }
}

// Warms both sides, then times one dc_ operation and one raw operation per
// iteration (order alternating) and reports the medians. Each operation
// returns false on failure (after marking the state skipped).
template <class Dc, class Raw>
void compare(benchmark::State& state, uint64_t bytes, Dc&& dc, Raw&& raw) {
  bind();
  if (!dc() || !raw()) return;  // warm: pools, staging buffers, first-touch costs
  bench::PairedSamples samples(bench::expected_samples(state));
  for (auto _ : state) {
    if (!samples.time_pair(dc, raw)) return;
    state.SetIterationTime(samples.last_pair_seconds());
  }
  // Both sides move `bytes` in each iteration's time.
  if (bytes) state.SetBytesProcessed(2 * static_cast<int64_t>(samples.size()) * static_cast<int64_t>(bytes));
  report(state, bytes, samples);
}

// -- Allocation ---------------------------------------------------------------

void alloc_free(benchmark::State& state, uint32_t flags) {
  const bench::RawDriver& raw = *g_env.raw;
  uint64_t size = static_cast<uint64_t>(state.range(0));
  compare(
      state, 0,
      [&] {
        dc_buffer b = nullptr;
        if (!dc_ok(state, dc_buffer_alloc(g_env.device, size, flags, &b))) return false;
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

// Host memory for a copy benchmark: a pinned buffer's, or ordinary memory,
// filled with random non-zero bytes (which also touches ordinary memory once,
// so that page faults are not measured).
struct HostMemory {
  dc_buffer pinned = nullptr;
  std::unique_ptr<char[]> pageable;
  void* p = nullptr;
  HostMemory(uint64_t size, bool use_pinned) {
    if (use_pinned) {
      if (dc_buffer_alloc_pinned(g_env.device, size, 0, &pinned) == DC_SUCCESS) dc_buffer_host_pointer(pinned, &p);
    } else {
      pageable.reset(new char[size]);
      p = pageable.get();
    }
    if (p) bench::fill_random_nonzero(p, size);
  }
  ~HostMemory() { dc_buffer_release(pinned); }
};

struct DeviceMemory {
  dc_buffer buffer = nullptr;
  uint64_t address = 0;
  explicit DeviceMemory(uint64_t size) {
    if (dc_buffer_alloc(g_env.device, size, 0, &buffer) == DC_SUCCESS) dc_buffer_device_pointer(buffer, &address);
  }
  ~DeviceMemory() { dc_buffer_release(buffer); }
};

// Gives device memory a copy reads from random non-zero contents, written
// from `host` (host memory already holding them).
bool fill_from(benchmark::State& state, const DeviceMemory& dev, const HostMemory& host, uint64_t size) {
  return dc_ok(state, dc_buffer_write(dev.buffer, 0, host.p, size));
}

void host_to_device(benchmark::State& state, bool pinned) {
  const bench::RawDriver& raw = *g_env.raw;
  uint64_t size = static_cast<uint64_t>(state.range(0));
  HostMemory host(size, pinned);
  DeviceMemory dev(size);
  if (!host.p || !dev.address) {
    state.SkipWithError(dc_last_error_message());
    return;
  }
  compare(
      state, size, [&] { return dc_ok(state, dc_buffer_write(dev.buffer, 0, host.p, size)); },
      [&] { return raw_ok(state, raw.cuMemcpyHtoD(dev.address, host.p, size), "cuMemcpyHtoD"); });
}

void device_to_host(benchmark::State& state, bool pinned) {
  const bench::RawDriver& raw = *g_env.raw;
  uint64_t size = static_cast<uint64_t>(state.range(0));
  HostMemory host(size, pinned);
  DeviceMemory dev(size);
  if (!host.p || !dev.address) {
    state.SkipWithError(dc_last_error_message());
    return;
  }
  if (!fill_from(state, dev, host, size)) return;  // the copies then read back what is already there
  compare(
      state, size, [&] { return dc_ok(state, dc_buffer_read(dev.buffer, 0, host.p, size)); },
      [&] { return raw_ok(state, raw.cuMemcpyDtoH(host.p, dev.address, size), "cuMemcpyDtoH"); });
}

void BM_H2D_Pinned(benchmark::State& state) { host_to_device(state, true); }
void BM_H2D_Pageable(benchmark::State& state) { host_to_device(state, false); }
void BM_D2H_Pinned(benchmark::State& state) { device_to_host(state, true); }
void BM_D2H_Pageable(benchmark::State& state) { device_to_host(state, false); }

void BM_D2D(benchmark::State& state) {
  const bench::RawDriver& raw = *g_env.raw;
  uint64_t size = static_cast<uint64_t>(state.range(0));
  DeviceMemory a(size), b(size);
  if (!a.address || !b.address) {
    state.SkipWithError(dc_last_error_message());
    return;
  }
  if (!fill_from(state, a, HostMemory(size, false), size)) return;
  compare(
      state, size, [&] { return dc_ok(state, dc_buffer_copy(b.buffer, 0, a.buffer, 0, size)); },
      [&] {
        return raw_ok(state, raw.cuMemcpyDtoD(b.address, a.address, size), "cuMemcpyDtoD") &&
               raw_ok(state, raw.cuStreamSynchronize(CU_STREAM_LEGACY), "cuStreamSynchronize");
      });
}

void BM_Memset(benchmark::State& state) {
  const bench::RawDriver& raw = *g_env.raw;
  uint64_t size = static_cast<uint64_t>(state.range(0));
  DeviceMemory a(size);
  if (!a.address) {
    state.SkipWithError(dc_last_error_message());
    return;
  }
  compare(
      state, size, [&] { return dc_ok(state, dc_buffer_fill(a.buffer, 0, size, 0x01020304u, 4)); },
      [&] {
        return raw_ok(state, raw.cuMemsetD32(a.address, 0x01020304u, size / 4), "cuMemsetD32") &&
               raw_ok(state, raw.cuStreamSynchronize(CU_STREAM_LEGACY), "cuStreamSynchronize");
      });
}

// -- 2D copies ------------------------------------------------------------------
// Rows of an odd width (8191 bytes) with odd pitches on the host (8197) and
// the device's own pitch (cuMemAllocPitch), `rows` of them: dc_buffer_write_2d
// / read_2d / copy_2d against cuMemcpy2D on the same memory.

constexpr uint64_t k2dWidth = 8191, k2dHostPitch = 8197;

struct PitchedMemory {
  dc_buffer buffer = nullptr;
  uint64_t address = 0, pitch = 0;
  explicit PitchedMemory(uint64_t rows) {
    if (dc_buffer_alloc_pitched(g_env.device, k2dWidth, rows, 4, 0, &pitch, &buffer) == DC_SUCCESS)
      dc_buffer_device_pointer(buffer, &address);
  }
  ~PitchedMemory() { dc_buffer_release(buffer); }
};

CUDA_MEMCPY2D raw_2d(uint64_t rows) {
  CUDA_MEMCPY2D p{};
  p.WidthInBytes = k2dWidth;
  p.Height = rows;
  return p;
}

void host_to_device_2d(benchmark::State& state, bool pinned) {
  const bench::RawDriver& raw = *g_env.raw;
  uint64_t rows = static_cast<uint64_t>(state.range(0)), host_size = k2dHostPitch * rows;
  HostMemory host(host_size, pinned);
  PitchedMemory dev(rows);
  if (!host.p || !dev.address) {
    state.SkipWithError(dc_last_error_message());
    return;
  }
  CUDA_MEMCPY2D p = raw_2d(rows);
  p.srcMemoryType = CU_MEMORYTYPE_HOST;
  p.srcHost = host.p;
  p.srcPitch = k2dHostPitch;
  p.dstMemoryType = CU_MEMORYTYPE_DEVICE;
  p.dstDevice = dev.address;
  p.dstPitch = dev.pitch;
  compare(
      state, k2dWidth * rows,
      [&] {
        return dc_ok(state, dc_buffer_write_2d(dev.buffer, 0, dev.pitch, host.p, host_size, k2dHostPitch, k2dWidth,
                                               rows));
      },
      [&] {
        // From pageable memory the driver may return before its DMA is done;
        // dc_buffer_write_2d returns when the copy is complete: wait too.
        return raw_ok(state, raw.cuMemcpy2D(&p), "cuMemcpy2D") &&
               raw_ok(state, raw.cuStreamSynchronize(CU_STREAM_LEGACY), "cuStreamSynchronize");
      });
}

void device_to_host_2d(benchmark::State& state, bool pinned) {
  const bench::RawDriver& raw = *g_env.raw;
  uint64_t rows = static_cast<uint64_t>(state.range(0)), host_size = k2dHostPitch * rows;
  HostMemory host(host_size, pinned);
  PitchedMemory dev(rows);
  if (!host.p || !dev.address) {
    state.SkipWithError(dc_last_error_message());
    return;
  }
  if (!dc_ok(state, dc_buffer_write_2d(dev.buffer, 0, dev.pitch, host.p, host_size, k2dHostPitch, k2dWidth, rows)))
    return;
  CUDA_MEMCPY2D p = raw_2d(rows);
  p.srcMemoryType = CU_MEMORYTYPE_DEVICE;
  p.srcDevice = dev.address;
  p.srcPitch = dev.pitch;
  p.dstMemoryType = CU_MEMORYTYPE_HOST;
  p.dstHost = host.p;
  p.dstPitch = k2dHostPitch;
  compare(
      state, k2dWidth * rows,
      [&] {
        return dc_ok(state, dc_buffer_read_2d(dev.buffer, 0, dev.pitch, host.p, host_size, k2dHostPitch, k2dWidth,
                                              rows));
      },
      [&] { return raw_ok(state, raw.cuMemcpy2D(&p), "cuMemcpy2D"); });
}

void BM_H2D_2D_Pinned(benchmark::State& state) { host_to_device_2d(state, true); }
void BM_H2D_2D_Pageable(benchmark::State& state) { host_to_device_2d(state, false); }
void BM_D2H_2D_Pinned(benchmark::State& state) { device_to_host_2d(state, true); }
void BM_D2H_2D_Pageable(benchmark::State& state) { device_to_host_2d(state, false); }

void BM_D2D_2D(benchmark::State& state) {
  const bench::RawDriver& raw = *g_env.raw;
  uint64_t rows = static_cast<uint64_t>(state.range(0));
  PitchedMemory a(rows), b(rows);
  if (!a.address || !b.address) {
    state.SkipWithError(dc_last_error_message());
    return;
  }
  CUDA_MEMCPY2D p = raw_2d(rows);
  p.srcMemoryType = p.dstMemoryType = CU_MEMORYTYPE_DEVICE;
  p.srcDevice = a.address;
  p.srcPitch = a.pitch;
  p.dstDevice = b.address;
  p.dstPitch = b.pitch;
  compare(
      state, k2dWidth * rows,
      [&] { return dc_ok(state, dc_buffer_copy_2d(b.buffer, 0, b.pitch, a.buffer, 0, a.pitch, k2dWidth, rows)); },
      [&] {
        return raw_ok(state, raw.cuMemcpy2D(&p), "cuMemcpy2D") &&
               raw_ok(state, raw.cuStreamSynchronize(CU_STREAM_LEGACY), "cuStreamSynchronize");
      });
}

// 1 row (8 KiB), 128 rows (1 MiB), 32768 rows (256 MiB).
void rows_2d(benchmark::internal::Benchmark* b) {
  for (int64_t rows : {1, 128, 32768}) b->Arg(rows);
  b->UseManualTime()->Unit(benchmark::kMicrosecond);
}

constexpr int64_t kKiB = 1024, kMiB = 1024 * 1024;

void alloc_sizes(benchmark::internal::Benchmark* b) {
  for (int64_t s : {4 * kKiB, kMiB, 64 * kMiB, 256 * kMiB}) b->Arg(s);
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
BENCHMARK(BM_H2D_2D_Pinned)->Apply(rows_2d);
BENCHMARK(BM_H2D_2D_Pageable)->Apply(rows_2d);
BENCHMARK(BM_D2H_2D_Pinned)->Apply(rows_2d);
BENCHMARK(BM_D2H_2D_Pageable)->Apply(rows_2d);
BENCHMARK(BM_D2D_2D)->Apply(rows_2d);

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  std::string why;
  if (!setup(&why)) {
    std::printf("bench_memory: %s: skipping\n", why.c_str());
    dc_device_release(g_env.device);
    return 0;
  }
  announce_and_run("bench_memory", g_env.name);
  dc_device_release(g_env.device);
  return 0;
}
