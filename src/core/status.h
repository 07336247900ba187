// Status names, and how a CUresult becomes a dc_status.
#pragma once

#include <cstdint>

#include "dccuda.h"

namespace dc {

const char* status_name(dc_status status) noexcept;

// The dc_status a CUresult maps to (DC_ERROR_DRIVER when nothing more specific fits).
dc_status status_from_cuda(int32_t cuda_result) noexcept;

// True for the errors after which the driver refuses all further work in the
// context (illegal address, trap, ...): the "sticky" errors.
bool is_sticky_cuda_error(int32_t cuda_result) noexcept;

// The name of a CUresult from dccuda's own table (core/cuda_result_names.inc): static,
// never NULL, the same on every driver; "CUDA_RESULT_UNKNOWN" for a value it lacks
// (dc_cuda_error_name).
const char* cuda_result_name(int32_t cuda_result) noexcept;

// The CUresult value the loader's stand-ins for missing entry points return.
// 1023 lies inside CUresult's value range and is unused by CUDA (its codes
// stop at 999).
constexpr int32_t kCudaMissingSymbol = 1023;

}  // namespace dc
