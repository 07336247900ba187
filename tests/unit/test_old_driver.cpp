// Old drivers, through the fake (which can report any CUDA version and lacks
// the entry points newer than it). A 12.0 driver: everything 12.0 could do
// works, newer entry points are reported as needing a newer driver. An 11.8
// driver: refused with a clear message.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "dccuda.h"
#include "support/fake.h"

namespace {

int fake_version() {
  const char* v = std::getenv("DCFAKE_DRIVER_VERSION");
  return v ? std::atoi(v) : 0;
}

TEST(OldDriver, Cuda12_0Works) {
  REQUIRE_FAKE_DRIVER();
  if (fake_version() != 12000) GTEST_SKIP() << "runs with DCFAKE_DRIVER_VERSION=12000";
  int32_t version = 0;
  ASSERT_DC_OK(dc_driver_version(&version));
  EXPECT_EQ(version, 12000);
  dc_device device = nullptr;
  ASSERT_DC_OK(dc_device_open(0, &device));
  dc_device_info info = DC_DEVICE_INFO_INIT;
  EXPECT_DC_OK(dc_device_get_info(device, &info));
  EXPECT_DC_OK(dc_device_synchronize(device));
  dc_device_release(device);
  EXPECT_EQ(dctest::fake_driver()->legacy_calls(), 0);
}

TEST(OldDriver, Cuda11IsRefusedClearly) {
  REQUIRE_FAKE_DRIVER();
  if (fake_version() != 11080) GTEST_SKIP() << "runs with DCFAKE_DRIVER_VERSION=11080";
  int32_t count = 0;
  EXPECT_DC_ERROR(dc_device_count(&count), DC_ERROR_NOT_SUPPORTED, "needs CUDA 12.0 or newer");
  EXPECT_NE(std::string(dc_last_error_message()).find("11.8"), std::string::npos) << dc_last_error_message();
}

}  // namespace
