// dccuda_device.h with DC_RING_IDLE_PUBLISH_AFTER 0: a take that finds the ring
// empty gives nothing back, slots go back every capacity / 2 messages only,
// and a producer that fills the ring still never waits for ever (the consumer
// always has enough messages left to reach the next group). Its own
// translation unit: the macro is read when the header is included.
#define DC_RING_IDLE_PUBLISH_AFTER 0
#include <gtest/gtest.h>

#include <cstdint>

#include "dccuda_device.h"
#include "flagged_ring.h"

namespace {

TEST(FlaggedRingLazyTest, SlotsGoBackOnlyInGroupsAndAFullRingAlwaysDrains) {
  queuetest::FlaggedRing r(16, 8, 1);
  dc_queue_ring* q = r.ring();
  dc_ring_cursor tx, rx;
  dc_ring_cursor_open(&tx, q, 1);
  dc_ring_cursor_open(&rx, q, 0);
  uint64_t m = 0;
  dc_dev_u32 size = 0;
  for (int i = 0; i < 3; ++i) ASSERT_EQ(dc_ring_cursor_try_enqueue(&tx, &m, 8), DC_RING_DONE);
  for (int i = 0; i < 3; ++i) ASSERT_EQ(dc_ring_cursor_take(&rx, &m, 8, &size), DC_RING_DONE);
  for (int i = 0; i < 1000; ++i) ASSERT_EQ(dc_ring_cursor_take(&rx, &m, 8, &size), DC_RING_NOT_READY);
  EXPECT_EQ(q->head, 0u) << "empty takes give nothing back";
  // The producer runs ahead until full, the consumer takes one at a time:
  // whenever the producer finds the ring full, the consumer can still take.
  uint64_t sent = 3, taken = 3;
  for (int turn = 0; turn < 1000; ++turn) {
    while (dc_ring_cursor_try_enqueue(&tx, &sent, 8) == DC_RING_DONE) ++sent;
    ASSERT_EQ(dc_ring_cursor_take(&rx, &m, 8, &size), DC_RING_DONE) << "full, and the consumer has nothing: stuck";
    ASSERT_EQ(m, taken) << "in order";
    ++taken;
  }
  EXPECT_GT(sent, 1000u);
}

}  // namespace
