// Awaiting streams and events (TAP): completion through a host callback, no thread blocked per
// await, continuations off the driver's thread, cancellation of the wait only, faults
// reported; and Memory<T> copies pinned until they ran. On the fake driver host functions run
// at once inside the enqueueing call, so a wait there completes before it is awaited; the
// tests that need a wait still pending use AsyncCompletion.StartDetached (the same code path
// from the table entry on) or run only on a real driver.
using System;
using System.Buffers;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;
using Xunit;

namespace Dccuda.Tests
{
    public sealed class AsyncTests
    {
        [Fact]
        public async Task SynchronizeAsyncCompletesAfterTheWork()
        {
            using (Device d = TestEnv.OpenDevice())
            using (DcStream s = d.CreateStream())
            using (DeviceBuffer<int> b = d.Allocate<int>(4096))
            {
                b.EnqueueFill(3, s);
                await s.SynchronizeAsync();
                Expect.True(s.IsComplete, "the stream is idle after the await");
                Expect.Equal(3, b.ToArray()[4095], "the fill ran before the await ended");
                using (Event e = s.Record())
                {
                    await e.WaitAsync();
                    Expect.True(e.IsComplete, "the event completed");
                }
                using (Event never = d.CreateEvent())
                    await never.WaitAsync();   // never recorded: complete at once, as Synchronize
            }
        }

        /// <summary>1,000 awaits at once, from a scheduler of 2 threads: a binding that blocked a
        /// thread per await would deadlock here. Every continuation runs on one of the 2 threads
        /// (never inline on the driver's callback thread), and every wait completes.</summary>
        [Fact]
        public void ThousandConcurrentAwaitsFromATwoThreadPool()
        {
            using (Device d = TestEnv.OpenDevice())
            using (var scheduler = new TwoThreadScheduler())
            {
                var streams = Enumerable.Range(0, 8).Select(_ => d.CreateStream()).ToArray();
                var buffers = streams.Select(_ => d.Allocate<int>(1024)).ToArray();
                try
                {
                    int completed = 0;
                    var threads = new ConcurrentDictionary<int, bool>();
                    var factory = new TaskFactory(scheduler);
                    Task[] tasks = Enumerable.Range(0, 1000).Select(i => factory.StartNew(async () =>
                    {
                        int k = i % streams.Length;
                        lock (streams[k])   // one enqueuer per stream at a time (ordering, not safety)
                            buffers[k].EnqueueFill(i, streams[k]);
                        await streams[k].SynchronizeAsync();
                        threads[Thread.CurrentThread.ManagedThreadId] = true;
                        Interlocked.Increment(ref completed);
                    }).Unwrap()).ToArray();
                    bool all = Task.WaitAll(tasks, TimeSpan.FromSeconds(120));
                    Expect.True(all, "1000 awaits completed within 120 s (" + completed + " did): no deadlock");
                    Expect.Equal(1000, completed, "completed awaits");
                    foreach (int id in threads.Keys)
                        Expect.True(scheduler.Owns(id), "a continuation ran on thread " + id + ", not one of the scheduler's 2");
                }
                finally
                {
                    foreach (var b in buffers)
                        b.Dispose();
                    foreach (var s in streams)
                        s.Dispose();
                }
            }
        }

        [Fact]
        public void WaitCancelledBeforeItBeginsEnqueuesNothing()
        {
            using (Device d = TestEnv.OpenDevice())
            using (DcStream s = d.CreateStream())
            using (var cts = new CancellationTokenSource())
            {
                int entries = HostCallbacks.Count;
                cts.Cancel();
                ValueTask t = s.SynchronizeAsync(cts.Token);
                Expect.True(t.IsCanceled, "a wait with a cancelled token is cancelled");
                Expect.Throws<OperationCanceledException>(() => t.GetAwaiter().GetResult(), "awaiting it");
                Expect.Equal(entries, HostCallbacks.Count, "no callback was enqueued");
            }
        }

        /// <summary>A pending wait cancelled: the await ends with OperationCanceledException at
        /// once, and the callback's later run finds no entry and does nothing (on any driver:
        /// the wait is held pending by not enqueueing its callback).</summary>
        [Fact]
        public async Task PendingWaitCancelledEndsTheWaitOnly()
        {
            using (var cts = new CancellationTokenSource())
            {
                int entries = HostCallbacks.Count;
                long key;
                ValueTask wait = AsyncCompletion.StartDetached(cts.Token, out key);
                Expect.False(wait.IsCompleted, "the wait is pending");
                cts.Cancel();
                Expect.True(wait.IsCanceled, "cancelled");
                try
                {
                    await wait;
                    throw new ExpectationException("awaiting a cancelled wait returned");
                }
                catch (OperationCanceledException e)
                {
                    Expect.Contains("the GPU work goes on", e.Message, "the exception says what was cancelled");
                }
                HostCallbacks.Invoke(HostCallbacks.UserData(key));   // the driver reaching the callback late
                Expect.Equal(entries, HostCallbacks.Count, "the entry is gone");

                // The other order: the callback first, then a cancellation that changes nothing.
                using (var late = new CancellationTokenSource())
                {
                    ValueTask done = AsyncCompletion.StartDetached(late.Token, out key);
                    HostCallbacks.Invoke(HostCallbacks.UserData(key));
                    late.Cancel();
                    await done;
                    Expect.True(done.IsCompletedSuccessfully, "completed before the cancellation");
                }
            }
        }

        /// <summary>On a real GPU: a wait held pending by a callback that blocks the stream is
        /// cancelled while the stream is still busy, which then completes when released.</summary>
        [Fact]
        public async Task PendingStreamWaitCancelledOnARealDriver()
        {
            if (TestEnv.OnFakeDriver)
                throw Skip.Because("the fake driver runs host functions inside the enqueueing call, so a stream cannot be held busy");
            using (Device d = TestEnv.OpenDevice())
            using (DcStream s = d.CreateStream())
            using (var gate = new ManualResetEventSlim(false))
            using (var cts = new CancellationTokenSource())
            {
                s.AddCallback(() => gate.Wait(TimeSpan.FromSeconds(30)));
                ValueTask wait = s.SynchronizeAsync(cts.Token);
                Expect.False(wait.IsCompleted, "the wait is pending behind the blocked callback");
                cts.Cancel();
                Expect.Throws<OperationCanceledException>(() => wait.AsTask().GetAwaiter().GetResult(), "the cancelled wait");
                Expect.False(s.IsComplete, "the GPU work was not cancelled: the stream is still busy");
                gate.Set();
                await s.SynchronizeAsync();
                Expect.True(s.IsComplete, "the stream completed after the gate opened");
            }
        }

        [Fact]
        public void SynchronizeAsyncIsRefusedWhileCapturing()
        {
            using (Device d = TestEnv.OpenDevice())
            using (DcStream s = d.CreateStream())
            {
                s.BeginCapture(CaptureMode.ThreadLocal);
                Expect.Throws(DcStatus.InvalidState, () => s.SynchronizeAsync(), "awaiting a capturing stream", "capturing");
                using (Graph g = s.EndCapture())
                    Expect.Equal(0UL, g.NodeCount, "nothing recorded");
            }
        }

        /// <summary>Memory&lt;T&gt; copies keep the memory pinned until they ran, then let go
        /// (the unpin callback's entry disappears): from an array segment, into a managed
        /// array, and from a pinned buffer's memory (AsMemory), which the driver copies
        /// asynchronously.</summary>
        [Fact]
        public async Task MemoryCopiesStayPinnedUntilTheyRan()
        {
            using (Device d = TestEnv.OpenDevice())
            using (DcStream s = d.CreateStream())
            using (DeviceBuffer<int> dev = d.Allocate<int>(1000))
            using (DeviceBuffer<int> pinned = d.AllocatePinned<int>(1000))
            {
                int entries = HostCallbacks.Count;
                var source = new int[1200];
                for (int i = 0; i < source.Length; i++)
                    source[i] = i * 7;
                dev.EnqueueCopyFrom(new ReadOnlyMemory<int>(source, 100, 1000), s);
                var back = new int[1000];
                dev.EnqueueCopyTo(new Memory<int>(back), s);
                await s.SynchronizeAsync();
                Expect.SequenceEqual(source.Skip(100).Take(1000).ToArray(), back, "array segment -> device -> array");

                Memory<int> host = pinned.AsMemory();
                Expect.Equal(1000, host.Length, "AsMemory's length");
                dev.EnqueueFill(5, s);
                dev.EnqueueCopyTo(host, s);
                await s.SynchronizeAsync();
                Expect.Equal(5, host.Span[999], "device -> pinned buffer memory");
                Fill(host.Slice(0, 1), 11);
                dev.EnqueueCopyFrom((ReadOnlyMemory<int>)host, s);
                await s.SynchronizeAsync();
                Expect.Equal(11, dev.ToArray()[0], "pinned buffer memory -> device");

                Expect.True(TestEnv.CollectUntil(() => HostCallbacks.Count == entries),
                            "every pin was let go after its copy (" + (HostCallbacks.Count - entries) + " left)");

                s.BeginCapture(CaptureMode.ThreadLocal);
                Expect.Throws(DcStatus.InvalidState, () => dev.EnqueueCopyTo(new Memory<int>(back), s), "a Memory copy while capturing", "capturing");
                s.EndCapture().Dispose();
                Expect.Equal(entries, HostCallbacks.Count, "nothing left pinned by the refused copy");
            }
        }

        /// <summary>A pinned buffer's memory pinned by a copy keeps the buffer alive after its
        /// Dispose, until the copy ran.</summary>
        [Fact]
        public async Task PinnedBufferMemoryOutlivesItsDisposeUntilTheCopyRan()
        {
            using (Device d = TestEnv.OpenDevice())
            using (DcStream s = d.CreateStream())
            using (DeviceBuffer<int> dev = d.Allocate<int>(256))
            {
                ulong buffers = TestEnv.Handles(HandleType.Buffer);
                DeviceBuffer<int> pinned = d.AllocatePinned<int>(256);
                Memory<int> host = pinned.AsMemory();
                Fill(host, 9);
                using (MemoryHandle held = host.Pin())
                {
                    pinned.Dispose();
                    Expect.Equal(buffers + 1, TestEnv.Handles(HandleType.Buffer), "the pinned buffer lives while its memory is pinned");
                    dev.EnqueueCopyFrom((ReadOnlyMemory<int>)host, s);
                    await s.SynchronizeAsync();
                }
                Expect.Equal(9, dev.ToArray()[255], "copied from the disposed buffer's memory while pinned");
                Expect.True(TestEnv.CollectUntil(() => TestEnv.Handles(HandleType.Buffer) == buffers), "released once unpinned");
                Expect.Throws(DcStatus.InvalidHandle, () => host.Span.ToArray(), "its memory after the release", "disposed");
            }
        }

        /// <summary>(Span locals are not allowed in async methods.)</summary>
        private static void Fill(Memory<int> memory, int value)
        {
            Span<int> span = memory.Span;
            span.Fill(value);
        }

        /// <summary>A TaskScheduler of exactly two threads.</summary>
        private sealed class TwoThreadScheduler : TaskScheduler, IDisposable
        {
            private readonly BlockingCollection<Task> queue = new BlockingCollection<Task>();
            private readonly Thread[] threads;

            public TwoThreadScheduler()
            {
                threads = new Thread[2];
                for (int i = 0; i < threads.Length; i++)
                {
                    threads[i] = new Thread(() =>
                    {
                        foreach (Task t in queue.GetConsumingEnumerable())
                            TryExecuteTask(t);
                    }) { IsBackground = true, Name = "test scheduler " + i };
                    threads[i].Start();
                }
            }

            public bool Owns(int managedThreadId)
            {
                return threads.Any(t => t.ManagedThreadId == managedThreadId);
            }

            public override int MaximumConcurrencyLevel { get { return threads.Length; } }

            protected override void QueueTask(Task task)
            {
                queue.Add(task);
            }

            protected override bool TryExecuteTaskInline(Task task, bool taskWasPreviouslyQueued)
            {
                return Owns(Thread.CurrentThread.ManagedThreadId) && TryExecuteTask(task);
            }

            protected override IEnumerable<Task> GetScheduledTasks()
            {
                return queue.ToArray();
            }

            public void Dispose()
            {
                queue.CompleteAdding();
                foreach (Thread t in threads)
                    t.Join();
                queue.Dispose();
            }
        }
    }
}
