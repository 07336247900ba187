// Profiler ranges (dc_range_push/pop, dc_mark, stream names) through NVTX's
// injection protocol, seen by the recording injection library
// (nvtx_recorder.cpp) that NVTX_INJECTION64_PATH names; without it the calls
// succeed and nothing is loaded. cuProfilerStart/Stop through the driver.
#include <gtest/gtest.h>

#include <dlfcn.h>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <thread>

#include "dccuda.h"
#include "support/child_process.h"
#include "support/fake.h"

namespace {

const char* recorder_path() {
  const char* p = std::getenv("NVTX_INJECTION64_PATH");
  return p && *p ? p : nullptr;
}

// Whether NVTX_INJECTION64_PATH names the recorder (not another profiler: under
// Nsight Systems the ranges go to its timeline, where nsys stats shows them).
bool recorder_attached() {
  const char* path = recorder_path();
  if (!path) return false;
  void* lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  bool ours = lib && dlsym(lib, "nvtx_recorder_log");
  if (lib) dlclose(lib);
  return ours;
}

// The recorder's log, from the copy dccuda loaded ("" if it was not loaded).
std::string recorded() {
  const char* path = recorder_path();
  if (!path) return "";
  void* lib = dlopen(path, RTLD_NOW | RTLD_NOLOAD);
  if (!lib) return "";
  auto log = reinterpret_cast<const char* (*)()>(dlsym(lib, "nvtx_recorder_log"));
  std::string out = log ? log() : "";
  dlclose(lib);
  return out;
}

TEST(Profiler, RangesAndMarksReachTheTool) {
  if (!recorder_path()) GTEST_SKIP() << "runs with NVTX_INJECTION64_PATH naming the recorder";
  bool ours = recorder_attached();
  ASSERT_DC_OK(dc_range_push("outer"));
  ASSERT_DC_OK(dc_range_push("inner"));
  ASSERT_DC_OK(dc_mark("checkpoint"));
  dc_range_pop();
  dc_range_pop();
  std::thread([] { EXPECT_EQ(dc_range_push("on another thread"), DC_SUCCESS); dc_range_pop(); })
      .join();
  if (!ours) GTEST_SKIP() << "another profiler is attached (" << recorder_path() << "): see its timeline";
  std::string log = recorded();
  EXPECT_NE(log.find("attached\npush outer\npush inner\nmark checkpoint\npop\npop\npush on another thread\npop\n"),
            std::string::npos)
      << log;
  EXPECT_EQ(log.find("pop (none open)"), std::string::npos) << log;
}

TEST(Profiler, StreamsAreNamed) {
  if (!recorder_attached()) GTEST_SKIP() << "runs with NVTX_INJECTION64_PATH naming the recorder";
  REQUIRE_DEVICE();
  dc_device device = nullptr;
  ASSERT_DC_OK(dc_device_open(0, &device));
  dc_stream stream = nullptr;
  ASSERT_DC_OK(dc_stream_create(device, 0, 0, &stream));
  void* native = nullptr;
  ASSERT_DC_OK(dc_stream_native(stream, &native));
  std::string id = std::to_string(reinterpret_cast<uintptr_t>(native));
  ASSERT_DC_OK(dc_stream_set_name(stream, "my copies"));
  std::string log = recorded();
  EXPECT_NE(log.find("stream " + id + " dccuda stream "), std::string::npos) << log;
  EXPECT_NE(log.find("(device 0)\n"), std::string::npos) << log;
  EXPECT_NE(log.find("stream " + id + " my copies\n"), std::string::npos) << log;
  dc_stream_release(stream);
  dc_device_release(device);
}

// Without NVTX_INJECTION64_PATH (the GPU suite's run): the two tests above in
// a child given the recorder, found beside this program (the build) or in
// ../lib (the GPU bundle).
TEST(Profiler, RangesReachTheRecorderInAChild) {
  if (recorder_path()) GTEST_SKIP() << "runs without NVTX_INJECTION64_PATH (the tests above ran with it)";
  std::string self = dctest::self_executable();
  std::string dir = self.substr(0, self.rfind('/'));
  std::string recorder;
  for (const std::string& candidate : {dir + "/libdctest_nvtx_recorder.so", dir + "/../lib/libdctest_nvtx_recorder.so"})
    if (void* lib = dlopen(candidate.c_str(), RTLD_NOW | RTLD_LOCAL)) {
      dlclose(lib);
      recorder = candidate;
      break;
    }
  if (recorder.empty()) GTEST_SKIP() << "libdctest_nvtx_recorder.so is not beside " << self << " nor in ../lib";
  dctest::ChildOptions options;
  options.set_env = {"NVTX_INJECTION64_PATH=" + recorder};
  options.timeout_seconds = 60;
  dctest::ChildResult r = dctest::run_program(
      {self, "--gtest_filter=Profiler.RangesAndMarksReachTheTool:Profiler.StreamsAreNamed"}, options);
  std::string shown = r.output;
  for (size_t at = shown.find("SKIPPED"); at != std::string::npos; at = shown.find("SKIPPED", at)) shown.replace(at, 7, "skipped");
  EXPECT_EQ(r.exit_code, 0) << r.how() << "\n" << shown;
  EXPECT_NE(r.output.find("[  PASSED  ] 2 tests"), std::string::npos) << shown;
}

TEST(Profiler, WithoutAToolNothingIsLoaded) {
  if (recorder_path()) GTEST_SKIP() << "runs without NVTX_INJECTION64_PATH";
  ASSERT_DC_OK(dc_range_push("nobody listens"));
  ASSERT_DC_OK(dc_mark("nobody"));
  dc_range_pop();
  dc_range_pop();  // nothing open: still fine
}

TEST(Profiler, BadArguments) {
  EXPECT_DC_ERROR(dc_range_push(nullptr), DC_ERROR_INVALID_ARGUMENT, "name");
  EXPECT_DC_ERROR(dc_mark(nullptr), DC_ERROR_INVALID_ARGUMENT, "name");
  EXPECT_DC_ERROR(dc_stream_set_name(nullptr, "x"), DC_ERROR_INVALID_HANDLE, "stream");
  EXPECT_DC_ERROR(dc_profiler_start(nullptr), DC_ERROR_INVALID_HANDLE, "device");
}

TEST(Profiler, StartAndStopReachTheDriver) {
  REQUIRE_DEVICE();
  dc_device device = nullptr;
  ASSERT_DC_OK(dc_device_open(0, &device));
  long before = dctest::fake_driver() ? dctest::fake_driver()->call_count("cuProfilerStart") : 0;
  ASSERT_DC_OK(dc_profiler_start(device));
  ASSERT_DC_OK(dc_profiler_stop(device));
  if (dctest::fake_driver()) {
    EXPECT_EQ(dctest::fake_driver()->call_count("cuProfilerStart"), before + 1);
    EXPECT_GE(dctest::fake_driver()->call_count("cuProfilerStop"), 1);
  }
  dc_device_release(device);
}

}  // namespace
