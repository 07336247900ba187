// Message queues (dc_queue) and the control blocks of resident kernels (dc_control): the host's
// side. A kernel launched with LaunchFlags.Persistent takes messages from a ToDevice queue and
// answers through a ToHost one (include/dccuda_device.h is its side), and is stopped through
// its Control block. Pass GetBuffer()'s buffer to the kernel as a buffer argument.
using System;
using System.Runtime.InteropServices;
using Dccuda.Interop;

namespace Dccuda
{
    /// <summary>Owns a dc_queue.</summary>
    public sealed class DcQueueHandle : DcHandle
    {
        internal override void Free(IntPtr value) { NativeMethods.dc_queue_release(value); }
    }

    /// <summary>Owns a dc_control.</summary>
    public sealed class DcControlHandle : DcHandle
    {
        internal override void Free(IntPtr value) { NativeMethods.dc_control_release(value); }
    }

    /// <summary>A queue's shape and counters (dc_queue_stats): the counters count since the queue was made.</summary>
    public struct QueueStats
    {
        /// <summary>Which side enqueues.</summary>
        public QueueDirection Direction;
        /// <summary>Bytes per slot.</summary>
        public uint SlotSize;
        /// <summary>Slots.</summary>
        public uint Capacity;
        /// <summary>Messages in the queue when asked.</summary>
        public ulong Length;
        /// <summary>Messages enqueued (by the host or, ToHost, by the kernel).</summary>
        public ulong Enqueued;
        /// <summary>Messages dequeued (by the kernel or, ToHost, by the host).</summary>
        public ulong Dequeued;
        /// <summary>Host enqueue calls that found the queue full and waited.</summary>
        public ulong FullWaits;
        /// <summary>Host dequeue calls that found the queue empty and waited.</summary>
        public ulong EmptyWaits;
        /// <summary>Host messages not enqueued: full on a try, or a timeout.</summary>
        public ulong Drops;
    }

    /// <summary>What a resident kernel's control block says (dc_control_info).</summary>
    public struct ControlInfo
    {
        /// <summary>The kernel's state.</summary>
        public ControlState State;
        /// <summary>True once RequestStop was called (until Reset).</summary>
        public bool StopRequested;
        /// <summary>The code of the kernel's last dc_control_report_error, 0 if none.</summary>
        public uint LastError;
        /// <summary>The kernel's dc_control_beat count.</summary>
        public ulong Heartbeat;
        /// <summary>How many errors the kernel reported.</summary>
        public ulong Errors;
        /// <summary>How long since the host last saw the heartbeat change (or, before the first change, since the block was made or reset); the host sees changes only when it asks.</summary>
        public TimeSpan Idle;
    }

    internal static class WaitTime
    {
        /// <summary>A time limit in microseconds: null waits without limit (UINT64_MAX).</summary>
        internal static ulong Microseconds(TimeSpan? timeout, string what)
        {
            if (timeout == null)
                return ulong.MaxValue;
            if (timeout.Value < TimeSpan.Zero)
                throw new ArgumentOutOfRangeException(what, what + " is " + timeout.Value + "; give a time limit of zero or more, or null for none");
            return (ulong)(timeout.Value.Ticks / 10);
        }
    }

    /// <summary>A message queue (dc_queue): a single-producer / single-consumer ring of fixed-size slots in page-locked host memory mapped into the device. Host calls may come from any threads (the queue serialises them). Dispose it; the ring lives on while a buffer from GetBuffer does.</summary>
    public sealed unsafe partial class MessageQueue : IDisposable
    {
        private MessageQueue(DcQueueHandle handle)
        {
            Handle = handle;
        }

        /// <summary>The SafeHandle owning the dc_queue (for NativeMethods calls).</summary>
        public DcQueueHandle Handle { get; private set; }

        internal Pin Use() { return new Pin(Handle, "MessageQueue"); }

        /// <summary>A queue of `capacity` slots (a power of two, 2 to 2^24) of `slotSize` bytes
        /// (a power of two, 8 to 65536), at most 1 GiB in all, on `device`; empty.</summary>
        public static MessageQueue Create(Device device, QueueDirection direction, uint slotSize, uint capacity)
        {
            var h = new DcQueueHandle();
            IntPtr raw;
            using (var d = new Pin(device == null ? null : device.Handle, "device"))
                DcException.Check(NativeMethods.dc_queue_create(d.Raw, (int)direction, slotSize, capacity, &raw));
            h.Adopt(raw);
            return new MessageQueue(h);
        }

        /// <summary>A new handle to the buffer holding the ring, for the kernel's dc_queue_ring*
        /// parameter (dispose it). Never write to it yourself: that corrupts the queue.</summary>
        public DeviceBuffer GetBuffer()
        {
            var h = new DcBufferHandle();
            IntPtr raw;
            using (var q = Use())
                DcException.Check(NativeMethods.dc_queue_buffer(q.Raw, &raw));
            h.Adopt(raw);
            return new DeviceBuffer(h);
        }

        /// <summary>Enqueue one message (0 to the slot size bytes) if a slot is free: false when
        /// the queue was full (counted as a drop). Never waits. ToDevice queues only.</summary>
        public bool TryEnqueue(ReadOnlySpan<byte> message)
        {
            int status;
            using (var q = Use())
            fixed (byte* p = &MemoryMarshal.GetReference(message))
                status = NativeMethods.dc_queue_try_enqueue(q.Raw, p, (uint)message.Length);
            DcException.Check(status);
            return status == NativeConstants.DC_SUCCESS;
        }

        /// <summary>TryEnqueue with the bytes of one value (a plain value type, laid out as the kernel reads it).</summary>
        public bool TryEnqueue<T>(T message) where T : struct
        {
            return TryEnqueue(MemoryMarshal.AsBytes(new ReadOnlySpan<T>(new[] { message })));
        }

        /// <summary>Enqueue one message, waiting up to `timeout` (null: no limit) for a free slot
        /// as `wait` says. DcException Timeout when the queue stayed full (nothing enqueued).</summary>
        public void Enqueue(ReadOnlySpan<byte> message, WaitStrategy wait = WaitStrategy.Block, TimeSpan? timeout = null)
        {
            ulong us = WaitTime.Microseconds(timeout, "timeout");
            using (var q = Use())
            fixed (byte* p = &MemoryMarshal.GetReference(message))
                DcException.Check(NativeMethods.dc_queue_enqueue(q.Raw, p, (uint)message.Length, (int)wait, us));
        }

        /// <summary>Enqueue with the bytes of one value.</summary>
        public void Enqueue<T>(T message, WaitStrategy wait = WaitStrategy.Block, TimeSpan? timeout = null) where T : struct
        {
            Enqueue(MemoryMarshal.AsBytes(new ReadOnlySpan<T>(new[] { message })), wait, timeout);
        }

        /// <summary>Enqueue as many of `messages` (one per element) as there are free slots, in
        /// order, made visible to the kernel together; returns how many (0: the queue was full).
        /// Never waits.</summary>
        public int EnqueueBatch<T>(ReadOnlySpan<T> messages) where T : struct
        {
            ReadOnlySpan<byte> bytes = MemoryMarshal.AsBytes(messages);
            uint size = messages.Length == 0 ? 0u : (uint)(bytes.Length / messages.Length);
            if (size == 0)
                size = (uint)Marshal.SizeOf(typeof(T));
            uint done = 0;
            int status;
            using (var q = Use())
            fixed (byte* p = &MemoryMarshal.GetReference(bytes))
                status = NativeMethods.dc_queue_enqueue_batch(q.Raw, p, (ulong)bytes.Length, size, &done);
            DcException.Check(status);
            return status == NativeConstants.DC_SUCCESS ? (int)done : 0;
        }

        /// <summary>Dequeue the oldest message into `destination` if there is one: its length,
        /// or -1 when the queue was empty. Never waits. ToHost queues only. A message longer
        /// than `destination` stays queued (DcException OutOfRange); a slot-size one always fits.</summary>
        public int TryDequeue(Span<byte> destination)
        {
            uint size = 0;
            int status;
            using (var q = Use())
            fixed (byte* p = &MemoryMarshal.GetReference(destination))
                status = NativeMethods.dc_queue_try_dequeue(q.Raw, p, (uint)destination.Length, &size);
            DcException.Check(status);
            return status == NativeConstants.DC_SUCCESS ? (int)size : -1;
        }

        /// <summary>Dequeue the oldest message into `destination`, waiting up to `timeout` (null:
        /// no limit) as `wait` says; its length. DcException Timeout when none came.</summary>
        public int Dequeue(Span<byte> destination, WaitStrategy wait = WaitStrategy.Block, TimeSpan? timeout = null)
        {
            ulong us = WaitTime.Microseconds(timeout, "timeout");
            uint size = 0;
            using (var q = Use())
            fixed (byte* p = &MemoryMarshal.GetReference(destination))
                DcException.Check(NativeMethods.dc_queue_dequeue(q.Raw, p, (uint)destination.Length, &size, (int)wait, us));
            return (int)size;
        }

        /// <summary>Dequeue the messages already queued, up to destination.Length / stride,
        /// message i at destination[i * stride] (stride at least the slot size); how many (0:
        /// empty). Never waits.</summary>
        public int DequeueBatch(Span<byte> destination, int stride)
        {
            if (stride <= 0)
                throw new ArgumentOutOfRangeException("stride", "stride is " + stride + "; give at least the slot size");
            uint count = 0;
            int status;
            using (var q = Use())
            fixed (byte* p = &MemoryMarshal.GetReference(destination))
                status = NativeMethods.dc_queue_dequeue_batch(q.Raw, p, (ulong)destination.Length, (uint)stride, &count);
            DcException.Check(status);
            return status == NativeConstants.DC_SUCCESS ? (int)count : 0;
        }

        /// <summary>The queue's shape and counters, read now (enqueued and dequeued include the kernel's side).</summary>
        public QueueStats Counters
        {
            get
            {
                DcQueueStats s = DcQueueStats.Init();
                using (var q = Use())
                    DcException.Check(NativeMethods.dc_queue_counters(q.Raw, &s));
                return new QueueStats { Direction = (QueueDirection)s.Direction, SlotSize = s.SlotSize, Capacity = s.Capacity,
                                        Length = s.Length, Enqueued = s.Enqueued, Dequeued = s.Dequeued,
                                        FullWaits = s.FullWaits, EmptyWaits = s.EmptyWaits, Drops = s.Drops };
            }
        }

        /// <summary>Release the queue (the ring lives on while a buffer from GetBuffer does).</summary>
        public void Dispose()
        {
            Handle.Dispose();
        }
    }

    /// <summary>The control block of a resident kernel (dc_control): the kernel reports its state and heartbeat there; the host asks it to stop, waits for it, and watches the heartbeat. One kernel at a time; Reset before the next launch. Dispose it.</summary>
    public sealed unsafe partial class Control : IDisposable
    {
        private Control(DcControlHandle handle)
        {
            Handle = handle;
        }

        /// <summary>The SafeHandle owning the dc_control (for NativeMethods calls).</summary>
        public DcControlHandle Handle { get; private set; }

        internal Pin Use() { return new Pin(Handle, "Control"); }

        /// <summary>A control block on `device`, in state Idle.</summary>
        public static Control Create(Device device)
        {
            var h = new DcControlHandle();
            IntPtr raw;
            using (var d = new Pin(device == null ? null : device.Handle, "device"))
                DcException.Check(NativeMethods.dc_control_create(d.Raw, &raw));
            h.Adopt(raw);
            return new Control(h);
        }

        /// <summary>A new handle to the buffer holding the block, for the kernel's
        /// dc_control_block* parameter (dispose it).</summary>
        public DeviceBuffer GetBuffer()
        {
            var h = new DcBufferHandle();
            IntPtr raw;
            using (var c = Use())
                DcException.Check(NativeMethods.dc_control_buffer(c.Raw, &raw));
            h.Adopt(raw);
            return new DeviceBuffer(h);
        }

        /// <summary>Ask the kernel to stop; returns at once (DcException InvalidState once it has stopped).</summary>
        public void RequestStop()
        {
            using (var c = Use())
                DcException.Check(NativeMethods.dc_control_request_stop(c.Raw));
        }

        /// <summary>Wait up to `timeout` (null: no limit) for the kernel to report it stopped, as
        /// `wait` says; DcException Timeout when it did not. Synchronise its stream before reusing
        /// what it wrote.</summary>
        public void WaitStopped(WaitStrategy wait = WaitStrategy.Block, TimeSpan? timeout = null)
        {
            ulong us = WaitTime.Microseconds(timeout, "timeout");
            using (var c = Use())
                DcException.Check(NativeMethods.dc_control_wait_stopped(c.Raw, (int)wait, us));
        }

        /// <summary>What the block says now: state, stop request, heartbeat, errors, idle time.</summary>
        public ControlInfo Status
        {
            get
            {
                DcControlInfo info = DcControlInfo.Init();
                using (var c = Use())
                    DcException.Check(NativeMethods.dc_control_status(c.Raw, &info));
                return new ControlInfo { State = (ControlState)info.State, StopRequested = info.StopRequested != 0,
                                         LastError = info.LastError, Heartbeat = info.Heartbeat, Errors = info.Errors,
                                         Idle = TimeSpan.FromTicks((long)Math.Min(info.IdleUs, (ulong)(long.MaxValue / 10)) * 10) };
            }
        }

        /// <summary>The kernel's state, read now.</summary>
        public ControlState State { get { return Status.State; } }

        /// <summary>The watchdog: DcException Timeout when the running kernel's heartbeat has not
        /// changed for longer than `stall`, InvalidState when it is not running.</summary>
        public void CheckProgress(TimeSpan stall)
        {
            ulong us = WaitTime.Microseconds(stall, "stall");
            using (var c = Use())
                DcException.Check(NativeMethods.dc_control_check_progress(c.Raw, us));
        }

        /// <summary>Ready for the next launch: Idle, stop request, heartbeat and errors cleared
        /// (DcException InvalidState while the kernel runs).</summary>
        public void Reset()
        {
            using (var c = Use())
                DcException.Check(NativeMethods.dc_control_reset(c.Raw));
        }

        /// <summary>Release the block (its memory lives on while a buffer from GetBuffer does).</summary>
        public void Dispose()
        {
            Handle.Dispose();
        }
    }
}
