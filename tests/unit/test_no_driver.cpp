// Without any driver the library loads, says why every driver call fails,
// and keeps working where it can (status names, NVRTC, handle checks).
#include <gtest/gtest.h>

#include <string>

#include "dccuda.h"
#include "support/fake.h"

TEST(NoDriver, DriverCallsReportNoDriverWithWhatWasTried) {
  int32_t version = 123;
  EXPECT_DC_ERROR(dc_driver_version(&version), DC_ERROR_NO_DRIVER, "/nonexistent/libcuda.so.1");
  EXPECT_EQ(version, 0) << "out-pointers are zeroed on failure";
  std::string message = dc_last_error_message();
  EXPECT_NE(message.find("dc_driver_version"), std::string::npos) << message;
  EXPECT_NE(message.find("DCCUDA_DRIVER_LIBRARY"), std::string::npos) << message;
  EXPECT_NE(message.find("install the NVIDIA driver"), std::string::npos) << message;

  int32_t count = 7;
  EXPECT_DC_ERROR(dc_device_count(&count), DC_ERROR_NO_DRIVER, "dc_device_count: no CUDA driver");
  EXPECT_EQ(count, 0);

  dc_device device = reinterpret_cast<dc_device>(0x1234);
  EXPECT_DC_ERROR(dc_device_open(0, &device), DC_ERROR_NO_DRIVER, "dc_device_open");
  EXPECT_EQ(device, nullptr);

  const char* path = "x";
  EXPECT_DC_ERROR(dc_driver_library(&path), DC_ERROR_NO_DRIVER, "no CUDA driver");
  EXPECT_EQ(path, nullptr);
}

TEST(NoDriver, LastErrorIsClearedBySuccess) {
  int32_t v = 0;
  EXPECT_NE(dc_driver_version(&v), DC_SUCCESS);
  EXPECT_STRNE(dc_last_error_message(), "");
  EXPECT_EQ(dc_last_error_status(), DC_ERROR_NO_DRIVER);
  uint64_t n = 0;
  EXPECT_DC_OK(dc_handle_count(DC_HANDLE_DEVICE, &n));
  EXPECT_STREQ(dc_last_error_message(), "");
  EXPECT_EQ(dc_last_error_status(), DC_SUCCESS);
  EXPECT_EQ(dc_last_error_cuda(), 0);
}

TEST(NoDriver, NvrtcStillWorks) {
  SKIP_WITHOUT_NVRTC();
  int32_t major = 0, minor = 0;
  ASSERT_DC_OK(dc_nvrtc_version(&major, &minor));
  EXPECT_GE(major, 12);
}

TEST(NoDriver, HandleMisuseIsInvalidHandleNotACrash) {
  dc_device_info info = DC_DEVICE_INFO_INIT;
  EXPECT_DC_ERROR(dc_device_get_info(nullptr, &info), DC_ERROR_INVALID_HANDLE, "device is NULL");
  EXPECT_DC_ERROR(dc_device_get_info(reinterpret_cast<dc_device>(0xdeadbeef), &info), DC_ERROR_INVALID_HANDLE,
                  "not a valid dc_device");
  dc_device_release(nullptr);
  dc_device_release(reinterpret_cast<dc_device>(0xdeadbeef));
}

TEST(NoDriver, InitAfterFirstUseIsInvalidState) {
  int32_t v = 0;
  dc_driver_version(&v);
  EXPECT_DC_ERROR(dc_init(nullptr), DC_ERROR_INVALID_STATE, "already initialised");
}

TEST(NoDriver, VersionMatchesHeader) { EXPECT_EQ(dc_version(), static_cast<uint32_t>(DCCUDA_VERSION)); }
