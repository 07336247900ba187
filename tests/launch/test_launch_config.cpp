// Launch configurations: dimensions against the device's limits, dynamic
// shared memory against the kernel's limit (which dc_function_set_attribute
// changes), flags, clusters and cooperative launches, each refused with the
// numbers in the message.
#include <string>
#include <vector>

#include "launch/launch_test.h"

namespace {

using namespace launchtest;

class ConfigTest : public LaunchTest {
 protected:
  dc_status launch_empty(const dc_launch_config& c) { return dc_launch_kernel(empty_, &c, nullptr, 0, stream_); }
  void SetUp() override {
    LaunchTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    REQUIRE_KERNELS();
    empty_ = kernel("empty");
    ASSERT_NE(empty_, nullptr);
  }
  dc_function empty_ = nullptr;
};

TEST_F(ConfigTest, NullAndStructSizeAreChecked) {
  EXPECT_DC_ERROR(dc_launch_kernel(empty_, nullptr, nullptr, 0, stream_), DC_ERROR_INVALID_ARGUMENT,
                  "config is NULL");
  dc_launch_config c = DC_LAUNCH_CONFIG_INIT;
  c.struct_size = 8;
  EXPECT_DC_ERROR(launch_empty(c), DC_ERROR_INVALID_ARGUMENT, "config->struct_size is 8");
  // A larger struct (a newer header) is accepted.
  struct Bigger {
    dc_launch_config base;
    uint64_t future[4];
  } big{};
  big.base = DC_LAUNCH_CONFIG_INIT;
  big.base.struct_size = sizeof big;
  EXPECT_DC_OK(dc_launch_kernel(empty_, &big.base, nullptr, 0, stream_));
  sync();
}

TEST_F(ConfigTest, DimensionsAreCheckedAgainstTheDevice) {
  dc_launch_config c = DC_LAUNCH_CONFIG_INIT;
  c.grid[1] = 0;
  EXPECT_DC_ERROR(launch_empty(c), DC_ERROR_INVALID_ARGUMENT, "empty: config->grid[1] is 0");
  c = DC_LAUNCH_CONFIG_INIT;
  c.block[2] = 0;
  EXPECT_DC_ERROR(launch_empty(c), DC_ERROR_INVALID_ARGUMENT, "config->block[2] is 0");
  c = DC_LAUNCH_CONFIG_INIT;
  c.grid[1] = static_cast<uint32_t>(info_.max_grid_dim[1]) + 1;
  EXPECT_DC_ERROR(launch_empty(c), DC_ERROR_INVALID_ARGUMENT,
                  "blocks; device 0 allows at most " + std::to_string(info_.max_grid_dim[1]) + " blocks in y");
  c = DC_LAUNCH_CONFIG_INIT;
  c.block[2] = static_cast<uint32_t>(info_.max_block_dim[2]) + 1;
  EXPECT_DC_ERROR(launch_empty(c), DC_ERROR_INVALID_ARGUMENT,
                  "threads; device 0 allows at most " + std::to_string(info_.max_block_dim[2]) + " threads in z");
  c = DC_LAUNCH_CONFIG_INIT;
  c.block[0] = 32;
  c.block[1] = static_cast<uint32_t>(info_.max_threads_per_block) / 32 * 2;
  EXPECT_DC_ERROR(launch_empty(c), DC_ERROR_INVALID_ARGUMENT,
                  "threads; device 0 allows at most " + std::to_string(info_.max_threads_per_block) +
                      " threads per block");
  // The largest legal shape works.
  c = DC_LAUNCH_CONFIG_INIT;
  c.block[0] = static_cast<uint32_t>(info_.max_threads_per_block);
  c.grid[1] = 2;
  c.grid[2] = 2;
  EXPECT_DC_OK(launch_empty(c));
  sync();
}

TEST_F(ConfigTest, UnknownFlagsAreRefused) {
  dc_launch_config c = DC_LAUNCH_CONFIG_INIT;
  c.flags = 0x80;
  EXPECT_DC_ERROR(launch_empty(c), DC_ERROR_INVALID_ARGUMENT, "config->flags has unknown bits 0x80");
}

TEST_F(ConfigTest, SharedMemoryFollowsTheKernelsLimit) {
  dc_function_info fi = DC_FUNCTION_INFO_INIT;
  ASSERT_DC_OK(dc_function_get_info(empty_, &fi));
  uint32_t over = static_cast<uint32_t>(fi.max_dynamic_shared_bytes) + 1;
  dc_launch_config c = config_1d(1, 32, over);
  EXPECT_DC_ERROR(launch_empty(c), DC_ERROR_INVALID_ARGUMENT,
                  "empty: shared_memory_bytes is " + std::to_string(over) +
                      "; the kernel may now use at most " + std::to_string(fi.max_dynamic_shared_bytes));
  // Opting in to more: launches made afterwards see the new limit.
  int32_t optin = info_.max_shared_memory_per_block_optin - fi.static_shared_bytes;
  if (optin <= fi.max_dynamic_shared_bytes) GTEST_SKIP() << "the device has no opt-in shared memory";
  ASSERT_DC_OK(dc_function_set_attribute(empty_, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, optin));
  EXPECT_DC_OK(launch_empty(c));
  dc_launch l = prepare(empty_, c);
  ASSERT_NE(l, nullptr);
  EXPECT_DC_OK(dc_launch_enqueue(l, stream_));
  sync();
  // Lowered again: the prepared launch made under the higher limit is refused at enqueue.
  ASSERT_DC_OK(dc_function_set_attribute(empty_, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 1024));
  EXPECT_DC_ERROR(dc_launch_enqueue(l, stream_), DC_ERROR_INVALID_ARGUMENT, "may now use at most 1024 bytes");
}

TEST_F(ConfigTest, ClustersAreAllOrNothingAndDivideTheGrid) {
  dc_launch_config c = config_1d(8, 32);
  c.cluster[0] = 2;
  EXPECT_DC_ERROR(launch_empty(c), DC_ERROR_INVALID_ARGUMENT,
                  "config->cluster is 2 x 0 x 0; give all three cluster dimensions");
  if (!info_.cluster_launch) {
    c.cluster[1] = c.cluster[2] = 1;
    EXPECT_DC_ERROR(launch_empty(c), DC_ERROR_NOT_SUPPORTED, "does not support thread-block clusters");
    return;
  }
  c.cluster[0] = 3;
  c.cluster[1] = c.cluster[2] = 1;
  EXPECT_DC_ERROR(launch_empty(c), DC_ERROR_INVALID_ARGUMENT,
                  "config->grid[0] is 8 blocks, not a multiple of config->cluster[0] = 3; the grid counts blocks");
  c.cluster[0] = 2;
  EXPECT_DC_OK(launch_empty(c));
  // More than the 8 blocks of a portable cluster: refused by the driver, explained.
  c = config_1d(32, 32);
  c.cluster[0] = 32;
  c.cluster[1] = c.cluster[2] = 1;
  dc_status s = launch_empty(c);
  EXPECT_TRUE(s == DC_ERROR_LAUNCH_FAILED || s == DC_ERROR_INVALID_ARGUMENT) << dc_status_name(s);
  EXPECT_NE(std::string(dc_last_error_message()).find("cluster"), std::string::npos) << dc_last_error_message();
  sync();
}

TEST_F(ConfigTest, CooperativeGridMustFitOnTheDevice) {
  if (!info_.cooperative_launch) GTEST_SKIP() << "the device has no cooperative launch";
  dc_launch_config c = config_1d(100000, 1024);
  c.flags = DC_LAUNCH_COOPERATIVE;
  EXPECT_DC_ERROR(launch_empty(c), DC_ERROR_LAUNCH_FAILED, "a cooperative launch of 100000 blocks does not fit");
  EXPECT_NE(std::string(dc_last_error_message()).find(std::to_string(info_.multiprocessor_count) + " multiprocessors"),
            std::string::npos)
      << dc_last_error_message();
  // A prepared launch is refused when it is made.
  dc_launch l = nullptr;
  EXPECT_DC_ERROR(dc_launch_create(empty_, &c, &l), DC_ERROR_LAUNCH_FAILED, "does not fit on device 0 at once");
  EXPECT_EQ(l, nullptr);
  // One block per multiprocessor always fits.
  c = config_1d(static_cast<uint32_t>(info_.multiprocessor_count), 128);
  c.flags = DC_LAUNCH_COOPERATIVE;
  EXPECT_DC_OK(launch_empty(c));
  sync();
}

TEST_F(ConfigTest, BlocksLargerThanTheKernelAllowsAreExplained) {
  REQUIRE_NVRTC();  // `bounded` is a kernel of kLaunchKernels, which has no precompiled image
  dc_function bounded = kernel("bounded");
  ASSERT_NE(bounded, nullptr);
  int32_t max_threads = 0;
  ASSERT_DC_OK(dc_function_attribute(bounded, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, &max_threads));
  EXPECT_LE(max_threads, 128);
  dc_launch_config c = config_1d(1, 256);
  float* none = nullptr;
  dc_arg arg = value_of(none);
  EXPECT_DC_ERROR(dc_launch_kernel(bounded, &c, &arg, 1, stream_), DC_ERROR_LAUNCH_FAILED,
                  "bounded: a block of 256 threads is more than the kernel can run");
  EXPECT_NE(std::string(dc_last_error_message()).find("at most " + std::to_string(max_threads) + " threads per block"),
            std::string::npos)
      << dc_last_error_message();
  dc_launch l = nullptr;
  EXPECT_DC_ERROR(dc_launch_create(bounded, &c, &l), DC_ERROR_LAUNCH_FAILED, "a block of 256 threads");
  c = config_1d(2, 128);
  EXPECT_DC_OK(dc_launch_kernel(bounded, &c, &arg, 1, stream_));
  sync();
}

TEST_F(ConfigTest, PriorityAndProgrammaticSerializationGoThroughTheExtendedLaunch) {
  dc_launch_config c = config_1d(4, 64);
  c.priority = -1;
  EXPECT_DC_OK(launch_empty(c));
  c.priority = 0;
  c.flags = DC_LAUNCH_PROGRAMMATIC_SERIALIZATION;
  dc_status s = launch_empty(c);
  if (info_.compute_capability_major >= 9) {
    EXPECT_EQ(s, DC_SUCCESS) << dc_last_error_message();
  } else {
    EXPECT_EQ(s, DC_ERROR_NOT_SUPPORTED) << dc_last_error_message();
  }
  sync();
}

}  // namespace
