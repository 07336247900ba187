// The live-handle report (dc_handle_report, dc_handle_visit) and the report
// at exit of the handles never released (DCCUDA_LEAK_REPORT,
// DC_INIT_REPORT_LEAKS), the latter in child processes that leak a buffer on
// purpose. Its own main: a child must be able to call dc_init first.
#include <gtest/gtest.h>

#include <chrono>
#include <cinttypes>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#if !defined(_WIN32)
#include <sys/syscall.h>
#include <unistd.h>
#endif

#include "dccuda.h"
#include "support/child_process.h"
#include "support/fake.h"

namespace {

std::string report() {
  uint64_t length = 0;
  EXPECT_EQ(dc_handle_report(nullptr, 0, &length), DC_SUCCESS) << dc_last_error_message();
  std::string text(length + 64, '\0');
  EXPECT_EQ(dc_handle_report(text.data(), text.size(), &length), DC_SUCCESS) << dc_last_error_message();
  text.resize(length);
  return text;
}

std::string hex(const void* handle) {
  char s[32];
  std::snprintf(s, sizeof s, "0x%016" PRIx64, static_cast<uint64_t>(reinterpret_cast<uintptr_t>(handle)));
  return s;
}

std::vector<dc_handle_info> visit_all() {
  std::vector<dc_handle_info> out;
  EXPECT_EQ(dc_handle_visit(
                [](void* user_data, const dc_handle_info* info) {
                  static_cast<std::vector<dc_handle_info>*>(user_data)->push_back(*info);
                },
                &out),
            DC_SUCCESS)
      << dc_last_error_message();
  return out;
}

const dc_handle_info* find(const std::vector<dc_handle_info>& all, const void* handle) {
  for (const dc_handle_info& i : all)
    if (i.handle == static_cast<uint64_t>(reinterpret_cast<uintptr_t>(handle))) return &i;
  return nullptr;
}

unsigned long long this_thread_id() {
#if defined(_WIN32)
  return 0;
#else
  return static_cast<unsigned long long>(::syscall(SYS_gettid));
#endif
}

TEST(HandleReport, NamesABufferItsSizeKindCallAndThread) {
  REQUIRE_DEVICE();
  dc_device device = nullptr;
  ASSERT_DC_OK(dc_device_open(0, &device));
  dc_buffer buffer = nullptr;
  unsigned long long maker = 0;
  std::thread([&] {
    maker = this_thread_id();
    EXPECT_EQ(dc_buffer_alloc(device, 12345, 0, &buffer), DC_SUCCESS) << dc_last_error_message();
  }).join();
  ASSERT_NE(buffer, nullptr);
  std::this_thread::sleep_for(std::chrono::milliseconds(20));

  std::string text = report();
  EXPECT_NE(text.find("live handles: 1 dc_device, 1 dc_buffer\n"), std::string::npos) << text;
  size_t line_at = text.find("dc_buffer " + hex(buffer));
  ASSERT_NE(line_at, std::string::npos) << text;
  std::string line = text.substr(line_at, text.find('\n', line_at) - line_at);
  EXPECT_NE(line.find("made by dc_buffer_alloc on thread " + std::to_string(maker)), std::string::npos) << line;
  EXPECT_NE(line.find("device 0"), std::string::npos) << line;
  EXPECT_NE(line.find("12345 bytes of device memory"), std::string::npos) << line;
  EXPECT_NE(text.find("dc_device " + hex(device)), std::string::npos) << text;

  std::vector<dc_handle_info> all = visit_all();
  const dc_handle_info* b = find(all, buffer);
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(b->struct_size, sizeof(dc_handle_info));
  EXPECT_EQ(b->handle_type, DC_HANDLE_BUFFER);
  EXPECT_STREQ(b->created_by, "dc_buffer_alloc");
  EXPECT_EQ(b->thread_id, maker);
  EXPECT_GE(b->age_ns, 20000000u);
  EXPECT_EQ(b->device_ordinal, 0);
  EXPECT_EQ(b->buffer_kind, DC_BUFFER_DEVICE);
  EXPECT_EQ(b->buffer_size, 12345u);
  EXPECT_EQ(b->buffer_view, 0u);
  const dc_handle_info* d = find(all, device);
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->handle_type, DC_HANDLE_DEVICE);
  EXPECT_STREQ(d->created_by, "dc_device_open");
  EXPECT_EQ(d->thread_id, this_thread_id());
  EXPECT_EQ(d->buffer_size, 0u);

  dc_buffer_release(buffer);
  EXPECT_EQ(find(visit_all(), buffer), nullptr) << "a released handle is still reported";
  EXPECT_EQ(report().find("dc_buffer " + hex(buffer)), std::string::npos);
  dc_device_release(device);
  EXPECT_EQ(report(), "");
}

TEST(HandleReport, ViewsAndPinnedBuffersSayWhatTheyAre) {
  REQUIRE_DEVICE();
  dc_device device = nullptr;
  ASSERT_DC_OK(dc_device_open(0, &device));
  dc_buffer pinned = nullptr, view = nullptr;
  ASSERT_DC_OK(dc_buffer_alloc_pinned(device, 4096, 0, &pinned));
  ASSERT_DC_OK(dc_buffer_view(pinned, 1024, 512, &view));
  std::vector<dc_handle_info> all = visit_all();
  const dc_handle_info* v = find(all, view);
  ASSERT_NE(v, nullptr);
  EXPECT_EQ(v->buffer_view, 1u);
  EXPECT_EQ(v->buffer_size, 512u);
  EXPECT_EQ(v->buffer_kind, DC_BUFFER_PINNED);
  EXPECT_STREQ(v->created_by, "dc_buffer_view");
  EXPECT_NE(report().find("512 bytes of pinned host memory (a view)"), std::string::npos) << report();
  dc_buffer_release(view);
  dc_buffer_release(pinned);
  dc_device_release(device);
}

TEST(HandleReport, SizeQueryAndTooSmallABuffer) {
  REQUIRE_DEVICE();
  dc_device device = nullptr;
  ASSERT_DC_OK(dc_device_open(0, &device));
  uint64_t length = 0;
  ASSERT_DC_OK(dc_handle_report(nullptr, 0, &length));
  ASSERT_GT(length, 0u);
  std::string small(length, 'x');  // no room for the NUL
  length = 99;
  EXPECT_DC_ERROR(dc_handle_report(small.data(), small.size(), &length), DC_ERROR_OUT_OF_RANGE,
                  "pass a buffer of at least");
  EXPECT_EQ(length, 0u);
  EXPECT_EQ(small, std::string(small.size(), 'x')) << "written although too small";
  EXPECT_DC_ERROR(dc_handle_report(nullptr, 10, &length), DC_ERROR_INVALID_ARGUMENT, "text is NULL");
  EXPECT_DC_ERROR(dc_handle_visit(nullptr, nullptr), DC_ERROR_INVALID_ARGUMENT, "fn is NULL");
  dc_device_release(device);
}

// The callback may call dccuda, releasing the handle it is told about.
TEST(HandleReport, VisitorMayReleaseWhatItIsShown) {
  REQUIRE_DEVICE();
  dc_device device = nullptr;
  ASSERT_DC_OK(dc_device_open(0, &device));
  std::vector<dc_buffer> buffers(3);
  for (dc_buffer& b : buffers) ASSERT_DC_OK(dc_buffer_alloc(device, 256, 0, &b));
  int released = 0;
  ASSERT_DC_OK(dc_handle_visit(
      [](void* user_data, const dc_handle_info* info) {
        if (info->handle_type != DC_HANDLE_BUFFER) return;
        dc_buffer_release(reinterpret_cast<dc_buffer>(static_cast<uintptr_t>(info->handle)));
        ++*static_cast<int*>(user_data);
      },
      &released));
  EXPECT_EQ(released, 3);
  uint64_t count = 99;
  ASSERT_DC_OK(dc_handle_count(DC_HANDLE_BUFFER, &count));
  EXPECT_EQ(count, 0u);
  dc_device_release(device);
}

// Run in a child: leaks a buffer of 4242 bytes on purpose.
TEST(LeakChild, LeaksABuffer) {
  const char* how = std::getenv("DCTEST_LEAK_CHILD");
  if (!how) GTEST_SKIP() << "the child of LeakReport (run with DCTEST_LEAK_CHILD)";
  if (std::strcmp(how, "init") == 0) {
    dc_init_options options = DC_INIT_OPTIONS_INIT;
    options.flags = DC_INIT_REPORT_LEAKS;
    ASSERT_DC_OK(dc_init(&options));
  }
  dc_device device = nullptr;
  ASSERT_DC_OK(dc_device_open(0, &device));
  dc_buffer leaked = nullptr;
  ASSERT_DC_OK(dc_buffer_alloc(device, 4242, 0, &leaked));
  std::printf("leaked %s\n", hex(leaked).c_str());
  dc_device_release(device);  // the buffer keeps the device alive
}

// A child's output for a failure message, its "[  SKIPPED ]" lines defused:
// CTest would read them as this test skipping and hide the failure.
std::string shown(const dctest::ChildResult& r) {
  std::string out = r.how() + "\n" + r.output;
  for (size_t at = out.find("SKIPPED"); at != std::string::npos; at = out.find("SKIPPED", at)) out.replace(at, 7, "skipped");
  return out;
}

dctest::ChildResult run_leaking_child(const std::vector<std::string>& env) {
  dctest::ChildOptions options;
  options.set_env = env;
  options.timeout_seconds = 60;
  return dctest::run_program({dctest::self_executable(), "--gtest_filter=LeakChild.LeaksABuffer"}, options);
}

void expect_leak_reported(const dctest::ChildResult& r) {
  ASSERT_EQ(r.exit_code, 0) << shown(r);
  size_t at = r.output.find("leaked 0x");
  ASSERT_NE(at, std::string::npos) << shown(r);
  std::string handle = r.output.substr(at + 7, 18);
  EXPECT_NE(r.output.find("dccuda: leak report at exit"), std::string::npos) << shown(r);
  EXPECT_NE(r.output.find("1 handle was never released"), std::string::npos) << shown(r);
  size_t line_at = r.output.find("dc_buffer " + handle);
  ASSERT_NE(line_at, std::string::npos) << shown(r);
  std::string line = r.output.substr(line_at, r.output.find('\n', line_at) - line_at);
  EXPECT_NE(line.find("made by dc_buffer_alloc"), std::string::npos) << line;
  EXPECT_NE(line.find("4242 bytes of device memory"), std::string::npos) << line;
}

TEST(LeakReport, AtExitWithTheVariable) {
  REQUIRE_DEVICE();
  expect_leak_reported(run_leaking_child({"DCTEST_LEAK_CHILD=env", "DCCUDA_LEAK_REPORT=yes"}));
}

TEST(LeakReport, AtExitWithTheInitFlag) {
  REQUIRE_DEVICE();
  expect_leak_reported(run_leaking_child({"DCTEST_LEAK_CHILD=init"}));
}

TEST(LeakReport, NothingWithoutAskingOrWithNoLeak) {
  REQUIRE_DEVICE();
  dctest::ChildResult quiet = run_leaking_child({"DCTEST_LEAK_CHILD=env", "DCCUDA_LEAK_REPORT=no"});
  ASSERT_EQ(quiet.exit_code, 0) << shown(quiet);
  EXPECT_NE(quiet.output.find("leaked 0x"), std::string::npos) << shown(quiet);
  EXPECT_EQ(quiet.output.find("leak report"), std::string::npos) << shown(quiet);
  // Asked, but nothing leaked (this test's own filter matches no leaking test).
  dctest::ChildOptions options;
  options.set_env = {"DCCUDA_LEAK_REPORT=1"};
  dctest::ChildResult clean =
      dctest::run_program({dctest::self_executable(), "--gtest_filter=HandleReport.SizeQueryAndTooSmallABuffer"}, options);
  ASSERT_EQ(clean.exit_code, 0) << shown(clean);
  EXPECT_EQ(clean.output.find("leak report"), std::string::npos) << shown(clean);
}

TEST(LeakReport, AMalformedVariableIsRefused) {
  dctest::ChildOptions options;
  options.set_env = {"DCTEST_LEAK_CHILD=env", "DCCUDA_LEAK_REPORT=maybe"};
  dctest::ChildResult r =
      dctest::run_program({dctest::self_executable(), "--gtest_filter=LeakChild.LeaksABuffer"}, options);
  EXPECT_NE(r.exit_code, 0) << shown(r);
  EXPECT_NE(r.output.find("DCCUDA_LEAK_REPORT='maybe' is not a yes/no value"), std::string::npos) << shown(r);
}

}  // namespace

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
