// dc_queue's host side: shapes, bad input, the ring's order and contents,
// full and empty, time limits with every wait strategy, batches, counters,
// and many messages across threads. The kernel's side is played by the test
// itself or a host thread, with dccuda_device.h's functions compiled for the
// host (the code the GPU runs, test_resident runs it there).
#include <cstring>
#include <string>
#include <vector>

#include "queue_test.h"

namespace {

using queuetest::kTimeoutUs;
using queuetest::QueueTest;

uint64_t elapsed_us(std::chrono::steady_clock::time_point since) {
  return static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - since).count());
}

TEST_F(QueueTest, CreateChecksTheShape) {
  dc_queue q = reinterpret_cast<dc_queue>(1);
  EXPECT_DC_ERROR(dc_queue_create(device_, 0, 64, 16, &q), DC_ERROR_INVALID_ARGUMENT, "direction is 0");
  EXPECT_EQ(q, nullptr);
  EXPECT_DC_ERROR(dc_queue_create(device_, 5, 64, 16, &q), DC_ERROR_INVALID_ARGUMENT, "DC_QUEUE_BETWEEN_DEVICES (4)");
  EXPECT_DC_ERROR(dc_queue_create(device_, DC_QUEUE_TO_DEVICE, 48, 16, &q), DC_ERROR_INVALID_ARGUMENT,
                  "slot_size 48 is not a power of two");
  EXPECT_DC_ERROR(dc_queue_create(device_, DC_QUEUE_TO_DEVICE, 4, 16, &q), DC_ERROR_INVALID_ARGUMENT,
                  "slot_size 4");
  EXPECT_DC_ERROR(dc_queue_create(device_, DC_QUEUE_TO_DEVICE, 131072, 16, &q), DC_ERROR_INVALID_ARGUMENT,
                  "slot_size 131072");
  EXPECT_DC_ERROR(dc_queue_create(device_, DC_QUEUE_TO_DEVICE, 64, 1, &q), DC_ERROR_INVALID_ARGUMENT,
                  "capacity 1 is not");
  EXPECT_DC_ERROR(dc_queue_create(device_, DC_QUEUE_TO_DEVICE, 64, 24, &q), DC_ERROR_INVALID_ARGUMENT,
                  "capacity 24");
  EXPECT_DC_ERROR(dc_queue_create(device_, DC_QUEUE_TO_DEVICE, 64, 1u << 25, &q), DC_ERROR_INVALID_ARGUMENT,
                  "capacity 33554432");
  EXPECT_DC_ERROR(dc_queue_create(device_, DC_QUEUE_TO_DEVICE, 65536, 1u << 15, &q), DC_ERROR_INVALID_ARGUMENT,
                  "exceeds 1 GiB");
  EXPECT_DC_ERROR(dc_queue_create(device_, DC_QUEUE_TO_DEVICE, 64, 16, nullptr), DC_ERROR_INVALID_ARGUMENT,
                  "queue is NULL");
  EXPECT_DC_ERROR(dc_queue_create(nullptr, DC_QUEUE_TO_DEVICE, 64, 16, &q), DC_ERROR_INVALID_HANDLE, "device");

  q = queue(DC_QUEUE_TO_HOST, 64, 16);
  ASSERT_NE(q, nullptr);
  dc_queue_stats s = DC_QUEUE_STATS_INIT;
  ASSERT_DC_OK(dc_queue_counters(q, &s));
  EXPECT_EQ(s.direction, DC_QUEUE_TO_HOST);
  EXPECT_EQ(s.slot_size, 64u);
  EXPECT_EQ(s.capacity, 16u);
  EXPECT_EQ(s.length + s.enqueued + s.dequeued + s.full_waits + s.empty_waits + s.drops, 0u);
  // The ring's header, as the kernel reads it.
  dc_queue_ring* r = ring(q);
  EXPECT_EQ(r->magic, DC_QUEUE_RING_MAGIC);
  EXPECT_EQ(r->slot_size, 64u);
  EXPECT_EQ(r->capacity, 16u);
  EXPECT_EQ(r->direction, uint32_t(DC_QUEUE_TO_HOST));
  EXPECT_EQ(r->lengths_offset, 0u) << "unused: a slot's first word holds its length";
  EXPECT_EQ(r->slots_offset % 128, 0u);
  dc_buffer b = nullptr;
  ASSERT_DC_OK(dc_queue_buffer(q, &b));
  uint64_t size = 0, device_address = 0;
  ASSERT_DC_OK(dc_buffer_size(b, &size));
  EXPECT_EQ(size, r->slots_offset + 16 * dc_ring_flagged_stride(64)) << "16 flagged slots";
  // Mapped into the device: a kernel can be given it.
  ASSERT_DC_OK(dc_buffer_device_pointer(b, &device_address));
  EXPECT_NE(device_address, 0u);
  dc_queue_release(q);
  // The buffer handle keeps the ring alive after the queue's handle is gone.
  EXPECT_EQ(r->magic, DC_QUEUE_RING_MAGIC);
  dc_buffer_release(b);
  s.struct_size = 4;
  EXPECT_DC_ERROR(dc_queue_counters(q, &s), DC_ERROR_INVALID_HANDLE, "queue");
}

TEST_F(QueueTest, ToDeviceKeepsOrderAndContents) {
  dc_queue q = queue(DC_QUEUE_TO_DEVICE, 16, 4);
  dc_queue_ring* r = ring(q);
  // Three laps of the ring, with messages of every length 0..16.
  uint32_t sent = 0, received = 0;
  for (int lap = 0; lap < 3; ++lap) {
    for (int i = 0; i < 4; ++i, ++sent) {
      std::vector<uint8_t> m(sent % 17);
      for (size_t k = 0; k < m.size(); ++k) m[k] = uint8_t(sent * 7 + k);
      ASSERT_DC_OK(dc_queue_try_enqueue(q, m.data(), uint32_t(m.size())));
    }
    uint8_t extra[16] = {};
    EXPECT_EQ(dc_queue_try_enqueue(q, extra, 16), DC_NOT_READY) << "the ring holds 4";
    EXPECT_STREQ(dc_last_error_message(), "");
    for (int i = 0; i < 4; ++i, ++received) {
      uint8_t m[16];
      uint32_t n = 99;
      ASSERT_EQ(dc_ring_try_dequeue(r, m, sizeof m, &n), DC_RING_DONE);
      ASSERT_EQ(n, received % 17);
      for (uint32_t k = 0; k < n; ++k) ASSERT_EQ(m[k], uint8_t(received * 7 + k)) << "message " << received;
    }
    uint32_t n = 0;
    EXPECT_EQ(dc_ring_try_dequeue(r, extra, sizeof extra, &n), DC_RING_NOT_READY);
  }
  dc_queue_stats s = DC_QUEUE_STATS_INIT;
  ASSERT_DC_OK(dc_queue_counters(q, &s));
  EXPECT_EQ(s.enqueued, 12u);
  EXPECT_EQ(s.dequeued, 12u);
  EXPECT_EQ(s.length, 0u);
  EXPECT_EQ(s.drops, 3u);

  // Bad input: a message larger than a slot, the wrong side, NULL.
  uint8_t big[17] = {};
  EXPECT_DC_ERROR(dc_queue_try_enqueue(q, big, 17), DC_ERROR_OUT_OF_RANGE, "size 17 exceeds the queue's slot size 16");
  EXPECT_DC_ERROR(dc_queue_enqueue(q, big, 17, DC_WAIT_SPIN, 0), DC_ERROR_OUT_OF_RANGE, "slot size 16");
  EXPECT_DC_ERROR(dc_queue_try_enqueue(q, nullptr, 4), DC_ERROR_INVALID_ARGUMENT, "message is NULL");
  EXPECT_DC_OK(dc_queue_try_enqueue(q, nullptr, 0));  // an empty message needs no bytes
  uint32_t n = 7;
  EXPECT_DC_ERROR(dc_queue_try_dequeue(q, big, 16, &n), DC_ERROR_INVALID_ARGUMENT, "DC_QUEUE_TO_DEVICE");
  EXPECT_EQ(n, 0u);
  EXPECT_DC_ERROR(dc_queue_dequeue(q, big, 16, &n, DC_WAIT_SPIN, 0), DC_ERROR_INVALID_ARGUMENT, "DC_QUEUE_TO_DEVICE");
  EXPECT_DC_ERROR(dc_queue_dequeue_batch(q, big, 16, 16, &n), DC_ERROR_INVALID_ARGUMENT, "DC_QUEUE_TO_DEVICE");
  // The kernel's side refuses a message larger than its slot too.
  dc_queue_ring* rr = r;
  EXPECT_EQ(dc_ring_try_enqueue(rr, big, 17), DC_RING_TOO_LARGE);
  dc_queue_release(q);
}

TEST_F(QueueTest, ToHostKeepsOrderAndRefusesSmallBuffers) {
  dc_queue q = queue(DC_QUEUE_TO_HOST, 32, 8);
  dc_queue_ring* r = ring(q);
  uint8_t m[32];
  uint32_t n = 5;
  EXPECT_EQ(dc_queue_try_dequeue(q, m, sizeof m, &n), DC_NOT_READY);
  EXPECT_EQ(n, 0u);
  for (uint32_t i = 0; i < 8; ++i) {
    std::memset(m, int(i), sizeof m);
    ASSERT_EQ(dc_ring_try_enqueue(r, m, 4 * i), DC_RING_DONE);
  }
  EXPECT_EQ(dc_ring_try_enqueue(r, m, 1), DC_RING_NOT_READY) << "full";
  // The first message is empty; the second is 4 bytes and does not fit in 3.
  ASSERT_DC_OK(dc_queue_try_dequeue(q, m, sizeof m, &n));
  EXPECT_EQ(n, 0u);
  EXPECT_DC_ERROR(dc_queue_try_dequeue(q, m, 3, &n), DC_ERROR_OUT_OF_RANGE, "the next message is 4 bytes, more than max_size 3");
  EXPECT_EQ(n, 0u);
  for (uint32_t i = 1; i < 8; ++i) {
    ASSERT_EQ(dc_queue_try_dequeue(q, m, sizeof m, &n), DC_SUCCESS) << "message " << i << " stayed queued: " << dc_last_error_message();
    ASSERT_EQ(n, 4 * i);
    for (uint32_t k = 0; k < n; ++k) ASSERT_EQ(m[k], uint8_t(i));
  }
  EXPECT_DC_ERROR(dc_queue_try_enqueue(q, m, 4), DC_ERROR_INVALID_ARGUMENT, "DC_QUEUE_TO_HOST");
  EXPECT_DC_ERROR(dc_queue_enqueue(q, m, 4, DC_WAIT_SPIN, 0), DC_ERROR_INVALID_ARGUMENT, "DC_QUEUE_TO_HOST");
  uint32_t count = 9;
  EXPECT_DC_ERROR(dc_queue_enqueue_batch(q, m, 4, 4, &count), DC_ERROR_INVALID_ARGUMENT, "DC_QUEUE_TO_HOST");
  EXPECT_EQ(count, 0u);
  dc_queue_release(q);
}

// A kernel that wrote a length past the slot into the ring must not make the
// host copy past the slot.
TEST_F(QueueTest, ABrokenRingNeverMakesTheHostReadPastASlot) {
  dc_queue q = queue(DC_QUEUE_TO_HOST, 8, 2);
  dc_queue_ring* r = ring(q);
  uint8_t m[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  ASSERT_EQ(dc_ring_try_enqueue(r, m, 8), DC_RING_DONE);
  // Slot 0's first word: message 0's flag and a length of 2^30.
  auto* word0 = reinterpret_cast<uint64_t*>(reinterpret_cast<uint8_t*>(r) + r->slots_offset);
  *word0 = dc_ring_flag(0) | (1u << 30);
  std::vector<uint8_t> big(64);
  uint32_t n = 0;
  EXPECT_DC_ERROR(dc_queue_try_dequeue(q, big.data(), uint32_t(big.size()), &n), DC_ERROR_INTERNAL,
                  "claims 1073741824 bytes");
  // The batch refuses it too.
  EXPECT_DC_ERROR(dc_queue_dequeue_batch(q, big.data(), 8, 8, &n), DC_ERROR_INTERNAL, "claims 1073741824 bytes");
  EXPECT_EQ(n, 0u);
  // Mended, it comes through.
  *word0 = dc_ring_flag(0) | 8u;
  ASSERT_DC_OK(dc_queue_dequeue_batch(q, big.data(), 8, 8, &n));
  EXPECT_EQ(n, 1u);
  EXPECT_EQ(big[7], 8);
  dc_queue_release(q);
}

TEST_F(QueueTest, TimedWaitsEndAtTheirLimitWithEveryStrategy) {
  dc_queue to_device = queue(DC_QUEUE_TO_DEVICE, 8, 2);
  dc_queue to_host = queue(DC_QUEUE_TO_HOST, 8, 2);
  uint64_t m = 0;
  ASSERT_DC_OK(dc_queue_try_enqueue(to_device, &m, 8));
  ASSERT_DC_OK(dc_queue_try_enqueue(to_device, &m, 8));
  for (int32_t wait : {DC_WAIT_SPIN, DC_WAIT_SPIN_YIELD, DC_WAIT_BLOCK}) {
    auto start = std::chrono::steady_clock::now();
    EXPECT_DC_ERROR(dc_queue_enqueue(to_device, &m, 8, wait, 20000), DC_ERROR_TIMEOUT,
                    "the queue stayed full for 20000 us");
    uint64_t took = elapsed_us(start);
    EXPECT_GE(took, 20000u) << "wait " << wait;
    EXPECT_LT(took, 5'000'000u) << "wait " << wait << " overran its limit";
    uint32_t n = 3;
    start = std::chrono::steady_clock::now();
    EXPECT_DC_ERROR(dc_queue_dequeue(to_host, &m, 8, &n, wait, 20000), DC_ERROR_TIMEOUT,
                    "the queue stayed empty for 20000 us");
    EXPECT_EQ(n, 0u);
    took = elapsed_us(start);
    EXPECT_GE(took, 20000u) << "wait " << wait;
    EXPECT_LT(took, 5'000'000u) << "wait " << wait << " overran its limit";
  }
  // A limit of 0 still tries once.
  uint32_t n = 0;
  EXPECT_DC_ERROR(dc_queue_enqueue(to_device, &m, 8, DC_WAIT_SPIN, 0), DC_ERROR_TIMEOUT, "full");
  ASSERT_EQ(dc_ring_try_dequeue(ring(to_device), &m, 8, &n), DC_RING_DONE);
  EXPECT_DC_OK(dc_queue_enqueue(to_device, &m, 8, DC_WAIT_SPIN, 0));
  EXPECT_DC_ERROR(dc_queue_enqueue(to_device, &m, 8, 0, 10), DC_ERROR_INVALID_ARGUMENT, "wait is 0");
  EXPECT_DC_ERROR(dc_queue_dequeue(to_host, &m, 8, &n, 4, 10), DC_ERROR_INVALID_ARGUMENT, "DC_WAIT_BLOCK (3)");

  dc_queue_stats s = DC_QUEUE_STATS_INIT;
  ASSERT_DC_OK(dc_queue_counters(to_device, &s));
  EXPECT_EQ(s.full_waits, 4u);
  EXPECT_EQ(s.drops, 4u);
  EXPECT_EQ(s.enqueued, 3u);
  EXPECT_EQ(s.length, 2u);
  ASSERT_DC_OK(dc_queue_counters(to_host, &s));
  EXPECT_EQ(s.empty_waits, 3u);
  EXPECT_EQ(s.drops, 0u);
  dc_queue_release(to_device);
  dc_queue_release(to_host);
}

TEST_F(QueueTest, BatchesMoveWhatFits) {
  dc_queue to_device = queue(DC_QUEUE_TO_DEVICE, 16, 8);
  dc_queue_ring* r = ring(to_device);
  std::vector<uint64_t> batch(12);
  for (size_t i = 0; i < batch.size(); ++i) batch[i] = 1000 + i;
  uint32_t count = 0;
  ASSERT_DC_OK(dc_queue_enqueue_batch(to_device, batch.data(), 12 * 8, 8, &count));
  EXPECT_EQ(count, 8u) << "only 8 slots";
  EXPECT_EQ(dc_queue_enqueue_batch(to_device, batch.data(), 8, 8, &count), DC_NOT_READY);
  EXPECT_EQ(count, 0u);
  for (uint64_t i = 0; i < 8; ++i) {
    uint64_t v = 0;
    uint32_t n = 0;
    ASSERT_EQ(dc_ring_try_dequeue(r, &v, 8, &n), DC_RING_DONE);
    EXPECT_EQ(n, 8u);
    EXPECT_EQ(v, 1000 + i);
  }
  EXPECT_DC_ERROR(dc_queue_enqueue_batch(to_device, batch.data(), 12, 8, &count), DC_ERROR_INVALID_ARGUMENT,
                  "size 12 is not a multiple of message_size 8");
  EXPECT_DC_ERROR(dc_queue_enqueue_batch(to_device, batch.data(), 32, 32, &count), DC_ERROR_OUT_OF_RANGE,
                  "slot size 16");
  EXPECT_DC_ERROR(dc_queue_enqueue_batch(to_device, batch.data(), 8, 0, &count), DC_ERROR_INVALID_ARGUMENT,
                  "message_size is 0");

  dc_queue to_host = queue(DC_QUEUE_TO_HOST, 16, 8);
  dc_queue_ring* h = ring(to_host);
  for (uint64_t i = 0; i < 5; ++i) {
    uint64_t v[2] = {i, ~i};
    ASSERT_EQ(dc_ring_try_enqueue(h, v, i == 4 ? 8 : 16), DC_RING_DONE);
  }
  std::vector<uint64_t> out(2 * 3, 0x5555);
  ASSERT_DC_OK(dc_queue_dequeue_batch(to_host, out.data(), out.size() * 8, 16, &count));
  EXPECT_EQ(count, 3u) << "room for 3";
  for (uint64_t i = 0; i < 3; ++i) {
    EXPECT_EQ(out[2 * i], i);
    EXPECT_EQ(out[2 * i + 1], ~i);
  }
  out.assign(6, 0x5555);
  ASSERT_DC_OK(dc_queue_dequeue_batch(to_host, out.data(), out.size() * 8, 16, &count));
  EXPECT_EQ(count, 2u);
  EXPECT_EQ(out[0], 3u);
  EXPECT_EQ(out[2], 4u);
  EXPECT_EQ(out[3], 0x5555u) << "the bytes after a short message are left as they were";
  EXPECT_EQ(dc_queue_dequeue_batch(to_host, out.data(), out.size() * 8, 16, &count), DC_NOT_READY);
  EXPECT_DC_ERROR(dc_queue_dequeue_batch(to_host, out.data(), 48, 8, &count), DC_ERROR_INVALID_ARGUMENT,
                  "stride 8 is smaller than the queue's slot size 16");
  EXPECT_DC_ERROR(dc_queue_dequeue_batch(to_host, out.data(), 8, 16, &count), DC_ERROR_INVALID_ARGUMENT,
                  "no room for one message");
  dc_queue_release(to_device);
  dc_queue_release(to_host);
}

// Many messages through a small ring, across threads: the host producing
// with dc_queue_enqueue (several threads at once) and a thread playing the
// kernel's consumer; then the reverse. Every message carries its sender and
// sequence number, checked on arrival.
TEST_F(QueueTest, ManyMessagesAcrossThreadsArriveInOrder) {
  constexpr int kProducers = 3;
  constexpr uint64_t kEach = 5000;
  dc_queue to_device = queue(DC_QUEUE_TO_DEVICE, 16, 64);
  dc_queue_ring* r = ring(to_device);
  std::atomic<bool> failed{false};
  std::vector<std::thread> producers;
  for (int p = 0; p < kProducers; ++p)
    producers.emplace_back([&, p] {
      for (uint64_t i = 0; i < kEach && !failed; ++i) {
        uint64_t m[2] = {uint64_t(p), i};
        if (dc_queue_enqueue(to_device, m, 16, DC_WAIT_SPIN_YIELD, kTimeoutUs) != DC_SUCCESS) failed = true;
      }
    });
  std::vector<uint64_t> next(kProducers, 0);
  uint64_t got = 0, bad = 0;
  auto start = std::chrono::steady_clock::now();
  while (got < kProducers * kEach && !failed && elapsed_us(start) < kTimeoutUs) {
    uint64_t m[2];
    uint32_t n = 0;
    int res = dc_ring_try_dequeue(r, m, 16, &n);
    if (res == DC_RING_NOT_READY) {
      std::this_thread::yield();
      continue;
    }
    if (res != DC_RING_DONE || n != 16 || m[0] >= kProducers || m[1] != next[m[0]]) {
      ++bad;
    } else {
      ++next[m[0]];
    }
    ++got;
  }
  failed = failed || got < kProducers * kEach;
  for (auto& t : producers) t.join();
  EXPECT_FALSE(failed) << "timed out after " << got << " messages";
  EXPECT_EQ(bad, 0u);
  dc_queue_stats s = DC_QUEUE_STATS_INIT;
  ASSERT_DC_OK(dc_queue_counters(to_device, &s));
  EXPECT_EQ(s.enqueued, kProducers * kEach);
  EXPECT_EQ(s.dequeued, kProducers * kEach);
  EXPECT_EQ(s.drops, 0u);

  // The kernel's side produces, the host consumes with a timed dequeue.
  dc_queue to_host = queue(DC_QUEUE_TO_HOST, 64, 16);
  dc_queue_ring* h = ring(to_host);
  constexpr uint64_t kCount = 10000;
  std::thread kernel([&] {
    auto begin = std::chrono::steady_clock::now();
    for (uint64_t i = 0; i < kCount && elapsed_us(begin) < kTimeoutUs;) {
      uint64_t m[8];
      for (int k = 0; k < 8; ++k) m[k] = i * 8 + k;
      if (dc_ring_try_enqueue(h, m, uint32_t(8 * (1 + i % 8))) == DC_RING_DONE)
        ++i;
      else
        std::this_thread::yield();
    }
  });
  bad = 0;
  uint64_t i = 0;
  for (; i < kCount; ++i) {
    uint64_t m[8];
    uint32_t n = 0;
    if (dc_queue_dequeue(to_host, m, 64, &n, DC_WAIT_SPIN_YIELD, kTimeoutUs) != DC_SUCCESS) break;
    if (n != 8 * (1 + i % 8)) ++bad;
    for (uint32_t k = 0; k < n / 8; ++k)
      if (m[k] != i * 8 + k) ++bad;
  }
  kernel.join();
  EXPECT_EQ(i, kCount) << dc_last_error_message();
  EXPECT_EQ(bad, 0u);
  dc_queue_release(to_device);
  dc_queue_release(to_host);
}

// A queue between kernels: its ring in device memory, both sides kernels.
// The host's calls refuse it; its counters come from the device. On the fake
// driver device memory is host memory, so two host threads play the two
// kernels with dccuda_device.h's cursors (on a GPU, bench_queue's
// gpu_to_gpu set runs two resident kernels over such a queue).
// A ring between devices is a ring between kernels whose cursors fence and
// store at system scope (dccuda_device.h: a GPU-scoped fence orders nothing
// for another GPU); the host stays out of it as well.
TEST_F(QueueTest, BetweenDevicesTheRingIsInDeviceMemoryAndItsCursorsUseSystemScope) {
  dc_queue q = nullptr, local = nullptr;
  ASSERT_DC_OK(dc_queue_create(device_, DC_QUEUE_BETWEEN_DEVICES, 16, 8, &q));
  ASSERT_DC_OK(dc_queue_create(device_, DC_QUEUE_BETWEEN_KERNELS, 16, 8, &local));
  uint8_t m[16] = {};
  uint32_t n = 0;
  EXPECT_DC_ERROR(dc_queue_try_enqueue(q, m, 8), DC_ERROR_INVALID_ARGUMENT, "queue was made DC_QUEUE_BETWEEN_DEVICES");
  EXPECT_DC_ERROR(dc_queue_try_dequeue(q, m, 16, &n), DC_ERROR_INVALID_ARGUMENT, "both its sides are kernels");
  dc_queue_stats s = DC_QUEUE_STATS_INIT;
  ASSERT_DC_OK(dc_queue_counters(q, &s));
  EXPECT_EQ(s.direction, DC_QUEUE_BETWEEN_DEVICES);
  EXPECT_EQ(s.enqueued, 0u);
  dc_buffer b = nullptr, lb = nullptr;
  ASSERT_DC_OK(dc_queue_buffer(q, &b));
  ASSERT_DC_OK(dc_queue_buffer(local, &lb));
  void* host = reinterpret_cast<void*>(1);
  EXPECT_NE(dc_buffer_host_pointer(b, &host), DC_SUCCESS) << "device memory has no host view";
  if (dctest::fake_driver()) {
    uint64_t address = 0, local_address = 0;
    ASSERT_DC_OK(dc_buffer_device_pointer(b, &address));
    ASSERT_DC_OK(dc_buffer_device_pointer(lb, &local_address));
    auto* ring = reinterpret_cast<dc_queue_ring*>(static_cast<uintptr_t>(address));
    auto* local_ring = reinterpret_cast<dc_queue_ring*>(static_cast<uintptr_t>(local_address));
    EXPECT_EQ(ring->direction, uint32_t(DC_QUEUE_BETWEEN_DEVICES));
    dc_ring_cursor c, lc;
    dc_ring_cursor_open(&c, ring, 1);
    dc_ring_cursor_open(&lc, local_ring, 1);
    EXPECT_EQ(c.gpu_scope, 0) << "a ring between devices needs system-scoped fences and stores";
    EXPECT_EQ(lc.gpu_scope, 1) << "a ring between kernels of one device keeps the cheaper GPU scope";
  }
  dc_buffer_release(b);
  dc_buffer_release(lb);
  dc_queue_release(q);
  dc_queue_release(local);
}

TEST_F(QueueTest, BetweenKernelsTheRingIsInDeviceMemoryAndTheHostStaysOut) {
  dc_queue q = nullptr;
  ASSERT_DC_OK(dc_queue_create(device_, DC_QUEUE_BETWEEN_KERNELS, 16, 8, &q));
  uint8_t m[16] = {};
  uint32_t n = 0;
  EXPECT_DC_ERROR(dc_queue_try_enqueue(q, m, 8), DC_ERROR_INVALID_ARGUMENT, "DC_QUEUE_BETWEEN_KERNELS");
  EXPECT_DC_ERROR(dc_queue_enqueue(q, m, 8, DC_WAIT_SPIN, 10), DC_ERROR_INVALID_ARGUMENT, "device memory");
  uint32_t enqueued = 0;
  EXPECT_DC_ERROR(dc_queue_enqueue_batch(q, m, 16, 8, &enqueued), DC_ERROR_INVALID_ARGUMENT,
                  "both its sides are kernels");
  EXPECT_DC_ERROR(dc_queue_try_dequeue(q, m, 16, &n), DC_ERROR_INVALID_ARGUMENT, "DC_QUEUE_BETWEEN_KERNELS");
  EXPECT_DC_ERROR(dc_queue_dequeue(q, m, 16, &n, DC_WAIT_SPIN, 10), DC_ERROR_INVALID_ARGUMENT,
                  "DC_QUEUE_BETWEEN_KERNELS");
  dc_buffer b = nullptr;
  ASSERT_DC_OK(dc_queue_buffer(q, &b));
  void* host = reinterpret_cast<void*>(1);
  EXPECT_NE(dc_buffer_host_pointer(b, &host), DC_SUCCESS) << "device memory has no host view";
  dc_queue_stats s = DC_QUEUE_STATS_INIT;
  ASSERT_DC_OK(dc_queue_counters(q, &s));
  EXPECT_EQ(s.direction, DC_QUEUE_BETWEEN_KERNELS);
  EXPECT_EQ(s.slot_size, 16u);
  EXPECT_EQ(s.capacity, 8u);
  EXPECT_EQ(s.enqueued, 0u);
  if (dctest::fake_driver()) {
    uint64_t address = 0;
    ASSERT_DC_OK(dc_buffer_device_pointer(b, &address));
    auto* ring = reinterpret_cast<dc_queue_ring*>(static_cast<uintptr_t>(address));
    EXPECT_EQ(ring->magic, DC_QUEUE_RING_MAGIC) << "the header was written into device memory";
    EXPECT_EQ(ring->direction, uint32_t(DC_QUEUE_BETWEEN_KERNELS));
    constexpr uint64_t kMessages = 20000;
    std::atomic<uint64_t> wrong{0};
    std::thread producer([&] {
      dc_ring_cursor tx;
      dc_ring_cursor_open(&tx, ring, 1);
      for (uint64_t i = 0; i < kMessages; ++i) {
        uint64_t msg[2] = {i, ~i};
        while (dc_ring_cursor_try_enqueue(&tx, msg, i % 2 ? 16u : 8u) == DC_RING_NOT_READY) {
        }
      }
    });
    std::thread consumer([&] {
      dc_ring_cursor rx;
      dc_ring_cursor_open(&rx, ring, 0);
      for (uint64_t i = 0; i < kMessages; ++i) {
        uint64_t msg[2] = {};
        dc_dev_u32 size = 0;
        int r;
        while ((r = dc_ring_cursor_try_dequeue(&rx, msg, sizeof msg, &size)) == DC_RING_NOT_READY) {
        }
        if (r != DC_RING_DONE || msg[0] != i || size != (i % 2 ? 16u : 8u) || (size == 16 && msg[1] != ~i))
          wrong.fetch_add(1);
      }
    });
    producer.join();
    consumer.join();
    EXPECT_EQ(wrong.load(), 0u);
    ASSERT_DC_OK(dc_queue_counters(q, &s));
    EXPECT_EQ(s.enqueued, kMessages) << "the counters are read from the device";
    EXPECT_EQ(s.dequeued, kMessages);
    EXPECT_EQ(s.length, 0u);
  }
  dc_buffer_release(b);
  dc_queue_release(q);
}

}  // namespace
