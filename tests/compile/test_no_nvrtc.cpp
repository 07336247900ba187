// Without NVRTC (DCCUDA_NVRTC_LIBRARY names a file that does not exist):
// compiling reports DC_ERROR_NO_COMPILER, and precompiled images still load.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>

#include "compile/kernel_sources.h"
#include "dccuda.h"
#include "support/fake.h"

namespace {

// Hand-written PTX (ISA 8.0, which every CUDA 12+ driver loads).
const char* kPtx = R"(
.version 8.0
.target sm_80
.address_size 64

.visible .entry add_one(
	.param .u64 add_one_param_0,
	.param .u32 add_one_param_1
)
{
	.reg .pred 	%p<2>;
	.reg .b32 	%r<6>;
	.reg .b64 	%rd<5>;

	ld.param.u64 	%rd1, [add_one_param_0];
	ld.param.u32 	%r2, [add_one_param_1];
	mov.u32 	%r3, %ctaid.x;
	mov.u32 	%r4, %ntid.x;
	mov.u32 	%r5, %tid.x;
	mad.lo.s32 	%r1, %r3, %r4, %r5;
	setp.ge.s32 	%p1, %r1, %r2;
	@%p1 bra 	$L__BB0_2;
	cvta.to.global.u64 	%rd2, %rd1;
	mul.wide.s32 	%rd3, %r1, 4;
	add.s64 	%rd4, %rd2, %rd3;
	ld.global.u32 	%r1, [%rd4];
	add.s32 	%r1, %r1, 1;
	st.global.u32 	[%rd4], %r1;
$L__BB0_2:
	ret;
}
)";

// True when this process runs as meant: with DCCUDA_NVRTC_LIBRARY naming
// nothing. Run directly on a machine with NVRTC, the tests skip.
bool nvrtc_absent() {
  int32_t major = 0, minor = 0;
  return dc_nvrtc_version(&major, &minor) == DC_ERROR_NO_COMPILER;
}

#define REQUIRE_NO_NVRTC() \
  if (!nvrtc_absent()) GTEST_SKIP() << "runs with DCCUDA_NVRTC_LIBRARY=/nonexistent/lib64/libnvrtc.so.13"

TEST(NoNvrtc, CompileReportsNoCompiler) {
  REQUIRE_NO_NVRTC();
  int32_t major = 1, minor = 1;
  EXPECT_DC_ERROR(dc_nvrtc_version(&major, &minor), DC_ERROR_NO_COMPILER, "/nonexistent");
  EXPECT_EQ(major, 0);
  dc_compile_options o = DC_COMPILE_OPTIONS_INIT;
  o.arch = 90;
  dc_program p = reinterpret_cast<dc_program>(1);
  EXPECT_DC_ERROR(dc_compile("__global__ void k() {}", nullptr, &o, nullptr, &p), DC_ERROR_NO_COMPILER,
                  "DCCUDA_NVRTC_LIBRARY");
  EXPECT_EQ(p, nullptr);
  // Argument errors still come first.
  EXPECT_DC_ERROR(dc_compile(nullptr, nullptr, &o, nullptr, &p), DC_ERROR_INVALID_ARGUMENT, "source");
}

TEST(NoNvrtc, PrecompiledImagesStillLoad) {
  REQUIRE_NO_NVRTC();
  REQUIRE_DEVICE();
  dc_device d = nullptr;
  ASSERT_DC_OK(dc_device_open(0, &d));
  dc_module m = nullptr;
  ASSERT_DC_OK(dc_module_load(d, kPtx, std::strlen(kPtx), nullptr, &m));
  dc_function f = nullptr;
  ASSERT_DC_OK(dc_module_get_function(m, "add_one", &f));
  uint32_t count = 0;
  ASSERT_DC_OK(dc_function_param_count(f, &count));
  EXPECT_EQ(count, 2u);
  uint64_t offset = 0, size = 0;
  ASSERT_DC_OK(dc_function_param_info(f, 1, &offset, &size));
  EXPECT_EQ(offset, 8u);
  EXPECT_EQ(size, 4u);
#ifdef DCTEST_KERNELS_CUBIN
  dc_module cubin = nullptr;
  ASSERT_DC_OK(dc_module_load_file(d, dctest::next_to_executable(DCTEST_KERNELS_CUBIN).c_str(), nullptr, &cubin));
  dc_function saxpy = nullptr;
  EXPECT_DC_OK(dc_module_get_function(cubin, "saxpy", &saxpy));
  dc_function_release(saxpy);
  dc_module_release(cubin);
#endif
  dc_module with_compile = reinterpret_cast<dc_module>(1);
  EXPECT_DC_ERROR(dc_module_compile_and_load(d, "__global__ void k() {}", nullptr, nullptr, &with_compile),
                  DC_ERROR_NO_COMPILER, "NVRTC");
  EXPECT_EQ(with_compile, nullptr);
  dc_function_release(f);
  dc_module_release(m);
  dc_device_release(d);
  EXPECT_EQ(dctest::live_handles(), 0u);
  if (auto* fake = dctest::fake_driver()) {
    EXPECT_EQ(fake->live("modules"), 0);
  }
}

}  // namespace

namespace {

// Where the toolkit's headers are looked for, NVRTC's folder among them: with
// DCCUDA_NVRTC_LIBRARY=/nonexistent/lib64/libnvrtc.so.13 the toolkit /nonexistent
// is tried (and has no headers). Where another toolkit has them (CUDA_PATH,
// CUDA_HOME, /usr/local/cuda) the compile goes on and finds no NVRTC; where
// none has (the toolkit-less CI run) the message names every place tried.
TEST(NoNvrtc, ToolkitHeadersNotFoundNameEveryPlaceTried) {
  REQUIRE_NO_NVRTC();  // the GPU suite runs the binary without the variable: NVRTC is found there
  dc_compile_options o = DC_COMPILE_OPTIONS_INIT;
  o.arch = 90;
  o.flags = DC_COMPILE_TOOLKIT_HEADERS;
  dc_program p = nullptr;
  dc_status s = dc_compile("__global__ void k() {}", "k.cu", &o, nullptr, &p);
  std::string message = dc_last_error_message();
  EXPECT_EQ(p, nullptr);
  bool another_toolkit = false;
  const char* const roots[] = {std::getenv("CUDA_PATH"), std::getenv("CUDA_HOME"), "/usr/local/cuda"};
  for (const char* root : roots) {
    if (!root || !*root) continue;
    std::ifstream marker(std::string(root) + "/include/cooperative_groups.h");
    another_toolkit = another_toolkit || marker.good();
  }
  if (another_toolkit) {
    EXPECT_EQ(s, DC_ERROR_NO_COMPILER) << message;
  } else {
    EXPECT_EQ(s, DC_ERROR_NOT_FOUND) << message;
    EXPECT_NE(message.find("the CUDA toolkit's headers were not found (tried "), std::string::npos) << message;
    EXPECT_NE(message.find("/nonexistent/include/cooperative_groups.h"), std::string::npos) << message;
    EXPECT_NE(message.find("CUDA_PATH"), std::string::npos) << message;
  }
}

}  // namespace

namespace {

TEST(NoNvrtc, SupportedArchitecturesNeedNvrtc) {
  REQUIRE_NO_NVRTC();
  uint32_t count = 7;
  EXPECT_DC_ERROR(dc_nvrtc_supported_archs(nullptr, 0, &count), DC_ERROR_NO_COMPILER, "NVRTC is not available");
  EXPECT_EQ(count, 0u);
}

}  // namespace
