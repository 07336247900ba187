// dccuda's own declarations of the CUDA driver ABI it uses: the types,
// constants and structures, and the function-pointer type of every entry
// point at the CUDA version whose signature the code calls
// (PFN_<name>_v<version>, cudaTypedefs.h's names). With these, dccuda, its
// fake driver and its tests build without the CUDA toolkit.
//
// The names are cuda.h's, so that code reads as it would with cuda.h. Never
// include this header and cuda.h in one file.
//
// What is declared lives in lists beside this header, one macro per line:
//   driver_types.inc         scalars, opaque handles, callbacks
//   driver_enums.inc         enumerations (only the enumerators dccuda uses)
//   driver_structs.inc       structures and unions, every field
//   driver_constants.inc     the constants cuda.h defines as macros
//   driver_entry_points.inc  PFN_<name>_v<version> of every entry point
// This header expands the lists into declarations; tests/cuda_abi expands the
// same lists into checks against the real cuda.h and cudaTypedefs.h (sizes,
// alignment, offsets and types of every field, every value, the exact
// function-pointer types), so no declaration escapes the check. The check runs
// wherever the toolkit is installed. The values follow the CUDA 13.0 headers.
//
// To use something new of the driver API: add it to the right list (copy
// the declaration from cuda.h / cudaTypedefs.h), build with the toolkit
// installed, and let the check confirm it.
#pragma once

#include <cstddef>
#include <cstdint>

static_assert(sizeof(void*) == 8, "dccuda's CUDA declarations are for 64-bit platforms, as is the CUDA driver");

// The calling conventions of the driver's functions and callbacks (cuda.h's).
#ifdef _WIN32
#define CUDAAPI __stdcall
#define CUDA_CB __stdcall
#else
#define CUDAAPI
#define CUDA_CB
#endif

#include "loader/cuda_abi/declare_begin.h"
#ifdef DC_CUDA_ABI_CHECK
namespace dc_cuda_abi_ours {
#endif
#include "loader/cuda_abi/driver_types.inc"
#include "loader/cuda_abi/driver_enums.inc"
#include "loader/cuda_abi/driver_structs.inc"
#include "loader/cuda_abi/driver_constants.inc"
#include "loader/cuda_abi/driver_entry_points.inc"
#ifdef DC_CUDA_ABI_CHECK
}  // namespace dc_cuda_abi_ours
#endif
#include "loader/cuda_abi/declare_end.h"

// After the lists, never before: their names must not be renamed while they
// are expanded.
#ifndef DC_CUDA_ABI_CHECK
#include "loader/cuda_abi/driver_symbols.h"
#endif
