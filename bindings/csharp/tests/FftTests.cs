// cuFFT through the binding (the fake cuFFT in CI): a round trip scales by n, an R2C of a
// constant is n at frequency 0, wrong element types and short buffers are refused, the cache
// hands a released plan back.
using System;
using Xunit;

namespace Dccuda.Tests
{
    public sealed class FftTests
    {
        [Fact]
        public void ARoundTripScalesByN()
        {
            using (Device d = TestEnv.OpenDevice(0))
            using (FftPlan plan = FftPlan.Create(d, FftKind.ComplexToComplex, FftPrecision.Single, new ulong[] { 16 }, 2))
            using (DcStream s = d.CreateStream())
            using (DeviceBuffer<ComplexFloat> a = d.Allocate<ComplexFloat>(32))
            using (DeviceBuffer<ComplexFloat> b = d.Allocate<ComplexFloat>(32))
            {
                var x = new ComplexFloat[32];
                for (int i = 0; i < 32; i++) x[i] = new ComplexFloat(i % 7 - 3, i % 3);
                a.CopyFrom(x);
                plan.SetStream(s);
                plan.Execute(a, b, FftDirection.Forward);
                plan.Execute(b, a, FftDirection.Inverse);
                s.Synchronize();
                var y = new ComplexFloat[32];
                a.CopyTo(y);
                for (int i = 0; i < 32; i++)
                {
                    Expect.True(Math.Abs(y[i].Re - 16 * x[i].Re) < 1e-3 && Math.Abs(y[i].Im - 16 * x[i].Im) < 1e-3,
                                "element " + i + " is 16 times the input");
                }
                Expect.Equal(256ul, plan.Info.InputBytes, "the plan reads 2 x 16 complex floats");
            }
        }

        [Fact]
        public void RealToComplexOfAConstant()
        {
            using (Device d = TestEnv.OpenDevice(0))
            using (FftPlan plan = FftPlan.Create(d, FftKind.RealToComplex, FftPrecision.Double, new ulong[] { 4, 6 }))
            using (DeviceBuffer<double> a = d.Allocate<double>(24))
            using (DeviceBuffer<ComplexDouble> b = d.Allocate<ComplexDouble>(16))
            {
                var x = new double[24];
                for (int i = 0; i < 24; i++) x[i] = 0.5;
                a.CopyFrom(x);
                plan.Execute(a, b, FftDirection.Forward);
                var y = new ComplexDouble[16];
                b.CopyTo(y);
                Expect.True(Math.Abs(y[0].Re - 12.0) < 1e-12, "frequency 0 is the sum, 12");
                for (int i = 1; i < 16; i++)
                    Expect.True(Math.Abs(y[i].Re) < 1e-12 && Math.Abs(y[i].Im) < 1e-12, "frequency " + i + " is 0");
            }
        }

        [Fact]
        public void WrongTypesAndShortBuffersAreRefused()
        {
            using (Device d = TestEnv.OpenDevice(0))
            using (FftPlan plan = FftPlan.Create(d, FftKind.ComplexToComplex, FftPrecision.Double, new ulong[] { 8 }))
            using (DeviceBuffer<ComplexDouble> a = d.Allocate<ComplexDouble>(8))
            using (DeviceBuffer<ComplexDouble> small = d.Allocate<ComplexDouble>(7))
            using (DeviceBuffer<ComplexFloat> f = d.Allocate<ComplexFloat>(8))
            {
                Expect.Throws<ArgumentException>(() => plan.Execute(f, a, FftDirection.Forward), "single data for a double plan");
                Expect.Throws(DcStatus.OutOfRange, () => plan.Execute(small, a, FftDirection.Forward), "a short input",
                              "the input needs 128 bytes from in_offset 0, but in holds 112 bytes");
                Expect.Throws(DcStatus.OutOfRange, () => plan.Execute(a, a, FftDirection.Forward, 0, 1), "an output past the end",
                              "the output needs 128 bytes from out_offset 16");
                Expect.Throws(DcStatus.InvalidArgument, () => FftPlan.Create(d, FftKind.ComplexToComplex, FftPrecision.Single,
                              new ulong[] { 0 }), "a size of 0", "desc->sizes[0] is 0");
            }
        }

        [Fact]
        public void AReleasedPlanIsReused()
        {
            using (Device d = TestEnv.OpenDevice(0))
            {
                FftPlan.TrimCache(d);
                using (FftPlan a = FftPlan.Create(d, FftKind.ComplexToReal, FftPrecision.Single, new ulong[] { 6, 10 }))
                    Expect.False(a.Info.Reused, "the first plan is new");
                using (FftPlan b = FftPlan.Create(d, FftKind.ComplexToReal, FftPrecision.Single, new ulong[] { 6, 10 }))
                    Expect.True(b.Info.Reused, "the second comes from the cache");
                FftPlan.TrimCache(d);
                Expect.True(FftPlan.LibraryVersion >= 11000, "cuFFT 11 or later");
            }
        }
    }
}
