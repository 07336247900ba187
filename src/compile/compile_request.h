// A compile request: dc_compile's arguments validated and copied, with the
// architecture chosen and the NVRTC options built. Everything the output
// depends on is in here, which is what the cache key hashes. Making one does
// not load NVRTC, so that a cache hit never pays for loading it.
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
  std::vector<std::string> include_paths;   // also inside `options`; kept for the cache key's include scan
  std::vector<std::string> options;         // the NVRTC options but the architecture, in order
  int32_t output = DC_OUTPUT_CUBIN;
  int32_t arch = 0;                         // 10 * major + minor; 0 = NVRTC's default
  bool arch_specific = false;               // sm_XYa
  int32_t device_ordinal = -1;              // the device that chose `arch` (options->arch was 0), else -1
  uint32_t flags = 0;                       // DC_COMPILE_*

  // The whole NVRTC argument list: the architecture, then `options`.
  std::vector<std::string> nvrtc_args() const;
};

// The first published size of dc_compile_options.
constexpr uint32_t kCompileOptionsV1Size = sizeof(dc_compile_options);

// Validates dc_compile's arguments (failing with DC_ERROR_INVALID_ARGUMENT
// naming the bad one) and builds the request. Does not need NVRTC: whether
// NVRTC can target the architecture is settled before it compiles
// (settle_arch in arch.h).
CompileRequest make_compile_request(const char* source, const char* program_name, const dc_compile_options* options,
                                    const Device* device);

}  // namespace dc
