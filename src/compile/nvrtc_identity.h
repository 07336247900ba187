// The NVRTC version that goes into cache keys, learnt without loading NVRTC
// where possible. Loading libnvrtc costs about 10 ms (its static
// initialisers), ten times the budget of a disk cache hit in a new process.
// So the first process that loads NVRTC records which file it loaded and its
// version in the cache directory (nvrtc-<context>.id); later processes in the
// same context (NVRTC setting, library search path, ld.so.cache, the CUDA
// library directories: all unchanged) whose recorded file is unchanged (same
// inode, size and modification time) use that version without loading NVRTC.
// Anything else loads NVRTC and records it afresh.
#pragma once

#include <cstdint>

namespace dc {

struct NvrtcVersion {
  int32_t major = 0;
  int32_t minor = 0;
};

// The version of the NVRTC this process uses or would load. Fails with
// DC_ERROR_NO_COMPILER when NVRTC must be loaded and cannot be.
NvrtcVersion nvrtc_version_for_key();

// Loads NVRTC (DC_ERROR_NO_COMPILER if it cannot be) and records its identity
// for later processes; returns its version.
NvrtcVersion load_nvrtc_for_compile();

}  // namespace dc
