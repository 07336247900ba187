// A cuBLAS 11 stand-in (tests/fake_cublas built with DCFAKE_CUBLAS_11): it
// has handles but not the _64 entry points. Handles work; each call that
// needs a missing entry point fails with DC_ERROR_NOT_SUPPORTED naming the
// function, the library's version and the version that has it.
#include <string>

#include "dccuda.h"
#include "support/fake.h"

namespace {

TEST(BlasOld, CallsNeedingA64BitEntryPointNameIt) {
  int32_t version = 0;
  ASSERT_DC_OK(dc_blas_library_version(&version));
  EXPECT_EQ(version, 110402);
  dc_device device = nullptr;
  ASSERT_DC_OK(dc_device_open(0, &device));
  dc_blas blas = nullptr;
  ASSERT_DC_OK(dc_blas_create(device, nullptr, &blas));
  dc_buffer b = nullptr;
  ASSERT_DC_OK(dc_buffer_alloc(device, 256, 0, &b));
  dc_blas_gemm_desc d = DC_BLAS_GEMM_DESC_INIT;
  d.m = d.n = d.k = 4, d.lda = d.ldb = d.ldc = 4;
  d.a_buffer = d.b_buffer = d.c_buffer = b;
  EXPECT_EQ(dc_blas_gemm(blas, &d), DC_ERROR_NOT_SUPPORTED);
  std::string msg = dc_last_error_message();
  for (const char* w : {"lacks cublasGemmEx_64", "cuBLAS 12.0 and later", "cuBLAS 11.4.2", "DCCUDA_CUBLAS_LIBRARY"})
    EXPECT_NE(msg.find(w), std::string::npos) << "no \"" << w << "\" in: " << msg;
  double r = 0;
  EXPECT_EQ(dc_blas_nrm2(blas, DC_BLAS_F32, 4, b, 0, 1, &r, nullptr, 0), DC_ERROR_NOT_SUPPORTED);
  EXPECT_NE(std::string(dc_last_error_message()).find("cublasSnrm2_v2_64"), std::string::npos);
  dc_buffer_release(b);
  dc_blas_release(blas);
  dc_device_release(device);
  EXPECT_EQ(dctest::live_handles(), 0u);
}

}  // namespace
