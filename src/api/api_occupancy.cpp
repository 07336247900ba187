// Entry points: occupancy.
#include "dccuda.h"

#include "core/args.h"
#include "core/fork_guard.h"
#include "core/guard.h"
#include "device/device.h"
#include "launch/occupancy.h"
#include "module/function.h"
#include "stream/host_callback.h"

using namespace dc;

extern "C" {

DC_API dc_status dc_occupancy_max_active_blocks(dc_function function, int32_t block_size,
                                                uint64_t dynamic_shared_bytes, int32_t* blocks_per_multiprocessor) {
  return guarded("dc_occupancy_max_active_blocks", [&] {
    clear_out(blocks_per_multiprocessor);
    forbid_after_fork();
    forbid_in_host_callback();
    Pinned<Function> f = pin<Function>(function, "function");
    require_arg(blocks_per_multiprocessor, "blocks_per_multiprocessor");
    f->check_usable();
    ContextScope bind(f->device());
    *blocks_per_multiprocessor = max_active_blocks(*f, block_size, dynamic_shared_bytes);
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_occupancy_max_potential_block_size(dc_function function, dc_block_shared_memory_fn fn,
                                                       void* user_data, uint64_t dynamic_shared_bytes,
                                                       int32_t block_size_limit, int32_t* min_grid_size,
                                                       int32_t* block_size) {
  return guarded("dc_occupancy_max_potential_block_size", [&] {
    clear_out(min_grid_size);
    clear_out(block_size);
    forbid_after_fork();
    forbid_in_host_callback();
    Pinned<Function> f = pin<Function>(function, "function");
    require_arg(min_grid_size, "min_grid_size");
    require_arg(block_size, "block_size");
    f->check_usable();
    ContextScope bind(f->device());
    max_potential_block_size(*f, fn, user_data, dynamic_shared_bytes, block_size_limit, min_grid_size, block_size);
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_occupancy_max_active_clusters(dc_function function, const dc_launch_config* config,
                                                  int32_t* clusters) {
  return guarded("dc_occupancy_max_active_clusters", [&] {
    clear_out(clusters);
    forbid_after_fork();
    forbid_in_host_callback();
    Pinned<Function> f = pin<Function>(function, "function");
    require_arg(clusters, "clusters");
    f->check_usable();
    ContextScope bind(f->device());
    *clusters = max_active_clusters(*f, config);
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_occupancy_available_dynamic_shared(dc_function function, int32_t num_blocks, int32_t block_size,
                                                       uint64_t* bytes) {
  return guarded("dc_occupancy_available_dynamic_shared", [&] {
    clear_out(bytes);
    forbid_after_fork();
    forbid_in_host_callback();
    Pinned<Function> f = pin<Function>(function, "function");
    require_arg(bytes, "bytes");
    f->check_usable();
    ContextScope bind(f->device());
    *bytes = available_dynamic_shared(*f, num_blocks, block_size);
    return DC_SUCCESS;
  });
}

}  // extern "C"
