// A compile request: dc_compile's arguments validated and copied, with the
// architecture resolved and the NVRTC argument list built. Everything the
// output depends on is in here, which is what the cache key hashes.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "dccuda.h"

namespace dc {

class Device;

struct CompileRequest {
  std::string source;
  std::string program_name;
  std::vector<std::string> header_names;
  std::vector<std::string> header_sources;
  std::vector<std::string> name_expressions;
  std::vector<std::string> include_paths;   // also inside `args`; kept for the cache key's include scan
  std::vector<std::string> args;            // the NVRTC options, in order
  int32_t output = DC_OUTPUT_CUBIN;
  int32_t arch = 0;                         // resolved; 0 = NVRTC's default
  uint32_t flags = 0;                       // DC_COMPILE_*
};

// The first published size of dc_compile_options.
constexpr uint32_t kCompileOptionsV1Size = sizeof(dc_compile_options);

// Validates dc_compile's arguments (failing with DC_ERROR_INVALID_ARGUMENT
// naming the bad one) and builds the request. Needs NVRTC (to resolve the
// architecture): fails with DC_ERROR_NO_COMPILER without it.
CompileRequest make_compile_request(const char* source, const char* program_name, const dc_compile_options* options,
                                    const Device* device);

}  // namespace dc
