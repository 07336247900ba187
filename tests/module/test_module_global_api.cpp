// Module globals through the buffer API: built once the buffer code is in the
// tree (see tests.cmake). The variable's bytes are read and written like any
// device buffer, and the buffer keeps the module loaded.
#include <gtest/gtest.h>

#include <cstring>

#include "dccuda.h"
#include "support/fake.h"

namespace {

TEST(ModuleGlobals, ReadWriteAndLifetime) {
  REQUIRE_DEVICE();
  int32_t major = 0, minor = 0;
  if (dc_nvrtc_version(&major, &minor) != DC_SUCCESS)
    GTEST_SKIP() << "needs NVRTC, not found: " << dctest::nvrtc_unavailable();
  dc_device device = nullptr;
  ASSERT_DC_OK(dc_device_open(0, &device));
  const char* source = "extern \"C\" __device__ int answer = 42;\n"
                       "extern \"C\" __constant__ float table[16] = {1, 2, 3};\n"
                       "extern \"C\" __global__ void k(int* p) { p[0] = answer + (int)table[2]; }\n";
  dc_module m = nullptr;
  ASSERT_DC_OK(dc_module_compile_and_load(device, source, nullptr, nullptr, &m));
  dc_buffer answer = nullptr, table = nullptr;
  ASSERT_DC_OK(dc_module_get_global(m, "answer", &answer));
  ASSERT_DC_OK(dc_module_get_global(m, "table", &table));
  int32_t kind = 0;
  ASSERT_DC_OK(dc_buffer_kind(answer, &kind));
  EXPECT_EQ(kind, DC_BUFFER_MODULE_GLOBAL);
  uint64_t size = 0;
  ASSERT_DC_OK(dc_buffer_size(answer, &size));
  EXPECT_EQ(size, sizeof(int));
  ASSERT_DC_OK(dc_buffer_size(table, &size));
  EXPECT_EQ(size, 16 * sizeof(float));
  int value = 0;
  ASSERT_DC_OK(dc_buffer_read(answer, 0, &value, sizeof value));
  EXPECT_EQ(value, 42);
  float values[16] = {};
  ASSERT_DC_OK(dc_buffer_read(table, 0, values, sizeof values));
  EXPECT_EQ(values[2], 3.0f);
  value = 7;
  ASSERT_DC_OK(dc_buffer_write(answer, 0, &value, sizeof value));
  value = 0;
  ASSERT_DC_OK(dc_buffer_read(answer, 0, &value, sizeof value));
  EXPECT_EQ(value, 7);
  EXPECT_EQ(dc_buffer_write(answer, 1, &value, sizeof value), DC_ERROR_OUT_OF_RANGE);
  // The buffer keeps the module loaded after the module handle is gone.
  dc_module_release(m);
  ASSERT_DC_OK(dc_buffer_read(table, 0, values, sizeof values));
  EXPECT_EQ(values[0], 1.0f);
  if (auto* fake = dctest::fake_driver()) {
    EXPECT_EQ(fake->live("modules"), 1);
  }
  dc_buffer_release(answer);
  dc_buffer_release(table);
  if (auto* fake = dctest::fake_driver()) {
    EXPECT_EQ(fake->live("modules"), 0);
  }
  dc_device_release(device);
  EXPECT_EQ(dctest::live_handles(), 0u);
}

}  // namespace
