// One SafeHandle per dccuda handle type. ReleaseHandle calls the type's dc_*_release, which
// the library accepts from any thread and which never touches the last error: so the
// finalizer thread may release what a collected object owned, and a release can never
// overwrite an error another call on the same thread is about to read.
// The library keeps parents alive for their children (a function keeps its module, a buffer
// its device), so handles may be released in any order, finalizers included.
using System;
using System.Runtime.InteropServices;
using Dccuda.Interop;

namespace Dccuda
{
    /// <summary>The base of every dccuda handle: zero is invalid.</summary>
    public abstract class DcHandle : SafeHandle
    {
        protected DcHandle() : base(IntPtr.Zero, true) { }

        public override bool IsInvalid { get { return handle == IntPtr.Zero; } }

        /// <summary>Take ownership of a raw handle a dc_ call returned.</summary>
        internal void Adopt(IntPtr raw)
        {
            SetHandle(raw);
        }
    }

    public sealed class DeviceHandle : DcHandle
    {
        protected override bool ReleaseHandle() { NativeMethods.dc_device_release(handle); return true; }
    }

    public sealed class BufferHandle : DcHandle
    {
        // Host memory registered with the library (RegisterHost of a managed array): pinned
        // until the buffer is released, which unregisters it first.
        private GCHandle pinned;

        internal void KeepPinned(GCHandle h) { pinned = h; }

        protected override bool ReleaseHandle()
        {
            NativeMethods.dc_buffer_release(handle);
            if (pinned.IsAllocated)
                pinned.Free();
            return true;
        }
    }

    public sealed class StreamHandle : DcHandle
    {
        protected override bool ReleaseHandle() { NativeMethods.dc_stream_release(handle); return true; }
    }

    public sealed class EventHandle : DcHandle
    {
        protected override bool ReleaseHandle() { NativeMethods.dc_event_release(handle); return true; }
    }

    public sealed class ProgramHandle : DcHandle
    {
        protected override bool ReleaseHandle() { NativeMethods.dc_program_release(handle); return true; }
    }

    public sealed class ModuleHandle : DcHandle
    {
        protected override bool ReleaseHandle() { NativeMethods.dc_module_release(handle); return true; }
    }

    public sealed class FunctionHandle : DcHandle
    {
        protected override bool ReleaseHandle() { NativeMethods.dc_function_release(handle); return true; }
    }

    public sealed class LaunchHandle : DcHandle
    {
        protected override bool ReleaseHandle() { NativeMethods.dc_launch_release(handle); return true; }
    }

    public sealed class GraphHandle : DcHandle
    {
        protected override bool ReleaseHandle() { NativeMethods.dc_graph_release(handle); return true; }
    }

    /// <summary>A handle held for the length of one native call: the SafeHandle's count is
    /// raised so that a Dispose or finalizer on another thread cannot release it mid-call.
    /// Using a disposed object is DcException(DC_ERROR_INVALID_HANDLE). A null handle
    /// (an optional argument left out) passes as zero.</summary>
    internal struct Pin : IDisposable
    {
        private readonly SafeHandle held;
        private readonly bool added;
        public readonly IntPtr Raw;

        public Pin(DcHandle h, string what, bool optional = false)
        {
            held = null;
            added = false;
            Raw = IntPtr.Zero;
            if (h == null)
            {
                if (!optional)
                    throw new ArgumentNullException(what);
                return;
            }
            if (h.IsClosed)
                throw DcException.Disposed(what);
            bool ok = false;
            try
            {
                h.DangerousAddRef(ref ok);
            }
            catch (ObjectDisposedException)
            {
                throw DcException.Disposed(what);
            }
            held = h;
            added = ok;
            Raw = h.DangerousGetHandle();
        }

        public void Dispose()
        {
            if (added)
                held.DangerousRelease();
        }
    }
}
