// bench_memory: dccuda's allocation, copies and fills against the raw driver
// API, in the same process and run. After one warm-up call of each side, each
// Google Benchmark iteration times ONE dc_ operation and ONE raw driver
// operation, each on its own with the steady clock, in an order that
// alternates between iterations (neither side always goes first). The
// per-operation samples are kept, and the counters are their medians (dc_us,
// raw_us, speedup, dc_GB/s, raw_GB/s, samples: memory_pairs.h).
//
// The raw equivalents: cuMemAlloc + cuMemFree, and for pooled allocation also
// cuMemAllocFromPoolAsync + cuMemFreeAsync on a pool and stream of the same
// kind as dccuda's (with and without the synchronisation that makes the
// memory usable from every stream, as dc_buffer_alloc does); cuMemcpyHtoD /
// cuMemcpyDtoH from the same host memory (pinned and pageable; memory_pairs.h;
// pageable writes also against cuMemcpyHtoD + a legacy stream sync, the
// same guarantee as dc_buffer_write's);
// cuMemcpyDtoD and cuMemsetD32 followed by a synchronisation of the legacy
// stream (dc_buffer_copy and dc_buffer_fill return when the work is
// complete). Copies move random non-zero bytes (fixed seed). Fills write a
// non-zero 32-bit pattern. A growable buffer's growth is timed against
// reallocate-and-copy (BM_GrowVsReallocate, below). Allocation runs at every
// power of four from 4 KiB to 1 GiB (the allocation plot's sizes, bench/plot),
// copies and fills at
// 4 KiB, 1 MiB and 256 MiB; bench_copy_sweep has the copies at every power of
// two.
//
// Without a usable driver and device it prints why and exits 0.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstring>
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

// The raw stream-ordered pool dccuda's pooled allocation is made of: a pool
// of the same kind as dccuda's own (pinned device memory, nothing given back
// to the system between allocations) and a non-blocking stream of the raw
// side's own, like dccuda's internal stream.
struct RawPool {
  CUmemoryPool pool = nullptr;
  CUstream stream = nullptr;
  RawPool() {
    const bench::RawDriver& raw = *env().raw;
    bench::bind_memory_env();
    CUmemPoolProps props{};
    props.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
    props.handleTypes = CU_MEM_HANDLE_TYPE_NONE;
    props.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    props.location.id = 0;
    if (raw.cuMemPoolCreate(&pool, &props) != CUDA_SUCCESS) pool = nullptr;
    cuuint64_t keep = ~cuuint64_t(0);
    if (pool) raw.cuMemPoolSetAttribute(pool, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, &keep);
    if (raw.cuStreamCreateWithPriority(&stream, CU_STREAM_NON_BLOCKING, 0) != CUDA_SUCCESS) stream = nullptr;
  }
  ~RawPool() {
    const bench::RawDriver& raw = *env().raw;
    bench::bind_memory_env();
    if (stream) {
      raw.cuStreamSynchronize(stream);
      raw.cuStreamDestroy(stream);
    }
    if (pool) raw.cuMemPoolDestroy(pool);
  }
  RawPool(const RawPool&) = delete;
  RawPool& operator=(const RawPool&) = delete;
};

// cuMemAllocFromPoolAsync + cuMemFreeAsync on `stream` (after a
// synchronisation of the stream in between when `synced`: dc_buffer_alloc's
// guarantee that the memory is usable from every stream on return).
bool raw_pool_pair(benchmark::State& state, const RawPool& pool, CUstream stream, uint64_t size, bool synced) {
  const bench::RawDriver& raw = *env().raw;
  CUdeviceptr p = 0;
  if (!raw_ok(state, raw.cuMemAllocFromPoolAsync(&p, size, pool.pool, stream), "cuMemAllocFromPoolAsync")) return false;
  if (synced && !raw_ok(state, raw.cuStreamSynchronize(stream), "cuStreamSynchronize")) return false;
  return raw_ok(state, raw.cuMemFreeAsync(p, stream), "cuMemFreeAsync");
}

// dc_buffer_alloc + dc_buffer_release (dccuda's pool) against the raw pool
// pair, plain (the baseline) or with the synchronisation that gives
// the same guarantee.
void pool_alloc_free(benchmark::State& state, bool synced) {
  uint64_t size = static_cast<uint64_t>(state.range(0));
  RawPool pool;
  if (!pool.pool || !pool.stream) {
    state.SkipWithError("the raw driver made no memory pool or stream (no pool support?)");
    return;
  }
  compare_pairs(
      state, 0,
      [&] {
        dc_buffer b = nullptr;
        if (!dc_ok(state, dc_buffer_alloc(env().device, size, 0, &b))) return false;
        dc_buffer_release(b);
        return true;
      },
      [&] { return raw_pool_pair(state, pool, pool.stream, size, synced); });
}

void BM_AllocFreePoolRaw(benchmark::State& state) { pool_alloc_free(state, false); }
void BM_AllocFreePoolRawSynced(benchmark::State& state) { pool_alloc_free(state, true); }

// Stream-ordered on both sides: dc_buffer_alloc_async + dc_buffer_release
// (freed in order on the stream) against the raw pool pair on the same
// stream (the dc_stream's own CUstream).
void BM_AllocFreeAsync(benchmark::State& state) {
  uint64_t size = static_cast<uint64_t>(state.range(0));
  RawPool pool;
  dc_stream s = nullptr;
  void* native = nullptr;
  if (!pool.pool || !dc_ok(state, dc_stream_create(env().device, 0, 0, &s)) ||
      !dc_ok(state, dc_stream_native(s, &native))) {
    if (!pool.pool) state.SkipWithError("the raw driver made no memory pool");
    dc_stream_release(s);
    return;
  }
  CUstream stream = static_cast<CUstream>(native);
  compare_pairs(
      state, 0,
      [&] {
        dc_buffer b = nullptr;
        if (!dc_ok(state, dc_buffer_alloc_async(s, size, 0, &b))) return false;
        dc_buffer_release(b);
        return true;
      },
      [&] { return raw_pool_pair(state, pool, stream, size, false); });
  dc_stream_synchronize(s);
  dc_stream_release(s);
}

// -- Copies -------------------------------------------------------------------

void BM_H2D_Pinned(benchmark::State& state) { bench::host_to_device(state, true); }
void BM_H2D_Pageable(benchmark::State& state) { bench::host_to_device(state, false); }
// The same dc_buffer_write against the raw copy with the same guarantee: the
// driver's pageable copy may return before its DMA is done, so the raw side
// also waits for the legacy stream. (A synchronous device-to-host copy is
// complete when the driver returns: BM_D2H_Pageable is already like for like.)
void BM_H2D_PageableRawSynced(benchmark::State& state) { bench::host_to_device_raw_synced(state); }
void BM_D2H_Pinned(benchmark::State& state) { bench::device_to_host(state, true); }
void BM_D2H_Pageable(benchmark::State& state) { bench::device_to_host(state, false); }

// The host's side alone: dc_buffer_write into a pinned buffer from ordinary
// memory (a host-to-host copy: the copy threads of the staged path, with no
// DMA) against one thread's memcpy. What the threads reach here bounds what a
// staged pageable copy can reach while the DMA engine reads the same memory.
void BM_HostToPinned(benchmark::State& state) {
  uint64_t size = static_cast<uint64_t>(state.range(0));
  HostMemory src(size, false), dst(size, true);
  if (!src.p || !dst.p) {
    state.SkipWithError(dc_last_error_message());
    return;
  }
  compare_pairs(
      state, size, [&] { return dc_ok(state, dc_buffer_write(dst.pinned, 0, src.p, size)); },
      [&] {
        std::memcpy(dst.p, src.p, size);
        benchmark::ClobberMemory();
        return true;
      });
}

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

// -- 2D copies ------------------------------------------------------------------
// Rows of an odd width (8191 bytes) with odd pitches on the host (8197) and
// the device's own pitch (cuMemAllocPitch), `rows` of them: dc_buffer_write_2d
// / read_2d / copy_2d against cuMemcpy2D on the same memory.

constexpr uint64_t k2dWidth = 8191, k2dHostPitch = 8197;

struct PitchedMemory {
  dc_buffer buffer = nullptr;
  uint64_t address = 0, pitch = 0;
  explicit PitchedMemory(uint64_t rows) {
    if (dc_buffer_alloc_pitched(env().device, k2dWidth, rows, 4, 0, &pitch, &buffer) == DC_SUCCESS)
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
  const bench::RawDriver& raw = *env().raw;
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
  compare_pairs(
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
  const bench::RawDriver& raw = *env().raw;
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
  compare_pairs(
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
  const bench::RawDriver& raw = *env().raw;
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
  compare_pairs(
      state, k2dWidth * rows,
      [&] { return dc_ok(state, dc_buffer_copy_2d(b.buffer, 0, b.pitch, a.buffer, 0, a.pitch, k2dWidth, rows)); },
      [&] {
        return raw_ok(state, raw.cuMemcpy2D(&p), "cuMemcpy2D") &&
               raw_ok(state, raw.cuStreamSynchronize(CU_STREAM_LEGACY), "cuStreamSynchronize");
      });
}

// -- Growing an array -----------------------------------------------------------
// An array growing from 2 MiB to `size` bytes, doubling each step: a growable
// buffer (dc_buffer_alloc_growable + dc_buffer_grow: map more memory behind a
// fixed address) against what code without virtual memory does, reallocate
// and copy (cuMemAlloc of the new size, cuMemcpyDtoD of the old contents,
// cuMemFree of the old block, a synchronisation at the end). Both end with
// the whole array allocated and the memory freed again. The GB/s counters
// count the final size.

void BM_GrowVsReallocate(benchmark::State& state) {
  const bench::RawDriver& raw = *env().raw;
  const uint64_t size = static_cast<uint64_t>(state.range(0)), start = 2ull << 20;
  compare_pairs(
      state, size,
      [&] {
        dc_buffer b = nullptr;
        if (!dc_ok(state, dc_buffer_alloc_growable(env().device, size, start, &b))) return false;
        bool ok = true;
        for (uint64_t s = start * 2; ok && s <= size; s *= 2) ok = dc_ok(state, dc_buffer_grow(b, s));
        dc_buffer_release(b);
        return ok;
      },
      [&] {
        CUdeviceptr old = 0;
        if (!raw_ok(state, raw.cuMemAlloc(&old, start), "cuMemAlloc")) return false;
        for (uint64_t s = start * 2; s <= size; s *= 2) {
          CUdeviceptr grown = 0;
          if (!raw_ok(state, raw.cuMemAlloc(&grown, s), "cuMemAlloc") ||
              !raw_ok(state, raw.cuMemcpyDtoD(grown, old, s / 2), "cuMemcpyDtoD") ||
              !raw_ok(state, raw.cuMemFree(old), "cuMemFree"))
            return false;
          old = grown;
        }
        return raw_ok(state, raw.cuStreamSynchronize(CU_STREAM_LEGACY), "cuStreamSynchronize") &&
               raw_ok(state, raw.cuMemFree(old), "cuMemFree");
      });
}

// 1 row (8 KiB), 128 rows (1 MiB), 32768 rows (256 MiB).
void rows_2d(benchmark::internal::Benchmark* b) {
  for (int64_t rows : {1, 128, 32768}) b->Arg(rows);
  b->UseManualTime()->Unit(benchmark::kMicrosecond);
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
// Host<->device copies: also 64 KiB (small copies) and 64 MiB (the smallest
// size of the pinned-bandwidth goal).
void host_copy_sizes(benchmark::internal::Benchmark* b) {
  for (int64_t s : {4 * kKiB, 64 * kKiB, kMiB, 64 * kMiB, 256 * kMiB}) b->Arg(s);
  b->UseManualTime()->Unit(benchmark::kMicrosecond);
}
void small_copy_sizes(benchmark::internal::Benchmark* b) {
  for (int64_t s : {4 * kKiB, 64 * kKiB, kMiB}) b->Arg(s);
  b->UseManualTime()->Unit(benchmark::kMicrosecond);
}
// Pooled allocation: small, medium, large.
void pool_sizes(benchmark::internal::Benchmark* b) {
  for (int64_t s : {4 * kKiB, kMiB, 64 * kMiB}) b->Arg(s);
  b->UseManualTime()->Unit(benchmark::kMicrosecond);
}

// The growth's final sizes: 64 MiB, 1 GiB, 4 GiB.
void grow_sizes(benchmark::internal::Benchmark* b) {
  for (int64_t s : {64 * kMiB, 1024 * kMiB, 4096 * kMiB}) b->Arg(s);
  b->UseManualTime()->Unit(benchmark::kMillisecond);
}

BENCHMARK(BM_AllocFree)->Apply(alloc_sizes);
BENCHMARK(BM_AllocFreeNoPool)->Apply(alloc_sizes);
BENCHMARK(BM_AllocFreePoolRaw)->Apply(pool_sizes);
BENCHMARK(BM_AllocFreePoolRawSynced)->Apply(pool_sizes);
BENCHMARK(BM_AllocFreeAsync)->Apply(pool_sizes);
BENCHMARK(BM_H2D_Pinned)->Apply(host_copy_sizes);
BENCHMARK(BM_H2D_Pageable)->Apply(host_copy_sizes);
BENCHMARK(BM_H2D_PageableRawSynced)->Apply(small_copy_sizes);
BENCHMARK(BM_D2H_Pinned)->Apply(host_copy_sizes);
BENCHMARK(BM_D2H_Pageable)->Apply(host_copy_sizes);
BENCHMARK(BM_HostToPinned)->Arg(256 * kMiB)->UseManualTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_D2D)->Apply(copy_sizes);
BENCHMARK(BM_Memset)->Apply(copy_sizes);
BENCHMARK(BM_H2D_2D_Pinned)->Apply(rows_2d);
BENCHMARK(BM_H2D_2D_Pageable)->Apply(rows_2d);
BENCHMARK(BM_D2H_2D_Pinned)->Apply(rows_2d);
BENCHMARK(BM_D2H_2D_Pageable)->Apply(rows_2d);
BENCHMARK(BM_D2D_2D)->Apply(rows_2d);
BENCHMARK(BM_GrowVsReallocate)->Apply(grow_sizes);

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
