// dc_init with explicit options. Its own main: dc_init must be the process's
// first dccuda call, so the tests run in a fixed order in one process.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "dccuda.h"
#include "support/fake.h"

namespace {

// One test: dc_init must come before any other call in the process, and
// CTest runs each test case in a process of its own.
TEST(Init, ExplicitOptionsInOrder) {
  {
    SCOPED_TRACE("a struct_size too small is refused (and does not initialise)");
    dc_init_options options = DC_INIT_OPTIONS_INIT;
    options.struct_size = 4;
    EXPECT_DC_ERROR(dc_init(&options), DC_ERROR_INVALID_ARGUMENT, "struct_size is 4");
  }
  {
    SCOPED_TRACE("unknown flags are refused");
    dc_init_options options = DC_INIT_OPTIONS_INIT;
    options.flags = 0x80000000u;
    EXPECT_DC_ERROR(dc_init(&options), DC_ERROR_INVALID_ARGUMENT, "unknown bits 0x80000000");
  }
  {
    SCOPED_TRACE("the explicit driver path is used (DCCUDA_DRIVER_LIBRARY is not set here)");
    const char* fake = std::getenv("DCFAKE_PATH");
    ASSERT_NE(fake, nullptr);
    ASSERT_EQ(std::getenv("DCCUDA_DRIVER_LIBRARY"), nullptr);
    dc_init_options options = DC_INIT_OPTIONS_INIT;
    options.driver_library = fake;
    options.flags = DC_INIT_NO_NVRTC;
    ASSERT_DC_OK(dc_init(&options));
    const char* path = nullptr;
    ASSERT_DC_OK(dc_driver_library(&path));
    EXPECT_EQ(std::string(path), fake);
    int32_t count = 0;
    ASSERT_DC_OK(dc_device_count(&count));
    EXPECT_EQ(count, 1);
  }
  {
    SCOPED_TRACE("DC_INIT_NO_NVRTC disables compilation");
    int32_t major = 0, minor = 0;
    EXPECT_DC_ERROR(dc_nvrtc_version(&major, &minor), DC_ERROR_NO_COMPILER, "DC_INIT_NO_NVRTC");
  }
  {
    SCOPED_TRACE("a second dc_init is refused");
    EXPECT_DC_ERROR(dc_init(nullptr), DC_ERROR_INVALID_STATE, "already initialised");
  }
}

}  // namespace

int main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  std::printf("[ dccuda   ] driver: the FAKE driver, named through dc_init (test double, no GPU)\n");
  return RUN_ALL_TESTS();
}
