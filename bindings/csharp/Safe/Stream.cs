// A dc_stream: ordered work on a device, host callbacks, stream-ordered allocation and
// capture into graphs.
using System;
using System.Runtime.InteropServices;
using Dccuda.Interop;

namespace Dccuda
{
    public sealed unsafe class Stream : IDisposable
    {
        internal Stream(StreamHandle handle)
        {
            Handle = handle;
        }

        /// <summary>The SafeHandle owning the dc_stream (for NativeMethods calls).</summary>
        public StreamHandle Handle { get; private set; }

        internal Pin Use() { return new Pin(Handle, "Stream"); }

        /// <summary>Wait until all work enqueued so far has completed; a fault in it is reported here.</summary>
        public void Synchronize()
        {
            using (var s = Use())
                DcException.Check(NativeMethods.dc_stream_synchronize(s.Raw));
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
        /// return quickly. An exception it throws goes to Dc.CallbackException.</summary>
        public void AddCallback(Action callback)
        {
            if (callback == null)
                throw new ArgumentNullException("callback");
            GCHandle target = GCHandle.Alloc(callback);
            try
            {
                using (var s = Use())
                    DcException.Check(NativeMethods.dc_stream_add_callback(s.Raw, HostCallbacks.Thunk, GCHandle.ToIntPtr(target)));
            }
            catch
            {
                target.Free();
                throw;
            }
        }

        /// <summary>`count` elements of device memory allocated in stream order: usable by work
        /// enqueued on this stream after the call.</summary>
        public DeviceBuffer<T> AllocateAsync<T>(long count, AllocFlags flags = AllocFlags.None) where T : struct
        {
            ulong bytes = DeviceBuffer<T>.BytesFor(count);
            var h = new BufferHandle();
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

        // ---- capture ---------------------------------------------------------------------

        /// <summary>Record work enqueued on this stream into a graph instead of running it.</summary>
        public void BeginCapture(CaptureMode mode = CaptureMode.Global)
        {
            using (var s = Use())
                DcException.Check(NativeMethods.dc_stream_begin_capture(s.Raw, (int)mode));
        }

        /// <summary>End the capture and return the recorded graph.</summary>
        public Graph EndCapture()
        {
            var h = new GraphHandle();
            IntPtr raw;
            using (var s = Use())
                DcException.Check(NativeMethods.dc_stream_end_capture(s.Raw, &raw));
            h.Adopt(raw);
            return new Graph(h);
        }

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

        public bool IsDisposed { get { return Handle.IsClosed; } }

        /// <summary>Release the stream; work already enqueued still completes.</summary>
        public void Dispose()
        {
            Handle.Dispose();
        }
    }

    /// <summary>The native side of Stream.AddCallback: one static thunk (never collected)
    /// with the callback's GCHandle as user_data, freed after the one call.</summary>
    internal static class HostCallbacks
    {
        [UnmanagedFunctionPointer(CallingConvention.Cdecl)]
        private delegate void HostFn(IntPtr userData);

        private static readonly HostFn Callback = Invoke;
        internal static readonly IntPtr Thunk = Marshal.GetFunctionPointerForDelegate(Callback);

        private static void Invoke(IntPtr userData)
        {
            // No exception may cross back into the driver's thread.
            try
            {
                GCHandle h = GCHandle.FromIntPtr(userData);
                var callback = (Action)h.Target;
                h.Free();
                callback();
            }
            catch (Exception e)
            {
                Dc.ReportCallbackException(e);
            }
        }
    }
}
