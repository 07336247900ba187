// Context limits and the device-wide cache preference: set, read back,
// refused values, restored by dc_device_reset, and a limit that changes what
// a kernel can do (device malloc beyond the default 8 MiB heap fails before
// the heap is raised and succeeds after; results read from the kernel).
#include <string>

#include "launch/launch_test.h"

namespace {

using namespace launchtest;

class LimitsTest : public LaunchTest {};

// A kernel that asks the device heap for `bytes` (extern "C": the fake
// emulates it by name as heap_probe).
const char* kHeapProbe = R"(
extern "C" __global__ void heap_probe(unsigned long long bytes, int* ok) {
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    void* p = malloc(bytes);
    ok[0] = p != nullptr;
    if (p) free(p);
  }
}
)";

TEST_F(LimitsTest, LimitsAreSetReadBackAndCheckedAsArguments) {
  uint64_t before = 0, after = 0;
  ASSERT_DC_OK(dc_device_limit(device_, DC_LIMIT_PRINTF_FIFO_SIZE, &before));
  EXPECT_GT(before, 0u);
  ASSERT_DC_OK(dc_device_set_limit(device_, DC_LIMIT_PRINTF_FIFO_SIZE, 4u << 20));
  ASSERT_DC_OK(dc_device_limit(device_, DC_LIMIT_PRINTF_FIFO_SIZE, &after));
  EXPECT_GE(after, 4u << 20);  // the driver may round up
  ASSERT_DC_OK(dc_device_set_limit(device_, DC_LIMIT_STACK_SIZE, 4096));
  ASSERT_DC_OK(dc_device_limit(device_, DC_LIMIT_STACK_SIZE, &after));
  EXPECT_GE(after, 4096u);
  uint64_t v = 7;
  EXPECT_DC_ERROR(dc_device_limit(device_, 3, &v), DC_ERROR_INVALID_ARGUMENT, "limit 3 is not a DC_LIMIT_* value");
  EXPECT_EQ(v, 0u);
  EXPECT_DC_ERROR(dc_device_set_limit(device_, -1, 1), DC_ERROR_INVALID_ARGUMENT, "limit -1");
  EXPECT_DC_ERROR(dc_device_limit(device_, DC_LIMIT_STACK_SIZE, nullptr), DC_ERROR_INVALID_ARGUMENT, "value");
  EXPECT_DC_ERROR(dc_device_set_limit(nullptr, DC_LIMIT_STACK_SIZE, 1), DC_ERROR_INVALID_HANDLE, "device");
  dc_status s = dc_device_set_limit(device_, DC_LIMIT_PRINTF_FIFO_SIZE, UINT64_MAX);
  EXPECT_TRUE(s == DC_ERROR_INVALID_ARGUMENT || s == DC_ERROR_OUT_OF_MEMORY) << dc_status_name(s);

  int32_t pref = -1;
  ASSERT_DC_OK(dc_device_cache_config(device_, &pref));
  EXPECT_EQ(pref, DC_CACHE_PREFER_NONE);
  ASSERT_DC_OK(dc_device_set_cache_config(device_, DC_CACHE_PREFER_SHARED));
  ASSERT_DC_OK(dc_device_cache_config(device_, &pref));
  // Devices with a fixed split may keep their own answer; the fake keeps the value.
  if (dctest::fake_driver()) {
    EXPECT_EQ(pref, DC_CACHE_PREFER_SHARED);
  }
  EXPECT_DC_ERROR(dc_device_set_cache_config(device_, 4), DC_ERROR_INVALID_ARGUMENT, "preference 4");
  ASSERT_DC_OK(dc_device_set_cache_config(device_, DC_CACHE_PREFER_NONE));
  ASSERT_DC_OK(dc_device_set_limit(device_, DC_LIMIT_PRINTF_FIFO_SIZE, before));
}

// The default heap (8 MiB) cannot give 16 MiB; once a kernel used malloc the
// heap size is fixed, so the test resets the device, raises the heap, and the
// same request succeeds.
TEST_F(LimitsTest, ARaisedHeapLetsAKernelMallocWhatTheDefaultCannot) {
  REQUIRE_NVRTC();
  const uint64_t want = uint64_t(16) << 20;
  auto probe = [&](int32_t* got) {
    dc_module m = load(kHeapProbe);
    ASSERT_NE(m, nullptr);
    dc_function f = function(m, "heap_probe");
    ASSERT_NE(f, nullptr);
    dc_buffer ok = alloc(4);
    ASSERT_DC_OK(dc_buffer_fill(ok, 0, 4, 7, 4));
    dc_arg args[] = {value_of(want), buffer_arg(ok)};
    dc_launch_config c = config_1d(1, 32);
    ASSERT_DC_OK(dc_launch_kernel(f, &c, args, 2, stream_));
    sync();
    ASSERT_DC_OK(dc_buffer_read(ok, 0, got, 4));
  };
  uint64_t heap = 0;
  ASSERT_DC_OK(dc_device_limit(device_, DC_LIMIT_MALLOC_HEAP_SIZE, &heap));
  ASSERT_LT(heap, want) << "the default heap is expected to be below 16 MiB";
  int32_t got = -1;
  probe(&got);
  EXPECT_EQ(got, 0) << "malloc of 16 MiB succeeded with a heap of " << heap << " bytes";
  // Fixed now in this context: refused with the reason.
  EXPECT_DC_ERROR(dc_device_set_limit(device_, DC_LIMIT_MALLOC_HEAP_SIZE, 64u << 20), DC_ERROR_INVALID_ARGUMENT,
                  "DC_LIMIT_MALLOC_HEAP_SIZE");
  release_all();  // the fixture's objects die with the context
  dc_stream_release(stream_);
  stream_ = nullptr;
  ASSERT_DC_OK(dc_device_reset(device_));
  ASSERT_DC_OK(dc_stream_create(device_, 0, 0, &stream_));
  ASSERT_DC_OK(dc_device_limit(device_, DC_LIMIT_MALLOC_HEAP_SIZE, &heap));
  EXPECT_LT(heap, want) << "dc_device_reset restores the default heap";
  ASSERT_DC_OK(dc_device_set_limit(device_, DC_LIMIT_MALLOC_HEAP_SIZE, 64u << 20));
  got = -1;
  probe(&got);
  EXPECT_EQ(got, 1) << "malloc of 16 MiB failed with the heap raised to 64 MiB";
}

}  // namespace
