// The CUresults after which the driver refuses all further work in a context (illegal
// address, trap, ...): the "sticky" errors. One list, for the library (core/status.cpp maps
// them to DC_ERROR_CONTEXT_LOST and marks the device lost) and for the fake driver
// (tests/fake_driver breaks a context with them, as the real driver does). Needs only dccuda's own driver declarations.
#pragma once

#include "loader/cuda_abi/driver_abi.h"

// X(CUDA_ERROR_...) for each sticky error.
#define DC_FOR_EACH_STICKY_CUDA_ERROR(X)  \
  X(CUDA_ERROR_ILLEGAL_ADDRESS)           \
  X(CUDA_ERROR_LAUNCH_FAILED)             \
  X(CUDA_ERROR_HARDWARE_STACK_ERROR)      \
  X(CUDA_ERROR_ILLEGAL_INSTRUCTION)       \
  X(CUDA_ERROR_MISALIGNED_ADDRESS)        \
  X(CUDA_ERROR_INVALID_ADDRESS_SPACE)     \
  X(CUDA_ERROR_INVALID_PC)                \
  X(CUDA_ERROR_LAUNCH_TIMEOUT)            \
  X(CUDA_ERROR_ECC_UNCORRECTABLE)         \
  X(CUDA_ERROR_CONTEXT_IS_DESTROYED)      \
  X(CUDA_ERROR_TENSOR_MEMORY_LEAK)

namespace dc {

// True for a sticky CUresult.
constexpr bool is_sticky_cuda_result(int result) noexcept {
  switch (result) {
#define DC_STICKY_CASE(e) case e:
    DC_FOR_EACH_STICKY_CUDA_ERROR(DC_STICKY_CASE)
#undef DC_STICKY_CASE
    return true;
    default:
      return false;
  }
}

}  // namespace dc
