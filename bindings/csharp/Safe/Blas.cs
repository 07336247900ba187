// A dc_blas: a cuBLAS handle bound to one device and one stream, with a workspace dccuda owns.
// GEMM (float, double, and F16/BF16 stored as ushort), strided-batched GEMM, and the level-1/2
// calls (axpy, scal, dot, nrm2, gemv) over DeviceBuffer<T>; every argument is checked by the
// library against the buffers before cuBLAS sees it (DcException with the status and a message
// naming the matrix or vector). Calls on one Blas are serialised by the library: it may be
// shared between threads; for parallel enqueueing use one Blas per thread and stream.
using System;
using Dccuda.Interop;
using C = Dccuda.Interop.NativeConstants;

namespace Dccuda
{
    /// <summary>Owns a dc_blas.</summary>
    public sealed class DcBlasHandle : DcHandle
    {
        internal override void Free(IntPtr value) { NativeMethods.dc_blas_release(value); }
    }

    /// <summary>DC_BLAS_*: the element types.</summary>
    public enum BlasType
    {
        /// <summary>float.</summary>
        F32 = C.DC_BLAS_F32,
        /// <summary>double.</summary>
        F64 = C.DC_BLAS_F64,
        /// <summary>IEEE half, stored as ushort (GEMM only).</summary>
        F16 = C.DC_BLAS_F16,
        /// <summary>bfloat16, stored as ushort (GEMM only).</summary>
        BF16 = C.DC_BLAS_BF16,
    }

    /// <summary>DC_BLAS_OP_*: a matrix as stored or transposed.</summary>
    public enum BlasOp
    {
        /// <summary>As stored.</summary>
        N = C.DC_BLAS_OP_N,
        /// <summary>Transposed.</summary>
        T = C.DC_BLAS_OP_T,
    }

    /// <summary>DC_BLAS_COMPUTE_*: a GEMM's compute type.</summary>
    public enum BlasCompute
    {
        /// <summary>64F for double data, else 32F.</summary>
        Default = C.DC_BLAS_COMPUTE_DEFAULT,
        /// <summary>float.</summary>
        F32 = C.DC_BLAS_COMPUTE_32F,
        /// <summary>float, the reference order, no tensor cores.</summary>
        F32Pedantic = C.DC_BLAS_COMPUTE_32F_PEDANTIC,
        /// <summary>float; float inputs may be rounded to half.</summary>
        F32FastF16 = C.DC_BLAS_COMPUTE_32F_FAST_16F,
        /// <summary>float; float inputs may be rounded to bfloat16.</summary>
        F32FastBF16 = C.DC_BLAS_COMPUTE_32F_FAST_16BF,
        /// <summary>float; float inputs may be rounded to TF32.</summary>
        F32FastTF32 = C.DC_BLAS_COMPUTE_32F_FAST_TF32,
        /// <summary>double.</summary>
        F64 = C.DC_BLAS_COMPUTE_64F,
        /// <summary>double, the reference order.</summary>
        F64Pedantic = C.DC_BLAS_COMPUTE_64F_PEDANTIC,
    }

    /// <summary>DC_BLAS_MATH_*: cuBLAS's math mode.</summary>
    public enum BlasMathMode
    {
        /// <summary>cuBLAS's default.</summary>
        Default = C.DC_BLAS_MATH_DEFAULT,
        /// <summary>The reference order of operations, no tensor cores.</summary>
        Pedantic = C.DC_BLAS_MATH_PEDANTIC,
        /// <summary>Float GEMMs may use TF32 tensor cores.</summary>
        Tf32TensorOp = C.DC_BLAS_MATH_TF32_TENSOR_OP,
    }

    /// <summary>cuBLAS on one device and stream (dc_blas). Host pointer mode: scalars are passed
    /// by value, Dot and Nrm2 return their result (and wait for it).</summary>
    public sealed unsafe class Blas : IDisposable
    {
        private Blas(DcBlasHandle handle) { Handle = handle; }

        /// <summary>The SafeHandle owning the dc_blas (for NativeMethods calls).</summary>
        public DcBlasHandle Handle { get; private set; }

        internal Pin Use() { return new Pin(Handle, "Blas"); }

        /// <summary>The loaded cuBLAS's version, major * 10000 + minor * 100 + patch (130100);
        /// throws DcException (NotSupported) without cuBLAS, saying what was tried.</summary>
        public static int LibraryVersion
        {
            get
            {
                int v;
                DcException.Check(NativeMethods.dc_blas_library_version(&v));
                return v;
            }
        }

        /// <summary>A handle on `device` bound to `stream` (null: the legacy default stream).</summary>
        public static Blas Create(Device device, DcStream stream = null)
        {
            var h = new DcBlasHandle();
            IntPtr raw;
            using (var d = device.Use())
            using (var s = stream == null ? new Pin(null, "stream", true) : stream.Use())
                DcException.Check(NativeMethods.dc_blas_create(d.Raw, s.Raw, &raw));
            h.Adopt(raw);
            return new Blas(h);
        }

        /// <summary>Bind to another stream of the device (null: the legacy default stream).</summary>
        public void SetStream(DcStream stream)
        {
            using (var b = Use())
            using (var s = stream == null ? new Pin(null, "stream", true) : stream.Use())
                DcException.Check(NativeMethods.dc_blas_set_stream(b.Raw, s.Raw));
        }

        /// <summary>Set cuBLAS's math mode.</summary>
        public void SetMathMode(BlasMathMode mode)
        {
            using (var b = Use())
                DcException.Check(NativeMethods.dc_blas_set_math_mode(b.Raw, (int)mode));
        }

        /// <summary>Give the handle a workspace of `bytes` of device memory (0: none).</summary>
        public void SetWorkspaceSize(ulong bytes)
        {
            using (var b = Use())
                DcException.Check(NativeMethods.dc_blas_set_workspace_size(b.Raw, bytes));
        }

        private static BlasType TypeOf<T>()
#if NET7_0_OR_GREATER
            where T : unmanaged
#else
            where T : struct
#endif
        {
            if (typeof(T) == typeof(float)) return BlasType.F32;
            if (typeof(T) == typeof(double)) return BlasType.F64;
            throw new ArgumentException("Blas: " + typeof(T).Name + " is not a type cuBLAS computes with here; use float or " +
                                        "double (or ushort with BlasType.F16 / BF16 for GEMM)");
        }

        /// <summary>C = alpha * op(A) * op(B) + beta * C (column-major; op(A) m x k, op(B) k x n),
        /// float or double, enqueued on the handle's stream.</summary>
        public void Gemm<T>(BlasOp transa, BlasOp transb, long m, long n, long k, double alpha, DeviceBuffer<T> a, long lda,
                            DeviceBuffer<T> b, long ldb, double beta, DeviceBuffer<T> c, long ldc,
                            BlasCompute compute = BlasCompute.Default)
#if NET7_0_OR_GREATER
            where T : unmanaged
#else
            where T : struct
#endif
        {
            BlasType t = TypeOf<T>();
            GemmStrided(t, t, transa, transb, m, n, k, alpha, a, lda, 0, b, ldb, 0, beta, c, ldc, 0, 1, compute);
        }

        /// <summary>The same, repeated `batchCount` times with A, B and C `strideA`, `strideB`,
        /// `strideC` elements apart (strided-batched GEMM).</summary>
        public void GemmStridedBatched<T>(BlasOp transa, BlasOp transb, long m, long n, long k, double alpha,
                                          DeviceBuffer<T> a, long lda, long strideA, DeviceBuffer<T> b, long ldb, long strideB,
                                          double beta, DeviceBuffer<T> c, long ldc, long strideC, long batchCount,
                                          BlasCompute compute = BlasCompute.Default)
#if NET7_0_OR_GREATER
            where T : unmanaged
#else
            where T : struct
#endif
        {
            BlasType t = TypeOf<T>();
            GemmStrided(t, t, transa, transb, m, n, k, alpha, a, lda, strideA, b, ldb, strideB, beta, c, ldc, strideC, batchCount,
                        compute);
        }

        /// <summary>GEMM on 16-bit data stored as ushort: `type` is BlasType.F16 or BF16 for A and B;
        /// C is of `cType` (the same 16-bit type, or F32 for C as a DeviceBuffer of float: use the
        /// overload taking DeviceBuffer&lt;float&gt;). Compute 32F.</summary>
        public void GemmHalf(BlasType type, BlasOp transa, BlasOp transb, long m, long n, long k, double alpha,
                             DeviceBuffer<ushort> a, long lda, DeviceBuffer<ushort> b, long ldb, double beta,
                             DeviceBuffer<ushort> c, long ldc)
        {
            RequireHalf(type);
            GemmStrided(type, type, transa, transb, m, n, k, alpha, a, lda, 0, b, ldb, 0, beta, c, ldc, 0, 1, BlasCompute.F32);
        }

        /// <summary>GEMM of 16-bit A and B (BlasType.F16 or BF16, stored as ushort) into a float C. Compute 32F.</summary>
        public void GemmHalf(BlasType type, BlasOp transa, BlasOp transb, long m, long n, long k, double alpha,
                             DeviceBuffer<ushort> a, long lda, DeviceBuffer<ushort> b, long ldb, double beta,
                             DeviceBuffer<float> c, long ldc)
        {
            RequireHalf(type);
            GemmStrided(type, BlasType.F32, transa, transb, m, n, k, alpha, a, lda, 0, b, ldb, 0, beta, c, ldc, 0, 1,
                        BlasCompute.F32);
        }

        private static void RequireHalf(BlasType type)
        {
            if (type != BlasType.F16 && type != BlasType.BF16)
                throw new ArgumentException("Blas.GemmHalf: type is " + type + "; pass BlasType.F16 or BlasType.BF16");
        }

        private void GemmStrided(BlasType abType, BlasType cType, BlasOp transa, BlasOp transb, long m, long n, long k,
                                 double alpha, DeviceBuffer a, long lda, long strideA, DeviceBuffer b, long ldb, long strideB,
                                 double beta, DeviceBuffer c, long ldc, long strideC, long batchCount, BlasCompute compute)
        {
            DcBlasGemmDesc d = DcBlasGemmDesc.Init();
            d.Transa = (int)transa;
            d.Transb = (int)transb;
            d.AbType = (int)abType;
            d.CType = (int)cType;
            d.Compute = (int)compute;
            d.M = m;
            d.N = n;
            d.K = k;
            d.BatchCount = batchCount;
            d.Lda = lda;
            d.AStride = strideA;
            d.Ldb = ldb;
            d.BStride = strideB;
            d.Ldc = ldc;
            d.CStride = strideC;
            d.Alpha = alpha;
            d.Beta = beta;
            using (var h = Use())
            using (var pa = a.Use())
            using (var pb = b.Use())
            using (var pc = c.Use())
            {
                d.ABuffer = pa.Raw;
                d.BBuffer = pb.Raw;
                d.CBuffer = pc.Raw;
                DcException.Check(NativeMethods.dc_blas_gemm(h.Raw, &d));
            }
        }

        /// <summary>y = alpha * x + y over n elements, with increments (cublas?axpy).</summary>
        public void Axpy<T>(long n, double alpha, DeviceBuffer<T> x, DeviceBuffer<T> y, long incx = 1, long incy = 1)
#if NET7_0_OR_GREATER
            where T : unmanaged
#else
            where T : struct
#endif
        {
            int t = (int)TypeOf<T>();
            using (var h = Use())
            using (var px = x.Use())
            using (var py = y.Use())
                DcException.Check(NativeMethods.dc_blas_axpy(h.Raw, t, n, alpha, px.Raw, 0, incx, py.Raw, 0, incy, IntPtr.Zero, 0));
        }

        /// <summary>x = alpha * x over n elements (cublas?scal).</summary>
        public void Scal<T>(long n, double alpha, DeviceBuffer<T> x, long incx = 1)
#if NET7_0_OR_GREATER
            where T : unmanaged
#else
            where T : struct
#endif
        {
            int t = (int)TypeOf<T>();
            using (var h = Use())
            using (var px = x.Use())
                DcException.Check(NativeMethods.dc_blas_scal(h.Raw, t, n, alpha, px.Raw, 0, incx, IntPtr.Zero, 0));
        }

        /// <summary>The dot product of x and y over n elements (waits for it).</summary>
        public double Dot<T>(long n, DeviceBuffer<T> x, DeviceBuffer<T> y, long incx = 1, long incy = 1)
#if NET7_0_OR_GREATER
            where T : unmanaged
#else
            where T : struct
#endif
        {
            int t = (int)TypeOf<T>();
            double r;
            using (var h = Use())
            using (var px = x.Use())
            using (var py = y.Use())
                DcException.Check(NativeMethods.dc_blas_dot(h.Raw, t, n, px.Raw, 0, incx, py.Raw, 0, incy, &r, IntPtr.Zero, 0));
            return r;
        }

        /// <summary>The Euclidean norm of x over n elements (waits for it).</summary>
        public double Nrm2<T>(long n, DeviceBuffer<T> x, long incx = 1)
#if NET7_0_OR_GREATER
            where T : unmanaged
#else
            where T : struct
#endif
        {
            int t = (int)TypeOf<T>();
            double r;
            using (var h = Use())
            using (var px = x.Use())
                DcException.Check(NativeMethods.dc_blas_nrm2(h.Raw, t, n, px.Raw, 0, incx, &r, IntPtr.Zero, 0));
            return r;
        }

        /// <summary>y = alpha * op(A) * x + beta * y, A m x n column-major (cublas?gemv).</summary>
        public void Gemv<T>(BlasOp trans, long m, long n, double alpha, DeviceBuffer<T> a, long lda, DeviceBuffer<T> x,
                            double beta, DeviceBuffer<T> y, long incx = 1, long incy = 1)
#if NET7_0_OR_GREATER
            where T : unmanaged
#else
            where T : struct
#endif
        {
            int t = (int)TypeOf<T>();
            using (var h = Use())
            using (var pa = a.Use())
            using (var px = x.Use())
            using (var py = y.Use())
                DcException.Check(NativeMethods.dc_blas_gemv(h.Raw, t, (int)trans, m, n, alpha, pa.Raw, 0, lda, px.Raw, 0, incx,
                                                             beta, py.Raw, 0, incy, IntPtr.Zero, 0));
        }

        /// <summary>Release the handle (work already enqueued completes).</summary>
        public void Dispose()
        {
            Handle.Dispose();
        }
    }
}
