// The GPU suite's kernels: a reduction, a templated kernel through name
// expressions, a cooperative kernel with a grid-wide sync, a cluster launch,
// a 3-D grid, each on random data against a CPU reference. On the fake
// driver they run through its emulation (tests/fake_driver/fake_kernels.h).
#include <cmath>
#include <numeric>
#include <string>
#include <vector>

#include "launch/launch_test.h"

namespace {

using namespace launchtest;

class KernelTest : public LaunchTest {
 protected:
  void SetUp() override {
    LaunchTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    if (!have_nvrtc_) GTEST_SKIP() << "needs NVRTC, not found: " << dctest::nvrtc_unavailable();
  }
};

TEST_F(KernelTest, VectorAdd) {
  dc_function f = kernel("vector_add");
  ASSERT_NE(f, nullptr);
  const int n = 65537;
  std::vector<float> a = random_floats(n, 31), b = random_floats(n, 32);
  dc_buffer ba = upload(a), bb = upload(b), bc = alloc(n * sizeof(float));
  int count = n;
  dc_arg args[] = {buffer_arg(ba), buffer_arg(bb), buffer_arg(bc), value_of(count)};
  dc_launch_config c = DC_LAUNCH_CONFIG_INIT;
  ASSERT_DC_OK(dc_launch_config_1d(f, n, 0, &c));
  ASSERT_DC_OK(dc_launch_kernel(f, &c, args, 4, stream_));
  sync();
  std::vector<float> got = download<float>(bc, n);
  for (int i = 0; i < n; ++i) ASSERT_EQ(got[i], a[i] + b[i]) << i;
}

TEST_F(KernelTest, ReductionSumsEveryElement) {
  dc_function f = kernel("reduce_sum");
  ASSERT_NE(f, nullptr);
  const unsigned n = 1u << 20;
  std::vector<float> in = random_floats(n, 33, 0.0f, 1.0f);
  dc_buffer bin = upload(in), bout = upload(std::vector<float>{0.0f});
  double want = std::accumulate(in.begin(), in.end(), 0.0);
  // A grid smaller than n: each thread sums a grid-stride slice first.
  for (uint32_t block : {256u, 1000u}) {
    ASSERT_DC_OK(dc_buffer_fill(bout, 0, 4, 0, 4));
    dc_launch_config c = config_1d(static_cast<uint32_t>(2 * info_.multiprocessor_count), block);
    unsigned count = n;
    dc_arg args[] = {buffer_arg(bin), buffer_arg(bout), value_of(count)};
    ASSERT_DC_OK(dc_launch_kernel(f, &c, args, 3, stream_));
    sync();
    double got = download<float>(bout, 1)[0];
    EXPECT_NEAR(got, want, want * 1e-4) << "block " << block;
  }
}

TEST_F(KernelTest, TemplatedKernelThroughNameExpressions) {
  std::vector<const char*> expressions = {"scale<float>", "scale<double>"};
  dc_compile_options o = DC_COMPILE_OPTIONS_INIT;
  o.num_name_expressions = 2;
  o.name_expressions = expressions.data();
  dc_program p = nullptr;
  ASSERT_DC_OK(dc_compile(dctest::kKernels, "kernels.cu", &o, device_, &p));
  dc_module m = nullptr;
  ASSERT_DC_OK(dc_module_load_program(device_, p, nullptr, &m));
  modules_.push_back(m);
  const char* lowered_f = nullptr;
  const char* lowered_d = nullptr;
  ASSERT_DC_OK(dc_program_lowered_name(p, "scale<float>", &lowered_f));
  ASSERT_DC_OK(dc_program_lowered_name(p, "scale<double>", &lowered_d));
  dc_function ff = function(m, lowered_f), fd = function(m, lowered_d);
  dc_program_release(p);
  ASSERT_NE(ff, nullptr);
  ASSERT_NE(fd, nullptr);

  const int n = 10000;
  std::vector<float> xf = random_floats(n, 34);
  std::vector<double> xd(xf.begin(), xf.end());
  dc_buffer bf = upload(xf), bd = upload(xd);
  float factor_f = 3.0f;
  double factor_d = -0.25;
  int count = n;
  dc_launch_config c = config_1d((n + 127) / 128, 128);
  dc_arg af[] = {buffer_arg(bf), value_of(factor_f), value_of(count)};
  dc_arg ad[] = {buffer_arg(bd), value_of(factor_d), value_of(count)};
  // The double kernel's factor is 8 bytes: a float is refused.
  dc_arg wrong[] = {buffer_arg(bd), value_of(factor_f), value_of(count)};
  EXPECT_DC_ERROR(dc_launch_kernel(fd, &c, wrong, 3, stream_), DC_ERROR_INVALID_ARGUMENT,
                  "parameter 1 is 8 bytes, argument is 4 bytes");
  ASSERT_DC_OK(dc_launch_kernel(ff, &c, af, 3, stream_));
  ASSERT_DC_OK(dc_launch_kernel(fd, &c, ad, 3, stream_));
  sync();
  std::vector<float> gf = download<float>(bf, n);
  std::vector<double> gd = download<double>(bd, n);
  for (int i = 0; i < n; ++i) {
    ASSERT_EQ(gf[i], xf[i] * 3.0f) << i;
    ASSERT_EQ(gd[i], xd[i] * -0.25) << i;
  }
}

TEST_F(KernelTest, CooperativeGridSync) {
  if (!info_.cooperative_launch) GTEST_SKIP() << "the device has no cooperative launch";
  dc_function f = kernel("grid_sync_reverse");
  ASSERT_NE(f, nullptr);
  int32_t per_sm = 0;
  ASSERT_DC_OK(dc_occupancy_max_active_blocks(f, 128, 0, &per_sm));
  ASSERT_GE(per_sm, 1);
  uint32_t blocks = static_cast<uint32_t>(per_sm * info_.multiprocessor_count);
  const unsigned n = blocks * 128 * 3 + 17;  // several elements per thread; each reads other blocks' values
  std::vector<int32_t> in(n);
  for (unsigned i = 0; i < n; ++i) in[i] = static_cast<int32_t>(i * 7 + 1);
  dc_buffer bin = upload(in), btmp = alloc(n * 4), bout = alloc(n * 4), bcounter = upload(std::vector<uint32_t>{0});
  dc_launch_config c = config_1d(blocks, 128);
  c.flags = DC_LAUNCH_COOPERATIVE;
  unsigned count = n;
  dc_arg args[] = {buffer_arg(bin), buffer_arg(btmp), buffer_arg(bout), value_of(count), buffer_arg(bcounter)};
  ASSERT_DC_OK(dc_launch_kernel(f, &c, args, 5, stream_));
  sync();
  std::vector<int32_t> out = download<int32_t>(bout, n);
  for (unsigned i = 0; i < n; ++i) ASSERT_EQ(out[i], in[n - 1 - i] * 2) << i;
  EXPECT_EQ(download<uint32_t>(bcounter, 1)[0], blocks);
}

TEST_F(KernelTest, CooperativeGroupsGridSync) {
  if (!info_.cooperative_launch) GTEST_SKIP() << "the device has no cooperative launch";
  std::vector<std::string> includes = cuda_include_dirs();
  if (includes.empty()) GTEST_SKIP() << "cooperative_groups.h not found (set CUDA_HOME)";
  dc_module m = load(dctest::kCooperativeGroupsKernel, {}, includes);
  ASSERT_NE(m, nullptr);
  dc_function f = function(m, "cg_grid_sync_reverse");
  ASSERT_NE(f, nullptr);
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
  // A prepared cooperative launch, enqueued twice.
  dc_launch l = prepare(f, c);
  ASSERT_NE(l, nullptr);
  ASSERT_DC_OK(dc_launch_set_args(l, args, 4));
  ASSERT_DC_OK(dc_launch_enqueue(l, stream_));
  ASSERT_DC_OK(dc_launch_enqueue(l, stream_));
  sync();
  std::vector<int32_t> out = download<int32_t>(bout, n);
  for (unsigned i = 0; i < n; ++i) ASSERT_EQ(out[i], in[n - 1 - i] * 2) << i;
}

TEST_F(KernelTest, ClusterLaunch) {
  if (!info_.cluster_launch) GTEST_SKIP() << "the device has no thread-block clusters (compute capability < 9.0)";
  dc_module m = load(dctest::kClusterKernel);
  ASSERT_NE(m, nullptr);
  dc_function f = function(m, "cluster_rank");
  ASSERT_NE(f, nullptr);
  const uint32_t blocks = 64;
  dc_buffer out = upload(std::vector<uint32_t>(blocks, 0xFFFFFFFFu));
  dc_arg arg = buffer_arg(out);
  for (uint32_t cluster : {1u, 2u, 4u}) {
    dc_launch_config c = config_1d(blocks, 64);
    c.cluster[0] = cluster;
    c.cluster[1] = c.cluster[2] = 1;
    ASSERT_DC_OK(dc_launch_kernel(f, &c, &arg, 1, stream_));
    sync();
    std::vector<uint32_t> got = download<uint32_t>(out, blocks);
    for (uint32_t b = 0; b < blocks; ++b) ASSERT_EQ(got[b], b % cluster + 1000u * cluster) << "cluster " << cluster;
  }
  // Without clusters each block is a cluster of one.
  dc_launch_config plain = config_1d(blocks, 64);
  ASSERT_DC_OK(dc_launch_kernel(f, &plain, &arg, 1, stream_));
  sync();
  std::vector<uint32_t> got = download<uint32_t>(out, blocks);
  for (uint32_t b = 0; b < blocks; ++b) ASSERT_EQ(got[b], 1000u) << b;
}

TEST_F(KernelTest, ThreeDimensionalGrid) {
  dc_function f = kernel("grid3d_index");
  ASSERT_NE(f, nullptr);
  const unsigned nx = 37, ny = 19, nz = 11;
  dc_buffer out = upload(std::vector<uint32_t>(nx * ny * nz, 0xFFFFFFFFu));
  dc_launch_config c = DC_LAUNCH_CONFIG_INIT;
  c.block[0] = 8;
  c.block[1] = 4;
  c.block[2] = 2;
  c.grid[0] = (nx + 7) / 8;
  c.grid[1] = (ny + 3) / 4;
  c.grid[2] = (nz + 1) / 2;
  dc_arg args[] = {buffer_arg(out), value_of(nx), value_of(ny), value_of(nz)};
  ASSERT_DC_OK(dc_launch_kernel(f, &c, args, 4, stream_));
  sync();
  std::vector<uint32_t> got = download<uint32_t>(out, nx * ny * nz);
  for (unsigned z = 0; z < nz; ++z)
    for (unsigned y = 0; y < ny; ++y)
      for (unsigned x = 0; x < nx; ++x)
        ASSERT_EQ(got[(z * ny + y) * nx + x], x + 1000u * y + 1000000u * z) << x << "," << y << "," << z;
}

}  // namespace
