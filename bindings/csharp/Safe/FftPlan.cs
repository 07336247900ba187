// A dc_fft_plan: one cuFFT transform shape on one device (dccuda.h, "cuFFT"). Execute takes
// typed device buffers: ComplexFloat / ComplexDouble for complex data, float / double for real
// data, checked against the plan's kind and precision before the call; dccuda then checks the
// sizes against the bytes the plan reads and writes.
using System;
using System.Runtime.InteropServices;
using Dccuda.Interop;
using C = Dccuda.Interop.NativeConstants;

namespace Dccuda
{
    /// <summary>Owns a dc_fft_plan.</summary>
    public sealed class DcFftPlanHandle : DcHandle
    {
        internal override void Free(IntPtr value) { NativeMethods.dc_fft_plan_release(value); }
    }

    /// <summary>DC_FFT_C2C / R2C / C2R: what a transform takes and gives.</summary>
    public enum FftKind
    {
        /// <summary>Complex to complex, forward or inverse.</summary>
        ComplexToComplex = C.DC_FFT_C2C,
        /// <summary>Real to complex (the non-redundant half), forward only.</summary>
        RealToComplex = C.DC_FFT_R2C,
        /// <summary>Complex (the half) to real, inverse only.</summary>
        ComplexToReal = C.DC_FFT_C2R,
    }

    /// <summary>DC_FFT_SINGLE / DC_FFT_DOUBLE.</summary>
    public enum FftPrecision
    {
        /// <summary>float, ComplexFloat.</summary>
        Single = C.DC_FFT_SINGLE,
        /// <summary>double, ComplexDouble.</summary>
        Double = C.DC_FFT_DOUBLE,
    }

    /// <summary>DC_FFT_FORWARD / DC_FFT_INVERSE.</summary>
    public enum FftDirection
    {
        /// <summary>exp(-2 pi i jk/n).</summary>
        Forward = C.DC_FFT_FORWARD,
        /// <summary>exp(+2 pi i jk/n), unnormalised.</summary>
        Inverse = C.DC_FFT_INVERSE,
    }

    /// <summary>A single-precision complex number as cuFFT stores it (cufftComplex: 8 bytes).</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct ComplexFloat
    {
        /// <summary>The real part.</summary>
        public float Re;
        /// <summary>The imaginary part.</summary>
        public float Im;
        /// <summary>re + i im.</summary>
        public ComplexFloat(float re, float im) { Re = re; Im = im; }
    }

    /// <summary>A double-precision complex number as cuFFT stores it (cufftDoubleComplex: 16 bytes).</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct ComplexDouble
    {
        /// <summary>The real part.</summary>
        public double Re;
        /// <summary>The imaginary part.</summary>
        public double Im;
        /// <summary>re + i im.</summary>
        public ComplexDouble(double re, double im) { Re = re; Im = im; }
    }

    /// <summary>What a plan needs (dc_fft_plan_info).</summary>
    public struct FftPlanInfo
    {
        /// <summary>The plan came from the plan cache.</summary>
        public bool Reused;
        /// <summary>The work area dccuda allocated.</summary>
        public ulong WorkAreaBytes;
        /// <summary>Bytes the input must hold (out of place).</summary>
        public ulong InputBytes;
        /// <summary>Bytes the output must hold (out of place).</summary>
        public ulong OutputBytes;
        /// <summary>Bytes one buffer must hold in place.</summary>
        public ulong InPlaceBytes;
        /// <summary>cufftGetVersion of the loaded cuFFT.</summary>
        public int CufftVersion;
    }

    /// <summary>A cuFFT plan (dc_fft_plan) in cuFFT's basic layout: 1 to 3 dimensions, batched.</summary>
    public sealed unsafe class FftPlan : IDisposable
    {
        private FftPlan(DcFftPlanHandle handle, FftKind kind, FftPrecision precision)
        {
            Handle = handle;
            Kind = kind;
            Precision = precision;
        }

        /// <summary>The SafeHandle owning the dc_fft_plan (for NativeMethods calls).</summary>
        public DcFftPlanHandle Handle { get; private set; }
        /// <summary>The plan's kind.</summary>
        public FftKind Kind { get; private set; }
        /// <summary>The plan's precision.</summary>
        public FftPrecision Precision { get; private set; }

        internal Pin Use() { return new Pin(Handle, "FftPlan"); }

        /// <summary>The loaded cuFFT's version (12000 is 12.0.0); loads it. Throws NotSupported without cuFFT.</summary>
        public static int LibraryVersion
        {
            get
            {
                int v;
                DcException.Check(NativeMethods.dc_fft_library_version(&v));
                return v;
            }
        }

        /// <summary>A plan on `device` for `batch` transforms of `sizes` (1 to 3, the slowest
        /// varying first), from the plan cache when one of the same shape is idle there.</summary>
        public static FftPlan Create(Device device, FftKind kind, FftPrecision precision, ulong[] sizes, ulong batch = 1)
        {
            if (sizes == null) throw new ArgumentNullException("sizes");
            if (sizes.Length < 1 || sizes.Length > 3)
                throw new ArgumentException("FftPlan.Create: sizes has " + sizes.Length + " entries; pass 1 to 3", "sizes");
            DcFftDesc d = DcFftDesc.Init();
            d.Rank = sizes.Length;
            d.Kind = (int)kind;
            d.Precision = (int)precision;
            for (int i = 0; i < sizes.Length; i++) d.Sizes[i] = sizes[i];
            d.Batch = batch;
            var h = new DcFftPlanHandle();
            IntPtr raw;
            using (var dev = device.Use())
                DcException.Check(NativeMethods.dc_fft_plan_create(dev.Raw, &d, &raw));
            h.Adopt(raw);
            return new FftPlan(h, kind, precision);
        }

        /// <summary>Later executes go to `stream` (null: the device's legacy default stream).</summary>
        public void SetStream(DcStream stream)
        {
            using (var p = Use())
            using (var s = new Pin(stream == null ? null : stream.Handle, "stream", optional: true))
                DcException.Check(NativeMethods.dc_fft_plan_set_stream(p.Raw, s.Raw));
        }

        /// <summary>The plan's work area, the bytes its buffers need, whether it was reused.</summary>
        public FftPlanInfo Info
        {
            get
            {
                DcFftPlanInfo i = DcFftPlanInfo.Init();
                using (var p = Use())
                    DcException.Check(NativeMethods.dc_fft_plan_info_get(p.Raw, &i));
                return new FftPlanInfo
                {
                    Reused = i.Reused != 0, WorkAreaBytes = i.WorkAreaBytes, InputBytes = i.InputBytes,
                    OutputBytes = i.OutputBytes, InPlaceBytes = i.InPlaceBytes, CufftVersion = i.CufftVersion,
                };
            }
        }

        private Type ElementType(bool real)
        {
            if (Precision == FftPrecision.Double) return real ? typeof(double) : typeof(ComplexDouble);
            return real ? typeof(float) : typeof(ComplexFloat);
        }

        /// <summary>Run the transform from `input` (from element `inputOffset`) to `output` (from
        /// element `outputOffset`) on the plan's stream; the same buffer and offset run in place.
        /// TIn/TOut must match the plan: complex types for complex sides, float/double for real ones.</summary>
        public void Execute<TIn, TOut>(DeviceBuffer<TIn> input, DeviceBuffer<TOut> output, FftDirection direction,
                                       long inputOffset = 0, long outputOffset = 0)
#if NET7_0_OR_GREATER
            where TIn : unmanaged where TOut : unmanaged
#else
            where TIn : struct where TOut : struct
#endif
        {
            if (input == null) throw new ArgumentNullException("input");
            if (output == null) throw new ArgumentNullException("output");
            Type wantIn = ElementType(Kind == FftKind.RealToComplex), wantOut = ElementType(Kind == FftKind.ComplexToReal);
            if (typeof(TIn) != wantIn || typeof(TOut) != wantOut)
                throw new ArgumentException("FftPlan.Execute: a " + Kind + " " + Precision + " plan takes DeviceBuffer<" +
                                            wantIn.Name + "> to DeviceBuffer<" + wantOut.Name + ">, not DeviceBuffer<" +
                                            typeof(TIn).Name + "> to DeviceBuffer<" + typeof(TOut).Name + ">");
            ulong inBytes = DeviceBuffer<TIn>.BytesFor(inputOffset), outBytes = DeviceBuffer<TOut>.BytesFor(outputOffset);
            using (var p = Use())
            using (var i = input.Use())
            using (var o = output.Use())
                DcException.Check(NativeMethods.dc_fft_execute(p.Raw, i.Raw, inBytes, o.Raw, outBytes, (int)direction));
        }

        /// <summary>Destroy idle cached plans of `device` until at most `keep` are left.</summary>
        public static void TrimCache(Device device, uint keep = 0)
        {
            using (var d = device.Use())
                DcException.Check(NativeMethods.dc_fft_plan_cache_trim(d.Raw, keep));
        }

        /// <summary>Release the plan (to the plan cache, or destroyed).</summary>
        public void Dispose()
        {
            Handle.Dispose();
        }
    }
}
