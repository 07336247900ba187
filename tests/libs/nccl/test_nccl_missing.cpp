// Where NCCL is missing (DCTEST_NCCL_EXPECT=missing: DCCUDA_NCCL_LIBRARY
// names no file) or old (=old: the fake posing as NCCL 2.12.3): the calls
// fail with DC_ERROR_NOT_SUPPORTED saying what was tried, what is needed and
// how to provide it; what the old NCCL has works.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "fake_nccl_controls.h"
#include "nccl_fixture.h"

namespace {

std::string expectation() {
  const char* e = std::getenv("DCTEST_NCCL_EXPECT");
  return e ? e : "";
}

TEST(NcclMissing, EveryCallSaysWhatWasTriedAndWhatToDo) {
  if (expectation() != "missing") GTEST_SKIP() << "run with DCTEST_NCCL_EXPECT=missing";
  int32_t version = 7;
  EXPECT_DC_ERROR(dc_nccl_library_version(&version), DC_ERROR_NOT_SUPPORTED,
                  "NCCL is not available (tried /nonexistent/libnccl.so.2)");
  EXPECT_EQ(version, 0);
  std::string message = dc_last_error_message();
  EXPECT_NE(message.find("DCCUDA_NCCL_LIBRARY"), std::string::npos) << message;
  EXPECT_NE(message.find("libnccl2"), std::string::npos) << message;
  uint8_t id[DC_NCCL_UNIQUE_ID_BYTES];
  EXPECT_DC_ERROR(dc_nccl_unique_id(id, sizeof id), DC_ERROR_NOT_SUPPORTED, "NCCL is not available");
  EXPECT_DC_ERROR(dc_nccl_group_start(), DC_ERROR_NOT_SUPPORTED, "NCCL is not available");
  int32_t ordinal = 0;
  dc_comm comm = nullptr;
  EXPECT_DC_ERROR(dc_comm_init_all(&ordinal, 1, &comm), DC_ERROR_NOT_SUPPORTED, "NCCL is not available");
  uint64_t comms = 1;
  ASSERT_DC_OK(dc_handle_count(DC_HANDLE_COMM, &comms));
  EXPECT_EQ(comms, 0u);
}

TEST(NcclOld, SplitNamesTheVersionItNeeds) {
  if (expectation() != "old") GTEST_SKIP() << "run with DCTEST_NCCL_EXPECT=old";
  int32_t version = 0;
  ASSERT_DC_OK(dc_nccl_library_version(&version));
  EXPECT_EQ(version, 21203);
  FakeNccl fake = FakeNccl::find();
  ASSERT_TRUE(fake);
  {
    nccl_test::Ranks ranks(1);
    dc_comm out = reinterpret_cast<dc_comm>(1);
    EXPECT_DC_ERROR(dc_comm_split(ranks[0].comm, 0, 0, &out), DC_ERROR_NOT_SUPPORTED,
                    "dc_comm_split needs NCCL 2.18 or newer (ncclCommSplit); the NCCL loaded is 2.12.3");
    EXPECT_EQ(out, nullptr);
    // What 2.12 has works.
    dc_buffer b = nccl_test::alloc(ranks[0].device, 8);
    int32_t x[2] = {4, 5}, y[2] = {};
    ASSERT_DC_OK(dc_buffer_write(b, 0, x, 8));
    EXPECT_DC_OK(dc_comm_all_reduce(ranks[0].comm, b, 0, b, 0, 2, DC_NCCL_INT32, DC_NCCL_AVG, ranks[0].stream));
    ASSERT_DC_OK(dc_buffer_read(b, 0, y, 8));
    EXPECT_EQ(y[0], 4);
    EXPECT_EQ(y[1], 5);
    dc_buffer_release(b);
  }
  // Released without ncclCommFinalize (2.14+), which this NCCL lacks.
  EXPECT_EQ(fake.call_count("ncclCommDestroy"), 1);
}

}  // namespace
