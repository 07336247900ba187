// dc_buffer_copy_batch_async: N copies in one call. Every copy is checked as
// its single call checks it, and against the others, before anything is
// enqueued (a bad one at index k refuses the batch and names k); the data
// arrives for every kind (buffer to buffer, pinned, pageable host both ways).
// The same binary runs three times on the fake: with CUDA 13.0's
// cuMemcpyBatchAsync (the buffer-to-buffer copies go there), with CUDA 12.8's
// (DCFAKE_DRIVER_VERSION=12080: the older signature with failIdx) and without
// either (DCFAKE_MISSING: each copy as its single call).
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "memory/memory_test.h"

namespace {

using namespace memtest;

constexpr uint64_t kBytes = 4096;

class CopyBatchTest : public MemoryTest {
 protected:
  void SetUp() override {
    MemoryTest::SetUp();
    if (IsSkipped()) return;
    s_ = stream();
  }
  void TearDown() override {
    if (s_) dc_stream_release(s_);
    for (dc_buffer b : buffers_) dc_buffer_release(b);
    MemoryTest::TearDown();
  }
  dc_buffer filled(uint32_t seed, uint32_t flags = 0) {
    dc_buffer b = alloc(kBytes, flags);
    buffers_.push_back(b);
    std::vector<uint8_t> v = random_bytes(kBytes, seed);
    EXPECT_EQ(dc_buffer_write(b, 0, v.data(), kBytes), DC_SUCCESS) << dc_last_error_message();
    return b;
  }
  dc_buffer pinned(uint32_t seed) {
    dc_buffer b = nullptr;
    EXPECT_EQ(dc_buffer_alloc_pinned(device_, kBytes, 0, &b), DC_SUCCESS) << dc_last_error_message();
    buffers_.push_back(b);
    std::vector<uint8_t> v = random_bytes(kBytes, seed);
    EXPECT_EQ(dc_buffer_write(b, 0, v.data(), kBytes), DC_SUCCESS) << dc_last_error_message();
    return b;
  }
  std::vector<uint8_t> contents(dc_buffer b) {
    std::vector<uint8_t> v(kBytes);
    EXPECT_EQ(dc_buffer_read(b, 0, v.data(), kBytes), DC_SUCCESS) << dc_last_error_message();
    return v;
  }
  static dc_copy_op b2b(dc_buffer dst, uint64_t dst_offset, dc_buffer src, uint64_t src_offset, uint64_t size) {
    return dc_copy_op{DC_COPY_BUFFER_TO_BUFFER, 0, dst, dst_offset, src, src_offset, nullptr, size};
  }
  static dc_copy_op h2b(dc_buffer dst, uint64_t dst_offset, const void* host, uint64_t size) {
    return dc_copy_op{DC_COPY_HOST_TO_BUFFER, 0, dst, dst_offset, nullptr, 0, const_cast<void*>(host), size};
  }
  static dc_copy_op b2h(void* host, dc_buffer src, uint64_t src_offset, uint64_t size) {
    return dc_copy_op{DC_COPY_BUFFER_TO_HOST, 0, nullptr, 0, src, src_offset, host, size};
  }
  static bool batch_entry_missing() {
    const char* m = std::getenv("DCFAKE_MISSING");
    return m && std::strstr(m, "cuMemcpyBatchAsync");
  }
  // The name the fake counts the batch entry point under: 12.8's on a 12.8 driver.
  static const char* batch_entry() {
    const char* v = std::getenv("DCFAKE_DRIVER_VERSION");
    return v && std::atoi(v) < 13000 ? "cuMemcpyBatchAsync_v12080" : "cuMemcpyBatchAsync";
  }
  long calls(const char* entry) {
    auto* f = dctest::fake_driver();
    return f ? f->call_count(entry) : 0;
  }
  dc_stream s_ = nullptr;
  std::vector<dc_buffer> buffers_;
};

TEST_F(CopyBatchTest, EveryKindArrives) {
  dc_buffer a = filled(1), b = filled(2), c = filled(3), p = pinned(4);
  std::vector<uint8_t> pa = contents(a), pb = contents(b), pp = contents(p);
  std::vector<uint8_t> host_in = random_bytes(1000, 5), host_out(700, 0);
  dc_copy_op ops[] = {
      b2b(c, 0, a, 100, 1000),     // device to device
      b2b(c, 1000, p, 0, 500),     // pinned to device
      b2b(p, 2000, b, 0, 300),     // device to pinned
      h2b(c, 2000, host_in.data(), 1000),  // pageable to device
      b2h(host_out.data(), b, 3000, 700),  // device to pageable
  };
  long batches = calls(batch_entry());
  ASSERT_EQ(dc_buffer_copy_batch_async(ops, 5, s_), DC_SUCCESS) << dc_last_error_message();
  ASSERT_EQ(dc_stream_synchronize(s_), DC_SUCCESS) << dc_last_error_message();
  std::vector<uint8_t> got = contents(c), gotp = contents(p);
  EXPECT_EQ(first_difference(&got[0], &pa[100], 1000), -1);
  EXPECT_EQ(first_difference(&got[1000], &pp[0], 500), -1);
  EXPECT_EQ(first_difference(&gotp[2000], &pb[0], 300), -1);
  EXPECT_EQ(first_difference(&got[2000], host_in.data(), 1000), -1);
  EXPECT_EQ(first_difference(host_out.data(), &pb[3000], 700), -1);
  if (dctest::fake_driver()) {
    // The three buffer-to-buffer copies go to the driver in one batch where it has one.
    EXPECT_EQ(calls(batch_entry()) - batches, batch_entry_missing() ? 0 : 1);
  }
}

TEST_F(CopyBatchTest, CountZeroAndNullArrays) {
  EXPECT_EQ(dc_buffer_copy_batch_async(nullptr, 0, s_), DC_SUCCESS) << dc_last_error_message();
  EXPECT_EQ(dc_buffer_copy_batch_async(nullptr, 2, s_), DC_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(dc_last_error_message()).find("ops is NULL with count 2"), std::string::npos);
  EXPECT_EQ(dc_buffer_copy_batch_async(nullptr, 0, nullptr), DC_ERROR_INVALID_HANDLE);
}

// Each bad copy at index 2 refuses the whole batch: nothing arrives.
TEST_F(CopyBatchTest, ABadCopyAtIndexKRefusesTheWholeBatch) {
  dc_buffer a = filled(1), c = filled(3);
  std::vector<uint8_t> before = contents(c);
  dc_buffer dead = alloc(64);
  dc_buffer_release(dead);
  std::vector<uint8_t> host(kBytes, 7);
  struct Case {
    dc_copy_op bad;
    dc_status status;
    const char* text;
  } cases[] = {
      {b2b(c, 3000, dead, 0, 8), DC_ERROR_INVALID_HANDLE, "ops[2].src"},
      {b2b(c, 3000, a, kBytes - 4, 8), DC_ERROR_OUT_OF_RANGE, "ops[2]: src_offset 4092 + size 8 exceeds src's size"},
      {h2b(c, 3000, nullptr, 8), DC_ERROR_INVALID_ARGUMENT, "ops[2]: host is NULL with size 8"},
      {b2b(c, 3000, c, 3004, 8), DC_ERROR_INVALID_ARGUMENT, "ops[2]: the ranges overlap"},
      {dc_copy_op{9, 0, c, 0, a, 0, nullptr, 8}, DC_ERROR_INVALID_ARGUMENT, "ops[2].kind is 9"},
      {dc_copy_op{DC_COPY_BUFFER_TO_BUFFER, 1, c, 3000, a, 0, nullptr, 8}, DC_ERROR_INVALID_ARGUMENT,
       "ops[2].reserved is 1"},
  };
  long before_batches = calls(batch_entry()), before_single = calls("cuMemcpyDtoDAsync");
  for (const Case& k : cases) {
    dc_copy_op ops[] = {b2b(c, 0, a, 0, 100), h2b(c, 200, host.data(), 100), k.bad, b2b(c, 1000, a, 1000, 8)};
    EXPECT_EQ(dc_buffer_copy_batch_async(ops, 4, s_), k.status) << k.text;
    EXPECT_NE(std::string(dc_last_error_message()).find(k.text), std::string::npos)
        << "expected \"" << k.text << "\" in: " << dc_last_error_message();
  }
  ASSERT_EQ(dc_stream_synchronize(s_), DC_SUCCESS);
  EXPECT_EQ(first_difference(contents(c).data(), before.data(), kBytes), -1) << "a refused batch wrote something";
  if (dctest::fake_driver()) {
    EXPECT_EQ(calls(batch_entry()), before_batches);
    EXPECT_EQ(calls("cuMemcpyDtoDAsync"), before_single);
  }
}

TEST_F(CopyBatchTest, CopiesThatDependOnEachOtherAreRefused) {
  dc_buffer a = filled(1), b = filled(2);
  std::vector<uint8_t> host(kBytes, 1);
  // ops[1] reads what ops[0] writes (b[0..100)).
  dc_copy_op read_after_write[] = {b2b(b, 0, a, 0, 100), b2b(a, 2000, b, 50, 100)};
  EXPECT_EQ(dc_buffer_copy_batch_async(read_after_write, 2, s_), DC_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(dc_last_error_message()).find("ops[0] and ops[1] overlap"), std::string::npos)
      << dc_last_error_message();
  // Two writes to the same bytes, far apart in the array, with a long copy between.
  dc_copy_op two_writes[] = {b2b(b, 0, a, 0, 10), b2b(b, 100, a, 100, 3000), b2b(b, 4000, a, 4000, 8),
                             h2b(b, 3090, host.data(), 20)};
  EXPECT_EQ(dc_buffer_copy_batch_async(two_writes, 4, s_), DC_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(dc_last_error_message()).find("ops[1] and ops[3] overlap"), std::string::npos)
      << dc_last_error_message();
  // A host range written by one copy and read by another.
  dc_copy_op host_dependency[] = {b2h(host.data(), a, 0, 64), h2b(b, 0, host.data() + 32, 64)};
  EXPECT_EQ(dc_buffer_copy_batch_async(host_dependency, 2, s_), DC_ERROR_INVALID_ARGUMENT);
  // Two copies reading the same source, and adjacent writes, are fine.
  dc_copy_op fine[] = {b2b(b, 0, a, 0, 100), b2b(b, 100, a, 0, 100), b2b(b, 200, a, 50, 100)};
  EXPECT_EQ(dc_buffer_copy_batch_async(fine, 3, s_), DC_SUCCESS) << dc_last_error_message();
  ASSERT_EQ(dc_stream_synchronize(s_), DC_SUCCESS);
}

TEST_F(CopyBatchTest, ADriverFailureNamesTheCopy) {
  REQUIRE_FAKE_DRIVER();
  dc_buffer a = filled(1), c = filled(3);
  std::vector<uint8_t> host(256, 9);
  dc_copy_op ops[] = {b2b(c, 0, a, 0, 100), b2b(c, 100, a, 100, 100), h2b(c, 300, host.data(), 256)};
  dctest::fake_driver()->inject("cuMemcpyHtoDAsync", 1, 2 /* CUDA_ERROR_OUT_OF_MEMORY */, 1);
  EXPECT_NE(dc_buffer_copy_batch_async(ops, 3, s_), DC_SUCCESS);
  EXPECT_NE(std::string(dc_last_error_message()).find("ops[2]: the driver refused this copy"), std::string::npos)
      << dc_last_error_message();
  EXPECT_EQ(dc_last_error_cuda(), 2);
  if (!batch_entry_missing()) {
    dctest::fake_driver()->inject(batch_entry(), 1, 1 /* CUDA_ERROR_INVALID_VALUE */, 1);
    EXPECT_NE(dc_buffer_copy_batch_async(ops, 2, s_), DC_SUCCESS);
    EXPECT_NE(std::string(dc_last_error_message()).find("the 2 buffer-to-buffer copies (one cuMemcpyBatchAsync"),
              std::string::npos)
        << dc_last_error_message();
  }
  ASSERT_EQ(dc_stream_synchronize(s_), DC_SUCCESS);
}

TEST_F(CopyBatchTest, TheLegacyStreamTakesSingleCopies) {
  dc_buffer a = filled(1), c = filled(3);
  std::vector<uint8_t> pa = contents(a);
  dc_stream legacy = nullptr;
  ASSERT_EQ(dc_stream_get_default(device_, DC_STREAM_LEGACY, &legacy), DC_SUCCESS) << dc_last_error_message();
  dc_copy_op ops[] = {b2b(c, 0, a, 0, 100), b2b(c, 100, a, 100, 100)};
  long batches = calls(batch_entry());
  ASSERT_EQ(dc_buffer_copy_batch_async(ops, 2, legacy), DC_SUCCESS) << dc_last_error_message();
  ASSERT_EQ(dc_stream_synchronize(legacy), DC_SUCCESS);
  EXPECT_EQ(first_difference(contents(c).data(), pa.data(), 200), -1);
  EXPECT_EQ(calls(batch_entry()), batches);
  dc_stream_release(legacy);
}

}  // namespace
