#include "libs/blas/blas_operands.h"

#include <cinttypes>
#include <string>

#include "core/error.h"

namespace dc {

uint32_t blas_element_size(int32_t type, const char* what) {
  switch (type) {
    case DC_BLAS_F32: return 4;
    case DC_BLAS_F64: return 8;
    case DC_BLAS_F16: return 2;
    case DC_BLAS_BF16: return 2;
  }
  fail(DC_ERROR_INVALID_ARGUMENT, "%s is %d; pass DC_BLAS_F32 (1), DC_BLAS_F64 (2), DC_BLAS_F16 (3) or DC_BLAS_BF16 (4)",
       what, type);
}

cudaDataType blas_cuda_type(int32_t type) {
  switch (type) {
    case DC_BLAS_F64: return CUDA_R_64F;
    case DC_BLAS_F16: return CUDA_R_16F;
    case DC_BLAS_BF16: return CUDA_R_16BF;
    default: return CUDA_R_32F;
  }
}

const char* blas_type_name(int32_t type) {
  switch (type) {
    case DC_BLAS_F32: return "DC_BLAS_F32";
    case DC_BLAS_F64: return "DC_BLAS_F64";
    case DC_BLAS_F16: return "DC_BLAS_F16";
    case DC_BLAS_BF16: return "DC_BLAS_BF16";
    default: return "an unknown type";
  }
}

void require_nonnegative(int64_t value, const char* what) {
  if (value < 0) fail(DC_ERROR_INVALID_ARGUMENT, "%s is %" PRId64 "; it must be 0 or more", what, value);
}

void require_positive(int64_t value, const char* what) {
  if (value < 1) fail(DC_ERROR_INVALID_ARGUMENT, "%s is %" PRId64 "; it must be 1 or more", what, value);
}

Pinned<Buffer> pin_operand(const Blas& blas, dc_buffer buffer, const char* what) {
  Pinned<Buffer> b = pin<Buffer>(buffer, what);
  b->check_usable();
  if (&b->device() != &blas.device())
    fail(DC_ERROR_INVALID_ARGUMENT, "%s is a buffer of device %d, the handle's device is %d; use a buffer of the "
         "handle's device", what, b->device().ordinal(), blas.device().ordinal());
  if (b->device_address() == 0)
    fail(DC_ERROR_INVALID_ARGUMENT, "%s is host memory the device cannot address; use device, managed or mapped "
         "pinned memory", what);
  return b;
}

// offset + elements * element, saturating: elements may approach 2^128 with
// sizes near 2^63, where the product would wrap to a small, "valid" end.
static unsigned __int128 bytes_end(uint64_t offset, unsigned __int128 elements, uint32_t element) {
  const unsigned __int128 most = ~static_cast<unsigned __int128>(0);
  if (elements > (most - offset) / element) return most;
  return offset + elements * element;
}

unsigned __int128 matrix_end(uint64_t offset, int64_t rows, int64_t cols, int64_t ld, int64_t stride,
                             int64_t batches, uint32_t element) {
  using u128 = unsigned __int128;
  // Each product is below 2^126 and there are three terms: no overflow here.
  u128 last = u128(uint64_t(batches - 1)) * u128(uint64_t(stride)) + u128(uint64_t(cols - 1)) * u128(uint64_t(ld)) +
              u128(uint64_t(rows));
  return bytes_end(offset, last, element);
}

unsigned __int128 vector_end(uint64_t offset, int64_t n, int64_t inc, uint32_t element) {
  using u128 = unsigned __int128;
  return bytes_end(offset, u128(uint64_t(n - 1)) * u128(uint64_t(inc)) + 1, element);
}

void require_within(const Buffer& buffer, unsigned __int128 end, const char* what, const char* shape) {
  uint64_t size = buffer.size();
  if (end <= size) [[likely]]
    return;
  std::string needed = end > UINT64_MAX ? std::string("more than 2^64") : std::to_string(static_cast<uint64_t>(end));
  fail(DC_ERROR_OUT_OF_RANGE, "%s needs %s bytes of its buffer (%s) but the buffer holds %" PRIu64 " bytes; "
       "check its offset, leading dimension, stride and the sizes", what, needed.c_str(), shape, size);
}

}  // namespace dc
