// The log hook (dc_set_log_callback): the decisions that reach it, the
// levels, and the rules of its thread (no dc_ call from inside it, replacing
// it waits for the running callback). Each CTest case is its own process, so
// the first test can hear the driver being loaded; its own main calls no dc_
// function first for the same reason.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "dccuda.h"
#include "diagnostics/log_recorder.h"
#include "support/fake.h"

namespace {

using dctest::LogLine;
using dctest::LogRecorder;

int fake_version() {
  const char* v = std::getenv("DCFAKE_DRIVER_VERSION");
  return v ? std::atoi(v) : 0;
}

// Removes the callback when a test ends, so that no test hears another's.
struct LogScope {
  LogRecorder recorder;
  explicit LogScope(int32_t level = DC_LOG_TRACE) {
    EXPECT_EQ(dc_set_log_callback(level, &LogRecorder::callback, &recorder), DC_SUCCESS) << dc_last_error_message();
  }
  ~LogScope() { dc_set_log_callback(DC_LOG_TRACE, nullptr, nullptr); }
};

// An allocation, so that the device has a pool to trim (and trimming logs).
void use_the_pool(dc_device device) {
  dc_buffer buffer = nullptr;
  ASSERT_DC_OK(dc_buffer_alloc(device, 1 << 20, 0, &buffer));
  dc_buffer_release(buffer);
}

// First in the file: in a process of its own (as CTest runs it) it sees the
// driver load.
TEST(Log, DriverLoadAndMissingEntryPoints) {
  LogScope log;
  int32_t count = 0;
  ASSERT_DC_OK(dc_device_count(&count));
  if (log.recorder.lines().empty()) GTEST_SKIP() << "the driver was loaded before this test (run it alone to check)";
  LogLine loaded;
  ASSERT_TRUE(log.recorder.has("driver", "loaded the CUDA driver", &loaded)) << log.recorder.dump();
  EXPECT_EQ(loaded.level, DC_LOG_INFO);
  if (!dctest::fake_driver()) return;  // what a real driver lacks is its own business
  if (fake_version() == 12000) {
    // An entry point with an older version beside it, and one without.
    LogLine line;
    ASSERT_TRUE(log.recorder.has("fallback", "cuMemPrefetchAsync of CUDA 12.2 is missing", &line)) << log.recorder.dump();
    EXPECT_NE(line.message.find("uses its CUDA 8.0 version instead"), std::string::npos) << line.message;
    EXPECT_EQ(line.level, DC_LOG_DEBUG);
    ASSERT_TRUE(log.recorder.has("driver", "cuFuncGetParamInfo (CUDA 12.4) is missing", &line)) << log.recorder.dump();
    EXPECT_NE(line.message.find("DC_ERROR_NOT_SUPPORTED"), std::string::npos) << line.message;
    EXPECT_EQ(line.level, DC_LOG_WARNING);
  } else {
    EXPECT_FALSE(log.recorder.has("driver", "is missing")) << log.recorder.dump();
  }
}

TEST(Log, UnknownLevelIsRefused) {
  EXPECT_DC_ERROR(dc_set_log_callback(-1, &LogRecorder::callback, nullptr), DC_ERROR_INVALID_ARGUMENT, "min_level -1");
  EXPECT_DC_ERROR(dc_set_log_callback(5, nullptr, nullptr), DC_ERROR_INVALID_ARGUMENT, "DC_LOG_TRACE (0)");
}

TEST(Log, PoolTrimmedAtInfo) {
  REQUIRE_DEVICE();
  dc_device device = nullptr;
  ASSERT_DC_OK(dc_device_open(0, &device));
  {
    LogScope log(DC_LOG_INFO);
    dc_buffer buffer = nullptr;
    ASSERT_DC_OK(dc_buffer_alloc(device, 1 << 20, 0, &buffer));
    dc_buffer_release(buffer);
    ASSERT_DC_OK(dc_device_trim_memory(device, 4096));
    LogLine line;
    if (log.recorder.has("fallback", "no memory pool")) GTEST_SKIP() << "the device has no pool: " << log.recorder.dump();
    ASSERT_TRUE(log.recorder.has("pool", "device 0: pool trimmed to keep at most 4096 bytes", &line))
        << log.recorder.dump();
    EXPECT_EQ(line.level, DC_LOG_INFO);
  }
  dc_device_release(device);
}

TEST(Log, LevelsBelowTheThresholdAreNotDelivered) {
  REQUIRE_DEVICE();
  dc_device device = nullptr;
  ASSERT_DC_OK(dc_device_open(0, &device));
  {
    LogScope log(DC_LOG_WARNING);
    ASSERT_DC_OK(dc_device_trim_memory(device, 0));
    std::vector<uint8_t> host(8u << 20, 1);
    dc_buffer buffer = nullptr;
    ASSERT_DC_OK(dc_buffer_alloc(device, host.size(), 0, &buffer));
    ASSERT_DC_OK(dc_buffer_write(buffer, 0, host.data(), host.size()));
    dc_buffer_release(buffer);
    for (const LogLine& l : log.recorder.lines()) EXPECT_GE(l.level, DC_LOG_WARNING) << l.category << ": " << l.message;
  }
  dc_device_release(device);
}

TEST(Log, StagingChosenForLargePageableCopies) {
  REQUIRE_DEVICE();
  dc_device device = nullptr;
  ASSERT_DC_OK(dc_device_open(0, &device));
  {
    LogScope log(DC_LOG_DEBUG);
    std::vector<uint8_t> host(8u << 20, 7);
    dc_buffer buffer = nullptr;
    ASSERT_DC_OK(dc_buffer_alloc(device, host.size(), 0, &buffer));
    ASSERT_DC_OK(dc_buffer_write(buffer, 0, host.data(), 4096));  // small: never staged
    EXPECT_FALSE(log.recorder.has("staging", "")) << log.recorder.dump();
    ASSERT_DC_OK(dc_buffer_write(buffer, 0, host.data(), host.size()));
    ASSERT_DC_OK(dc_buffer_read(buffer, 0, host.data(), host.size()));
    dc_buffer_release(buffer);
    LogLine line;
    EXPECT_TRUE(log.recorder.has("staging", "8388608 bytes from pageable host memory staged", &line))
        << log.recorder.dump();
    EXPECT_EQ(line.level, DC_LOG_DEBUG);
    EXPECT_TRUE(log.recorder.has("staging", "8388608 bytes to pageable host memory staged")) << log.recorder.dump();
  }
  dc_device_release(device);
}

TEST(Log, CacheMissSaysWhy) {
  SKIP_WITHOUT_NVRTC();
  LogScope log(DC_LOG_DEBUG);
  // A source no earlier run compiled: a miss in both caches.
  std::string source = "extern \"C\" __global__ void k(int* p) { p[0] = " +
                       std::to_string(std::chrono::steady_clock::now().time_since_epoch().count() % 1000000007) +
                       "; }";
  dc_compile_options options = DC_COMPILE_OPTIONS_INIT;
  options.arch = 80;
  dc_program program = nullptr;
  ASSERT_DC_OK(dc_compile(source.c_str(), "log_miss.cu", &options, nullptr, &program));
  dc_program_release(program);
  LogLine line;
  ASSERT_TRUE(log.recorder.has("cache", "log_miss.cu: kernel cache miss", &line)) << log.recorder.dump();
  EXPECT_EQ(line.level, DC_LOG_DEBUG);
  // Again: a hit, so no second miss.
  ASSERT_DC_OK(dc_compile(source.c_str(), "log_miss.cu", &options, nullptr, &program));
  dc_program_release(program);
  int misses = 0;
  for (const LogLine& l : log.recorder.lines()) misses += l.message.find("kernel cache miss") != std::string::npos;
  EXPECT_EQ(misses, 1) << log.recorder.dump();
  options.flags = DC_COMPILE_NO_CACHE;
  ASSERT_DC_OK(dc_compile(source.c_str(), "log_nocache.cu", &options, nullptr, &program));
  dc_program_release(program);
  EXPECT_TRUE(log.recorder.has("cache", "log_nocache.cu: compiled without the kernel cache (DC_COMPILE_NO_CACHE)"))
      << log.recorder.dump();
}

// The callback tries dccuda calls: each is refused, and the call that was
// running keeps its own last error and result.
struct Reentry {
  std::atomic<int> calls{0};
  dc_status inner = DC_SUCCESS;
  std::string inner_message;
  dc_status set_inside = DC_SUCCESS;
};

void reentering_callback(void* user_data, int32_t, const char*, const char*) {
  auto* r = static_cast<Reentry*>(user_data);
  if (r->calls.fetch_add(1) != 0) return;
  int32_t count = 0;
  r->inner = dc_device_count(&count);
  r->inner_message = dc_last_error_message();
  r->set_inside = dc_set_log_callback(DC_LOG_TRACE, nullptr, nullptr);
}

TEST(Log, CallsFromInsideTheCallbackAreRefused) {
  REQUIRE_DEVICE();
  dc_device device = nullptr;
  ASSERT_DC_OK(dc_device_open(0, &device));
  use_the_pool(device);
  Reentry r;
  ASSERT_DC_OK(dc_set_log_callback(DC_LOG_TRACE, &reentering_callback, &r));
  dc_status outer = dc_device_trim_memory(device, 0);
  std::string outer_message = dc_last_error_message();
  dc_set_log_callback(DC_LOG_TRACE, nullptr, nullptr);
  if (r.calls.load() == 0) GTEST_SKIP() << "nothing was logged (the device has no pool)";
  EXPECT_EQ(outer, DC_SUCCESS);
  EXPECT_EQ(outer_message, "") << "the refused inner call's error leaked into the outer call";
  EXPECT_EQ(r.inner, DC_ERROR_INVALID_STATE);
  EXPECT_NE(r.inner_message.find("dc_device_count: called from inside a dccuda callback (the log callback"), std::string::npos)
      << r.inner_message;
  EXPECT_EQ(r.set_inside, DC_ERROR_INVALID_STATE);
  dc_device_release(device);
}

// dc_set_log_callback returns only when no thread runs the old callback.
struct Slow {
  std::atomic<bool> inside{false};
  std::atomic<bool> entered{false};
  std::atomic<int> after_replace{0};
  std::atomic<bool> replaced{false};
};

void slow_callback(void* user_data, int32_t, const char*, const char*) {
  auto* s = static_cast<Slow*>(user_data);
  if (s->replaced.load()) s->after_replace.fetch_add(1);
  s->inside = true;
  s->entered = true;
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  s->inside = false;
}

TEST(Log, ReplacingWaitsForTheRunningCallback) {
  REQUIRE_DEVICE();
  dc_device device = nullptr;
  ASSERT_DC_OK(dc_device_open(0, &device));
  use_the_pool(device);
  Slow s;
  ASSERT_DC_OK(dc_set_log_callback(DC_LOG_TRACE, &slow_callback, &s));
  std::thread worker([&] { dc_device_trim_memory(device, 0); });
  for (int i = 0; i < 2000 && !s.entered.load(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  if (!s.entered.load()) {
    dc_set_log_callback(DC_LOG_TRACE, nullptr, nullptr);
    worker.join();
    dc_device_release(device);
    GTEST_SKIP() << "nothing was logged (the device has no pool)";
  }
  ASSERT_DC_OK(dc_set_log_callback(DC_LOG_TRACE, nullptr, nullptr));
  s.replaced = true;
  EXPECT_FALSE(s.inside.load()) << "dc_set_log_callback returned while the old callback still ran";
  worker.join();
  ASSERT_DC_OK(dc_device_trim_memory(device, 0));
  EXPECT_EQ(s.after_replace.load(), 0);
  dc_device_release(device);
}

}  // namespace

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
