// Devices: open, info, attributes, memory, synchronisation, recovery, and
// context binding from many threads. Runs against the fake driver in CI
// (two fake devices) and against the real driver on a GPU machine.
#include "loader/cuda_abi/driver_abi.h"
#include <gtest/gtest.h>

#include <atomic>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "dccuda.h"
#include "support/fake.h"
#include "support/shared_library.h"

namespace {

class DeviceTest : public testing::Test {
 protected:
  void SetUp() override {
    REQUIRE_DEVICE();
    if (auto* f = dctest::fake_driver()) f->reset();
    ASSERT_DC_OK(dc_device_open(0, &device_));
  }
  void TearDown() override {
    dc_device_release(device_);
    EXPECT_EQ(dctest::live_handles(), 0u) << "a test leaked handles";
    if (auto* f = dctest::fake_driver()) {
      EXPECT_EQ(f->live("primary_retains"), 0) << "primary contexts still retained after every handle was released";
      EXPECT_EQ(f->legacy_calls(), 0) << "a legacy (unversioned) entry point was called";
    }
  }
  dc_device device_ = nullptr;
};

// Raw driver access for checking which context is current.
using GetCurrent = CUresult (*)(CUcontext*);
using SetCurrent = CUresult (*)(CUcontext);
void* driver_library() {
  const char* path = nullptr;
  if (dc_driver_library(&path) != DC_SUCCESS) return nullptr;
  return dctest::loaded_library(path);
}

TEST_F(DeviceTest, CountAndOrdinals) {
  int32_t count = 0;
  ASSERT_DC_OK(dc_device_count(&count));
  EXPECT_GE(count, 1);
  dc_device d = reinterpret_cast<dc_device>(1);
  EXPECT_DC_ERROR(dc_device_open(count, &d), DC_ERROR_NO_DEVICE, "out of range");
  EXPECT_EQ(d, nullptr);
  EXPECT_DC_ERROR(dc_device_open(-1, &d), DC_ERROR_NO_DEVICE, "device ordinal -1");
  EXPECT_DC_ERROR(dc_device_open(0, nullptr), DC_ERROR_INVALID_ARGUMENT, "device is NULL");
  EXPECT_DC_ERROR(dc_device_count(nullptr), DC_ERROR_INVALID_ARGUMENT, "count is NULL");
  for (int32_t i = 0; i < count; ++i) {
    dc_device each = nullptr;
    ASSERT_DC_OK(dc_device_open(i, &each));
    dc_device_info info = DC_DEVICE_INFO_INIT;
    ASSERT_DC_OK(dc_device_get_info(each, &info));
    EXPECT_EQ(info.ordinal, i);
    dc_device_release(each);
  }
}

TEST_F(DeviceTest, InfoIsPlausible) {
  dc_device_info info = DC_DEVICE_INFO_INIT;
  ASSERT_DC_OK(dc_device_get_info(device_, &info));
  EXPECT_EQ(info.struct_size, sizeof(dc_device_info));
  EXPECT_GT(std::strlen(info.name), 0u);
  EXPECT_LT(std::strlen(info.name), sizeof info.name);
  EXPECT_GE(info.compute_capability_major, 5);
  EXPECT_GT(info.multiprocessor_count, 0);
  EXPECT_GT(info.total_memory, 0u);
  EXPECT_LE(info.free_memory, info.total_memory);
  EXPECT_EQ(info.warp_size, 32);
  EXPECT_GE(info.max_threads_per_block, 512);
  EXPECT_GE(info.max_block_dim[0], 512);
  EXPECT_GE(info.max_grid_dim[0], 65535);
  EXPECT_GE(info.max_shared_memory_per_block_optin, info.max_shared_memory_per_block);
  EXPECT_EQ(info.unified_addressing, 1);
  bool uuid_nonzero = false;
  for (uint8_t b : info.uuid) uuid_nonzero = uuid_nonzero || b != 0;
  EXPECT_TRUE(uuid_nonzero);
}

TEST_F(DeviceTest, InfoAcceptsEveryPublishedSizeAndWritesNoMore) {
  // A caller built against a newer header passes a bigger struct: the library
  // fills what it knows and leaves the rest alone.
  struct Bigger {
    dc_device_info info;
    unsigned char future[64];
  } bigger;
  std::memset(&bigger, 0xAB, sizeof bigger);
  bigger.info.struct_size = sizeof bigger;
  ASSERT_DC_OK(dc_device_get_info(device_, &bigger.info));
  for (unsigned char c : bigger.future) ASSERT_EQ(c, 0xAB);
  EXPECT_EQ(bigger.info.struct_size, sizeof bigger);

  dc_device_info small = DC_DEVICE_INFO_INIT;
  small.struct_size = 8;
  EXPECT_DC_ERROR(dc_device_get_info(device_, &small), DC_ERROR_INVALID_ARGUMENT, "struct_size is 8");
  EXPECT_DC_ERROR(dc_device_get_info(device_, nullptr), DC_ERROR_INVALID_ARGUMENT, "info is NULL");
}

TEST_F(DeviceTest, AttributePassthrough) {
  dc_device_info info = DC_DEVICE_INFO_INIT;
  ASSERT_DC_OK(dc_device_get_info(device_, &info));
  int32_t sms = 0;
  ASSERT_DC_OK(dc_device_attribute(device_, 16 /* CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT */, &sms));
  EXPECT_EQ(sms, info.multiprocessor_count);
  int32_t v = 5;
  EXPECT_DC_ERROR(dc_device_attribute(device_, 99999, &v), DC_ERROR_INVALID_ARGUMENT, "attribute 99999");
  EXPECT_EQ(v, 0);
  EXPECT_DC_ERROR(dc_device_attribute(device_, 16, nullptr), DC_ERROR_INVALID_ARGUMENT, "value is NULL");
}

TEST_F(DeviceTest, MemoryInfoSynchronizeNative) {
  uint64_t free_bytes = 0, total = 0;
  ASSERT_DC_OK(dc_device_memory_info(device_, &free_bytes, &total));
  EXPECT_GT(total, 0u);
  EXPECT_LE(free_bytes, total);
  EXPECT_DC_OK(dc_device_synchronize(device_));
  int32_t cu_device = -1;
  void* ctx = nullptr;
  ASSERT_DC_OK(dc_device_native(device_, &cu_device, &ctx));
  EXPECT_EQ(cu_device, 0);
  EXPECT_NE(ctx, nullptr);
  EXPECT_DC_OK(dc_device_native(device_, nullptr, nullptr));
}

TEST_F(DeviceTest, HandleMisuseIsAnErrorNeverACrash) {
  dc_device_info info = DC_DEVICE_INFO_INIT;
  EXPECT_DC_ERROR(dc_device_get_info(nullptr, &info), DC_ERROR_INVALID_HANDLE, "device is NULL");
  dc_device released = nullptr;
  ASSERT_DC_OK(dc_device_open(0, &released));
  dc_device_release(released);
  EXPECT_DC_ERROR(dc_device_get_info(released, &info), DC_ERROR_INVALID_HANDLE, "was released");
  EXPECT_DC_ERROR(dc_device_synchronize(released), DC_ERROR_INVALID_HANDLE, "dc_device_synchronize: device");
  dc_device_release(released);  // double release: ignored
  // A handle of another type (a dc_buffer's type bits).
  dc_device wrong = reinterpret_cast<dc_device>((uintptr_t(DC_HANDLE_BUFFER) << 56) | 3);
  EXPECT_DC_ERROR(dc_device_get_info(wrong, &info), DC_ERROR_INVALID_HANDLE, "is a dc_buffer handle");
  for (uintptr_t garbage : {uintptr_t(1), uintptr_t(0xdeadbeef), ~uintptr_t(0), uintptr_t(0x0100000000000000)}) {
    EXPECT_DC_ERROR(dc_device_get_info(reinterpret_cast<dc_device>(garbage), &info), DC_ERROR_INVALID_HANDLE,
                    "not a valid dc_device");
    dc_device_release(reinterpret_cast<dc_device>(garbage));
  }
  // The still-open handle is unaffected.
  EXPECT_DC_OK(dc_device_get_info(device_, &info));
}

TEST_F(DeviceTest, EachOpenIsItsOwnHandle) {
  dc_device second = nullptr;
  ASSERT_DC_OK(dc_device_open(0, &second));
  EXPECT_NE(second, device_);
  uint64_t n = 0;
  ASSERT_DC_OK(dc_handle_count(DC_HANDLE_DEVICE, &n));
  EXPECT_EQ(n, 2u);
  dc_device_release(second);
  dc_device_info info = DC_DEVICE_INFO_INIT;
  EXPECT_DC_OK(dc_device_get_info(device_, &info));
}

TEST_F(DeviceTest, ManyThreadsOneDeviceNoContextManagement) {
  // Threads that never touched CUDA call through one shared handle: the
  // library binds the context itself (the fake driver refuses any call that
  // needs a context when none is current, as the real one does).
  constexpr int kThreads = 16, kRounds = 50;
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kRounds; ++i) {
        uint64_t f = 0, total = 0;
        if (dc_device_memory_info(device_, &f, &total) != DC_SUCCESS) failures.fetch_add(1);
        if (dc_device_synchronize(device_) != DC_SUCCESS) failures.fetch_add(1);
        dc_device mine = nullptr;
        if (dc_device_open((t + i) % dctest::device_count(), &mine) != DC_SUCCESS) failures.fetch_add(1);
        dc_device_info info = DC_DEVICE_INFO_INIT;
        if (dc_device_get_info(mine, &info) != DC_SUCCESS) failures.fetch_add(1);
        dc_device_release(mine);
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(failures.load(), 0) << dc_last_error_message();
}

TEST_F(DeviceTest, ContextCurrentOnTheThreadIsRespected) {
  void* lib = driver_library();
  ASSERT_NE(lib, nullptr);
  auto get_current = reinterpret_cast<GetCurrent>(dctest::library_symbol(lib, "cuCtxGetCurrent"));
  auto set_current = reinterpret_cast<SetCurrent>(dctest::library_symbol(lib, "cuCtxSetCurrent"));
  ASSERT_TRUE(get_current && set_current);
  void* ours = nullptr;
  ASSERT_DC_OK(dc_device_native(device_, nullptr, &ours));

  // A thread with no current context keeps ours after the call.
  CUcontext after = nullptr;
  std::thread([&] {
    uint64_t f, t;
    EXPECT_DC_OK(dc_device_memory_info(device_, &f, &t));
    get_current(&after);
  }).join();
  EXPECT_EQ(static_cast<void*>(after), ours);

  if (dctest::device_count() < 2) GTEST_SKIP() << "restoring another device's context needs two devices";
  dc_device other = nullptr;
  ASSERT_DC_OK(dc_device_open(1, &other));
  void* theirs = nullptr;
  ASSERT_DC_OK(dc_device_native(other, nullptr, &theirs));
  std::thread([&] {
    ASSERT_EQ(set_current(static_cast<CUcontext>(theirs)), CUDA_SUCCESS);
    uint64_t f, t;
    EXPECT_DC_OK(dc_device_memory_info(device_, &f, &t));
    get_current(&after);
  }).join();
  EXPECT_EQ(static_cast<void*>(after), theirs) << "the caller's own context must be restored";
  dc_device_release(other);
}

TEST_F(DeviceTest, DriverFailuresAreReportedAndRecovered) {
  REQUIRE_FAKE_DRIVER();
  auto* fake = dctest::fake_driver();
  dc_device d = reinterpret_cast<dc_device>(1);
  dc_device_release(device_);  // so that open must create the context again
  device_ = nullptr;
  fake->inject("cuDevicePrimaryCtxRetain", 1, 2 /* CUDA_ERROR_OUT_OF_MEMORY */, 1);
  EXPECT_DC_ERROR(dc_device_open(0, &d), DC_ERROR_OUT_OF_MEMORY, "cuDevicePrimaryCtxRetain failed");
  EXPECT_EQ(d, nullptr);
  EXPECT_EQ(dc_last_error_cuda(), 2);
  EXPECT_EQ(fake->live("primary_retains"), 0);
  ASSERT_DC_OK(dc_device_open(0, &device_));

  fake->inject("cuMemGetInfo", 1, 999 /* CUDA_ERROR_UNKNOWN */, 1);
  uint64_t f = 1, t = 1;
  EXPECT_DC_ERROR(dc_device_memory_info(device_, &f, &t), DC_ERROR_DRIVER, "cuMemGetInfo failed with CUDA_ERROR_UNKNOWN");
  EXPECT_EQ(f, 0u);
  EXPECT_EQ(dc_last_error_cuda(), 999);
  EXPECT_DC_OK(dc_device_memory_info(device_, &f, &t));

  fake->inject("cuDeviceGetAttribute", 3, 1 /* CUDA_ERROR_INVALID_VALUE */, 1);
  dc_device_info info = DC_DEVICE_INFO_INIT;
  EXPECT_DC_ERROR(dc_device_get_info(device_, &info), DC_ERROR_INVALID_ARGUMENT, "cuDeviceGetAttribute");
  EXPECT_DC_OK(dc_device_get_info(device_, &info));
}

TEST_F(DeviceTest, ContextLostIsStickyUntilReset) {
  REQUIRE_FAKE_DRIVER();
  auto* fake = dctest::fake_driver();
  fake->break_context(0, 700 /* CUDA_ERROR_ILLEGAL_ADDRESS */);
  EXPECT_DC_ERROR(dc_device_synchronize(device_), DC_ERROR_CONTEXT_LOST, "dc_device_reset");
  EXPECT_NE(std::string(dc_last_error_message()).find("CUDA_ERROR_ILLEGAL_ADDRESS"), std::string::npos);
  uint64_t f, t;
  EXPECT_DC_ERROR(dc_device_memory_info(device_, &f, &t), DC_ERROR_CONTEXT_LOST, "context is lost");
  // Every handle of the device sees it.
  dc_device second = nullptr;
  ASSERT_DC_OK(dc_device_open(0, &second));
  EXPECT_DC_ERROR(dc_device_synchronize(second), DC_ERROR_CONTEXT_LOST, "context is lost");
  ASSERT_DC_OK(dc_device_reset(device_));
  EXPECT_DC_OK(dc_device_synchronize(device_));
  EXPECT_DC_OK(dc_device_synchronize(second));
  EXPECT_DC_OK(dc_device_memory_info(device_, &f, &t));
  dc_device_release(second);
}

}  // namespace
