// Every status has its name; unknown values are named as such.
#include <gtest/gtest.h>

#include <string>
#include <thread>

#include "dccuda.h"
#include "support/fake.h"

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
