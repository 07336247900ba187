// A dc_event: a point in a stream to wait for, query or time.
using System;
using System.Threading;
using System.Threading.Tasks;
using Dccuda.Interop;
using C = Dccuda.Interop.NativeConstants;

namespace Dccuda
{
    /// <summary>An event (dc_event): a point in a stream to wait for (Synchronize, WaitAsync, DcStream.WaitEvent), query or time.</summary>
    public sealed unsafe class Event : IDisposable
    {
        private readonly int deviceOrdinal;
        private readonly object waitStreamGate = new object();
        private DcStream waitStream;   // WaitAsync's stream: waits for the event, then calls back

        internal Event(DcEventHandle handle, int deviceOrdinal)
        {
            Handle = handle;
            this.deviceOrdinal = deviceOrdinal;
        }

        /// <summary>The SafeHandle owning the dc_event (for NativeMethods calls).</summary>
        public DcEventHandle Handle { get; private set; }

        internal Pin Use() { return new Pin(Handle, "Event"); }

        /// <summary>Export an event created with Interprocess | DisableTiming for another
        /// process: DC_IPC_HANDLE_SIZE bytes for Device.ImportIpcEvent there.</summary>
        public byte[] ExportIpc()
        {
            var bytes = new byte[C.DC_IPC_HANDLE_SIZE];
            using (var e = Use())
            fixed (byte* p = bytes)
                DcException.Check(NativeMethods.dc_event_export_ipc(e.Raw, p, (ulong)bytes.Length));
            return bytes;
        }

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

        /// <summary>Wait, without blocking a thread, until the work before the event's last
        /// record has completed (at once for an event never recorded); a fault in it is
        /// reported as Synchronize reports it. The wait runs on a stream of the event's own
        /// (created at the first call, released with the event) that waits for the event, then
        /// calls back. Continuations never run on the driver's callback thread. Cancelling
        /// `cancellationToken` ends the wait with OperationCanceledException and does not
        /// cancel the GPU work.</summary>
        public ValueTask WaitAsync(CancellationToken cancellationToken = default(CancellationToken))
        {
            if (cancellationToken.IsCancellationRequested)
                return new ValueTask(Task.FromCanceled(cancellationToken));
            using (var e = Use())
            {
                DcStream s = WaitStream();
                using (var h = s.Use())
                {
                    DcException.Check(NativeMethods.dc_stream_wait_event(h.Raw, e.Raw));
                    return AsyncCompletion.Start(h.Raw, e.Raw, "Event.WaitAsync", cancellationToken);
                }
            }
        }

        private DcStream WaitStream()
        {
            lock (waitStreamGate)
            {
                if (waitStream == null)
                {
                    using (Device d = Device.Open(deviceOrdinal))
                        waitStream = d.CreateStream(StreamFlags.NonBlocking);
                }
                return waitStream;
            }
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

        /// <summary>True once Dispose released the handle.</summary>
        public bool IsDisposed { get { return Handle.IsClosed; } }

        /// <summary>Release the event (and WaitAsync's stream; waits already begun still end).</summary>
        public void Dispose()
        {
            Handle.Dispose();
            DcStream s;
            lock (waitStreamGate)
            {
                s = waitStream;
                waitStream = null;
            }
            if (s != null)
                s.Dispose();
        }
    }
}
