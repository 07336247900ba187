// A driver without cuLibrary (run with the fake missing cuLibraryLoadData):
// dc_library_load says what is missing and what to do instead.
#include <gtest/gtest.h>

#include "dccuda.h"
#include "support/fake.h"

namespace {

TEST(LibraryUnsupported, LoadNamesTheDriverVersionNeeded) {
  REQUIRE_FAKE_DRIVER();
  REQUIRE_DEVICE();
  const char ptx[] = ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry empty()\n{\n ret;\n}\n";
  dc_library l = nullptr;
  EXPECT_DC_ERROR(dc_library_load(ptx, sizeof ptx, nullptr, &l), DC_ERROR_NOT_SUPPORTED, "CUDA 12.0 or newer");
  EXPECT_NE(std::string(dc_last_error_message()).find("dc_module_load"), std::string::npos)
      << dc_last_error_message();
  EXPECT_EQ(l, nullptr);
  EXPECT_EQ(dctest::live_handles(), 0u);
}

}  // namespace
