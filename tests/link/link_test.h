// Shared pieces of the link tests: two CUDA C++ sources where one kernel calls
// a __device__ function defined in the other (relocatable device code), a
// kernel that launches a kernel (dynamic parallelism), and a fixture that
// compiles them for the device and links them. They run against the fake
// driver in CI with the real nvJitLink (a CPU library), and against a real
// driver on a GPU; results are checked against CPU references.
#pragma once

#include <cmath>
#include <string>
#include <vector>

#include "launch/launch_test.h"

namespace linktest {

// The callee: a __device__ function, no kernel.
inline const char* kCallee = R"(
extern "C" __device__ float axpy_one(float a, float x, float y) { return a * x + y; }
)";

// The caller: saxpy through the callee's function (the fake emulates saxpy
// by name; a GPU runs the linked code).
inline const char* kCaller = R"(
extern "C" __device__ float axpy_one(float a, float x, float y);
extern "C" __global__ void saxpy(float a, const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = axpy_one(a, x[i], y[i]);
}
)";

// Dynamic parallelism: each parent block launches a child grid that writes
// its slice (needs the device runtime, libcudadevrt).
inline const char* kDynamicParallelism = R"(
extern "C" __global__ void dp_child(int* out, int base) { out[base + threadIdx.x] = 3 * (base + threadIdx.x); }
extern "C" __global__ void dp_parent(int* out) {
  if (threadIdx.x == 0) dp_child<<<1, 32>>>(out, blockIdx.x * 32);
}
)";

inline dc_link_input program_input(dc_program p) {
  dc_link_input in = {DC_LINK_INPUT_PROGRAM, 0u, p, nullptr, 0, nullptr, nullptr};
  return in;
}

class LinkTest : public launchtest::LaunchTest {
 protected:
  void SetUp() override {
    LaunchTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    REQUIRE_NVRTC();
    arch_ = info_.compute_capability_major * 10 + info_.compute_capability_minor;
  }
  void TearDown() override {
    for (dc_program p : programs_) dc_program_release(p);
    programs_.clear();
    LaunchTest::TearDown();
    if (auto* f = dctest::fake_driver()) {
    EXPECT_EQ(f->live("link_states"), 0) << "a cuLink state leaked";
  }
  }
  // Whether nvJitLink is there (its message in `why` if not).
  static bool have_nvjitlink(std::string* why = nullptr) {
    int32_t major = 0, minor = 0;
    bool ok = dc_nvjitlink_version(&major, &minor) == DC_SUCCESS;
    if (!ok && why) *why = dc_last_error_message();
    return ok;
  }
  dc_program keep(dc_program p) {
    if (p) programs_.push_back(p);
    return p;
  }
  // Compiles `source` for the device (no cache: these tests are about linking).
  dc_program compile(const char* source, int32_t output, uint32_t flags = 0) {
    dc_compile_options o = DC_COMPILE_OPTIONS_INIT;
    o.output = output;
    o.flags = flags | DC_COMPILE_NO_CACHE;
    dc_program p = nullptr;
    EXPECT_DC_OK(dc_compile(source, "link_test.cu", &o, device_, &p));
    return keep(p);
  }
  dc_program link(std::vector<dc_link_input> inputs, dc_link_options o, dc_device device) {
    dc_program p = nullptr;
    dc_status s = dc_link(inputs.data(), static_cast<uint32_t>(inputs.size()), &o, device, &p);
    EXPECT_EQ(s, DC_SUCCESS) << dc_status_name(s) << ": " << dc_last_error_message() << "\n"
                             << dc_last_error_detail();
    return keep(p);
  }
  static dc_link_options options(uint32_t flags = DC_LINK_NO_CACHE) {
    dc_link_options o = DC_LINK_OPTIONS_INIT;
    o.flags = flags;
    return o;
  }
  // Loads a linked program and runs saxpy from it against the CPU.
  void run_saxpy(dc_program linked) {
    ASSERT_NE(linked, nullptr);
    int32_t kind = -1;
    ASSERT_DC_OK(dc_program_output(linked, &kind, nullptr, nullptr));
    EXPECT_EQ(kind, DC_OUTPUT_CUBIN);
    dc_module m = nullptr;
    ASSERT_DC_OK(dc_module_load_program(device_, linked, nullptr, &m));
    modules_.push_back(m);
    dc_function f = function(m, "saxpy");
    ASSERT_NE(f, nullptr);
    const int n = 4099;
    std::vector<float> x = launchtest::random_floats(n, 41), y = launchtest::random_floats(n, 42);
    dc_buffer bx = upload(x), by = upload(y);
    float a = 1.5f;
    int count = n;
    dc_arg args[] = {launchtest::value_of(a), launchtest::buffer_arg(bx), launchtest::buffer_arg(by),
                     launchtest::value_of(count)};
    dc_launch_config c = DC_LAUNCH_CONFIG_INIT;
    ASSERT_DC_OK(dc_launch_config_1d(f, n, 0, &c));
    ASSERT_DC_OK(dc_launch_kernel(f, &c, args, 4, stream_));
    sync();
    std::vector<float> got = download<float>(by, n);
    // The GPU may fuse a * x + y (one rounding): compare within it.
    for (int i = 0; i < n; ++i) ASSERT_NEAR(got[i], a * x[i] + y[i], 1e-6f * (1 + std::fabs(a * x[i]))) << i;
  }

  // Links kDynamicParallelism against the toolkit's device runtime with
  // `flags`, loads it and, on a GPU, runs it against the CPU (the fake runs
  // unknown kernels as no-ops: there the result would mean nothing).
  void run_dynamic_parallelism(uint32_t flags) {
    dc_program dp = compile(kDynamicParallelism, DC_OUTPUT_CUBIN, DC_COMPILE_RELOCATABLE);
    ASSERT_NE(dp, nullptr);
    dc_link_input in[] = {program_input(dp), {DC_LINK_INPUT_DEVICE_RUNTIME, 0u, nullptr, nullptr, 0, nullptr, nullptr}};
    dc_link_options o = options(flags);
    dc_program linked = nullptr;
    dc_status s = dc_link(in, 2, &o, device_, &linked);
    if (s == DC_ERROR_NOT_FOUND) GTEST_SKIP() << "no device runtime in a toolkit here: " << dc_last_error_message();
    ASSERT_EQ(s, DC_SUCCESS) << dc_last_error_message() << "\n" << dc_last_error_detail();
    keep(linked);
    dc_module m = nullptr;
    ASSERT_DC_OK(dc_module_load_program(device_, linked, nullptr, &m));
    modules_.push_back(m);
    dc_function parent = function(m, "dp_parent");
    ASSERT_NE(parent, nullptr);
    if (!dctest::real_driver()) return;
    const int blocks = 8, n = blocks * 32;
    dc_buffer out = alloc(n * sizeof(int));
    ASSERT_DC_OK(dc_buffer_fill(out, 0, n * sizeof(int), 0, 4));
    dc_arg args[] = {launchtest::buffer_arg(out)};
    dc_launch_config c = launchtest::config_1d(blocks, 32);
    ASSERT_DC_OK(dc_launch_kernel(parent, &c, args, 1, stream_));
    sync();
    std::vector<int> got = download<int>(out, n);
    for (int i = 0; i < n; ++i) ASSERT_EQ(got[i], 3 * i) << i;
  }

  int32_t arch_ = 0;
  std::vector<dc_program> programs_;
};

#define REQUIRE_NVJITLINK()                                                            \
  do {                                                                                 \
    std::string why_;                                                                  \
    if (!have_nvjitlink(&why_)) GTEST_SKIP() << "needs nvJitLink, not found: " << why_; \
  } while (0)

}  // namespace linktest
