// White-box: dccuda's own image readers (PTX text, CUBIN ELF, fatbin) against
// the driver's answers. On a GPU the driver is NVIDIA's; on CI it is the fake,
// whose readers are a separate implementation. Also the module-global seam.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/handle_table.h"
#include "core/status.h"
#include "dccuda.h"
#include "loader/driver.h"
#include "module/elf_parse.h"
#include "module/function.h"
#include "module/image.h"
#include "module/ptx_parse.h"
#include "support/fake.h"

namespace {

// A zoo of parameter types: every size and alignment, structs with padding,
// vector types, arrays inside structs, pointers, no parameters at all.
const char* kZoo = R"(
struct Odd { char a; short b; char c; };
struct Big { double d[3]; char tail; };
struct Bytes { unsigned char b[13]; };
extern "C" __global__ void zoo(bool b, char2 c2, short s, int i, long long ll, float2 f2, double2 d2, Odd o,
                               Big g, const int* p, unsigned char u8, float4 f4, Bytes bytes, double last) {
  if (p) *(int*)p = b + c2.x + s + i + (int)ll + (int)f2.y + (int)d2.x + o.c + (int)g.d[2] + u8 + (int)f4.w +
                    bytes.b[12] + (int)last;
}
extern "C" __global__ void nothing() {}
extern "C" __global__ void one_char(char c, char* out) { *out = c; }
template <int N> struct Arr { float v[N]; };
extern "C" __global__ void arrays(Arr<3> a, Arr<1> b, char c, Arr<5> d) { (void)a; (void)b; (void)c; (void)d; }
)";

struct Compiled {
  std::string image;
  dc_module module = nullptr;
};

class ImageReaders : public testing::Test {
 protected:
  void SetUp() override {
    REQUIRE_DEVICE();
    int32_t major = 0, minor = 0;
    if (dc_nvrtc_version(&major, &minor) != DC_SUCCESS)
      GTEST_SKIP() << "needs NVRTC, not found: " << dctest::nvrtc_unavailable();
    ASSERT_DC_OK(dc_device_open(0, &device_));
  }
  void TearDown() override {
    for (dc_module m : modules_) dc_module_release(m);
    dc_device_release(device_);
    EXPECT_EQ(dctest::live_handles(), 0u);
  }
  Compiled build(int32_t output, const char* source) {
    Compiled c;
    dc_compile_options o = DC_COMPILE_OPTIONS_INIT;
    o.output = output;
    dc_program p = nullptr;
    EXPECT_DC_OK(dc_compile(source, "zoo.cu", &o, device_, &p));
    const void* data = nullptr;
    uint64_t size = 0;
    dc_program_output(p, nullptr, &data, &size);
    c.image.assign(static_cast<const char*>(data), size);
    EXPECT_DC_OK(dc_module_load_program(device_, p, nullptr, &c.module));
    modules_.push_back(c.module);
    dc_program_release(p);
    return c;
  }
  // The driver's layout of kernel `name` (cuFuncGetParamInfo).
  dc::ParamLayout driver_layout(dc_module m, const std::string& name) {
    dc_function f = nullptr;
    EXPECT_DC_OK(dc_module_get_function(m, name.c_str(), &f));
    void* native = nullptr;
    dc_function_native(f, &native);
    dc::ParamLayout layout = dc::driver_param_layout(static_cast<CUfunction>(native));
    dc_function_release(f);
    return layout;
  }
  void compare(const std::vector<dc::ImageKernel>& parsed, dc_module m) {
    if (!dc::present(dc::driver_api().cuFuncGetParamInfo)) GTEST_SKIP() << "the driver has no cuFuncGetParamInfo";
    ASSERT_EQ(parsed.size(), 4u);
    for (const dc::ImageKernel& k : parsed) {
      SCOPED_TRACE(k.name);
      dc::ParamLayout want = driver_layout(m, k.name);
      ASSERT_TRUE(want.known);
      ASSERT_TRUE(k.layout.known) << "the image reader could not read it";
      ASSERT_EQ(k.layout.params.size(), want.params.size());
      for (size_t i = 0; i < want.params.size(); ++i) {
        EXPECT_EQ(k.layout.params[i].offset, want.params[i].offset) << "parameter " << i;
        EXPECT_EQ(k.layout.params[i].size, want.params[i].size) << "parameter " << i;
      }
      EXPECT_EQ(k.layout.total_bytes, want.total_bytes);
    }
  }
  dc_device device_ = nullptr;
  std::vector<dc_module> modules_;
};

TEST_F(ImageReaders, PtxParametersMatchTheDriver) {
  Compiled c = build(DC_OUTPUT_PTX, kZoo);
  compare(dc::parse_ptx_kernels(c.image), c.module);
}

TEST_F(ImageReaders, CubinParametersMatchTheDriver) {
  Compiled c = build(DC_OUTPUT_CUBIN, kZoo);
  ASSERT_TRUE(dc::is_elf(c.image.data(), c.image.size()));
  EXPECT_EQ(dc::elf_bounds_problem(c.image.data(), c.image.size()), "");
  dc_device_info info = DC_DEVICE_INFO_INIT;
  dc_device_get_info(device_, &info);
  EXPECT_EQ(dc::cubin_arch(c.image.data(), c.image.size()), info.compute_capability_major * 10 + info.compute_capability_minor);
  compare(dc::parse_cubin_kernels(c.image.data(), c.image.size()), c.module);
}

TEST(PtxReader, HandWrittenForms) {
  const char* ptx = R"(
.version 8.0
.target sm_90
.address_size 64
// .entry commented_out(.param .u32 x)
/* .entry also_commented(.param .u32 x) */
.visible .entry a(
	.param .u64 .ptr .global .align 4 a_param_0,   // a pointer with its pointee's alignment
	.param .u8 a_param_1,
	.param .align 16 .b8 a_param_2[32],
	.param .v2 .f32 a_param_3,
	.param .b8 a_param_4[3][2]
)
.maxntid 128, 1, 1
{
	ret;
}
.entry b
{
	ret;
}
.weak .entry c(.param .f64 c_param_0, .param .s16 c_param_1)
{ { ret; } }
.entry d(.param .u32 d_param_0, .param .unknowntype d_param_1)
{ ret; }
)";
  std::vector<dc::ImageKernel> k = dc::parse_ptx_kernels(ptx);
  ASSERT_EQ(k.size(), 4u);
  EXPECT_EQ(k[0].name, "a");
  ASSERT_TRUE(k[0].layout.known);
  ASSERT_EQ(k[0].layout.params.size(), 5u);
  const uint32_t want[5][2] = {{0, 8}, {8, 1}, {16, 32}, {48, 8}, {56, 6}};
  for (size_t i = 0; i < 5; ++i) {
    EXPECT_EQ(k[0].layout.params[i].offset, want[i][0]) << i;
    EXPECT_EQ(k[0].layout.params[i].size, want[i][1]) << i;
  }
  EXPECT_EQ(k[0].layout.total_bytes, 62u);
  EXPECT_EQ(k[1].name, "b");
  EXPECT_TRUE(k[1].layout.known);
  EXPECT_TRUE(k[1].layout.params.empty());
  EXPECT_EQ(k[2].name, "c");
  ASSERT_EQ(k[2].layout.params.size(), 2u);
  EXPECT_EQ(k[2].layout.params[1].offset, 8u);
  EXPECT_EQ(k[3].name, "d");
  EXPECT_FALSE(k[3].layout.known) << "an unknown type must give an unknown layout, never a guess";
}

TEST(ImagePreparation, KindsAndBounds) {
  const char* ptx = ".version 8.0\n.target sm_90\n";
  dc::PreparedImage p = dc::prepare_image(ptx, std::strlen(ptx));  // no NUL in range
  EXPECT_EQ(p.kind, dc::ImageKind::Ptx);
  EXPECT_EQ(p.size, std::strlen(ptx) + 1);
  EXPECT_EQ(static_cast<const char*>(p.data)[p.size - 1], '\0');
  EXPECT_NE(p.data, static_cast<const void*>(ptx)) << "a NUL-terminated copy";
  dc::PreparedImage q = dc::prepare_image(ptx, std::strlen(ptx) + 1);
  EXPECT_EQ(q.data, static_cast<const void*>(ptx)) << "no copy when the NUL is there";
  // A fatbin header that claims more bytes than given, an ELF cut short, LTO-IR.
  const uint8_t fatbin[32] = {0x50, 0xed, 0x55, 0xba, 1, 0, 16, 0, 0xff, 0xff, 0, 0, 0, 0, 0, 0};
  EXPECT_THROW(dc::prepare_image(fatbin, sizeof fatbin), dc::Failure);
  EXPECT_NE(dc::thread_error().message.find("truncated"), std::string::npos) << dc::thread_error().message;
  std::vector<uint8_t> elf(64, 0);
  std::memcpy(elf.data(), "\x7f" "ELF\x02\x01\x01", 7);
  elf[18] = 190;                        // EM_CUDA
  elf[0x3a] = 64;                       // e_shentsize
  elf[0x3c] = 30;                       // e_shnum: 30 section headers...
  elf[0x28] = 0x40;                     // ...at offset 64, past the end
  EXPECT_THROW(dc::prepare_image(elf.data(), elf.size()), dc::Failure);
  EXPECT_NE(dc::thread_error().message.find("past the end"), std::string::npos) << dc::thread_error().message;
  const uint8_t lto[8] = {0xed, 0x43, 0x4e, 0x7f, 0, 0, 0, 0};
  EXPECT_THROW(dc::prepare_image(lto, sizeof lto), dc::Failure);
  EXPECT_NE(dc::thread_error().message.find("LTO-IR"), std::string::npos);
}

// The test double itself: garbage is refused the way the driver refuses it,
// with the JIT error log in the caller's buffer and its length written back.
TEST(FakeDriver, RefusesGarbageWithAJitLog) {
  REQUIRE_FAKE_DRIVER();
  dc_device device = nullptr;
  ASSERT_DC_OK(dc_device_open(0, &device));
  ASSERT_DC_OK(dc_device_synchronize(device));  // leaves the device's context current on this thread
  char error_log[256] = "untouched";
  char info_log[256] = "untouched";
  CUjit_option keys[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES, CU_JIT_INFO_LOG_BUFFER,
                         CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES};
  void* values[] = {error_log, reinterpret_cast<void*>(uintptr_t{sizeof error_log}), info_log,
                    reinterpret_cast<void*>(uintptr_t{sizeof info_log})};
  const unsigned char garbage[] = {0x13, 0x37, 0x00};
  CUmodule m = nullptr;
  EXPECT_EQ(dc::driver_api().cuModuleLoadDataEx(&m, garbage, 4, keys, values), CUDA_ERROR_INVALID_IMAGE);
  EXPECT_EQ(m, nullptr);
  EXPECT_GT(std::strlen(error_log), 0u);
  EXPECT_NE(std::string(error_log), "untouched");
  EXPECT_EQ(reinterpret_cast<uintptr_t>(values[1]), std::strlen(error_log) + 1) << "the log's length is written back";
  EXPECT_STREQ(info_log, "");
  const char* not_ptx = "hello";
  values[1] = reinterpret_cast<void*>(uintptr_t{sizeof error_log});  // the sizes are in-out
  values[3] = reinterpret_cast<void*>(uintptr_t{sizeof info_log});
  EXPECT_EQ(dc::driver_api().cuModuleLoadDataEx(&m, not_ptx, 4, keys, values), CUDA_ERROR_INVALID_PTX);
  EXPECT_NE(std::string(error_log).find(".version"), std::string::npos) << error_log;
  dc_device_release(device);
}

// dc_module_get_global hands out a buffer handle that keeps the module loaded.
// (Reading and writing it through dc_buffer_* is test_module_global_api.)
struct BufferHandle {
  static constexpr dc::HandleType kHandleType = dc::HandleType::Buffer;
};

TEST_F(ImageReaders, ModuleGlobalKeepsItsModule) {
  const char* source = "extern \"C\" __device__ int answer = 42;\n"
                       "extern \"C\" __constant__ float table[16] = {1, 2, 3};\n"
                       "extern \"C\" __global__ void k(int* p) { p[0] = answer + (int)table[2]; }\n";
  Compiled c = build(DC_OUTPUT_CUBIN, source);
  dc_buffer answer = nullptr, table = nullptr;
  ASSERT_DC_OK(dc_module_get_global(c.module, "answer", &answer));
  ASSERT_DC_OK(dc_module_get_global(c.module, "table", &table));
  uint64_t buffers = 0;
  dc_handle_count(DC_HANDLE_BUFFER, &buffers);
  EXPECT_EQ(buffers, 2u);
  // The values behind them, through the driver.
  dc::Pinned<dc::Module> m = dc::try_pin<dc::Module>(c.module);
  ASSERT_TRUE(m);
  CUdeviceptr address = 0;
  size_t size = 0;
  ASSERT_EQ(dc::driver_api().cuModuleGetGlobal(&address, &size, m->cu_module(), "table"), CUDA_SUCCESS);
  EXPECT_EQ(size, 16 * sizeof(float));
  float values[16] = {};
  if (dctest::fake_driver())
    std::memcpy(values, reinterpret_cast<void*>(address), sizeof values);  // the fake's device memory is host memory
  else
    ASSERT_EQ(dc::driver_api().cuMemcpyDtoH(values, address, sizeof values), CUDA_SUCCESS);
  EXPECT_EQ(values[0], 1.0f);
  EXPECT_EQ(values[2], 3.0f);
  EXPECT_EQ(values[3], 0.0f);
  m.reset();
  // Release the module's handle: the globals keep it loaded.
  dc_module_release(c.module);
  modules_.clear();
  if (auto* fake = dctest::fake_driver()) {
    EXPECT_EQ(fake->live("modules"), 1);
  }
  dc::close_handle<BufferHandle>(answer);
  if (auto* fake = dctest::fake_driver()) {
    EXPECT_EQ(fake->live("modules"), 1);
  }
  dc::close_handle<BufferHandle>(table);
  if (auto* fake = dctest::fake_driver()) {
    EXPECT_EQ(fake->live("modules"), 0);
  }
}

}  // namespace
