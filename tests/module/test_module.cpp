// Modules and functions: loading PTX, CUBIN and fatbin images, looking up
// kernels, parameter layouts, attributes, errors and lifetimes. Runs against
// the fake driver in CI and against the real driver on a GPU machine; every
// expected layout comes from the C ABI (sizeof/alignof), never from the fake.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "compile/kernel_sources.h"
#include "dccuda.h"
#include "support/fake.h"

namespace {

class ModuleTest : public testing::Test {
 protected:
  void SetUp() override {
    REQUIRE_DEVICE();
    if (auto* f = dctest::fake_driver()) f->reset();
    ASSERT_DC_OK(dc_device_open(0, &device_));
    int32_t major = 0, minor = 0;
    have_nvrtc_ = dc_nvrtc_version(&major, &minor) == DC_SUCCESS;
  }
  void TearDown() override {
    for (dc_function f : functions_) dc_function_release(f);
    for (dc_module m : modules_) dc_module_release(m);
    for (dc_program p : programs_) dc_program_release(p);
    dc_device_release(device_);
    EXPECT_EQ(dctest::live_handles(), 0u) << "a test leaked handles";
    if (auto* f = dctest::fake_driver()) {
      EXPECT_EQ(f->live("modules"), 0) << "a module was never unloaded";
    }
  }
  dc_program compile(int32_t output, const std::string& source = dctest::kKernels,
                     std::vector<const char*> expressions = {}) {
    if (!have_nvrtc_) return nullptr;
    dc_compile_options o = DC_COMPILE_OPTIONS_INIT;
    o.output = output;
    o.num_name_expressions = static_cast<uint32_t>(expressions.size());
    o.name_expressions = expressions.data();
    dc_program p = nullptr;
    EXPECT_DC_OK(dc_compile(source.c_str(), "kernels.cu", &o, device_, &p));
    if (p) programs_.push_back(p);
    return p;
  }
  dc_module load(dc_program p) {
    dc_module m = nullptr;
    EXPECT_DC_OK(dc_module_load_program(device_, p, nullptr, &m));
    if (m) modules_.push_back(m);
    return m;
  }
  dc_function function(dc_module m, const char* name) {
    dc_function f = nullptr;
    EXPECT_DC_OK(dc_module_get_function(m, name, &f));
    if (f) functions_.push_back(f);
    return f;
  }
  static std::vector<dctest::ExpectedParam> layout_of(dc_function f) {
    std::vector<dctest::ExpectedParam> out;
    uint32_t count = 0;
    EXPECT_DC_OK(dc_function_param_count(f, &count));
    for (uint32_t i = 0; i < count; ++i) {
      dctest::ExpectedParam p{};
      EXPECT_DC_OK(dc_function_param_info(f, i, &p.offset, &p.size));
      out.push_back(p);
    }
    return out;
  }
  static std::vector<std::string> names_of(dc_module m) {
    uint32_t count = 0;
    EXPECT_DC_OK(dc_module_function_count(m, &count));
    std::vector<std::string> out;
    for (uint32_t i = 0; i < count; ++i) {
      const char* name = nullptr;
      EXPECT_DC_OK(dc_module_function_name(m, i, &name));
      if (name) out.emplace_back(name);
    }
    return out;
  }
  dc_device device_ = nullptr;
  bool have_nvrtc_ = false;
  std::vector<dc_program> programs_;
  std::vector<dc_module> modules_;
  std::vector<dc_function> functions_;
};

#define REQUIRE_NVRTC() \
  if (!have_nvrtc_) GTEST_SKIP() << "needs NVRTC, not found: " << dctest::nvrtc_unavailable()


class EveryOutput : public ModuleTest, public testing::WithParamInterface<int32_t> {};

TEST_P(EveryOutput, LoadsAndFindsEveryKernel) {
  REQUIRE_NVRTC();
  dc_module m = load(compile(GetParam()));
  ASSERT_NE(m, nullptr);
  std::vector<std::string> names = names_of(m);
  for (const std::string& k : dctest::kKernelNames) {
    EXPECT_NE(std::find(names.begin(), names.end(), k), names.end()) << k << " not listed";
    dc_function f = function(m, k.c_str());
    ASSERT_NE(f, nullptr) << k;
    const char* name = nullptr;
    ASSERT_DC_OK(dc_function_name(f, &name));
    EXPECT_EQ(name, k);
    void* native = nullptr;
    EXPECT_DC_OK(dc_function_native(f, &native));
    EXPECT_NE(native, nullptr);
  }
  const char* log = nullptr;
  ASSERT_DC_OK(dc_module_jit_log(m, &log));
  ASSERT_NE(log, nullptr);
  const char* out_of_range = reinterpret_cast<const char*>(1);
  EXPECT_DC_ERROR(dc_module_function_name(m, static_cast<uint32_t>(names.size()), &out_of_range),
                  DC_ERROR_OUT_OF_RANGE, "out of range");
  EXPECT_EQ(out_of_range, nullptr);
}

TEST_P(EveryOutput, ParameterLayoutsFollowTheCAbi) {
  REQUIRE_NVRTC();
  dc_module m = load(compile(GetParam()));
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(layout_of(function(m, "saxpy")), dctest::saxpy_layout());
  EXPECT_EQ(layout_of(function(m, "mixed")), dctest::mixed_layout());
  EXPECT_TRUE(layout_of(function(m, "empty")).empty());
  dc_function mixed = function(m, "mixed");
  dc_function_info info = DC_FUNCTION_INFO_INIT;
  ASSERT_DC_OK(dc_function_get_info(mixed, &info));
  std::vector<dctest::ExpectedParam> expected = dctest::mixed_layout();
  EXPECT_EQ(info.num_params, static_cast<int32_t>(expected.size()));
  EXPECT_EQ(info.params_bytes, expected.back().offset + expected.back().size);
  uint64_t offset = 1, size = 1;
  EXPECT_DC_ERROR(dc_function_param_info(mixed, 6, &offset, &size), DC_ERROR_OUT_OF_RANGE, "6 parameters");
  EXPECT_EQ(offset, 0u);
  EXPECT_EQ(size, 0u);
}

INSTANTIATE_TEST_SUITE_P(Outputs, EveryOutput, testing::Values(DC_OUTPUT_CUBIN, DC_OUTPUT_PTX),
                         [](const testing::TestParamInfo<int32_t>& i) {
                           return std::string(i.param == DC_OUTPUT_CUBIN ? "Cubin" : "Ptx");
                         });

TEST_F(ModuleTest, TemplatesThroughNameExpressions) {
  REQUIRE_NVRTC();
  dc_program p = compile(DC_OUTPUT_CUBIN, dctest::kKernels, {"scale<float>", "scale<double>"});
  dc_module m = load(p);
  ASSERT_NE(m, nullptr);
  const char* lowered = nullptr;
  ASSERT_DC_OK(dc_program_lowered_name(p, "scale<double>", &lowered));
  dc_function f = function(m, lowered);
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(layout_of(f), (dctest::c_abi_layout<double*, double, int>()));
  // The C++ name is not the kernel's name: the message says what to do.
  dc_function none = reinterpret_cast<dc_function>(1);
  EXPECT_DC_ERROR(dc_module_get_function(m, "scale", &none), DC_ERROR_NOT_FOUND, "mangled");
  EXPECT_EQ(none, nullptr);
}

TEST_F(ModuleTest, AMissingKernelListsTheKernelsTheModuleHas) {
  REQUIRE_NVRTC();
  dc_module m = load(compile(DC_OUTPUT_CUBIN));
  dc_function f = reinterpret_cast<dc_function>(1);
  EXPECT_DC_ERROR(dc_module_get_function(m, "saxpi", &f), DC_ERROR_NOT_FOUND, "no kernel \"saxpi\"");
  EXPECT_EQ(f, nullptr);
  std::string message = dc_last_error_message();
  for (const std::string& k : dctest::kKernelNames) EXPECT_NE(message.find(k), std::string::npos) << message;
  EXPECT_DC_ERROR(dc_module_get_function(m, "", &f), DC_ERROR_INVALID_ARGUMENT, "empty");
  EXPECT_DC_ERROR(dc_module_get_function(m, nullptr, &f), DC_ERROR_INVALID_ARGUMENT, "name is NULL");
  EXPECT_DC_ERROR(dc_module_get_function(m, "saxpy", nullptr), DC_ERROR_INVALID_ARGUMENT, "function is NULL");
}

TEST_F(ModuleTest, FunctionAttributes) {
  REQUIRE_NVRTC();
  dc_module m = load(compile(DC_OUTPUT_CUBIN));
  dc_device_info dev = DC_DEVICE_INFO_INIT;
  ASSERT_DC_OK(dc_device_get_info(device_, &dev));
  int32_t sm = dev.compute_capability_major * 10 + dev.compute_capability_minor;
  dc_function tiled = function(m, "tiled");
  dc_function_info info = DC_FUNCTION_INFO_INIT;
  ASSERT_DC_OK(dc_function_get_info(tiled, &info));
  EXPECT_EQ(info.struct_size, sizeof(dc_function_info));
  EXPECT_GT(info.num_registers, 0);
  EXPECT_GE(info.max_threads_per_block, 256);
  EXPECT_LE(info.max_threads_per_block, dev.max_threads_per_block);
  EXPECT_GE(info.static_shared_bytes, static_cast<int32_t>(256 * sizeof(float)));
  EXPECT_EQ(info.binary_version, sm) << "a CUBIN built for the device";
  EXPECT_GT(info.ptx_version, 0);
  EXPECT_GE(info.max_dynamic_shared_bytes, 0);
  EXPECT_EQ(info.num_params, 1);
  EXPECT_EQ(info.params_bytes, sizeof(float*));
  int32_t value = -1;
  ASSERT_DC_OK(dc_function_attribute(tiled, 1 /* CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES */, &value));
  EXPECT_EQ(value, info.static_shared_bytes);
  EXPECT_DC_ERROR(dc_function_attribute(tiled, 9999, &value), DC_ERROR_INVALID_ARGUMENT, "9999");
  EXPECT_EQ(value, 0);
  EXPECT_DC_ERROR(dc_function_attribute(tiled, 1, nullptr), DC_ERROR_INVALID_ARGUMENT, "value");

  // Opting in to the device's whole shared memory, and one byte more.
  int32_t most = dev.max_shared_memory_per_block_optin - info.static_shared_bytes;
  EXPECT_DC_OK(dc_function_set_attribute(tiled, 8 /* MAX_DYNAMIC_SHARED_SIZE_BYTES */, most));
  ASSERT_DC_OK(dc_function_attribute(tiled, 8, &value));
  EXPECT_EQ(value, most);
  EXPECT_DC_ERROR(dc_function_set_attribute(tiled, 8, most + 1), DC_ERROR_INVALID_ARGUMENT,
                  std::to_string(most).c_str());
  EXPECT_DC_ERROR(dc_function_set_attribute(tiled, 8, -1), DC_ERROR_INVALID_ARGUMENT, "negative");
  EXPECT_DC_OK(dc_function_set_attribute(tiled, 9 /* PREFERRED_SHARED_MEMORY_CARVEOUT */, 50));
  EXPECT_DC_ERROR(dc_function_set_attribute(tiled, 9, 101), DC_ERROR_INVALID_ARGUMENT, "percentage");
  EXPECT_DC_ERROR(dc_function_set_attribute(tiled, 0 /* read-only */, 1), DC_ERROR_INVALID_ARGUMENT, "read-only");
  for (int32_t pref : {DC_CACHE_PREFER_NONE, DC_CACHE_PREFER_SHARED, DC_CACHE_PREFER_L1, DC_CACHE_PREFER_EQUAL})
    EXPECT_DC_OK(dc_function_set_cache_config(tiled, pref));
  EXPECT_DC_ERROR(dc_function_set_cache_config(tiled, 4), DC_ERROR_INVALID_ARGUMENT, "preference is 4");
  dc_function_info small = DC_FUNCTION_INFO_INIT;
  small.struct_size = 4;
  EXPECT_DC_ERROR(dc_function_get_info(tiled, &small), DC_ERROR_INVALID_ARGUMENT, "struct_size");
}

TEST_F(ModuleTest, PtxIsJitCompiledForTheDevice) {
  REQUIRE_NVRTC();
  dc_module m = load(compile(DC_OUTPUT_PTX));
  dc_device_info dev = DC_DEVICE_INFO_INIT;
  ASSERT_DC_OK(dc_device_get_info(device_, &dev));
  dc_function_info info = DC_FUNCTION_INFO_INIT;
  ASSERT_DC_OK(dc_function_get_info(function(m, "saxpy"), &info));
  EXPECT_EQ(info.binary_version, dev.compute_capability_major * 10 + dev.compute_capability_minor);
}

TEST_F(ModuleTest, PtxWithoutItsNulLoads) {
  REQUIRE_NVRTC();
  dc_program p = compile(DC_OUTPUT_PTX);
  const void* data = nullptr;
  uint64_t size = 0;
  ASSERT_DC_OK(dc_program_output(p, nullptr, &data, &size));
  // Exactly the text, no NUL after it: the library must not let the driver read past the end.
  std::vector<char> exact(static_cast<const char*>(data), static_cast<const char*>(data) + size - 1);
  dc_module m = nullptr;
  ASSERT_DC_OK(dc_module_load(device_, exact.data(), exact.size(), nullptr, &m));
  modules_.push_back(m);
  EXPECT_NE(function(m, "saxpy"), nullptr);
}

TEST_F(ModuleTest, JitOptions) {
  REQUIRE_NVRTC();
  dc_program p = compile(DC_OUTPUT_PTX);
  dc_module_options o = DC_MODULE_OPTIONS_INIT;
  o.flags = DC_JIT_LINE_INFO;
  o.optimization_level = 3;
  o.max_registers = 32;
  o.log_size = 1024;
  dc_module m = nullptr;
  ASSERT_DC_OK(dc_module_load_program(device_, p, &o, &m));
  modules_.push_back(m);
  dc_function_info info = DC_FUNCTION_INFO_INIT;
  ASSERT_DC_OK(dc_function_get_info(function(m, "saxpy"), &info));
  EXPECT_LE(info.num_registers, 32);
  dc_module bad = reinterpret_cast<dc_module>(1);
  dc_module_options b = o;
  b.struct_size = 0;
  EXPECT_DC_ERROR(dc_module_load_program(device_, p, &b, &bad), DC_ERROR_INVALID_ARGUMENT, "struct_size");
  EXPECT_EQ(bad, nullptr);
  b = o;
  b.flags = 0x80;
  EXPECT_DC_ERROR(dc_module_load_program(device_, p, &b, &bad), DC_ERROR_INVALID_ARGUMENT, "DC_JIT_");
  b = o;
  b.optimization_level = 5;
  EXPECT_DC_ERROR(dc_module_load_program(device_, p, &b, &bad), DC_ERROR_INVALID_ARGUMENT, "optimization_level");
  b = o;
  b.reserved = 1;
  EXPECT_DC_ERROR(dc_module_load_program(device_, p, &b, &bad), DC_ERROR_INVALID_ARGUMENT, "reserved");
  b = o;
  b.max_registers = -2;
  EXPECT_DC_ERROR(dc_module_load_program(device_, p, &b, &bad), DC_ERROR_INVALID_ARGUMENT, "max_registers");
}

TEST_F(ModuleTest, BadImagesAreRefusedWithTheReason) {
  dc_module m = reinterpret_cast<dc_module>(1);
  EXPECT_DC_ERROR(dc_module_load(device_, nullptr, 10, nullptr, &m), DC_ERROR_INVALID_ARGUMENT, "image is NULL");
  EXPECT_EQ(m, nullptr);
  EXPECT_DC_ERROR(dc_module_load(device_, "x", 0, nullptr, &m), DC_ERROR_INVALID_ARGUMENT, "size is 0");
  EXPECT_DC_ERROR(dc_module_load(device_, "x", 1, nullptr, nullptr), DC_ERROR_INVALID_ARGUMENT, "module is NULL");
  const unsigned char binary[] = {0x01, 0x02, 0x03, 0x00, 0xff, 0xfe, 0x10, 0x20};
  EXPECT_DC_ERROR(dc_module_load(device_, binary, sizeof binary, nullptr, &m), DC_ERROR_INVALID_IMAGE,
                  "neither PTX text, a CUBIN (ELF) nor a fatbin");
  // Text that is not PTX: the driver (or the fake) refuses it with a JIT log.
  const char* text = "this is not PTX at all\n";
  EXPECT_DC_ERROR(dc_module_load(device_, text, std::strlen(text), nullptr, &m), DC_ERROR_INVALID_IMAGE, "rejected");
  EXPECT_STRNE(dc_last_error_detail(), "") << "the JIT error log";
  EXPECT_NE(dc_last_error_cuda(), 0);
  const unsigned char elf_header_only[] = {0x7f, 'E', 'L', 'F', 2, 1, 1, 0x41};
  EXPECT_DC_ERROR(dc_module_load(device_, elf_header_only, sizeof elf_header_only, nullptr, &m),
                  DC_ERROR_INVALID_IMAGE, "shorter than an ELF header");
  if (!have_nvrtc_) return;
  dc_program p = compile(DC_OUTPUT_CUBIN);
  const void* data = nullptr;
  uint64_t size = 0;
  ASSERT_DC_OK(dc_program_output(p, nullptr, &data, &size));
  // A truncated CUBIN in a buffer of exactly that size: never read past it.
  std::vector<char> half(static_cast<const char*>(data), static_cast<const char*>(data) + size / 2);
  EXPECT_DC_ERROR(dc_module_load(device_, half.data(), half.size(), nullptr, &m), DC_ERROR_INVALID_IMAGE, "truncated");
  EXPECT_EQ(m, nullptr);
}

TEST_F(ModuleTest, LoadFromAFile) {
  REQUIRE_NVRTC();
  dc_program p = compile(DC_OUTPUT_CUBIN);
  const void* data = nullptr;
  uint64_t size = 0;
  ASSERT_DC_OK(dc_program_output(p, nullptr, &data, &size));
  char path[] = "/tmp/dccuda-module-XXXXXX";
  int fd = mkstemp(path);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(write(fd, data, size), static_cast<ssize_t>(size));
  close(fd);
  dc_module m = nullptr;
  ASSERT_DC_OK(dc_module_load_file(device_, path, nullptr, &m));
  modules_.push_back(m);
  EXPECT_NE(function(m, "saxpy"), nullptr);
  dc_module bad = reinterpret_cast<dc_module>(1);
  EXPECT_DC_ERROR(dc_module_load_file(device_, "/nonexistent/kernels.cubin", nullptr, &bad), DC_ERROR_NOT_FOUND,
                  "/nonexistent/kernels.cubin");
  EXPECT_EQ(bad, nullptr);
  EXPECT_DC_ERROR(dc_module_load_file(device_, "/tmp", nullptr, &bad), DC_ERROR_IO, "directory");
  std::ofstream(path, std::ios::trunc).close();
  EXPECT_DC_ERROR(dc_module_load_file(device_, path, nullptr, &bad), DC_ERROR_INVALID_IMAGE, "empty");
  EXPECT_DC_ERROR(dc_module_load_file(device_, nullptr, nullptr, &bad), DC_ERROR_INVALID_ARGUMENT, "path");
  unlink(path);
}

TEST_F(ModuleTest, CompileAndLoadInOneCall) {
  REQUIRE_NVRTC();
  dc_module m = nullptr;
  ASSERT_DC_OK(dc_module_compile_and_load(device_, dctest::kKernels, "one-call.cu", nullptr, &m));
  modules_.push_back(m);
  EXPECT_EQ(layout_of(function(m, "mixed")), dctest::mixed_layout());
  dc_compile_options o = DC_COMPILE_OPTIONS_INIT;
  o.output = DC_OUTPUT_PTX;
  dc_module ptx = nullptr;
  ASSERT_DC_OK(dc_module_compile_and_load(device_, dctest::kKernels, nullptr, &o, &ptx));
  modules_.push_back(ptx);
  EXPECT_NE(function(ptx, "saxpy"), nullptr);
  o.output = DC_OUTPUT_LTOIR;
  dc_module bad = reinterpret_cast<dc_module>(1);
  EXPECT_DC_ERROR(dc_module_compile_and_load(device_, dctest::kKernels, nullptr, &o, &bad), DC_ERROR_INVALID_ARGUMENT,
                  "LTOIR");
  EXPECT_EQ(bad, nullptr);
  EXPECT_DC_ERROR(dc_module_compile_and_load(device_, "__global__ void k() { nope(); }", "err.cu", nullptr, &bad),
                  DC_ERROR_COMPILE, "dc_module_compile_and_load: err.cu did not compile");
  EXPECT_NE(std::string(dc_last_error_detail()).find("nope"), std::string::npos);
}

TEST_F(ModuleTest, GlobalsAreFoundByName) {
  REQUIRE_NVRTC();
  dc_module m = load(compile(DC_OUTPUT_CUBIN));
  dc_buffer b = reinterpret_cast<dc_buffer>(1);
  EXPECT_DC_ERROR(dc_module_get_global(m, "no_such_variable", &b), DC_ERROR_NOT_FOUND, "no_such_variable");
  EXPECT_EQ(b, nullptr);
  EXPECT_DC_ERROR(dc_module_get_global(m, "", &b), DC_ERROR_INVALID_ARGUMENT, "empty");
  EXPECT_DC_ERROR(dc_module_get_global(m, "answer", nullptr), DC_ERROR_INVALID_ARGUMENT, "buffer");
  // Getting one (and the data in it) is tested where buffers can be released:
  // test_module_internal (white-box) and test_module_global_api.
}

TEST_F(ModuleTest, AFunctionKeepsItsModuleLoaded) {
  REQUIRE_NVRTC();
  dc_program p = compile(DC_OUTPUT_CUBIN);
  dc_module m = nullptr;
  ASSERT_DC_OK(dc_module_load_program(device_, p, nullptr, &m));
  dc_function f = nullptr;
  ASSERT_DC_OK(dc_module_get_function(m, "saxpy", &f));
  dc_module_release(m);
  dc_module_release(m);  // twice: ignored
  uint64_t n = 0;
  ASSERT_DC_OK(dc_handle_count(DC_HANDLE_MODULE, &n));
  EXPECT_EQ(n, 0u);
  if (auto* fake = dctest::fake_driver()) {
    EXPECT_EQ(fake->live("modules"), 1) << "unloaded under a live function";
  }
  dc_function_info info = DC_FUNCTION_INFO_INIT;
  EXPECT_DC_OK(dc_function_get_info(f, &info));
  dc_function_release(f);
  if (auto* fake = dctest::fake_driver()) {
    EXPECT_EQ(fake->live("modules"), 0);
  }
  uint32_t count = 0;
  EXPECT_DC_ERROR(dc_module_function_count(m, &count), DC_ERROR_INVALID_HANDLE, "module");
  EXPECT_DC_ERROR(dc_function_get_info(f, &info), DC_ERROR_INVALID_HANDLE, "function");
  // A handle of another type is refused, not misread.
  EXPECT_DC_ERROR(dc_module_function_count(reinterpret_cast<dc_module>(device_), &count), DC_ERROR_INVALID_HANDLE,
                  "dc_device");
  EXPECT_DC_ERROR(dc_module_load_program(device_, reinterpret_cast<dc_program>(device_), nullptr, &m),
                  DC_ERROR_INVALID_HANDLE, "program");
}

TEST_F(ModuleTest, ModulesDieWithAResetContext) {
  REQUIRE_NVRTC();
  dc_module m = load(compile(DC_OUTPUT_CUBIN));
  dc_function f = function(m, "saxpy");
  ASSERT_DC_OK(dc_device_reset(device_));
  dc_function g = nullptr;
  EXPECT_DC_ERROR(dc_module_get_function(m, "saxpy", &g), DC_ERROR_CONTEXT_LOST, "dc_device_reset");
  dc_function_info info = DC_FUNCTION_INFO_INIT;
  EXPECT_DC_ERROR(dc_function_get_info(f, &info), DC_ERROR_CONTEXT_LOST, "dc_device_reset");
  if (auto* fake = dctest::fake_driver()) {
    EXPECT_EQ(fake->live("modules"), 0) << "the reset unloaded it";
  }
  // Released as usual (nothing is unloaded twice); a new module works.
  dc_module fresh = load(compile(DC_OUTPUT_CUBIN));
  EXPECT_NE(function(fresh, "saxpy"), nullptr);
}

TEST_F(ModuleTest, DriverFailuresAreReported) {
  REQUIRE_FAKE_DRIVER();
  REQUIRE_NVRTC();
  dc_program p = compile(DC_OUTPUT_CUBIN);
  auto* fake = dctest::fake_driver();
  fake->inject("cuModuleLoadDataEx", 1, 2 /* CUDA_ERROR_OUT_OF_MEMORY */, 1);
  dc_module m = reinterpret_cast<dc_module>(1);
  EXPECT_DC_ERROR(dc_module_load_program(device_, p, nullptr, &m), DC_ERROR_OUT_OF_MEMORY, "cuModuleLoadDataEx");
  EXPECT_EQ(m, nullptr);
  m = load(p);
  ASSERT_NE(m, nullptr);
  fake->inject("cuModuleGetFunction", 1, 700 /* CUDA_ERROR_ILLEGAL_ADDRESS */, 1);
  dc_function f = nullptr;
  EXPECT_DC_ERROR(dc_module_get_function(m, "saxpy", &f), DC_ERROR_CONTEXT_LOST, "dc_device_reset");
  ASSERT_DC_OK(dc_device_reset(device_));
}

TEST_F(ModuleTest, ConcurrentLookups) {
  REQUIRE_NVRTC();
  dc_module m = load(compile(DC_OUTPUT_CUBIN));
  std::vector<std::thread> threads;
  std::vector<int> failures(8, 0);
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < 50; ++i) {
        dc_function f = nullptr;
        const std::string& name = dctest::kKernelNames[static_cast<size_t>(i + t) % dctest::kKernelNames.size()];
        if (dc_module_get_function(m, name.c_str(), &f) != DC_SUCCESS) ++failures[t];
        uint32_t count = 0;
        if (dc_function_param_count(f, &count) != DC_SUCCESS) ++failures[t];
        dc_function_release(f);
      }
    });
  for (auto& t : threads) t.join();
  for (int t = 0; t < 8; ++t) EXPECT_EQ(failures[t], 0) << "thread " << t;
}

#ifdef DCTEST_KERNELS_FATBIN
TEST_F(ModuleTest, PrecompiledCubinAndFatbin) {
  for (const char* file : {DCTEST_KERNELS_CUBIN, DCTEST_KERNELS_FATBIN}) {
    std::string path = dctest::next_to_executable(file);
    SCOPED_TRACE(path);
    dc_module m = nullptr;
    ASSERT_DC_OK(dc_module_load_file(device_, path.c_str(), nullptr, &m));
    modules_.push_back(m);
    std::vector<std::string> names = names_of(m);
    for (const std::string& k : dctest::kKernelNames)
      EXPECT_NE(std::find(names.begin(), names.end(), k), names.end()) << k;
    EXPECT_EQ(layout_of(function(m, "mixed")), dctest::mixed_layout());
  }
}
#endif

}  // namespace
