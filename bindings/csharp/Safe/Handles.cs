// One SafeHandle per dccuda handle type. The dc_*_release of a handle is called once its
// last holder lets go: the SafeHandle itself (Dispose, or the finalizer) and whatever else the
// binding keeps alive for the library's later use of it (a prepared launch holds its bound
// buffers, a graph the buffers its captured nodes use and the stream of its last launch).
// The library accepts releases from any thread and a release never touches the last error:
// so the finalizer thread may release what a collected object owned, and a release can never
// overwrite an error another call on the same thread is about to read. The library keeps
// parents alive for their children (a function keeps its module, a buffer its device), so
// handles may be released in any order, finalizers included.
using System;
using System.Runtime.InteropServices;
using System.Threading;
using Dccuda.Interop;

namespace Dccuda
{
    /// <summary>The base of every dccuda handle: zero is invalid. The native handle is
    /// released when the SafeHandle is (Dispose or finalizer) and every internal holder of it
    /// (prepared launches, graphs) has let go.</summary>
    public abstract class DcHandle : SafeHandle
    {
        private IntPtr raw;
        private int holds = 1;   // 1: the SafeHandle's own, given up in ReleaseHandle

        /// <summary>An invalid (zero) handle, to be set by the call that creates the object.</summary>
        protected DcHandle() : base(IntPtr.Zero, true) { }

        /// <summary>True for the zero handle.</summary>
        public override bool IsInvalid { get { return handle == IntPtr.Zero; } }

        /// <summary>Take ownership of a raw handle a dc_ call returned.</summary>
        internal void Adopt(IntPtr value)
        {
            raw = value;
            SetHandle(value);
        }

        /// <summary>One more holder. Only while the caller has the handle pinned (Pin) or holds
        /// it already, so that the count is never 0 here.</summary>
        internal void Hold()
        {
            Interlocked.Increment(ref holds);
        }

        /// <summary>One more holder if the native handle is still held by anything (after the
        /// SafeHandle's Dispose too); false once it was freed.</summary>
        internal bool TryHold()
        {
            int h;
            do
            {
                h = Volatile.Read(ref holds);
                if (h <= 0)
                    return false;
            } while (Interlocked.CompareExchange(ref holds, h + 1, h) != h);
            return true;
        }

        /// <summary>True while the native handle lives (held by the SafeHandle or another holder).</summary>
        internal bool IsHeld { get { return Volatile.Read(ref holds) > 0; } }

        /// <summary>A holder lets go; the last one frees the native handle. Never on a driver
        /// callback thread: a release may free memory or destroy a stream.</summary>
        internal void Unhold()
        {
            if (Interlocked.Decrement(ref holds) == 0)
                Free(raw);
        }

        /// <summary>The raw value while anything holds the handle, the SafeHandle or not.</summary>
        internal IntPtr HeldRaw { get { return raw; } }

        /// <summary>Calls the type's dc_*_release once nothing else holds the handle.</summary>
        protected sealed override bool ReleaseHandle()
        {
            Unhold();
            return true;
        }

        /// <summary>Release the native handle (and what only it kept alive).</summary>
        internal abstract void Free(IntPtr value);
    }

    /// <summary>Owns a dc_device.</summary>
    public sealed class DcDeviceHandle : DcHandle
    {
        internal override void Free(IntPtr value) { NativeMethods.dc_device_release(value); }
    }

    /// <summary>Owns a dc_buffer, and the pin of a registered managed array.</summary>
    public sealed class DcBufferHandle : DcHandle
    {
        // The pin ends after dc_buffer_release, which unregisters the memory once the library's
        // last use of it has run (it waits for the buffer's last stream). If the pin ended at
        // the user's Dispose while a prepared launch or graph still used the buffer, a moving
        // GC (CoreCLR compacts gen0 and gen1) could move the array under the GPU.
        private GCHandle pinned;

        // A view's parent handle, kept (DangerousAddRef) while the view lives: the parent's
        // pin of a registered array must outlast every view of it.
        private DcBufferHandle parent;

        internal void KeepPinned(GCHandle h) { pinned = h; }

        internal void KeepParent(DcBufferHandle p)
        {
            bool added = false;
            p.DangerousAddRef(ref added);
            if (added)
                parent = p;
        }

        internal override void Free(IntPtr value)
        {
            NativeMethods.dc_buffer_release(value);
            if (pinned.IsAllocated)
                pinned.Free();
            if (parent != null)
            {
                parent.DangerousRelease();
                parent = null;
            }
        }
    }

    /// <summary>Owns a dc_stream.</summary>
    public sealed class DcStreamHandle : DcHandle
    {
        internal override void Free(IntPtr value) { NativeMethods.dc_stream_release(value); }
    }

    /// <summary>Owns a dc_event.</summary>
    public sealed class DcEventHandle : DcHandle
    {
        internal override void Free(IntPtr value) { NativeMethods.dc_event_release(value); }
    }

    /// <summary>Owns a dc_program.</summary>
    public sealed class DcProgramHandle : DcHandle
    {
        internal override void Free(IntPtr value) { NativeMethods.dc_program_release(value); }
    }

    /// <summary>Owns a dc_module.</summary>
    public sealed class DcModuleHandle : DcHandle
    {
        internal override void Free(IntPtr value) { NativeMethods.dc_module_release(value); }
    }

    /// <summary>Owns a dc_library.</summary>
    public sealed class DcLibraryHandle : DcHandle
    {
        internal override void Free(IntPtr value) { NativeMethods.dc_library_release(value); }
    }

    /// <summary>Owns a dc_function.</summary>
    public sealed class DcFunctionHandle : DcHandle
    {
        internal override void Free(IntPtr value) { NativeMethods.dc_function_release(value); }
    }

    /// <summary>Owns a dc_launch, and holds the buffers bound to its arguments.</summary>
    public sealed class DcLaunchHandle : DcHandle
    {
        // The buffers bound to the launch's arguments, by index: held while bound, so that a
        // registered array stays pinned as long as the dc_launch can use it.
        private readonly object gate = new object();
        private DcBufferHandle[] bound;

        /// <summary>Argument `index` is now `buffer` (null: a value). Call after the library
        /// took the change, with the new buffer pinned; the old one is let go.</summary>
        internal void Bind(int index, DcBufferHandle buffer)
        {
            DcBufferHandle old;
            lock (gate)
            {
                if (bound == null || bound.Length <= index)
                {
                    if (buffer == null)
                        return;
                    Array.Resize(ref bound, Math.Max(index + 1, bound == null ? 4 : bound.Length * 2));
                }
                old = bound[index];
                if (buffer != null)
                    buffer.Hold();
                bound[index] = buffer;
            }
            if (old != null)
                old.Unhold();
        }

        /// <summary>Arguments from `index` on are no longer bound (dc_launch_set_args set fewer).</summary>
        internal void UnbindFrom(int index)
        {
            DcBufferHandle[] old = null;
            lock (gate)
            {
                if (bound == null || index >= bound.Length)
                    return;
                old = new DcBufferHandle[bound.Length - index];
                Array.Copy(bound, index, old, 0, old.Length);
                Array.Clear(bound, index, old.Length);
            }
            foreach (DcBufferHandle b in old)
                if (b != null)
                    b.Unhold();
        }

        /// <summary>Every buffer bound now, held by `graph` too (the launch is being captured).</summary>
        internal void HoldBoundIn(GraphResources graph)
        {
            lock (gate)
            {
                if (bound == null)
                    return;
                foreach (DcBufferHandle b in bound)
                    if (b != null)
                        graph.AddBuffer(b);
            }
        }

        internal override void Free(IntPtr value)
        {
            NativeMethods.dc_launch_release(value);
            DcBufferHandle[] held;
            lock (gate)
            {
                held = bound;
                bound = null;
            }
            if (held != null)
                foreach (DcBufferHandle b in held)
                    if (b != null)
                        b.Unhold();
        }
    }

    /// <summary>Owns a dc_graph, and holds what its nodes use until its last launch has run.</summary>
    public sealed class DcGraphHandle : DcHandle
    {
        // Own: what the capture recorded (callbacks, buffers, child graphs). Applied: the
        // resources of the graph whose parameters the last Update took. LastStream: the stream
        // of the last launch, held, so that they are given up only after that launch ran.
        private readonly object gate = new object();
        private GraphResources own;
        private GraphResources applied;
        private DcStreamHandle lastStream;

        internal GraphResources Own { get { return own; } }

        internal void SetOwn(GraphResources resources) { own = resources; }

        /// <summary>The graph was launched on `stream` (pinned by the caller). The same stream
        /// as last time costs one compare.</summary>
        internal void NoteLaunch(DcStreamHandle stream)
        {
            if (ReferenceEquals(Volatile.Read(ref lastStream), stream))
                return;
            DcStreamHandle old;
            lock (gate)
            {
                if (ReferenceEquals(lastStream, stream))
                    return;
                stream.Hold();
                old = lastStream;
                Volatile.Write(ref lastStream, stream);
            }
            if (old != null)
                old.Unhold();
        }

        /// <summary>The graph now runs `source`'s parameters (dc_graph_update): hold them, and
        /// give up those of the previous update after the launches that may use them.</summary>
        internal void TakeParametersOf(GraphResources source)
        {
            GraphResources old;
            DcStreamHandle last;
            source.Retain();
            lock (gate)
            {
                old = applied;
                applied = source;
                last = old != null ? lastStream : null;
                if (last != null)
                    last.Hold();   // for ReleaseAfter, which lets go of it
            }
            if (old != null)
                GraphResources.ReleaseAfter(last, old, null);
        }

        internal override void Free(IntPtr value)
        {
            NativeMethods.dc_graph_release(value);
            GraphResources a, b;
            DcStreamHandle last;
            lock (gate)
            {
                a = own;
                b = applied;
                last = lastStream;
                own = applied = null;
                lastStream = null;
            }
            GraphResources.ReleaseAfter(last, a, b);   // takes over the hold on `last`
        }
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
