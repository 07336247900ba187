// cuBLAS absent (DCCUDA_CUBLAS_LIBRARY names a file that does not exist):
// every dc_blas call that needs it fails with DC_ERROR_NOT_SUPPORTED, saying
// what was tried and how to provide the library; the rest of dccuda works.
#include <string>

#include "dccuda.h"
#include "support/fake.h"

namespace {

void expect_missing_message() {
  std::string msg = dc_last_error_message();
  EXPECT_NE(msg.find("cuBLAS is not available"), std::string::npos) << msg;
  EXPECT_NE(msg.find("no-such-libcublas.so.13"), std::string::npos) << "names what was tried: " << msg;
  EXPECT_NE(msg.find("DCCUDA_CUBLAS_LIBRARY"), std::string::npos) << "says how to provide it: " << msg;
}

TEST(BlasMissing, VersionAndCreateSayWhatWasTried) {
  int32_t version = 7;
  EXPECT_EQ(dc_blas_library_version(&version), DC_ERROR_NOT_SUPPORTED);
  EXPECT_EQ(version, 0);
  expect_missing_message();
  dc_device device = nullptr;
  ASSERT_DC_OK(dc_device_open(0, &device));
  dc_blas blas = reinterpret_cast<dc_blas>(1);
  EXPECT_EQ(dc_blas_create(device, nullptr, &blas), DC_ERROR_NOT_SUPPORTED);
  EXPECT_EQ(blas, nullptr);
  expect_missing_message();
  dc_buffer b = nullptr;
  ASSERT_DC_OK(dc_buffer_alloc(device, 64, 0, &b));  // the rest of dccuda is unaffected
  dc_buffer_release(b);
  dc_device_release(device);
  EXPECT_EQ(dctest::live_handles(), 0u);
}

}  // namespace
