// dccuda's own declaration of library_types.h's libraryPropertyType (the
// argument of cublasGetProperty, cufftGetProperty, ...): one declaration for
// every library that uses it. The list is library_types_declarations.inc;
// tests/cuda_abi checks it against the toolkit's library_types.h.
#pragma once

#include "loader/cuda_abi/declare_begin.h"
#ifdef DC_CUDA_ABI_CHECK
namespace dc_cuda_abi_ours {
#endif
#include "loader/cuda_abi/library_types_declarations.inc"
#ifdef DC_CUDA_ABI_CHECK
}  // namespace dc_cuda_abi_ours
#endif
#include "loader/cuda_abi/declare_end.h"
