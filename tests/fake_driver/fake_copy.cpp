// The fake driver's copies and fills (a test double, never a GPU). Every
// device-side range must lie inside one live allocation, else the call fails
// with CUDA_ERROR_INVALID_VALUE before any byte moves: a bounds bug in dccuda
// fails a test instead of corrupting memory. Asynchronous variants run at once
// as stream work (fake_memory.h: enqueue), or later on a held stream
// (dcfake_hold_stream), checking their ranges again when they run.
#include <cstring>
#include <vector>

#include "fake_memory.h"

namespace fake {
namespace {

// A device-side range the device may read.
bool readable(CUdeviceptr p, size_t n) { return n == 0 || device_range_ok(p, n); }

// A device-side range the device may write: not memory registered read-only.
bool writable(CUdeviceptr p, size_t n) {
  if (n == 0) return true;
  Allocation* a = find_allocation(static_cast<uintptr_t>(p), n);
  return a && !(a->kind == MemKind::Registered && (a->flags & CU_MEMHOSTREGISTER_READ_ONLY));
}

// A unified address (cuMemcpy): inside an allocation, the whole range must
// fit in it; outside every allocation it is ordinary host memory.
bool unified_ok(uintptr_t p, size_t n, bool write) {
  if (n == 0) return true;
  if (!p) return false;
  if (!allocation_containing(p)) return true;
  return write ? writable(static_cast<CUdeviceptr>(p), n) : readable(static_cast<CUdeviceptr>(p), n);
}

void* host(CUdeviceptr p) { return reinterpret_cast<void*>(static_cast<uintptr_t>(p)); }

CUresult copy(void* dst, const void* src, size_t n) {
  if (n) std::memmove(dst, src, n);
  return CUDA_SUCCESS;
}

template <class T>
CUresult fill(CUdeviceptr dst, T value, size_t count) {
  if (dst % sizeof(T) != 0) return CUDA_ERROR_INVALID_VALUE;
  if (count > SIZE_MAX / sizeof(T) || !writable(dst, count * sizeof(T))) return CUDA_ERROR_INVALID_VALUE;
  T* p = static_cast<T*>(host(dst));
  for (size_t i = 0; i < count; ++i) p[i] = value;
  return CUDA_SUCCESS;
}

// Checks a peer copy's contexts against the allocations' own.
bool peer_ok(CUdeviceptr dst, CUcontext dst_ctx, CUdeviceptr src, CUcontext src_ctx, size_t n) {
  if (n == 0) return true;
  Allocation* d = find_allocation(static_cast<uintptr_t>(dst), n);
  Allocation* s = find_allocation(static_cast<uintptr_t>(src), n);
  if (!d || !s || !writable(dst, n)) return false;
  return reinterpret_cast<CUcontext>(d->ctx) == dst_ctx && reinterpret_cast<CUcontext>(s->ctx) == src_ctx;
}

// Runs `work` on `hStream` as stream work (the async variants).
template <class Work>
CUresult on_stream(CUstream hStream, const char* entry, Work&& work) {
  Stream* s = nullptr;
  if (CUresult r = stream_for_work(hStream, &s)) return r;
  return enqueue(s, entry, work);
}

}  // namespace
}  // namespace fake

using namespace fake;

#define FAKE_LOCKED std::lock_guard<std::recursive_mutex> fake_guard_(lock())

// ---------------------------------------------------------------------------
// Synchronous copies

CUresult CUDAAPI cuMemcpy(CUdeviceptr dst, CUdeviceptr src, size_t n) {
  FAKE_ENTER(cuMemcpy);
  FAKE_REQUIRE_CONTEXT();
  FAKE_LOCKED;
  if (!unified_ok(dst, n, true) || !unified_ok(src, n, false)) return CUDA_ERROR_INVALID_VALUE;
  return copy(host(dst), host(src), n);
}
FAKE_EXPORT(cuMemcpy, 4000)

CUresult CUDAAPI cuMemcpyHtoD(CUdeviceptr dst, const void* src, size_t n) {
  FAKE_ENTER(cuMemcpyHtoD);
  FAKE_REQUIRE_CONTEXT();
  FAKE_LOCKED;
  if (!writable(dst, n) || (n && !src)) return CUDA_ERROR_INVALID_VALUE;
  return copy(host(dst), src, n);
}
FAKE_EXPORT(cuMemcpyHtoD, 3020)

CUresult CUDAAPI cuMemcpyDtoH(void* dst, CUdeviceptr src, size_t n) {
  FAKE_ENTER(cuMemcpyDtoH);
  FAKE_REQUIRE_CONTEXT();
  FAKE_LOCKED;
  if (!readable(src, n) || (n && !dst)) return CUDA_ERROR_INVALID_VALUE;
  return copy(dst, host(src), n);
}
FAKE_EXPORT(cuMemcpyDtoH, 3020)

CUresult CUDAAPI cuMemcpyDtoD(CUdeviceptr dst, CUdeviceptr src, size_t n) {
  FAKE_ENTER(cuMemcpyDtoD);
  FAKE_REQUIRE_CONTEXT();
  FAKE_LOCKED;
  if (!writable(dst, n) || !readable(src, n)) return CUDA_ERROR_INVALID_VALUE;
  return copy(host(dst), host(src), n);
}
FAKE_EXPORT(cuMemcpyDtoD, 3020)

CUresult CUDAAPI cuMemcpyPeer(CUdeviceptr dst, CUcontext dstCtx, CUdeviceptr src, CUcontext srcCtx, size_t n) {
  FAKE_ENTER(cuMemcpyPeer);
  FAKE_REQUIRE_CONTEXT();
  FAKE_LOCKED;
  if (!dstCtx || !srcCtx || !peer_ok(dst, dstCtx, src, srcCtx, n)) return CUDA_ERROR_INVALID_VALUE;
  return copy(host(dst), host(src), n);
}
FAKE_EXPORT(cuMemcpyPeer, 4000)

// ---------------------------------------------------------------------------
// Asynchronous copies

CUresult CUDAAPI cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src, size_t n, CUstream hStream) {
  FAKE_ENTER(cuMemcpyAsync);
  FAKE_REQUIRE_CONTEXT();
  FAKE_LOCKED;
  if (!unified_ok(dst, n, true) || !unified_ok(src, n, false)) return CUDA_ERROR_INVALID_VALUE;
  // Checked again when it runs: held work (dcfake_hold_stream) may find its memory freed.
  bool dst_dev = allocation_containing(dst) != nullptr, src_dev = allocation_containing(src) != nullptr;
  return on_stream(hStream, "cuMemcpyAsync", [=] {
    if ((dst_dev && !writable(dst, n)) || (src_dev && !readable(src, n))) return CUDA_ERROR_INVALID_VALUE;
    return copy(host(dst), host(src), n);
  });
}
FAKE_EXPORT(cuMemcpyAsync, 4000)

CUresult CUDAAPI cuMemcpyHtoDAsync(CUdeviceptr dst, const void* src, size_t n, CUstream hStream) {
  FAKE_ENTER(cuMemcpyHtoDAsync);
  FAKE_REQUIRE_CONTEXT();
  FAKE_LOCKED;
  if (!writable(dst, n) || (n && !src)) return CUDA_ERROR_INVALID_VALUE;
  return on_stream(hStream, "cuMemcpyHtoDAsync",
                   [=] { return writable(dst, n) ? copy(host(dst), src, n) : CUDA_ERROR_INVALID_VALUE; });
}
FAKE_EXPORT(cuMemcpyHtoDAsync, 3020)

CUresult CUDAAPI cuMemcpyDtoHAsync(void* dst, CUdeviceptr src, size_t n, CUstream hStream) {
  FAKE_ENTER(cuMemcpyDtoHAsync);
  FAKE_REQUIRE_CONTEXT();
  FAKE_LOCKED;
  if (!readable(src, n) || (n && !dst)) return CUDA_ERROR_INVALID_VALUE;
  return on_stream(hStream, "cuMemcpyDtoHAsync",
                   [=] { return readable(src, n) ? copy(dst, host(src), n) : CUDA_ERROR_INVALID_VALUE; });
}
FAKE_EXPORT(cuMemcpyDtoHAsync, 3020)

CUresult CUDAAPI cuMemcpyDtoDAsync(CUdeviceptr dst, CUdeviceptr src, size_t n, CUstream hStream) {
  FAKE_ENTER(cuMemcpyDtoDAsync);
  FAKE_REQUIRE_CONTEXT();
  FAKE_LOCKED;
  if (!writable(dst, n) || !readable(src, n)) return CUDA_ERROR_INVALID_VALUE;
  return on_stream(hStream, "cuMemcpyDtoDAsync", [=] {
    return writable(dst, n) && readable(src, n) ? copy(host(dst), host(src), n) : CUDA_ERROR_INVALID_VALUE;
  });
}
FAKE_EXPORT(cuMemcpyDtoDAsync, 3020)

CUresult CUDAAPI cuMemcpyPeerAsync(CUdeviceptr dst, CUcontext dstCtx, CUdeviceptr src, CUcontext srcCtx, size_t n,
                                   CUstream hStream) {
  FAKE_ENTER(cuMemcpyPeerAsync);
  FAKE_REQUIRE_CONTEXT();
  FAKE_LOCKED;
  if (!dstCtx || !srcCtx || !peer_ok(dst, dstCtx, src, srcCtx, n)) return CUDA_ERROR_INVALID_VALUE;
  return on_stream(hStream, "cuMemcpyPeerAsync", [=] {
    return peer_ok(dst, dstCtx, src, srcCtx, n) ? copy(host(dst), host(src), n) : CUDA_ERROR_INVALID_VALUE;
  });
}
FAKE_EXPORT(cuMemcpyPeerAsync, 4000)

// The batch of CUDA 13.0 (cuMemcpyBatchAsync_v2): the rules the real one
// states (attributes: the first index 0, each above the one before, below
// count; a valid source access order; not the legacy stream) are checked, and
// every range before any byte moves; the copies then run as one piece of
// stream work (in index order: the real driver promises no order).
CUresult CUDAAPI cuMemcpyBatchAsync(CUdeviceptr* dsts, CUdeviceptr* srcs, size_t* sizes, size_t count,
                                    CUmemcpyAttributes* attrs, size_t* attrsIdxs, size_t numAttrs, CUstream hStream) {
  FAKE_ENTER(cuMemcpyBatchAsync);
  FAKE_REQUIRE_CONTEXT();
  FAKE_LOCKED;
  if (count == 0 || !dsts || !srcs || !sizes || !attrs || !attrsIdxs || numAttrs == 0 || numAttrs > count)
    return CUDA_ERROR_INVALID_VALUE;
  if (hStream == nullptr || hStream == CU_STREAM_LEGACY) return CUDA_ERROR_INVALID_VALUE;
  for (size_t a = 0; a < numAttrs; ++a) {
    if (a == 0 ? attrsIdxs[0] != 0 : attrsIdxs[a] <= attrsIdxs[a - 1]) return CUDA_ERROR_INVALID_VALUE;
    if (attrsIdxs[a] >= count) return CUDA_ERROR_INVALID_VALUE;
    int order = static_cast<int>(attrs[a].srcAccessOrder);
    if (order < 1 || order > 3) return CUDA_ERROR_INVALID_VALUE;
  }
  std::vector<CUdeviceptr> to(dsts, dsts + count), from(srcs, srcs + count);
  std::vector<size_t> n(sizes, sizes + count);
  for (size_t i = 0; i < count; ++i)
    if (!unified_ok(to[i], n[i], true) || !unified_ok(from[i], n[i], false)) return CUDA_ERROR_INVALID_VALUE;
  return on_stream(hStream, "cuMemcpyBatchAsync", [=] {
    for (size_t i = 0; i < to.size(); ++i)
      if (!unified_ok(to[i], n[i], true) || !unified_ok(from[i], n[i], false)) return CUDA_ERROR_INVALID_VALUE;
    for (size_t i = 0; i < to.size(); ++i) copy(host(to[i]), host(from[i]), n[i]);
    return CUDA_SUCCESS;
  });
}
FAKE_EXPORT(cuMemcpyBatchAsync, 13000)

// ---------------------------------------------------------------------------
// Fills

CUresult CUDAAPI cuMemsetD8(CUdeviceptr dst, unsigned char value, size_t n) {
  FAKE_ENTER(cuMemsetD8);
  FAKE_REQUIRE_CONTEXT();
  FAKE_LOCKED;
  return fill<uint8_t>(dst, value, n);
}
FAKE_EXPORT(cuMemsetD8, 3020)

CUresult CUDAAPI cuMemsetD16(CUdeviceptr dst, unsigned short value, size_t n) {
  FAKE_ENTER(cuMemsetD16);
  FAKE_REQUIRE_CONTEXT();
  FAKE_LOCKED;
  return fill<uint16_t>(dst, value, n);
}
FAKE_EXPORT(cuMemsetD16, 3020)

CUresult CUDAAPI cuMemsetD32(CUdeviceptr dst, unsigned int value, size_t n) {
  FAKE_ENTER(cuMemsetD32);
  FAKE_REQUIRE_CONTEXT();
  FAKE_LOCKED;
  return fill<uint32_t>(dst, value, n);
}
FAKE_EXPORT(cuMemsetD32, 3020)

CUresult CUDAAPI cuMemsetD8Async(CUdeviceptr dst, unsigned char value, size_t n, CUstream hStream) {
  FAKE_ENTER(cuMemsetD8Async);
  FAKE_REQUIRE_CONTEXT();
  FAKE_LOCKED;
  return on_stream(hStream, "cuMemsetD8Async", [=] { return fill<uint8_t>(dst, value, n); });
}
FAKE_EXPORT(cuMemsetD8Async, 3020)

CUresult CUDAAPI cuMemsetD16Async(CUdeviceptr dst, unsigned short value, size_t n, CUstream hStream) {
  FAKE_ENTER(cuMemsetD16Async);
  FAKE_REQUIRE_CONTEXT();
  FAKE_LOCKED;
  return on_stream(hStream, "cuMemsetD16Async", [=] { return fill<uint16_t>(dst, value, n); });
}
FAKE_EXPORT(cuMemsetD16Async, 3020)

CUresult CUDAAPI cuMemsetD32Async(CUdeviceptr dst, unsigned int value, size_t n, CUstream hStream) {
  FAKE_ENTER(cuMemsetD32Async);
  FAKE_REQUIRE_CONTEXT();
  FAKE_LOCKED;
  return on_stream(hStream, "cuMemsetD32Async", [=] { return fill<uint32_t>(dst, value, n); });
}
FAKE_EXPORT(cuMemsetD32Async, 3020)
