// A dc_stream: ordered work on a device, host callbacks, stream-ordered allocation and
// capture into graphs.
using System;
using System.Runtime.InteropServices;
using System.Threading;
using System.Threading.Tasks;
using Dccuda.Interop;

namespace Dccuda
{
    /// <summary>A stream (dc_stream): ordered work on a device. Stream-ordered calls take it (Enqueue…, Launch); SynchronizeAsync awaits it; BeginCapture records it into a Graph.</summary>
    public sealed unsafe class DcStream : IDisposable
    {
        internal DcStream(DcStreamHandle handle)
        {
            Handle = handle;
        }

        /// <summary>The SafeHandle owning the dc_stream (for NativeMethods calls).</summary>
        public DcStreamHandle Handle { get; private set; }

        internal Pin Use() { return new Pin(Handle, "DcStream"); }

        /// <summary>Wait until all work enqueued so far has completed; a fault in it is reported here.</summary>
        public void Synchronize()
        {
            using (var s = Use())
                DcException.Check(NativeMethods.dc_stream_synchronize(s.Raw));
        }

        /// <summary>Wait, without blocking a thread, until all work enqueued so far has
        /// completed; a fault in it is reported as Synchronize reports it (as DcException).
        /// Completion comes from a host callback enqueued now (dc_stream_add_callback);
        /// continuations never run on the driver's callback thread
        /// (RunContinuationsAsynchronously). Cancelling `cancellationToken` ends the wait with
        /// OperationCanceledException; it does not cancel the GPU work, which runs on. Refused
        /// (DC_ERROR_INVALID_STATE) while the stream captures a graph. A wait outlived by a
        /// device fault (after which the driver calls no host function) fails with the fault
        /// within about 0.1 s.</summary>
        public ValueTask SynchronizeAsync(CancellationToken cancellationToken = default(CancellationToken))
        {
            if (cancellationToken.IsCancellationRequested)
                return new ValueTask(Task.FromCanceled(cancellationToken));
            using (var s = Use())
            {
                RefuseWhileCapturing(s.Raw, "DcStream.SynchronizeAsync");
                return AsyncCompletion.Start(s.Raw, IntPtr.Zero, "DcStream.SynchronizeAsync", cancellationToken);
            }
        }

        /// <summary>DC_ERROR_INVALID_STATE while the stream captures: a host callback would be
        /// recorded into the graph instead of running now.</summary>
        private void RefuseWhileCapturing(IntPtr raw, string what)
        {
            int capturing = capture != null ? 1 : 0;
            if (capturing == 0)
                DcException.Check(NativeMethods.dc_stream_is_capturing(raw, &capturing));
            if (capturing != 0)
                throw new DcException(DcStatus.InvalidState,
                    what + ": the stream is capturing a graph, so nothing enqueued now runs until the graph is launched; " +
                    "end the capture, launch the graph, then wait for the stream");
        }

        /// <summary>True when all work enqueued so far has completed (dc_stream_query).</summary>
        public bool IsComplete
        {
            get
            {
                int status;
                using (var s = Use())
                    status = NativeMethods.dc_stream_query(s.Raw);
                DcException.Check(status);
                return status == NativeConstants.DC_SUCCESS;
            }
        }

        /// <summary>Make later work on this stream wait for `e` (which may be on another device).</summary>
        public void WaitEvent(Event e)
        {
            using (var s = Use())
            using (var ev = new Pin(e == null ? null : e.Handle, "event"))
                DcException.Check(NativeMethods.dc_stream_wait_event(s.Raw, ev.Raw));
        }

        /// <summary>Make later work on this stream wait until the 32-bit value at `offset` (a
        /// multiple of 4) in `buffer` compares with `value` as `compare` says
        /// (dc_stream_wait_value32). Returns at once; the stream waits. A wait nothing satisfies
        /// holds the stream, and every synchronisation of it, until someone writes the value.
        /// The buffer: device memory allocated with AllocFlags.NoPool, or device-mapped pinned
        /// memory; pool and managed memory are refused (DcStatus.NotSupported), as the driver
        /// refuses them (this holds for every stream memory operation).</summary>
        public void WaitValue32(DeviceBuffer buffer, ulong offset, uint value, WaitCompare compare, ValueFlags flags = ValueFlags.None)
        {
            using (var s = Use())
            using (var b = new Pin(buffer == null ? null : buffer.Handle, "buffer"))
                DcException.Check(NativeMethods.dc_stream_wait_value32(s.Raw, b.Raw, offset, value, (int)compare, (uint)flags));
        }

        /// <summary>As WaitValue32, for the 64-bit value at `offset` (a multiple of 8).</summary>
        public void WaitValue64(DeviceBuffer buffer, ulong offset, ulong value, WaitCompare compare, ValueFlags flags = ValueFlags.None)
        {
            using (var s = Use())
            using (var b = new Pin(buffer == null ? null : buffer.Handle, "buffer"))
                DcException.Check(NativeMethods.dc_stream_wait_value64(s.Raw, b.Raw, offset, value, (int)compare, (uint)flags));
        }

        /// <summary>Write the 32-bit `value` at `offset` (a multiple of 4) in `buffer` in stream
        /// order, after the work enqueued before it (dc_stream_write_value32).</summary>
        public void WriteValue32(DeviceBuffer buffer, ulong offset, uint value, ValueFlags flags = ValueFlags.None)
        {
            using (var s = Use())
            using (var b = new Pin(buffer == null ? null : buffer.Handle, "buffer"))
                DcException.Check(NativeMethods.dc_stream_write_value32(s.Raw, b.Raw, offset, value, (uint)flags));
        }

        /// <summary>As WriteValue32, for a 64-bit value at `offset` (a multiple of 8).</summary>
        public void WriteValue64(DeviceBuffer buffer, ulong offset, ulong value, ValueFlags flags = ValueFlags.None)
        {
            using (var s = Use())
            using (var b = new Pin(buffer == null ? null : buffer.Handle, "buffer"))
                DcException.Check(NativeMethods.dc_stream_write_value64(s.Raw, b.Raw, offset, value, (uint)flags));
        }

        /// <summary>Enqueue 1 to 256 memory operations (StreamMemOp.Wait32, Write64...) in one
        /// driver call, in order (dc_stream_batch_mem_ops). All are checked first: on any error
        /// nothing is enqueued and the message names the operation's index.</summary>
        public void BatchMemOps(params StreamMemOp[] ops)
        {
            if (ops == null)
                throw new ArgumentNullException("ops");
            var pins = new Pin[ops.Length];
            var raw = new DcStreamMemOp[ops.Length];
            int pinned = 0;
            try
            {
                for (; pinned < ops.Length; ++pinned)
                {
                    StreamMemOp op = ops[pinned];
                    if (op.Buffer == null)
                        throw new ArgumentException("BatchMemOps: operation " + pinned + " is default(StreamMemOp); make it with StreamMemOp.Wait32, Wait64, Write32 or Write64", "ops");
                    pins[pinned] = new Pin(op.Buffer.Handle, "ops[" + pinned + "].buffer");
                    raw[pinned] = new DcStreamMemOp { Kind = op.Kind, Compare = (int)op.Compare, Flags = (uint)op.Flags,
                                                      Buffer = pins[pinned].Raw, Offset = op.Offset, Value = op.Value };
                }
                using (var s = Use())
                fixed (DcStreamMemOp* p = raw)
                    DcException.Check(NativeMethods.dc_stream_batch_mem_ops(s.Raw, p, (uint)raw.Length));
            }
            finally
            {
                for (int i = 0; i < pinned; ++i)
                    pins[i].Dispose();
            }
        }

        /// <summary>Record a new event at the current end of the stream.</summary>
        public Event Record(EventFlags flags = EventFlags.None)
        {
            using (Device d = GetDevice())
            {
                Event e = d.CreateEvent(flags);
                try
                {
                    e.Record(this);
                }
                catch
                {
                    e.Dispose();
                    throw;
                }
                return e;
            }
        }

        /// <summary>Run `callback` on a driver thread once earlier work on the stream has
        /// completed; later work waits for it. It must not enqueue work or synchronise
        /// (the driver forbids it: such dc_ calls fail with DC_ERROR_INVALID_STATE) and should
        /// return quickly. An exception it throws goes to Dc.CallbackException.
        /// While this stream captures a graph (BeginCapture), the callback is recorded as a host
        /// node instead: it runs at every launch of the graph, and is kept until the graph is
        /// disposed and its last launch has run. A capture this object did not begin (the
        /// stream joined another stream's capture, or it was begun through NativeMethods) is
        /// refused with DC_ERROR_INVALID_STATE: the graph's lifetime would be unknown here.</summary>
        public void AddCallback(Action callback)
        {
            if (callback == null)
                throw new ArgumentNullException("callback");
            using (var s = Use())
            {
                GraphResources graph = capture;
                if (graph == null)
                    RefuseForeignCapture(s.Raw, "DcStream.AddCallback");
                long key = HostCallbacks.Add(new ActionCallback(callback), graph != null);
                int status = NativeMethods.dc_stream_add_callback(s.Raw, HostCallbacks.Thunk, HostCallbacks.UserData(key));
                if (status < 0)
                {
                    HostCallbacks.Remove(key);
                    throw DcException.FromLastError(status);
                }
                if (graph != null)
                    graph.AddCallback(key);
            }
        }

        /// <summary>DC_ERROR_INVALID_STATE when the stream captures a graph that this object
        /// did not begin (so its resources cannot be tied to the graph).</summary>
        private void RefuseForeignCapture(IntPtr raw, string what)
        {
            int capturing;
            DcException.Check(NativeMethods.dc_stream_is_capturing(raw, &capturing));
            if (capturing != 0)
                throw new DcException(DcStatus.InvalidState,
                    what + ": the stream is part of a graph capture that was not begun by this object's BeginCapture " +
                    "(it joined another stream's capture through an event, another object wraps the same CUstream, or " +
                    "the capture was begun through NativeMethods), so the graph that would record this cannot be told " +
                    "when to let it go; do it on the stream whose BeginCapture began the capture");
        }

        /// <summary>`count` elements of device memory allocated in stream order: usable by work
        /// enqueued on this stream after the call.</summary>
        public DeviceBuffer<T> EnqueueAllocate<T>(long count, AllocFlags flags = AllocFlags.None)
#if NET7_0_OR_GREATER
            where T : unmanaged
#else
            where T : struct
#endif
        {
            ulong bytes = DeviceBuffer<T>.BytesFor(count);
            var h = new DcBufferHandle();
            IntPtr raw;
            using (var s = Use())
                DcException.Check(NativeMethods.dc_buffer_alloc_async(s.Raw, bytes, (uint)flags, &raw));
            h.Adopt(raw);
            return new DeviceBuffer<T>(h);
        }

        /// <summary>The raw CUstream (0x1 / 0x2 for the default streams).</summary>
        public IntPtr Native
        {
            get
            {
                IntPtr p;
                using (var s = Use())
                    DcException.Check(NativeMethods.dc_stream_native(s.Raw, &p));
                return p;
            }
        }

        /// <summary>A new handle to the stream's device (dispose it).</summary>
        public Device GetDevice()
        {
            IntPtr raw;
            using (var s = Use())
                DcException.Check(NativeMethods.dc_stream_device(s.Raw, &raw));
            return Device.Adopt(raw);
        }

        /// <summary>DC_ERROR_INVALID_STATE while the stream captures (whoever began it): for
        /// copies with host memory given as a span or array, whose address a graph would keep
        /// after the pin of the call has ended. One dc_stream_is_capturing call.</summary>
        internal static void RefuseHostCopyWhileCapturing(IntPtr raw, string what)
        {
            int capturing;
            DcException.Check(NativeMethods.dc_stream_is_capturing(raw, &capturing));
            if (capturing != 0)
                throw new DcException(DcStatus.InvalidState,
                    what + ": the stream is capturing a graph, and every launch of the graph would copy into or from " +
                    "this host memory after the call's pin on it ended (the GC may move or reuse it); copy through a " +
                    "pinned DeviceBuffer (AllocatePinned) with a buffer-to-buffer copy instead, which the graph keeps alive");
        }

        // ---- capture ---------------------------------------------------------------------

        // While a capture begun here is in progress: what the graph will need alive (callbacks
        // recorded as host nodes, buffers its nodes use, graphs launched into it).
        private volatile GraphResources capture;

        /// <summary>The resources of the capture this object began, or null.</summary>
        internal GraphResources Capture { get { return capture; } }

        /// <summary>Record work enqueued on this stream into a graph instead of running it.</summary>
        public void BeginCapture(CaptureMode mode = CaptureMode.Global)
        {
            using (var s = Use())
            {
                var resources = new GraphResources();
                DcException.Check(NativeMethods.dc_stream_begin_capture(s.Raw, (int)mode));
                DropCapture();   // one that was invalidated and never ended
                capture = resources;
            }
        }

        /// <summary>End the capture and return the recorded graph. A capture that was
        /// invalidated ends too (DC_ERROR_INVALID_STATE, no graph).</summary>
        public Graph EndCapture()
        {
            var h = new DcGraphHandle();
            IntPtr raw;
            using (var s = Use())
            {
                int status = NativeMethods.dc_stream_end_capture(s.Raw, &raw);
                if (status < 0)
                {
                    DcException e = DcException.FromLastError(status);
                    int still;
                    if (NativeMethods.dc_stream_is_capturing(s.Raw, &still) < 0 || still == 0)
                        DropCapture();   // over: nothing recorded can run
                    throw e;
                }
                h.SetOwn(capture ?? new GraphResources());
                capture = null;
            }
            h.Adopt(raw);
            return new Graph(h);
        }

        private void DropCapture()
        {
            GraphResources r = capture;
            capture = null;
            if (r != null)
                r.Release();
        }

        /// <summary>True while the stream captures a graph (also a capture invalidated but not ended; whoever began it).</summary>
        public bool IsCapturing
        {
            get
            {
                int c;
                using (var s = Use())
                    DcException.Check(NativeMethods.dc_stream_is_capturing(s.Raw, &c));
                return c != 0;
            }
        }

        /// <summary>True once Dispose released the handle.</summary>
        public bool IsDisposed { get { return Handle.IsClosed; } }

        /// <summary>Release the stream; work already enqueued still completes. A capture in
        /// progress is abandoned: what it recorded never runs.</summary>
        public void Dispose()
        {
            Handle.Dispose();
            DropCapture();
        }
    }
}
