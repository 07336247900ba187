// Shared pieces of the launch and graph tests. They run against the fake
// driver in CI (kernels emulated, tests/fake_driver/fake_kernels.h) and
// against a real driver on a GPU machine (the same binaries, the kernels
// compiled by NVRTC); results are checked against CPU references, never
// against values only the fake produces. Tests that inject faults call
// REQUIRE_FAKE_DRIVER().
#pragma once

#include "loader/cuda_abi/driver_abi.h"
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "compile/kernel_sources.h"
#include "dccuda.h"
#include "launch/launch_kernels.h"
#include "support/fake.h"

namespace launchtest {

// Every kind of driver object the fake counts that these tests create.
inline const char* const kLiveKinds[] = {"allocations", "host_allocations", "managed", "registrations", "streams",
                                         "events",      "modules",          "graphs",  "graph_execs",   "primary_retains"};

inline dc_arg value_arg(const void* p, uint32_t size) {
  dc_arg a = {DC_ARG_VALUE, size, p, nullptr, 0};
  return a;
}
template <class T>
dc_arg value_of(const T& v) {
  return value_arg(&v, static_cast<uint32_t>(sizeof(T)));
}
inline dc_arg buffer_arg(dc_buffer b, uint64_t offset = 0) {
  dc_arg a = {DC_ARG_BUFFER, 8, nullptr, b, offset};
  return a;
}

inline dc_launch_config config_1d(uint32_t grid, uint32_t block, uint32_t shared = 0) {
  dc_launch_config c = DC_LAUNCH_CONFIG_INIT;
  c.grid[0] = grid;
  c.block[0] = block;
  c.shared_memory_bytes = shared;
  return c;
}

inline std::vector<float> random_floats(size_t n, uint32_t seed, float lo = -1.0f, float hi = 1.0f) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> d(lo, hi);
  std::vector<float> v(n);
  for (float& x : v) x = d(rng);
  return v;
}

// The toolkit's include directories for cooperative_groups.h (and the CCCL
// headers it needs since CUDA 13), or empty when not installed.
inline std::vector<std::string> cuda_include_dirs() {
  std::vector<std::string> roots;
  for (const char* env : {"CUDA_HOME", "CUDA_PATH"})
    if (const char* v = std::getenv(env); v && *v) roots.push_back(std::string(v) + "/include");
  roots.push_back("/usr/local/cuda/include");
  struct stat st;
  for (const std::string& r : roots) {
    if (stat((r + "/cooperative_groups.h").c_str(), &st) != 0) continue;
    std::vector<std::string> dirs{r};
    if (stat((r + "/cccl").c_str(), &st) == 0) dirs.push_back(r + "/cccl");
    return dirs;
  }
  return {};
}

// Opens device 0 and a stream (skips without a device); tracks what a test
// makes and releases it at tear-down, then checks that no handle and, on the
// fake, no driver object leaked.
class LaunchTest : public testing::Test {
 protected:
  void SetUp() override {
    REQUIRE_DEVICE();
    if (auto* f = dctest::fake_driver()) f->reset();
    ASSERT_EQ(dctest::live_handles(), 0u) << "an earlier test leaked handles";
    ASSERT_DC_OK(dc_device_open(0, &device_));
    ASSERT_DC_OK(dc_stream_create(device_, 0, 0, &stream_));
    int32_t major = 0, minor = 0;
    have_nvrtc_ = dc_nvrtc_version(&major, &minor) == DC_SUCCESS;
#ifdef DCTEST_KERNELS_CUBIN
    // Without NVRTC (no toolkit; Windows under Wine), dctest::kKernels come
    // from the committed sm_90 CUBIN (tests/module/fixtures) beside the test.
    if (!have_nvrtc_) precompiled_ = dctest::next_to_executable(DCTEST_KERNELS_CUBIN);
#endif
    dc_device_info info = DC_DEVICE_INFO_INIT;
    ASSERT_DC_OK(dc_device_get_info(device_, &info));
    info_ = info;
  }
  void TearDown() override {
    release_all();
    if (stream_) dc_stream_release(stream_);
    if (device_) dc_device_release(device_);
    stream_ = nullptr;
    device_ = nullptr;
    EXPECT_EQ(dctest::live_handles(), 0u) << "the test leaked handles";
    if (auto* f = dctest::fake_driver()) {
      for (const char* kind : kLiveKinds) EXPECT_EQ(f->live(kind), 0) << "leaked fake driver objects: " << kind;
      EXPECT_EQ(f->legacy_calls(), 0) << "a legacy (unversioned) entry point was called";
    }
  }
  void release_all() {
    for (dc_graph g : graphs_) dc_graph_release(g);
    for (dc_launch l : launches_) dc_launch_release(l);
    for (dc_function f : functions_) dc_function_release(f);
    for (dc_module m : modules_) dc_module_release(m);
    for (dc_buffer b : buffers_) dc_buffer_release(b);
    for (dc_stream s : streams_) dc_stream_release(s);
    base_module_ = launch_module_ = nullptr;
    graphs_.clear();
    launches_.clear();
    functions_.clear();
    modules_.clear();
    buffers_.clear();
    streams_.clear();
  }

  // Compiles `source` (CUBIN for the device) and loads it; nullptr (after a
  // failed expectation) if that fails.
  dc_module load(const std::string& source, std::vector<const char*> name_expressions = {},
                 std::vector<std::string> include_dirs = {}) {
    dc_compile_options o = DC_COMPILE_OPTIONS_INIT;
    o.std = "c++17";
    o.num_name_expressions = static_cast<uint32_t>(name_expressions.size());
    o.name_expressions = name_expressions.data();
    std::vector<const char*> includes;
    for (const std::string& d : include_dirs) includes.push_back(d.c_str());
    o.num_include_paths = static_cast<uint32_t>(includes.size());
    o.include_paths = includes.data();
    dc_module m = nullptr;
    EXPECT_DC_OK(dc_module_compile_and_load(device_, source.c_str(), "launch_kernels.cu", &o, &m));
    if (m) modules_.push_back(m);
    return m;
  }
  dc_function function(dc_module m, const char* name) {
    dc_function f = nullptr;
    EXPECT_DC_OK(dc_module_get_function(m, name, &f));
    if (f) functions_.push_back(f);
    return f;
  }
  // A kernel of dctest::kKernels (saxpy, mixed, empty, tiled) or kLaunchKernels.
  dc_function kernel(const char* name) {
    const char* source = is_launch_kernel(name) ? dctest::kLaunchKernels : dctest::kKernels;
    dc_module& m = is_launch_kernel(name) ? launch_module_ : base_module_;
    if (!m && !have_nvrtc_ && !is_launch_kernel(name) && !precompiled_.empty()) {
      EXPECT_DC_OK(dc_module_load_file(device_, precompiled_.c_str(), nullptr, &m));
      if (m) modules_.push_back(m);
    } else if (!m) {
      m = load(source);
    }
    return m ? function(m, name) : nullptr;
  }
  static bool is_launch_kernel(const std::string& name) {
    for (const char* k : {"vector_add", "fill_u32", "reduce_sum", "grid3d_index", "grid_sync_reverse", "bounded"})
      if (name == k) return true;
    return false;
  }

  dc_buffer alloc(uint64_t bytes) {
    dc_buffer b = nullptr;
    EXPECT_DC_OK(dc_buffer_alloc(device_, bytes, 0, &b));
    if (b) buffers_.push_back(b);
    return b;
  }
  template <class T>
  dc_buffer upload(const std::vector<T>& v) {
    dc_buffer b = alloc(v.size() * sizeof(T));
    if (b) EXPECT_DC_OK(dc_buffer_write(b, 0, v.data(), v.size() * sizeof(T)));
    return b;
  }
  template <class T>
  std::vector<T> download(dc_buffer b, size_t n) {
    std::vector<T> v(n);
    EXPECT_DC_OK(dc_buffer_read(b, 0, v.data(), n * sizeof(T)));
    return v;
  }
  dc_stream new_stream() {
    dc_stream s = nullptr;
    EXPECT_DC_OK(dc_stream_create(device_, 0, 0, &s));
    if (s) streams_.push_back(s);
    return s;
  }
  dc_launch prepare(dc_function f, const dc_launch_config& c) {
    dc_launch l = nullptr;
    EXPECT_DC_OK(dc_launch_create(f, &c, &l));
    if (l) launches_.push_back(l);
    return l;
  }
  void sync() { EXPECT_DC_OK(dc_stream_synchronize(stream_)); }

  dc_device device_ = nullptr;
  dc_stream stream_ = nullptr;
  dc_device_info info_ = DC_DEVICE_INFO_INIT;
  bool have_nvrtc_ = false;
  std::string precompiled_;  // the CUBIN of dctest::kKernels, where NVRTC is missing
  dc_module base_module_ = nullptr;
  dc_module launch_module_ = nullptr;
  std::vector<dc_graph> graphs_;
  std::vector<dc_launch> launches_;
  std::vector<dc_function> functions_;
  std::vector<dc_module> modules_;
  std::vector<dc_buffer> buffers_;
  std::vector<dc_stream> streams_;
};

#define REQUIRE_NVRTC() \
  if (!have_nvrtc_) GTEST_SKIP() << "needs NVRTC, not found: " << dctest::nvrtc_unavailable()

// Only kernels of dctest::kKernels: NVRTC, or else their precompiled CUBIN.
#define REQUIRE_KERNELS()                                                                              \
  if (!have_nvrtc_ && precompiled_.empty())                                                          \
  GTEST_SKIP() << "needs NVRTC or the precompiled kernels, neither found: " << dctest::nvrtc_unavailable()

}  // namespace launchtest
