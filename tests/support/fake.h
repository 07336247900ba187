// Access to the fake driver's control interface from tests. When the tests
// run against a real driver (on a GPU machine), fake_driver() is nullptr and
// tests that need fault injection skip themselves with a message saying so.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "dccuda.h"
#include "support/driver_objects.h"

namespace dctest {

struct FakeDriver {
  void (*reset)();
  void (*inject)(const char* entry, int nth, int result, int times);
  long (*call_count)(const char* entry);
  long (*live)(const char* kind);
  long (*legacy_calls)();
  void (*break_context)(int ordinal, int result);
  long (*last_link_input)(int index);  // dcfake_last_link_input
};

// The fake driver's controls, or nullptr when the driver in use is real.
const FakeDriver* fake_driver();

// True when a real (non-fake) driver is in use.
bool real_driver();

// The number of devices (0 without a driver).
int32_t device_count();

// Live dccuda handles of every type, summed (a leak check).
uint64_t live_handles();

// A one-line description of where the tests run, printed once per binary.
const char* driver_description();

// Why NVRTC cannot be used here (dccuda's own message: what was tried, what to
// do), or "" when it can. Tests that compile kernels skip without it.
std::string nvrtc_unavailable();

}  // namespace dctest

#define REQUIRE_FAKE_DRIVER()                                                              \
  do {                                                                                     \
    if (!dctest::fake_driver()) GTEST_SKIP() << "needs the fake driver's fault injection"; \
  } while (0)

// Skips, saying why, where NVRTC is not found (a machine without the CUDA toolkit).
#define SKIP_WITHOUT_NVRTC()                                                                  \
  do {                                                                                        \
    std::string dctest_nvrtc_ = dctest::nvrtc_unavailable();                                  \
    if (!dctest_nvrtc_.empty()) GTEST_SKIP() << "needs NVRTC, not found: " << dctest_nvrtc_;  \
  } while (0)

#define REQUIRE_DEVICE()                                                             \
  do {                                                                               \
    if (dctest::device_count() < 1) GTEST_SKIP() << "needs a CUDA device (real or fake)"; \
  } while (0)

#define EXPECT_DC_OK(expr)                                                                      \
  do {                                                                                          \
    dc_status dc_status_ = (expr);                                                              \
    EXPECT_EQ(dc_status_, DC_SUCCESS) << #expr << ": " << dc_status_name(dc_status_) << ": " \
                                      << dc_last_error_message();                               \
  } while (0)

#define ASSERT_DC_OK(expr)                                                                      \
  do {                                                                                          \
    dc_status dc_status_ = (expr);                                                              \
    ASSERT_EQ(dc_status_, DC_SUCCESS) << #expr << ": " << dc_status_name(dc_status_) << ": " \
                                      << dc_last_error_message();                               \
  } while (0)

// Expects `expr` to fail with `status` and a last-error message containing `text`.
#define EXPECT_DC_ERROR(expr, status, text)                                                         \
  do {                                                                                              \
    dc_status dc_status_ = (expr);                                                                  \
    EXPECT_EQ(dc_status_, status) << #expr << ": " << dc_status_name(dc_status_) << ": "         \
                                  << dc_last_error_message();                                       \
    EXPECT_NE(std::string(dc_last_error_message()).find(text), std::string::npos)                 \
        << #expr << ": message \"" << dc_last_error_message() << "\" lacks \"" << text << "\""; \
    EXPECT_EQ(dc_last_error_status(), status);                                                      \
  } while (0)
