// The fake driver's 2D and 3D copies (cuMemcpy3DAsync, cuMemcpy3DPeerAsync)
// and 2D fills (cuMemsetD2D*Async): a test double, never a GPU. They move
// real bytes, row by row, so tests check data. As the driver does, the
// parameters are refused (CUDA_ERROR_INVALID_VALUE) when a row runs past its
// pitch or a plane past its height; and, as the fake's other copies do, when
// any device-side row leaves the live allocation it starts in, before any
// byte moves. CUDA arrays are not emulated (refused).
#include <cstring>

#include "fake_memory.h"

namespace fake {
namespace {

// One side of a copy, reduced to a base address and a layout.
struct Side {
  uintptr_t base = 0;  // the address of byte (0, 0, 0), X offset included
  bool device = false;  // rows must lie in live allocations
  bool host_or_unified = false;  // a unified address: checked only inside allocations
  size_t pitch = 0;
  size_t rows_per_plane = 0;  // 0: only one plane is addressed
  Context* ctx = nullptr;     // the peer copy's context (nullptr: not checked)
};

uintptr_t row_address(const Side& s, size_t y, size_t z) {
  return s.base + (z * s.rows_per_plane + y) * s.pitch;
}

// Reads the side of a CUDA_MEMCPY3D(_PEER): the layout checks the driver
// makes on the parameters.
template <class Params>
bool read_side(CUmemorytype type, const void* host, CUdeviceptr device, CUarray array, size_t x, size_t y, size_t z,
               size_t lod, size_t pitch, size_t height, const Params& p, Side* out) {
  if (array || lod != 0) return false;
  if (type == CU_MEMORYTYPE_HOST) {
    if (!host) return false;
    out->base = reinterpret_cast<uintptr_t>(host);
  } else if (type == CU_MEMORYTYPE_DEVICE || type == CU_MEMORYTYPE_UNIFIED) {
    if (!device) return false;
    out->base = static_cast<uintptr_t>(device);
    out->device = type == CU_MEMORYTYPE_DEVICE;
  } else {
    return false;
  }
  out->host_or_unified = !out->device;
  // A row must fit in its pitch; planes need a height that holds the rows.
  if (x > pitch || p.WidthInBytes > pitch - x) return false;
  if (p.Depth > 1 && (height < y || p.Height > height - y)) return false;
  out->pitch = pitch;
  out->rows_per_plane = p.Depth > 1 ? height : 0;
  out->base += (z * out->rows_per_plane + y) * pitch + x;
  return true;
}

bool row_ok(const Side& s, uintptr_t at, size_t n, bool write) {
  if (n == 0) return true;
  if (at + n < at) return false;
  Allocation* a = allocation_containing(at);
  if (!a) return s.host_or_unified;  // host memory outside every allocation
  if (!find_allocation(at, n)) return false;
  if (s.ctx && a->ctx != s.ctx) return false;
  if (write && a->kind == MemKind::Registered && (a->flags & CU_MEMHOSTREGISTER_READ_ONLY)) return false;
  return true;
}

template <class Params>
CUresult copy_3d(const Params& p, const Side& src, const Side& dst, CUstream hStream, const char* entry) {
  size_t depth = p.Depth, height = p.Height, width = p.WidthInBytes;
  if (width == 0 || height == 0 || depth == 0) return CUDA_ERROR_INVALID_VALUE;
  for (size_t z = 0; z < depth; ++z)
    for (size_t y = 0; y < height; ++y)
      if (!row_ok(src, row_address(src, y, z), width, false) || !row_ok(dst, row_address(dst, y, z), width, true))
        return CUDA_ERROR_INVALID_VALUE;
  Stream* s = nullptr;
  if (CUresult r = stream_for_work(hStream, &s)) return r;
  return enqueue(s, entry, [=] {
    for (size_t z = 0; z < depth; ++z)
      for (size_t y = 0; y < height; ++y)
        std::memmove(reinterpret_cast<void*>(row_address(dst, y, z)),
                     reinterpret_cast<const void*>(row_address(src, y, z)), width);
    return CUDA_SUCCESS;
  });
}

template <class T>
CUresult fill_2d(CUdeviceptr dst, size_t pitch, T value, size_t width, size_t height, CUstream hStream,
                 const char* entry) {
  if (dst % sizeof(T) != 0 || (height > 1 && pitch % sizeof(T) != 0)) return CUDA_ERROR_INVALID_VALUE;
  if (width > SIZE_MAX / sizeof(T) || (height > 1 && width * sizeof(T) > pitch)) return CUDA_ERROR_INVALID_VALUE;
  Side side;
  side.device = true;
  for (size_t y = 0; y < height; ++y)
    if (!row_ok(side, static_cast<uintptr_t>(dst) + y * pitch, width * sizeof(T), true)) return CUDA_ERROR_INVALID_VALUE;
  Stream* s = nullptr;
  if (CUresult r = stream_for_work(hStream, &s)) return r;
  return enqueue(s, entry, [=] {
    for (size_t y = 0; y < height; ++y) {
      T* row = reinterpret_cast<T*>(static_cast<uintptr_t>(dst) + y * pitch);
      for (size_t i = 0; i < width; ++i) row[i] = value;
    }
    return CUDA_SUCCESS;
  });
}

}  // namespace

CUresult make_copy_3d_work(const CUDA_MEMCPY3D* p, std::function<CUresult()>* work) {
  if (!p || p->reserved0 || p->reserved1) return CUDA_ERROR_INVALID_VALUE;
  Side src, dst;
  if (!read_side(p->srcMemoryType, p->srcHost, p->srcDevice, p->srcArray, p->srcXInBytes, p->srcY, p->srcZ,
                 p->srcLOD, p->srcPitch, p->srcHeight, *p, &src) ||
      !read_side(p->dstMemoryType, p->dstHost, p->dstDevice, p->dstArray, p->dstXInBytes, p->dstY, p->dstZ,
                 p->dstLOD, p->dstPitch, p->dstHeight, *p, &dst))
    return CUDA_ERROR_INVALID_VALUE;
  size_t depth = p->Depth, height = p->Height, width = p->WidthInBytes;
  if (width == 0 || height == 0 || depth == 0) return CUDA_ERROR_INVALID_VALUE;
  // Now: every row in live memory, or in graph memory (there when the graph runs).
  for (size_t z = 0; z < depth; ++z)
    for (size_t y = 0; y < height; ++y) {
      uintptr_t from = row_address(src, y, z), to = row_address(dst, y, z);
      if ((!row_ok(src, from, width, false) && !graph_range_ok(from, width)) ||
          (!row_ok(dst, to, width, true) && !graph_range_ok(to, width)))
        return CUDA_ERROR_INVALID_VALUE;
    }
  *work = [=] {
    // At replay: every row in live memory, or the "device" faults.
    for (size_t z = 0; z < depth; ++z)
      for (size_t y = 0; y < height; ++y)
        if (!row_ok(src, row_address(src, y, z), width, false) || !row_ok(dst, row_address(dst, y, z), width, true))
          return CUDA_ERROR_ILLEGAL_ADDRESS;
    for (size_t z = 0; z < depth; ++z)
      for (size_t y = 0; y < height; ++y)
        std::memmove(reinterpret_cast<void*>(row_address(dst, y, z)),
                     reinterpret_cast<const void*>(row_address(src, y, z)), width);
    return CUDA_SUCCESS;
  };
  return CUDA_SUCCESS;
}

}  // namespace fake

using namespace fake;

#define FAKE_LOCKED std::lock_guard<std::recursive_mutex> fake_guard_(lock())

CUresult CUDAAPI cuMemcpy3DAsync(const CUDA_MEMCPY3D* p, CUstream hStream) {
  FAKE_ENTER(cuMemcpy3DAsync);
  FAKE_REQUIRE_CONTEXT();
  FAKE_LOCKED;
  if (!p || p->reserved0 || p->reserved1) return CUDA_ERROR_INVALID_VALUE;
  Side src, dst;
  if (!read_side(p->srcMemoryType, p->srcHost, p->srcDevice, p->srcArray, p->srcXInBytes, p->srcY, p->srcZ,
                 p->srcLOD, p->srcPitch, p->srcHeight, *p, &src) ||
      !read_side(p->dstMemoryType, p->dstHost, p->dstDevice, p->dstArray, p->dstXInBytes, p->dstY, p->dstZ,
                 p->dstLOD, p->dstPitch, p->dstHeight, *p, &dst))
    return CUDA_ERROR_INVALID_VALUE;
  return copy_3d(*p, src, dst, hStream, "cuMemcpy3DAsync");
}
FAKE_EXPORT(cuMemcpy3DAsync, 3020)

CUresult CUDAAPI cuMemcpy3DPeerAsync(const CUDA_MEMCPY3D_PEER* p, CUstream hStream) {
  FAKE_ENTER(cuMemcpy3DPeerAsync);
  FAKE_REQUIRE_CONTEXT();
  FAKE_LOCKED;
  if (!p) return CUDA_ERROR_INVALID_VALUE;
  Side src, dst;
  if (!read_side(p->srcMemoryType, p->srcHost, p->srcDevice, p->srcArray, p->srcXInBytes, p->srcY, p->srcZ,
                 p->srcLOD, p->srcPitch, p->srcHeight, *p, &src) ||
      !read_side(p->dstMemoryType, p->dstHost, p->dstDevice, p->dstArray, p->dstXInBytes, p->dstY, p->dstZ,
                 p->dstLOD, p->dstPitch, p->dstHeight, *p, &dst))
    return CUDA_ERROR_INVALID_VALUE;
  // Device memory must belong to the context named for it.
  if ((src.device && !p->srcContext) || (dst.device && !p->dstContext)) return CUDA_ERROR_INVALID_VALUE;
  src.ctx = src.device ? reinterpret_cast<Context*>(p->srcContext) : nullptr;
  dst.ctx = dst.device ? reinterpret_cast<Context*>(p->dstContext) : nullptr;
  return copy_3d(*p, src, dst, hStream, "cuMemcpy3DPeerAsync");
}
FAKE_EXPORT(cuMemcpy3DPeerAsync, 4000)

CUresult CUDAAPI cuMemsetD2D8Async(CUdeviceptr dst, size_t pitch, unsigned char value, size_t width, size_t height,
                                   CUstream hStream) {
  FAKE_ENTER(cuMemsetD2D8Async);
  FAKE_REQUIRE_CONTEXT();
  FAKE_LOCKED;
  return fill_2d<uint8_t>(dst, pitch, value, width, height, hStream, "cuMemsetD2D8Async");
}
FAKE_EXPORT(cuMemsetD2D8Async, 3020)

CUresult CUDAAPI cuMemsetD2D16Async(CUdeviceptr dst, size_t pitch, unsigned short value, size_t width, size_t height,
                                    CUstream hStream) {
  FAKE_ENTER(cuMemsetD2D16Async);
  FAKE_REQUIRE_CONTEXT();
  FAKE_LOCKED;
  return fill_2d<uint16_t>(dst, pitch, value, width, height, hStream, "cuMemsetD2D16Async");
}
FAKE_EXPORT(cuMemsetD2D16Async, 3020)

CUresult CUDAAPI cuMemsetD2D32Async(CUdeviceptr dst, size_t pitch, unsigned int value, size_t width, size_t height,
                                    CUstream hStream) {
  FAKE_ENTER(cuMemsetD2D32Async);
  FAKE_REQUIRE_CONTEXT();
  FAKE_LOCKED;
  return fill_2d<uint32_t>(dst, pitch, value, width, height, hStream, "cuMemsetD2D32Async");
}
FAKE_EXPORT(cuMemsetD2D32Async, 3020)

// The synchronous 2D copy (the raw side of the benchmarks): a 3D copy of
// depth 1 on the legacy stream, which runs at once here.
CUresult CUDAAPI cuMemcpy2D(const CUDA_MEMCPY2D* p) {
  FAKE_ENTER(cuMemcpy2D);
  FAKE_REQUIRE_CONTEXT();
  FAKE_LOCKED;
  if (!p) return CUDA_ERROR_INVALID_VALUE;
  CUDA_MEMCPY3D q{};
  q.srcXInBytes = p->srcXInBytes;
  q.srcY = p->srcY;
  q.srcMemoryType = p->srcMemoryType;
  q.srcHost = p->srcHost;
  q.srcDevice = p->srcDevice;
  q.srcArray = p->srcArray;
  q.srcPitch = p->srcPitch;
  q.dstXInBytes = p->dstXInBytes;
  q.dstY = p->dstY;
  q.dstMemoryType = p->dstMemoryType;
  q.dstHost = p->dstHost;
  q.dstDevice = p->dstDevice;
  q.dstArray = p->dstArray;
  q.dstPitch = p->dstPitch;
  q.WidthInBytes = p->WidthInBytes;
  q.Height = p->Height;
  q.Depth = 1;
  Side src, dst;
  if (!read_side(q.srcMemoryType, q.srcHost, q.srcDevice, q.srcArray, q.srcXInBytes, q.srcY, 0, 0, q.srcPitch, 0, q,
                 &src) ||
      !read_side(q.dstMemoryType, q.dstHost, q.dstDevice, q.dstArray, q.dstXInBytes, q.dstY, 0, 0, q.dstPitch, 0, q,
                 &dst))
    return CUDA_ERROR_INVALID_VALUE;
  return copy_3d(q, src, dst, CU_STREAM_LEGACY, "cuMemcpy2D");
}
FAKE_EXPORT(cuMemcpy2D, 3020)
