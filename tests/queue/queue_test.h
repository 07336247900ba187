// Shared pieces of the queue and resident-kernel tests. They run against the
// fake driver in CI, where a host thread plays the kernel's side with
// dccuda_device.h compiled for the host, and against a real driver on a GPU
// machine, where a real resident kernel does (test_resident). Every wait has a
// time limit: a test fails, it never hangs.
#pragma once

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <thread>

#include "dccuda.h"
#include "dccuda_device.h"
#include "support/fake.h"

namespace queuetest {

// The time limit of every wait in these tests (generous: a loaded CI machine).
constexpr uint64_t kTimeoutUs = 20'000'000;

class QueueTest : public testing::Test {
 public:
  // The host address of a queue's ring or a control block (where a host
  // thread plays the kernel: on the fake driver device addresses are host
  // addresses too).
  static dc_queue_ring* ring(dc_queue q);
  static dc_control_block* block(dc_control c);

 protected:
  void SetUp() override {
    REQUIRE_DEVICE();
    if (auto* f = dctest::fake_driver()) f->reset();
    ASSERT_EQ(dctest::live_handles(), 0u) << "an earlier test leaked handles";
    ASSERT_EQ(dc_device_open(0, &device_), DC_SUCCESS) << dc_last_error_message();
  }
  void TearDown() override {
    if (device_) dc_device_release(device_);
    device_ = nullptr;
    if (leaked_on_purpose_) return;
    EXPECT_EQ(dctest::live_handles(), 0u) << "the test leaked handles";
    if (auto* f = dctest::fake_driver()) {
      EXPECT_EQ(f->live("host_allocations"), 0) << "leaked pinned memory";
      EXPECT_EQ(f->live("streams"), 0) << "leaked streams";
    }
  }

  dc_queue queue(int32_t direction, uint32_t slot_size, uint32_t capacity) {
    dc_queue q = nullptr;
    EXPECT_EQ(dc_queue_create(device_, direction, slot_size, capacity, &q), DC_SUCCESS) << dc_last_error_message();
    return q;
  }
  dc_control control() {
    dc_control c = nullptr;
    EXPECT_EQ(dc_control_create(device_, &c), DC_SUCCESS) << dc_last_error_message();
    return c;
  }

  dc_device device_ = nullptr;
  // Set when a thread playing the kernel could not be stopped: its objects
  // are left alive (never freed under it) and the leak checks are skipped.
  bool leaked_on_purpose_ = false;
};

inline dc_queue_ring* QueueTest::ring(dc_queue q) {
  dc_buffer b = nullptr;
  EXPECT_EQ(dc_queue_buffer(q, &b), DC_SUCCESS) << dc_last_error_message();
  void* p = nullptr;
  EXPECT_EQ(dc_buffer_host_pointer(b, &p), DC_SUCCESS) << dc_last_error_message();
  dc_buffer_release(b);  // the queue keeps the memory
  return static_cast<dc_queue_ring*>(p);
}
inline dc_control_block* QueueTest::block(dc_control c) {
  dc_buffer b = nullptr;
  EXPECT_EQ(dc_control_buffer(c, &b), DC_SUCCESS) << dc_last_error_message();
  void* p = nullptr;
  EXPECT_EQ(dc_buffer_host_pointer(b, &p), DC_SUCCESS) << dc_last_error_message();
  dc_buffer_release(b);
  return static_cast<dc_control_block*>(p);
}

}  // namespace queuetest
