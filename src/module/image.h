// Module images: telling PTX, CUBIN, fatbin and LTO-IR apart, checking that a
// binary image lies within the bytes given (the driver is never told the
// size), making PTX NUL-terminated, and finding the kernels an image declares.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "module/ptx_parse.h"

namespace dc {

enum class ImageKind { Ptx, Cubin, Fatbin, LtoIr };

const char* image_kind_name(ImageKind kind) noexcept;

// An image ready for cuModuleLoadDataEx: `data` points into the caller's
// bytes, or into `owned` when PTX had to be NUL-terminated.
struct PreparedImage {
  ImageKind kind = ImageKind::Ptx;
  const void* data = nullptr;
  size_t size = 0;
  std::vector<uint8_t> owned;
};

// Detects the kind and checks the image; fails with DC_ERROR_INVALID_IMAGE
// (LTO-IR, a binary that is truncated or not an image at all).
PreparedImage prepare_image(const void* image, size_t size);

// The kernels the image declares (PTX `.entry`, CUBIN entry symbols, and the
// uncompressed members of a fatbin), with their parameter layouts where the
// image gives them.
std::vector<ImageKernel> image_kernels(const PreparedImage& image);

}  // namespace dc
