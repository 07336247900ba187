// The dc_blas tests' fixture: device 0, a stream, buffers filled with typed
// values, the fake cuBLAS's controls when it is the library in use
// (DCCUDA_CUBLAS_LIBRARY names it; on a GPU machine the real cuBLAS runs and
// the tests that need the fake skip themselves).
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "dccuda.h"
#include "libs/blas/blas_reference.h"
#include "support/fake.h"
#include "support/shared_library.h"

namespace blastest {

struct FakeCublas {
  long (*calls)(const char*);
  long (*live_handles)();
  void* (*stream)(void*);
  unsigned long long (*workspace_size)(void*);
  int (*pointer_mode)(void*);
  int (*math_mode)(void*);
  int (*last_compute)();
  void (*inject)(const char*, int, int);
  void (*reset)();
  void* (*last_handle)();
};

// The fake cuBLAS's controls, or nullptr when the library in use is real.
inline const FakeCublas* fake_cublas() {
  static const FakeCublas* f = []() -> const FakeCublas* {
    const char* path = std::getenv("DCCUDA_CUBLAS_LIBRARY");
    if (!path || !std::strstr(path, "dcfake_cublas")) return nullptr;
    void* lib = dctest::open_library(path);
    if (!lib) return nullptr;
    static FakeCublas c;
    auto get = [&](const char* name) { return dctest::library_symbol(lib, name); };
    c.calls = reinterpret_cast<long (*)(const char*)>(get("dcfake_cublas_calls"));
    c.live_handles = reinterpret_cast<long (*)()>(get("dcfake_cublas_live_handles"));
    c.stream = reinterpret_cast<void* (*)(void*)>(get("dcfake_cublas_stream"));
    c.workspace_size = reinterpret_cast<unsigned long long (*)(void*)>(get("dcfake_cublas_workspace_size"));
    c.pointer_mode = reinterpret_cast<int (*)(void*)>(get("dcfake_cublas_pointer_mode"));
    c.math_mode = reinterpret_cast<int (*)(void*)>(get("dcfake_cublas_math_mode"));
    c.last_compute = reinterpret_cast<int (*)()>(get("dcfake_cublas_last_compute"));
    c.inject = reinterpret_cast<void (*)(const char*, int, int)>(get("dcfake_cublas_inject"));
    c.reset = reinterpret_cast<void (*)()>(get("dcfake_cublas_reset"));
    c.last_handle = reinterpret_cast<void* (*)()>(get("dcfake_cublas_last_handle"));
    return c.calls ? &c : nullptr;
  }();
  return f;
}

#define REQUIRE_FAKE_CUBLAS()                                                                   \
  do {                                                                                          \
    if (!blastest::fake_cublas()) GTEST_SKIP() << "needs the fake cuBLAS (its call counts)";   \
  } while (0)

// Bytes of one element of a DC_BLAS_* type.
inline size_t element_size(int32_t type) { return type == DC_BLAS_F64 ? 8 : type == DC_BLAS_F32 ? 4 : 2; }

// `v` stored as `type` at element i of `bytes`; and read back.
inline void put(std::vector<uint8_t>& bytes, size_t i, int32_t type, double v) {
  uint8_t* p = bytes.data() + i * element_size(type);
  if (type == DC_BLAS_F64) { std::memcpy(p, &v, 8); return; }
  float f = static_cast<float>(v);
  if (type == DC_BLAS_F32) { std::memcpy(p, &f, 4); return; }
  uint16_t h = type == DC_BLAS_F16 ? to_half(f) : to_bf16(f);
  std::memcpy(p, &h, 2);
}
inline double get(const std::vector<uint8_t>& bytes, size_t i, int32_t type) {
  const uint8_t* p = bytes.data() + i * element_size(type);
  if (type == DC_BLAS_F64) { double d; std::memcpy(&d, p, 8); return d; }
  if (type == DC_BLAS_F32) { float f; std::memcpy(&f, p, 4); return f; }
  uint16_t h;
  std::memcpy(&h, p, 2);
  return type == DC_BLAS_F16 ? from_half(h) : from_bf16(h);
}

class BlasTest : public testing::Test {
 protected:
  void SetUp() override {
    REQUIRE_DEVICE();
    if (auto* f = fake_cublas()) f->reset();
    ASSERT_EQ(dctest::live_handles(), 0u) << "an earlier test leaked handles";
    ASSERT_EQ(dc_device_open(0, &device_), DC_SUCCESS) << dc_last_error_message();
    ASSERT_EQ(dc_stream_create(device_, 0, 0, &stream_), DC_SUCCESS) << dc_last_error_message();
    ASSERT_EQ(dc_blas_create(device_, stream_, &blas_), DC_SUCCESS) << dc_last_error_message();
  }
  void TearDown() override {
    dc_blas_release(blas_);
    for (dc_buffer b : buffers_) dc_buffer_release(b);
    dc_stream_release(stream_);
    dc_device_release(device_);
    EXPECT_EQ(dctest::live_handles(), 0u) << "the test leaked handles";
    if (auto* f = fake_cublas()) {
      EXPECT_EQ(f->live_handles(), 0) << "a cuBLAS handle was not destroyed";
    }
  }

  // A device buffer holding `bytes` (released at tear-down).
  dc_buffer upload(const std::vector<uint8_t>& bytes) {
    dc_buffer b = nullptr;
    EXPECT_EQ(dc_buffer_alloc(device_, bytes.size(), 0, &b), DC_SUCCESS) << dc_last_error_message();
    EXPECT_EQ(dc_buffer_write(b, 0, bytes.data(), bytes.size()), DC_SUCCESS) << dc_last_error_message();
    buffers_.push_back(b);
    return b;
  }
  std::vector<uint8_t> download(dc_buffer b, size_t size) {
    EXPECT_EQ(dc_stream_synchronize(stream_), DC_SUCCESS) << dc_last_error_message();
    std::vector<uint8_t> out(size);
    EXPECT_EQ(dc_buffer_read(b, 0, out.data(), size), DC_SUCCESS) << dc_last_error_message();
    return out;
  }
  // `count` elements of `type` with random values k/8, k in [-8, 8] (exact in
  // every type, so only the arithmetic can differ), after `pad` bytes of 0x5a.
  std::vector<uint8_t> random_elements(int32_t type, size_t count, size_t pad, uint32_t seed) {
    std::vector<uint8_t> v(pad + count * element_size(type), 0x5a);
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int> d(-8, 8);
    std::vector<uint8_t> body(count * element_size(type));
    for (size_t i = 0; i < count; ++i) put(body, i, type, d(rng) / 8.0);
    std::memcpy(v.data() + pad, body.data(), body.size());
    return v;
  }

  dc_device device_ = nullptr;
  dc_stream stream_ = nullptr;
  dc_blas blas_ = nullptr;
  std::vector<dc_buffer> buffers_;
};

}  // namespace blastest
