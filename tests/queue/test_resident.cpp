// A resident kernel, the echo actor (echo_kernel.cuh), served through two
// queues and a control block: sequence numbers checked on both sides, stop
// and restart many times, a stop on a kernel that already stopped. It is
// compiled with NVRTC and launched once per start with DC_LAUNCH_PERSISTENT
// on a non-blocking stream: a real kernel on a GPU, a thread of the fake
// driver running the same code on the fake; without NVRTC a host thread of
// the test runs it.
// Every wait has a time limit: a kernel that does not answer or does not stop
// fails the test instead of hanging it.
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "echo_kernel.cuh"
#include "queue_kernel_sources.h"
#include "queue_test.h"

namespace {

using queuetest::kTimeoutUs;
using queuetest::QueueTest;

// echo_kernel.cuh compiled with NVRTC (with dccuda_device.h as an in-memory
// header) and loaded: "" or what failed.
std::string compile_echo_kernels(dc_device device, dc_module* module) {
  const char* names[] = {"dccuda_device.h", "echo_kernel.cuh"};
  const char* sources[] = {kDeviceHeaderSource, kEchoKernelSource};
  dc_compile_options options = DC_COMPILE_OPTIONS_INIT;
  options.num_headers = 2;
  options.header_names = names;
  options.header_sources = sources;
  if (dc_module_compile_and_load(device, "#include \"echo_kernel.cuh\"\n", "echo.cu", &options, module))
    return dc_last_error_message();
  return "";
}

// The echo actor on a GPU (a compiled module, a launch on its own stream) or
// on the fake driver (a host thread).
class EchoActor {
 public:
  // `kernel`: "dc_echo" or "dc_echo_cursor" (echo_kernel.cuh).
  EchoActor(dc_device device, dc_queue in, dc_queue out, dc_control control, std::string kernel)
      : device_(device), in_(in), out_(out), control_(control), kernel_(std::move(kernel)) {}
  ~EchoActor() {
    if (stream_) dc_stream_release(stream_);
    if (function_) dc_function_release(function_);
    if (module_) dc_module_release(module_);
    for (dc_buffer b : buffers_) dc_buffer_release(b);
  }

  // "" or what failed.
  std::string start() {
    // Without NVRTC (only on the fake driver: the GPU tests skip) a host
    // thread runs the actor; otherwise the compiled kernel is launched with
    // DC_LAUNCH_PERSISTENT (the fake runs it on a thread of its own).
    if (!dctest::nvrtc_unavailable().empty()) {
      dc_queue_ring* in = QueueTest::ring(in_);
      dc_queue_ring* out = QueueTest::ring(out_);
      dc_control_block* c = QueueTest::block(control_);
      if (kernel_ == "dc_echo_cursor")
        thread_ = std::thread([in, out, c] { dc_echo_cursor_run(in, out, c); });
      else
        thread_ = std::thread([in, out, c] { dc_echo_run(in, out, c); });
      return "";
    }
    if (!function_) {
      if (std::string e = compile(); !e.empty()) return e;
    }
    if (!stream_ && dc_stream_create(device_, 0, 0, &stream_) != DC_SUCCESS) return dc_last_error_message();
    if (buffers_.empty()) {
      buffers_.resize(3);
      if (dc_queue_buffer(in_, &buffers_[0]) || dc_queue_buffer(out_, &buffers_[1]) ||
          dc_control_buffer(control_, &buffers_[2]))
        return dc_last_error_message();
    }
    dc_launch_config config = DC_LAUNCH_CONFIG_INIT;
    config.flags = DC_LAUNCH_PERSISTENT;
    dc_arg args[3] = {DC_ARG_BUFFER_OF(buffers_[0]), DC_ARG_BUFFER_OF(buffers_[1]), DC_ARG_BUFFER_OF(buffers_[2])};
    if (dc_launch_kernel(function_, &config, args, 3, stream_) != DC_SUCCESS) return dc_last_error_message();
    return "";
  }

  // Asks the actor to stop and waits (time-limited); "" or what failed. On
  // success the kernel has ended (its stream synchronised) or the thread joined.
  std::string stop() {
    if (dc_control_request_stop(control_) != DC_SUCCESS) return dc_last_error_message();
    return wait_stopped();
  }
  std::string wait_stopped() {
    if (dc_control_wait_stopped(control_, DC_WAIT_SPIN_YIELD, kTimeoutUs) != DC_SUCCESS) {
      std::string e = dc_last_error_message();
      // Never free what a kernel or thread that is still running uses.
      if (thread_.joinable()) thread_.detach();
      abandoned_ = true;
      return e;
    }
    if (thread_.joinable()) thread_.join();
    if (stream_ && dc_stream_synchronize(stream_) != DC_SUCCESS) return dc_last_error_message();
    return "";
  }
  bool abandoned() const { return abandoned_; }

 private:
  std::string compile() {
    if (std::string e = compile_echo_kernels(device_, &module_); !e.empty()) return e;
    if (dc_module_get_function(module_, kernel_.c_str(), &function_)) return dc_last_error_message();
    return "";
  }

  dc_device device_;
  dc_queue in_, out_;
  dc_control control_;
  std::string kernel_;
  dc_module module_ = nullptr;
  dc_function function_ = nullptr;
  dc_stream stream_ = nullptr;
  std::vector<dc_buffer> buffers_;
  std::thread thread_;
  bool abandoned_ = false;
};

class ResidentTest : public QueueTest {
 protected:
  void SetUp() override {
    QueueTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    if (dctest::real_driver()) SKIP_WITHOUT_NVRTC();
    in_ = queue(DC_QUEUE_TO_DEVICE, 256, 64);
    out_ = queue(DC_QUEUE_TO_HOST, 256, 64);
    control_ = control();
    ASSERT_TRUE(in_ && out_ && control_);
    actor_ = std::make_unique<EchoActor>(device_, in_, out_, control_, kernel());
  }
  void TearDown() override {
    if (actor_ && actor_->abandoned()) {
      // A kernel or thread that would not stop still uses the queues: leave
      // them alive (the test has failed already).
      actor_.release();
      leaked_on_purpose_ = true;
    } else {
      actor_.reset();
      dc_queue_release(in_);
      dc_queue_release(out_);
      dc_control_release(control_);
    }
    QueueTest::TearDown();
  }

  // Sends `count` messages numbered from `first`, of sizes 8..256, keeping up
  // to `window` in flight, and checks every answer (sequence number and
  // bytes). "" or the first thing that went wrong.
  std::string exchange(uint64_t first, uint64_t count, uint32_t window) {
    uint64_t sent = 0, received = 0;
    uint8_t m[256], a[256];
    while (received < count) {
      while (sent < count && sent - received < window) {
        uint64_t seq = first + sent;
        uint32_t n = 8 + uint32_t(seq % 249);
        std::memcpy(m, &seq, 8);
        for (uint32_t k = 8; k < n; ++k) m[k] = uint8_t(seq + k);
        if (dc_queue_enqueue(in_, m, n, DC_WAIT_SPIN_YIELD, kTimeoutUs) != DC_SUCCESS)
          return std::string("send ") + std::to_string(seq) + ": " + dc_last_error_message();
        ++sent;
      }
      uint32_t n = 0;
      if (dc_queue_dequeue(out_, a, sizeof a, &n, DC_WAIT_SPIN_YIELD, kTimeoutUs) != DC_SUCCESS)
        return std::string("answer ") + std::to_string(first + received) + ": " + dc_last_error_message();
      uint64_t seq = first + received, got = 0;
      std::memcpy(&got, a, 8);
      if (got != seq) return "answer " + std::to_string(seq) + " carries sequence number " + std::to_string(got);
      if (n != 8 + uint32_t(seq % 249)) return "answer " + std::to_string(seq) + " has " + std::to_string(n) + " bytes";
      for (uint32_t k = 8; k < n; ++k)
        if (a[k] != uint8_t(seq + k + 1)) return "answer " + std::to_string(seq) + ": byte " + std::to_string(k) + " wrong";
      ++received;
    }
    return "";
  }

  // Many messages through the actor, each checked on both sides (the tests
  // below).
  void echo_every_message() {
    const char* asked = std::getenv("DCTEST_QUEUE_MESSAGES");
    const uint64_t count = asked && std::strtoull(asked, nullptr, 10) > 0 ? std::strtoull(asked, nullptr, 10)
                           : dctest::real_driver()                        ? 200'000
                                                                          : 20'000;
    ASSERT_EQ(actor_->start(), "");
    std::string e = exchange(0, count, 32);
    EXPECT_EQ(e, "");
    // Strict ping-pong too: one message in flight.
    if (e.empty()) {
      EXPECT_EQ(exchange(count, 2000, 1), "");
    }
    ASSERT_DC_OK(dc_control_check_progress(control_, kTimeoutUs));
    EXPECT_EQ(actor_->stop(), "");
    dc_control_info i = info();
    EXPECT_EQ(i.state, DC_CONTROL_STOPPED);
    EXPECT_EQ(i.errors, 0u) << "the kernel saw sequence numbers out of order (last error " << i.last_error << ")";
    EXPECT_GE(i.heartbeat, count) << "a beat per message";
    dc_queue_stats s = DC_QUEUE_STATS_INIT;
    ASSERT_DC_OK(dc_queue_counters(in_, &s));
    EXPECT_EQ(s.dequeued, count + 2000) << "the kernel took every message";
    ASSERT_DC_OK(dc_queue_counters(out_, &s));
    EXPECT_EQ(s.enqueued, count + 2000);
    EXPECT_EQ(s.length, 0u);
    // Bad input: a stop asked of a kernel that already stopped.
    EXPECT_DC_ERROR(dc_control_request_stop(control_), DC_ERROR_INVALID_STATE, "already stopped");
  }

  virtual const char* kernel() const { return "dc_echo"; }

  dc_control_info info() {
    dc_control_info i = DC_CONTROL_INFO_INIT;
    EXPECT_EQ(dc_control_status(control_, &i), DC_SUCCESS) << dc_last_error_message();
    return i;
  }

  dc_queue in_ = nullptr, out_ = nullptr;
  dc_control control_ = nullptr;
  std::unique_ptr<EchoActor> actor_;
};

// Many messages, each checked on the device (its sequence number, counted as
// an error in the control block) and on the host (sequence number and every
// byte of the answer): 200,000 on a GPU, 20,000 on the fake, or
// DCTEST_QUEUE_MESSAGES (10^7 for the long GPU run; not under
// compute-sanitizer, which slows the polling kernel a hundredfold).
TEST_F(ResidentTest, EchoesEveryMessageInOrder) { echo_every_message(); }

// The same through the actor that uses cursors (dccuda_device.h's
// dc_ring_cursor_*): every message checked on both sides as above.
class ResidentCursorTest : public ResidentTest {
 protected:
  const char* kernel() const override { return "dc_echo_cursor"; }
};

TEST_F(ResidentCursorTest, EchoesEveryMessageInOrder) { echo_every_message(); }

TEST_F(ResidentCursorTest, StopsAndRestartsTenTimes) {
  for (int round = 0; round < 10; ++round) {
    ASSERT_DC_OK(dc_control_reset(control_));
    ASSERT_EQ(actor_->start(), "") << "round " << round;
    ASSERT_EQ(exchange(0, 100, 4), "") << "round " << round;
    ASSERT_EQ(actor_->stop(), "") << "round " << round;
    EXPECT_EQ(info().errors, 0u) << "round " << round;
  }
}

// Start, talk, stop: 100 times over the same queues and control block. The
// sequence numbers run on across restarts (the kernel checks from 0 each
// start, so each start's first message is numbered 0 there: the host sends
// one fresh run per start).
TEST_F(ResidentTest, StopsAndRestartsAHundredTimes) {
  for (int round = 0; round < 100; ++round) {
    ASSERT_DC_OK(dc_control_reset(control_));
    ASSERT_EQ(actor_->start(), "") << "round " << round;
    ASSERT_EQ(exchange(0, 50, 8), "") << "round " << round;
    ASSERT_EQ(actor_->stop(), "") << "round " << round;
    dc_control_info i = info();
    ASSERT_EQ(i.state, DC_CONTROL_STOPPED) << "round " << round;
    ASSERT_EQ(i.errors, 0u) << "round " << round;
  }
}

// A stop asked before the kernel began: it ends at its first poll.
TEST_F(ResidentTest, AStopRequestedBeforeTheStartEndsItAtOnce) {
  ASSERT_DC_OK(dc_control_request_stop(control_));
  ASSERT_EQ(actor_->start(), "");
  EXPECT_EQ(actor_->wait_stopped(), "");
  EXPECT_EQ(info().state, DC_CONTROL_STOPPED);
  dc_queue_stats s = DC_QUEUE_STATS_INIT;
  ASSERT_DC_OK(dc_queue_counters(in_, &s));
  EXPECT_EQ(s.dequeued, 0u);
}

// The kernel keeps the queues' memory alive: releasing every queue and
// control handle while it runs is allowed, and it still answers through the
// rings (the launch holds the buffers).
TEST_F(ResidentTest, QueueHandlesReleasedWhileTheKernelRunsLeaveItsMemoryAlive) {
  dc_buffer in_buffer = nullptr, out_buffer = nullptr, control_buffer = nullptr;
  ASSERT_DC_OK(dc_queue_buffer(in_, &in_buffer));
  ASSERT_DC_OK(dc_queue_buffer(out_, &out_buffer));
  ASSERT_DC_OK(dc_control_buffer(control_, &control_buffer));
  ASSERT_EQ(actor_->start(), "");
  ASSERT_EQ(exchange(0, 10, 4), "");
  // The rings, as the kernel sees them, through the buffers that outlive the handles.
  void* in_ring = nullptr;
  void* out_ring = nullptr;
  void* block_memory = nullptr;
  ASSERT_DC_OK(dc_buffer_host_pointer(in_buffer, &in_ring));
  ASSERT_DC_OK(dc_buffer_host_pointer(out_buffer, &out_ring));
  ASSERT_DC_OK(dc_buffer_host_pointer(control_buffer, &block_memory));
  auto* control_block = static_cast<dc_control_block*>(block_memory);
  // Keep a control handle for the actor's stop; release the queues.
  dc_queue_release(in_);
  dc_queue_release(out_);
  in_ = out_ = nullptr;
  // Talk through the rings directly (the host side of the protocol).
  uint64_t seq = 10, answer[32] = {};
  uint64_t message[32] = {seq};
  auto start = std::chrono::steady_clock::now();
  while (dc_ring_try_enqueue(static_cast<dc_queue_ring*>(in_ring), message, 16) != DC_RING_DONE)
    ASSERT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(20));
  uint32_t n = 0;
  while (dc_ring_try_dequeue(static_cast<dc_queue_ring*>(out_ring), answer, sizeof answer, &n) != DC_RING_DONE)
    ASSERT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(20));
  EXPECT_EQ(n, 16u);
  EXPECT_EQ(answer[0], seq);
  EXPECT_EQ(control_block->errors, 0u);
  EXPECT_EQ(actor_->stop(), "");
  dc_buffer_release(in_buffer);
  dc_buffer_release(out_buffer);
  dc_buffer_release(control_buffer);
}

// Two resident kernels talking through two DC_QUEUE_BETWEEN_KERNELS queues
// (flagged slots in device memory), echo_kernel.cuh's relay: every length
// from 0 to the slot size in turn, every byte checked on both sides, small
// rings (8 slots) so that they run full and wrap, the slots given back in
// groups. 200,000 messages each way on a GPU (DCTEST_QUEUE_MESSAGES to
// change), 20,000 on the fake driver, whose threads run the same code.
class RelayTest : public QueueTest {
 protected:
  void SetUp() override {
    QueueTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    if (dctest::real_driver()) SKIP_WITHOUT_NVRTC();
    if (!dctest::nvrtc_unavailable().empty()) GTEST_SKIP() << "the relay is launched as a compiled kernel";
  }
  void TearDown() override {
    if (!abandoned_) {
      for (dc_stream s : streams_) dc_stream_release(s);
      for (dc_buffer b : buffers_) dc_buffer_release(b);
      for (dc_control c : controls_) dc_control_release(c);
      for (dc_queue q : queues_) dc_queue_release(q);
      for (dc_function f : function_) dc_function_release(f);
      for (dc_module m : module_) dc_module_release(m);
      if (other_) dc_device_release(other_);
    } else {
      leaked_on_purpose_ = true;  // a kernel that would not end still uses them
    }
    QueueTest::TearDown();
  }

  dc_device other_ = nullptr;

  // Runs dc_relay_source on `devices[0]` and dc_relay_echo on `devices[1]`
  // over two rings of `direction` of 8 slots of 64 bytes, the ring each
  // kernel dequeues from on its own device, and checks both sides' counts.
  void relay(int32_t direction, const dc_device devices[2]) {
    const char* asked = std::getenv("DCTEST_QUEUE_MESSAGES");
    const uint64_t count = asked && std::strtoull(asked, nullptr, 10) > 0 ? std::strtoull(asked, nullptr, 10)
                           : dctest::real_driver()                        ? 200'000
                                                                          : 20'000;
    const uint32_t slot = 64;
    // queues_[0]: source -> echo, on the echo's device; queues_[1]: back.
    queues_.assign(2, nullptr);
    ASSERT_DC_OK(dc_queue_create(devices[1], direction, slot, 8, &queues_[0]));
    ASSERT_DC_OK(dc_queue_create(devices[0], direction, slot, 8, &queues_[1]));
    controls_.assign(2, nullptr);
    ASSERT_DC_OK(dc_control_create(devices[0], &controls_[0]));
    ASSERT_DC_OK(dc_control_create(devices[1], &controls_[1]));
    buffers_.resize(4);
    ASSERT_DC_OK(dc_queue_buffer(queues_[0], &buffers_[0]));
    ASSERT_DC_OK(dc_queue_buffer(queues_[1], &buffers_[1]));
    ASSERT_DC_OK(dc_control_buffer(controls_[0], &buffers_[2]));
    ASSERT_DC_OK(dc_control_buffer(controls_[1], &buffers_[3]));
    for (int k = 0; k < 2; ++k) {
      ASSERT_EQ(compile_echo_kernels(devices[k], &module_[k]), "");
      ASSERT_DC_OK(dc_module_get_function(module_[k], k == 0 ? "dc_relay_source" : "dc_relay_echo", &function_[k]));
    }
    streams_.resize(2);
    ASSERT_DC_OK(dc_stream_create(devices[0], 0, 0, &streams_[0]));
    ASSERT_DC_OK(dc_stream_create(devices[1], 0, 0, &streams_[1]));
    dc_launch_config config = DC_LAUNCH_CONFIG_INIT;
    config.flags = DC_LAUNCH_PERSISTENT;
    uint64_t n = count;
    uint32_t max = slot;
    // The echo first: the source's first messages wait in the ring until it runs.
    dc_arg echo_args[5] = {DC_ARG_BUFFER_OF(buffers_[0]), DC_ARG_BUFFER_OF(buffers_[1]),
                           DC_ARG_BUFFER_OF(buffers_[3]), DC_ARG_VALUE_OF(&n), DC_ARG_VALUE_OF(&max)};
    dc_arg source_args[5] = {DC_ARG_BUFFER_OF(buffers_[0]), DC_ARG_BUFFER_OF(buffers_[1]),
                             DC_ARG_BUFFER_OF(buffers_[2]), DC_ARG_VALUE_OF(&n), DC_ARG_VALUE_OF(&max)};
    ASSERT_DC_OK(dc_launch_kernel(function_[1], &config, echo_args, 5, streams_[1]));
    ASSERT_DC_OK(dc_launch_kernel(function_[0], &config, source_args, 5, streams_[0]));
    for (dc_control c : controls_) {
      if (dc_control_wait_stopped(c, DC_WAIT_SPIN_YIELD, 4 * kTimeoutUs) != DC_SUCCESS) {
        abandoned_ = true;
        FAIL() << "the relay did not end: " << dc_last_error_message();
      }
    }
    ASSERT_DC_OK(dc_stream_synchronize(streams_[0]));
    ASSERT_DC_OK(dc_stream_synchronize(streams_[1]));
    const char* side[] = {"source", "echo"};
    for (int k = 0; k < 2; ++k) {
      dc_control_info i = DC_CONTROL_INFO_INIT;
      ASSERT_DC_OK(dc_control_status(controls_[k], &i));
      EXPECT_EQ(i.state, DC_CONTROL_STOPPED) << side[k];
      EXPECT_EQ(i.errors, 0u) << side[k] << ": last error " << i.last_error << " (3: a wrong message, 4: stuck)";
      EXPECT_EQ(i.heartbeat, count) << side[k] << "'s count of messages";
    }
    dc_queue_stats s = DC_QUEUE_STATS_INIT;
    for (dc_queue q : queues_) {
      ASSERT_DC_OK(dc_queue_counters(q, &s));
      EXPECT_EQ(s.direction, direction);
      EXPECT_EQ(s.enqueued, count);
      EXPECT_EQ(s.dequeued, count) << "every slot given back at the end";
    }
  }

  dc_module module_[2] = {};
  dc_function function_[2] = {};
  std::vector<dc_queue> queues_;
  std::vector<dc_control> controls_;
  std::vector<dc_buffer> buffers_;
  std::vector<dc_stream> streams_;
  bool abandoned_ = false;
};

TEST_F(RelayTest, TwoKernelsPassEveryLengthBothWaysThroughFlaggedRings) {
  const dc_device devices[2] = {device_, device_};
  relay(DC_QUEUE_BETWEEN_KERNELS, devices);
}

// The rings for kernels on two devices, here both on one: system-scoped
// fences and stores (dccuda_device.h), the same messages.
TEST_F(RelayTest, RingsBetweenDevicesWorkOnOneDevice) {
  const dc_device devices[2] = {device_, device_};
  relay(DC_QUEUE_BETWEEN_DEVICES, devices);
}

// The relay across two devices: each kernel's ring on its own device, the
// other side writing into it through peer access. Needs two devices that can
// reach each other (on a one-GPU machine it skips; the fake driver's run is
// registered with two devices in tests/queue/tests.cmake).
TEST_F(RelayTest, KernelsOnTwoDevicesPassEveryLengthBothWays) {
  if (dctest::device_count() < 2) GTEST_SKIP() << "needs two devices";
  ASSERT_DC_OK(dc_device_open(1, &other_));
  int32_t can = 0;
  ASSERT_DC_OK(dc_device_can_access_peer(device_, other_, &can));
  if (!can) GTEST_SKIP() << "devices 0 and 1 cannot access each other's memory";
  ASSERT_DC_OK(dc_device_enable_peer_access(device_, other_));
  ASSERT_DC_OK(dc_device_enable_peer_access(other_, device_));
  const dc_device devices[2] = {device_, other_};
  relay(DC_QUEUE_BETWEEN_DEVICES, devices);
}

}  // namespace
