// Regression tests for defects found by a review of the binding as a .NET user (see
// README.md, "Lifetimes under a moving GC"): each failed before its fix.
using System;
using System.Threading;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using Xunit;

namespace Dccuda.Tests
{
    public sealed class RegressionTests
    {
        /// <summary>A callback added while the stream captures becomes a host node that runs
        /// at every launch of the graph: its delegate must stay reachable through every launch
        /// (it was freed after the first, so the second called a freed GCHandle).</summary>
        [Fact]
        public void CallbackCapturedIntoAGraphRunsAtEveryLaunch()
        {
            using (Device d = TestEnv.OpenDevice())
            using (DcStream s = d.CreateStream())
            {
                int calls = 0, strangers = 0;
                int entriesBefore = HostCallbacks.Count;
                s.BeginCapture(CaptureMode.ThreadLocal);
                s.AddCallback(() => Interlocked.Increment(ref calls));
                using (Graph g = s.EndCapture())
                {
                    var others = new GCHandle[64];
                    for (int launch = 0; launch < 3; launch++)
                    {
                        g.Launch(s);
                        s.Synchronize();
                        // Take GCHandle slots that a freed callback handle would give back.
                        for (int i = 0; i < others.Length; i++)
                            others[i] = GCHandle.Alloc(new Action(() => Interlocked.Increment(ref strangers)));
                        GC.Collect();
                    }
                    foreach (GCHandle h in others)
                        h.Free();
                }
                Expect.Equal(3, calls, "the captured callback ran at each of 3 launches");
                Expect.Equal(0, strangers, "no other delegate was invoked in its place");
                // Given up after the graph's disposal, once its last launch has run.
                Expect.True(TestEnv.CollectUntil(() => HostCallbacks.Count == entriesBefore),
                            "the callback's entry was removed after the graph went (" + HostCallbacks.Count + " left)");
            }
        }

        /// <summary>A capture this object did not begin (here: another object over the same
        /// CUstream began it) has no graph the binding could tie a callback to: refused, and the
        /// capture goes on.</summary>
        [Fact]
        public void CallbackOnACaptureBegunElsewhereIsRefused()
        {
            using (Device d = TestEnv.OpenDevice())
            using (DcStream s = d.CreateStream())
            using (DcStream alias = d.WrapStream(s.Native))
            {
                int entriesBefore = HostCallbacks.Count;
                s.BeginCapture(CaptureMode.ThreadLocal);
                Expect.Throws(DcStatus.InvalidState, () => alias.AddCallback(() => { }), "a callback on the alias",
                              "not begun by this object");
                Expect.Equal(entriesBefore, HostCallbacks.Count, "no entry left behind");
                using (Graph g = s.EndCapture())
                    Expect.Equal(0UL, g.NodeCount, "nothing recorded");
            }
        }

        /// <summary>An asynchronous copy to or from a managed array or span records the array's
        /// address into the graph, and every launch would write into (or read from) an array
        /// whose pin ended when the call returned: refused while the stream captures, and the
        /// capture goes on.</summary>
        [Fact]
        public void HostSpanCopiesAreRefusedWhileCapturing()
        {
            using (Device d = TestEnv.OpenDevice())
            using (DcStream s = d.CreateStream())
            using (DeviceBuffer<int> b = d.Allocate<int>(256))
            {
                var host = new int[256];
                b.Fill(7);
                s.BeginCapture(CaptureMode.ThreadLocal);
                Expect.Throws(DcStatus.InvalidState, () => b.EnqueueCopyTo(host, s), "device -> array while capturing", "capturing");
                Expect.Throws(DcStatus.InvalidState, () => b.EnqueueCopyFrom(host, s), "array -> device while capturing", "capturing");
                Expect.Throws(DcStatus.InvalidState, () => b.EnqueueReadBytes(0, new byte[16], s), "bytes out while capturing", "capturing");
                Expect.Throws(DcStatus.InvalidState, () => b.EnqueueWriteBytes(0, new byte[16], s), "bytes in while capturing", "capturing");
                using (Graph g = s.EndCapture())
                {
                    Expect.Equal(0UL, g.NodeCount, "nothing was captured");
                    g.Launch(s);
                    s.Synchronize();
                }
                Expect.Equal(0, host[255], "the array was not written");
                b.EnqueueCopyTo(host, s);   // not capturing: allowed
                s.Synchronize();
                Expect.Equal(7, host[255], "an uncaptured copy runs");
            }
        }

        private const string AddOneSource = @"
extern ""C"" __global__ void saxpy(float a, const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
";

        /// <summary>y = 1 * x + y with y a registered (mapped) managed array that a prepared
        /// launch still holds after the buffer was disposed: the array must stay pinned until the
        /// library's last use of it, or the GC moves it and the kernel writes where it was.</summary>
        [Fact]
        public void RegisteredArrayStaysPinnedWhileAPreparedLaunchHoldsIt()
        {
            TestEnv.RequireNvrtc();
            const int n = 256;
            using (Device d = TestEnv.OpenDevice())
            using (DcModule m = d.CompileAndLoad(AddOneSource, null, "add_one.cu"))
            using (Function saxpy = m.GetFunction("saxpy"))
            using (DcStream s = d.CreateStream())
            using (DeviceBuffer<float> x = d.Allocate<float>(n))
            {
                x.Fill(2f);
                var y = new Holder();
                ulong buffersBefore = TestEnv.Handles(HandleType.Buffer);
                using (PreparedLaunch launch = saxpy.Prepare(LaunchConfig.Cover(n, 128)))
                {
                    using (DeviceBuffer<float> registered = RegisterFresh(d, y, n))
                    {
                        launch.SetArgs(new KernelArgs().Value(1f).Buffer(x).Buffer(registered).Value(n));
                    }   // disposed: the launch still holds the buffer
                    Churn();
                    Expect.False(y.Moved(), "the array moved while the library still used it");
                    launch.Enqueue(s);
                    s.Synchronize();
                }
                Expect.SequenceEqual(NewArray(n, 3f), y.Array, "the array the prepared launch wrote");
                Expect.Equal(buffersBefore, TestEnv.Handles(HandleType.Buffer), "the registered buffer went with the launch");
            }
        }

        /// <summary>The same with a captured graph holding the registered array.</summary>
        [Fact]
        public void RegisteredArrayStaysPinnedWhileAGraphHoldsIt()
        {
            TestEnv.RequireNvrtc();
            const int n = 256;
            using (Device d = TestEnv.OpenDevice())
            using (DcModule m = d.CompileAndLoad(AddOneSource, null, "add_one.cu"))
            using (Function saxpy = m.GetFunction("saxpy"))
            using (DcStream s = d.CreateStream())
            using (DeviceBuffer<float> x = d.Allocate<float>(n))
            {
                x.Fill(2f);
                var y = new Holder();
                ulong buffersBefore = TestEnv.Handles(HandleType.Buffer);
                Graph g;
                using (DeviceBuffer<float> registered = RegisterFresh(d, y, n))
                {
                    s.BeginCapture(CaptureMode.ThreadLocal);
                    saxpy.Launch(LaunchConfig.Cover(n, 128), s, new KernelArgs().Value(1f).Buffer(x).Buffer(registered).Value(n));
                    g = s.EndCapture();
                }   // disposed: the graph still uses the array
                Churn();
                using (g)
                {
                    Expect.False(y.Moved(), "the array moved while the graph still used it");
                    g.Launch(s);
                    s.Synchronize();
                }
                Expect.SequenceEqual(NewArray(n, 3f), y.Array, "the array the graph wrote");
                Expect.True(TestEnv.CollectUntil(() => TestEnv.Handles(HandleType.Buffer) == buffersBefore),
                            "the registered buffer went after the graph's last launch");
            }
        }

        /// <summary>Holds the array, and its address complemented (so that it does not look like a
        /// pointer), so that no stack slot of the test refers to it: Mono scans stacks
        /// conservatively and never moves what a stack word points into; CoreCLR does.</summary>
        private sealed class Holder
        {
            public float[] Array;
            private long at;

            [MethodImpl(MethodImplOptions.NoInlining)]
            public unsafe void Note()
            {
                fixed (float* p = Array)
                    at = ~(long)p;
            }

            [MethodImpl(MethodImplOptions.NoInlining)]
            public unsafe bool Moved()
            {
                fixed (float* p = Array)
                    return ~(long)p != at;
            }
        }

        [MethodImpl(MethodImplOptions.NoInlining)]
        private static DeviceBuffer<float> RegisterFresh(Device d, Holder y, int n)
        {
            y.Array = NewArray(n, 1f);   // small and young: a collection moves it once unpinned
            DeviceBuffer<float> registered = d.RegisterHost(y.Array, AllocFlags.DeviceMapped);
            y.Note();
            return registered;
        }

        private static float[] NewArray(int n, float value)
        {
            var a = new float[n];
            for (int i = 0; i < n; i++)
                a[i] = value;
            return a;
        }

        /// <summary>Allocate and collect so that a young, unpinned array is moved.</summary>
        [MethodImpl(MethodImplOptions.NoInlining)]
        private static void Churn()
        {
            for (int i = 0; i < 4; i++)
            {
                var garbage = new object[1024];
                for (int j = 0; j < garbage.Length; j++)
                    garbage[j] = new byte[64];
                GC.Collect();
                GC.WaitForPendingFinalizers();
            }
        }
    }
}
