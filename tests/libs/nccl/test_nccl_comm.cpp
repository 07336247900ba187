// Communicators through the fake NCCL: made by init_all, by init_rank from
// several threads and from one thread in a group; split; abort unblocking a
// rank that waits for a peer; the asynchronous error; NCCL's failures and
// releases.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <thread>

#include "fake_nccl_controls.h"
#include "nccl_fixture.h"

using namespace nccl_test;

namespace {

class NcclComm : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_GE(dctest::device_count(), 3) << "run with DCFAKE_DEVICES=3";
    int32_t version = 0;
    ASSERT_DC_OK(dc_nccl_library_version(&version));
    fake_ = FakeNccl::find();
    ASSERT_TRUE(fake_) << "needs the fake NCCL (DCCUDA_NCCL_LIBRARY)";
    fake_.reset();
  }
  void TearDown() override {
    if (fake_) fake_.reset();
  }
  FakeNccl fake_;
};

TEST_F(NcclComm, VersionIsDecoded) {
  int32_t version = 0;
  ASSERT_DC_OK(dc_nccl_library_version(&version));
  EXPECT_EQ(version, 22809);  // the fake reports NCCL 2.28.9
}

TEST_F(NcclComm, InitAllQueriesAndRelease) {
  uint64_t before = 0;
  ASSERT_DC_OK(dc_handle_count(DC_HANDLE_COMM, &before));
  long live = fake_.live_comms();
  {
    Ranks ranks(3);
    for (int r = 0; r < 3; ++r) {
      int32_t rank = -1, count = -1, ordinal = -1;
      ASSERT_DC_OK(dc_comm_rank(ranks[r].comm, &rank));
      ASSERT_DC_OK(dc_comm_count(ranks[r].comm, &count));
      ASSERT_DC_OK(dc_comm_device_ordinal(ranks[r].comm, &ordinal));
      EXPECT_EQ(rank, r);
      EXPECT_EQ(count, 3);
      EXPECT_EQ(ordinal, r);
    }
    uint64_t during = 0;
    ASSERT_DC_OK(dc_handle_count(DC_HANDLE_COMM, &during));
    EXPECT_EQ(during, before + 3);
    EXPECT_EQ(fake_.live_comms(), live + 3);
  }
  // Released: finalised and destroyed once each.
  EXPECT_EQ(fake_.live_comms(), live);
  EXPECT_EQ(fake_.call_count("ncclCommFinalize"), 3);
  EXPECT_EQ(fake_.call_count("ncclCommDestroy"), 3);
}

TEST_F(NcclComm, InitRankFromOneThreadPerRank) {
  uint8_t id[DC_NCCL_UNIQUE_ID_BYTES];
  ASSERT_DC_OK(dc_nccl_unique_id(id, sizeof id));
  dc_comm comms[3] = {};
  dc_device devices[3] = {};
  std::thread threads[3];
  dc_status status[3];
  for (int r = 0; r < 3; ++r) {
    ASSERT_DC_OK(dc_device_open(r, &devices[r]));
    threads[r] = std::thread([&, r] { status[r] = dc_comm_init_rank(devices[r], 3, id, sizeof id, r, &comms[r]); });
  }
  for (auto& t : threads) t.join();
  for (int r = 0; r < 3; ++r) {
    ASSERT_EQ(status[r], DC_SUCCESS) << "rank " << r;
    int32_t rank = -1, count = -1;
    ASSERT_DC_OK(dc_comm_rank(comms[r], &rank));
    ASSERT_DC_OK(dc_comm_count(comms[r], &count));
    EXPECT_EQ(rank, r);
    EXPECT_EQ(count, 3);
  }
  for (int r = 0; r < 3; ++r) {
    dc_comm_release(comms[r]);
    dc_device_release(devices[r]);
  }
}

TEST_F(NcclComm, InitRankGroupedFromOneThread) {
  uint8_t id[DC_NCCL_UNIQUE_ID_BYTES];
  ASSERT_DC_OK(dc_nccl_unique_id(id, sizeof id));
  dc_comm comms[2] = {};
  dc_device devices[2] = {};
  ASSERT_DC_OK(dc_nccl_group_start());
  for (int r = 0; r < 2; ++r) {
    ASSERT_DC_OK(dc_device_open(r, &devices[r]));
    ASSERT_DC_OK(dc_comm_init_rank(devices[r], 2, id, sizeof id, r, &comms[r]));
  }
  ASSERT_DC_OK(dc_nccl_group_end());
  for (int r = 0; r < 2; ++r) {
    int32_t count = 0;
    ASSERT_DC_OK(dc_comm_count(comms[r], &count));
    EXPECT_EQ(count, 2);
    dc_comm_release(comms[r]);
    dc_device_release(devices[r]);
  }
}

// Ranks 0 and 2 (color 0, keys reversed) form a 2-rank comm; rank 1 joins none.
TEST_F(NcclComm, SplitByColorAndKey) {
  Ranks ranks(3);
  dc_comm out[3] = {};
  const int32_t colors[3] = {0, DC_COMM_SPLIT_NO_COLOR, 0};
  const int32_t keys[3] = {5, 0, 1};
  ASSERT_DC_OK(dc_nccl_group_start());
  for (int r = 0; r < 3; ++r) ASSERT_DC_OK(dc_comm_split(ranks[r].comm, colors[r], keys[r], &out[r]));
  ASSERT_DC_OK(dc_nccl_group_end());
  EXPECT_EQ(out[1], nullptr);
  ASSERT_NE(out[0], nullptr);
  ASSERT_NE(out[2], nullptr);
  int32_t rank0 = -1, rank2 = -1, count = 0, ordinal = -1;
  ASSERT_DC_OK(dc_comm_rank(out[0], &rank0));
  ASSERT_DC_OK(dc_comm_rank(out[2], &rank2));
  ASSERT_DC_OK(dc_comm_count(out[0], &count));
  ASSERT_DC_OK(dc_comm_device_ordinal(out[2], &ordinal));
  EXPECT_EQ(rank0, 1);  // key 5 after key 1
  EXPECT_EQ(rank2, 0);
  EXPECT_EQ(count, 2);
  EXPECT_EQ(ordinal, 2);
  // The new comm works: an all-reduce over its two ranks.
  dc_buffer b0 = alloc(ranks[0].device, 4), b2 = alloc(ranks[2].device, 4);
  int32_t x0 = 3, x2 = 4, y0 = 0, y2 = 0;
  ASSERT_DC_OK(dc_buffer_write(b0, 0, &x0, 4));
  ASSERT_DC_OK(dc_buffer_write(b2, 0, &x2, 4));
  ASSERT_DC_OK(dc_nccl_group_start());
  ASSERT_DC_OK(dc_comm_all_reduce(out[0], b0, 0, b0, 0, 1, DC_NCCL_INT32, DC_NCCL_SUM, ranks[0].stream));
  ASSERT_DC_OK(dc_comm_all_reduce(out[2], b2, 0, b2, 0, 1, DC_NCCL_INT32, DC_NCCL_SUM, ranks[2].stream));
  ASSERT_DC_OK(dc_nccl_group_end());
  ASSERT_DC_OK(dc_buffer_read(b0, 0, &y0, 4));
  ASSERT_DC_OK(dc_buffer_read(b2, 0, &y2, 4));
  EXPECT_EQ(y0, 7);
  EXPECT_EQ(y2, 7);
  dc_buffer_release(b0);
  dc_buffer_release(b2);
  dc_comm_release(out[0]);
  dc_comm_release(out[2]);
}

// Rank 0 issues an all-reduce that rank 1 never joins: the call waits (the
// fake's stand-in for a stream that never finishes). dc_comm_abort from
// another thread ends the wait; the comm then refuses further work, and its
// release destroys nothing more (NCCL freed it in the abort).
TEST_F(NcclComm, AbortUnblocksAWaitingRank) {
  Ranks ranks(2);
  dc_buffer b = alloc(ranks[0].device, 64);
  std::atomic<bool> returned{false};
  dc_status status = DC_SUCCESS;
  std::string message;
  std::thread waiter([&] {
    status = dc_comm_all_reduce(ranks[0].comm, b, 0, b, 0, 16, DC_NCCL_FLOAT32, DC_NCCL_SUM, ranks[0].stream);
    message = dc_last_error_message();
    returned = true;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  EXPECT_FALSE(returned) << "the all-reduce returned without its peer";
  ASSERT_DC_OK(dc_comm_abort(ranks[0].comm));
  waiter.join();
  EXPECT_EQ(status, DC_ERROR_DRIVER);
  EXPECT_NE(message.find("ncclAllReduce failed"), std::string::npos) << message;
  EXPECT_NE(message.find("aborted"), std::string::npos) << message;
  // The peer sees a remote error.
  int32_t async = 0;
  ASSERT_DC_OK(dc_comm_async_error(ranks[1].comm, &async));
  EXPECT_EQ(async, 6);  // ncclRemoteError
  EXPECT_DC_ERROR(dc_comm_all_reduce(ranks[0].comm, b, 0, b, 0, 16, DC_NCCL_FLOAT32, DC_NCCL_SUM, ranks[0].stream),
                  DC_ERROR_INVALID_STATE, "aborted");
  EXPECT_DC_ERROR(dc_comm_async_error(ranks[0].comm, &async), DC_ERROR_INVALID_STATE, "aborted");
  ASSERT_DC_OK(dc_comm_abort(ranks[0].comm));  // again: nothing
  EXPECT_EQ(fake_.call_count("ncclCommAbort"), 1);
  dc_buffer_release(b);
}

TEST_F(NcclComm, AbortedCommIsNotDestroyedAgain) {
  {
    Ranks ranks(1);
    ASSERT_DC_OK(dc_comm_abort(ranks[0].comm));
  }
  EXPECT_EQ(fake_.call_count("ncclCommDestroy"), 0);
  EXPECT_EQ(fake_.call_count("ncclCommFinalize"), 0);
}

TEST_F(NcclComm, AsyncErrorIsReported) {
  Ranks ranks(1);
  int32_t async = -1;
  ASSERT_DC_OK(dc_comm_async_error(ranks[0].comm, &async));
  EXPECT_EQ(async, 0);
  fake_.set_async_error(6);
  ASSERT_DC_OK(dc_comm_async_error(ranks[0].comm, &async));
  EXPECT_EQ(async, 6);
}

// NCCL's failures reach the caller with NCCL's words, the right status, and
// no handle left behind.
TEST_F(NcclComm, NcclFailuresAreQuoted) {
  uint64_t before = 0, after = 0;
  ASSERT_DC_OK(dc_handle_count(DC_HANDLE_COMM, &before));
  fake_.inject("ncclCommInitAll", 1, 2, 1);  // ncclSystemError
  int32_t ordinals[2] = {0, 1};
  dc_comm comms[2] = {reinterpret_cast<dc_comm>(1), reinterpret_cast<dc_comm>(1)};
  EXPECT_DC_ERROR(dc_comm_init_all(ordinals, 2, comms), DC_ERROR_DRIVER, "ncclCommInitAll failed: NCCL error 2");
  EXPECT_EQ(comms[0], nullptr);
  EXPECT_EQ(comms[1], nullptr);
  ASSERT_DC_OK(dc_handle_count(DC_HANDLE_COMM, &after));
  EXPECT_EQ(after, before);

  uint8_t id[DC_NCCL_UNIQUE_ID_BYTES];
  fake_.inject("ncclGetUniqueId", 1, 3, 1);  // ncclInternalError
  EXPECT_DC_ERROR(dc_nccl_unique_id(id, sizeof id), DC_ERROR_DRIVER, "ncclGetUniqueId failed");

  Ranks ranks(1);
  dc_buffer b = alloc(ranks[0].device, 16);
  fake_.inject("ncclAllReduce", 1, 5, 1);  // ncclInvalidUsage
  EXPECT_DC_ERROR(dc_comm_all_reduce(ranks[0].comm, b, 0, b, 0, 4, DC_NCCL_INT32, DC_NCCL_SUM, ranks[0].stream),
                  DC_ERROR_INVALID_STATE, "invalid usage");
  fake_.inject("ncclGroupEnd", 1, 6, 1);  // ncclRemoteError
  ASSERT_DC_OK(dc_nccl_group_start());
  EXPECT_DC_ERROR(dc_nccl_group_end(), DC_ERROR_DRIVER, "dc_comm_abort");
  // And the next call works.
  EXPECT_DC_OK(dc_comm_all_reduce(ranks[0].comm, b, 0, b, 0, 4, DC_NCCL_INT32, DC_NCCL_SUM, ranks[0].stream));
  dc_buffer_release(b);
}

TEST_F(NcclComm, GroupEndWithoutStartIsRefused) {
  EXPECT_DC_ERROR(dc_nccl_group_end(), DC_ERROR_INVALID_STATE, "ncclGroupEnd failed");
}

TEST_F(NcclComm, UniqueIdsDiffer) {
  uint8_t a[DC_NCCL_UNIQUE_ID_BYTES], b[DC_NCCL_UNIQUE_ID_BYTES];
  ASSERT_DC_OK(dc_nccl_unique_id(a, sizeof a));
  ASSERT_DC_OK(dc_nccl_unique_id(b, sizeof b));
  EXPECT_NE(std::memcmp(a, b, sizeof a), 0);
}

}  // namespace
