// Process-wide settings: dc_init's options, else the environment, fixed at the
// first call that needs them.
//
// This is the one place dccuda reads environment variables (through
// platform/environment.h); include/dccuda.h documents every one in one table,
// next to the dc_init option that replaces it. Every value goes through one
// strict parser: a malformed value (`12abc`, `0x1000`, `-3`, `1e3`, an empty
// string, `maybe` for a yes/no) is refused with DC_ERROR_INVALID_ARGUMENT
// naming the variable, the value and what is accepted, at dc_init or at the
// first call that needs the settings, and nothing is installed: a value is
// never half-accepted.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "dccuda.h"

namespace dc {

// DCCUDA_FFT_PLAN_CACHE's default and largest value (idle plans per device).
inline constexpr uint32_t kDefaultFftPlanCache = 16;
inline constexpr uint32_t kMaxFftPlanCache = 4096;

struct Config {
  std::string driver_library;   // empty: the platform default
  std::string nvrtc_library;    // empty: the platform default
  std::string nvjitlink_library; // empty: the platform default (no dc_init option: the variable only)
  std::string cache_dir;        // empty: the default location (below)
  std::string nvml_library;     // empty: the platform default (loader/nvml.h)
  std::string cublas_library;   // empty: the platform default (loader/cublas.h; the variable only)
  std::string cufft_library;    // empty: the platform default (loader/cufft.h; the variable only)
  // Idle cuFFT plans kept per device for reuse (libs/fft/plan_cache.h); 0
  // disables the cache; kDefaultFftPlanCache when the variable is unset.
  uint32_t fft_plan_cache = kDefaultFftPlanCache;
  std::string nccl_library;     // empty: the platform default (loader/nccl.h; the variable only)
  uint64_t cache_max_bytes = 0; // 0: the default
  uint32_t flags = 0;           // DC_INIT_*

  // Other programs' variables dccuda follows, read here too. Empty: unset.
  std::string xdg_cache_home;   // only an absolute path counts (the XDG rule)
  std::string home;
  std::string local_app_data;   // %LOCALAPPDATA% (Windows): the kernel cache's default home there
  std::string cuda_home;        // NVRTC and nvJitLink are looked for in $CUDA_HOME/lib64...
  std::string cuda_path;        // ...and $CUDA_PATH/lib64
  std::string ld_library_path;  // part of what decides which NVRTC dlopen finds
  std::string nvtx_injection_path;  // NVTX_INJECTION64_PATH: a profiler's library (loader/nvtx.h)

  // Tunables for measurements (memory/staging.h, memory/host_copy.h); 0: the
  // built-in default.
  uint64_t staging_min_bytes = 0;
  uint64_t staging_min_bytes_to_device = 0;
  uint64_t staging_chunk_bytes = 0;
  uint64_t staging_min_chunk_bytes = 0;
  uint64_t staging_small_bytes = 0;
  uint32_t staging_buffers = 0;
  uint32_t copy_threads = 0;
  // DCCUDA_COPY_STREAMING: -1 unset (the built-in default), 0 no, 1 yes.
  int8_t copy_streaming = -1;

  // A shared kernel cache: the file holding the key that authenticates its
  // entries (compile/cache_directory.h). Empty: a private cache.
  std::string cache_key_file;

  // What was set but not used, one sentence each (dc_config_warnings).
  std::vector<std::string> warnings;
};

// Every variable the configuration reads, for saying which were ignored.
extern const char* const kConfigVariables[];

// The ranges the tunables accept.
inline constexpr uint64_t kMaxStagingMinBytes = uint64_t(1) << 40;
inline constexpr uint64_t kMinStagingChunkBytes = uint64_t(64) << 10;
inline constexpr uint64_t kMaxStagingChunkBytes = uint64_t(1) << 30;
inline constexpr uint32_t kMaxStagingBuffers = 16;
inline constexpr uint32_t kMaxCopyThreads = 64;
// DCCUDA_CACHE_MAX_BYTES: any positive size up to 2^63 bytes.
inline constexpr uint64_t kMaxCacheBytes = uint64_t(1) << 63;

// The settings in force; the first call fixes them (from the environment
// unless dc_init came first). Fails (DC_ERROR_INVALID_ARGUMENT) while the
// environment holds a malformed value, and installs nothing then.
const Config& config();

// The settings if they are fixed already, else nullptr. Never fails: for code
// that runs only after the configuration was needed (staging a copy needs a
// device, which needed the driver, which needed the settings).
const Config* config_if_fixed() noexcept;

// dc_init's work: validates and installs `options` (an option replaces its
// environment variable, which is then not read). Fails with
// DC_ERROR_INVALID_STATE if config() was already fixed.
void install_config(const dc_init_options* options);

// The first published size of each growable struct: every size from this up
// to sizeof(struct) is accepted (the header's "Structs" convention).
constexpr uint32_t kInitOptionsV1Size = sizeof(dc_init_options);

}  // namespace dc
