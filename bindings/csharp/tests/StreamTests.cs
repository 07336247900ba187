// Streams and events: creation flavours, ordering, host callbacks, timing.
using System;
using System.Threading;
using Xunit;

namespace Dccuda.Tests
{
    public sealed class StreamTests
    {
        [Fact]
        public void StreamsOfEveryKind()
        {
            using (Device d = TestEnv.OpenDevice())
            {
                StreamPriorityRange r = d.StreamPriorityRange;
                using (DcStream plain = d.CreateStream())
                using (DcStream blocking = d.CreateStream(StreamFlags.Blocking, r.Greatest))
                using (DcStream legacy = d.GetDefaultStream(DefaultStream.Legacy))
                using (DcStream perThread = d.GetDefaultStream(DefaultStream.PerThread))
                using (DcStream wrapped = d.WrapStream(plain.Native))
                {
                    Expect.NotEqual(IntPtr.Zero, plain.Native, "a created stream's CUstream");
                    Expect.Equal(new IntPtr(1), legacy.Native, "CU_STREAM_LEGACY");
                    Expect.Equal(new IntPtr(2), perThread.Native, "CU_STREAM_PER_THREAD");
                    Expect.Equal(plain.Native, wrapped.Native, "a wrapped stream");
                    foreach (DcStream s in new[] { plain, blocking, legacy, perThread, wrapped })
                    {
                        s.Synchronize();
                        Expect.True(s.IsComplete, "an idle stream is complete");
                        using (Device owner = s.GetDevice())
                            Expect.Equal(0, owner.Info.Ordinal, "the stream's device");
                    }
                }
                Expect.Throws(DcStatus.InvalidArgument, () => d.WrapStream(IntPtr.Zero), "wrapping NULL", "dc_stream_wrap");
            }
        }

        [Fact]
        public void CallbacksRunInStreamOrder()
        {
            using (Device d = TestEnv.OpenDevice())
            using (DcStream s = d.CreateStream())
            using (DeviceBuffer<int> b = d.Allocate<int>(1024))
            using (DeviceBuffer<int> pinned = d.AllocatePinned<int>(1024))
            {
                int calls = 0;
                int seen = -1;
                IntPtr host = pinned.HostPointer;
                b.EnqueueFill(5, s);
                pinned.EnqueueCopyFrom(b, 1024, s);
                // The callback runs after the copy, so it sees the copied data.
                s.AddCallback(() =>
                {
                    seen = System.Runtime.InteropServices.Marshal.ReadInt32(host, 1023 * sizeof(int));
                    Interlocked.Increment(ref calls);
                });
                s.AddCallback(() => Interlocked.Increment(ref calls));
                s.Synchronize();
                Expect.Equal(2, calls, "both callbacks ran");
                Expect.Equal(5, seen, "the first callback saw the copied data");
                Expect.Throws<ArgumentNullException>(() => s.AddCallback(null), "a null callback");
            }
        }

        [Fact]
        public void CallbackExceptionsAreReportedNotThrownIntoTheDriver()
        {
            using (Device d = TestEnv.OpenDevice())
            using (DcStream s = d.CreateStream())
            {
                Exception reported = null;
                Action<Exception> handler = e => reported = e;
                Dc.CallbackException += handler;
                try
                {
                    s.AddCallback(() => { throw new InvalidOperationException("from a callback"); });
                    s.Synchronize();
                }
                finally
                {
                    Dc.CallbackException -= handler;
                }
                Expect.True(reported is InvalidOperationException, "the callback's exception reached Dc.CallbackException");
                Expect.Equal("from a callback", reported.Message, "its message");
            }
        }

        [Fact]
        public void EventsOrderAndTime()
        {
            using (Device d = TestEnv.OpenDevice())
            using (DcStream producer = d.CreateStream())
            using (DcStream consumer = d.CreateStream())
            using (Event start = d.CreateEvent())
            using (Event untimed = d.CreateEvent(EventFlags.DisableTiming))
            using (DeviceBuffer<int> b = d.Allocate<int>(1 << 16))
            {
                Expect.True(start.IsComplete, "an event never recorded is complete");
                start.Record(producer);
                b.EnqueueFill(9, producer);
                using (Event end = producer.Record())
                {
                    consumer.WaitEvent(end);
                    var back = new int[1 << 16];
                    b.EnqueueCopyTo(back, consumer);
                    consumer.Synchronize();
                    Expect.Equal(9, back[(1 << 16) - 1], "the consumer saw the producer's fill");
                    end.Synchronize();
                    Expect.True(end.IsComplete, "a synchronised event is complete");
                    float ms = Event.ElapsedMilliseconds(start, end);
                    Expect.True(ms >= 0 && ms < 60000, "elapsed " + ms + " ms");
                    Expect.NotEqual(IntPtr.Zero, end.Native, "CUevent");
                    untimed.Record(producer);
                    untimed.Synchronize();
                    Expect.Throws(DcStatus.InvalidArgument, () => Event.ElapsedMilliseconds(start, untimed), "timing an untimed event",
                                  "dc_event_elapsed_ms");
                }
            }
        }
    }
}
