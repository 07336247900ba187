// Kernel launches through the binding: saxpy one-shot, prepared and packed, argument checks,
// occupancy, and graphs. Results are checked against a CPU reference (on the fake driver the
// kernel is emulated by name; on a GPU it runs).
using System;
using Xunit;

namespace Dccuda.Tests
{
    public sealed class LaunchTests
    {
        private sealed class Saxpy : IDisposable
        {
            public readonly Device Device;
            public readonly DcModule Module;
            public readonly Function Kernel;
            public readonly DcStream Stream;

            public Saxpy()
            {
                TestEnv.RequireNvrtc();
                Device = TestEnv.OpenDevice();
                Module = Device.CompileAndLoad(Kernels.Source, null, "kernels.cu");
                Kernel = Module.GetFunction("saxpy");
                Stream = Device.CreateStream();
            }

            public void Dispose()
            {
                Stream.Dispose();
                Kernel.Dispose();
                Module.Dispose();
                Device.Dispose();
            }
        }

        private static float[] RandomFloats(int n, int seed)
        {
            var r = new Random(seed);
            var a = new float[n];
            for (int i = 0; i < n; i++)
                a[i] = (float)(r.NextDouble() * 200 - 100);
            return a;
        }

        /// <summary>y = a*x + y applied `times` times on the CPU, compared with a relative
        /// tolerance (the GPU may fuse the multiply-add).</summary>
        private static void CheckSaxpy(float a, float[] x, float[] y0, float[] got, int times, string what)
        {
            for (int i = 0; i < x.Length; i++)
            {
                float want = y0[i];
                for (int k = 0; k < times; k++)
                    want = a * x[i] + want;
                float tolerance = 1e-5f * Math.Max(1f, Math.Abs(want)) * times;
                if (Math.Abs(want - got[i]) > tolerance)
                    throw new ExpectationException(what + ": y[" + i + "] is " + got[i] + ", expected " + want);
            }
        }

        [Fact]
        public void SaxpyOneShot()
        {
            using (var k = new Saxpy())
            {
                const int n = 10007;
                float[] x = RandomFloats(n, 1), y = RandomFloats(n, 2);
                using (DeviceBuffer<float> dx = k.Device.Allocate<float>(n))
                using (DeviceBuffer<float> dy = k.Device.Allocate<float>(n))
                {
                    dx.CopyFrom(x);
                    dy.CopyFrom(y);
                    var args = new KernelArgs().Value(2.5f).Buffer(dx).Buffer(dy).Value(n);
                    k.Kernel.Launch(LaunchConfig.Cover(n, 256), k.Stream, args);
                    k.Stream.Synchronize();
                    CheckSaxpy(2.5f, x, y, dy.ToArray(), 1, "one-shot saxpy");
                }
            }
        }

        [Fact]
        public void PreparedLaunchesEnqueueInOneBatch()
        {
            using (var k = new Saxpy())
            {
                const int n = 2048;
                float[] x = RandomFloats(n, 5), y = RandomFloats(n, 6);
                using (DeviceBuffer<float> dx = k.Device.Allocate<float>(n))
                using (DeviceBuffer<float> dy = k.Device.Allocate<float>(n))
                using (PreparedLaunch launch = k.Kernel.Prepare(k.Kernel.Config1D(n)))
                using (PreparedLaunch unbound = k.Kernel.Prepare(k.Kernel.Config1D(n)))
                {
                    dx.CopyFrom(x);
                    dy.CopyFrom(y);
                    launch.SetArgs(new KernelArgs().Value(1.5f).Buffer(dx).Buffer(dy).Value(n));
                    // An unbound launch at index 2 refuses the whole batch: nothing runs.
                    Expect.Throws(DcStatus.InvalidState, () => PreparedLaunch.EnqueueBatch(new[] { launch, launch, unbound }, k.Stream),
                                  "an unbound launch in the batch", "launches[2]");
                    k.Stream.Synchronize();
                    CheckSaxpy(1.5f, x, y, dy.ToArray(), 0, "after a refused batch");
                    // The same launch three times in one batch: y = 1.5 x + y, three times.
                    PreparedLaunch.EnqueueBatch(new[] { launch, launch, launch }, k.Stream);
                    PreparedLaunch.EnqueueBatch(ReadOnlySpan<PreparedLaunch>.Empty, k.Stream);
                    k.Stream.Synchronize();
                    CheckSaxpy(1.5f, x, y, dy.ToArray(), 3, "a batch of three");
                    unbound.Dispose();
                    Expect.Throws(DcStatus.InvalidHandle, () => PreparedLaunch.EnqueueBatch(new[] { launch, unbound }, k.Stream),
                                  "a disposed launch in the batch", "launches[1]");
                }
            }
        }

        [Fact]
        public void PreparedLaunchReplaysAndRebinds()
        {
            using (var k = new Saxpy())
            {
                const int n = 4096;
                float[] x = RandomFloats(n, 3), y = RandomFloats(n, 4);
                using (DeviceBuffer<float> dx = k.Device.Allocate<float>(n))
                using (DeviceBuffer<float> dy = k.Device.Allocate<float>(n))
                using (PreparedLaunch launch = k.Kernel.Prepare(k.Kernel.Config1D(n)))
                {
                    dx.CopyFrom(x);
                    dy.CopyFrom(y);
                    Expect.Throws(DcStatus.InvalidState, () => launch.Enqueue(k.Stream), "enqueue before binding", "dc_launch_enqueue");
                    launch.SetArgs(new KernelArgs().Value(0.5f).Buffer(dx).Buffer(dy).Value(n));
                    for (int i = 0; i < 3; i++)
                        launch.Enqueue(k.Stream);
                    k.Stream.Synchronize();
                    CheckSaxpy(0.5f, x, y, dy.ToArray(), 3, "three replays");
                    // Rebind a and y one by one: y2 = -1 * x + y.
                    dy.CopyFrom(y);
                    launch.SetValue(0, -1f);
                    launch.SetBuffer(2, dy);
                    launch.SetConfig(LaunchConfig.Cover(n, 128));
                    launch.Enqueue(k.Stream);
                    k.Stream.Synchronize();
                    CheckSaxpy(-1f, x, y, dy.ToArray(), 1, "after rebinding");
                    Expect.Throws(DcStatus.OutOfRange, () => launch.SetValue(4, 1), "argument index 4", "dc_launch_set_arg");
                }
            }
        }

        [Fact]
        public void PackedParameters()
        {
            using (var k = new Saxpy())
            {
                const int n = 1000;
                float[] x = RandomFloats(n, 5), y = RandomFloats(n, 6);
                using (DeviceBuffer<float> dx = k.Device.Allocate<float>(n))
                using (DeviceBuffer<float> dy = k.Device.Allocate<float>(n))
                {
                    dx.CopyFrom(x);
                    dy.CopyFrom(y);
                    // saxpy(float a, const float* x, float* y, int n): offsets 0, 8, 16, 24; 28 bytes.
                    var block = new byte[28];
                    BitConverter.GetBytes(3f).CopyTo(block, 0);
                    BitConverter.GetBytes(dx.DevicePointer).CopyTo(block, 8);
                    BitConverter.GetBytes(dy.DevicePointer).CopyTo(block, 16);
                    BitConverter.GetBytes(n).CopyTo(block, 24);
                    k.Kernel.LaunchPacked(LaunchConfig.Cover(n, 64), k.Stream, block);
                    k.Stream.Synchronize();
                    CheckSaxpy(3f, x, y, dy.ToArray(), 1, "packed saxpy");
                    Expect.Throws(DcStatus.InvalidArgument, () => k.Kernel.LaunchPacked(LaunchConfig.Cover(n, 64), k.Stream, new byte[12]),
                                  "a 12-byte parameter block", "dc_launch_kernel_packed");
                }
            }
        }

        /// <summary>A template kernel found through its name expression's lowered name.</summary>
        [Fact]
        public void TemplateKernelThroughNameExpression()
        {
            TestEnv.RequireNvrtc();
            using (Device d = TestEnv.OpenDevice())
            using (DcProgram p = d.Compile(Kernels.Source, new CompileOptions().NameExpression("scale<double>")))
            using (DcModule m = d.LoadModule(p))
            using (Function scale = m.GetFunction(p.LoweredName("scale<double>")))
            using (DcStream s = d.CreateStream())
            using (DeviceBuffer<double> b = d.Allocate<double>(777))
            {
                var data = new double[777];
                for (int i = 0; i < data.Length; i++)
                    data[i] = i * 0.5 - 100;
                b.CopyFrom(data);
                scale.Launch(LaunchConfig.Cover(777, 128), s, new KernelArgs().Buffer(b).Value(-3.0).Value(777));
                s.Synchronize();
                double[] got = b.ToArray();
                for (int i = 0; i < data.Length; i++)
                    Expect.Equal(data[i] * -3.0, got[i], "p[" + i + "]");
            }
        }

        [Fact]
        public void ArgumentsAreCheckedAgainstTheKernel()
        {
            using (var k = new Saxpy())
            using (DeviceBuffer<float> b = k.Device.Allocate<float>(16))
            {
                LaunchConfig c = LaunchConfig.Cover(16, 16);
                Expect.Throws(DcStatus.InvalidArgument,
                              () => k.Kernel.Launch(c, k.Stream, new KernelArgs().Value(2.0).Buffer(b).Buffer(b).Value(16)),
                              "a double for a float parameter", "dc_launch_kernel", "saxpy");
                Expect.Throws(DcStatus.InvalidArgument,
                              () => k.Kernel.Launch(c, k.Stream, new KernelArgs().Value(2f).Buffer(b).Buffer(b)),
                              "three arguments for four parameters", "dc_launch_kernel", "saxpy");
                var tooBig = new LaunchConfig(new Dim3(1), new Dim3(1u << 20));
                Expect.Throws(DcStatus.InvalidArgument,
                              () => k.Kernel.Launch(tooBig, k.Stream, new KernelArgs().Value(2f).Buffer(b).Buffer(b).Value(16)),
                              "a block of 2^20 threads", "dc_launch_kernel");
                DeviceBuffer<float> gone = k.Device.Allocate<float>(16);
                gone.Dispose();
                Expect.Throws(DcStatus.InvalidHandle,
                              () => k.Kernel.Launch(c, k.Stream, new KernelArgs().Value(2f).Buffer(gone).Buffer(b).Value(16)),
                              "a disposed buffer as an argument", "disposed");
            }
        }

        [Fact]
        public void Occupancy()
        {
            using (var k = new Saxpy())
            {
                DeviceInfo info = k.Device.Info;
                int blocks = k.Kernel.MaxActiveBlocksPerMultiprocessor(256);
                Expect.True(blocks >= 1, "active blocks of 256 threads: " + blocks);
                PotentialBlockSize p = k.Kernel.MaxPotentialBlockSize();
                Expect.True(p.BlockSize >= 1 && p.BlockSize <= info.MaxThreadsPerBlock, "block size " + p.BlockSize);
                Expect.True(p.MinGridSize >= 1, "min grid size " + p.MinGridSize);
                int calls = 0;
                PotentialBlockSize q = k.Kernel.MaxPotentialBlockSize(bs => { calls++; return (ulong)bs * 4; }, 512);
                Expect.True(calls > 0, "the shared memory callback was called");
                Expect.True(q.BlockSize >= 1 && q.BlockSize <= 512, "limited block size " + q.BlockSize);
                Expect.Throws<InvalidOperationException>(
                    () => k.Kernel.MaxPotentialBlockSize(bs => { throw new FormatException("no"); }), "a throwing callback");
                Expect.True(k.Kernel.AvailableDynamicSharedMemory(1, 128) > 0, "dynamic shared memory for one block");
                LaunchConfig c = k.Kernel.Config1D(100000);
                Expect.True(c.Grid.Product * c.Block.Product >= 100000, "Config1D covers n: " + c);
                Expect.Throws(DcStatus.InvalidArgument, () => k.Kernel.Config1D(0), "Config1D(0)", "dc_launch_config_1d");
            }
        }

        [Fact]
        public void GraphCaptureReplayAndUpdate()
        {
            using (var k = new Saxpy())
            {
                const int n = 2048;
                float[] x = RandomFloats(n, 7), y = RandomFloats(n, 8);
                using (DeviceBuffer<float> dx = k.Device.Allocate<float>(n))
                using (DeviceBuffer<float> dy = k.Device.Allocate<float>(n))
                {
                    dx.CopyFrom(x);
                    dy.CopyFrom(y);
                    LaunchConfig c = LaunchConfig.Cover(n, 256);
                    Func<float, Graph> capture = a =>
                    {
                        k.Stream.BeginCapture(CaptureMode.ThreadLocal);
                        Expect.True(k.Stream.IsCapturing, "capturing");
                        k.Kernel.Launch(c, k.Stream, new KernelArgs().Value(a).Buffer(dx).Buffer(dy).Value(n));
                        k.Kernel.Launch(c, k.Stream, new KernelArgs().Value(a).Buffer(dx).Buffer(dy).Value(n));
                        return k.Stream.EndCapture();
                    };
                    using (Graph g = capture(1f))
                    {
                        Expect.False(k.Stream.IsCapturing, "capture ended");
                        Expect.Equal(2UL, g.NodeCount, "two kernel nodes");
                        CheckSaxpy(1f, x, y, dy.ToArray(), 0, "captured work did not run");
                        g.Instantiate();
                        g.Upload(k.Stream);
                        g.Launch(k.Stream);
                        g.Launch(k.Stream);
                        k.Stream.Synchronize();
                        CheckSaxpy(1f, x, y, dy.ToArray(), 4, "two graph launches of two kernels");
                        dy.CopyFrom(y);
                        using (Graph other = capture(-2f))
                            g.Update(other);
                        g.Launch(k.Stream);
                        k.Stream.Synchronize();
                        CheckSaxpy(-2f, x, y, dy.ToArray(), 2, "the updated graph");
                    }
                    Expect.Throws(DcStatus.InvalidState, () => k.Stream.EndCapture(), "ending a capture that never began", "dc_stream_end_capture");
                }
            }
        }

        /// <summary>One-shot launches with a reused KernelArgs, and prepared launches, allocate
        /// nothing per call (measured with GC.GetAllocatedBytesForCurrentThread, which Mono 6 and
        /// .NET Core 3+ have). The configuration is made per call: LaunchConfig is a value type.</summary>
        [Fact]
        public void LaunchesAllocateNothingPerCall()
        {
            using (var k = new Saxpy())
            {
                const int n = 512;
                using (DeviceBuffer<float> dx = k.Device.Allocate<float>(n))
                using (DeviceBuffer<float> dy = k.Device.Allocate<float>(n))
                using (PreparedLaunch prepared = k.Kernel.Prepare(LaunchConfig.Cover(n, 128)))
                {
                    dx.Fill(1f);
                    dy.Fill(0f);
                    var args = new KernelArgs();
                    prepared.SetArgs(args.Clear().Value(1f).Buffer(dx).Buffer(dy).Value(n));
                    const int calls = 1000;
                    for (int pass = 0; pass < 2; pass++)   // the first pass warms up (JIT, statics)
                    {
                        long before = GC.GetAllocatedBytesForCurrentThread();
                        for (int i = 0; i < calls; i++)
                        {
                            args.Clear().Value(1f).Buffer(dx).Buffer(dy).Value(n);
                            k.Kernel.Launch(LaunchConfig.Cover(n, 128), k.Stream, args);
                        }
                        long oneShot = GC.GetAllocatedBytesForCurrentThread() - before;
                        before = GC.GetAllocatedBytesForCurrentThread();
                        for (int i = 0; i < calls; i++)
                            prepared.Enqueue(k.Stream);
                        long enqueued = GC.GetAllocatedBytesForCurrentThread() - before;
                        if (pass == 1)
                        {
                            Expect.Equal(0L, oneShot, "bytes allocated by " + calls + " one-shot launches");
                            Expect.Equal(0L, enqueued, "bytes allocated by " + calls + " prepared launches");
                        }
                    }
                    k.Stream.Synchronize();
                    Expect.Equal(4000f, dy.ToArray()[n - 1], "y after 4000 launches adding x = 1");
                }
            }
        }
    }
}
