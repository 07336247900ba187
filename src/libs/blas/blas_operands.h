// The checks every dc_blas call makes before cuBLAS sees its arguments:
// enums, sizes, leading dimensions, and each operand's last byte against its
// buffer, computed in 128 bits so that no product of 64-bit sizes overflows.
#pragma once

#include "loader/cuda_abi/cublas_abi.h"

#include <cstdint>

#include "core/handle_table.h"
#include "dccuda.h"
#include "libs/blas/blas_handle.h"
#include "memory/buffer.h"

namespace dc {

// Bytes of one element of a DC_BLAS_* type; fails naming `what` for another value.
uint32_t blas_element_size(int32_t type, const char* what);
cudaDataType blas_cuda_type(int32_t type);
const char* blas_type_name(int32_t type);

// Fails with DC_ERROR_INVALID_ARGUMENT unless `value` >= 0 (or >= 1 when `one`).
void require_nonnegative(int64_t value, const char* what);
void require_positive(int64_t value, const char* what);

// Pins `buffer` (named `what`: "A") and checks that it is on the handle's
// device and that the device can address it.
Pinned<Buffer> pin_operand(const Blas& blas, dc_buffer buffer, const char* what);

// The byte just past a matrix: offset + ((batches - 1) * stride + (cols - 1) * ld + rows) * element.
// rows, cols, batches >= 1; ld, stride >= 0 (checked by the caller).
unsigned __int128 matrix_end(uint64_t offset, int64_t rows, int64_t cols, int64_t ld, int64_t stride,
                             int64_t batches, uint32_t element);
// The byte just past a vector of n >= 1 elements with increment inc >= 1.
unsigned __int128 vector_end(uint64_t offset, int64_t n, int64_t inc, uint32_t element);

// Fails with DC_ERROR_OUT_OF_RANGE unless [.., end) lies in `buffer`:
// "B needs 4104 bytes (offset 8 + 1024 elements of 4 bytes) but its buffer holds 4096".
void require_within(const Buffer& buffer, unsigned __int128 end, const char* what, const char* shape);

// The device address of byte `offset` of `buffer` (checked to lie within it).
inline void* operand_address(const Buffer& buffer, uint64_t offset) noexcept {
  return reinterpret_cast<void*>(static_cast<uintptr_t>(buffer.device_address() + offset));
}

}  // namespace dc
