// A kernel that faults: the failure surfaces through the binding as DcException
// (DC_ERROR_CONTEXT_LOST with the raw CUresult), every later call on the device says so,
// and Device.Reset brings the device back without restarting the process. On the fake
// driver the emulated kernel faults; on a GPU the NVRTC-compiled one does.
using System;
using System.Diagnostics;
using System.Threading;
using System.Threading.Tasks;
using Xunit;

namespace Dccuda.Tests
{
    public sealed class FaultTests
    {
        private const string FaultSource = @"
extern ""C"" __global__ void write_out_of_bounds(int* p, unsigned long long index) {
  if (blockIdx.x == 0 && threadIdx.x == 0) p[index] = 1;
}
";
        private const int CudaErrorIllegalAddress = 700;   // cuda.h: CUDA_ERROR_ILLEGAL_ADDRESS

        [Fact]
        public void IllegalAddressLosesTheDeviceUntilReset()
        {
            TestEnv.RequireNvrtc();
            using (Device d = TestEnv.OpenDevice())
            {
                DcModule m = d.CompileAndLoad(FaultSource, null, "fault.cu");
                Function oob = m.GetFunction("write_out_of_bounds");
                DcStream s = d.CreateStream();
                DeviceBuffer<int> small = d.Allocate<int>(1);
                // 4 TiB past a 4-byte buffer: asynchronous, so the launch itself is accepted.
                oob.Launch(LaunchConfig.Linear(1, 32), s, new KernelArgs().Buffer(small).Value(1UL << 40));
                // An await outlived by the fault: on a GPU the driver never calls the host function
                // behind the faulting kernel, and the wait must fail anyway (the binding polls).
                Expect.Throws(DcStatus.ContextLost, () => s.SynchronizeAsync().AsTask().GetAwaiter().GetResult(),
                              "awaiting the stream after the fault", "dc_device_reset");
                DcException e = Expect.Throws(DcStatus.ContextLost, () => s.Synchronize(), "the synchronisation after the fault", "dc_device_reset");
                Expect.Equal(CudaErrorIllegalAddress, e.CudaError, "the raw CUresult");
                Expect.Throws(DcStatus.ContextLost, () => d.Allocate<int>(16), "allocating on the lost device", "context is lost");
                Expect.Throws(DcStatus.ContextLost, () => d.Synchronize(), "synchronising the lost device", "context is lost");

                // A real NVIDIA driver keeps the fault for the whole process (driver 580 / CUDA 13.0
                // refuses every new context): then the reset must say so, and releasing must still work.
                try
                {
                    d.Reset();
                }
                catch (DcException refused) when (refused.Status == DcStatus.ContextLost && !TestEnv.OnFakeDriver)
                {
                    Expect.True(refused.Message.Contains("restart the process"), "the refusal says what to do: " + refused.Message);
                    foreach (IDisposable old in new IDisposable[] { small, s, oob, m })
                        old.Dispose();
                    Console.WriteLine("      real driver: no in-process recovery: " + refused.Message);
                    return;
                }
                Expect.Throws(DcStatus.ContextLost, () => small.CopyFrom(new int[1]), "a buffer made before the reset");
                foreach (IDisposable old in new IDisposable[] { small, s, oob, m })
                    old.Dispose();

                // The device works again: saxpy on fresh objects, checked.
                using (DcModule fresh = d.CompileAndLoad(Kernels.Source))
                using (Function saxpy = fresh.GetFunction("saxpy"))
                using (DcStream stream = d.CreateStream())
                using (DeviceBuffer<float> x = d.Allocate<float>(100))
                using (DeviceBuffer<float> y = d.Allocate<float>(100))
                {
                    var hx = new float[100];
                    var hy = new float[100];
                    for (int i = 0; i < 100; i++)
                    {
                        hx[i] = i;
                        hy[i] = 1;
                    }
                    x.CopyFrom(hx);
                    y.CopyFrom(hy);
                    saxpy.Launch(LaunchConfig.Cover(100, 64), stream, new KernelArgs().Value(2f).Buffer(x).Buffer(y).Value(100));
                    stream.Synchronize();
                    float[] got = y.ToArray();
                    for (int i = 0; i < 100; i++)
                        Expect.Equal(2f * i + 1, got[i], "y[" + i + "] after the reset");
                }
            }
        }

        /// <summary>After a fault the driver calls no host function, so an await behind the fault
        /// would wait forever: pending waits are polled and fail with the fault. The wait is
        /// held pending (the fake driver runs host functions at once) and the context broken
        /// through the fake driver's control; on a GPU the test above awaits a real fault.</summary>
        [Fact]
        public async Task AWaitOutlivedByAFaultFailsWithIt()
        {
            if (!TestEnv.OnFakeDriver)
                throw Skip.Because("breaks the context through the fake driver's control");
            using (Device d = TestEnv.OpenDevice())
            {
                int entries = HostCallbacks.Count;
                DcStream s = d.CreateStream();
                long key;
                ValueTask wait = AsyncCompletion.StartDetached(s.Handle.DangerousGetHandle(), CancellationToken.None, out key);
                var clock = Stopwatch.StartNew();
                FakeDriver.BreakContext(0, CudaErrorIllegalAddress);
                try
                {
                    await wait;
                    throw new ExpectationException("the wait ended without an error after the fault");
                }
                catch (DcException e)
                {
                    Expect.Equal(DcStatus.ContextLost, e.Status, "the wait's error (" + e.Message + ")");
                }
                Expect.True(clock.Elapsed < TimeSpan.FromSeconds(5), "the fault was noticed within 5 s (" + clock.ElapsedMilliseconds + " ms)");
                Expect.Equal(entries, HostCallbacks.Count, "the wait's entry is gone");
                s.Dispose();
                d.Reset();
                using (DcStream fresh = d.CreateStream())
                    await fresh.SynchronizeAsync();   // the device works again
            }
        }
    }
}
