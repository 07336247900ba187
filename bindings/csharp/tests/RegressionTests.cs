// Regression tests for defects found by a review of the binding as a .NET user (see
// README.md, "Lifetimes under a moving GC"): each failed before its fix.
using System;
using System.Threading;
using System.Runtime.InteropServices;

namespace Dccuda.Tests
{
    internal static class RegressionTests
    {
        /// <summary>A callback added while the stream captures becomes a host node that runs
        /// at every launch of the graph: its delegate must stay reachable through every launch
        /// (it was freed after the first, so the second called a freed GCHandle).</summary>
        [Test]
        private static void CallbackCapturedIntoAGraphRunsAtEveryLaunch()
        {
            using (Device d = TestEnv.OpenDevice())
            using (Stream s = d.CreateStream())
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
                Assert.Equal(3, calls, "the captured callback ran at each of 3 launches");
                Assert.Equal(0, strangers, "no other delegate was invoked in its place");
                // Given up after the graph's disposal, once its last launch has run.
                Assert.True(TestEnv.CollectUntil(() => HostCallbacks.Count == entriesBefore),
                            "the callback's entry was removed after the graph went (" + HostCallbacks.Count + " left)");
            }
        }

        /// <summary>A capture this object did not begin (here: another object over the same
        /// CUstream began it) has no graph the binding could tie a callback to: refused, and the
        /// capture goes on.</summary>
        [Test]
        private static void CallbackOnACaptureBegunElsewhereIsRefused()
        {
            using (Device d = TestEnv.OpenDevice())
            using (Stream s = d.CreateStream())
            using (Stream alias = d.WrapStream(s.Native))
            {
                int entriesBefore = HostCallbacks.Count;
                s.BeginCapture(CaptureMode.ThreadLocal);
                Assert.Throws(DcStatus.InvalidState, () => alias.AddCallback(() => { }), "a callback on the alias",
                              "not begun by this object");
                Assert.Equal(entriesBefore, HostCallbacks.Count, "no entry left behind");
                using (Graph g = s.EndCapture())
                    Assert.Equal(0UL, g.NodeCount, "nothing recorded");
            }
        }

        /// <summary>An asynchronous copy to or from a managed array or span records the array's
        /// address into the graph, and every launch would write into (or read from) an array
        /// whose pin ended when the call returned: refused while the stream captures, and the
        /// capture goes on.</summary>
        [Test]
        private static void HostSpanCopiesAreRefusedWhileCapturing()
        {
            using (Device d = TestEnv.OpenDevice())
            using (Stream s = d.CreateStream())
            using (DeviceBuffer<int> b = d.Allocate<int>(256))
            {
                var host = new int[256];
                b.Fill(7);
                s.BeginCapture(CaptureMode.ThreadLocal);
                Assert.Throws(DcStatus.InvalidState, () => b.CopyToAsync(host, s), "device -> array while capturing", "capturing");
                Assert.Throws(DcStatus.InvalidState, () => b.CopyFromAsync(host, s), "array -> device while capturing", "capturing");
                Assert.Throws(DcStatus.InvalidState, () => b.ReadBytesAsync(0, new byte[16], s), "bytes out while capturing", "capturing");
                Assert.Throws(DcStatus.InvalidState, () => b.WriteBytesAsync(0, new byte[16], s), "bytes in while capturing", "capturing");
                using (Graph g = s.EndCapture())
                {
                    Assert.Equal(0UL, g.NodeCount, "nothing was captured");
                    g.Launch(s);
                    s.Synchronize();
                }
                Assert.Equal(0, host[255], "the array was not written");
                b.CopyToAsync(host, s);   // not capturing: allowed
                s.Synchronize();
                Assert.Equal(7, host[255], "an uncaptured copy runs");
            }
        }
    }
}
