// Context-independent libraries (dc_library): one image loaded once, its
// kernels got as functions on every device and launched there. In CI two
// fake devices (DCFAKE_DEVICES=2); on a GPU machine every device present.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "compile/kernel_sources.h"
#include "dccuda.h"
#include "support/fake.h"

namespace {

std::vector<char> read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<char>(std::istreambuf_iterator<char>(in), {});
}

class LibraryTest : public testing::Test {
 protected:
  void SetUp() override {
    REQUIRE_DEVICE();
    if (auto* f = dctest::fake_driver()) f->reset();
    int32_t count = 0;
    ASSERT_DC_OK(dc_device_count(&count));
    for (int32_t i = 0; i < count; ++i) {
      dc_device d = nullptr;
      ASSERT_DC_OK(dc_device_open(i, &d));
      devices_.push_back(d);
    }
    path_ = dctest::next_to_executable(DCTEST_KERNELS_FATBIN);
    image_ = read_all(path_);
    ASSERT_FALSE(image_.empty()) << path_;
  }
  void TearDown() override {
    for (dc_buffer b : buffers_) dc_buffer_release(b);
    for (dc_function f : functions_) dc_function_release(f);
    for (dc_library l : libraries_) dc_library_release(l);
    for (dc_device d : devices_) dc_device_release(d);
    EXPECT_EQ(dctest::live_handles(), 0u) << "a test leaked handles";
    if (auto* f = dctest::fake_driver()) {
      EXPECT_EQ(f->live("libraries"), 0) << "a library was never unloaded";
      EXPECT_EQ(f->live("modules"), 0) << "a library's per-context module outlived it";
    }
  }
  dc_library load() {
    dc_library l = nullptr;
    EXPECT_DC_OK(dc_library_load(image_.data(), image_.size(), nullptr, &l));
    if (l) libraries_.push_back(l);
    return l;
  }
  dc_function function(dc_library l, dc_device d, const char* name) {
    dc_function f = nullptr;
    EXPECT_DC_OK(dc_library_get_function(l, d, name, &f));
    if (f) functions_.push_back(f);
    return f;
  }
  dc_buffer buffer(dc_device d, const std::vector<float>& values) {
    dc_buffer b = nullptr;
    EXPECT_DC_OK(dc_buffer_alloc(d, values.size() * sizeof(float), 0, &b));
    if (!b) return nullptr;
    buffers_.push_back(b);
    EXPECT_DC_OK(dc_buffer_write(b, 0, values.data(), values.size() * sizeof(float)));
    return b;
  }
  // y = a * x + y on the function's device; returns y.
  std::vector<float> saxpy(dc_function f, dc_device d, float a, const std::vector<float>& x, std::vector<float> y) {
    dc_buffer bx = buffer(d, x), by = buffer(d, y);
    int32_t n = static_cast<int32_t>(x.size());
    dc_launch_config c = DC_LAUNCH_CONFIG_INIT;
    EXPECT_DC_OK(dc_launch_config_1d(f, x.size(), 0, &c));
    dc_arg args[] = {DC_ARG_VALUE_OF(&a), DC_ARG_BUFFER_OF(bx), DC_ARG_BUFFER_OF(by), DC_ARG_VALUE_OF(&n)};
    dc_stream s = nullptr;
    EXPECT_DC_OK(dc_stream_create(d, 0, 0, &s));
    EXPECT_DC_OK(dc_launch_kernel(f, &c, args, 4, s));
    EXPECT_DC_OK(dc_stream_synchronize(s));
    dc_stream_release(s);
    EXPECT_DC_OK(dc_buffer_read(by, 0, y.data(), y.size() * sizeof(float)));
    return y;
  }
  std::vector<dc_device> devices_;
  std::string path_;
  std::vector<char> image_;
  std::vector<dc_library> libraries_;
  std::vector<dc_function> functions_;
  std::vector<dc_buffer> buffers_;
};

TEST_F(LibraryTest, ListsTheImagesKernels) {
  dc_library l = load();
  ASSERT_NE(l, nullptr);
  uint32_t count = 0;
  ASSERT_DC_OK(dc_library_function_count(l, &count));
  std::vector<std::string> names;
  for (uint32_t i = 0; i < count; ++i) {
    const char* name = nullptr;
    ASSERT_DC_OK(dc_library_function_name(l, i, &name));
    names.emplace_back(name);
  }
  for (const std::string& k : dctest::kKernelNames)
    EXPECT_NE(std::find(names.begin(), names.end(), k), names.end()) << k << " not listed";
  const char* name = nullptr;
  EXPECT_DC_ERROR(dc_library_function_name(l, count, &name), DC_ERROR_OUT_OF_RANGE, "out of range");
  EXPECT_EQ(name, nullptr);
}

// The point of a library: loaded once, a function on every device, each
// launch computing on its own device.
TEST_F(LibraryTest, OneLoadServesLaunchesOnEveryDevice) {
  if (dctest::fake_driver()) {
    EXPECT_GE(devices_.size(), 2u) << "the fake should have two devices here";
  }
  long loads_before = dctest::fake_driver() ? dctest::fake_driver()->call_count("cuLibraryLoadData") : 0;
  dc_library l = load();
  ASSERT_NE(l, nullptr);
  std::vector<float> x(1000), y(1000);
  for (size_t i = 0; i < x.size(); ++i) {
    x[i] = static_cast<float>(i);
    y[i] = 1.0f + static_cast<float>(i % 7);
  }
  for (size_t d = 0; d < devices_.size(); ++d) {
    SCOPED_TRACE("device " + std::to_string(d));
    dc_function f = function(l, devices_[d], "saxpy");
    ASSERT_NE(f, nullptr);
    const char* name = nullptr;
    ASSERT_DC_OK(dc_function_name(f, &name));
    EXPECT_STREQ(name, "saxpy");
    uint32_t params = 0;
    ASSERT_DC_OK(dc_function_param_count(f, &params));
    EXPECT_EQ(params, 4u);
    float a = 2.0f + static_cast<float>(d);
    std::vector<float> got = saxpy(f, devices_[d], a, x, y);
    for (size_t i = 0; i < x.size(); ++i) ASSERT_EQ(got[i], a * x[i] + y[i]) << "element " << i;
  }
  if (auto* fake = dctest::fake_driver()) {
    EXPECT_EQ(fake->call_count("cuLibraryLoadData") - loads_before, 1);
    EXPECT_EQ(fake->call_count("cuModuleLoadDataEx"), 0) << "a library must not load per device";
    EXPECT_EQ(fake->live("modules"), static_cast<long>(devices_.size())) << "one copy of the code per device";
  }
}

// Functions keep the library loaded: releasing it first changes nothing for them.
TEST_F(LibraryTest, ReleaseWhileFunctionsLive) {
  dc_library l = nullptr;
  ASSERT_DC_OK(dc_library_load(image_.data(), image_.size(), nullptr, &l));
  std::vector<dc_function> fs;
  for (dc_device d : devices_) {
    dc_function f = nullptr;
    ASSERT_DC_OK(dc_library_get_function(l, d, "saxpy", &f));
    functions_.push_back(f);
    fs.push_back(f);
  }
  dc_library_release(l);
  uint32_t count = 0;
  EXPECT_DC_ERROR(dc_library_function_count(l, &count), DC_ERROR_INVALID_HANDLE, "library");
  if (auto* fake = dctest::fake_driver()) {
    EXPECT_EQ(fake->live("libraries"), 1) << "unloaded under its functions";
  }
  std::vector<float> x = {1, 2, 3}, y = {10, 20, 30};
  for (size_t d = 0; d < fs.size(); ++d) {
    std::vector<float> got = saxpy(fs[d], devices_[d], 3.0f, x, y);
    EXPECT_EQ(got, (std::vector<float>{13, 26, 39}));
  }
  for (dc_function f : functions_) dc_function_release(f);
  functions_.clear();
  if (auto* fake = dctest::fake_driver()) {
    EXPECT_EQ(fake->live("libraries"), 0) << "the last function released it";
  }
}

TEST_F(LibraryTest, LoadsFromAFile) {
  dc_library l = nullptr;
  ASSERT_DC_OK(dc_library_load_file(path_.c_str(), nullptr, &l));
  libraries_.push_back(l);
  EXPECT_NE(function(l, devices_[0], "mixed"), nullptr);
  EXPECT_DC_ERROR(dc_library_load_file("/nonexistent/kernels.fatbin", nullptr, &l), DC_ERROR_NOT_FOUND,
                  "/nonexistent/kernels.fatbin");
  EXPECT_EQ(l, nullptr);
}

TEST_F(LibraryTest, BadInput) {
  dc_library l = nullptr;
  EXPECT_DC_ERROR(dc_library_load(nullptr, 16, nullptr, &l), DC_ERROR_INVALID_ARGUMENT, "image");
  EXPECT_DC_ERROR(dc_library_load(image_.data(), 0, nullptr, &l), DC_ERROR_INVALID_ARGUMENT, "size is 0");
  EXPECT_DC_ERROR(dc_library_load(image_.data(), image_.size() / 2, nullptr, &l), DC_ERROR_INVALID_IMAGE, "");
  const char junk[] = "\x7f" "ELF but not really";
  EXPECT_DC_ERROR(dc_library_load(junk, sizeof junk, nullptr, &l), DC_ERROR_INVALID_IMAGE, "");
  dc_module_options o = DC_MODULE_OPTIONS_INIT;
  o.reserved = 1;
  EXPECT_DC_ERROR(dc_library_load(image_.data(), image_.size(), &o, &l), DC_ERROR_INVALID_ARGUMENT,
                  "options->reserved");
  EXPECT_EQ(l, nullptr);

  l = load();
  ASSERT_NE(l, nullptr);
  dc_function f = nullptr;
  EXPECT_DC_ERROR(dc_library_get_function(l, devices_[0], "no_such_kernel", &f), DC_ERROR_NOT_FOUND, "saxpy");
  EXPECT_DC_ERROR(dc_library_get_function(l, devices_[0], "", &f), DC_ERROR_INVALID_ARGUMENT, "name is empty");
  EXPECT_DC_ERROR(dc_library_get_function(l, nullptr, "saxpy", &f), DC_ERROR_INVALID_HANDLE, "device");
  EXPECT_DC_ERROR(dc_library_get_function(nullptr, devices_[0], "saxpy", &f), DC_ERROR_INVALID_HANDLE, "library");
  EXPECT_DC_ERROR(dc_library_get_function(reinterpret_cast<dc_library>(devices_[0]), devices_[0], "saxpy", &f),
                  DC_ERROR_INVALID_HANDLE, "library");
  EXPECT_EQ(f, nullptr);
  dc_library_release(nullptr);
}

// After a device reset the library loads its code into the new context on
// the next request; functions got before the reset are unusable.
TEST_F(LibraryTest, DeviceResetReloadsOnRequest) {
  dc_library l = load();
  ASSERT_NE(l, nullptr);
  dc_function before = function(l, devices_[0], "saxpy");
  ASSERT_NE(before, nullptr);
  ASSERT_DC_OK(dc_device_reset(devices_[0]));
  dc_launch_config c = DC_LAUNCH_CONFIG_INIT;
  EXPECT_DC_ERROR(dc_launch_config_1d(before, 10, 0, &c), DC_ERROR_CONTEXT_LOST, "");
  dc_function after = function(l, devices_[0], "saxpy");
  ASSERT_NE(after, nullptr);
  std::vector<float> got = saxpy(after, devices_[0], 2.0f, {1, 2}, {1, 1});
  EXPECT_EQ(got, (std::vector<float>{3, 5}));
}

// Fault injection: every driver call a library makes can fail; the failure is
// reported with the call's name and nothing leaks.
TEST_F(LibraryTest, DriverFailuresAreReported) {
  REQUIRE_FAKE_DRIVER();
  auto* fake = dctest::fake_driver();
  dc_library l = nullptr;
  fake->inject("cuLibraryLoadData", 1, 2 /* CUDA_ERROR_OUT_OF_MEMORY */, 1);
  EXPECT_DC_ERROR(dc_library_load(image_.data(), image_.size(), nullptr, &l), DC_ERROR_OUT_OF_MEMORY,
                  "cuLibraryLoadData");
  l = load();
  ASSERT_NE(l, nullptr);
  dc_function f = nullptr;
  fake->inject("cuLibraryGetKernel", 1, 1 /* CUDA_ERROR_INVALID_VALUE */, 1);
  EXPECT_DC_ERROR(dc_library_get_function(l, devices_[0], "saxpy", &f), DC_ERROR_INVALID_ARGUMENT,
                  "cuLibraryGetKernel");
  fake->inject("cuKernelGetFunction", 1, 2, 1);
  EXPECT_DC_ERROR(dc_library_get_function(l, devices_[0], "saxpy", &f), DC_ERROR_OUT_OF_MEMORY,
                  "cuKernelGetFunction");
  fake->inject("cuKernelGetFunction", 1, 209 /* CUDA_ERROR_NO_BINARY_FOR_GPU */, 1);
  EXPECT_DC_ERROR(dc_library_get_function(l, devices_[0], "saxpy", &f), DC_ERROR_INVALID_IMAGE, "no code device 0");
  EXPECT_EQ(f, nullptr);
  EXPECT_NE(function(l, devices_[0], "saxpy"), nullptr) << "a failure must leave the library usable";
}

}  // namespace
