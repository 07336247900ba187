#include "memory/copy_params.h"

#include <algorithm>

namespace dc {
namespace {

// A single row needs no pitch, but the driver still wants one of at least the width.
CopySide layout(CopySide side, const Region& region, const Extent& extent) noexcept {
  side.pitch = static_cast<size_t>(std::max(region.pitch, extent.width));
  side.rows_per_plane = extent.depth > 1 ? static_cast<size_t>(region.rows_per_plane) : 0;
  return side;
}

template <class Params>
void fill_sides(Params& p, const CopySide& dst, const CopySide& src, const Extent& extent) noexcept {
  p.srcMemoryType = src.type;
  p.srcHost = src.host;
  p.srcDevice = src.device;
  p.srcPitch = src.pitch;
  p.srcHeight = src.rows_per_plane;
  p.dstMemoryType = dst.type;
  p.dstHost = dst.host;
  p.dstDevice = dst.device;
  p.dstPitch = dst.pitch;
  p.dstHeight = dst.rows_per_plane;
  p.WidthInBytes = static_cast<size_t>(extent.width);
  p.Height = static_cast<size_t>(extent.height);
  p.Depth = static_cast<size_t>(extent.depth);
}

}  // namespace

CopySide buffer_side(const Buffer& buffer, const Region& region, const Extent& extent) noexcept {
  CopySide side;
  if (buffer.is_host()) {
    side.type = CU_MEMORYTYPE_HOST;
    side.host = static_cast<char*>(buffer.host_pointer()) + region.offset;
  } else {
    side.type = buffer.kind() == DC_BUFFER_MANAGED ? CU_MEMORYTYPE_UNIFIED : CU_MEMORYTYPE_DEVICE;
    side.device = buffer.address() + region.offset;
  }
  return layout(side, region, extent);
}

CopySide host_side(const void* host, const Region& region, const Extent& extent) noexcept {
  CopySide side;
  side.type = CU_MEMORYTYPE_HOST;
  side.host = const_cast<char*>(static_cast<const char*>(host)) + region.offset;
  return layout(side, region, extent);
}

CUDA_MEMCPY3D make_copy_3d(const CopySide& dst, const CopySide& src, const Extent& extent) noexcept {
  CUDA_MEMCPY3D p{};
  fill_sides(p, dst, src, extent);
  return p;
}

CUDA_MEMCPY3D_PEER make_copy_3d_peer(const CopySide& dst, CUcontext dst_context, const CopySide& src,
                                     CUcontext src_context, const Extent& extent) noexcept {
  CUDA_MEMCPY3D_PEER p{};
  fill_sides(p, dst, src, extent);
  p.dstContext = dst_context;
  p.srcContext = src_context;
  return p;
}

}  // namespace dc
