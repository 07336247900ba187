// Process-wide settings: from dc_init(), else from the environment, fixed at
// the first call that needs them.
#pragma once

#include <cstdint>
#include <string>

#include "dccuda.h"

namespace dc {

struct Config {
  std::string driver_library;   // empty: the platform default
  std::string nvrtc_library;    // empty: the platform default
  std::string cache_dir;        // empty: the default location
  uint64_t cache_max_bytes = 0; // 0: the default
  uint32_t flags = 0;           // DC_INIT_*
};

// The settings in force; the first call fixes them (from the environment
// unless dc_init came first).
const Config& config();

// dc_init's work: validates and installs `options`. Fails with
// DC_ERROR_INVALID_STATE if config() was already fixed.
void install_config(const dc_init_options* options);

// The first published size of each growable struct: every size from this up
// to sizeof(struct) is accepted (DESIGN rule 5).
constexpr uint32_t kInitOptionsV1Size = sizeof(dc_init_options);

}  // namespace dc
