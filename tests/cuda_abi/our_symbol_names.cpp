// dccuda's name -> symbol table (see symbol_names.h): every current entry of
// driver_entry_points.inc, expanded with driver_symbols.h in effect.
#include "cuda_abi/symbol_names.h"

#include "loader/cuda_abi/driver_abi.h"

namespace cuda_abi_check {

const SymbolName kOurSymbolNames[] = {
#define DC_CU_ENTRY(name, version, params) {#name, CUDA_ABI_CHECK_STR(name)},
#define DC_CU_ENTRY_OLDER(name, version, params)
#include "loader/cuda_abi/driver_entry_points.inc"
#undef DC_CU_ENTRY
#undef DC_CU_ENTRY_OLDER
};
const std::size_t kOurSymbolNameCount = sizeof(kOurSymbolNames) / sizeof(kOurSymbolNames[0]);

}  // namespace cuda_abi_check
