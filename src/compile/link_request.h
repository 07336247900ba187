// A link request: dc_link's arguments validated, every input's bytes in hand
// (read from its file or program), the architecture chosen. Everything the
// linked CUBIN depends on is in here, which is what the cache key hashes.
// Making one loads no linker.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "compile/program.h"
#include "dccuda.h"

namespace dc {

class Device;

struct LinkInput {
  int32_t kind = DC_LINK_INPUT_CUBIN;  // resolved: CUBIN, PTX, LTOIR, FATBIN, OBJECT or LIBRARY
  std::string name;                    // for the linker's logs
  std::vector<uint8_t> bytes;          // read from memory or a file...
  std::shared_ptr<const CompiledOutput> program;  // ...or a program's output, shared

  const uint8_t* data() const noexcept { return program ? program->image.data() : bytes.data(); }
  size_t size() const noexcept { return program ? program->image.size() : bytes.size(); }
};

struct LinkRequest {
  std::vector<LinkInput> inputs;
  int32_t arch = 0;                 // 10 * major + minor
  uint32_t flags = 0;               // DC_LINK_*; DC_LINK_LTO also set by an LTO-IR input
  int32_t optimization_level = -1;  // -1: the linker's default
  int32_t max_registers = 0;
  std::vector<std::string> options; // raw nvJitLink options
  int32_t device_arch = 0;          // the device's architecture, 0 without a device
  bool no_cache = false;            // DC_LINK_NO_CACHE (not in `flags`: the key hashes those)

  bool has_ltoir() const noexcept;
  // nvJitLink's options: -arch=sm_XY, then the flags' options, then the raw ones.
  std::vector<std::string> nvjitlink_args() const;
};

// The first published size of dc_link_options.
constexpr uint32_t kLinkOptionsV1Size = sizeof(dc_link_options);

// Validates dc_link's arguments (DC_ERROR_INVALID_ARGUMENT naming the bad one;
// DC_ERROR_INVALID_HANDLE for an input's program) and reads every input.
LinkRequest make_link_request(const dc_link_input* inputs, uint32_t count, const dc_link_options* options,
                              const Device* device);

// The name of a DC_LINK_INPUT_* kind ("CUBIN"...).
const char* link_input_kind_name(int32_t kind) noexcept;

}  // namespace dc
