// Occupancy queries and the 1-D configuration helper. The answers depend on
// the GPU, so the tests check what must hold on any device: consistency
// between the calls, monotonicity in shared memory, the limits.
#include <thread>
#include <vector>

#include "launch/launch_test.h"

namespace {

using namespace launchtest;

class OccupancyTest : public LaunchTest {
 protected:
  void SetUp() override {
    LaunchTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    REQUIRE_KERNELS();
    saxpy_ = kernel("saxpy");
    ASSERT_NE(saxpy_, nullptr);
  }
  int32_t blocks(int32_t block, uint64_t shared) {
    int32_t n = -1;
    EXPECT_DC_OK(dc_occupancy_max_active_blocks(saxpy_, block, shared, &n));
    return n;
  }
  dc_function saxpy_ = nullptr;
};

TEST_F(OccupancyTest, ActiveBlocksRespectTheMultiprocessor) {
  for (int32_t block : {32, 128, 256, 1024}) {
    int32_t n = blocks(block, 0);
    EXPECT_GE(n, 1) << block;
    EXPECT_LE(static_cast<int64_t>(n) * block, info_.max_threads_per_multiprocessor) << block;
  }
  // More shared memory never lets more blocks in.
  EXPECT_LE(blocks(256, 32768), blocks(256, 0));
  EXPECT_LE(blocks(256, 32768) * 32768, info_.max_shared_memory_per_multiprocessor);
  int32_t n = 5;
  EXPECT_DC_ERROR(dc_occupancy_max_active_blocks(saxpy_, 0, 0, &n), DC_ERROR_INVALID_ARGUMENT, "block_size is 0");
  EXPECT_EQ(n, 0);
  EXPECT_DC_ERROR(dc_occupancy_max_active_blocks(saxpy_, 256, 0, nullptr), DC_ERROR_INVALID_ARGUMENT,
                  "blocks_per_multiprocessor is NULL");
  EXPECT_DC_ERROR(dc_occupancy_max_active_blocks(nullptr, 256, 0, &n), DC_ERROR_INVALID_HANDLE, "function");
}

TEST_F(OccupancyTest, PotentialBlockSizeIsConsistentWithActiveBlocks) {
  int32_t grid = 0, block = 0;
  ASSERT_DC_OK(dc_occupancy_max_potential_block_size(saxpy_, nullptr, nullptr, 0, 0, &grid, &block));
  EXPECT_GE(block, 32);
  EXPECT_LE(block, info_.max_threads_per_block);
  EXPECT_EQ(block % info_.warp_size, 0);
  EXPECT_EQ(grid, blocks(block, 0) * info_.multiprocessor_count);
  // A limit caps the block size.
  ASSERT_DC_OK(dc_occupancy_max_potential_block_size(saxpy_, nullptr, nullptr, 0, 64, &grid, &block));
  EXPECT_LE(block, 64);
  EXPECT_GE(block, 1);
  EXPECT_DC_ERROR(dc_occupancy_max_potential_block_size(saxpy_, nullptr, nullptr, 0, -1, &grid, &block),
                  DC_ERROR_INVALID_ARGUMENT, "block_size_limit is -1");
  EXPECT_EQ(grid, 0);
  EXPECT_EQ(block, 0);
}

struct ShmState {
  std::thread::id thread;
  int calls = 0;
  bool other_thread = false;
  bool bad_block = false;
};

uint64_t shared_per_block(int32_t block_size, void* user_data) {
  auto* s = static_cast<ShmState*>(user_data);
  ++s->calls;
  if (std::this_thread::get_id() != s->thread) s->other_thread = true;
  if (block_size <= 0 || block_size > 1024) s->bad_block = true;
  return static_cast<uint64_t>(block_size) * 64;  // 64 bytes per thread
}

TEST_F(OccupancyTest, SharedMemoryCallbackGetsItsUserData) {
  ShmState state;
  state.thread = std::this_thread::get_id();
  int32_t grid = 0, block = 0;
  ASSERT_DC_OK(dc_occupancy_max_potential_block_size(saxpy_, shared_per_block, &state, 0, 0, &grid, &block));
  EXPECT_GT(state.calls, 0);
  EXPECT_FALSE(state.other_thread) << "the callback ran on another thread";
  EXPECT_FALSE(state.bad_block);
  ASSERT_GT(block, 0);
  EXPECT_EQ(grid, blocks(block, static_cast<uint64_t>(block) * 64) * info_.multiprocessor_count);
}

TEST_F(OccupancyTest, AvailableSharedMemoryShrinksWithMoreBlocks) {
  uint64_t one = 0, two = 0;
  ASSERT_DC_OK(dc_occupancy_available_dynamic_shared(saxpy_, 1, 256, &one));
  ASSERT_DC_OK(dc_occupancy_available_dynamic_shared(saxpy_, 2, 256, &two));
  EXPECT_GT(one, 0u);
  EXPECT_LE(two, one);
  EXPECT_LE(one, static_cast<uint64_t>(info_.max_shared_memory_per_block_optin));
  EXPECT_DC_ERROR(dc_occupancy_available_dynamic_shared(saxpy_, 0, 256, &one), DC_ERROR_INVALID_ARGUMENT,
                  "num_blocks is 0");
  EXPECT_EQ(one, 0u);
}

TEST_F(OccupancyTest, ActiveClusters) {
  dc_launch_config c = config_1d(8, 128);
  int32_t clusters = -1;
  EXPECT_DC_ERROR(dc_occupancy_max_active_clusters(saxpy_, &c, &clusters), DC_ERROR_INVALID_ARGUMENT,
                  "config->cluster is 0 x 0 x 0");
  EXPECT_EQ(clusters, 0);
  c.cluster[0] = 2;
  c.cluster[1] = c.cluster[2] = 1;
  if (!info_.cluster_launch) {
    EXPECT_DC_ERROR(dc_occupancy_max_active_clusters(saxpy_, &c, &clusters), DC_ERROR_NOT_SUPPORTED, "clusters");
    return;
  }
  ASSERT_DC_OK(dc_occupancy_max_active_clusters(saxpy_, &c, &clusters));
  EXPECT_GE(clusters, 1);
  // Never more clusters than blocks fit on the device.
  EXPECT_LE(static_cast<int64_t>(clusters) * 2, static_cast<int64_t>(blocks(128, 0)) * info_.multiprocessor_count);
}

TEST_F(OccupancyTest, OneDimensionalConfigCoversN) {
  for (uint64_t n : {uint64_t{1}, uint64_t{1000}, uint64_t{1000003}}) {
    dc_launch_config c = DC_LAUNCH_CONFIG_INIT;
    c.flags = 0xFFu;  // overwritten
    ASSERT_DC_OK(dc_launch_config_1d(saxpy_, n, 0, &c));
    EXPECT_EQ(c.struct_size, sizeof(dc_launch_config));
    EXPECT_GE(c.block[0], 1u);
    EXPECT_EQ(c.block[1], 1u);
    EXPECT_EQ(c.grid[1], 1u);
    EXPECT_EQ(c.flags, 0u);
    uint64_t threads = uint64_t(c.grid[0]) * c.block[0];
    EXPECT_GE(threads, n);
    EXPECT_LT(threads - n, c.block[0]);
    int32_t grid = 0, block = 0;
    ASSERT_DC_OK(dc_occupancy_max_potential_block_size(saxpy_, nullptr, nullptr, 0, 0, &grid, &block));
    EXPECT_EQ(c.block[0], static_cast<uint32_t>(block));
  }
  dc_launch_config c = DC_LAUNCH_CONFIG_INIT;
  EXPECT_DC_ERROR(dc_launch_config_1d(saxpy_, 0, 0, &c), DC_ERROR_INVALID_ARGUMENT, "n is 0");
  EXPECT_DC_ERROR(dc_launch_config_1d(saxpy_, 10, 0, nullptr), DC_ERROR_INVALID_ARGUMENT, "config is NULL");
  c.struct_size = 4;
  EXPECT_DC_ERROR(dc_launch_config_1d(saxpy_, 10, 0, &c), DC_ERROR_INVALID_ARGUMENT, "config->struct_size is 4");
  c = DC_LAUNCH_CONFIG_INIT;
  EXPECT_DC_ERROR(dc_launch_config_1d(saxpy_, 10, 1u << 30, &c), DC_ERROR_INVALID_ARGUMENT,
                  "shared_memory_bytes is 1073741824");
  EXPECT_DC_ERROR(dc_launch_config_1d(saxpy_, uint64_t{1} << 50, 0, &c), DC_ERROR_OUT_OF_RANGE,
                  "blocks in x; cover n with a grid-stride loop");
}

}  // namespace
