// The fixture of the reliability tests that work on device 0: they start
// clean (no dccuda handle; the fake's counters reset) and must end clean (no
// handle and, on the fake, no driver object left).
#pragma once

#include <gtest/gtest.h>

#include "compile/kernel_sources.h"
#include "dccuda.h"
#include "support/fake.h"

namespace dctest {

class DeviceFixture : public testing::Test {
 protected:
  void SetUp() override {
    REQUIRE_DEVICE();
    if (auto* f = fake_driver()) f->reset();
    ASSERT_EQ(live_handles(), 0u);
    ASSERT_DC_OK(dc_device_open(0, &device_));
    int32_t major = 0, minor = 0;
    have_nvrtc_ = dc_nvrtc_version(&major, &minor) == DC_SUCCESS;
  }
  void TearDown() override {
    dc_device_release(device_);
    EXPECT_EQ(live_handles(), 0u) << "handles leaked";
    if (auto* f = fake_driver()) {
      for (const char* k : kDriverObjectKinds) EXPECT_EQ(f->live(k), 0) << "driver objects leaked: " << k;
    }
  }
  // The test kernels (compile/kernel_sources.h) compiled with NVRTC and
  // loaded; `name` is the source's name in diagnostics.
  dc_module load_kernels(const char* name) {
    dc_compile_options o = DC_COMPILE_OPTIONS_INIT;
    o.std = "c++17";
    dc_module m = nullptr;
    EXPECT_DC_OK(dc_module_compile_and_load(device_, kKernels, name, &o, &m));
    return m;
  }

  dc_device device_ = nullptr;
  bool have_nvrtc_ = false;
};

}  // namespace dctest
