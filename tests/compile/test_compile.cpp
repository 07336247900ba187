// Runtime compilation with the real NVRTC: outputs, logs, errors, name
// expressions, headers and every option. Needs no GPU: runs against the fake
// driver in CI (only for the device's architecture) and the real one on a GPU.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "compile/kernel_sources.h"
#include "dccuda.h"
#include "support/fake.h"

namespace {

constexpr int32_t kArch = 90;  // an architecture every supported NVRTC targets

class CompileTest : public testing::Test {
 protected:
  void SetUp() override {
    int32_t major = 0, minor = 0;
    if (dc_nvrtc_version(&major, &minor) != DC_SUCCESS) GTEST_SKIP() << "no NVRTC: " << dc_last_error_message();
  }
  void TearDown() override {
    for (dc_program p : programs_) dc_program_release(p);
    if (device_) dc_device_release(device_);
    EXPECT_EQ(dctest::live_handles(), 0u) << "a test leaked handles";
  }
  // Compiles, failing the test on error; the program is released at tear-down.
  dc_program compile(const std::string& source, dc_compile_options o, dc_device device = nullptr) {
    dc_program p = nullptr;
    dc_status s = dc_compile(source.c_str(), "test.cu", &o, device, &p);
    EXPECT_EQ(s, DC_SUCCESS) << dc_last_error_message() << "\n" << dc_last_error_detail();
    if (p) programs_.push_back(p);
    return p;
  }
  static dc_compile_options options(int32_t output, int32_t arch = kArch) {
    dc_compile_options o = DC_COMPILE_OPTIONS_INIT;
    o.output = output;
    o.arch = arch;
    o.flags = DC_COMPILE_NO_CACHE;  // these tests are about NVRTC: always compile
    return o;
  }
  static std::string text_of(dc_program p) {
    const void* data = nullptr;
    uint64_t size = 0;
    EXPECT_DC_OK(dc_program_output(p, nullptr, &data, &size));
    return size ? std::string(static_cast<const char*>(data), size - 1) : std::string();
  }
  dc_device open_device() {
    if (dctest::device_count() < 1) return nullptr;
    EXPECT_DC_OK(dc_device_open(0, &device_));
    return device_;
  }
  std::vector<dc_program> programs_;
  dc_device device_ = nullptr;
};

TEST_F(CompileTest, CubinIsAnElfImageForTheArchitecture) {
  dc_program p = compile(dctest::kKernels, options(DC_OUTPUT_CUBIN));
  ASSERT_NE(p, nullptr);
  int32_t kind = -1;
  const void* data = nullptr;
  uint64_t size = 0;
  ASSERT_DC_OK(dc_program_output(p, &kind, &data, &size));
  EXPECT_EQ(kind, DC_OUTPUT_CUBIN);
  ASSERT_GT(size, 64u);
  EXPECT_EQ(std::memcmp(data, "\x7f" "ELF", 4), 0);
  // e_machine 190 = EM_CUDA.
  EXPECT_EQ(static_cast<const uint8_t*>(data)[18], 190);
  // Every output pointer is optional.
  EXPECT_DC_OK(dc_program_output(p, nullptr, nullptr, nullptr));
  int32_t source = -1;
  ASSERT_DC_OK(dc_program_cache_source(p, &source));
  EXPECT_EQ(source, DC_CACHE_MISS);
}

TEST_F(CompileTest, PtxIsNulTerminatedTextWithTheKernels) {
  dc_program p = compile(dctest::kKernels, options(DC_OUTPUT_PTX));
  ASSERT_NE(p, nullptr);
  int32_t kind = -1;
  const void* data = nullptr;
  uint64_t size = 0;
  ASSERT_DC_OK(dc_program_output(p, &kind, &data, &size));
  EXPECT_EQ(kind, DC_OUTPUT_PTX);
  ASSERT_GT(size, 1u);
  const char* text = static_cast<const char*>(data);
  EXPECT_EQ(text[size - 1], '\0') << "the size counts the NUL";
  EXPECT_EQ(std::strlen(text), size - 1) << "exactly one NUL, at the end";
  std::string ptx(text);
  EXPECT_NE(ptx.find(".version"), std::string::npos);
  EXPECT_NE(ptx.find(".target sm_90"), std::string::npos);
  for (const std::string& k : dctest::kKernelNames) EXPECT_NE(ptx.find(".entry " + k), std::string::npos) << k;
}

TEST_F(CompileTest, PtxWithoutArchitectureUsesNvrtcsDefault) {
  dc_program p = compile("extern \"C\" __global__ void k(int* p) { *p = 1; }", options(DC_OUTPUT_PTX, 0));
  ASSERT_NE(p, nullptr);
  EXPECT_NE(text_of(p).find(".target sm_"), std::string::npos);
}

TEST_F(CompileTest, LtoIrIsProducedAndRefusedForLoading) {
  dc_program p = compile(dctest::kKernels, options(DC_OUTPUT_LTOIR));
  ASSERT_NE(p, nullptr);
  int32_t kind = -1;
  const void* data = nullptr;
  uint64_t size = 0;
  ASSERT_DC_OK(dc_program_output(p, &kind, &data, &size));
  EXPECT_EQ(kind, DC_OUTPUT_LTOIR);
  EXPECT_GT(size, 16u);
  EXPECT_NE(std::memcmp(data, "\x7f" "ELF", 4), 0);
  dc_device d = open_device();
  if (!d) return;
  dc_module m = reinterpret_cast<dc_module>(1);
  EXPECT_DC_ERROR(dc_module_load_program(d, p, nullptr, &m), DC_ERROR_INVALID_ARGUMENT, "nvJitLink");
  EXPECT_EQ(m, nullptr);
  EXPECT_DC_ERROR(dc_module_load(d, data, size, nullptr, &m), DC_ERROR_INVALID_IMAGE, "LTO-IR");
}

TEST_F(CompileTest, CubinNeedsAnArchitectureOrADevice) {
  dc_program p = reinterpret_cast<dc_program>(1);
  dc_compile_options o = options(DC_OUTPUT_CUBIN, 0);
  EXPECT_DC_ERROR(dc_compile(dctest::kKernels, nullptr, &o, nullptr, &p), DC_ERROR_INVALID_ARGUMENT,
                  "needs a target architecture");
  EXPECT_EQ(p, nullptr);
  EXPECT_DC_ERROR(dc_compile(dctest::kKernels, nullptr, nullptr, nullptr, &p), DC_ERROR_INVALID_ARGUMENT,
                  "needs a target architecture");
}

TEST_F(CompileTest, TheDeviceGivesItsOwnArchitecture) {
  dc_device d = open_device();
  if (!d) GTEST_SKIP() << "needs a device (real or fake)";
  dc_device_info info = DC_DEVICE_INFO_INIT;
  ASSERT_DC_OK(dc_device_get_info(d, &info));
  dc_program p = nullptr;
  ASSERT_DC_OK(dc_compile(dctest::kKernels, nullptr, nullptr, d, &p));  // NULL options: CUBIN for the device
  programs_.push_back(p);
  const void* data = nullptr;
  uint64_t size = 0;
  ASSERT_DC_OK(dc_program_output(p, nullptr, &data, &size));
  const uint8_t* b = static_cast<const uint8_t*>(data);
  uint32_t flags = 0;
  std::memcpy(&flags, b + 48, 4);  // e_flags: the SM version in bits 8..15
  EXPECT_EQ(static_cast<int32_t>((flags >> 8) & 0xff), info.compute_capability_major * 10 + info.compute_capability_minor);
  dc_compile_options o = options(DC_OUTPUT_PTX, 0);
  dc_program ptx = compile(dctest::kKernels, o, d);
  ASSERT_NE(ptx, nullptr);
  EXPECT_NE(text_of(ptx).find(".target sm_" + std::to_string(info.compute_capability_major * 10 +
                                                               info.compute_capability_minor)),
            std::string::npos);
}

TEST_F(CompileTest, SyntaxErrorGivesTheFirstErrorLineAndTheWholeLog) {
  const char* bad = "extern \"C\" __global__ void k(float* p) {\n  p[0] = undefined_thing;\n}\n";
  dc_compile_options o = options(DC_OUTPUT_CUBIN);
  dc_program p = reinterpret_cast<dc_program>(1);
  EXPECT_DC_ERROR(dc_compile(bad, "broken.cu", &o, nullptr, &p), DC_ERROR_COMPILE, "undefined_thing");
  EXPECT_EQ(p, nullptr);
  std::string message = dc_last_error_message();
  EXPECT_NE(message.find("dc_compile: "), std::string::npos) << message;
  EXPECT_NE(message.find("broken.cu(2): error"), std::string::npos) << "the first error line, with its position: "
                                                                     << message;
  std::string detail = dc_last_error_detail();
  EXPECT_NE(detail.find("undefined_thing"), std::string::npos) << detail;
  EXPECT_NE(detail.find("error detected in the compilation"), std::string::npos) << "the whole log: " << detail;
  EXPECT_EQ(dc_last_error_nvrtc(), 6) << "NVRTC_ERROR_COMPILATION";
  // The next call clears it all.
  int32_t major = 0, minor = 0;
  EXPECT_DC_OK(dc_nvrtc_version(&major, &minor));
  EXPECT_STREQ(dc_last_error_detail(), "");
  EXPECT_EQ(dc_last_error_nvrtc(), 0);
}

TEST_F(CompileTest, WarningsAreInTheLogOfASuccessfulCompile) {
  dc_program p = compile("extern \"C\" __global__ void k(float* x) { int unused_variable = 3; x[0] = 1; }",
                         options(DC_OUTPUT_PTX));
  ASSERT_NE(p, nullptr);
  const char* log = nullptr;
  ASSERT_DC_OK(dc_program_log(p, &log));
  ASSERT_NE(log, nullptr);
  EXPECT_NE(std::string(log).find("unused_variable"), std::string::npos) << log;
  EXPECT_NE(std::string(log).find("warning"), std::string::npos) << log;
  dc_program clean = compile("extern \"C\" __global__ void k(float* x) { x[0] = 1; }", options(DC_OUTPUT_PTX));
  ASSERT_DC_OK(dc_program_log(clean, &log));
  EXPECT_STREQ(log, "");
}

TEST_F(CompileTest, NameExpressionsGiveLoweredNames) {
  dc_compile_options o = options(DC_OUTPUT_PTX);
  const char* expressions[] = {"scale<float>", "&scale<double>", "scale<int>"};
  o.num_name_expressions = 3;
  o.name_expressions = expressions;
  dc_program p = compile(dctest::kKernels, o);
  ASSERT_NE(p, nullptr);
  const char* f = nullptr;
  const char* d = nullptr;
  const char* i = nullptr;
  ASSERT_DC_OK(dc_program_lowered_name(p, "scale<float>", &f));
  ASSERT_DC_OK(dc_program_lowered_name(p, "&scale<double>", &d));
  ASSERT_DC_OK(dc_program_lowered_name(p, "scale<int>", &i));
  EXPECT_STREQ(f, "_Z5scaleIfEvPT_S0_i");
  EXPECT_STREQ(d, "_Z5scaleIdEvPT_S0_i");
  EXPECT_STREQ(i, "_Z5scaleIiEvPT_S0_i");
  // The instantiations are in the output under those names.
  std::string ptx = text_of(p);
  EXPECT_NE(ptx.find(std::string(".entry ") + f), std::string::npos);
  EXPECT_NE(ptx.find(std::string(".entry ") + d), std::string::npos);
  const char* none = reinterpret_cast<const char*>(1);
  EXPECT_DC_ERROR(dc_program_lowered_name(p, "scale<char>", &none), DC_ERROR_NOT_FOUND, "\"scale<float>\"");
  EXPECT_EQ(none, nullptr);
  EXPECT_DC_ERROR(dc_program_lowered_name(p, nullptr, &none), DC_ERROR_INVALID_ARGUMENT, "name_expression");
  EXPECT_DC_ERROR(dc_program_lowered_name(p, "scale<float>", nullptr), DC_ERROR_INVALID_ARGUMENT, "lowered_name");
}

TEST_F(CompileTest, AnInvalidNameExpressionIsACompileError) {
  dc_compile_options o = options(DC_OUTPUT_PTX);
  const char* expressions[] = {"no_such_template<float>"};
  o.num_name_expressions = 1;
  o.name_expressions = expressions;
  dc_program p = nullptr;
  dc_status s = dc_compile(dctest::kKernels, nullptr, &o, nullptr, &p);
  EXPECT_EQ(s, DC_ERROR_COMPILE) << dc_last_error_message();
  EXPECT_NE(std::string(dc_last_error_detail()).find("no_such_template"), std::string::npos) << dc_last_error_detail();
  EXPECT_EQ(p, nullptr);
}

TEST_F(CompileTest, InMemoryHeaders) {
  const char* source = "#include \"factor.h\"\n#include <shapes/area.h>\n"
                       "extern \"C\" __global__ void k(int* p) { p[0] = FACTOR * area(2, 3); }\n";
  const char* names[] = {"factor.h", "shapes/area.h"};
  const char* texts[] = {"#define FACTOR 7\n", "__device__ int area(int w, int h) { return w * h; }\n"};
  dc_compile_options o = options(DC_OUTPUT_PTX);
  o.num_headers = 2;
  o.header_names = names;
  o.header_sources = texts;
  dc_program p = compile(source, o);
  ASSERT_NE(p, nullptr);
  // 7 * 2 * 3 folded at compile time.
  EXPECT_NE(text_of(p).find("42"), std::string::npos) << text_of(p);
  // Without the headers the include fails, and the log says which.
  o.num_headers = 0;
  dc_program q = nullptr;
  EXPECT_DC_ERROR(dc_compile(source, nullptr, &o, nullptr, &q), DC_ERROR_COMPILE, "factor.h");
}

TEST_F(CompileTest, Defines) {
  const char* source = "#ifndef REQUIRED\n#error REQUIRED is missing\n#endif\n"
                       "static_assert(VALUE == 7, \"VALUE\");\n"
                       "extern \"C\" __global__ void k(int* p) { p[0] = VALUE; }\n";
  dc_compile_options o = options(DC_OUTPUT_PTX);
  const char* defines[] = {"REQUIRED", "VALUE=7"};
  o.num_defines = 2;
  o.defines = defines;
  EXPECT_NE(compile(source, o), nullptr);
  o.num_defines = 1;  // VALUE missing
  dc_program p = nullptr;
  EXPECT_DC_ERROR(dc_compile(source, nullptr, &o, nullptr, &p), DC_ERROR_COMPILE, "VALUE");
  o.num_defines = 0;
  EXPECT_DC_ERROR(dc_compile(source, nullptr, &o, nullptr, &p), DC_ERROR_COMPILE, "REQUIRED is missing");
}

TEST_F(CompileTest, IncludePaths) {
  char dir[] = "/tmp/dccuda-include-XXXXXX";
  ASSERT_NE(mkdtemp(dir), nullptr);
  std::string header = std::string(dir) + "/on_disk.h";
  std::ofstream(header) << "#define ON_DISK 5\n";
  const char* source = "#include \"on_disk.h\"\nextern \"C\" __global__ void k(int* p) { p[0] = ON_DISK; }\n";
  dc_compile_options o = options(DC_OUTPUT_PTX);
  const char* paths[] = {dir};
  o.num_include_paths = 1;
  o.include_paths = paths;
  EXPECT_NE(compile(source, o), nullptr);
  o.num_include_paths = 0;
  dc_program p = nullptr;
  EXPECT_DC_ERROR(dc_compile(source, nullptr, &o, nullptr, &p), DC_ERROR_COMPILE, "on_disk.h");
  std::remove(header.c_str());
  rmdir(dir);
}

TEST_F(CompileTest, FastMathUsesApproximateInstructions) {
  const char* source = "extern \"C\" __global__ void k(float* x) { x[0] = sinf(x[0]) / x[1]; }";
  dc_compile_options o = options(DC_OUTPUT_PTX);
  std::string precise = text_of(compile(source, o));
  o.flags |= DC_COMPILE_FAST_MATH;
  std::string fast = text_of(compile(source, o));
  EXPECT_EQ(precise.find("sin.approx"), std::string::npos);
  EXPECT_NE(fast.find("sin.approx"), std::string::npos);
}

TEST_F(CompileTest, LineInfo) {
  const char* source = "extern \"C\" __global__ void k(float* x) { x[0] = 1; }";
  dc_compile_options o = options(DC_OUTPUT_PTX);
  EXPECT_EQ(text_of(compile(source, o)).find(".loc"), std::string::npos);
  o.flags |= DC_COMPILE_LINE_INFO;
  EXPECT_NE(text_of(compile(source, o)).find(".loc"), std::string::npos);
}

TEST_F(CompileTest, LanguageStandard) {
  const char* source = "template <class T> concept Small = sizeof(T) <= 4;\n"
                       "extern \"C\" __global__ void k(int* p) { p[0] = Small<int>; }\n";
  dc_compile_options o = options(DC_OUTPUT_PTX);
  o.std = "c++20";
  EXPECT_NE(compile(source, o), nullptr);
  o.std = "c++17";
  dc_program p = nullptr;
  EXPECT_DC_ERROR(dc_compile(source, nullptr, &o, nullptr, &p), DC_ERROR_COMPILE, "concept");
  o.std = "";
  EXPECT_DC_ERROR(dc_compile(source, nullptr, &o, nullptr, &p), DC_ERROR_INVALID_ARGUMENT, "options->std");
}

TEST_F(CompileTest, RawOptionsArePassedThrough) {
  const char* source = "extern \"C\" __global__ void k(int* p) { p[0] = RAW; }";
  dc_compile_options o = options(DC_OUTPUT_PTX);
  const char* raw[] = {"-DRAW=3"};
  o.num_options = 1;
  o.options = raw;
  EXPECT_NE(compile(source, o), nullptr);
  const char* bad[] = {"--no-such-option"};
  o.options = bad;
  dc_program p = nullptr;
  EXPECT_DC_ERROR(dc_compile(source, nullptr, &o, nullptr, &p), DC_ERROR_INVALID_ARGUMENT, "--no-such-option");
  EXPECT_NE(std::string(dc_last_error_detail()).find("unrecognized option"), std::string::npos) << dc_last_error_detail();
}

TEST_F(CompileTest, MaxRegistersReachesPtxas) {
  // A kernel that wants many registers; a CUBIN built with a low limit uses
  // at most that many. Checked on the loaded function (the driver reads the
  // CUBIN's register count).
  dc_device d = open_device();
  if (!d) GTEST_SKIP() << "needs a device (real or fake)";
  const char* source =
      "extern \"C\" __global__ void k(const double* in, double* out) {\n"
      "  double a[24];\n"
      "  for (int i = 0; i < 24; ++i) a[i] = in[i * threadIdx.x];\n"
      "  double s = 0;\n"
      "  for (int i = 0; i < 24; ++i) for (int j = 0; j < 24; ++j) s += a[i] * a[j] / (a[(i + j) % 24] + 1.0);\n"
      "  out[threadIdx.x] = s;\n"
      "}\n";
  dc_compile_options o = options(DC_OUTPUT_CUBIN, 0);
  o.max_registers = 24;
  dc_module m = nullptr;
  ASSERT_DC_OK(dc_module_compile_and_load(d, source, nullptr, &o, &m));
  dc_function f = nullptr;
  ASSERT_DC_OK(dc_module_get_function(m, "k", &f));
  dc_function_info info = DC_FUNCTION_INFO_INIT;
  ASSERT_DC_OK(dc_function_get_info(f, &info));
  EXPECT_GT(info.num_registers, 0);
  EXPECT_LE(info.num_registers, 24);
  dc_function_release(f);
  dc_module_release(m);
  o.max_registers = -1;
  EXPECT_DC_ERROR(dc_module_compile_and_load(d, source, nullptr, &o, &m), DC_ERROR_INVALID_ARGUMENT, "max_registers");
}

TEST_F(CompileTest, ArchitectureSpecificTarget) {
  dc_compile_options o = options(DC_OUTPUT_CUBIN, 90);
  o.flags |= DC_COMPILE_ARCH_SPECIFIC;  // sm_90a
  EXPECT_NE(compile("extern \"C\" __global__ void k(int* p) { p[0] = 1; }", o), nullptr);
  o.arch = 0;
  dc_program p = nullptr;
  o.output = DC_OUTPUT_PTX;
  EXPECT_DC_ERROR(dc_compile("__global__ void k() {}", nullptr, &o, nullptr, &p), DC_ERROR_INVALID_ARGUMENT,
                  "DC_COMPILE_ARCH_SPECIFIC");
}

TEST_F(CompileTest, RelocatableDeviceCode) {
  dc_compile_options o = options(DC_OUTPUT_PTX);
  o.flags |= DC_COMPILE_RELOCATABLE;
  // With -rdc an extern device function may stay undefined.
  dc_program p = compile("extern __device__ int elsewhere(int);\n"
                         "extern \"C\" __global__ void k(int* p) { p[0] = elsewhere(p[1]); }\n", o);
  ASSERT_NE(p, nullptr);
  EXPECT_NE(text_of(p).find(".extern .func"), std::string::npos);
}

TEST_F(CompileTest, BadOptionsAreNamed) {
  const char* src = "__global__ void k() {}";
  dc_program p = reinterpret_cast<dc_program>(1);
  dc_compile_options o = options(DC_OUTPUT_PTX);
  o.struct_size = 8;
  EXPECT_DC_ERROR(dc_compile(src, nullptr, &o, nullptr, &p), DC_ERROR_INVALID_ARGUMENT, "struct_size");
  EXPECT_EQ(p, nullptr);
  o = options(DC_OUTPUT_PTX);
  o.output = 7;
  EXPECT_DC_ERROR(dc_compile(src, nullptr, &o, nullptr, &p), DC_ERROR_INVALID_ARGUMENT, "options->output is 7");
  o = options(DC_OUTPUT_PTX);
  o.flags = 0x8000;
  EXPECT_DC_ERROR(dc_compile(src, nullptr, &o, nullptr, &p), DC_ERROR_INVALID_ARGUMENT, "options->flags");
  o = options(DC_OUTPUT_PTX);
  o.num_defines = 2;
  EXPECT_DC_ERROR(dc_compile(src, nullptr, &o, nullptr, &p), DC_ERROR_INVALID_ARGUMENT, "options->defines is NULL");
  const char* defines[] = {"A", nullptr};
  o.defines = defines;
  EXPECT_DC_ERROR(dc_compile(src, nullptr, &o, nullptr, &p), DC_ERROR_INVALID_ARGUMENT, "options->defines[1]");
  const char* nameless[] = {"=3"};
  o.num_defines = 1;
  o.defines = nameless;
  EXPECT_DC_ERROR(dc_compile(src, nullptr, &o, nullptr, &p), DC_ERROR_INVALID_ARGUMENT, "no name");
  o = options(DC_OUTPUT_PTX);
  o.num_headers = 1;
  const char* names[] = {"h.h"};
  o.header_names = names;
  EXPECT_DC_ERROR(dc_compile(src, nullptr, &o, nullptr, &p), DC_ERROR_INVALID_ARGUMENT, "options->header_sources");
  o = options(DC_OUTPUT_CUBIN, 5);
  EXPECT_DC_ERROR(dc_compile(src, nullptr, &o, nullptr, &p), DC_ERROR_INVALID_ARGUMENT, "options->arch is 5");
  o = options(DC_OUTPUT_CUBIN, 20);
  EXPECT_DC_ERROR(dc_compile(src, nullptr, &o, nullptr, &p), DC_ERROR_NOT_SUPPORTED, "sm_20");
  EXPECT_DC_ERROR(dc_compile(nullptr, nullptr, nullptr, nullptr, &p), DC_ERROR_INVALID_ARGUMENT, "source is NULL");
  EXPECT_DC_ERROR(dc_compile(src, nullptr, nullptr, nullptr, nullptr), DC_ERROR_INVALID_ARGUMENT, "program is NULL");
  EXPECT_DC_ERROR(dc_compile(src, nullptr, nullptr, reinterpret_cast<dc_device>(0x1234), &p), DC_ERROR_INVALID_HANDLE,
                  "device");
  EXPECT_EQ(p, nullptr);
}

TEST_F(CompileTest, ProgramHandlesAreChecked) {
  dc_program p = compile("__global__ void k() {}", options(DC_OUTPUT_PTX));
  ASSERT_NE(p, nullptr);
  programs_.clear();
  dc_program_release(p);
  dc_program_release(p);  // twice: ignored
  dc_program_release(nullptr);
  const char* log = reinterpret_cast<const char*>(1);
  EXPECT_DC_ERROR(dc_program_log(p, &log), DC_ERROR_INVALID_HANDLE, "program");
  EXPECT_EQ(log, nullptr);
  int32_t kind = 5;
  EXPECT_DC_ERROR(dc_program_output(p, &kind, nullptr, nullptr), DC_ERROR_INVALID_HANDLE, "program");
  EXPECT_EQ(kind, 0);
  int32_t source = 5;
  EXPECT_DC_ERROR(dc_program_cache_source(p, &source), DC_ERROR_INVALID_HANDLE, "program");
  dc_device d = open_device();
  if (d) {
    // A device handle is not a program.
    EXPECT_DC_ERROR(dc_program_log(reinterpret_cast<dc_program>(d), &log), DC_ERROR_INVALID_HANDLE, "dc_device");
  }
}

TEST_F(CompileTest, ConcurrentCompiles) {
  std::vector<std::thread> threads;
  std::vector<dc_status> results(6, DC_ERROR_INTERNAL);
  std::vector<std::string> outputs(6);
  for (int t = 0; t < 6; ++t) {
    threads.emplace_back([&, t] {
      std::string src = "extern \"C\" __global__ void k" + std::to_string(t) + "(int* p) { p[0] = " +
                        std::to_string(t) + "; }";
      dc_compile_options o = options(DC_OUTPUT_PTX);
      dc_program p = nullptr;
      results[t] = dc_compile(src.c_str(), nullptr, &o, nullptr, &p);
      if (p) {
        const void* data = nullptr;
        dc_program_output(p, nullptr, &data, nullptr);
        outputs[t] = static_cast<const char*>(data);
        dc_program_release(p);
      }
    });
  }
  for (auto& t : threads) t.join();
  for (int t = 0; t < 6; ++t) {
    EXPECT_EQ(results[t], DC_SUCCESS);
    EXPECT_NE(outputs[t].find(".entry k" + std::to_string(t)), std::string::npos);
  }
}

TEST_F(CompileTest, CacheDirectoryAndClearArguments) {
  const char* dir = nullptr;
  ASSERT_DC_OK(dc_cache_directory(&dir));
  ASSERT_NE(dir, nullptr);
  EXPECT_DC_ERROR(dc_cache_directory(nullptr), DC_ERROR_INVALID_ARGUMENT, "path");
  EXPECT_DC_ERROR(dc_cache_clear(0), DC_ERROR_INVALID_ARGUMENT, "flags is 0");
  EXPECT_DC_ERROR(dc_cache_clear(0x10), DC_ERROR_INVALID_ARGUMENT, "unknown bits");
  EXPECT_DC_OK(dc_cache_clear(DC_CACHE_CLEAR_MEMORY));
}

}  // namespace

namespace {

TEST(NvrtcArchs, TheListIsAscendingAndHoldsWhatCompiles) {
  SKIP_WITHOUT_NVRTC();
  uint32_t count = 0;
  ASSERT_DC_OK(dc_nvrtc_supported_archs(nullptr, 0, &count));
  ASSERT_GT(count, 0u);
  std::vector<int32_t> archs(count);
  uint32_t again = 0;
  ASSERT_DC_OK(dc_nvrtc_supported_archs(archs.data(), count, &again));
  EXPECT_EQ(again, count);
  for (uint32_t i = 1; i < count; ++i) EXPECT_LT(archs[i - 1], archs[i]) << i;
  EXPECT_NE(std::find(archs.begin(), archs.end(), 90), archs.end()) << "every supported NVRTC targets sm_90";
  std::vector<int32_t> small(count - 1, -1);
  uint32_t none = 7;
  EXPECT_DC_ERROR(dc_nvrtc_supported_archs(small.data(), count - 1, &none), DC_ERROR_OUT_OF_RANGE,
                  "pass an array of " + std::to_string(count));
  EXPECT_EQ(none, 0u);
  for (int32_t v : small) EXPECT_EQ(v, -1) << "nothing written";
  EXPECT_DC_ERROR(dc_nvrtc_supported_archs(nullptr, 4, &none), DC_ERROR_INVALID_ARGUMENT, "archs is NULL");
  // Each one listed compiles to a CUBIN.
  dc_compile_options o = DC_COMPILE_OPTIONS_INIT;
  o.arch = archs.back();
  o.flags = DC_COMPILE_NO_CACHE;
  dc_program p = nullptr;
  EXPECT_DC_OK(dc_compile("__global__ void k() {}", "k.cu", &o, nullptr, &p));
  dc_program_release(p);
}

}  // namespace
