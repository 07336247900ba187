#include "launch/occupancy.h"

#include <cinttypes>
#include <cstring>

#include "core/args.h"
#include "core/error.h"
#include "device/cuda_check.h"
#include "launch/launch_shape.h"
#include "loader/driver.h"

namespace dc {
namespace {

// cuOccupancyMaxPotentialBlockSize takes a plain function of the block size:
// the caller's function and user data reach it through the calling thread
// (the driver calls it on this thread, before it returns). Nested calls (a
// callback that asks again) save and restore the outer one.
struct SharedMemoryCallback {
  dc_block_shared_memory_fn fn;
  void* user_data;
};
thread_local const SharedMemoryCallback* t_callback = nullptr;

size_t CUDA_CB shared_memory_trampoline(int block_size) {
  const SharedMemoryCallback* c = t_callback;
  return c ? static_cast<size_t>(c->fn(block_size, c->user_data)) : 0;
}

void require_block_size(int32_t block_size, const Function& f) {
  if (block_size <= 0)
    fail(DC_ERROR_INVALID_ARGUMENT, "block_size is %d; a block has at least 1 thread", block_size);
  int32_t max = f.device().limits().max_threads_per_block;
  if (max > 0 && block_size > max)
    fail(DC_ERROR_INVALID_ARGUMENT, "block_size is %d; device %d allows at most %d threads per block", block_size,
         f.device().ordinal(), max);
}

}  // namespace

int32_t max_active_blocks(const Function& f, int32_t block_size, uint64_t shared) {
  require_block_size(block_size, f);
  int blocks = 0;
  check(driver_api().cuOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, f.cu_function(), block_size,
                                                                 static_cast<size_t>(shared)),
        "cuOccupancyMaxActiveBlocksPerMultiprocessor", &f.device());
  return blocks;
}

void max_potential_block_size(const Function& f, dc_block_shared_memory_fn fn, void* user_data, uint64_t shared,
                              int32_t limit, int32_t* min_grid_size, int32_t* block_size) {
  if (limit < 0)
    fail(DC_ERROR_INVALID_ARGUMENT, "block_size_limit is %d; pass 0 for no limit or a positive thread count", limit);
  SharedMemoryCallback callback{fn, user_data};
  const SharedMemoryCallback* outer = t_callback;
  t_callback = fn ? &callback : outer;
  int grid = 0, block = 0;
  CUresult r = driver_api().cuOccupancyMaxPotentialBlockSize(&grid, &block, f.cu_function(),
                                                             fn ? shared_memory_trampoline : nullptr,
                                                             static_cast<size_t>(shared), limit);
  t_callback = outer;
  check(r, "cuOccupancyMaxPotentialBlockSize", &f.device());
  *min_grid_size = grid;
  *block_size = block;
}

int32_t max_active_clusters(const Function& f, const dc_launch_config* config) {
  LaunchShape s = read_launch_config(config, f, "config");
  if (!s.has_cluster())
    fail(DC_ERROR_INVALID_ARGUMENT, "%s: config->cluster is 0 x 0 x 0; give the cluster size to ask about",
         f.name().c_str());
  LaunchAttributes attributes;
  make_launch_attributes(s, &attributes);
  CUlaunchConfig c{};
  c.gridDimX = s.grid[0];
  c.gridDimY = s.grid[1];
  c.gridDimZ = s.grid[2];
  c.blockDimX = s.block[0];
  c.blockDimY = s.block[1];
  c.blockDimZ = s.block[2];
  c.sharedMemBytes = s.shared;
  c.attrs = attributes.attrs;
  c.numAttrs = attributes.count;
  int clusters = 0;
  CUresult r = driver_api().cuOccupancyMaxActiveClusters(&clusters, f.cu_function(), &c);
  if (r == CUDA_ERROR_INVALID_CLUSTER_SIZE)
    fail_cuda(DC_ERROR_INVALID_ARGUMENT, r, "%s: a cluster of %u x %u x %u blocks is not allowed (a portable cluster "
              "has at most 8 blocks)", f.name().c_str(), s.cluster[0], s.cluster[1], s.cluster[2]);
  check(r, "cuOccupancyMaxActiveClusters", &f.device());
  return clusters;
}

uint64_t available_dynamic_shared(const Function& f, int32_t num_blocks, int32_t block_size) {
  if (num_blocks <= 0) fail(DC_ERROR_INVALID_ARGUMENT, "num_blocks is %d; pass at least 1", num_blocks);
  require_block_size(block_size, f);
  size_t bytes = 0;
  check(driver_api().cuOccupancyAvailableDynamicSMemPerBlock(&bytes, f.cu_function(), num_blocks, block_size),
        "cuOccupancyAvailableDynamicSMemPerBlock", &f.device());
  return bytes;
}

void config_1d(const Function& f, uint64_t n, uint32_t shared, dc_launch_config* config) {
  if (n == 0) fail(DC_ERROR_INVALID_ARGUMENT, "n is 0; a launch covers at least 1 element");
  if (shared > static_cast<uint32_t>(f.max_dynamic_shared_bytes())) {
    LaunchShape s;
    s.shared = shared;
    fail_shared_memory(s, f);
  }
  int32_t min_grid = 0, block = 0;
  max_potential_block_size(f, nullptr, nullptr, shared, 0, &min_grid, &block);
  if (block <= 0)
    fail(DC_ERROR_INVALID_ARGUMENT, "%s: no block size lets the kernel run with %u bytes of dynamic shared memory per "
         "block; use less shared memory", f.name().c_str(), shared);
  // Rounded up without n + block - 1, which wraps for n near 2^64 (and gave a grid of 0 blocks).
  uint64_t blocks = n / static_cast<uint64_t>(block) + (n % static_cast<uint64_t>(block) != 0 ? 1 : 0);
  int32_t max_x = f.device().limits().max_grid_dim[0];
  if (max_x > 0 && blocks > static_cast<uint64_t>(max_x))
    fail(DC_ERROR_OUT_OF_RANGE, "%s: n = %" PRIu64 " needs %" PRIu64 " blocks of %d threads, and device %d allows at "
         "most %d blocks in x; cover n with a grid-stride loop over a smaller grid", f.name().c_str(), n, blocks, block,
         f.device().ordinal(), max_x);
  // Only the fields of the struct this library knows.
  dc_launch_config out = DC_LAUNCH_CONFIG_INIT;
  out.struct_size = config->struct_size;
  out.grid[0] = static_cast<uint32_t>(blocks);
  out.block[0] = static_cast<uint32_t>(block);
  out.shared_memory_bytes = shared;
  std::memcpy(config, &out, sizeof out);
}

}  // namespace dc
