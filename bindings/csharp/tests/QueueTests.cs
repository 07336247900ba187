// Message queues and control blocks from the host's side (full and empty, time limits,
// batches, counters, the control block's life), stream memory operations, and the device's
// limits and cache preference. No kernel runs here: the kernel's side of the queues is tested
// in C++ (tests/queue/test_resident.cpp).
using System;
using System.Diagnostics;
using System.Runtime.InteropServices;
using System.Threading;
using System.Threading.Tasks;
using Xunit;

namespace Dccuda.Tests
{
    public sealed class QueueTests
    {
        [StructLayout(LayoutKind.Sequential)]
        private struct Order
        {
            public ulong Id;
            public double Price;
            public uint Quantity;
            public uint Side;
        }

        [Fact]
        public void AQueueToTheDeviceFillsUpTimesOutAndCountsDrops()
        {
            using (Device d = TestEnv.OpenDevice())
            using (MessageQueue q = MessageQueue.Create(d, QueueDirection.ToDevice, 32, 4))
            {
                var order = new Order { Id = 1, Price = 2.5, Quantity = 3, Side = 1 };
                for (int i = 0; i < 4; ++i)
                    Expect.True(q.TryEnqueue(order), "a free slot takes the message");
                Expect.False(q.TryEnqueue(order), "a full queue refuses it");
                var watch = Stopwatch.StartNew();
                Expect.Throws(DcStatus.Timeout, () => q.Enqueue(order, WaitStrategy.Block, TimeSpan.FromMilliseconds(20)),
                              "a full queue for 20 ms");
                Expect.True(watch.ElapsedMilliseconds >= 19, "the wait lasted its limit (" + watch.ElapsedMilliseconds + " ms)");
                QueueStats s = q.Counters;
                Expect.Equal(QueueDirection.ToDevice, s.Direction, "direction");
                Expect.Equal(32u, s.SlotSize, "slot size");
                Expect.Equal(4u, s.Capacity, "capacity");
                Expect.Equal(4ul, s.Length, "length");
                Expect.Equal(2ul, s.Drops, "drops: the refused try and the timeout");
                Expect.Equal(1ul, s.FullWaits, "full waits");
                Expect.Throws(DcStatus.OutOfRange, () => q.TryEnqueue(new ReadOnlySpan<byte>(new byte[33])), "a message past the slot");
                Expect.Throws(DcStatus.InvalidArgument, () => q.TryDequeue(new Span<byte>(new byte[32])), "dequeuing what the host sends");
                using (DeviceBuffer ring = q.GetBuffer())
                    Expect.NotEqual(0ul, ring.DevicePointer, "the ring's device address");

                using (MessageQueue batch = MessageQueue.Create(d, QueueDirection.ToDevice, 8, 8))
                {
                    ulong[] values = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 };
                    Expect.Equal(8, batch.EnqueueBatch(new ReadOnlySpan<ulong>(values)), "a batch fills the free slots");
                    Expect.Equal(0, batch.EnqueueBatch(new ReadOnlySpan<ulong>(values, 0, 1)), "a full queue takes none");
                    Expect.Equal(8ul, batch.Counters.Length, "length after the batch");
                }
            }
        }

        [Fact]
        public void AQueueToTheHostIsEmptyAndRefusesBadShapes()
        {
            using (Device d = TestEnv.OpenDevice())
            using (MessageQueue q = MessageQueue.Create(d, QueueDirection.ToHost, 64, 4))
            {
                var buffer = new byte[4 * 64];
                Expect.Equal(-1, q.TryDequeue(new Span<byte>(buffer, 0, 64)), "an empty queue");
                Expect.Throws(DcStatus.Timeout, () => q.Dequeue(new Span<byte>(buffer, 0, 64), WaitStrategy.SpinYield, TimeSpan.FromMilliseconds(5)),
                              "an empty queue for 5 ms");
                Expect.Equal(0, q.DequeueBatch(new Span<byte>(buffer), 64), "an empty batch");
                Expect.Throws(DcStatus.InvalidArgument, () => q.DequeueBatch(new Span<byte>(buffer), 32), "a stride below the slot size");
                Expect.Throws(DcStatus.InvalidArgument, () => q.TryEnqueue(1u), "enqueuing on a queue to the host");
                Expect.Equal(1ul, q.Counters.EmptyWaits, "empty waits");
                Expect.Throws(DcStatus.InvalidArgument, () => MessageQueue.Create(d, QueueDirection.ToHost, 8, 3).Dispose(), "capacity 3");
                Expect.Throws(DcStatus.InvalidArgument, () => MessageQueue.Create(d, QueueDirection.ToHost, 12, 4).Dispose(), "slot size 12");
            }
        }

        // The ValueTask waits: at once when the queue is ready (no task), given back to the pool
        // while they wait, a timeout as the blocking calls give it, cancellation, and a full
        // queue's async enqueue counted as one drop, not one per poll.
        [Fact]
        public void AsyncWaitsCompleteAtOnceWhenReadyAndTimeOutOrCancelOtherwise()
        {
            using (Device d = TestEnv.OpenDevice())
            using (MessageQueue toDevice = MessageQueue.Create(d, QueueDirection.ToDevice, 16, 2))
            using (MessageQueue toHost = MessageQueue.Create(d, QueueDirection.ToHost, 16, 2))
            using (Control c = Control.Create(d))
            {
                var message = new byte[16];
                ValueTask first = toDevice.EnqueueAsync(message);
                Expect.True(first.IsCompletedSuccessfully, "a free slot: done before the call returns");
                toDevice.EnqueueAsync(message, TimeSpan.FromSeconds(5)).GetAwaiter().GetResult();
                var watch = Stopwatch.StartNew();
                ValueTask full = toDevice.EnqueueAsync(message, TimeSpan.FromMilliseconds(30));
                Expect.False(full.IsCompleted, "a full queue: the call returns and the wait goes on");
                Expect.Throws(DcStatus.Timeout, () => full.GetAwaiter().GetResult(), "a full queue for 30 ms",
                              "MessageQueue.EnqueueAsync", "stayed full");
                Expect.True(watch.ElapsedMilliseconds >= 29, "the wait lasted its limit (" + watch.ElapsedMilliseconds + " ms)");
                QueueStats s = toDevice.Counters;
                Expect.Equal(2ul, s.Enqueued, "two enqueued");
                Expect.Equal(1ul, s.Drops, "the message given up on is one drop, whatever the polls");

                var answer = new byte[16];
                ValueTask<int> none = toHost.DequeueAsync(answer, TimeSpan.FromMilliseconds(20));
                Expect.Throws(DcStatus.Timeout, () => none.GetAwaiter().GetResult(), "an empty queue for 20 ms",
                              "MessageQueue.DequeueAsync", "stayed empty");
                using (var cancel = new CancellationTokenSource())
                {
                    ValueTask<int> waiting = toHost.DequeueAsync(answer, null, cancel.Token);
                    cancel.CancelAfter(10);
                    Expect.Throws<OperationCanceledException>(() => waiting.GetAwaiter().GetResult(), "a cancelled wait");
                }
                Expect.Throws<ArgumentOutOfRangeException>(() => toHost.DequeueAsync(answer, TimeSpan.FromMilliseconds(-1)),
                                                           "a negative time limit");
                Expect.Throws(DcStatus.InvalidArgument, () => toHost.EnqueueAsync(message).GetAwaiter().GetResult(),
                              "enqueuing on a queue to the host");

                Expect.Throws(DcStatus.Timeout, () => c.WaitStoppedAsync(TimeSpan.FromMilliseconds(10)).GetAwaiter().GetResult(),
                              "no kernel ever stops", "Control.WaitStoppedAsync");

                // A queue disposed while an async wait polls it ends the wait with InvalidHandle;
                // one disposed before the call refuses at once.
                ValueTask<int> pending = toHost.DequeueAsync(answer, TimeSpan.FromSeconds(10));
                toHost.Dispose();
                Expect.Throws(DcStatus.InvalidHandle, () => pending.GetAwaiter().GetResult(), "the queue disposed mid-wait");
                Expect.Throws(DcStatus.InvalidHandle, () => toHost.DequeueAsync(answer), "a disposed queue");
                toDevice.Dispose();
                Expect.Throws(DcStatus.InvalidHandle, () => toDevice.EnqueueAsync(message), "a disposed queue");
                c.Dispose();
                Expect.Throws(DcStatus.InvalidHandle, () => c.WaitStoppedAsync(), "a disposed control block");
            }
        }

        [Fact]
        public void AControlBlockGoesFromIdleToStopRequestedAndBack()
        {
            using (Device d = TestEnv.OpenDevice())
            using (Control c = Control.Create(d))
            {
                Expect.Equal(ControlState.Idle, c.State, "a new block");
                Expect.Throws(DcStatus.InvalidState, () => c.CheckProgress(TimeSpan.FromMilliseconds(1)), "the watchdog of an idle kernel");
                Expect.Throws(DcStatus.Timeout, () => c.WaitStopped(WaitStrategy.Block, TimeSpan.FromMilliseconds(2)), "no kernel ever stops");
                c.RequestStop();
                Expect.True(c.Status.StopRequested, "stop requested");
                c.Reset();
                Expect.False(c.Status.StopRequested, "reset clears the request");
                Expect.Equal(0ul, c.Status.Heartbeat, "reset clears the heartbeat");
                using (DeviceBuffer block = c.GetBuffer())
                    Expect.NotEqual(0ul, block.DevicePointer, "the block's device address");
                c.Dispose();
                Expect.Throws(DcStatus.InvalidHandle, () => c.RequestStop(), "a disposed block");
            }
        }

        [Fact]
        public void StreamValuesAreWrittenInOrderAndBatchesAreCheckedWhole()
        {
            using (Device d = TestEnv.OpenDevice())
            using (DcStream s = d.CreateStream())
            // Stream memory operations take cuMemAlloc memory (NoPool): the driver refuses
            // memory of the stream-ordered pool.
            using (DeviceBuffer<ulong> b = d.Allocate<ulong>(8, AllocFlags.NoPool))
            {
                b.CopyFrom(new ReadOnlySpan<ulong>(new ulong[8]));
                s.WriteValue32(b, 4, 0xabcd1234u);
                s.WriteValue64(b, 8, 0x1122334455667788ul, ValueFlags.NoMemoryBarrier);
                // Waits whose values are already there never hold the stream.
                s.WaitValue32(b, 4, 0xabcd1234u, WaitCompare.Equal);
                s.WaitValue64(b, 8, 0x1122334455667700ul, WaitCompare.GreaterOrEqual);
                s.BatchMemOps(StreamMemOp.Wait32(b, 4, 0x4, WaitCompare.And),
                              StreamMemOp.Write32(b, 16, 77),
                              StreamMemOp.Write64(b, 24, 0xffff0000fffful),
                              StreamMemOp.Wait64(b, 24, 0xffff0000fffful, WaitCompare.Equal));
                s.Synchronize();
                ulong[] got = b.ToArray();
                Expect.Equal(0xabcd1234ul << 32, got[0], "the 32-bit write at 4");
                Expect.Equal(0x1122334455667788ul, got[1], "the 64-bit write");
                Expect.Equal(77ul, got[2], "the batch's 32-bit write");
                Expect.Equal(0xffff0000fffful, got[3], "the batch's 64-bit write");

                Expect.Throws(DcStatus.InvalidArgument, () => s.WriteValue32(b, 2, 1), "a misaligned offset", "offset");
                Expect.Throws(DcStatus.OutOfRange, () => s.WaitValue32(b, 64, 1, WaitCompare.Equal), "past the buffer");
                Expect.Throws(DcStatus.InvalidArgument, () => s.BatchMemOps(), "an empty batch");
                Expect.Throws<ArgumentException>(() => s.BatchMemOps(default(StreamMemOp)), "a default operation");
                Expect.Throws(DcStatus.InvalidArgument, () => s.BatchMemOps(StreamMemOp.Write32(b, 32, 5), StreamMemOp.Write32(b, 34, 5)),
                              "a bad second operation", "1");
                s.Synchronize();
                Expect.Equal(0ul, b.ToArray()[4], "nothing of a refused batch ran");
            }
        }

        [Fact]
        public void DeviceLimitsAndTheCachePreferenceAreSetAndReadBack()
        {
            using (Device d = TestEnv.OpenDevice())
            {
                d.SetLimit(DeviceLimit.MallocHeapSize, 64ul << 20);
                Expect.True(d.GetLimit(DeviceLimit.MallocHeapSize) >= 64ul << 20, "the heap limit read back");
                d.SetLimit(DeviceLimit.PrintfFifoSize, 2ul << 20);
                Expect.True(d.GetLimit(DeviceLimit.PrintfFifoSize) >= 2ul << 20, "the printf FIFO read back");
                Expect.True(d.GetLimit(DeviceLimit.StackSize) > 0, "a stack size");
                Expect.Throws(DcStatus.InvalidArgument, () => d.GetLimit((DeviceLimit)3), "an unknown limit");
                Expect.Equal(CachePreference.None, d.CacheConfig, "the default preference");
                d.CacheConfig = CachePreference.L1;
                // A device with a fixed L1/shared split may keep its own answer; the fake keeps the value.
                if (TestEnv.OnFakeDriver)
                    Expect.Equal(CachePreference.L1, d.CacheConfig, "the preference read back");
                d.CacheConfig = CachePreference.None;
                Expect.Throws(DcStatus.InvalidArgument, () => d.CacheConfig = (CachePreference)9, "an unknown preference");
            }
        }
    }
}
