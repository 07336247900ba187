// cuBLAS through the SWIG binding: a GEMM and a dot product on the fake cuBLAS
// (DCCUDA_CUBLAS_LIBRARY), and a matrix past its buffer as a DcException naming it.
using System;
using Dccuda.Swig;

static partial class SwigTests {
  static void Case_blas_gemm_and_dot() {
    using (DcDevice device = OpenDevice()) {
      DcBlas blas;
      try {
        Dc.dc_blas_create(device, null, out blas);
      } catch (DcException e) when (e.Status == Dc.DC_ERROR_NOT_SUPPORTED) {
        Console.WriteLine("SKIPPED: no cuBLAS: " + e.Message);
        Environment.Exit(77);
        return;
      }
      using (blas) {
        DcBuffer a, b, c;
        Dc.dc_buffer_alloc(device, 64, 0, out a);
        Dc.dc_buffer_alloc(device, 64, 0, out b);
        Dc.dc_buffer_alloc(device, 64, 0, out c);
        using (a) using (b) using (c) {
          float[] av = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 };
          float[] identity = { 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1 };
          Dc.dc_buffer_write(a, 0, av);
          Dc.dc_buffer_write(b, 0, identity);
          DcBlasGemmDesc d = new DcBlasGemmDesc();
          d.m = 4; d.n = 4; d.k = 4; d.lda = 4; d.ldb = 4; d.ldc = 4;
          d.a_buffer = a; d.b_buffer = b; d.c_buffer = c;
          d.alpha = 2.0;
          Dc.dc_blas_gemm(blas, d);
          Dc.dc_device_synchronize(device);
          float[] got = new float[16];
          Dc.dc_buffer_read(c, 0, got);
          for (int i = 0; i < 16; i++) Check.True(got[i] == 2 * av[i], "C = 2 A I at " + i);
          double dot;
          Dc.dc_blas_dot(blas, Dc.DC_BLAS_F32, 4, a, 0, 1, b, 0, 1, out dot, null, 0);
          Check.Equal(1.0, dot, "dot of A's first column and I's");
          d.ldb = 5;
          DcException e = Check.Fails(Dc.DC_ERROR_OUT_OF_RANGE, "dc_blas_gemm", () => Dc.dc_blas_gemm(blas, d));
          Check.Contains(e.Message, "B (desc->b_buffer) needs", "the message names B");
        }
      }
    }
  }
}
