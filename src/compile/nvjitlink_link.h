// Linking with nvJitLink (a CPU library: no GPU or driver needed), and with
// the driver's cuLink (in a device's context, for its own architecture; every
// input kind but LTO-IR). Each turns the linker's refusals into dccuda's
// statuses and keeps its logs: the info log in the output, the error log in
// dc_last_error_detail().
#pragma once

#include <memory>

#include "compile/link_request.h"
#include "compile/program.h"

namespace dc {

class Device;

// nvJitLink must be loaded (require_nvjitlink).
std::shared_ptr<const CompiledOutput> run_nvjitlink(const LinkRequest& request);

// Fails with DC_ERROR_NOT_SUPPORTED for what cuLink cannot do (LTO, raw
// options), DC_ERROR_INVALID_ARGUMENT for another architecture than the
// device's.
void check_driver_can_link(const LinkRequest& request, const char* why_driver);
std::shared_ptr<const CompiledOutput> run_driver_link(const LinkRequest& request, Device& device);

}  // namespace dc
