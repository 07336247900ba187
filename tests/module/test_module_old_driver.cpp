// A CUDA 12.0 driver (the fake reporting 12000): no cuModuleEnumerateFunctions,
// cuFuncGetName or cuFuncGetParamInfo, so kernel names and parameter layouts
// come from the image; PTX newer than the driver is refused with a message
// that says so. Fake driver only (a real driver is what it is).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "compile/kernel_sources.h"
#include "dccuda.h"
#include "support/fake.h"

namespace {

class OldDriverModules : public testing::Test {
 protected:
  void SetUp() override {
    REQUIRE_FAKE_DRIVER();
    int32_t version = 0;
    ASSERT_DC_OK(dc_driver_version(&version));
    if (version != 12000) GTEST_SKIP() << "runs with DCFAKE_DRIVER_VERSION=12000";
    int32_t major = 0, minor = 0;
    if (dc_nvrtc_version(&major, &minor) != DC_SUCCESS)
      GTEST_SKIP() << "needs NVRTC, not found: " << dctest::nvrtc_unavailable();
    ASSERT_DC_OK(dc_device_open(0, &device_));
  }
  void TearDown() override {
    dc_device_release(device_);
    EXPECT_EQ(dctest::live_handles(), 0u);
    // TearDown also runs after a skip in SetUp, where there may be no fake.
    if (const dctest::FakeDriver* fake = dctest::fake_driver()) {
      EXPECT_EQ(fake->live("modules"), 0);
      EXPECT_EQ(fake->call_count("cuFuncGetParamInfo"), 0) << "a 12.0 driver does not have it";
      EXPECT_EQ(fake->call_count("cuModuleEnumerateFunctions"), 0);
    }
  }
  std::string output(int32_t kind, dc_device device) {
    dc_compile_options o = DC_COMPILE_OPTIONS_INIT;
    o.output = kind;
    o.arch = 90;
    dc_program p = nullptr;
    EXPECT_DC_OK(dc_compile(dctest::kKernels, nullptr, &o, device, &p));
    const void* data = nullptr;
    uint64_t size = 0;
    dc_program_output(p, nullptr, &data, &size);
    std::string bytes(static_cast<const char*>(data), size);
    dc_program_release(p);
    return bytes;
  }
  void check_module(dc_module m) {
    uint32_t count = 0;
    ASSERT_DC_OK(dc_module_function_count(m, &count));
    std::vector<std::string> names;
    for (uint32_t i = 0; i < count; ++i) {
      const char* n = nullptr;
      ASSERT_DC_OK(dc_module_function_name(m, i, &n));
      names.emplace_back(n);
    }
    for (const std::string& k : dctest::kKernelNames)
      EXPECT_NE(std::find(names.begin(), names.end(), k), names.end()) << k << " was not read from the image";
    dc_function f = nullptr;
    ASSERT_DC_OK(dc_module_get_function(m, "mixed", &f));
    std::vector<dctest::ExpectedParam> expected = dctest::mixed_layout();
    uint32_t params = 0;
    ASSERT_DC_OK(dc_function_param_count(f, &params));
    ASSERT_EQ(params, expected.size());
    for (uint32_t i = 0; i < params; ++i) {
      uint64_t offset = 0, size = 0;
      ASSERT_DC_OK(dc_function_param_info(f, i, &offset, &size));
      EXPECT_EQ(offset, expected[i].offset) << "parameter " << i;
      EXPECT_EQ(size, expected[i].size) << "parameter " << i;
    }
    dc_function_info info = DC_FUNCTION_INFO_INIT;
    ASSERT_DC_OK(dc_function_get_info(f, &info));
    EXPECT_EQ(info.num_params, 6);
    dc_function_release(f);
    dc_function missing = nullptr;
    EXPECT_DC_ERROR(dc_module_get_function(m, "nope", &missing), DC_ERROR_NOT_FOUND, "saxpy");
  }
  dc_device device_ = nullptr;
};

TEST_F(OldDriverModules, CubinKernelsAndLayoutsComeFromTheElfImage) {
  std::string cubin = output(DC_OUTPUT_CUBIN, nullptr);
  dc_module m = nullptr;
  ASSERT_DC_OK(dc_module_load(device_, cubin.data(), cubin.size(), nullptr, &m));
  check_module(m);
  dc_module_release(m);
}

TEST_F(OldDriverModules, PtxKernelsAndLayoutsComeFromThePtxText) {
  std::string ptx = output(DC_OUTPUT_PTX, nullptr);
  // NVRTC 13 writes ISA 9.0, which a 12.0 driver cannot load; the same kernels
  // at ISA 8.0 are what an NVRTC of that driver's age would have written.
  size_t at = ptx.find(".version ");
  ASSERT_NE(at, std::string::npos);
  ptx.replace(at, ptx.find('\n', at) - at, ".version 8.0");
  dc_module m = nullptr;
  ASSERT_DC_OK(dc_module_load(device_, ptx.data(), ptx.size(), nullptr, &m));
  check_module(m);
  dc_module_release(m);
}

#ifdef DCTEST_KERNELS_FATBIN
TEST_F(OldDriverModules, PrecompiledImagesAreReadToo) {
  for (const char* file : {DCTEST_KERNELS_CUBIN, DCTEST_KERNELS_FATBIN}) {
    std::string path = dctest::next_to_executable(file);
    SCOPED_TRACE(path);
    dc_module m = nullptr;
    ASSERT_DC_OK(dc_module_load_file(device_, path.c_str(), nullptr, &m));
    check_module(m);
    dc_module_release(m);
  }
}
#endif

TEST_F(OldDriverModules, PtxNewerThanTheDriverIsRefusedClearly) {
  int32_t major = 0, minor = 0;
  dc_nvrtc_version(&major, &minor);
  if (major < 13) GTEST_SKIP() << "needs an NVRTC newer than CUDA 12.0";
  // Compiling for the device: refused at compile time, with the versions.
  dc_compile_options o = DC_COMPILE_OPTIONS_INIT;
  o.output = DC_OUTPUT_PTX;
  dc_program p = reinterpret_cast<dc_program>(1);
  EXPECT_DC_ERROR(dc_compile(dctest::kKernels, nullptr, &o, device_, &p), DC_ERROR_NOT_SUPPORTED,
                  "NVRTC is newer than the driver");
  EXPECT_NE(std::string(dc_last_error_message()).find("CUDA 12.0"), std::string::npos) << dc_last_error_message();
  EXPECT_EQ(p, nullptr);
  // CUBIN (the default) needs no JIT and works.
  dc_module m = nullptr;
  EXPECT_DC_OK(dc_module_compile_and_load(device_, dctest::kKernels, nullptr, nullptr, &m));
  dc_module_release(m);
  // PTX made without a device, then loaded: the driver's refusal is named.
  std::string ptx = output(DC_OUTPUT_PTX, nullptr);
  EXPECT_DC_ERROR(dc_module_load(device_, ptx.data(), ptx.size(), nullptr, &m), DC_ERROR_INVALID_IMAGE,
                  "newer than the installed driver");
  EXPECT_NE(std::string(dc_last_error_message()).find("ISA 9.0"), std::string::npos) << dc_last_error_message();
  EXPECT_NE(std::string(dc_last_error_detail()).find("Unsupported .version"), std::string::npos)
      << "the JIT error log: " << dc_last_error_detail();
}

}  // namespace
