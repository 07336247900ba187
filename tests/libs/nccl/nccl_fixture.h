// What the NCCL tests share: a rank per device (dc_comm_init_all over every
// device present), each with a stream, and helpers for buffers of elements.
#pragma once

#include <cstdint>
#include <vector>

#include "dccuda.h"
#include "support/fake.h"

namespace nccl_test {

struct Rank {
  dc_device device = nullptr;
  dc_stream stream = nullptr;
  dc_comm comm = nullptr;
};

class Ranks {
 public:
  // n ranks over devices 0..n-1 (dc_comm_init_all).
  explicit Ranks(int n) {
    std::vector<int32_t> ordinals;
    ranks_.resize(n);
    for (int i = 0; i < n; ++i) {
      ordinals.push_back(i);
      EXPECT_DC_OK(dc_device_open(i, &ranks_[i].device));
      EXPECT_DC_OK(dc_stream_create(ranks_[i].device, 0, 0, &ranks_[i].stream));
    }
    std::vector<dc_comm> comms(n);
    EXPECT_DC_OK(dc_comm_init_all(ordinals.data(), n, comms.data()));
    for (int i = 0; i < n; ++i) ranks_[i].comm = comms[i];
  }
  ~Ranks() {
    for (Rank& r : ranks_) {
      dc_comm_release(r.comm);
      dc_stream_release(r.stream);
      dc_device_release(r.device);
    }
  }
  Rank& operator[](int i) { return ranks_[i]; }
  int size() const { return static_cast<int>(ranks_.size()); }

 private:
  std::vector<Rank> ranks_;
};

inline dc_buffer alloc(dc_device d, uint64_t bytes) {
  dc_buffer b = nullptr;
  EXPECT_DC_OK(dc_buffer_alloc(d, bytes, 0, &b));
  return b;
}

inline void write(dc_buffer b, const std::vector<uint8_t>& bytes) {
  EXPECT_DC_OK(dc_buffer_write(b, 0, bytes.data(), bytes.size()));
}

inline std::vector<uint8_t> read(dc_buffer b, uint64_t bytes) {
  std::vector<uint8_t> out(bytes);
  EXPECT_DC_OK(dc_buffer_read(b, 0, out.data(), bytes));
  return out;
}

}  // namespace nccl_test
