// dc_link where nvJitLink is absent (DCCUDA_NVJITLINK_LIBRARY names a file
// that does not exist): LTO-IR is refused naming the library and how to
// provide it; relocatable CUBIN and PTX fall back to the driver's cuLink.
#include "link/link_test.h"

namespace {

using namespace linktest;

// Run as meant (DCCUDA_NVJITLINK_LIBRARY naming nothing) or skip: the GPU
// runner starts every binary without the CTest environment.
#define REQUIRE_NO_NVJITLINK()                                                                  \
  do {                                                                                          \
    if (have_nvjitlink()) GTEST_SKIP() << "runs with DCCUDA_NVJITLINK_LIBRARY=/nonexistent/..."; \
  } while (0)

TEST_F(LinkTest, TheVersionSaysWhatWasTriedAndWhatToDo) {
  REQUIRE_NO_NVJITLINK();
  int32_t major = 7, minor = 7;
  EXPECT_DC_ERROR(dc_nvjitlink_version(&major, &minor), DC_ERROR_NOT_SUPPORTED,
                  "nvJitLink is not available (tried /nonexistent/libnvJitLink.so.13)");
  EXPECT_NE(std::string(dc_last_error_message()).find("DCCUDA_NVJITLINK_LIBRARY"), std::string::npos);
  EXPECT_EQ(major, 0);
  EXPECT_EQ(minor, 0);
}

TEST_F(LinkTest, LtoIrIsRefusedNamingTheLibrary) {
  REQUIRE_NO_NVJITLINK();
  dc_program caller = compile(kCaller, DC_OUTPUT_LTOIR, DC_COMPILE_RELOCATABLE);
  ASSERT_NE(caller, nullptr);
  dc_link_input in[] = {program_input(caller)};
  dc_link_options o = options();
  dc_program p = nullptr;
  EXPECT_DC_ERROR(dc_link(in, 1, &o, device_, &p), DC_ERROR_NOT_SUPPORTED,
                  "the driver's cuLink cannot link LTO-IR; provide nvJitLink");
  EXPECT_NE(std::string(dc_last_error_message()).find("/nonexistent/libnvJitLink.so.13"), std::string::npos);
  EXPECT_EQ(p, nullptr);
}

TEST_F(LinkTest, RelocatableCodeFallsBackToTheDriver) {
  REQUIRE_NO_NVJITLINK();
  dc_program caller = compile(kCaller, DC_OUTPUT_CUBIN, DC_COMPILE_RELOCATABLE);
  dc_program callee = compile(kCallee, DC_OUTPUT_CUBIN, DC_COMPILE_RELOCATABLE);
  ASSERT_TRUE(caller && callee);
  dc_program linked = link({program_input(caller), program_input(callee)}, options(), device_);
  if (auto* f = dctest::fake_driver()) {
    EXPECT_EQ(f->call_count("cuLinkComplete"), 1);
  }
  run_saxpy(linked);
}

TEST_F(LinkTest, WithoutADeviceThereIsNoLinker) {
  REQUIRE_NO_NVJITLINK();
  dc_program caller = compile(kCaller, DC_OUTPUT_CUBIN, DC_COMPILE_RELOCATABLE);
  ASSERT_NE(caller, nullptr);
  dc_link_input in[] = {program_input(caller)};
  dc_link_options o = options();
  o.arch = arch_;
  dc_program p = nullptr;
  EXPECT_DC_ERROR(dc_link(in, 1, &o, nullptr, &p), DC_ERROR_NOT_SUPPORTED, "links in a device's context: pass a device");
}

}  // namespace
