// Running out of device memory, for real: allocate until the driver refuses
// (large chunks first, then halving them; capped by the device's total
// memory), check that the refusal is a clean DC_ERROR_OUT_OF_MEMORY with a
// clear message, free everything, and allocate again. From dccuda's pool and
// from cuMemAlloc (DC_ALLOC_NO_POOL). Never managed memory (it would spill to
// the host instead of failing).
//
// On a GPU (80-141 GiB) this takes a few seconds. On the fake driver the
// device has DCFAKE_DEVICE_MEMORY bytes (tests.cmake: 256 MiB), enforced like
// a GPU's, so the same code runs in CI.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "dccuda.h"
#include "support/fake.h"

namespace {

constexpr uint64_t kMiB = uint64_t(1) << 20;

struct Fill {
  std::vector<dc_buffer> buffers;
  uint64_t bytes = 0;
  uint64_t largest = 0;
  int refusals = 0;
  dc_status first_refusal = DC_SUCCESS;
  int32_t first_cuda = 0;
  std::string first_message;
  std::string other_failure;
};

// Allocates chunks of `chunk` bytes until refused, then halves the chunk, down to `smallest`.
Fill fill_device(dc_device d, uint64_t chunk, uint64_t smallest, uint32_t flags, uint64_t cap) {
  Fill f;
  while (chunk >= smallest && f.bytes < cap) {
    dc_buffer b = reinterpret_cast<dc_buffer>(1);
    dc_status st = dc_buffer_alloc(d, chunk, flags, &b);
    if (st == DC_SUCCESS) {
      f.buffers.push_back(b);
      f.bytes += chunk;
      if (chunk > f.largest) f.largest = chunk;
      // The memory is real: its last page can be written.
      if (dc_buffer_fill(b, chunk - 4096, 4096, 0xA5, 1) != DC_SUCCESS) {
        f.other_failure = std::string("filling an allocated chunk: ") + dc_last_error_message();
        return f;
      }
      continue;
    }
    if (st != DC_ERROR_OUT_OF_MEMORY) {
      f.other_failure = std::string(dc_status_name(st)) + ": " + dc_last_error_message();
      return f;
    }
    if (b != nullptr) {
      f.other_failure = "the out-pointer was not cleared on failure";
      return f;
    }
    if (f.refusals++ == 0) {
      f.first_refusal = st;
      f.first_cuda = dc_last_error_cuda();
      f.first_message = dc_last_error_message();
    }
    chunk /= 2;
  }
  return f;
}

class OutOfMemory : public testing::TestWithParam<uint32_t> {
 protected:
  void SetUp() override {
    REQUIRE_DEVICE();
    if (auto* f = dctest::fake_driver()) f->reset();
    ASSERT_DC_OK(dc_device_open(0, &device_));
  }
  void TearDown() override {
    dc_device_release(device_);
    EXPECT_EQ(dctest::live_handles(), 0u);
    if (auto* f = dctest::fake_driver()) {
      EXPECT_EQ(f->live("allocations"), 0);
      EXPECT_EQ(f->live("pools"), 0);
    }
  }
  dc_device device_ = nullptr;
};

TEST_P(OutOfMemory, AllocateUntilRefusedFreeAndAllocateAgain) {
  const uint32_t flags = GetParam();
  uint64_t free_before = 0, total = 0;
  ASSERT_DC_OK(dc_device_memory_info(device_, &free_before, &total));
  ASSERT_GT(total, 0u);
  // Eight big chunks fill the device; refusals then halve them down to 1/1024 of the memory.
  uint64_t chunk = (total / 8) & ~(kMiB - 1);
  uint64_t smallest = std::max<uint64_t>(total / 1024, kMiB);
  Fill f = fill_device(device_, chunk, smallest, flags, 2 * total);
  ASSERT_EQ(f.other_failure, "") << "after " << f.bytes / kMiB << " MiB";
  ASSERT_GT(f.refusals, 0) << "the driver never refused: " << f.bytes / kMiB << " MiB allocated of " << total / kMiB;
  EXPECT_LE(f.bytes, total);
  EXPECT_GE(f.bytes, free_before / 2) << "refused long before the memory was used up";
  EXPECT_EQ(f.first_refusal, DC_ERROR_OUT_OF_MEMORY);
  EXPECT_EQ(f.first_message.rfind("dc_buffer_alloc: ", 0), 0u) << f.first_message;
  EXPECT_NE(f.first_message.find("OUT_OF_MEMORY"), std::string::npos) << f.first_message;
  EXPECT_EQ(f.first_cuda, 2) << "CUDA_ERROR_OUT_OF_MEMORY: " << f.first_message;
  uint64_t free_full = 0;
  ASSERT_DC_OK(dc_device_memory_info(device_, &free_full, &total));
  std::printf("[ dccuda   ] %s: %llu MiB in %zu buffers before %d refusals (free memory %llu MiB -> %llu MiB of %llu "
              "MiB); first refusal: \"%s\"\n",
              flags ? "cuMemAlloc" : "pool", static_cast<unsigned long long>(f.bytes / kMiB), f.buffers.size(),
              f.refusals, static_cast<unsigned long long>(free_before / kMiB),
              static_cast<unsigned long long>(free_full / kMiB), static_cast<unsigned long long>(total / kMiB),
              f.first_message.c_str());

  // Everything freed (the pool keeps freed memory until trimmed).
  for (dc_buffer b : f.buffers) dc_buffer_release(b);
  ASSERT_DC_OK(dc_device_trim_memory(device_, 0));
  uint64_t free_after = 0;
  ASSERT_DC_OK(dc_device_memory_info(device_, &free_after, &total));
  EXPECT_GE(free_after + free_before / 20, free_before) << "memory was not given back";

  // And allocated again: the largest chunk that worked, then a small buffer that works.
  dc_buffer again = nullptr;
  ASSERT_DC_OK(dc_buffer_alloc(device_, f.largest, flags, &again));
  std::vector<uint32_t> data(1024), back(1024);
  for (uint32_t i = 0; i < 1024; ++i) data[i] = i * 2654435761u;
  ASSERT_DC_OK(dc_buffer_write(again, f.largest - 4096, data.data(), 4096));
  ASSERT_DC_OK(dc_buffer_read(again, f.largest - 4096, back.data(), 4096));
  EXPECT_EQ(back, data);
  dc_buffer_release(again);
  ASSERT_DC_OK(dc_device_trim_memory(device_, 0));
}

INSTANTIATE_TEST_SUITE_P(Allocators, OutOfMemory, testing::Values(0u, static_cast<uint32_t>(DC_ALLOC_NO_POOL)),
                         [](const testing::TestParamInfo<uint32_t>& info) {
                           return info.param ? std::string("CuMemAlloc") : std::string("Pool");
                         });

}  // namespace
