// Shared pieces of the memory, copy, stream and event tests. They run against
// the fake driver in CI and against a real driver on a GPU machine (the same
// binaries): only tests that inject faults call REQUIRE_FAKE_DRIVER().
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "dccuda.h"
#include "support/fake.h"
#include "support/shared_library.h"

namespace memtest {

// Every kind of driver object the fake counts that this area creates.
inline const char* const kLiveKinds[] = {"allocations", "host_allocations", "managed", "registrations",
                                         "pools",       "streams",          "events",  "primary_retains",
                                         "reservations", "physical", "ipc_opens"};

// Opens device 0 (skips without a device); at tear-down checks that no handle
// and, on the fake, no driver object leaked once everything is released.
class MemoryTest : public testing::Test {
 protected:
  void SetUp() override {
    REQUIRE_DEVICE();
    if (auto* f = dctest::fake_driver()) f->reset();
    ASSERT_EQ(dctest::live_handles(), 0u) << "an earlier test leaked handles";
    ASSERT_EQ(dc_device_open(0, &device_), DC_SUCCESS) << dc_last_error_message();
  }
  void TearDown() override {
    if (device_) dc_device_release(device_);
    device_ = nullptr;
    EXPECT_EQ(dctest::live_handles(), 0u) << "the test leaked handles";
    if (auto* f = dctest::fake_driver()) {
      for (const char* kind : kLiveKinds) EXPECT_EQ(f->live(kind), 0) << "leaked fake driver objects: " << kind;
      EXPECT_EQ(f->legacy_calls(), 0) << "a legacy (unversioned) entry point was called";
    }
  }

  dc_buffer alloc(uint64_t size, uint32_t flags = 0) {
    dc_buffer b = nullptr;
    EXPECT_EQ(dc_buffer_alloc(device_, size, flags, &b), DC_SUCCESS) << dc_last_error_message();
    return b;
  }
  dc_stream stream(uint32_t flags = 0) {
    dc_stream s = nullptr;
    EXPECT_EQ(dc_stream_create(device_, flags, 0, &s), DC_SUCCESS) << dc_last_error_message();
    return s;
  }

  dc_device device_ = nullptr;
};

// Random bytes, reproducible per seed.
inline std::vector<uint8_t> random_bytes(size_t n, uint32_t seed) {
  std::vector<uint8_t> v(n);
  std::mt19937_64 rng(seed);
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t x = rng();
    std::memcpy(&v[i], &x, 8);
  }
  for (; i < n; ++i) v[i] = static_cast<uint8_t>(rng());
  return v;
}

// The first differing index, or -1 (a readable failure for big buffers).
inline long first_difference(const uint8_t* a, const uint8_t* b, size_t n) {
  for (size_t i = 0; i < n; ++i)
    if (a[i] != b[i]) return static_cast<long>(i);
  return -1;
}

// A function of the loaded driver (fake or real), by its exported symbol.
template <class Fn>
Fn driver_symbol(const char* name) {
  const char* path = nullptr;
  if (dc_driver_library(&path) != DC_SUCCESS) return nullptr;
  void* lib = dctest::loaded_library(path);
  return lib ? reinterpret_cast<Fn>(dctest::library_symbol(lib, name)) : nullptr;
}

// dcfake_inject_async (fake_control.h): nullptr on a real driver.
using InjectAsync = void (*)(const char*, int, int);
inline InjectAsync inject_async() {
  if (!dctest::fake_driver()) return nullptr;
  return driver_symbol<InjectAsync>("dcfake_inject_async");
}

// dcfake_hold_stream (fake_control.h): nullptr on a real driver.
using HoldStream = void (*)(void*, int);
inline HoldStream hold_stream() {
  if (!dctest::fake_driver()) return nullptr;
  return driver_symbol<HoldStream>("dcfake_hold_stream");
}

// Runs larger cases only when DCTEST_LARGE=1 (1 GiB copies on a GPU machine).
inline bool large_tests() {
  const char* v = std::getenv("DCTEST_LARGE");
  return v && std::strcmp(v, "1") == 0;
}

}  // namespace memtest
