// A driver without cuLaunchKernelEx and cuOccupancyMaxActiveClusters (fake,
// DCFAKE_MISSING): plain launches work, launches that need the extended entry
// point (cooperative, clusters, priority) say which entry point is missing.
#include "launch/launch_test.h"

namespace {

using namespace launchtest;

class NoExtendedLaunchTest : public LaunchTest {};

TEST_F(NoExtendedLaunchTest, OnlyWhatNeedsTheMissingEntryPointFails) {
  REQUIRE_FAKE_DRIVER();
  REQUIRE_NVRTC();
  dc_function f = kernel("empty");
  ASSERT_NE(f, nullptr);
  dc_launch_config c = config_1d(2, 64);
  EXPECT_DC_OK(dc_launch_kernel(f, &c, nullptr, 0, stream_));
  c.flags = DC_LAUNCH_COOPERATIVE;
  EXPECT_DC_ERROR(dc_launch_kernel(f, &c, nullptr, 0, stream_), DC_ERROR_NOT_SUPPORTED, "lacks cuLaunchKernelEx");
  c.flags = 0;
  c.priority = -2;
  EXPECT_DC_ERROR(dc_launch_kernel(f, &c, nullptr, 0, stream_), DC_ERROR_NOT_SUPPORTED, "lacks cuLaunchKernelEx");
  c.priority = 0;
  c.cluster[0] = 2;
  c.cluster[1] = c.cluster[2] = 1;
  int32_t clusters = 0;
  EXPECT_DC_ERROR(dc_occupancy_max_active_clusters(f, &c, &clusters), DC_ERROR_NOT_SUPPORTED,
                  "lacks cuOccupancyMaxActiveClusters");
  sync();
}

}  // namespace
