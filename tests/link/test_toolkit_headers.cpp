// DC_COMPILE_TOOLKIT_HEADERS: NVRTC finds the toolkit's CCCL and cooperative
// groups headers without the caller naming a path. A kernel with
// cuda::atomic_ref at system scope and this_grid().sync() compiles with the
// real NVRTC in CI; it runs against the fake driver's emulation of
// cg_grid_sync_reverse and, on a GPU, as itself (against the CPU).
#include "launch/launch_test.h"

namespace {

using namespace launchtest;

// The emulated kernel's semantics (tests/fake_driver/fake_kernels.h), with the
// first phase's stores through a system-scope atomic_ref.
const char* kCcclKernel = R"(
#include <cuda/atomic>
#include <cooperative_groups.h>
extern "C" __global__ void cg_grid_sync_reverse(const int* in, int* tmp, int* out, unsigned n) {
  cooperative_groups::grid_group grid = cooperative_groups::this_grid();
  for (unsigned long long i = grid.thread_rank(); i < n; i += grid.size())
    cuda::atomic_ref<int, cuda::thread_scope_system>(tmp[i]).store(in[i] * 2, cuda::memory_order_relaxed);
  grid.sync();
  for (unsigned long long i = grid.thread_rank(); i < n; i += grid.size()) out[i] = tmp[n - 1 - i];
}
)";

class ToolkitHeadersTest : public LaunchTest {
 protected:
  void SetUp() override {
    LaunchTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    REQUIRE_NVRTC();
  }
  static dc_compile_options options(uint32_t flags) {
    dc_compile_options o = DC_COMPILE_OPTIONS_INIT;
    o.std = "c++17";
    o.flags = flags;
    return o;
  }
};

TEST_F(ToolkitHeadersTest, WithoutTheFlagTheHeadersAreNotFound) {
  dc_compile_options o = options(DC_COMPILE_NO_CACHE);
  dc_program p = nullptr;
  EXPECT_DC_ERROR(dc_compile(kCcclKernel, "cccl.cu", &o, device_, &p), DC_ERROR_COMPILE, "cuda/atomic");
}

TEST_F(ToolkitHeadersTest, AtomicRefAndGridSyncCompileLoadAndRun) {
  dc_compile_options o = options(DC_COMPILE_TOOLKIT_HEADERS);
  dc_module m = nullptr;
  dc_status s = dc_module_compile_and_load(device_, kCcclKernel, "cccl.cu", &o, &m);
  if (s == DC_ERROR_NOT_FOUND) GTEST_SKIP() << "no CUDA toolkit headers here: " << dc_last_error_message();
  ASSERT_EQ(s, DC_SUCCESS) << dc_last_error_message() << "\n" << dc_last_error_detail();
  modules_.push_back(m);
  dc_function f = function(m, "cg_grid_sync_reverse");
  ASSERT_NE(f, nullptr);
  if (!info_.cooperative_launch) GTEST_SKIP() << "the device has no cooperative launch";
  int32_t per_sm = 0;
  ASSERT_DC_OK(dc_occupancy_max_active_blocks(f, 256, 0, &per_sm));
  ASSERT_GE(per_sm, 1);
  uint32_t blocks = static_cast<uint32_t>(per_sm * info_.multiprocessor_count);
  const unsigned n = blocks * 256 * 2 + 5;
  std::vector<int32_t> in(n);
  for (unsigned i = 0; i < n; ++i) in[i] = static_cast<int32_t>(i) - 1000;
  dc_buffer bin = upload(in), btmp = alloc(n * 4), bout = alloc(n * 4);
  dc_launch_config c = config_1d(blocks, 256);
  c.flags = DC_LAUNCH_COOPERATIVE;
  unsigned count = n;
  dc_arg args[] = {buffer_arg(bin), buffer_arg(btmp), buffer_arg(bout), value_of(count)};
  ASSERT_DC_OK(dc_launch_kernel(f, &c, args, 4, stream_));
  sync();
  std::vector<int32_t> out = download<int32_t>(bout, n);
  for (unsigned i = 0; i < n; ++i) ASSERT_EQ(out[i], in[n - 1 - i] * 2) << i;
}

TEST_F(ToolkitHeadersTest, TheFoldersAreInTheOptionsSoInTheKey) {
  // The same source with and without the flag are different compiles: with
  // the flag it compiles, without it fails (so neither answers the other).
  dc_compile_options with = options(DC_COMPILE_TOOLKIT_HEADERS);
  dc_program p = nullptr;
  dc_status s = dc_compile(kCcclKernel, "cccl.cu", &with, device_, &p);
  if (s == DC_ERROR_NOT_FOUND) GTEST_SKIP() << "no CUDA toolkit headers here: " << dc_last_error_message();
  ASSERT_EQ(s, DC_SUCCESS) << dc_last_error_message();
  dc_program_release(p);
  dc_compile_options without = options(0);
  EXPECT_DC_ERROR(dc_compile(kCcclKernel, "cccl.cu", &without, device_, &p), DC_ERROR_COMPILE, "cuda/atomic");
}

}  // namespace
