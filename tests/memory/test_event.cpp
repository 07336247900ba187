// Events: creation flags, record, synchronize, query, timing.
#include "memory_test.h"

namespace {

using memtest::MemoryTest;

class EventTest : public MemoryTest {
 protected:
  dc_event event(uint32_t flags = 0) {
    dc_event e = nullptr;
    EXPECT_EQ(dc_event_create(device_, flags, &e), DC_SUCCESS) << dc_last_error_message();
    return e;
  }
};

TEST_F(EventTest, CreateWithEveryFlag) {
  for (uint32_t flags : {0u, uint32_t(DC_EVENT_DISABLE_TIMING), uint32_t(DC_EVENT_BLOCKING_SYNC),
                         uint32_t(DC_EVENT_DISABLE_TIMING | DC_EVENT_BLOCKING_SYNC),
                         uint32_t(DC_EVENT_DISABLE_TIMING | DC_EVENT_INTERPROCESS)}) {
    dc_event e = event(flags);
    ASSERT_NE(e, nullptr);
    void* native = nullptr;
    ASSERT_DC_OK(dc_event_native(e, &native));
    EXPECT_NE(native, nullptr);
    // Never recorded: synchronising returns at once.
    EXPECT_DC_OK(dc_event_synchronize(e));
    EXPECT_EQ(dc_event_query(e), DC_SUCCESS);
    dc_event_release(e);
  }
  dc_event e = reinterpret_cast<dc_event>(1);
  EXPECT_DC_ERROR(dc_event_create(device_, 0x8, &e), DC_ERROR_INVALID_ARGUMENT, "unknown bits 0x8");
  EXPECT_EQ(e, nullptr);
  EXPECT_DC_ERROR(dc_event_create(device_, 0, nullptr), DC_ERROR_INVALID_ARGUMENT, "event is NULL");
  EXPECT_DC_ERROR(dc_event_create(nullptr, 0, &e), DC_ERROR_INVALID_HANDLE, "device is NULL");
}

TEST_F(EventTest, RecordSynchronizeAndTime) {
  dc_stream s = stream();
  dc_event start = event(), end = event(DC_EVENT_BLOCKING_SYNC);
  dc_buffer b = alloc(64 << 20);
  ASSERT_DC_OK(dc_event_record(start, s));
  for (int i = 0; i < 4; ++i) ASSERT_DC_OK(dc_buffer_fill_async(b, 0, 64 << 20, 0x01020304u + i, 4, s));
  ASSERT_DC_OK(dc_event_record(end, s));
  ASSERT_DC_OK(dc_event_synchronize(end));
  EXPECT_EQ(dc_event_query(end), DC_SUCCESS);
  float ms = -1;
  ASSERT_DC_OK(dc_event_elapsed_ms(start, end, &ms));
  EXPECT_GE(ms, 0.0f);
  EXPECT_LT(ms, 10000.0f);
  // The work the events bracket has completed.
  uint32_t word = 0;
  ASSERT_DC_OK(dc_buffer_read(b, 1 << 20, &word, 4));
  EXPECT_EQ(word, 0x01020307u);
  // On the legacy default stream too.
  dc_stream legacy = nullptr;
  ASSERT_DC_OK(dc_stream_get_default(device_, DC_STREAM_LEGACY, &legacy));
  ASSERT_DC_OK(dc_event_record(start, legacy));
  ASSERT_DC_OK(dc_event_record(end, legacy));
  ASSERT_DC_OK(dc_event_synchronize(end));
  ASSERT_DC_OK(dc_event_elapsed_ms(start, end, &ms));
  dc_stream_release(legacy);
  dc_buffer_release(b);
  dc_event_release(start);
  dc_event_release(end);
  dc_stream_release(s);
}

TEST_F(EventTest, TimingMisuse) {
  dc_stream s = stream();
  dc_event a = event(), b = event(), untimed = event(DC_EVENT_DISABLE_TIMING);
  float ms = 5;
  EXPECT_DC_ERROR(dc_event_elapsed_ms(a, b, &ms), DC_ERROR_INVALID_STATE, "start was never recorded");
  EXPECT_EQ(ms, 0.0f);
  ASSERT_DC_OK(dc_event_record(a, s));
  EXPECT_DC_ERROR(dc_event_elapsed_ms(a, b, &ms), DC_ERROR_INVALID_STATE, "end was never recorded");
  ASSERT_DC_OK(dc_event_record(untimed, s));
  EXPECT_DC_ERROR(dc_event_elapsed_ms(a, untimed, &ms), DC_ERROR_INVALID_ARGUMENT, "DC_EVENT_DISABLE_TIMING");
  EXPECT_DC_ERROR(dc_event_elapsed_ms(a, a, nullptr), DC_ERROR_INVALID_ARGUMENT, "milliseconds is NULL");
  EXPECT_DC_ERROR(dc_event_elapsed_ms(nullptr, a, &ms), DC_ERROR_INVALID_HANDLE, "start is NULL");
  EXPECT_DC_ERROR(dc_event_elapsed_ms(a, nullptr, &ms), DC_ERROR_INVALID_HANDLE, "end is NULL");
  ASSERT_DC_OK(dc_event_synchronize(a));
  ASSERT_DC_OK(dc_event_elapsed_ms(a, a, &ms));
  EXPECT_EQ(ms, 0.0f);
  EXPECT_DC_ERROR(dc_event_record(a, nullptr), DC_ERROR_INVALID_HANDLE, "stream is NULL");
  EXPECT_DC_ERROR(dc_event_record(nullptr, s), DC_ERROR_INVALID_HANDLE, "event is NULL");
  EXPECT_DC_ERROR(dc_event_native(a, nullptr), DC_ERROR_INVALID_ARGUMENT, "cu_event is NULL");
  dc_event_release(a);
  EXPECT_DC_ERROR(dc_event_synchronize(a), DC_ERROR_INVALID_HANDLE, "was released");
  EXPECT_DC_ERROR(dc_event_query(a), DC_ERROR_INVALID_HANDLE, "was released");
  dc_event_release(a);
  dc_event_release(nullptr);
  dc_event_release(b);
  dc_event_release(untimed);
  dc_stream_release(s);
}

}  // namespace
