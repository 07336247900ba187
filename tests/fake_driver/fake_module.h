// The fake driver's modules (a test double), as seen by its other files.
#pragma once

#include <cuda.h>

#include <cstddef>

namespace fake {

// Module globals live in host memory the fake allocates at load. The memory
// file's address checks (copies into a __device__ variable) consult this: it
// returns true, with the variable's range, if `address` lies inside a global
// of a loaded module.
bool module_global_range(CUdeviceptr address, CUdeviceptr* base, size_t* size);

}  // namespace fake
