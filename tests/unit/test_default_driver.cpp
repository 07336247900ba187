// The default search for the driver: libcuda.so.1, never the bare
// libcuda.so (the toolkit's stub). On a machine without a driver (CI) the
// answer is DC_ERROR_NO_DRIVER naming libcuda.so.1; where a driver is
// installed this test skips.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include "dccuda.h"
#include "support/fake.h"

TEST(DefaultDriver, NoDriverInstalledIsReportedClearly) {
  if (void* lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL)) {
    dlclose(lib);
    GTEST_SKIP() << "a driver (libcuda.so.1) is installed here";
  }
  int32_t v = 0;
  EXPECT_DC_ERROR(dc_driver_version(&v), DC_ERROR_NO_DRIVER, "could not load libcuda.so.1");
}

TEST(DefaultDriver, RealDriverWorksWhenInstalled) {
  void* lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib) GTEST_SKIP() << "no driver installed here";
  dlclose(lib);
  int32_t v = 0;
  ASSERT_DC_OK(dc_driver_version(&v));
  EXPECT_GE(v, 12000);
}
