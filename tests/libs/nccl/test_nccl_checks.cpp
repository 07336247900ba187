// Every check dccuda makes before NCCL sees a call: each bad argument is
// refused with the status and a message naming it, and the fake NCCL counts
// no call of the entry point (it never saw the arguments).
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>

#include "fake_nccl_controls.h"
#include "nccl_fixture.h"

using namespace nccl_test;

namespace {

class NcclChecks : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_GE(dctest::device_count(), 2) << "run with DCFAKE_DEVICES=2";
    int32_t version = 0;
    ASSERT_DC_OK(dc_nccl_library_version(&version));
    fake_ = FakeNccl::find();
    ASSERT_TRUE(fake_);
    ranks_ = new Ranks(2);
    Rank& r0 = (*ranks_)[0];
    Rank& r1 = (*ranks_)[1];
    a_ = alloc(r0.device, 64);        // 16 int32 on device 0
    b_ = alloc(r0.device, 64);
    other_ = alloc(r1.device, 64);    // on device 1
    ASSERT_DC_OK(dc_buffer_alloc_pinned(r0.device, 64, 0, &host_));
    fake_.reset();
  }
  void TearDown() override {
    // Nothing refused may have reached NCCL.
    for (const char* fn : {"ncclAllReduce", "ncclBroadcast", "ncclReduce", "ncclAllGather", "ncclReduceScatter",
                           "ncclSend", "ncclRecv", "ncclCommInitRank", "ncclCommInitAll", "ncclCommSplit",
                           "ncclGetUniqueId"})
      EXPECT_EQ(fake_.call_count(fn), expected_calls_) << fn << " was called";
    for (dc_buffer b : {a_, b_, other_, host_}) dc_buffer_release(b);
    delete ranks_;
  }
  dc_comm comm() { return (*ranks_)[0].comm; }
  dc_stream stream() { return (*ranks_)[0].stream; }

  FakeNccl fake_;
  Ranks* ranks_ = nullptr;
  dc_buffer a_ = nullptr, b_ = nullptr, other_ = nullptr, host_ = nullptr;
  long expected_calls_ = 0;
};

TEST_F(NcclChecks, DatatypeAndOp) {
  EXPECT_DC_ERROR(dc_comm_all_reduce(comm(), a_, 0, b_, 0, 4, 0, DC_NCCL_SUM, stream()), DC_ERROR_INVALID_ARGUMENT,
                  "datatype 0 is not a DC_NCCL_* datatype");
  EXPECT_DC_ERROR(dc_comm_all_reduce(comm(), a_, 0, b_, 0, 4, 11, DC_NCCL_SUM, stream()), DC_ERROR_INVALID_ARGUMENT,
                  "datatype 11");
  EXPECT_DC_ERROR(dc_comm_all_reduce(comm(), a_, 0, b_, 0, 4, DC_NCCL_INT32, 0, stream()), DC_ERROR_INVALID_ARGUMENT,
                  "op 0 is not a DC_NCCL_* reduction");
  EXPECT_DC_ERROR(dc_comm_reduce_scatter(comm(), a_, 0, b_, 0, 4, DC_NCCL_INT32, 6, stream()),
                  DC_ERROR_INVALID_ARGUMENT, "op 6");
  EXPECT_DC_ERROR(dc_comm_send(comm(), a_, 0, 4, -3, 1, stream()), DC_ERROR_INVALID_ARGUMENT, "datatype -3");
}

TEST_F(NcclChecks, CountsAgainstBufferSizes) {
  // 17 int32 = 68 bytes > 64.
  EXPECT_DC_ERROR(dc_comm_all_reduce(comm(), a_, 0, b_, 0, 17, DC_NCCL_INT32, DC_NCCL_SUM, stream()),
                  DC_ERROR_OUT_OF_RANGE, "count 17 x 4 bytes = 68 bytes from send_offset 0 exceeds send's size 64");
  // Fits send, not recv from its offset.
  EXPECT_DC_ERROR(dc_comm_all_reduce(comm(), a_, 0, b_, 8, 16, DC_NCCL_INT32, DC_NCCL_SUM, stream()),
                  DC_ERROR_OUT_OF_RANGE, "count 16 x 4 bytes = 64 bytes from recv_offset 8 exceeds recv's size 64");
  EXPECT_DC_ERROR(dc_comm_broadcast(comm(), a_, 65, b_, 0, 0, DC_NCCL_INT8, 0, stream()), DC_ERROR_OUT_OF_RANGE,
                  "send_offset 65 is past the end of send");
  // All-gather: recv holds nranks x send_count: 2 x 9 int32 = 72 > 64, though send's 36 fit.
  EXPECT_DC_ERROR(dc_comm_all_gather(comm(), a_, 0, b_, 0, 9, DC_NCCL_INT32, stream()), DC_ERROR_OUT_OF_RANGE,
                  "send_count 9 x 4 bytes x 2 ranks = 72 bytes from recv_offset 0 exceeds recv's size 64");
  // Reduce-scatter: send holds nranks x recv_count.
  EXPECT_DC_ERROR(dc_comm_reduce_scatter(comm(), a_, 0, b_, 0, 9, DC_NCCL_INT32, DC_NCCL_SUM, stream()),
                  DC_ERROR_OUT_OF_RANGE, "recv_count 9 x 4 bytes x 2 ranks = 72 bytes from send_offset 0 exceeds send's size 64");
  EXPECT_DC_ERROR(dc_comm_reduce(comm(), a_, 0, b_, 0, 9, DC_NCCL_FLOAT64, DC_NCCL_MAX, 0, stream()),
                  DC_ERROR_OUT_OF_RANGE, "count 9 x 8 bytes = 72 bytes from send_offset 0");
  EXPECT_DC_ERROR(dc_comm_send(comm(), a_, 60, 1, DC_NCCL_FLOAT64, 1, stream()), DC_ERROR_OUT_OF_RANGE,
                  "= 8 bytes from send_offset 60");
  EXPECT_DC_ERROR(dc_comm_recv(comm(), b_, 0, 9, DC_NCCL_FLOAT64, 1, stream()), DC_ERROR_OUT_OF_RANGE,
                  "= 72 bytes from recv_offset 0");
}

TEST_F(NcclChecks, CountsThatOverflow) {
  const uint64_t huge = std::numeric_limits<uint64_t>::max() / 4 + 1;  // x 4 bytes wraps to 0
  EXPECT_DC_ERROR(dc_comm_all_reduce(comm(), a_, 0, b_, 0, huge, DC_NCCL_INT32, DC_NCCL_SUM, stream()),
                  DC_ERROR_OUT_OF_RANGE, "overflows 64 bits");
  // x 2 ranks x 8 bytes wraps; x 8 alone does not.
  const uint64_t half = std::numeric_limits<uint64_t>::max() / 16 + 1;
  EXPECT_DC_ERROR(dc_comm_all_gather(comm(), a_, 0, b_, 0, half, DC_NCCL_FLOAT64, stream()), DC_ERROR_OUT_OF_RANGE,
                  "overflows 64 bits");
  EXPECT_DC_ERROR(dc_comm_reduce_scatter(comm(), a_, 0, b_, 0, half, DC_NCCL_UINT64, DC_NCCL_SUM, stream()),
                  DC_ERROR_OUT_OF_RANGE, "x 2 ranks overflows");
}

TEST_F(NcclChecks, BuffersAndStreamsOnTheCommsDevice) {
  EXPECT_DC_ERROR(dc_comm_all_reduce(comm(), other_, 0, b_, 0, 4, DC_NCCL_INT32, DC_NCCL_SUM, stream()),
                  DC_ERROR_INVALID_ARGUMENT, "send is on device 1, but the communicator is on device 0");
  EXPECT_DC_ERROR(dc_comm_recv(comm(), other_, 0, 4, DC_NCCL_INT32, 1, stream()), DC_ERROR_INVALID_ARGUMENT,
                  "recv is on device 1");
  EXPECT_DC_ERROR(dc_comm_all_reduce(comm(), a_, 0, b_, 0, 4, DC_NCCL_INT32, DC_NCCL_SUM, (*ranks_)[1].stream),
                  DC_ERROR_INVALID_ARGUMENT, "stream is on device 1, but the communicator is on device 0");
  EXPECT_DC_ERROR(dc_comm_all_reduce(comm(), host_, 0, b_, 0, 4, DC_NCCL_INT32, DC_NCCL_SUM, stream()),
                  DC_ERROR_INVALID_ARGUMENT, "send is host memory");
}

TEST_F(NcclChecks, RootsAndPeers) {
  EXPECT_DC_ERROR(dc_comm_broadcast(comm(), a_, 0, b_, 0, 4, DC_NCCL_INT32, 2, stream()), DC_ERROR_INVALID_ARGUMENT,
                  "root 2 is not a rank of the communicator (0..1)");
  EXPECT_DC_ERROR(dc_comm_reduce(comm(), a_, 0, b_, 0, 4, DC_NCCL_INT32, DC_NCCL_SUM, -1, stream()),
                  DC_ERROR_INVALID_ARGUMENT, "root -1");
  EXPECT_DC_ERROR(dc_comm_send(comm(), a_, 0, 4, DC_NCCL_INT32, 2, stream()), DC_ERROR_INVALID_ARGUMENT,
                  "peer 2 is not a rank");
  EXPECT_DC_ERROR(dc_comm_recv(comm(), a_, 0, 4, DC_NCCL_INT32, -1, stream()), DC_ERROR_INVALID_ARGUMENT, "peer -1");
  // The root needs its buffer; others may pass NULL (the collective tests do).
  EXPECT_DC_ERROR(dc_comm_broadcast(comm(), nullptr, 0, b_, 0, 4, DC_NCCL_INT32, 0, stream()),
                  DC_ERROR_INVALID_ARGUMENT, "send is NULL on the root");
  EXPECT_DC_ERROR(dc_comm_reduce(comm(), a_, 0, nullptr, 0, 4, DC_NCCL_INT32, DC_NCCL_SUM, 0, stream()),
                  DC_ERROR_INVALID_ARGUMENT, "recv is NULL on the root");
}

TEST_F(NcclChecks, HandlesAndIds) {
  EXPECT_DC_ERROR(dc_comm_all_reduce(nullptr, a_, 0, b_, 0, 4, DC_NCCL_INT32, DC_NCCL_SUM, stream()),
                  DC_ERROR_INVALID_HANDLE, "comm");
  EXPECT_DC_ERROR(dc_comm_all_reduce(comm(), a_, 0, nullptr, 0, 4, DC_NCCL_INT32, DC_NCCL_SUM, stream()),
                  DC_ERROR_INVALID_HANDLE, "recv");
  EXPECT_DC_ERROR(dc_comm_all_reduce(comm(), a_, 0, b_, 0, 4, DC_NCCL_INT32, DC_NCCL_SUM, nullptr),
                  DC_ERROR_INVALID_HANDLE, "stream");
  uint8_t id[DC_NCCL_UNIQUE_ID_BYTES] = {};
  EXPECT_DC_ERROR(dc_nccl_unique_id(id, 64), DC_ERROR_INVALID_ARGUMENT, "size is 64; an NCCL unique id is");
  EXPECT_DC_ERROR(dc_nccl_unique_id(nullptr, sizeof id), DC_ERROR_INVALID_ARGUMENT, "bytes is NULL");
  dc_comm c = reinterpret_cast<dc_comm>(1);
  dc_device d = (*ranks_)[0].device;
  EXPECT_DC_ERROR(dc_comm_init_rank(d, 2, id, 127, 0, &c), DC_ERROR_INVALID_ARGUMENT, "id_size is 127");
  EXPECT_EQ(c, nullptr);
  EXPECT_DC_ERROR(dc_comm_init_rank(d, 0, id, sizeof id, 0, &c), DC_ERROR_INVALID_ARGUMENT, "nranks 0");
  EXPECT_DC_ERROR(dc_comm_init_rank(d, 2, id, sizeof id, 2, &c), DC_ERROR_INVALID_ARGUMENT, "rank 2 is not in 0..1");
  EXPECT_DC_ERROR(dc_comm_init_rank(d, 2, nullptr, sizeof id, 0, &c), DC_ERROR_INVALID_ARGUMENT, "id is NULL");
  int32_t same[2] = {1, 1};
  dc_comm comms[2];
  EXPECT_DC_ERROR(dc_comm_init_all(same, 2, comms), DC_ERROR_INVALID_ARGUMENT,
                  "ordinals[0] and ordinals[1] are the same device (1)");
  EXPECT_DC_ERROR(dc_comm_init_all(same, 0, comms), DC_ERROR_INVALID_ARGUMENT, "count 0");
  int32_t missing[1] = {7};
  EXPECT_DC_ERROR(dc_comm_init_all(missing, 1, comms), DC_ERROR_NO_DEVICE, "device ordinal 7");
  EXPECT_DC_ERROR(dc_comm_split(comm(), -2, 0, &c), DC_ERROR_INVALID_ARGUMENT, "color -2 is negative");
}

}  // namespace
