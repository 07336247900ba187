// The NCCL loader: optional, loaded at the first dc_comm_* / dc_nccl_* call
// that needs it: DCCUDA_NCCL_LIBRARY alone if given; else libnccl.so.2,
// looked for first in the folder that holds libdccuda, then by the system's
// search path, then in the toolkit's folders ($CUDA_HOME, $CUDA_PATH,
// /usr/local/cuda; lib64 and lib: the toolkit's own NCCL sits in lib). NCCL
// is Linux-only (there is no nccl.dll): on Windows the loader tries nothing
// and says so. Without it every NCCL call fails with DC_ERROR_NOT_SUPPORTED
// naming what was tried and how to provide the library.
#pragma once

#include "loader/cuda_abi/nccl_abi.h"

#include <cstdint>
#include <string>
#include <vector>

#include "dccuda.h"

namespace dc {

struct NcclApi {
#define DC_NCCL_FN(name, since) PFN_##name name = nullptr;
#include "loader/nccl_functions.inc"
#undef DC_NCCL_FN
};

struct NcclState {
  dc_status status = DC_ERROR_NOT_SUPPORTED;
  std::string message;   // why it is not usable, what to do
  std::string path;      // what was loaded
  int32_t version = 0;   // ncclGetVersion's code, as nccl_version_code() normalises it
  int32_t major = 0, minor = 0, patch = 0;
};

// Loads NCCL once (thread-safe) and reports the outcome.
const NcclState& nccl_state();

// Fails with DC_ERROR_NOT_SUPPORTED (the message names what was tried and how
// to provide the library) unless NCCL is usable.
const NcclApi& require_nccl();

// Fails with DC_ERROR_NOT_SUPPORTED unless the loaded NCCL has `fn` (an
// optional entry point, nccl_functions.inc): "`what` needs NCCL 2.18 or newer
// (ncclCommSplit); the NCCL loaded is 2.12.3 (<path>)".
void require_nccl_function(const void* fn, const char* fn_name, int32_t since, const char* what);

// NCCL_VERSION's two encodings (x*1000+y*100+z up to 2.8, x*10000+y*100+z
// from 2.9) decoded into {major, minor, patch}; also used by the tests.
void decode_nccl_version(int32_t code, int32_t* major, int32_t* minor, int32_t* patch) noexcept;

// The file names and folders looked at, in order (for the message and tests).
std::vector<std::string> nccl_candidates();

}  // namespace dc
