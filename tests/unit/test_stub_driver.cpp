// The toolkit's stub libcuda.so is not a driver and is reported as a stub.
#include <gtest/gtest.h>

#include "dccuda.h"
#include "support/fake.h"

TEST(StubDriver, IsReportedAsAStub) {
  int32_t count = 3;
  EXPECT_DC_ERROR(dc_device_count(&count), DC_ERROR_NO_DRIVER, "stub library");
  EXPECT_EQ(count, 0);
  EXPECT_EQ(dc_last_error_cuda(), 34) << "CUDA_ERROR_STUB_LIBRARY is kept as the raw error";
}
