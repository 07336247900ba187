// Compilation needs neither a GPU nor a driver: this binary runs with a driver
// path that does not exist, as on a CI machine without NVIDIA hardware.
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "compile/kernel_sources.h"
#include "dccuda.h"
#include "support/fake.h"

namespace {

// Run directly on a machine with a driver, the tests skip.
#define REQUIRE_NO_DRIVER()                                        \
  do {                                                             \
    int32_t v = 0;                                                 \
    if (dc_driver_version(&v) != DC_ERROR_NO_DRIVER)               \
      GTEST_SKIP() << "runs with DCCUDA_DRIVER_LIBRARY=/nonexistent"; \
  } while (0)

TEST(CompileWithoutDriver, CubinAndPtxForAnExplicitArchitecture) {
  REQUIRE_NO_DRIVER();
  SKIP_WITHOUT_NVRTC();
  int32_t count = 0;
  EXPECT_EQ(dc_device_count(&count), DC_ERROR_NO_DRIVER);
  int32_t major = 0, minor = 0;
  ASSERT_DC_OK(dc_nvrtc_version(&major, &minor));
  EXPECT_GE(major, 12);

  dc_compile_options o = DC_COMPILE_OPTIONS_INIT;
  o.arch = 90;
  dc_program cubin = nullptr;
  ASSERT_DC_OK(dc_compile(dctest::kKernels, "kernels.cu", &o, nullptr, &cubin));
  const void* data = nullptr;
  uint64_t size = 0;
  ASSERT_DC_OK(dc_program_output(cubin, nullptr, &data, &size));
  EXPECT_EQ(std::memcmp(data, "\x7f" "ELF", 4), 0);
  dc_program_release(cubin);

  o.output = DC_OUTPUT_PTX;
  dc_program ptx = nullptr;
  ASSERT_DC_OK(dc_compile(dctest::kKernels, "kernels.cu", &o, nullptr, &ptx));
  ASSERT_DC_OK(dc_program_output(ptx, nullptr, &data, &size));
  EXPECT_NE(std::string(static_cast<const char*>(data)).find(".entry saxpy"), std::string::npos);
  dc_program_release(ptx);
  EXPECT_EQ(dctest::live_handles(), 0u);
}

TEST(CompileWithoutDriver, CubinWithoutArchitectureIsRefused) {
  REQUIRE_NO_DRIVER();
  dc_program p = nullptr;
  EXPECT_DC_ERROR(dc_compile("__global__ void k() {}", nullptr, nullptr, nullptr, &p), DC_ERROR_INVALID_ARGUMENT,
                  "architecture");
}

TEST(CompileWithoutDriver, CompileErrorsStillCarryTheLog) {
  SKIP_WITHOUT_NVRTC();
  REQUIRE_NO_DRIVER();
  dc_compile_options o = DC_COMPILE_OPTIONS_INIT;
  o.arch = 90;
  dc_program p = nullptr;
  EXPECT_DC_ERROR(dc_compile("__global__ void k() { oops; }", "oops.cu", &o, nullptr, &p), DC_ERROR_COMPILE, "oops");
  EXPECT_NE(std::string(dc_last_error_detail()).find("oops.cu"), std::string::npos);
}

}  // namespace
