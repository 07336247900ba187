// A dc_event: a point in a stream to wait for, query or time.
using System;
using Dccuda.Interop;

namespace Dccuda
{
    public sealed unsafe class Event : IDisposable
    {
        internal Event(DcEventHandle handle)
        {
            Handle = handle;
        }

        /// <summary>The SafeHandle owning the dc_event (for NativeMethods calls).</summary>
        public DcEventHandle Handle { get; private set; }

        internal Pin Use() { return new Pin(Handle, "Event"); }

        /// <summary>Record the event at the current end of `stream` (a stream of its device).</summary>
        public void Record(DcStream stream)
        {
            using (var e = Use())
            using (var s = new Pin(stream == null ? null : stream.Handle, "stream"))
                DcException.Check(NativeMethods.dc_event_record(e.Raw, s.Raw));
        }

        /// <summary>Wait until the work before the last record has completed.</summary>
        public void Synchronize()
        {
            using (var e = Use())
                DcException.Check(NativeMethods.dc_event_synchronize(e.Raw));
        }

        /// <summary>True when the recorded work has completed (or the event was never recorded).</summary>
        public bool IsComplete
        {
            get
            {
                int status;
                using (var e = Use())
                    status = NativeMethods.dc_event_query(e.Raw);
                DcException.Check(status);
                return status == NativeConstants.DC_SUCCESS;
            }
        }

        /// <summary>Milliseconds between two recorded, completed events of one device.</summary>
        public static float ElapsedMilliseconds(Event start, Event end)
        {
            float ms;
            using (var s = new Pin(start == null ? null : start.Handle, "start"))
            using (var e = new Pin(end == null ? null : end.Handle, "end"))
                DcException.Check(NativeMethods.dc_event_elapsed_ms(s.Raw, e.Raw, &ms));
            return ms;
        }

        /// <summary>The raw CUevent.</summary>
        public IntPtr Native
        {
            get
            {
                IntPtr p;
                using (var e = Use())
                    DcException.Check(NativeMethods.dc_event_native(e.Raw, &p));
                return p;
            }
        }

        public bool IsDisposed { get { return Handle.IsClosed; } }

        public void Dispose()
        {
            Handle.Dispose();
        }
    }
}
