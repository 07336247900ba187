// Handles: every type created and released, released handles used again (raw and safe),
// finalizers releasing on their own thread, many threads at once, and no leaks at the end.
using System;
using System.Collections.Generic;
using System.Linq;
using System.Threading;
using Dccuda.Interop;
using Xunit;

namespace Dccuda.Tests
{
    public sealed class LifetimeTests
    {
        private static readonly HandleType[] AllTypes = (HandleType[])Enum.GetValues(typeof(HandleType));

        private static Dictionary<HandleType, ulong> Counts()
        {
            TestEnv.Settle();
            return AllTypes.ToDictionary(t => t, t => Dc.HandleCount(t));
        }

        private static void ExpectCounts(Dictionary<HandleType, ulong> baseline, Dictionary<HandleType, int> more, string what)
        {
            foreach (HandleType t in AllTypes)
            {
                int extra;
                more.TryGetValue(t, out extra);
                Expect.Equal(baseline[t] + (ulong)extra, Dc.HandleCount(t), what + ": live " + t + " handles");
            }
        }

        /// <summary>Device, buffer, stream, event, program, module and function.</summary>
        [Fact]
        public void EveryHandleTypeCreatedAndReleased()
        {
            TestEnv.RequireNvrtc();
            var baseline = Counts();
            var objects = new List<IDisposable>();
            Device d = TestEnv.OpenDevice();
            objects.Add(d);
            objects.Add(d.Allocate<int>(8));
            objects.Add(d.CreateStream());
            objects.Add(d.CreateEvent());
            DcProgram p = d.Compile(Kernels.Source);
            objects.Add(p);
            DcModule m = d.LoadModule(p);
            objects.Add(m);
            objects.Add(m.GetFunction("saxpy"));
            ExpectCounts(baseline, new Dictionary<HandleType, int>
            {
                { HandleType.Device, 1 }, { HandleType.Buffer, 1 }, { HandleType.Stream, 1 }, { HandleType.Event, 1 },
                { HandleType.Program, 1 }, { HandleType.Module, 1 }, { HandleType.Function, 1 },
            }, "after creating one of each");
            // Parents first: the library keeps them alive for their children.
            foreach (IDisposable o in objects)
                o.Dispose();
            ExpectCounts(baseline, new Dictionary<HandleType, int>(), "after disposing them");
        }

        /// <summary>Prepared launches and graphs.</summary>
        [Fact]
        public void LaunchAndGraphHandlesCreatedAndReleased()
        {
            TestEnv.RequireNvrtc();
            var baseline = Counts();
            using (Device d = TestEnv.OpenDevice())
            using (DcModule m = d.CompileAndLoad(Kernels.Source))
            using (Function f = m.GetFunction("saxpy"))
            using (DcStream s = d.CreateStream())
            using (DeviceBuffer<float> b = d.Allocate<float>(32))
            {
                PreparedLaunch launch = f.Prepare(LaunchConfig.Cover(32, 32));
                launch.SetArgs(new KernelArgs().Value(1f).Buffer(b).Buffer(b).Value(32));
                s.BeginCapture();
                launch.Enqueue(s);
                Graph g = s.EndCapture();
                ExpectCounts(baseline, new Dictionary<HandleType, int>
                {
                    { HandleType.Device, 1 }, { HandleType.Module, 1 }, { HandleType.Function, 1 }, { HandleType.Stream, 1 },
                    { HandleType.Buffer, 1 }, { HandleType.Launch, 1 }, { HandleType.Graph, 1 },
                }, "with a launch and a graph");
                launch.Dispose();
                g.Dispose();
                Expect.Throws(DcStatus.InvalidHandle, () => g.Launch(s), "a disposed graph", "Graph", "disposed");
                Expect.Throws(DcStatus.InvalidHandle, () => launch.Enqueue(s), "a disposed launch", "PreparedLaunch", "disposed");
            }
            ExpectCounts(baseline, new Dictionary<HandleType, int>(), "after disposing everything");
        }

        /// <summary>At the C level: a released handle, a forged one and one of another type are
        /// DC_ERROR_INVALID_HANDLE with a message, never a crash; out-values are zeroed; a
        /// second release is harmless and leaves the last error alone.</summary>
        [Fact]
        public unsafe void ReleasedHandleUsedAgainRaw()
        {
            using (Device d = TestEnv.OpenDevice())
            using (DcStream s = d.CreateStream())
            {
                IntPtr raw;
                DcException.Check(NativeMethods.dc_buffer_alloc(d.Handle.DangerousGetHandle(), 64, 0, &raw));
                NativeMethods.dc_buffer_release(raw);
                ulong size = 12345;
                Expect.Equal(NativeConstants.DC_ERROR_INVALID_HANDLE, NativeMethods.dc_buffer_size(raw, &size), "dc_buffer_size of a released buffer");
                Expect.Equal(0UL, size, "the out-value is zeroed on failure");
                string message = Utf8.Decode(NativeMethods.dc_last_error_message());
                Expect.Contains("dc_buffer_size", message, "the message names the call");
                NativeMethods.dc_buffer_release(raw);   // again: nothing happens
                Expect.Equal(message, Utf8.Decode(NativeMethods.dc_last_error_message()), "a release leaves the last error alone");
                Expect.Equal(NativeConstants.DC_ERROR_INVALID_HANDLE, NativeMethods.dc_buffer_size(new IntPtr(0x5eed1234), &size), "a forged handle");
                Expect.Equal(NativeConstants.DC_ERROR_INVALID_HANDLE, NativeMethods.dc_buffer_size(s.Handle.DangerousGetHandle(), &size),
                             "a stream handle as a buffer");
                Expect.Equal(NativeConstants.DC_ERROR_INVALID_HANDLE, NativeMethods.dc_stream_synchronize(IntPtr.Zero), "a NULL stream");
            }
        }

        /// <summary>In the safe layer: every object used after Dispose is DcException
        /// (DC_ERROR_INVALID_HANDLE), never an ObjectDisposedException or a crash.</summary>
        [Fact]
        public void ReleasedHandleUsedAgainSafe()
        {
            Device d = TestEnv.OpenDevice();
            DeviceBuffer<int> b = d.Allocate<int>(4);
            DcStream s = d.CreateStream();
            Event e = d.CreateEvent();
            b.Dispose();
            s.Dispose();
            e.Dispose();
            Expect.Throws(DcStatus.InvalidHandle, () => b.CopyFrom(new int[4]), "a disposed buffer", "DeviceBuffer", "disposed");
            Expect.Throws(DcStatus.InvalidHandle, () => { var n = b.SizeInBytes; }, "a disposed buffer's size", "disposed");
            Expect.Throws(DcStatus.InvalidHandle, () => s.Synchronize(), "a disposed stream", "DcStream", "disposed");
            Expect.Throws(DcStatus.InvalidHandle, () => e.Record(null), "a disposed event", "Event", "disposed");
            using (DcStream live = d.CreateStream())
                Expect.Throws(DcStatus.InvalidHandle, () => live.WaitEvent(e), "a disposed event as an argument", "event", "disposed");
            d.Dispose();
            Expect.Throws(DcStatus.InvalidHandle, () => d.Synchronize(), "a disposed device", "Device", "disposed");
            Expect.Throws(DcStatus.InvalidHandle, () => d.Allocate<int>(1), "allocating on a disposed device", "disposed");
            b.Dispose();   // twice: harmless
            d.Dispose();
        }

        private static ulong liveInWorker;

        private static void MakeGarbage(int rounds, bool withModule)
        {
            // Objects made here are never disposed: only their SafeHandles' finalizers free them.
            Device d = Device.Open(0);
            for (int i = 0; i < rounds; i++)
            {
                DeviceBuffer<float> b = d.Allocate<float>(256);
                b.CopyFrom(new float[256]);
                d.CreateStream();
                d.CreateEvent();
            }
            if (withModule)
                d.CompileAndLoad(Kernels.Source).GetFunction("saxpy");
            liveInWorker = Dc.HandleCount(HandleType.Buffer);
        }

        /// <summary>Objects dropped on a worker thread are released by the finalizer thread.</summary>
        [Fact]
        public void FinalizersReleaseFromAnotherThread()
        {
            using (TestEnv.OpenDevice()) { }
            bool withModule = TestEnv.HasNvrtc;
            // Settle anything earlier tests left to the finalizer.
            TestEnv.CollectUntil(() => false, 50);
            var baseline = Counts();
            var worker = new Thread(() => MakeGarbage(20, withModule));
            worker.Start();
            worker.Join();
            Expect.True(liveInWorker >= baseline[HandleType.Buffer] + 20, "the worker's 20 buffers were live in it");
            bool released = TestEnv.CollectUntil(() => AllTypes.All(t => Dc.HandleCount(t) == baseline[t]));
            Expect.True(released, "every handle the worker dropped was released by a finalizer; live now: " +
                        string.Join(", ", AllTypes.Select(t => t + "=" + Dc.HandleCount(t) + " (was " + baseline[t] + ")")));
        }

        /// <summary>Many threads allocating, copying and releasing at once.</summary>
        [Fact]
        public void ManyThreadsAtOnce()
        {
            using (Device d = TestEnv.OpenDevice())
            {
                Exception failure = null;
                var threads = Enumerable.Range(0, 4).Select(t => new Thread(() =>
                {
                    try
                    {
                        for (int i = 0; i < 50; i++)
                        {
                            using (DcStream s = d.CreateStream())
                            using (DeviceBuffer<int> b = d.Allocate<int>(100 + i))
                            {
                                var data = Enumerable.Range(t * 1000 + i, 100 + i).ToArray();
                                b.EnqueueCopyFrom(data, s);
                                var back = new int[data.Length];
                                b.EnqueueCopyTo(back, s);
                                s.Synchronize();
                                Expect.SequenceEqual(data, back, "thread " + t + " round " + i);
                            }
                        }
                    }
                    catch (Exception e)
                    {
                        failure = e;
                    }
                })).ToList();
                threads.ForEach(th => th.Start());
                threads.ForEach(th => th.Join());
                if (failure != null)
                    throw new ExpectationException("a thread failed: " + failure);
            }
        }

        /// <summary>Last: nothing this process made is still alive, in the library or (on the
        /// fake driver) in the driver.</summary>
        [Fact]
        public void NothingLeaked()
        {
            TestEnv.Settle();
            bool clean = TestEnv.CollectUntil(() => AllTypes.All(t => Dc.HandleCount(t) == 0));
            Expect.True(clean, "no live handles; live now: " + string.Join(", ", AllTypes.Select(t => t + "=" + Dc.HandleCount(t))));
            Expect.Equal(0, HostCallbacks.Count, "host callback entries left (callbacks that never ran, graphs not let go)");
            if (!TestEnv.OnFakeDriver)
                return;
            foreach (string kind in new[] { "allocations", "host_allocations", "managed", "registrations", "streams", "events", "modules",
                                            "graphs", "graph_execs" })
                Expect.Equal(0L, FakeDriver.Live(kind), "live driver objects: " + kind);
        }
    }
}
