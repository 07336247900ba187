// The fake driver's occupancy entry points (a test double, never a GPU): the
// model is in fake_occupancy.h.
#include "fake_occupancy.h"

#include <algorithm>

#include "fake.h"

namespace fake {

int occupancy_blocks(const KernelInfo& k, int threads, size_t dynamic_shared) {
  if (threads <= 0 || threads > k.max_threads) return 0;
  size_t shared = static_cast<size_t>(k.static_shared) + dynamic_shared;
  if (shared > static_cast<size_t>(kSharedPerBlockOptin)) return 0;
  int warps = (threads + 31) / 32;
  int regs_per_warp = (k.registers * 32 + 255) / 256 * 256;
  int by_warps = kWarpsPerMultiprocessor / warps;
  int by_registers = kRegistersPerMultiprocessor / (warps * regs_per_warp);
  int by_shared = static_cast<int>(static_cast<size_t>(kSharedPerMultiprocessor) / (shared + kSharedReservedPerBlock));
  return std::min({kBlocksPerMultiprocessor, by_warps, by_registers, by_shared});
}

}  // namespace fake

using namespace fake;

namespace {

CUresult kernel_of(CUfunction f, KernelInfo* k) {
  if (!kernel_info(f, k)) return CUDA_ERROR_INVALID_HANDLE;
  return CUDA_SUCCESS;
}

}  // namespace

CUresult CUDAAPI cuOccupancyMaxActiveBlocksPerMultiprocessor(int* numBlocks, CUfunction func, int blockSize,
                                                             size_t dynamicSMemSize) {
  FAKE_ENTER(cuOccupancyMaxActiveBlocksPerMultiprocessor);
  FAKE_REQUIRE_CONTEXT();
  if (!numBlocks) return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard<std::recursive_mutex> g(lock());
  KernelInfo k;
  if (CUresult r = kernel_of(func, &k)) return r;
  if (blockSize <= 0) return CUDA_ERROR_INVALID_VALUE;
  *numBlocks = occupancy_blocks(k, blockSize, dynamicSMemSize);
  return CUDA_SUCCESS;
}
FAKE_EXPORT(cuOccupancyMaxActiveBlocksPerMultiprocessor, 6050)

CUresult CUDAAPI cuOccupancyMaxPotentialBlockSize(int* minGridSize, int* blockSize, CUfunction func,
                                                  CUoccupancyB2DSize blockSizeToDynamicSMemSize,
                                                  size_t dynamicSMemSize, int blockSizeLimit) {
  FAKE_ENTER(cuOccupancyMaxPotentialBlockSize);
  FAKE_REQUIRE_CONTEXT();
  if (!minGridSize || !blockSize) return CUDA_ERROR_INVALID_VALUE;
  KernelInfo k;
  {
    std::lock_guard<std::recursive_mutex> g(lock());
    if (CUresult r = kernel_of(func, &k)) return r;
  }
  if (blockSizeLimit < 0) return CUDA_ERROR_INVALID_VALUE;
  int limit = std::min(k.max_threads, blockSizeLimit > 0 ? blockSizeLimit : 1024);
  // As the CUDA occupancy calculator: from the largest block size down, in
  // warp steps; the first size with the most resident threads wins.
  int best = 0, best_blocks = 0, best_threads = 0;
  for (int b = limit; b > 0; b = (b % 32) ? b - b % 32 : b - 32) {
    // The callback is the caller's code: call it without the fake's lock.
    size_t shared = blockSizeToDynamicSMemSize ? blockSizeToDynamicSMemSize(b) : dynamicSMemSize;
    int blocks = occupancy_blocks(k, b, shared);
    if (blocks * b > best_threads) {
      best_threads = blocks * b;
      best = b;
      best_blocks = blocks;
    }
  }
  *blockSize = best;
  *minGridSize = best_blocks * kMultiprocessors;
  return CUDA_SUCCESS;
}
FAKE_EXPORT(cuOccupancyMaxPotentialBlockSize, 6050)

CUresult CUDAAPI cuOccupancyMaxActiveClusters(int* numClusters, CUfunction func, const CUlaunchConfig* config) {
  FAKE_ENTER(cuOccupancyMaxActiveClusters);
  FAKE_REQUIRE_CONTEXT();
  if (!numClusters || !config || (config->numAttrs && !config->attrs)) return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard<std::recursive_mutex> g(lock());
  KernelInfo k;
  if (CUresult r = kernel_of(func, &k)) return r;
  unsigned cluster = 0;
  for (unsigned i = 0; i < config->numAttrs; ++i)
    if (config->attrs[i].id == CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION) {
      const auto& d = config->attrs[i].value.clusterDim;
      cluster = d.x * d.y * d.z;
    }
  // Without a compile-time cluster size the launch must name one; the
  // portable limit is 8 blocks.
  if (cluster == 0 || cluster > 8) return CUDA_ERROR_INVALID_CLUSTER_SIZE;
  int threads = static_cast<int>(config->blockDimX * config->blockDimY * config->blockDimZ);
  int blocks = occupancy_blocks(k, threads, config->sharedMemBytes);
  *numClusters = blocks * kMultiprocessors / static_cast<int>(cluster);
  return CUDA_SUCCESS;
}
FAKE_EXPORT(cuOccupancyMaxActiveClusters, 11070)

CUresult CUDAAPI cuOccupancyAvailableDynamicSMemPerBlock(size_t* dynamicSmemSize, CUfunction func, int numBlocks,
                                                         int blockSize) {
  FAKE_ENTER(cuOccupancyAvailableDynamicSMemPerBlock);
  FAKE_REQUIRE_CONTEXT();
  if (!dynamicSmemSize) return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard<std::recursive_mutex> g(lock());
  KernelInfo k;
  if (CUresult r = kernel_of(func, &k)) return r;
  if (numBlocks <= 0 || blockSize <= 0) return CUDA_ERROR_INVALID_VALUE;
  *dynamicSmemSize = 0;
  // Do numBlocks blocks fit at all (threads, registers), shared memory aside?
  if (occupancy_blocks(k, blockSize, 0) < numBlocks) return CUDA_SUCCESS;
  long per_block = kSharedPerMultiprocessor / numBlocks - kSharedReservedPerBlock - k.static_shared;
  long cap = kSharedPerBlockOptin - k.static_shared;
  *dynamicSmemSize = static_cast<size_t>(std::max(0L, std::min(per_block, cap)));
  return CUDA_SUCCESS;
}
FAKE_EXPORT(cuOccupancyAvailableDynamicSMemPerBlock, 10020)
