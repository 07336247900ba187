// NCCL's results as dccuda statuses: a failed NCCL call becomes a Failure
// whose message quotes NCCL's own (ncclGetErrorString, and ncclGetLastError's
// detail where the library has it).
#pragma once

#include "loader/cuda_abi/nccl_abi.h"

#include "dccuda.h"

namespace dc {

// The dccuda status for an NCCL result: InvalidArgument -> INVALID_ARGUMENT,
// InvalidUsage -> INVALID_STATE, every other failure -> DC_ERROR_DRIVER.
dc_status nccl_status(ncclResult_t result) noexcept;

// Throws unless `result` is ncclSuccess: "<what> failed: NCCL <n> (<string>): <last error>".
// `comm` may be null (calls without a communicator).
void check_nccl(ncclResult_t result, ncclComm_t comm, const char* what);

}  // namespace dc
