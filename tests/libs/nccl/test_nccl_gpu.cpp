// NCCL through dccuda on whatever runs it: the fake NCCL in CI, the real
// NCCL on a GPU machine (tests/gpu/run.sh; the binary finds libnccl.so.2 by
// the normal search, or DCCUDA_NCCL_LIBRARY). A one-rank communicator runs
// every collective on random data, checked against the CPU: with one rank
// each result is the rank's own data (sum, min, max, avg of one value; prod
// of one value), so the bound is exact equality (NCCL copies or reduces one
// operand). dc_comm_init_all over every device present runs an all-reduce
// checked within a relative 1e-6 (float sums in another order). Bad input is
// refused by dccuda's checks, before NCCL sees it.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "nccl_fixture.h"

using namespace nccl_test;

namespace {

constexpr uint64_t kCount = 1 << 16;  // floats per rank

std::vector<float> random_floats(uint32_t seed, uint64_t n) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> d(-1.0f, 1.0f);
  std::vector<float> v(n);
  for (float& x : v) x = d(rng);
  return v;
}

std::vector<float> read_floats(dc_buffer b, uint64_t offset, uint64_t n) {
  std::vector<float> v(n);
  EXPECT_DC_OK(dc_buffer_read(b, offset, v.data(), n * 4));
  return v;
}

class NcclGpu : public ::testing::Test {
 protected:
  void SetUp() override {
    REQUIRE_DEVICE();
    int32_t version = 0;
    if (dc_nccl_library_version(&version) != DC_SUCCESS) GTEST_FAIL() << "no NCCL: " << dc_last_error_message();
    std::printf("[ dccuda   ] NCCL %d.%d.%d\n", version / 10000, version / 100 % 100, version % 100);
  }
};

// A one-rank communicator from a unique id (the multi-process path, one process).
TEST_F(NcclGpu, OneRankEveryCollective) {
  dc_device d = nullptr;
  dc_stream s = nullptr;
  dc_comm comm = nullptr;
  ASSERT_DC_OK(dc_device_open(0, &d));
  ASSERT_DC_OK(dc_stream_create(d, 0, 0, &s));
  uint8_t id[DC_NCCL_UNIQUE_ID_BYTES];
  ASSERT_DC_OK(dc_nccl_unique_id(id, sizeof id));
  ASSERT_DC_OK(dc_comm_init_rank(d, 1, id, sizeof id, 0, &comm));
  int32_t rank = -1, count = -1;
  ASSERT_DC_OK(dc_comm_rank(comm, &rank));
  ASSERT_DC_OK(dc_comm_count(comm, &count));
  EXPECT_EQ(rank, 0);
  EXPECT_EQ(count, 1);

  const uint64_t bytes = kCount * 4;
  std::vector<float> in = random_floats(1, kCount);
  dc_buffer send = alloc(d, bytes), recv = alloc(d, bytes);
  ASSERT_DC_OK(dc_buffer_write(send, 0, in.data(), bytes));
  auto expect_in = [&](const char* what) {
    ASSERT_DC_OK(dc_stream_synchronize(s));
    std::vector<float> out = read_floats(recv, 0, kCount);
    EXPECT_EQ(std::memcmp(out.data(), in.data(), bytes), 0) << what << ": the result differs from the input";
    ASSERT_DC_OK(dc_buffer_fill(recv, 0, bytes, 0, 4));
  };
  for (int32_t op : {DC_NCCL_SUM, DC_NCCL_PROD, DC_NCCL_MIN, DC_NCCL_MAX, DC_NCCL_AVG}) {
    ASSERT_DC_OK(dc_comm_all_reduce(comm, send, 0, recv, 0, kCount, DC_NCCL_FLOAT32, op, s));
    expect_in("all_reduce");
    ASSERT_DC_OK(dc_comm_reduce(comm, send, 0, recv, 0, kCount, DC_NCCL_FLOAT32, op, 0, s));
    expect_in("reduce");
    ASSERT_DC_OK(dc_comm_reduce_scatter(comm, send, 0, recv, 0, kCount, DC_NCCL_FLOAT32, op, s));
    expect_in("reduce_scatter");
  }
  ASSERT_DC_OK(dc_comm_broadcast(comm, send, 0, recv, 0, kCount, DC_NCCL_FLOAT32, 0, s));
  expect_in("broadcast");
  ASSERT_DC_OK(dc_comm_all_gather(comm, send, 0, recv, 0, kCount, DC_NCCL_FLOAT32, s));
  expect_in("all_gather");
  ASSERT_DC_OK(dc_nccl_group_start());
  ASSERT_DC_OK(dc_comm_send(comm, send, 0, kCount, DC_NCCL_FLOAT32, 0, s));
  ASSERT_DC_OK(dc_comm_recv(comm, recv, 0, kCount, DC_NCCL_FLOAT32, 0, s));
  ASSERT_DC_OK(dc_nccl_group_end());
  expect_in("send/recv to itself");
  // In place, at an offset: the same bytes come back.
  ASSERT_DC_OK(dc_comm_all_reduce(comm, send, 256, send, 256, kCount / 2, DC_NCCL_FLOAT32, DC_NCCL_SUM, s));
  ASSERT_DC_OK(dc_stream_synchronize(s));
  std::vector<float> back = read_floats(send, 0, kCount);
  EXPECT_EQ(std::memcmp(back.data(), in.data(), bytes), 0) << "in-place all_reduce changed the data";
  int32_t async = -1;
  ASSERT_DC_OK(dc_comm_async_error(comm, &async));
  EXPECT_EQ(async, 0);

  // Refused by dccuda before NCCL sees it.
  EXPECT_DC_ERROR(dc_comm_all_reduce(comm, send, 0, recv, 4, kCount, DC_NCCL_FLOAT32, DC_NCCL_SUM, s),
                  DC_ERROR_OUT_OF_RANGE, "exceeds recv's size");
  EXPECT_DC_ERROR(dc_comm_all_gather(comm, send, 0, recv, 0, kCount + 1, DC_NCCL_FLOAT32, s), DC_ERROR_OUT_OF_RANGE,
                  "send_count");
  EXPECT_DC_ERROR(dc_comm_broadcast(comm, send, 0, recv, 0, 1, DC_NCCL_FLOAT32, 1, s), DC_ERROR_INVALID_ARGUMENT,
                  "root 1");
  EXPECT_DC_ERROR(dc_comm_send(comm, send, 0, 1, 42, 0, s), DC_ERROR_INVALID_ARGUMENT, "datatype 42");
  dc_buffer_release(send);
  dc_buffer_release(recv);
  dc_comm_release(comm);
  dc_stream_release(s);
  dc_device_release(d);
}

// One rank per device of the machine (one on a one-GPU machine), all-reduce
// of random floats from one thread in a group.
TEST_F(NcclGpu, InitAllOverEveryDevice) {
  int n = dctest::device_count();
  Ranks ranks(n);
  std::vector<dc_buffer> buf(n);
  std::vector<std::vector<float>> in(n);
  for (int r = 0; r < n; ++r) {
    in[r] = random_floats(100 + r, kCount);
    buf[r] = alloc(ranks[r].device, kCount * 4);
    ASSERT_DC_OK(dc_buffer_write(buf[r], 0, in[r].data(), kCount * 4));
  }
  ASSERT_DC_OK(dc_nccl_group_start());
  for (int r = 0; r < n; ++r)
    ASSERT_DC_OK(dc_comm_all_reduce(ranks[r].comm, buf[r], 0, buf[r], 0, kCount, DC_NCCL_FLOAT32, DC_NCCL_SUM,
                                    ranks[r].stream));
  ASSERT_DC_OK(dc_nccl_group_end());
  for (int r = 0; r < n; ++r) {
    ASSERT_DC_OK(dc_stream_synchronize(ranks[r].stream));
    std::vector<float> out = read_floats(buf[r], 0, kCount);
    int bad = 0;
    for (uint64_t i = 0; i < kCount; ++i) {
      double want = 0, scale = 0;
      for (int q = 0; q < n; ++q) want += in[q][i], scale += std::fabs(in[q][i]);
      if (std::fabs(out[i] - want) > 1e-6 * scale + 1e-30 && bad++ < 5)
        ADD_FAILURE() << "rank " << r << " element " << i << ": " << out[i] << ", want " << want;
    }
    EXPECT_EQ(bad, 0) << "rank " << r;
    dc_buffer_release(buf[r]);
  }
  std::printf("[ dccuda   ] NCCL all-reduce over %d device%s checked\n", n, n == 1 ? "" : "s");
}

}  // namespace
