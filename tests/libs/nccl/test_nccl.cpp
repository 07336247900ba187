// Every collective with every datatype and op, on as many ranks as devices
// (CTest runs this binary with 1, 2 and 3 fake devices), from one thread in a
// group, against the tests' own CPU reference (nccl_reference.h). Values are
// small integers, so that every product and sum is exact in every type;
// avg's fractions are compared within the type's rounding.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <thread>

#include "nccl_fixture.h"
#include "nccl_reference.h"

using namespace nccl_test;

namespace {

constexpr uint64_t kCount = 5;  // elements per rank and block
const int32_t kTypes[] = {DC_NCCL_INT8,   DC_NCCL_UINT8,   DC_NCCL_INT32,   DC_NCCL_UINT32,  DC_NCCL_INT64,
                          DC_NCCL_UINT64, DC_NCCL_FLOAT16, DC_NCCL_FLOAT32, DC_NCCL_FLOAT64, DC_NCCL_BFLOAT16};
const int32_t kOps[] = {DC_NCCL_SUM, DC_NCCL_PROD, DC_NCCL_MIN, DC_NCCL_MAX, DC_NCCL_AVG};

// Rank r's element i in block b: 1..3, different per rank, element and block.
double value(int r, uint64_t i, uint64_t b = 0) { return static_cast<double>(1 + (r * 7 + i * 3 + b * 5) % 3); }

std::vector<uint8_t> encode_all(int32_t t, const std::vector<double>& values) {
  std::vector<uint8_t> out(values.size() * nccl_ref::size_of(t));
  for (size_t i = 0; i < values.size(); ++i) nccl_ref::encode(t, values[i], out.data() + i * nccl_ref::size_of(t));
  return out;
}

void expect_values(int32_t t, const std::vector<uint8_t>& got, const std::vector<double>& want,
                   const std::string& what) {
  size_t s = nccl_ref::size_of(t);
  ASSERT_EQ(got.size(), want.size() * s) << what;
  for (size_t i = 0; i < want.size(); ++i) {
    double g = nccl_ref::decode(t, got.data() + i * s);
    EXPECT_NEAR(g, want[i], nccl_ref::tolerance(t, want[i])) << what << " element " << i;
  }
}

int device_count() { return dctest::device_count(); }

// Runs `call(rank)` for every rank between group start and end.
void grouped(Ranks& ranks, const std::function<void(Rank&, int)>& call) {
  ASSERT_DC_OK(dc_nccl_group_start());
  for (int r = 0; r < ranks.size(); ++r) call(ranks[r], r);
  ASSERT_DC_OK(dc_nccl_group_end());
  for (int r = 0; r < ranks.size(); ++r) ASSERT_DC_OK(dc_stream_synchronize(ranks[r].stream));
}

class NcclCollectives : public ::testing::Test {
 protected:
  void SetUp() override {
    REQUIRE_DEVICE();
    int32_t version = 0;
    ASSERT_DC_OK(dc_nccl_library_version(&version));
  }
};

TEST_F(NcclCollectives, AllReduceEveryTypeAndOp) {
  int n = device_count();
  Ranks ranks(n);
  for (int32_t t : kTypes)
    for (int32_t op : kOps) {
      std::string what = std::string("all_reduce ") + nccl_ref::type_name(t) + " " + nccl_ref::op_name(op);
      uint64_t bytes = kCount * nccl_ref::size_of(t);
      std::vector<dc_buffer> send(n), recv(n);
      std::vector<double> want(kCount);
      for (uint64_t i = 0; i < kCount; ++i) {
        std::vector<double> v;
        for (int r = 0; r < n; ++r) v.push_back(value(r, i));
        want[i] = nccl_ref::reduce(t, op, v);
      }
      for (int r = 0; r < n; ++r) {
        send[r] = alloc(ranks[r].device, bytes);
        recv[r] = alloc(ranks[r].device, bytes);
        std::vector<double> mine;
        for (uint64_t i = 0; i < kCount; ++i) mine.push_back(value(r, i));
        write(send[r], encode_all(t, mine));
      }
      grouped(ranks, [&](Rank& rk, int r) {
        EXPECT_DC_OK(dc_comm_all_reduce(rk.comm, send[r], 0, recv[r], 0, kCount, t, op, rk.stream));
      });
      for (int r = 0; r < n; ++r) {
        expect_values(t, read(recv[r], bytes), want, what + " rank " + std::to_string(r));
        dc_buffer_release(send[r]);
        dc_buffer_release(recv[r]);
      }
    }
}

TEST_F(NcclCollectives, ReduceScatterEveryTypeAndOp) {
  int n = device_count();
  Ranks ranks(n);
  for (int32_t t : kTypes)
    for (int32_t op : kOps) {
      std::string what = std::string("reduce_scatter ") + nccl_ref::type_name(t) + " " + nccl_ref::op_name(op);
      size_t s = nccl_ref::size_of(t);
      std::vector<dc_buffer> send(n), recv(n);
      for (int r = 0; r < n; ++r) {
        send[r] = alloc(ranks[r].device, kCount * n * s);
        recv[r] = alloc(ranks[r].device, kCount * s);
        std::vector<double> mine;
        for (int b = 0; b < n; ++b)
          for (uint64_t i = 0; i < kCount; ++i) mine.push_back(value(r, i, b));
        write(send[r], encode_all(t, mine));
      }
      grouped(ranks, [&](Rank& rk, int r) {
        EXPECT_DC_OK(dc_comm_reduce_scatter(rk.comm, send[r], 0, recv[r], 0, kCount, t, op, rk.stream));
      });
      for (int r = 0; r < n; ++r) {
        std::vector<double> want(kCount);
        for (uint64_t i = 0; i < kCount; ++i) {
          std::vector<double> v;
          for (int q = 0; q < n; ++q) v.push_back(value(q, i, r));
          want[i] = nccl_ref::reduce(t, op, v);
        }
        expect_values(t, read(recv[r], kCount * s), want, what + " rank " + std::to_string(r));
        dc_buffer_release(send[r]);
        dc_buffer_release(recv[r]);
      }
    }
}

TEST_F(NcclCollectives, ReduceToEveryRootEveryTypeAndOp) {
  int n = device_count();
  Ranks ranks(n);
  for (int root = 0; root < n; ++root)
    for (int32_t t : kTypes)
      for (int32_t op : kOps) {
        std::string what = std::string("reduce ") + nccl_ref::type_name(t) + " " + nccl_ref::op_name(op) +
                           " root " + std::to_string(root);
        size_t s = nccl_ref::size_of(t);
        std::vector<dc_buffer> send(n), recv(n);
        std::vector<double> want(kCount);
        for (uint64_t i = 0; i < kCount; ++i) {
          std::vector<double> v;
          for (int r = 0; r < n; ++r) v.push_back(value(r, i));
          want[i] = nccl_ref::reduce(t, op, v);
        }
        for (int r = 0; r < n; ++r) {
          send[r] = alloc(ranks[r].device, kCount * s);
          // Only the root has a receive buffer: the others pass NULL.
          recv[r] = r == root ? alloc(ranks[r].device, kCount * s) : nullptr;
          std::vector<double> mine;
          for (uint64_t i = 0; i < kCount; ++i) mine.push_back(value(r, i));
          write(send[r], encode_all(t, mine));
        }
        grouped(ranks, [&](Rank& rk, int r) {
          EXPECT_DC_OK(dc_comm_reduce(rk.comm, send[r], 0, recv[r], 0, kCount, t, op, root, rk.stream));
        });
        expect_values(t, read(recv[root], kCount * s), want, what);
        for (int r = 0; r < n; ++r) {
          dc_buffer_release(send[r]);
          dc_buffer_release(recv[r]);
        }
      }
}

TEST_F(NcclCollectives, BroadcastAndAllGatherEveryType) {
  int n = device_count();
  Ranks ranks(n);
  for (int32_t t : kTypes) {
    size_t s = nccl_ref::size_of(t);
    for (int root = 0; root < n; ++root) {
      std::vector<dc_buffer> send(n), recv(n);
      for (int r = 0; r < n; ++r) {
        send[r] = r == root ? alloc(ranks[r].device, kCount * s) : nullptr;
        recv[r] = alloc(ranks[r].device, kCount * s);
      }
      std::vector<double> data;
      for (uint64_t i = 0; i < kCount; ++i) data.push_back(value(root, i) + 4);
      write(send[root], encode_all(t, data));
      grouped(ranks, [&](Rank& rk, int r) {
        EXPECT_DC_OK(dc_comm_broadcast(rk.comm, send[r], 0, recv[r], 0, kCount, t, root, rk.stream));
      });
      for (int r = 0; r < n; ++r) {
        expect_values(t, read(recv[r], kCount * s), data,
                      std::string("broadcast ") + nccl_ref::type_name(t) + " root " + std::to_string(root) +
                          " rank " + std::to_string(r));
        dc_buffer_release(send[r]);
        dc_buffer_release(recv[r]);
      }
    }
    // All-gather, each rank's block at a byte offset of its send buffer and
    // the gathered blocks at an offset of the receive buffer.
    uint64_t off = 3 * s;
    std::vector<dc_buffer> send(n), recv(n);
    std::vector<double> want;
    for (int r = 0; r < n; ++r) {
      send[r] = alloc(ranks[r].device, off + kCount * s);
      recv[r] = alloc(ranks[r].device, off + n * kCount * s);
      std::vector<double> mine;
      for (uint64_t i = 0; i < kCount; ++i) mine.push_back(value(r, i) + 10 * r);
      want.insert(want.end(), mine.begin(), mine.end());
      std::vector<uint8_t> bytes = encode_all(t, mine);
      EXPECT_DC_OK(dc_buffer_write(send[r], off, bytes.data(), bytes.size()));
    }
    grouped(ranks, [&](Rank& rk, int r) {
      EXPECT_DC_OK(dc_comm_all_gather(rk.comm, send[r], off, recv[r], off, kCount, t, rk.stream));
    });
    for (int r = 0; r < n; ++r) {
      std::vector<uint8_t> got = read(recv[r], off + n * kCount * s);
      got.erase(got.begin(), got.begin() + static_cast<long>(off));
      expect_values(t, got, want, std::string("all_gather ") + nccl_ref::type_name(t) + " rank " + std::to_string(r));
      dc_buffer_release(send[r]);
      dc_buffer_release(recv[r]);
    }
  }
}

// A ring: rank r sends to r+1 and receives from r-1, in one group (with one
// rank, to itself).
TEST_F(NcclCollectives, SendRecvRing) {
  int n = device_count();
  Ranks ranks(n);
  std::vector<dc_buffer> send(n), recv(n);
  for (int r = 0; r < n; ++r) {
    send[r] = alloc(ranks[r].device, kCount * 8);
    recv[r] = alloc(ranks[r].device, kCount * 8);
    std::vector<double> mine;
    for (uint64_t i = 0; i < kCount; ++i) mine.push_back(100 * r + static_cast<double>(i));
    write(send[r], encode_all(DC_NCCL_FLOAT64, mine));
  }
  grouped(ranks, [&](Rank& rk, int r) {
    EXPECT_DC_OK(dc_comm_send(rk.comm, send[r], 0, kCount, DC_NCCL_FLOAT64, (r + 1) % n, rk.stream));
    EXPECT_DC_OK(dc_comm_recv(rk.comm, recv[r], 0, kCount, DC_NCCL_FLOAT64, (r + n - 1) % n, rk.stream));
  });
  for (int r = 0; r < n; ++r) {
    int from = (r + n - 1) % n;
    std::vector<double> want;
    for (uint64_t i = 0; i < kCount; ++i) want.push_back(100 * from + static_cast<double>(i));
    expect_values(DC_NCCL_FLOAT64, read(recv[r], kCount * 8), want, "recv rank " + std::to_string(r));
    dc_buffer_release(send[r]);
    dc_buffer_release(recv[r]);
  }
}

// One thread per rank, no group: each all-reduce completes when all ranks
// have issued it (in place: send and recv the same buffer and offset).
TEST_F(NcclCollectives, AllReduceFromOneThreadPerRank) {
  int n = device_count();
  Ranks ranks(n);
  std::vector<dc_buffer> buf(n);
  for (int r = 0; r < n; ++r) {
    buf[r] = alloc(ranks[r].device, kCount * 4);
    std::vector<double> mine;
    for (uint64_t i = 0; i < kCount; ++i) mine.push_back(value(r, i));
    write(buf[r], encode_all(DC_NCCL_INT32, mine));
  }
  std::vector<std::thread> threads;
  std::vector<dc_status> status(n, DC_ERROR_INTERNAL);
  for (int r = 0; r < n; ++r)
    threads.emplace_back([&, r] {
      status[r] = dc_comm_all_reduce(ranks[r].comm, buf[r], 0, buf[r], 0, kCount, DC_NCCL_INT32, DC_NCCL_SUM,
                                     ranks[r].stream);
      if (status[r] == DC_SUCCESS) status[r] = dc_stream_synchronize(ranks[r].stream);
    });
  for (auto& t : threads) t.join();
  for (int r = 0; r < n; ++r) {
    EXPECT_EQ(status[r], DC_SUCCESS) << "rank " << r;
    std::vector<double> want;
    for (uint64_t i = 0; i < kCount; ++i) {
      std::vector<double> v;
      for (int q = 0; q < n; ++q) v.push_back(value(q, i));
      want.push_back(nccl_ref::reduce(DC_NCCL_INT32, DC_NCCL_SUM, v));
    }
    expect_values(DC_NCCL_INT32, read(buf[r], kCount * 4), want, "in place rank " + std::to_string(r));
    dc_buffer_release(buf[r]);
  }
}

}  // namespace
