// The name -> exported symbol table of the driver entry points, as one set of
// macros makes it: check_cuda_abi.cpp builds cuda.h's, our_symbol_names.cpp
// dccuda's (driver_symbols.h). The two cannot be built in one file: both
// define macros of the same names.
#pragma once

#include <cstddef>

namespace cuda_abi_check {

struct SymbolName {
  const char* name;    // what the code writes: cuMemAlloc
  const char* symbol;  // what the macro makes of it: cuMemAlloc_v2
};

// dccuda's table, in the order of driver_entry_points.inc (current entries).
extern const SymbolName kOurSymbolNames[];
extern const std::size_t kOurSymbolNameCount;

}  // namespace cuda_abi_check

#define CUDA_ABI_CHECK_STR2(x) #x
#define CUDA_ABI_CHECK_STR(x) CUDA_ABI_CHECK_STR2(x)
