// Streams: creation (flags, priorities), default streams, wrapping, queries,
// event waits, host callbacks, and stream-ordered release of buffers.
#include "loader/cuda_abi/driver_abi.h"

#include <atomic>
#include <mutex>
#include <thread>

#include "memory_test.h"

namespace {

using memtest::MemoryTest;

// The driver's own signatures: calling through another function type is
// undefined behaviour (UBSan's -fsanitize=function reports it).
using GetFlags = CUresult(CUDAAPI*)(CUstream, unsigned int*);
using GetPriority = CUresult(CUDAAPI*)(CUstream, int*);
constexpr unsigned kCuStreamNonBlocking = 0x1;  // CU_STREAM_NON_BLOCKING

class StreamTest : public MemoryTest {};

TEST_F(StreamTest, NonBlockingByDefault) {
  auto get_flags = memtest::driver_symbol<GetFlags>("cuStreamGetFlags");
  ASSERT_NE(get_flags, nullptr);
  dc_stream a = stream();
  dc_stream b = stream(DC_STREAM_BLOCKING);
  void* ha = nullptr;
  void* hb = nullptr;
  ASSERT_DC_OK(dc_stream_native(a, &ha));
  ASSERT_DC_OK(dc_stream_native(b, &hb));
  EXPECT_NE(ha, hb);
  unsigned fa = 99, fb = 99;
  ASSERT_EQ(get_flags(static_cast<CUstream>(ha), &fa), 0);
  ASSERT_EQ(get_flags(static_cast<CUstream>(hb), &fb), 0);
  EXPECT_EQ(fa & kCuStreamNonBlocking, kCuStreamNonBlocking);
  EXPECT_EQ(fb & kCuStreamNonBlocking, 0u);
  dc_stream_release(a);
  dc_stream_release(b);
  dc_stream bad = reinterpret_cast<dc_stream>(1);
  EXPECT_DC_ERROR(dc_stream_create(device_, 0x2, 0, &bad), DC_ERROR_INVALID_ARGUMENT, "unknown bits 0x2");
  EXPECT_EQ(bad, nullptr);
  EXPECT_DC_ERROR(dc_stream_create(device_, 0, 0, nullptr), DC_ERROR_INVALID_ARGUMENT, "stream is NULL");
  EXPECT_DC_ERROR(dc_stream_create(nullptr, 0, 0, &bad), DC_ERROR_INVALID_HANDLE, "device is NULL");
}

TEST_F(StreamTest, PrioritiesAreClampedToTheDeviceRange) {
  int32_t least = 99, greatest = 99;
  ASSERT_DC_OK(dc_stream_priority_range(device_, &least, &greatest));
  EXPECT_LE(greatest, least);
  auto get_priority = memtest::driver_symbol<GetPriority>("cuStreamGetPriority");
  ASSERT_NE(get_priority, nullptr);
  struct Case {
    int32_t asked, expected;
  };
  for (Case c : {Case{0, 0 < greatest ? greatest : 0 > least ? least : 0}, Case{-1000, greatest}, Case{1000, least},
                 Case{greatest, greatest}, Case{least, least}}) {
    dc_stream s = nullptr;
    ASSERT_DC_OK(dc_stream_create(device_, 0, c.asked, &s));
    void* h = nullptr;
    ASSERT_DC_OK(dc_stream_native(s, &h));
    int p = 12345;
    ASSERT_EQ(get_priority(static_cast<CUstream>(h), &p), 0);
    EXPECT_EQ(p, c.expected) << "asked for " << c.asked;
    dc_stream_release(s);
  }
  EXPECT_DC_ERROR(dc_stream_priority_range(device_, nullptr, &greatest), DC_ERROR_INVALID_ARGUMENT, "least is NULL");
  EXPECT_DC_ERROR(dc_stream_priority_range(device_, &least, nullptr), DC_ERROR_INVALID_ARGUMENT, "greatest is NULL");
  EXPECT_EQ(least, 0);
}

TEST_F(StreamTest, DefaultStreams) {
  for (int32_t which : {DC_STREAM_LEGACY, DC_STREAM_PER_THREAD}) {
    dc_stream s = nullptr;
    ASSERT_DC_OK(dc_stream_get_default(device_, which, &s));
    void* h = nullptr;
    ASSERT_DC_OK(dc_stream_native(s, &h));
    EXPECT_EQ(reinterpret_cast<uintptr_t>(h), which == DC_STREAM_LEGACY ? 0x1u : 0x2u);
    // Usable like any stream.
    dc_buffer b = alloc(4096);
    std::vector<uint8_t> data = memtest::random_bytes(4096, 1), back(4096);
    ASSERT_DC_OK(dc_buffer_write_async(b, 0, data.data(), 4096, s));
    ASSERT_DC_OK(dc_buffer_read_async(b, 0, back.data(), 4096, s));
    ASSERT_DC_OK(dc_stream_synchronize(s));
    EXPECT_EQ(back, data);
    EXPECT_EQ(dc_stream_query(s), DC_SUCCESS);
    dc_buffer_release(b);
    dc_stream_release(s);
    // Released handles never destroy the default stream: a second one works.
    ASSERT_DC_OK(dc_stream_get_default(device_, which, &s));
    EXPECT_DC_OK(dc_stream_synchronize(s));
    dc_stream_release(s);
  }
  dc_stream s = reinterpret_cast<dc_stream>(1);
  EXPECT_DC_ERROR(dc_stream_get_default(device_, 3, &s), DC_ERROR_INVALID_ARGUMENT, "which is 3");
  EXPECT_EQ(s, nullptr);
  EXPECT_DC_ERROR(dc_stream_get_default(device_, DC_STREAM_LEGACY, nullptr), DC_ERROR_INVALID_ARGUMENT,
                  "stream is NULL");
}

TEST_F(StreamTest, WrappedStreamsAreNotOwned) {
  dc_stream owner = stream();
  void* h = nullptr;
  ASSERT_DC_OK(dc_stream_native(owner, &h));
  dc_stream w = nullptr;
  ASSERT_DC_OK(dc_stream_wrap(device_, h, &w));
  void* hw = nullptr;
  ASSERT_DC_OK(dc_stream_native(w, &hw));
  EXPECT_EQ(hw, h);
  EXPECT_DC_OK(dc_stream_synchronize(w));
  dc_stream_release(w);
  // Still alive: the wrapper did not destroy it.
  EXPECT_DC_OK(dc_stream_synchronize(owner));
  if (auto* f = dctest::fake_driver()) {
    EXPECT_EQ(f->call_count("cuStreamDestroy"), 0);
  }
  dc_stream_release(owner);
  // The default streams' values are recognised.
  ASSERT_DC_OK(dc_stream_wrap(device_, reinterpret_cast<void*>(uintptr_t(1)), &w));
  EXPECT_DC_OK(dc_stream_synchronize(w));
  dc_stream_release(w);
  w = reinterpret_cast<dc_stream>(1);
  EXPECT_DC_ERROR(dc_stream_wrap(device_, nullptr, &w), DC_ERROR_INVALID_ARGUMENT, "use dc_stream_get_default");
  EXPECT_EQ(w, nullptr);
}

TEST_F(StreamTest, QueriesAndHandles) {
  dc_stream s = stream();
  EXPECT_EQ(dc_stream_query(s), DC_SUCCESS);
  EXPECT_STREQ(dc_last_error_message(), "");
  dc_device d = nullptr;
  ASSERT_DC_OK(dc_stream_device(s, &d));
  dc_device_info info = DC_DEVICE_INFO_INIT;
  ASSERT_DC_OK(dc_device_get_info(d, &info));
  EXPECT_EQ(info.ordinal, 0);
  dc_device_release(d);
  EXPECT_DC_ERROR(dc_stream_device(s, nullptr), DC_ERROR_INVALID_ARGUMENT, "device is NULL");
  EXPECT_DC_ERROR(dc_stream_native(s, nullptr), DC_ERROR_INVALID_ARGUMENT, "cu_stream is NULL");
  dc_stream_release(s);
  EXPECT_DC_ERROR(dc_stream_synchronize(s), DC_ERROR_INVALID_HANDLE, "was released");
  EXPECT_DC_ERROR(dc_stream_query(s), DC_ERROR_INVALID_HANDLE, "was released");
  EXPECT_DC_ERROR(dc_stream_query(nullptr), DC_ERROR_INVALID_HANDLE, "stream is NULL");
  dc_stream_release(s);
  dc_stream_release(nullptr);
}

TEST_F(StreamTest, WaitOnEvent) {
  dc_stream a = stream();
  dc_stream b = stream();
  dc_event e = nullptr;
  ASSERT_DC_OK(dc_event_create(device_, DC_EVENT_DISABLE_TIMING, &e));
  dc_buffer buf = alloc(1 << 20);
  std::vector<uint8_t> data = memtest::random_bytes(1 << 20, 2), back(1 << 20);
  ASSERT_DC_OK(dc_buffer_write_async(buf, 0, data.data(), data.size(), a));
  ASSERT_DC_OK(dc_event_record(e, a));
  ASSERT_DC_OK(dc_stream_wait_event(b, e));
  ASSERT_DC_OK(dc_buffer_read_async(buf, 0, back.data(), back.size(), b));
  ASSERT_DC_OK(dc_stream_synchronize(b));
  EXPECT_EQ(back, data);
  EXPECT_DC_ERROR(dc_stream_wait_event(b, nullptr), DC_ERROR_INVALID_HANDLE, "event is NULL");
  EXPECT_DC_ERROR(dc_stream_wait_event(nullptr, e), DC_ERROR_INVALID_HANDLE, "stream is NULL");
  dc_buffer_release(buf);
  dc_event_release(e);
  dc_stream_release(a);
  dc_stream_release(b);
}

struct CallbackLog {
  std::mutex mutex;
  std::vector<int> order;
  dc_stream stream = nullptr;
  dc_status inner = DC_SUCCESS;
  std::string inner_message;
};

struct CallbackArg {
  CallbackLog* log;
  int id;
};

void record_callback(void* p) {
  auto* arg = static_cast<CallbackArg*>(p);
  std::lock_guard<std::mutex> lock(arg->log->mutex);
  arg->log->order.push_back(arg->id);
}

void forbidden_callback(void* p) {
  auto* log = static_cast<CallbackLog*>(p);
  log->inner = dc_stream_synchronize(log->stream);
  log->inner_message = dc_last_error_message();
}

TEST_F(StreamTest, HostCallbacksRunInOrder) {
  dc_stream s = stream();
  CallbackLog log;
  std::vector<CallbackArg> args;
  for (int i = 0; i < 16; ++i) args.push_back({&log, i});
  dc_buffer b = alloc(4096);
  std::vector<uint8_t> data(4096, 3);
  for (int i = 0; i < 16; ++i) {
    ASSERT_DC_OK(dc_buffer_write_async(b, 0, data.data(), data.size(), s));
    ASSERT_DC_OK(dc_stream_add_callback(s, record_callback, &args[static_cast<size_t>(i)]));
  }
  ASSERT_DC_OK(dc_stream_synchronize(s));
  std::vector<int> expected;
  for (int i = 0; i < 16; ++i) expected.push_back(i);
  EXPECT_EQ(log.order, expected);
  EXPECT_DC_ERROR(dc_stream_add_callback(s, nullptr, nullptr), DC_ERROR_INVALID_ARGUMENT, "fn is NULL");
  dc_buffer_release(b);
  dc_stream_release(s);
}

TEST_F(StreamTest, CallbacksMayNotCallIntoTheDriver) {
  dc_stream s = stream();
  CallbackLog log;
  log.stream = s;
  ASSERT_DC_OK(dc_stream_add_callback(s, forbidden_callback, &log));
  ASSERT_DC_OK(dc_stream_synchronize(s));
  EXPECT_EQ(log.inner, DC_ERROR_INVALID_STATE);
  EXPECT_NE(log.inner_message.find("host function"), std::string::npos) << log.inner_message;
  // The thread that ran the callback is usable again afterwards.
  EXPECT_DC_OK(dc_stream_synchronize(s));
  dc_stream_release(s);
}

TEST_F(StreamTest, ReleasedBufferIsFreedInStreamOrder) {
  auto* f = dctest::fake_driver();
  dc_stream s = stream();
  dc_buffer warm = alloc(64);  // the internal stream and the pool exist from here on
  long streams_before = f ? f->live("streams") : 0;
  dc_buffer b = alloc(1 << 20);
  std::vector<uint8_t> data(1 << 20, 9);
  ASSERT_DC_OK(dc_buffer_write_async(b, 0, data.data(), data.size(), s));
  // The stream's handle goes first: the buffer keeps the stream alive for its free.
  dc_stream_release(s);
  if (f) {
    EXPECT_EQ(f->live("streams"), streams_before) << "the stream died while a buffer still needs it";
  }
  if (f) f->reset();
  dc_buffer_release(b);
  if (f) {
    EXPECT_EQ(f->call_count("cuMemFreeAsync"), 1);
    EXPECT_EQ(f->call_count("cuStreamDestroy"), 1) << "the stream outlived the buffer's free";
    EXPECT_EQ(f->live("streams"), streams_before - 1);
  }
  dc_buffer_release(warm);
}

TEST_F(StreamTest, BufferUsedOnThePerThreadStreamIsReleasedFromAnotherThread) {
  dc_stream s = nullptr;
  ASSERT_DC_OK(dc_stream_get_default(device_, DC_STREAM_PER_THREAD, &s));
  dc_buffer b = alloc(1 << 20);
  std::vector<uint8_t> data(1 << 20, 4);
  ASSERT_DC_OK(dc_buffer_write_async(b, 0, data.data(), data.size(), s));
  std::thread([&] { dc_buffer_release(b); }).join();
  dc_stream_release(s);
}

TEST_F(StreamTest, StreamsUsedFromManyThreads) {
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      dc_stream s = nullptr;
      if (dc_stream_create(device_, 0, 0, &s) != DC_SUCCESS) {
        ++failures;
        return;
      }
      std::vector<uint8_t> data = memtest::random_bytes(100000, 7 + t), back(100000);
      for (int i = 0; i < 20; ++i) {
        dc_buffer b = nullptr;
        if (dc_buffer_alloc_async(s, data.size(), 0, &b) != DC_SUCCESS ||
            dc_buffer_write_async(b, 0, data.data(), data.size(), s) != DC_SUCCESS ||
            dc_buffer_read_async(b, 0, back.data(), back.size(), s) != DC_SUCCESS ||
            dc_stream_synchronize(s) != DC_SUCCESS || back != data)
          ++failures;
        dc_buffer_release(b);
      }
      dc_stream_release(s);
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(failures.load(), 0);
}

}  // namespace
