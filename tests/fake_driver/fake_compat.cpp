// The fake driver's legacy entry points that dccuda still calls on old
// drivers (a test double, never a GPU): the device-ordinal cuMemPrefetchAsync
// and cuMemAdvise of CUDA 8.0, which a 12.0 driver has instead of the
// location-based ones of 12.2, and cuEventElapsedTime of CUDA 2.0, which
// drivers before 12.8 have instead of cuEventElapsedTime_v2, and the
// edge calls of CUDA 10.0 (cuGraphAddDependencies, cuGraphGetEdges without
// edge data), which drivers before 12.3 have instead of the _v2 ones, and the
// cuMemcpyBatchAsync of CUDA 12.8 (with failIdx), which 12.8 and 12.9 drivers
// have instead of cuMemcpyBatchAsync_v2. They are exported
// under their plain names, as a real driver exports them: the macros of
// driver_symbols.h (cuda.h's), which rename these names to their _v2
// successors, are undone below.
#include "fake_memory.h"

#undef cuMemPrefetchAsync
#undef cuMemAdvise
#undef cuEventElapsedTime
#undef cuGraphAddDependencies
#undef cuGraphGetEdges
#undef cuMemcpyBatchAsync

extern "C" CUresult CUDAAPI cuGraphAddDependencies_v2(CUgraph, const CUgraphNode*, const CUgraphNode*,
                                                     const CUgraphEdgeData*, size_t);
extern "C" CUresult CUDAAPI cuMemcpyBatchAsync_v2(CUdeviceptr*, CUdeviceptr*, size_t*, size_t, CUmemcpyAttributes*, size_t*,
                                                 size_t, CUstream);
extern "C" CUresult CUDAAPI cuGraphGetEdges_v2(CUgraph, CUgraphNode*, CUgraphNode*, CUgraphEdgeData*, size_t*);

namespace {

// CU_DEVICE_CPU (-1) or a device ordinal, as CUDA 8.0 named locations.
CUmemLocation location_of(CUdevice device) {
  CUmemLocation loc;
  loc.type = device == CU_DEVICE_CPU ? CU_MEM_LOCATION_TYPE_HOST : CU_MEM_LOCATION_TYPE_DEVICE;
  loc.id = device == CU_DEVICE_CPU ? 0 : device;
  return loc;
}

}  // namespace

extern "C" CUresult CUDAAPI cuMemPrefetchAsync(CUdeviceptr devPtr, size_t count, CUdevice dstDevice,
                                               CUstream hStream) {
  FAKE_ENTER(cuMemPrefetchAsync_v8000);
  FAKE_REQUIRE_CONTEXT();
  return fake::prefetch(devPtr, count, location_of(dstDevice), hStream, "cuMemPrefetchAsync_v8000");
}
FAKE_EXPORT(cuMemPrefetchAsync, 8000)

extern "C" CUresult CUDAAPI cuMemAdvise(CUdeviceptr devPtr, size_t count, CUmem_advise advice, CUdevice device) {
  FAKE_ENTER(cuMemAdvise_v8000);
  FAKE_REQUIRE_CONTEXT();
  return fake::advise(devPtr, count, advice, location_of(device));
}
FAKE_EXPORT(cuMemAdvise, 8000)

extern "C" CUresult CUDAAPI cuEventElapsedTime(float* pMilliseconds, CUevent hStart, CUevent hEnd) {
  FAKE_ENTER(cuEventElapsedTime_v2000);
  FAKE_REQUIRE_CONTEXT();
  return fake::elapsed_time(pMilliseconds, hStart, hEnd);
}
FAKE_EXPORT(cuEventElapsedTime, 2000)

extern "C" CUresult CUDAAPI cuGraphAddDependencies(CUgraph hGraph, const CUgraphNode* from, const CUgraphNode* to,
                                                   size_t numDependencies) {
  FAKE_ENTER(cuGraphAddDependencies_v10000);
  return cuGraphAddDependencies_v2(hGraph, from, to, nullptr, numDependencies);
}
FAKE_EXPORT(cuGraphAddDependencies, 10000)

extern "C" CUresult CUDAAPI cuGraphGetEdges(CUgraph hGraph, CUgraphNode* from, CUgraphNode* to, size_t* numEdges) {
  FAKE_ENTER(cuGraphGetEdges_v10000);
  return cuGraphGetEdges_v2(hGraph, from, to, nullptr, numEdges);
}
FAKE_EXPORT(cuGraphGetEdges, 10000)

// The batch of CUDA 12.8: as _v2, with failIdx SIZE_MAX (the fake refuses a
// batch only as a whole, naming no copy).
extern "C" CUresult CUDAAPI cuMemcpyBatchAsync(CUdeviceptr* dsts, CUdeviceptr* srcs, size_t* sizes, size_t count,
                                               CUmemcpyAttributes* attrs, size_t* attrsIdxs, size_t numAttrs,
                                               size_t* failIdx, CUstream hStream) {
  FAKE_ENTER(cuMemcpyBatchAsync_v12080);
  if (failIdx) *failIdx = SIZE_MAX;
  return cuMemcpyBatchAsync_v2(dsts, srcs, sizes, count, attrs, attrsIdxs, numAttrs, hStream);
}
FAKE_EXPORT(cuMemcpyBatchAsync, 12080)
