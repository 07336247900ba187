// dc_control's host side: the state a kernel reports, the stop request and a
// timed wait for it, the watchdog, reset for a restart, and bad input. A host
// thread (or the test) plays the kernel with dccuda_device.h's functions.
#include <string>

#include "queue_test.h"

namespace {

using queuetest::kTimeoutUs;
using queuetest::QueueTest;

using ControlTest = QueueTest;

dc_control_info info_of(dc_control c) {
  dc_control_info i = DC_CONTROL_INFO_INIT;
  EXPECT_EQ(dc_control_status(c, &i), DC_SUCCESS) << dc_last_error_message();
  return i;
}

TEST_F(ControlTest, AKernelsLifeAsTheHostSeesIt) {
  dc_control c = control();
  ASSERT_NE(c, nullptr);
  dc_control_block* k = block(c);
  EXPECT_EQ(k->magic, DC_CONTROL_BLOCK_MAGIC);
  dc_control_info i = info_of(c);
  EXPECT_EQ(i.state, DC_CONTROL_IDLE);
  EXPECT_EQ(i.stop_requested + i.heartbeat + i.errors + i.last_error, 0u);
  EXPECT_DC_ERROR(dc_control_check_progress(c, 1000), DC_ERROR_INVALID_STATE, "not running (DC_CONTROL_IDLE)");
  EXPECT_DC_ERROR(dc_control_wait_stopped(c, DC_WAIT_BLOCK, 1000), DC_ERROR_TIMEOUT,
                  "did not stop within 1000 us: it is DC_CONTROL_IDLE, stop NOT requested");

  // The kernel starts, beats, reports an error.
  dc_control_enter(k);
  dc_control_beat(k);
  dc_control_report_error(k, 42);
  i = info_of(c);
  EXPECT_EQ(i.state, DC_CONTROL_RUNNING);
  EXPECT_EQ(i.heartbeat, 1u);
  EXPECT_EQ(i.errors, 1u);
  EXPECT_EQ(i.last_error, 42u);
  EXPECT_EQ(dc_control_stop_requested(k), 0);
  EXPECT_DC_ERROR(dc_control_reset(c), DC_ERROR_INVALID_STATE, "still running");

  ASSERT_DC_OK(dc_control_request_stop(c));
  EXPECT_NE(dc_control_stop_requested(k), 0);
  EXPECT_DC_OK(dc_control_request_stop(c));  // asking twice is harmless while it runs
  EXPECT_DC_ERROR(dc_control_wait_stopped(c, DC_WAIT_SPIN, 2000), DC_ERROR_TIMEOUT, "DC_CONTROL_RUNNING, stop requested");
  dc_control_exit(k);
  EXPECT_DC_OK(dc_control_wait_stopped(c, DC_WAIT_SPIN, 0));
  EXPECT_EQ(info_of(c).state, DC_CONTROL_STOPPED);
  // Bad input: a stop asked of a kernel that already stopped.
  EXPECT_DC_ERROR(dc_control_request_stop(c), DC_ERROR_INVALID_STATE, "already stopped");
  EXPECT_DC_ERROR(dc_control_check_progress(c, 1000), DC_ERROR_INVALID_STATE, "DC_CONTROL_STOPPED");

  // Reset for a restart.
  ASSERT_DC_OK(dc_control_reset(c));
  i = info_of(c);
  EXPECT_EQ(i.state, DC_CONTROL_IDLE);
  EXPECT_EQ(i.stop_requested + i.heartbeat + i.errors + i.last_error, 0u);
  EXPECT_EQ(dc_control_stop_requested(k), 0);
  // A stop asked before the kernel starts: it sees it at its first poll.
  EXPECT_DC_OK(dc_control_request_stop(c));
  EXPECT_EQ(info_of(c).stop_requested, 1u);

  EXPECT_DC_ERROR(dc_control_wait_stopped(c, 7, 10), DC_ERROR_INVALID_ARGUMENT, "wait is 7");
  EXPECT_DC_ERROR(dc_control_check_progress(c, 0), DC_ERROR_INVALID_ARGUMENT, "stall_us is 0");
  i.struct_size = 8;
  EXPECT_DC_ERROR(dc_control_status(c, &i), DC_ERROR_INVALID_ARGUMENT, "DC_CONTROL_INFO_INIT");
  EXPECT_DC_ERROR(dc_control_status(c, nullptr), DC_ERROR_INVALID_ARGUMENT, "info is NULL");
  dc_control_release(c);
  EXPECT_DC_ERROR(dc_control_request_stop(c), DC_ERROR_INVALID_HANDLE, "control");
}

// The watchdog: a beating kernel passes, one that stops beating is reported
// once it has been silent for longer than the limit.
TEST_F(ControlTest, TheWatchdogReportsAKernelThatStoppedBeating) {
  dc_control c = control();
  dc_control_block* k = block(c);
  std::atomic<bool> beat{true}, quit{false};
  std::thread kernel([&] {
    dc_control_enter(k);
    while (!quit && !dc_control_stop_requested(k)) {
      if (beat) dc_control_beat(k);
      std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
    dc_control_exit(k);
  });
  // Beating: every check within 200 ms passes (polled well inside the limit).
  auto start = std::chrono::steady_clock::now();
  int passes = 0;
  while (std::chrono::steady_clock::now() - start < std::chrono::milliseconds(100)) {
    dc_status s = dc_control_check_progress(c, 200000);
    if (s == DC_SUCCESS) {
      ++passes;
    } else if (s != DC_ERROR_INVALID_STATE) {  // INVALID_STATE: not entered yet
      ADD_FAILURE() << dc_last_error_message();
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  EXPECT_GT(passes, 5);
  // Silent: reported once 50 ms pass without a new heartbeat.
  beat = false;
  std::this_thread::sleep_for(std::chrono::milliseconds(5));  // a beat in flight lands
  ASSERT_DC_OK(dc_control_check_progress(c, 1000000));
  uint64_t before = info_of(c).heartbeat;
  std::this_thread::sleep_for(std::chrono::milliseconds(80));
  EXPECT_DC_ERROR(dc_control_check_progress(c, 50000), DC_ERROR_TIMEOUT, "has not changed for");
  EXPECT_EQ(info_of(c).heartbeat, before);
  EXPECT_GE(info_of(c).idle_us, 50000u);
  beat = true;
  std::this_thread::sleep_for(std::chrono::milliseconds(5));
  EXPECT_DC_OK(dc_control_check_progress(c, 50000));
  ASSERT_DC_OK(dc_control_request_stop(c));
  dc_status stopped = dc_control_wait_stopped(c, DC_WAIT_BLOCK, kTimeoutUs);
  EXPECT_EQ(stopped, DC_SUCCESS) << dc_last_error_message();
  quit = true;
  kernel.join();
  dc_control_release(c);
}

}  // namespace
