// Running NVRTC on a request: the compile itself, without any caching.
#pragma once

#include <memory>
#include <string>

#include "compile/compile_request.h"
#include "compile/program.h"

namespace dc {

// Compiles `request` with NVRTC. On failure the whole log goes to
// dc_last_error_detail() and the first error line into the message
// (DC_ERROR_COMPILE; DC_ERROR_INVALID_ARGUMENT for an option NVRTC rejects).
std::shared_ptr<const CompiledOutput> run_nvrtc(const CompileRequest& request);

// The line of a compiler log that best says what went wrong: the first one
// that mentions an error, else the first non-empty one.
std::string first_error_line(const std::string& log);

}  // namespace dc
