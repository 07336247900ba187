// A launch configuration checked against the device and the kernel, in the
// form the driver call takes (dc_launch_config -> LaunchShape), and the
// cuLaunchKernelEx attributes it needs.
#pragma once

#include "loader/cuda_abi/driver_abi.h"

#include <cstdint>

#include "dccuda.h"
#include "module/function.h"

namespace dc {

constexpr uint32_t kLaunchFlags = DC_LAUNCH_COOPERATIVE | DC_LAUNCH_PROGRAMMATIC_SERIALIZATION | DC_LAUNCH_PERSISTENT;

struct LaunchShape {
  uint32_t grid[3] = {1, 1, 1};
  uint32_t block[3] = {1, 1, 1};
  uint32_t shared = 0;
  uint32_t flags = 0;
  uint32_t cluster[3] = {0, 0, 0};
  int32_t priority = 0;

  uint64_t threads_per_block() const noexcept { return uint64_t(block[0]) * block[1] * block[2]; }
  uint64_t blocks() const noexcept { return uint64_t(grid[0]) * grid[1] * grid[2]; }
  bool has_cluster() const noexcept { return cluster[0] != 0; }
  // Whether plain cuLaunchKernel cannot express it.
  // DC_LAUNCH_PERSISTENT is dccuda's own: it needs no launch attribute.
  bool needs_ex() const noexcept { return (flags & ~DC_LAUNCH_PERSISTENT) != 0 || has_cluster() || priority != 0; }
};

// Reads `config` (struct_size checked; NULL refused) and checks it against the
// function's device and limits: dimensions >= 1 and within the device's,
// threads per block, dynamic shared memory against the kernel's limit now,
// flags, clusters (all three set or none, device support, grid divisible).
// Limits that only the kernel's resources set (threads per block for its
// registers, how many cooperative blocks fit) are left to the driver, whose
// refusal explain_launch_failure() turns into numbers. Fails naming `what`.
LaunchShape read_launch_config(const dc_launch_config* config, const Function& function, const char* what);

// The dynamic shared memory check alone (the kernel's limit can change with
// dc_function_set_attribute: a prepared launch repeats it at each enqueue).
[[noreturn]] void fail_shared_memory(const LaunchShape& shape, const Function& function);
inline void check_shared_memory(const LaunchShape& shape, const Function& function) {
  if (shape.shared > static_cast<uint32_t>(function.max_dynamic_shared_bytes())) [[unlikely]]
    fail_shared_memory(shape, function);
}

// The attributes cuLaunchKernelEx gets for a shape that needs_ex().
struct LaunchAttributes {
  CUlaunchAttribute attrs[4];
  unsigned count = 0;
};
void make_launch_attributes(const LaunchShape& shape, LaunchAttributes* out);

}  // namespace dc
