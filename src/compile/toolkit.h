// The installed CUDA toolkit's files that compiling and linking can use: its
// headers (CCCL's cuda/std and cuda/atomic, cooperative_groups) for NVRTC,
// and the device runtime archive (libcudadevrt.a) for dynamic parallelism.
// The toolkit is looked for where NVRTC is: $CUDA_PATH, $CUDA_HOME, the
// toolkit of the NVRTC named by DCCUDA_NVRTC_LIBRARY or already loaded, then
// /usr/local/cuda (Linux). Nothing here loads NVRTC: a cache hit must not pay
// for it, and these paths go into the cache key.
#pragma once

#include <string>
#include <vector>

namespace dc {

// The toolkit roots to try, in order, without duplicates.
std::vector<std::string> toolkit_roots();

// The include directories of the first root that has the headers:
// <root>/include (holding cooperative_groups.h) and <root>/include/cccl where
// it exists (CUDA 13 moved CCCL there). Fails with DC_ERROR_NOT_FOUND naming
// every place tried and how to point dccuda at a toolkit.
std::vector<std::string> toolkit_include_dirs();

// The device runtime archive of the first root that has one. Fails with
// DC_ERROR_NOT_FOUND naming every place tried and what to do.
std::string toolkit_device_runtime();

}  // namespace dc
