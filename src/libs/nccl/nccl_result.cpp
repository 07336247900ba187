#include "libs/nccl/nccl_result.h"

#include <string>

#include "core/error.h"
#include "loader/nccl.h"

namespace dc {

dc_status nccl_status(ncclResult_t result) noexcept {
  switch (result) {
    case ncclSuccess: return DC_SUCCESS;
    case ncclInvalidArgument: return DC_ERROR_INVALID_ARGUMENT;
    case ncclInvalidUsage: return DC_ERROR_INVALID_STATE;
    default: return DC_ERROR_DRIVER;
  }
}

void check_nccl(ncclResult_t result, ncclComm_t comm, const char* what) {
  if (result == ncclSuccess) [[likely]]
    return;
  const NcclApi& api = require_nccl();
  const char* name = api.ncclGetErrorString ? api.ncclGetErrorString(result) : nullptr;
  const char* last = api.ncclGetLastError ? api.ncclGetLastError(comm) : nullptr;
  std::string detail = last && *last ? std::string(": ") + last : std::string();
  const char* advice = result == ncclInvalidUsage
                           ? "; check that every rank issues the same calls in the same order, and group the calls "
                             "of several ranks made from one thread"
                           : result == ncclRemoteError || result == ncclSystemError
                                 ? "; a peer or the network failed: abort the communicator (dc_comm_abort) and build "
                                   "a new one; NCCL_DEBUG=WARN prints NCCL's own account"
                                 : "; NCCL_DEBUG=WARN prints NCCL's own account";
  fail(nccl_status(result), "%s failed: NCCL error %d (%s)%s%s", what, static_cast<int>(result),
       name ? name : "unknown", detail.c_str(), advice);
}

}  // namespace dc
