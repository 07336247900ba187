// Fault injection (fake driver only): out of memory from every allocator
// leaves the library usable and nothing leaked; a failed asynchronous
// operation is reported by the next synchronisation; a sticky fault needs
// dc_device_reset; and a sweep fails every driver call of a realistic
// sequence once, in turn, checking each outcome.
#include <functional>

#include "core/sticky_errors.h"
#include "memory_test.h"

#define DCTEST_CODE_AND(e) static_cast<int>(e),

namespace {

using memtest::MemoryTest;

constexpr int kOom = 2;           // CUDA_ERROR_OUT_OF_MEMORY
constexpr int kNotReady = 600;    // CUDA_ERROR_NOT_READY
constexpr int kUnknown = 999;     // CUDA_ERROR_UNKNOWN
constexpr int kIllegal = 700;     // CUDA_ERROR_ILLEGAL_ADDRESS (sticky)
constexpr int kNotSupported = 801;
constexpr uint64_t kMiB = 1ull << 20;

class FaultTest : public MemoryTest {
 protected:
  void SetUp() override {
    REQUIRE_FAKE_DRIVER();
    MemoryTest::SetUp();
    f = dctest::fake_driver();
  }
  const dctest::FakeDriver* f = nullptr;
};

TEST_F(FaultTest, OutOfMemoryFromEveryAllocator) {
  struct Case {
    const char* entry;
    std::function<dc_status(dc_buffer*)> alloc;
  };
  std::vector<uint8_t> host(4096);
  std::vector<Case> cases = {
      {"cuMemAllocFromPoolAsync", [&](dc_buffer* b) { return dc_buffer_alloc(device_, kMiB, 0, b); }},
      {"cuMemAlloc", [&](dc_buffer* b) { return dc_buffer_alloc(device_, kMiB, DC_ALLOC_NO_POOL, b); }},
      {"cuMemHostAlloc", [&](dc_buffer* b) { return dc_buffer_alloc_pinned(device_, kMiB, 0, b); }},
      {"cuMemAllocManaged", [&](dc_buffer* b) { return dc_buffer_alloc_managed(device_, kMiB, 0, b); }},
      {"cuMemHostRegister", [&](dc_buffer* b) { return dc_buffer_register_host(device_, host.data(), 4096, 0, b); }},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.entry);
    f->reset();
    f->inject(c.entry, 1, kOom, -1);  // every call: the retries fail too
    dc_buffer b = reinterpret_cast<dc_buffer>(1);
    EXPECT_EQ(c.alloc(&b), DC_ERROR_OUT_OF_MEMORY) << dc_last_error_message();
    EXPECT_EQ(b, nullptr);
    EXPECT_EQ(dc_last_error_cuda(), kOom);
    EXPECT_NE(std::string(dc_last_error_message()).find(c.entry), std::string::npos) << dc_last_error_message();
    f->reset();
    ASSERT_DC_OK(c.alloc(&b));
    dc_buffer_release(b);
    EXPECT_EQ(f->live("allocations") + f->live("host_allocations") + f->live("managed") + f->live("registrations"), 0);
  }
}

TEST_F(FaultTest, PoolOutOfMemoryWaitsForPendingFreesOnce) {
  f->inject("cuMemAllocFromPoolAsync", 1, kOom, 1);
  dc_buffer b = alloc(kMiB);
  ASSERT_NE(b, nullptr) << "a single failure is retried after the device's pending frees";
  EXPECT_EQ(f->call_count("cuMemAllocFromPoolAsync"), 2);
  EXPECT_EQ(f->call_count("cuCtxSynchronize"), 1);
  dc_buffer_release(b);
}

TEST_F(FaultTest, FirstUseFailuresLeaveNothingBehind) {
  for (const char* entry : {"cuDeviceTotalMem", "cuStreamCreateWithPriority", "cuMemPoolCreate", "cuMemPoolSetAttribute"}) {
    SCOPED_TRACE(entry);
    // A fresh device object: its memory state is made by the first allocation.
    dc_device_release(device_);
    ASSERT_DC_OK(dc_device_open(0, &device_));
    f->reset();
    f->inject(entry, 1, kOom, 1);
    dc_buffer b = nullptr;
    EXPECT_EQ(dc_buffer_alloc(device_, kMiB, 0, &b), DC_ERROR_OUT_OF_MEMORY) << dc_last_error_message();
    EXPECT_EQ(f->live("streams"), 0) << "the internal stream leaked";
    EXPECT_EQ(f->live("pools"), 0) << "the pool leaked";
    ASSERT_DC_OK(dc_buffer_alloc(device_, kMiB, 0, &b));
    dc_buffer_release(b);
  }
}

TEST_F(FaultTest, PoolsRefusedByTheDriverFallBackToCuMemAlloc) {
  f->inject("cuMemPoolCreate", 1, kNotSupported, 1);
  dc_buffer b = alloc(kMiB);
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(f->call_count("cuMemAlloc"), 1);
  EXPECT_EQ(f->call_count("cuMemAllocFromPoolAsync"), 0);
  EXPECT_DC_OK(dc_device_trim_memory(device_, 0));  // no pool: nothing to trim
  dc_buffer_release(b);
  EXPECT_EQ(f->call_count("cuMemFree"), 1);
}

TEST_F(FaultTest, FailedSynchronisationAfterAPoolAllocationFreesIt) {
  dc_buffer warm = alloc(64);
  f->reset();
  f->inject("cuStreamSynchronize", 1, kUnknown, 1);
  dc_buffer b = reinterpret_cast<dc_buffer>(1);
  EXPECT_DC_ERROR(dc_buffer_alloc(device_, kMiB, 0, &b), DC_ERROR_DRIVER, "cuStreamSynchronize");
  EXPECT_EQ(b, nullptr);
  EXPECT_EQ(f->live("allocations"), 1) << "only the first buffer is left";
  dc_buffer_release(warm);
}

TEST_F(FaultTest, WithoutStagingBuffersPageableCopiesStillWork) {
  f->inject("cuMemHostAlloc", 1, kOom, -1);
  const uint64_t n = 9 * kMiB + 1;
  dc_buffer b = alloc(n);
  std::vector<uint8_t> data = memtest::random_bytes(n, 5), back(n);
  ASSERT_DC_OK(dc_buffer_write(b, 0, data.data(), n));
  ASSERT_DC_OK(dc_buffer_read(b, 0, back.data(), n));
  EXPECT_EQ(memtest::first_difference(data.data(), back.data(), n), -1);
  EXPECT_EQ(f->call_count("cuMemcpyHtoD"), 1) << "the copy should have gone to the driver directly";
  EXPECT_EQ(f->live("host_allocations"), 0);
  dc_buffer_release(b);
}

// The small-copy path (a pinned buffer and a synchronous driver copy): a
// failed driver copy is the call's error (never a success over data that did
// not arrive), and the next copy works (the staging buffers are free again).
TEST_F(FaultTest, FailedSmallStagedCopyIsTheCallsErrorAndTheNextOneWorks) {
  const uint64_t n = 4096;
  dc_buffer b = alloc(n);
  std::vector<uint8_t> data = memtest::random_bytes(n, 9), back(n, 0);
  ASSERT_DC_OK(dc_buffer_write(b, 0, data.data(), n));  // makes the staging buffers
  f->reset();
  f->inject("cuMemcpyHtoD", 1, kUnknown, 1);
  EXPECT_DC_ERROR(dc_buffer_write(b, 0, data.data(), n), DC_ERROR_DRIVER, "cuMemcpyHtoD");
  f->inject("cuMemcpyDtoH", 1, kUnknown, 1);
  EXPECT_DC_ERROR(dc_buffer_read(b, 0, back.data(), n), DC_ERROR_DRIVER, "cuMemcpyDtoH");
  ASSERT_DC_OK(dc_buffer_write(b, 0, data.data(), n));
  ASSERT_DC_OK(dc_buffer_read(b, 0, back.data(), n));
  EXPECT_EQ(memtest::first_difference(data.data(), back.data(), n), -1);
  EXPECT_EQ(f->call_count("cuMemHostAlloc"), 0) << "the staging buffers were made again";
  dc_buffer_release(b);
}

// Without pinned staging buffers, small copies go to the driver as before.
TEST_F(FaultTest, WithoutStagingBuffersSmallCopiesStillWork) {
  f->inject("cuMemHostAlloc", 1, kOom, -1);
  const uint64_t n = 4096;
  dc_buffer b = alloc(n);
  std::vector<uint8_t> data = memtest::random_bytes(n, 6), back(n);
  ASSERT_DC_OK(dc_buffer_write(b, 0, data.data(), n));
  ASSERT_DC_OK(dc_buffer_read(b, 0, back.data(), n));
  EXPECT_EQ(memtest::first_difference(data.data(), back.data(), n), -1);
  EXPECT_GE(f->call_count("cuStreamSynchronize"), 1) << "a direct pageable write must wait for its stream";
  EXPECT_EQ(f->live("host_allocations"), 0);
  dc_buffer_release(b);
}

TEST_F(FaultTest, FailedAsyncCopyIsReportedByTheNextSynchronisation) {
  auto inject_async = memtest::inject_async();
  ASSERT_NE(inject_async, nullptr);
  dc_stream s = stream();
  dc_buffer b = alloc(4096);
  std::vector<uint8_t> data(4096, 1);
  inject_async("cuMemcpyHtoDAsync", 1, kUnknown);
  // Accepted: it fails on the device, later.
  ASSERT_DC_OK(dc_buffer_write_async(b, 0, data.data(), data.size(), s));
  EXPECT_DC_ERROR(dc_stream_synchronize(s), DC_ERROR_DRIVER, "cuStreamSynchronize failed with CUDA_ERROR_UNKNOWN");
  EXPECT_EQ(dc_last_error_cuda(), kUnknown);
  EXPECT_DC_OK(dc_stream_synchronize(s));  // reported once

  inject_async("cuMemsetD32Async", 1, kUnknown);
  ASSERT_DC_OK(dc_buffer_fill_async(b, 0, 4096, 7, 4, s));
  EXPECT_DC_ERROR(dc_stream_query(s), DC_ERROR_DRIVER, "cuStreamQuery");

  dc_event e = nullptr;
  ASSERT_DC_OK(dc_event_create(device_, 0, &e));
  dc_buffer c = alloc(4096);
  inject_async("cuMemcpyDtoDAsync", 1, kUnknown);
  ASSERT_DC_OK(dc_buffer_copy_async(c, 0, b, 0, 4096, s));
  ASSERT_DC_OK(dc_event_record(e, s));
  EXPECT_DC_ERROR(dc_event_synchronize(e), DC_ERROR_DRIVER, "cuEventSynchronize");
  dc_event_release(e);
  dc_buffer_release(c);

  // A synchronous staged write reports a chunk that failed on the device.
  const uint64_t n = 9 * kMiB;
  dc_buffer big = alloc(n);
  std::vector<uint8_t> bigdata(n, 3);
  inject_async("cuMemcpyHtoDAsync", 2, kUnknown);
  EXPECT_DC_ERROR(dc_buffer_write(big, 0, bigdata.data(), n), DC_ERROR_DRIVER, "cuStreamSynchronize");
  ASSERT_DC_OK(dc_buffer_write(big, 0, bigdata.data(), n));
  dc_buffer_release(big);
  dc_buffer_release(b);
  dc_stream_release(s);
}

// The fake's held streams (dcfake_hold_stream) model work waiting behind a busy GPU stream.
// dc_buffer_release frees in order on the buffer's last stream only; ordering other streams
// is the caller's part (the header says so). Unordered, the held fill meets freed memory and
// its stream reports it; ordered with an event, it runs first. (The Rust binding's drop does
// that ordering: bindings/rust/dccuda/tests/multi_stream.rs.)
TEST_F(FaultTest, HeldStreamWorkRunsInOrderAndMeetsMemoryFreedUnderIt) {
  auto hold = memtest::hold_stream();
  ASSERT_NE(hold, nullptr);
  dc_stream a = stream(), b = stream();
  void* native_a = nullptr;
  ASSERT_DC_OK(dc_stream_native(a, &native_a));

  // Held work waits, then runs in order.
  dc_buffer kept = alloc(4096);
  ASSERT_DC_OK(dc_buffer_fill(kept, 0, 4096, 1, 1));
  hold(native_a, 1);
  ASSERT_DC_OK(dc_buffer_fill_async(kept, 0, 4096, 2, 1, a));
  std::vector<uint8_t> seen(4096);
  ASSERT_DC_OK(dc_buffer_read(kept, 0, seen.data(), seen.size()));
  EXPECT_EQ(seen[0], 1) << "held work ran before its stream was released";
  hold(native_a, 0);
  ASSERT_DC_OK(dc_stream_synchronize(a));
  ASSERT_DC_OK(dc_buffer_read(kept, 0, seen.data(), seen.size()));
  EXPECT_EQ(seen[0], 2);
  dc_buffer_release(kept);

  // Unordered: last used on b, released, freed on b while a's fill still waits.
  dc_buffer x = alloc(4096);
  hold(native_a, 1);
  ASSERT_DC_OK(dc_buffer_fill_async(x, 0, 4096, 7, 1, a));
  ASSERT_DC_OK(dc_buffer_fill_async(x, 0, 16, 9, 1, b));
  dc_buffer_release(x);
  hold(native_a, 0);
  EXPECT_DC_ERROR(dc_stream_synchronize(a), DC_ERROR_INVALID_ARGUMENT, "CUDA_ERROR_INVALID_VALUE");

  // Ordered: b waits for a's event before the release; the fill runs before the free.
  dc_buffer y = alloc(4096);
  dc_event e = nullptr;
  ASSERT_DC_OK(dc_event_create(device_, DC_EVENT_DISABLE_TIMING, &e));
  hold(native_a, 1);
  ASSERT_DC_OK(dc_buffer_fill_async(y, 0, 4096, 7, 1, a));
  ASSERT_DC_OK(dc_event_record(e, a));
  ASSERT_DC_OK(dc_buffer_fill_async(y, 0, 16, 9, 1, b));
  ASSERT_DC_OK(dc_stream_wait_event(b, e));
  dc_buffer_release(y);
  hold(native_a, 0);
  EXPECT_DC_OK(dc_stream_synchronize(a));
  EXPECT_DC_OK(dc_stream_synchronize(b));
  dc_event_release(e);
  dc_stream_release(a);
  dc_stream_release(b);
}

TEST_F(FaultTest, StickyFaultOnTheDeviceNeedsAReset) {
  auto inject_async = memtest::inject_async();
  ASSERT_NE(inject_async, nullptr);
  dc_stream s = stream();
  dc_buffer b = alloc(4096);
  inject_async("cuMemsetD8Async", 1, kIllegal);
  ASSERT_DC_OK(dc_buffer_fill_async(b, 0, 4096, 1, 1, s));
  EXPECT_DC_ERROR(dc_stream_synchronize(s), DC_ERROR_CONTEXT_LOST, "dc_device_reset");
  dc_buffer other = reinterpret_cast<dc_buffer>(1);
  EXPECT_DC_ERROR(dc_buffer_alloc(device_, 64, 0, &other), DC_ERROR_CONTEXT_LOST, "dc_device_reset");
  EXPECT_EQ(other, nullptr);
  ASSERT_DC_OK(dc_device_reset(device_));
  EXPECT_DC_ERROR(dc_buffer_fill(b, 0, 64, 0, 1), DC_ERROR_CONTEXT_LOST, "before dc_device_reset");
  dc_buffer_release(b);
  dc_stream_release(s);
  dc_buffer fresh = alloc(4096);
  ASSERT_NE(fresh, nullptr);
  EXPECT_DC_OK(dc_buffer_fill(fresh, 0, 4096, 9, 1));
  dc_buffer_release(fresh);
}

// Every sticky error of the library's list (core/sticky_errors.h) breaks the fake driver's
// context as well: one list for both. (The fake kept two shorter copies of its own: after a
// failed stream operation with CUDA_ERROR_INVALID_ADDRESS_SPACE, CUDA_ERROR_INVALID_PC,
// CUDA_ERROR_LAUNCH_TIMEOUT, CUDA_ERROR_ECC_UNCORRECTABLE, CUDA_ERROR_CONTEXT_IS_DESTROYED or
// CUDA_ERROR_TENSOR_MEMORY_LEAK its context went on working while dccuda reported it lost.)
TEST_F(FaultTest, EveryStickyErrorBreaksTheFakesContextToo) {
  auto inject_async = memtest::inject_async();
  ASSERT_NE(inject_async, nullptr);
  using CtxSynchronize = CUresult (*)();
  auto ctx_synchronize = memtest::driver_symbol<CtxSynchronize>("cuCtxSynchronize");
  ASSERT_NE(ctx_synchronize, nullptr);
  int n = 0;
  for (int code : {DC_FOR_EACH_STICKY_CUDA_ERROR(DCTEST_CODE_AND)}) {
    SCOPED_TRACE(testing::Message() << "CUresult " << code);
    dc_stream s = stream();
    dc_buffer b = alloc(4096);
    inject_async("cuMemsetD8Async", 1, code);
    ASSERT_DC_OK(dc_buffer_fill_async(b, 0, 4096, 1, 1, s));
    EXPECT_DC_ERROR(dc_stream_synchronize(s), DC_ERROR_CONTEXT_LOST, "dc_device_reset");
    // dccuda left the device's primary context current on this thread: the driver's own view.
    EXPECT_EQ(static_cast<int>(ctx_synchronize()), code) << "the fake's context still works after a sticky error";
    dc_buffer_release(b);
    dc_stream_release(s);
    ASSERT_DC_OK(dc_device_reset(device_));
    ++n;
  }
  EXPECT_EQ(n, 11);
}

TEST_F(FaultTest, NotReadyIsAResultNotAnError) {
  dc_stream s = stream();
  dc_event e = nullptr, e2 = nullptr;
  ASSERT_DC_OK(dc_event_create(device_, 0, &e));
  ASSERT_DC_OK(dc_event_create(device_, 0, &e2));
  f->inject("cuStreamQuery", 1, kNotReady, 1);
  EXPECT_EQ(dc_stream_query(s), DC_NOT_READY);
  EXPECT_STREQ(dc_last_error_message(), "");
  ASSERT_DC_OK(dc_event_record(e, s));
  ASSERT_DC_OK(dc_event_record(e2, s));
  f->inject("cuEventQuery", 1, kNotReady, 1);
  EXPECT_EQ(dc_event_query(e), DC_NOT_READY);
  EXPECT_STREQ(dc_last_error_message(), "");
  f->inject("cuEventElapsedTime", 1, kNotReady, 1);
  float ms = 1;
  EXPECT_DC_ERROR(dc_event_elapsed_ms(e, e2, &ms), DC_ERROR_INVALID_STATE, "has not completed");
  EXPECT_EQ(ms, 0.0f);
  dc_event_release(e);
  dc_event_release(e2);
  dc_stream_release(s);
}

// One realistic sequence of calls; stops at the first failure and returns
// its status. Whatever it made is released by the caller's Handles.
struct Handles {
  dc_device device = nullptr;
  dc_stream stream = nullptr;
  dc_event start = nullptr, end = nullptr;
  std::vector<dc_buffer> buffers;
  ~Handles() {
    for (dc_buffer b : buffers) dc_buffer_release(b);
    dc_event_release(start);
    dc_event_release(end);
    dc_stream_release(stream);
    dc_device_release(device);
  }
};

void count_up(void* p) { ++*static_cast<int*>(p); }

dc_status scenario(Handles& h, int& callbacks) {
#define STEP(expr)                               \
  do {                                           \
    dc_status st_ = (expr);                      \
    if (st_ != DC_SUCCESS) return st_;           \
  } while (0)
  const uint64_t big = 9 * kMiB + 7;
  std::vector<uint8_t> data = memtest::random_bytes(big, 77), back(big);
  dc_buffer b = nullptr;
  STEP(dc_device_open(0, &h.device));
  STEP(dc_stream_create(h.device, 0, -1, &h.stream));
  STEP(dc_event_create(h.device, 0, &h.start));
  STEP(dc_event_create(h.device, DC_EVENT_BLOCKING_SYNC, &h.end));
  STEP(dc_buffer_alloc(h.device, big, 0, &b));
  h.buffers.push_back(b);
  dc_buffer device = b;
  STEP(dc_buffer_alloc_pinned(h.device, big, 0, &b));
  h.buffers.push_back(b);
  dc_buffer pinned = b;
  STEP(dc_buffer_alloc_managed(h.device, 65536, 0, &b));
  h.buffers.push_back(b);
  dc_buffer managed = b;
  STEP(dc_buffer_alloc_async(h.stream, 4096, 0, &b));
  h.buffers.push_back(b);
  dc_buffer small = b;
  STEP(dc_event_record(h.start, h.stream));
  STEP(dc_buffer_write(device, 0, data.data(), big));           // staged
  STEP(dc_buffer_copy(pinned, 0, device, 0, big));              // device -> pinned
  STEP(dc_buffer_read(pinned, 0, back.data(), big));
  if (back != data) return DC_ERROR_INTERNAL;
  STEP(dc_buffer_write_async(small, 0, data.data(), 4096, h.stream));
  STEP(dc_buffer_fill_async(managed, 0, 65536, 0xABCD, 2, h.stream));
  STEP(dc_buffer_prefetch(managed, 0, 65536, 0, h.stream));
  STEP(dc_buffer_advise(managed, 0, 65536, DC_ADVISE_SET_READ_MOSTLY, 0));
  STEP(dc_buffer_copy_async(device, 0, small, 0, 4096, h.stream));
  STEP(dc_stream_add_callback(h.stream, count_up, &callbacks));
  STEP(dc_event_record(h.end, h.stream));
  STEP(dc_stream_wait_event(h.stream, h.end));
  STEP(dc_event_synchronize(h.end));
  float ms = 0;
  STEP(dc_event_elapsed_ms(h.start, h.end, &ms));
  STEP(dc_buffer_read_async(device, 0, back.data(), big, h.stream));  // staged
  STEP(dc_stream_synchronize(h.stream));
  if (std::memcmp(back.data(), data.data(), big) != 0) return DC_ERROR_INTERNAL;
  uint16_t word = 0;
  STEP(dc_buffer_read(managed, 100, &word, 2));
  if (word != 0xABCD || callbacks != 1) return DC_ERROR_INTERNAL;
  STEP(dc_device_trim_memory(h.device, 0));
  return DC_SUCCESS;
#undef STEP
}

TEST_F(FaultTest, EveryDriverCallFailingOnceIsHandled) {
  // The sweep opens its own device for each run.
  dc_device_release(device_);
  device_ = nullptr;
  const char* entries[] = {
      "cuDeviceTotalMem",     "cuStreamCreateWithPriority", "cuCtxGetStreamPriorityRange", "cuMemPoolCreate",
      "cuMemPoolSetAttribute", "cuMemAllocFromPoolAsync",   "cuMemFreeAsync",              "cuMemHostAlloc",
      "cuMemFreeHost",        "cuMemHostGetDevicePointer",  "cuMemAllocManaged",           "cuMemFree",
      "cuEventCreate",        "cuEventRecord",              "cuEventSynchronize",          "cuEventElapsedTime",
      "cuEventDestroy",       "cuStreamSynchronize",        "cuStreamWaitEvent",           "cuStreamDestroy",
      "cuLaunchHostFunc",     "cuMemcpyHtoDAsync",          "cuMemcpyDtoHAsync",           "cuMemcpyDtoDAsync",
      "cuMemcpyDtoH",         "cuMemsetD16Async",           "cuMemPrefetchAsync",          "cuMemAdvise",
      "cuPointerGetAttributes","cuCtxSynchronize",          "cuMemPoolTrimTo",             "cuMemPoolDestroy",
  };
  // The calls each entry gets in a clean run.
  std::map<std::string, long> calls;
  {
    f->reset();
    int callbacks = 0;
    {
      Handles h;
      ASSERT_EQ(scenario(h, callbacks), DC_SUCCESS) << dc_last_error_message();
    }
    for (const char* e : entries) calls[e] = f->call_count(e);
  }
  int runs = 0, failures_seen = 0;
  for (const char* entry : entries) {
    EXPECT_GT(calls[entry], 0) << entry << " is never called by the scenario: drop it from the list";
    for (long nth = 1; nth <= calls[entry]; ++nth) {
      SCOPED_TRACE(testing::Message() << entry << " failing at call " << nth);
      f->reset();
      f->inject(entry, static_cast<int>(nth), kOom, 1);
      int callbacks = 0;
      dc_status status;
      {
        Handles h;
        status = scenario(h, callbacks);
        if (status != DC_SUCCESS) {
          ++failures_seen;
          EXPECT_LT(status, 0);
          EXPECT_NE(status, DC_ERROR_INTERNAL) << "wrong data after a recovered failure, or a library bug: "
                                               << dc_last_error_message();
          EXPECT_EQ(dc_last_error_status(), status);
          EXPECT_GT(std::strlen(dc_last_error_message()), 0u);
        }
      }
      ++runs;
      EXPECT_EQ(dctest::live_handles(), 0u);
      for (const char* kind : memtest::kLiveKinds) EXPECT_EQ(f->live(kind), 0) << "leaked " << kind;
      // The library is fully usable afterwards.
      f->reset();
      Handles again;
      int more = 0;
      EXPECT_EQ(scenario(again, more), DC_SUCCESS) << dc_last_error_message();
    }
  }
  std::printf("[ dccuda   ] %d runs with one failing driver call, %d reported a failure\n", runs, failures_seen);
  EXPECT_GT(failures_seen, runs / 2);
}

}  // namespace
