// Every status has its name; unknown values are named as such.
#include <gtest/gtest.h>

#include <climits>
#include <string>
#include <thread>

#include "dccuda.h"
#include "loader/cuda_abi/driver_abi.h"  // CUresult as the driver declares it
#include "support/fake.h"
#include "support/shared_library.h"

TEST(Status, EveryStatusHasItsName) {
  struct Row {
    dc_status status;
    const char* name;
  } rows[] = {
      {DC_SUCCESS, "DC_SUCCESS"},
      {DC_NOT_READY, "DC_NOT_READY"},
      {DC_ERROR_INVALID_ARGUMENT, "DC_ERROR_INVALID_ARGUMENT"},
      {DC_ERROR_INVALID_HANDLE, "DC_ERROR_INVALID_HANDLE"},
      {DC_ERROR_NO_DRIVER, "DC_ERROR_NO_DRIVER"},
      {DC_ERROR_NOT_SUPPORTED, "DC_ERROR_NOT_SUPPORTED"},
      {DC_ERROR_NO_DEVICE, "DC_ERROR_NO_DEVICE"},
      {DC_ERROR_OUT_OF_MEMORY, "DC_ERROR_OUT_OF_MEMORY"},
      {DC_ERROR_OUT_OF_RANGE, "DC_ERROR_OUT_OF_RANGE"},
      {DC_ERROR_COMPILE, "DC_ERROR_COMPILE"},
      {DC_ERROR_LAUNCH_FAILED, "DC_ERROR_LAUNCH_FAILED"},
      {DC_ERROR_CONTEXT_LOST, "DC_ERROR_CONTEXT_LOST"},
      {DC_ERROR_INTERNAL, "DC_ERROR_INTERNAL"},
      {DC_ERROR_DRIVER, "DC_ERROR_DRIVER"},
      {DC_ERROR_NO_COMPILER, "DC_ERROR_NO_COMPILER"},
      {DC_ERROR_NOT_FOUND, "DC_ERROR_NOT_FOUND"},
      {DC_ERROR_INVALID_IMAGE, "DC_ERROR_INVALID_IMAGE"},
      {DC_ERROR_INVALID_STATE, "DC_ERROR_INVALID_STATE"},
      {DC_ERROR_IO, "DC_ERROR_IO"},
  };
  for (const Row& r : rows) EXPECT_STREQ(dc_status_name(r.status), r.name);
  EXPECT_STREQ(dc_status_name(-999), "DC_STATUS_UNKNOWN");
  EXPECT_STREQ(dc_status_name(42), "DC_STATUS_UNKNOWN");
}

// The driver's own cuGetErrorName, where the loaded driver has it (fake or real):
// CUresult cuGetErrorName(CUresult, const char**). The pointer has the driver's exact type:
// calling through int(*)(int, ...) is undefined behaviour (UBSan's -fsanitize=function says so).
using GetErrorName = CUresult (*)(CUresult, const char**);
static GetErrorName driver_get_error_name() {
  const char* path = nullptr;
  if (dc_driver_library(&path) != DC_SUCCESS) return nullptr;
  void* lib = dctest::loaded_library(path);
  return lib ? reinterpret_cast<GetErrorName>(dctest::library_symbol(lib, "cuGetErrorName")) : nullptr;
}

TEST(Status, CudaErrorNameNamesEveryCUresult) {
  EXPECT_STREQ(dc_cuda_error_name(0), "CUDA_SUCCESS");
  EXPECT_STREQ(dc_cuda_error_name(2), "CUDA_ERROR_OUT_OF_MEMORY");
  EXPECT_STREQ(dc_cuda_error_name(700), "CUDA_ERROR_ILLEGAL_ADDRESS");
  EXPECT_STREQ(dc_cuda_error_name(999), "CUDA_ERROR_UNKNOWN");
  // What dc_last_error_cuda gives for an entry point the driver lacks.
  EXPECT_STREQ(dc_cuda_error_name(1023), "DCCUDA_ERROR_MISSING_ENTRY_POINT");
  for (int32_t v : {-1, 3000, 12345, INT32_MIN, INT32_MAX}) EXPECT_STREQ(dc_cuda_error_name(v), "CUDA_RESULT_UNKNOWN");
  // Static storage: the same pointer every time, never NULL.
  EXPECT_EQ(dc_cuda_error_name(700), dc_cuda_error_name(700));
  for (int32_t v = -8; v < 1100; ++v) ASSERT_NE(dc_cuda_error_name(v), nullptr) << v;
}

TEST(Status, CudaErrorNameDoesNotTouchTheLastError) {
  ASSERT_EQ(dc_buffer_size(nullptr, nullptr), DC_ERROR_INVALID_HANDLE);
  std::string message = dc_last_error_message();
  (void)dc_cuda_error_name(700);
  EXPECT_EQ(dc_last_error_status(), DC_ERROR_INVALID_HANDLE);
  EXPECT_EQ(message, dc_last_error_message());
}

// The table against the loaded driver's own names: every code the driver names, dccuda names
// the same (on a GPU: NVIDIA's driver, so a code missing from the table shows here).
TEST(Status, CudaErrorNamesAgreeWithTheDriver) {
  GetErrorName get = driver_get_error_name();
  if (!get) GTEST_SKIP() << "no driver with cuGetErrorName is loaded";
  int compared = 0;
  for (int v = 0; v < 1023; ++v) {
    const char* name = nullptr;
    if (get(static_cast<CUresult>(v), &name) != CUDA_SUCCESS || !name) continue;
    EXPECT_STREQ(dc_cuda_error_name(v), name) << "CUresult " << v;
    ++compared;
  }
  EXPECT_GT(compared, 0);
  std::printf("[ dccuda   ] %d CUresult names compared with the driver (%s)\n", compared,
              dctest::fake_driver() ? "fake" : "real");
}

TEST(Status, ValuesAreStable) {
  // Append-only: these numbers are part of the ABI and never change.
  EXPECT_EQ(DC_SUCCESS, 0);
  EXPECT_EQ(DC_NOT_READY, 1);
  EXPECT_EQ(DC_ERROR_INVALID_ARGUMENT, -1);
  EXPECT_EQ(DC_ERROR_INVALID_HANDLE, -2);
  EXPECT_EQ(DC_ERROR_NO_DRIVER, -3);
  EXPECT_EQ(DC_ERROR_NOT_SUPPORTED, -4);
  EXPECT_EQ(DC_ERROR_NO_DEVICE, -5);
  EXPECT_EQ(DC_ERROR_OUT_OF_MEMORY, -6);
  EXPECT_EQ(DC_ERROR_OUT_OF_RANGE, -7);
  EXPECT_EQ(DC_ERROR_COMPILE, -8);
  EXPECT_EQ(DC_ERROR_LAUNCH_FAILED, -9);
  EXPECT_EQ(DC_ERROR_CONTEXT_LOST, -10);
  EXPECT_EQ(DC_ERROR_INTERNAL, -11);
  EXPECT_EQ(DC_ERROR_DRIVER, -12);
  EXPECT_EQ(DC_ERROR_NO_COMPILER, -13);
  EXPECT_EQ(DC_ERROR_NOT_FOUND, -14);
  EXPECT_EQ(DC_ERROR_INVALID_IMAGE, -15);
  EXPECT_EQ(DC_ERROR_INVALID_STATE, -16);
  EXPECT_EQ(DC_ERROR_IO, -17);
}

TEST(Status, GettersNeverReturnNull) {
  EXPECT_NE(dc_last_error_message(), nullptr);
  EXPECT_NE(dc_last_error_detail(), nullptr);
}

TEST(Status, HandleCountRejectsUnknownTypes) {
  uint64_t n = 5;
  EXPECT_DC_ERROR(dc_handle_count(0, &n), DC_ERROR_INVALID_ARGUMENT, "handle_type 0");
  EXPECT_EQ(n, 0u);
  EXPECT_DC_ERROR(dc_handle_count(DC_HANDLE_DEVICE, nullptr), DC_ERROR_INVALID_ARGUMENT, "count is NULL");
}

TEST(Status, LastErrorIsPerThread) {
  uint64_t n = 0;
  EXPECT_NE(dc_handle_count(99, &n), DC_SUCCESS);
  std::string here = dc_last_error_message();
  std::string there = "unset";
  std::thread t([&] { there = dc_last_error_message(); });
  t.join();
  EXPECT_FALSE(here.empty());
  EXPECT_EQ(there, "");
}
