// The flagged slots of every ring (include/dccuda_device.h, "queues:
// flagged slots"), compiled for the host and driven step by step on one
// thread: every length and alignment comes back whole, a message whose words
// have not all arrived stays queued, no word of a slot grows older than 128
// turns of the ring, a message too large for the caller's buffer stays
// queued, the consumer gives its slots back in groups, and the one-call
// functions (dc_ring_try_*) use the same slots. Two threads and two kernels
// over the same rings: test_queue's BetweenKernels test and test_resident's
// RelayTest.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "dccuda_device.h"
#include "flagged_ring.h"

namespace {

uint8_t pattern(uint64_t i, uint32_t j) { return uint8_t(i * 131 + j * 7 + 1); }

TEST(FlaggedRingTest, EveryLengthAndAlignmentComesBackWhole) {
  queuetest::FlaggedRing r(64, 4);
  dc_ring_cursor tx, rx;
  dc_ring_cursor_open(&tx, r.ring(), 1);
  dc_ring_cursor_open(&rx, r.ring(), 0);
  alignas(8) uint8_t in[80], out[80];
  for (uint64_t i = 0; i < 4 * 300; ++i) {  // past the 128th turn, where whole slots are written again
    uint32_t n = uint32_t(i % 65), from = uint32_t(i % 4), to = uint32_t(i % 3);
    for (uint32_t j = 0; j < n; ++j) in[from + j] = pattern(i, j);
    ASSERT_EQ(dc_ring_cursor_try_enqueue(&tx, in + from, n), DC_RING_DONE) << i;
    std::memset(out, 0xee, sizeof out);
    dc_dev_u32 size = 0;
    ASSERT_EQ(dc_ring_cursor_take(&rx, out + to, 64, &size), DC_RING_DONE) << i;
    ASSERT_EQ(size, n) << i;
    for (uint32_t j = 0; j < n; ++j) ASSERT_EQ(out[to + j], pattern(i, j)) << "message " << i << " byte " << j;
    ASSERT_EQ(out[to + n], 0xee) << "message " << i << ": a byte written past its end";
    ASSERT_EQ(dc_ring_cursor_take(&rx, out, 64, &size), DC_RING_NOT_READY) << "empty after " << i;
  }
  EXPECT_EQ(dc_dev_load_acquire_u64(&r.ring()->tail), 4u * 300) << "the tail counts the messages";
}

TEST(FlaggedRingTest, LongMessagesComeBackWholeAcrossReadBatches) {
  queuetest::FlaggedRing r(1024, 2);  // 257 words: the first four, then batches of 32
  dc_ring_cursor tx, rx;
  dc_ring_cursor_open(&tx, r.ring(), 1);
  dc_ring_cursor_open(&rx, r.ring(), 0);
  std::vector<uint8_t> in(1024), out(1024);
  for (uint32_t n : {13u, 16u, 140u, 141u, 143u, 144u, 256u, 1021u, 1024u}) {
    for (uint32_t j = 0; j < n; ++j) in[j] = pattern(n, j);
    ASSERT_EQ(dc_ring_cursor_try_enqueue(&tx, in.data(), n), DC_RING_DONE) << n;
    dc_dev_u32 size = 0;
    ASSERT_EQ(dc_ring_cursor_take(&rx, out.data(), 1024, &size), DC_RING_DONE) << n;
    ASSERT_EQ(size, n);
    ASSERT_EQ(std::memcmp(out.data(), in.data(), n), 0) << n;
  }
  // A stale word in the last batch keeps the message queued.
  ASSERT_EQ(dc_ring_cursor_try_enqueue(&tx, in.data(), 1024), DC_RING_DONE);
  uint64_t position = rx.own;
  uint64_t* w = r.word(position, 256);
  uint64_t kept = *w;
  *w = kept & 0xffffffffull;
  dc_dev_u32 size = 0;
  EXPECT_EQ(dc_ring_cursor_take(&rx, out.data(), 1024, &size), DC_RING_NOT_READY);
  *w = kept;
  EXPECT_EQ(dc_ring_cursor_take(&rx, out.data(), 1024, &size), DC_RING_DONE);
}

TEST(FlaggedRingTest, AMessageWhoseWordsHaveNotAllArrivedStaysQueued) {
  queuetest::FlaggedRing r(64, 4);
  dc_ring_cursor tx, rx;
  dc_ring_cursor_open(&tx, r.ring(), 1);
  dc_ring_cursor_open(&rx, r.ring(), 0);
  uint8_t in[40], out[64];
  for (uint32_t j = 0; j < 40; ++j) in[j] = pattern(0, j);
  ASSERT_EQ(dc_ring_cursor_try_enqueue(&tx, in, 40), DC_RING_DONE);
  // Words 1 to 10 hold the 40 bytes. Word 7 (read in the second group of
  // loads) and word 2 (in the first) in turn still show an older flag, as a
  // store still on its way would.
  for (uint32_t k : {7u, 2u, 0u}) {
    uint64_t* w = r.word(0, k);
    uint64_t kept = *w;
    *w = (kept & 0xffffffffull) | (uint64_t(0x5a5a5a5a) << 32);
    dc_dev_u32 size = 0;
    EXPECT_EQ(dc_ring_cursor_take(&rx, out, sizeof out, &size), DC_RING_NOT_READY) << "word " << k << " is stale";
    EXPECT_EQ(rx.own, 0u) << "nothing taken while word " << k << " is stale";
    *w = kept;
  }
  dc_dev_u32 size = 0;
  ASSERT_EQ(dc_ring_cursor_take(&rx, out, sizeof out, &size), DC_RING_DONE);
  EXPECT_EQ(size, 40u);
  EXPECT_EQ(std::memcmp(out, in, 40), 0);
}

// The flag is 32 bits: it comes back after 2^32 messages. A word of a slot
// that only short messages use would keep its flag for ever and could then
// pass for a new message's word; the producer rewrites every word of a slot
// once every 128 turns, so none is older than that.
TEST(FlaggedRingTest, NoWordOfASlotIsOlderThan128Turns) {
  const uint32_t capacity = 2, slot = 64;
  queuetest::FlaggedRing r(slot, capacity);
  dc_ring_cursor tx, rx;
  dc_ring_cursor_open(&tx, r.ring(), 1);
  dc_ring_cursor_open(&rx, r.ring(), 0);
  const uint32_t words = uint32_t(dc_ring_flagged_stride(slot) / 8);
  uint64_t message = 0, out = 0;
  uint64_t oldest = 0;
  for (uint64_t i = 0; i < capacity * 400; ++i) {
    message = i;
    ASSERT_EQ(dc_ring_cursor_try_enqueue(&tx, &message, 8), DC_RING_DONE);
    dc_dev_u32 size = 0;
    ASSERT_EQ(dc_ring_cursor_take(&rx, &out, 8, &size), DC_RING_DONE);
    for (uint64_t p = i + 1 >= capacity ? i + 1 - capacity : 0; p <= i; ++p)
      for (uint32_t k = 0; k < words; ++k) {
        uint32_t flag = uint32_t(*r.word(p, k) >> 32);
        uint64_t written = uint32_t(flag - 1);  // the position that last wrote it (i stays below 2^32)
        ASSERT_LE(written, i) << "slot of " << p << " word " << k;
        oldest = std::max(oldest, i - written);
      }
  }
  EXPECT_LE(oldest, 128u * capacity + capacity) << "a word outlived 128 turns";
  EXPECT_GE(oldest, 127u * capacity) << "the short messages left the other words alone in between";
}

TEST(FlaggedRingTest, AMessageTooLargeForTheBufferStaysQueued) {
  queuetest::FlaggedRing r(64, 4);
  dc_ring_cursor tx, rx;
  dc_ring_cursor_open(&tx, r.ring(), 1);
  dc_ring_cursor_open(&rx, r.ring(), 0);
  uint8_t in[80], out[64];
  for (uint32_t j = 0; j < 80; ++j) in[j] = pattern(3, j);
  EXPECT_EQ(dc_ring_cursor_try_enqueue(&tx, in, 65), DC_RING_TOO_LARGE) << "larger than a slot";
  ASSERT_EQ(dc_ring_cursor_try_enqueue(&tx, in, 40), DC_RING_DONE);
  dc_dev_u32 size = 0;
  EXPECT_EQ(dc_ring_cursor_take(&rx, out, 16, &size), DC_RING_TOO_LARGE);
  EXPECT_EQ(size, 40u);
  EXPECT_EQ(rx.own, 0u);
  ASSERT_EQ(dc_ring_cursor_take(&rx, out, 64, &size), DC_RING_DONE);
  EXPECT_EQ(std::memcmp(out, in, 40), 0);
  // A length past the slot (memory a kernel scribbled on) is refused, never read past.
  ASSERT_EQ(dc_ring_cursor_try_enqueue(&tx, in, 8), DC_RING_DONE);
  uint64_t* w0 = r.word(1, 0);
  *w0 = (*w0 & ~0xffffffffull) | 1000u;
  EXPECT_EQ(dc_ring_cursor_take(&rx, out, 4096, &size), DC_RING_TOO_LARGE);
  EXPECT_EQ(size, 1000u);
}

TEST(FlaggedRingTest, TheConsumerGivesSlotsBackInGroupsAndWhenIdle) {
  queuetest::FlaggedRing r(16, 8);
  dc_queue_ring* q = r.ring();
  dc_ring_cursor tx, rx;
  dc_ring_cursor_open(&tx, q, 1);
  dc_ring_cursor_open(&rx, q, 0);
  uint64_t m = 0;
  dc_dev_u32 size = 0;
  for (int i = 0; i < 3; ++i) ASSERT_EQ(dc_ring_cursor_try_enqueue(&tx, &m, 8), DC_RING_DONE);
  for (int i = 0; i < 3; ++i) ASSERT_EQ(dc_ring_cursor_take(&rx, &m, 8, &size), DC_RING_DONE);
  EXPECT_EQ(q->head, 0u) << "three of eight taken, the consumer busy: not given back yet";
  for (int i = 1; i < DC_RING_IDLE_PUBLISH_AFTER; ++i) {
    ASSERT_EQ(dc_ring_cursor_take(&rx, &m, 8, &size), DC_RING_NOT_READY);
    ASSERT_EQ(q->head, 0u) << i << " empty takes in a row: not idle yet";
  }
  EXPECT_EQ(dc_ring_cursor_take(&rx, &m, 8, &size), DC_RING_NOT_READY);
  EXPECT_EQ(q->head, 3u) << DC_RING_IDLE_PUBLISH_AFTER << " empty takes in a row give them back";
  for (int i = 0; i < 8; ++i) ASSERT_EQ(dc_ring_cursor_try_enqueue(&tx, &m, 8), DC_RING_DONE);
  EXPECT_EQ(dc_ring_cursor_try_enqueue(&tx, &m, 8), DC_RING_NOT_READY) << "full";
  for (int i = 0; i < 3; ++i) ASSERT_EQ(dc_ring_cursor_take(&rx, &m, 8, &size), DC_RING_DONE);
  EXPECT_EQ(q->head, 3u);
  ASSERT_EQ(dc_ring_cursor_take(&rx, &m, 8, &size), DC_RING_DONE);
  EXPECT_EQ(q->head, 7u) << "the fourth (capacity / 2) gives them back";
  EXPECT_EQ(dc_ring_cursor_try_enqueue(&tx, &m, 8), DC_RING_DONE) << "room again";
  ASSERT_EQ(dc_ring_cursor_take(&rx, &m, 8, &size), DC_RING_DONE);
  dc_ring_cursor_publish(&rx);
  EXPECT_EQ(q->head, 8u) << "publish gives them back at once";
}

TEST(FlaggedRingTest, TheOneCallFunctionsUseTheFlaggedSlotsToo) {
  queuetest::FlaggedRing r(16, 4);
  dc_queue_ring* q = r.ring();
  uint64_t m[2] = {7, 8}, out[2] = {};
  dc_dev_u32 size = 0;
  ASSERT_EQ(dc_ring_try_enqueue(q, m, 16), DC_RING_DONE);
  EXPECT_EQ(uint32_t(*r.word(0, 0) >> 32), 1u) << "word 0 carries message 0's flag";
  EXPECT_EQ(uint32_t(*r.word(0, 0)), 16u) << "and its length";
  ASSERT_EQ(dc_ring_try_dequeue(q, out, 16, &size), DC_RING_DONE);
  EXPECT_EQ(size, 16u);
  EXPECT_EQ(out[0], 7u);
  EXPECT_EQ(out[1], 8u);
  EXPECT_EQ(q->head, 1u) << "the one-call dequeue gives its slot back at once";
  EXPECT_EQ(dc_ring_try_dequeue(q, out, 16, &size), DC_RING_NOT_READY);
  for (int i = 0; i < 4; ++i) ASSERT_EQ(dc_ring_try_enqueue(q, m, 8), DC_RING_DONE);
  EXPECT_EQ(dc_ring_try_enqueue(q, m, 8), DC_RING_NOT_READY) << "full";
}

}  // namespace
