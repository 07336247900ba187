// cuBLAS through the safe layer (Blas): GEMM for float and double and BF16 (ushort) against
// a CPU reference, the level-1/2 calls, and bad input refused with the library's message.
// CTest runs these on the fake driver and the fake cuBLAS (tests/fake_cublas).
using System;
using Xunit;

namespace Dccuda.Tests
{
    public sealed class BlasTests
    {
        private static double[] Reference(int m, int n, int k, double[] a, double[] b, double alpha)
        {
            var c = new double[m * n];
            for (int j = 0; j < n; ++j)
                for (int i = 0; i < m; ++i)
                {
                    double s = 0;
                    for (int p = 0; p < k; ++p) s += a[i + p * m] * b[p + j * k];
                    c[i + j * m] = alpha * s;
                }
            return c;
        }

        private static double[] Values(int count, int seed)
        {
            var r = new Random(seed);
            var v = new double[count];
            for (int i = 0; i < count; ++i) v[i] = r.Next(-8, 9) / 8.0;  // exact in every type
            return v;
        }

        private static Blas CreateOrSkip(Device d, DcStream s)
        {
            try
            {
                return Blas.Create(d, s);
            }
            catch (DcException e) when (e.Status == DcStatus.NotSupported)
            {
                throw Skip.Because("no cuBLAS: " + e.Message);
            }
        }

        [Fact]
        public void GemmOfFloatsAndDoublesMatchesTheReference()
        {
            using (Device d = TestEnv.OpenDevice())
            using (DcStream s = d.CreateStream())
            using (Blas blas = CreateOrSkip(d, s))
            {
                const int m = 5, n = 3, k = 4;
                double[] a = Values(m * k, 1), b = Values(k * n, 2);
                double[] want = Reference(m, n, k, a, b, 2.0);
                using (DeviceBuffer<float> fa = d.Allocate<float>(m * k), fb = d.Allocate<float>(k * n), fc = d.Allocate<float>(m * n))
                {
                    fa.CopyFrom(Array.ConvertAll(a, x => (float)x));
                    fb.CopyFrom(Array.ConvertAll(b, x => (float)x));
                    blas.Gemm(BlasOp.N, BlasOp.N, m, n, k, 2.0, fa, m, fb, k, 0.0, fc, m);
                    s.Synchronize();
                    float[] got = fc.ToArray();
                    for (int i = 0; i < m * n; ++i) Expect.True(Math.Abs(got[i] - want[i]) < 1e-5, "float C[" + i + "] " + got[i] + " vs " + want[i]);
                }
                using (DeviceBuffer<double> da = d.Allocate<double>(m * k), db = d.Allocate<double>(k * n), dcb = d.Allocate<double>(m * n))
                {
                    da.CopyFrom(a);
                    db.CopyFrom(b);
                    blas.Gemm(BlasOp.N, BlasOp.N, m, n, k, 2.0, da, m, db, k, 0.0, dcb, m);
                    s.Synchronize();
                    double[] got = dcb.ToArray();
                    for (int i = 0; i < m * n; ++i) Expect.True(Math.Abs(got[i] - want[i]) < 1e-12, "double C[" + i + "]");
                }
            }
        }

        [Fact]
        public void Bfloat16GemmIntoFloats()
        {
            using (Device d = TestEnv.OpenDevice())
            using (DcStream s = d.CreateStream())
            using (Blas blas = CreateOrSkip(d, s))
            {
                const int m = 4, n = 4, k = 8;
                double[] a = Values(m * k, 3), b = Values(k * n, 4);
                Func<double, ushort> bf16 = x => (ushort)(BitConverter.SingleToInt32Bits((float)x) >> 16);  // exact values: no rounding
                using (DeviceBuffer<ushort> ha = d.Allocate<ushort>(m * k), hb = d.Allocate<ushort>(k * n))
                using (DeviceBuffer<float> c = d.Allocate<float>(m * n))
                {
                    ha.CopyFrom(Array.ConvertAll(a, x => bf16(x)));
                    hb.CopyFrom(Array.ConvertAll(b, x => bf16(x)));
                    blas.GemmHalf(BlasType.BF16, BlasOp.N, BlasOp.N, m, n, k, 1.0, ha, m, hb, k, 0.0, c, m);
                    s.Synchronize();
                    float[] got = c.ToArray();
                    double[] want = Reference(m, n, k, a, b, 1.0);
                    for (int i = 0; i < m * n; ++i) Expect.True(Math.Abs(got[i] - want[i]) < 1e-5, "bf16 C[" + i + "]");
                }
            }
        }

        [Fact]
        public void LevelOneAndTwo()
        {
            using (Device d = TestEnv.OpenDevice())
            using (DcStream s = d.CreateStream())
            using (Blas blas = CreateOrSkip(d, s))
            using (DeviceBuffer<double> x = d.Allocate<double>(4), y = d.Allocate<double>(4), a = d.Allocate<double>(16))
            {
                x.CopyFrom(new double[] { 1, 2, 3, 4 });
                y.CopyFrom(new double[] { 1, 1, 1, 1 });
                Expect.Equal(10.0, blas.Dot(4, x, y), "dot");
                Expect.True(Math.Abs(blas.Nrm2(4, x) - Math.Sqrt(30)) < 1e-12, "nrm2");
                blas.Axpy(4, 2.0, x, y);
                blas.Scal(4, 0.5, y);
                s.Synchronize();
                double[] got = y.ToArray();
                for (int i = 0; i < 4; ++i) Expect.Equal((1 + 2.0 * (i + 1)) / 2, got[i], "axpy then scal " + i);
                var identity = new double[16];
                for (int i = 0; i < 4; ++i) identity[i * 5] = 3;
                a.CopyFrom(identity);
                blas.Gemv(BlasOp.T, 4, 4, 1.0, a, 4, x, 0.0, y);
                s.Synchronize();
                got = y.ToArray();
                for (int i = 0; i < 4; ++i) Expect.Equal(3.0 * (i + 1), got[i], "gemv " + i);
            }
        }

        [Fact]
        public void BadInputIsRefusedNamingTheMatrix()
        {
            using (Device d = TestEnv.OpenDevice())
            using (Blas blas = CreateOrSkip(d, null))
            using (DeviceBuffer<float> a = d.Allocate<float>(16), b = d.Allocate<float>(15), c = d.Allocate<float>(16))
            {
                Expect.Throws(DcStatus.OutOfRange, () => blas.Gemm(BlasOp.N, BlasOp.N, 4, 4, 4, 1.0, a, 4, b, 4, 0.0, c, 4),
                              "B one element short", "B (desc->b_buffer) needs 64 bytes", "holds 60 bytes");
                Expect.Throws(DcStatus.InvalidArgument, () => blas.Gemm(BlasOp.N, BlasOp.N, 4, 4, 4, 1.0, a, 3, a, 4, 0.0, c, 4),
                              "lda below m", "desc->lda is 3");
                Expect.Throws(DcStatus.InvalidArgument, () => blas.Axpy(4, 1.0, a, c, 0),
                              "increment 0", "incx is 0");
                Expect.Throws<ArgumentException>(() => blas.Axpy(4, 1.0, d.Allocate<int>(4), d.Allocate<int>(4)), "int vectors");
                Expect.True(Blas.LibraryVersion >= 120000, "cuBLAS 12 or later");
            }
        }
    }
}
