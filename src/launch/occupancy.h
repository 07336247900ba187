// Occupancy queries and the 1-D launch helper. The function's context must
// be bound for each.
#pragma once

#include <cstdint>

#include "dccuda.h"
#include "module/function.h"

namespace dc {

int32_t max_active_blocks(const Function& f, int32_t block_size, uint64_t dynamic_shared_bytes);

// cuOccupancyMaxPotentialBlockSize; `fn` (with `user_data`) gives the dynamic
// shared memory per block size when not null. It runs on the calling thread.
void max_potential_block_size(const Function& f, dc_block_shared_memory_fn fn, void* user_data,
                              uint64_t dynamic_shared_bytes, int32_t block_size_limit, int32_t* min_grid_size,
                              int32_t* block_size);

int32_t max_active_clusters(const Function& f, const dc_launch_config* config);

uint64_t available_dynamic_shared(const Function& f, int32_t num_blocks, int32_t block_size);

// dc_launch_config_1d: the occupancy-optimal block size for
// `shared_memory_bytes`, and enough blocks to cover n threads.
void config_1d(const Function& f, uint64_t n, uint32_t shared_memory_bytes, dc_launch_config* config);

}  // namespace dc
