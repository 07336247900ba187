// Prototypes of the driver's entry points under the names the driver exports
// (cuMemAlloc is cuMemAlloc_v2, driver_symbols.h), with C linkage, for the
// current signature of each (DC_CU_ENTRY in driver_entry_points.inc).
//
// For the fake driver only, which defines these functions: a definition that
// disagrees with its prototype does not compile. The library never declares a
// driver function: it resolves them all at run time (loader/driver.h).
#pragma once

#include "loader/cuda_abi/driver_abi.h"

#define DC_CU_ENTRY(name, version, params) extern "C" CUresult CUDAAPI name params;
#define DC_CU_ENTRY_OLDER(name, version, params)
#include "loader/cuda_abi/driver_entry_points.inc"
#undef DC_CU_ENTRY
#undef DC_CU_ENTRY_OLDER
