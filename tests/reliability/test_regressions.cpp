// One test per bug the reliability work found (the bad-input matrix, the
// fault sweep, the fuzzers), each named after what used to go wrong. Tests
// that need fault injection skip on a real driver.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "compile/kernel_sources.h"
#include "dccuda.h"
#include "reliability/device_fixture.h"
#include "support/fake.h"

namespace {

class Regression : public dctest::DeviceFixture {
 protected:
  // saxpy from the test kernels (skips without NVRTC).
  bool saxpy(dc_module* m, dc_function* f) {
    if (!have_nvrtc_) return false;
    *m = load_kernels("regressions.cu");
    EXPECT_DC_OK(dc_module_get_function(*m, "saxpy", f));
    return *f != nullptr;
  }
};

// n + block - 1 wrapped for n near 2^64: a grid of 0 blocks, and DC_SUCCESS.
TEST_F(Regression, LaunchConfig1dOfAHugeNIsOutOfRange) {
  dc_module m = nullptr;
  dc_function f = nullptr;
  if (!saxpy(&m, &f)) GTEST_SKIP() << "needs NVRTC, not found: " << dctest::nvrtc_unavailable();
  dc_launch_config c = DC_LAUNCH_CONFIG_INIT;
  EXPECT_DC_ERROR(dc_launch_config_1d(f, UINT64_MAX, 0, &c), DC_ERROR_OUT_OF_RANGE, "grid-stride loop");
  EXPECT_EQ(c.grid[0], 1u) << "the config changed on failure";
  ASSERT_DC_OK(dc_launch_config_1d(f, 1000, 0, &c));
  EXPECT_GE(uint64_t(c.grid[0]) * c.block[0], 1000u);
  dc_function_release(f);
  dc_module_release(m);
}

// A host range past the end of the address space went to the driver, whose
// refusal could not name the argument.
TEST_F(Regression, RegisteringHostMemoryPastTheAddressSpaceIsRefusedByName) {
  std::vector<uint8_t> host(4096);
  dc_buffer b = reinterpret_cast<dc_buffer>(1);
  EXPECT_DC_ERROR(dc_buffer_register_host(device_, host.data(), UINT64_MAX - 16, 0, &b), DC_ERROR_INVALID_ARGUMENT,
                  "runs past the end of the address space");
  EXPECT_EQ(b, nullptr);
}

// Found by fuzz_api (its input is in the corpus): a size of 2^62 did not wrap
// around, so it was accepted (the fake driver pinned nothing and said yes),
// and a copy bounded by it wrote to a wild address. No process has memory at
// or past 2^57.
TEST_F(Regression, RegisteringAHostRangeNoProcessCanHaveIsRefused) {
  std::vector<uint8_t> host(4096);
  dc_buffer b = reinterpret_cast<dc_buffer>(1);
  EXPECT_DC_ERROR(dc_buffer_register_host(device_, host.data(), uint64_t(1) << 62, 0, &b), DC_ERROR_INVALID_ARGUMENT,
                  "runs past the end of the address space");
  EXPECT_EQ(b, nullptr);
  EXPECT_DC_ERROR(dc_buffer_register_host(device_, reinterpret_cast<void*>(uint64_t(1) << 57), 4096, 0, &b),
                  DC_ERROR_INVALID_ARGUMENT, "runs past the end of the address space");
}

// Found by fuzz_api: a write into a registered host buffer from a host range
// that overlaps the buffer's own memory went to memcpy with overlapping
// ranges (undefined behaviour; ASan: memcpy-param-overlap), and to the
// driver's copies likewise. dc_buffer_copy already refused overlap; write and
// read now refuse it the same way, for every kind of buffer.
TEST_F(Regression, AWriteOrReadOverlappingTheBuffersOwnMemoryIsRefused) {
  const size_t n = 64 * 1024;
  void* mem = std::aligned_alloc(4096, n);
  ASSERT_NE(mem, nullptr);
  dc_buffer r = nullptr;
  ASSERT_DC_OK(dc_buffer_register_host(device_, mem, n, 0, &r));
  char* base = static_cast<char*>(mem);
  EXPECT_DC_ERROR(dc_buffer_write(r, 0, base + 8, 4096), DC_ERROR_INVALID_ARGUMENT, "overlap");
  EXPECT_DC_ERROR(dc_buffer_read(r, 8, base, 4096), DC_ERROR_INVALID_ARGUMENT, "overlap");
  dc_stream s = nullptr;
  ASSERT_DC_OK(dc_stream_create(device_, 0, 0, &s));
  EXPECT_DC_ERROR(dc_buffer_write_async(r, 4096, base + 4096 + 100, 4096, s), DC_ERROR_INVALID_ARGUMENT, "overlap");
  EXPECT_DC_ERROR(dc_buffer_read_async(r, 0, base + 4000, 4096, s), DC_ERROR_INVALID_ARGUMENT, "overlap");
  // The same memory as source and destination is refused too; ranges that
  // merely touch are not overlap.
  EXPECT_DC_ERROR(dc_buffer_write(r, 0, base, 16), DC_ERROR_INVALID_ARGUMENT, "overlap");
  EXPECT_DC_OK(dc_buffer_write(r, 0, base + 4096, 4096));
  EXPECT_DC_OK(dc_buffer_read(r, 4096, base, 4096));
  EXPECT_DC_OK(dc_stream_synchronize(s));
  dc_stream_release(s);
  dc_buffer_release(r);
  std::free(mem);
}

// CUDA_ERROR_NOT_READY from a call that is not a query came back as
// DC_NOT_READY (1): a caller testing status < 0 took the failure for success,
// with a NULL buffer.
TEST_F(Regression, NotReadyFromAnAllocationIsAnError) {
  REQUIRE_FAKE_DRIVER();
  dctest::fake_driver()->inject("cuMemAlloc", 1, 600, 1);
  dc_buffer b = reinterpret_cast<dc_buffer>(1);
  EXPECT_DC_ERROR(dc_buffer_alloc(device_, 4096, DC_ALLOC_NO_POOL, &b), DC_ERROR_DRIVER,
                  "cuMemAlloc failed with CUDA_ERROR_NOT_READY");
  EXPECT_EQ(b, nullptr);
  EXPECT_EQ(dc_last_error_cuda(), 600);
}

// A stream released while capturing kept its capture registered for ever:
// the capture pinned the functions, modules and device it had seen, and the
// next stream the driver gave the same CUstream adopted its launches.
TEST_F(Regression, StreamReleasedWhileCapturingLeavesNothingBehind) {
  dc_module m = nullptr;
  dc_function f = nullptr;
  if (!saxpy(&m, &f)) GTEST_SKIP() << "needs NVRTC, not found: " << dctest::nvrtc_unavailable();
  dc_function empty = nullptr;
  ASSERT_DC_OK(dc_module_get_function(m, "empty", &empty));
  const long streams_before = dctest::fake_driver() ? dctest::fake_driver()->live("streams") : 0;
  dc_stream s = nullptr;
  ASSERT_DC_OK(dc_stream_create(device_, 0, 0, &s));
  ASSERT_DC_OK(dc_stream_begin_capture(s, DC_CAPTURE_THREAD_LOCAL));
  dc_launch_config c = DC_LAUNCH_CONFIG_INIT;
  ASSERT_DC_OK(dc_launch_kernel(empty, &c, nullptr, 0, s));
  dc_stream_release(s);  // never ended
  dc_function_release(empty);
  dc_function_release(f);
  dc_module_release(m);
  if (auto* fk = dctest::fake_driver()) {
    EXPECT_EQ(fk->live("modules"), 0) << "the abandoned capture kept the module loaded";
    EXPECT_EQ(fk->live("streams"), streams_before) << "the capturing stream was not destroyed";
  }
  // A new stream captures and ends cleanly.
  ASSERT_DC_OK(dc_stream_create(device_, 0, 0, &s));
  ASSERT_DC_OK(dc_stream_begin_capture(s, DC_CAPTURE_THREAD_LOCAL));
  dc_graph g = nullptr;
  ASSERT_DC_OK(dc_stream_end_capture(s, &g));
  uint64_t nodes = 7;
  ASSERT_DC_OK(dc_graph_node_count(g, &nodes));
  EXPECT_EQ(nodes, 0u);
  dc_graph_release(g);
  dc_stream_release(s);
}

// dc_device_reset whose cuDevicePrimaryCtxReset failed still declared every
// object of the device dead: their driver objects were never freed.
TEST_F(Regression, AFailedResetChangesNothing) {
  REQUIRE_FAKE_DRIVER();
  dc_buffer b = nullptr;
  ASSERT_DC_OK(dc_buffer_alloc(device_, 4096, 0, &b));
  dctest::fake_driver()->inject("cuDevicePrimaryCtxReset", 1, 2, 1);
  EXPECT_DC_ERROR(dc_device_reset(device_), DC_ERROR_OUT_OF_MEMORY, "the device was not reset");
  std::vector<uint8_t> data(4096, 9), back(4096);
  EXPECT_DC_OK(dc_buffer_write(b, 0, data.data(), 4096));
  EXPECT_DC_OK(dc_buffer_read(b, 0, back.data(), 4096));
  EXPECT_EQ(back, data);
  dc_buffer_release(b);
  EXPECT_DC_OK(dc_device_trim_memory(device_, 0));
  EXPECT_EQ(dctest::fake_driver()->live("allocations"), 0) << "the buffer's memory was not freed";
}

// cuFuncGetParamInfo failing (out of memory...) left the kernel's layout
// unknown without a word: every launch of it went unchecked.
TEST_F(Regression, AFailedParameterQueryIsReported) {
  REQUIRE_FAKE_DRIVER();
  dc_module m = nullptr;
  dc_function f = nullptr;
  if (!saxpy(&m, &f)) GTEST_SKIP() << "needs NVRTC, not found: " << dctest::nvrtc_unavailable();
  dc_function_release(f);
  dctest::fake_driver()->inject("cuFuncGetParamInfo", 1, 2, 1);
  f = reinterpret_cast<dc_function>(1);
  EXPECT_DC_ERROR(dc_module_get_function(m, "saxpy", &f), DC_ERROR_OUT_OF_MEMORY, "cuFuncGetParamInfo");
  EXPECT_EQ(f, nullptr);
  ASSERT_DC_OK(dc_module_get_function(m, "saxpy", &f));
  uint32_t n = 0;
  EXPECT_DC_OK(dc_function_param_count(f, &n));
  EXPECT_EQ(n, 4u);
  dc_function_release(f);
  dc_module_release(m);
}

// dc_stream_add_callback took a failed capture query for "not capturing".
TEST_F(Regression, AFailedCaptureQueryStopsAHostFunction) {
  REQUIRE_FAKE_DRIVER();
  dc_stream s = nullptr;
  ASSERT_DC_OK(dc_stream_create(device_, 0, 0, &s));
  dctest::fake_driver()->inject("cuStreamIsCapturing", 1, 999, 1);
  EXPECT_DC_ERROR(dc_stream_add_callback(s, +[](void*) {}, nullptr), DC_ERROR_DRIVER, "cuStreamIsCapturing");
  EXPECT_EQ(dctest::fake_driver()->call_count("cuLaunchHostFunc"), 0);
  dc_stream_release(s);
}

// One failed cuModuleUnload leaked the module for the life of the context
// (other releases were already retried once).
TEST_F(Regression, AModuleIsUnloadedDespiteOneFailure) {
  REQUIRE_FAKE_DRIVER();
  dc_module m = nullptr;
  dc_function f = nullptr;
  if (!saxpy(&m, &f)) GTEST_SKIP() << "needs NVRTC, not found: " << dctest::nvrtc_unavailable();
  dc_function_release(f);
  dctest::fake_driver()->inject("cuModuleUnload", 1, 999, 1);
  dc_module_release(m);
  EXPECT_EQ(dctest::fake_driver()->live("modules"), 0);
}

// Quiet releases skipped the driver's free when binding the context failed once.
TEST_F(Regression, AReleaseOnAThreadWithoutTheContextSurvivesOneBindingFailure) {
  REQUIRE_FAKE_DRIVER();
  dc_stream s = nullptr;
  ASSERT_DC_OK(dc_stream_create(device_, 0, 0, &s));
  std::thread other([&] {
    dctest::fake_driver()->inject("cuCtxSetCurrent", 1, 999, 1);
    dc_stream_release(s);
  });
  other.join();
  EXPECT_EQ(dctest::fake_driver()->live("streams"), 0) << "the stream was never destroyed";
}

// The device's primary context retain was dropped without a retry.
TEST_F(Regression, TheDevicesRetainIsDroppedDespiteOneFailure) {
  REQUIRE_FAKE_DRIVER();
  dctest::fake_driver()->inject("cuDevicePrimaryCtxRelease", 1, 999, 1);
  dc_device_release(device_);
  device_ = nullptr;
  EXPECT_EQ(dctest::fake_driver()->live("primary_retains"), 0);
}

// dc_function_get_info blamed the caller for an attribute the library chose.
TEST_F(Regression, FunctionInfoNamesTheDriverCallNotTheCaller) {
  REQUIRE_FAKE_DRIVER();
  dc_module m = nullptr;
  dc_function f = nullptr;
  if (!saxpy(&m, &f)) GTEST_SKIP() << "needs NVRTC, not found: " << dctest::nvrtc_unavailable();
  dctest::fake_driver()->inject("cuFuncGetAttribute", 1, 1, 1);
  dc_function_info info = DC_FUNCTION_INFO_INIT;
  EXPECT_DC_ERROR(dc_function_get_info(f, &info), DC_ERROR_INVALID_ARGUMENT, "cuFuncGetAttribute failed");
  EXPECT_EQ(std::string(dc_last_error_message()).find("use a CU_FUNC_ATTRIBUTE"), std::string::npos)
      << dc_last_error_message();
  // An attribute outside the enumeration is refused before the cast (undefined behaviour in C++).
  int32_t v = 5;
  EXPECT_DC_ERROR(dc_function_attribute(f, -1, &v), DC_ERROR_INVALID_ARGUMENT, "is not a CUfunction_attribute");
  EXPECT_EQ(v, 0);
  EXPECT_DC_ERROR(dc_function_set_attribute(f, 100000, 1), DC_ERROR_INVALID_ARGUMENT, "is not a CUfunction_attribute");
  dc_function_release(f);
  dc_module_release(m);
}

}  // namespace
