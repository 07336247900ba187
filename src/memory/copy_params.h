// The driver's 3D copy parameters (CUDA_MEMCPY3D, CUDA_MEMCPY3D_PEER) for
// dccuda's 2D and 3D copies: one side at a time, from a buffer or a host
// pointer and a checked region (memory/region.h).
#pragma once

#include "loader/cuda_abi/driver_abi.h"

#include "memory/buffer.h"
#include "memory/region.h"

namespace dc {

// One side of a copy as the driver sees it.
struct CopySide {
  CUmemorytype type = CU_MEMORYTYPE_HOST;
  void* host = nullptr;       // CU_MEMORYTYPE_HOST: the region's first byte
  CUdeviceptr device = 0;     // otherwise: the region's first byte
  size_t pitch = 0;
  size_t rows_per_plane = 0;  // 0 with one plane (the driver allows it)
};

// Device memory as DEVICE, managed memory as UNIFIED, pinned and registered
// memory as HOST (the driver finds it is page-locked).
CopySide buffer_side(const Buffer& buffer, const Region& region, const Extent& extent) noexcept;
CopySide host_side(const void* host, const Region& region, const Extent& extent) noexcept;

CUDA_MEMCPY3D make_copy_3d(const CopySide& dst, const CopySide& src, const Extent& extent) noexcept;
CUDA_MEMCPY3D_PEER make_copy_3d_peer(const CopySide& dst, CUcontext dst_context, const CopySide& src,
                                     CUcontext src_context, const Extent& extent) noexcept;

}  // namespace dc
