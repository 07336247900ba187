// The fake driver's occupancy model (a test double, never a GPU), shared by
// the occupancy entry points and the cooperative-launch check.
//
// Per multiprocessor (the numbers fake_core.cpp reports for its Hopper-like
// devices): 2048 threads (64 warps), 32 blocks, 65536 registers, 233472 bytes
// of shared memory of which each block also uses 1024 reserved bytes; 132
// multiprocessors. Blocks of `threads` threads fit
//     min(32, 64 / warps, 65536 / (warps * registers per warp),
//         233472 / (static + dynamic shared + 1024))
// times, where warps = ceil(threads / 32) and registers per warp = the
// kernel's registers per thread * 32, rounded up to 256. A block larger than
// the kernel's thread limit (fake_module.h: kernel_max_threads) or with more
// shared memory than a block may have (232448 bytes) fits 0 times.
#pragma once

#include <cstddef>

#include "fake_module.h"

namespace fake {

constexpr int kMultiprocessors = 132;
constexpr int kWarpsPerMultiprocessor = 64;
constexpr int kBlocksPerMultiprocessor = 32;
constexpr int kRegistersPerMultiprocessor = 65536;
constexpr int kSharedPerMultiprocessor = 233472;
constexpr int kSharedReservedPerBlock = 1024;
constexpr int kSharedPerBlockOptin = 232448;

// Blocks of `threads` threads using `dynamic_shared` bytes that fit on one
// multiprocessor at once.
int occupancy_blocks(const KernelInfo& kernel, int threads, size_t dynamic_shared);

}  // namespace fake
