// A dc_launch: a kernel, a configuration and bound arguments, checked when they are set,
// then enqueued as often as needed at the driver's own cost (SQLite's prepared statements,
// for kernels). It keeps its function and its bound buffers alive (the library keeps the
// dc_buffers; the binding keeps their handles and a registered array's pin: DcLaunchHandle).
using System;
using System.Runtime.InteropServices;
using Dccuda.Interop;

namespace Dccuda
{
    /// <summary>A prepared launch (dc_launch): a kernel, a configuration and bound arguments, checked when set, then enqueued as often as needed at the driver's own cost.</summary>
    public sealed unsafe class PreparedLaunch : IDisposable
    {
        internal PreparedLaunch(DcLaunchHandle handle)
        {
            Handle = handle;
        }

        /// <summary>The SafeHandle owning the dc_launch (for NativeMethods calls).</summary>
        public DcLaunchHandle Handle { get; private set; }

        internal Pin Use() { return new Pin(Handle, "PreparedLaunch"); }

        /// <summary>A prepared launch of `function` with no arguments bound yet.</summary>
        public static PreparedLaunch Create(Function function, LaunchConfig config)
        {
            DcLaunchConfig c = config.ToNative();
            var h = new DcLaunchHandle();
            IntPtr raw;
            using (var f = new Pin(function == null ? null : function.Handle, "function"))
                DcException.Check(NativeMethods.dc_launch_create(f.Raw, &c, &raw));
            h.Adopt(raw);
            return new PreparedLaunch(h);
        }

        /// <summary>Replace the configuration (checked as at creation).</summary>
        public void SetConfig(LaunchConfig config)
        {
            DcLaunchConfig c = config.ToNative();
            using (var l = Use())
                DcException.Check(NativeMethods.dc_launch_set_config(l.Raw, &c));
        }

        /// <summary>Bind every argument at once (values are copied; buffers are held by the
        /// launch until rebound or released).</summary>
        public void SetArgs(KernelArgs args)
        {
            if (args == null)
                throw new ArgumentNullException("args");
            using (var l = Use())
            {
                int n = args.Bind();
                try
                {
                    int status;
                    fixed (byte* values = args.ValueBytes)
                    fixed (DcArg* a = args.NativeArgs)
                    {
                        args.FixValues(a, values);
                        status = NativeMethods.dc_launch_set_args(l.Raw, n == 0 ? null : a, (uint)n);
                    }
                    DcException.Check(status);
                    for (int i = 0; i < n; i++)
                        Handle.Bind(i, args.BufferAt(i));
                    Handle.UnbindFrom(n);
                }
                finally
                {
                    args.Unbind();
                }
            }
        }

        /// <summary>Bind argument `index` to a buffer's device address + `byteOffset`.</summary>
        public void SetBuffer(int index, DeviceBuffer buffer, ulong byteOffset = 0)
        {
            if (index < 0)
                throw new ArgumentOutOfRangeException("index", index, "an argument index is 0 or more");
            using (var l = Use())
            using (var b = new Pin(buffer == null ? null : buffer.Handle, "buffer"))
            {
                DcArg arg = new DcArg { Kind = NativeConstants.DC_ARG_BUFFER, Size = 8, Buffer = b.Raw, Offset = byteOffset };
                DcException.Check(NativeMethods.dc_launch_set_arg(l.Raw, (uint)index, &arg));
                Handle.Bind(index, buffer.Handle);   // held while bound: see DcLaunchHandle
            }
        }

        /// <summary>Bind argument `index` to a value (copied now).</summary>
        public void SetValue<T>(int index, T value)
#if NET7_0_OR_GREATER
            where T : unmanaged
#else
            where T : struct
#endif
        {
            if (index < 0)
                throw new ArgumentOutOfRangeException("index", index, "an argument index is 0 or more");
            var one = new T[] { value };
            Span<byte> bytes = MemoryMarshal.AsBytes(new Span<T>(one));
            fixed (byte* p = &MemoryMarshal.GetReference(bytes))
            using (var l = Use())
            {
                DcArg arg = new DcArg { Kind = NativeConstants.DC_ARG_VALUE, Size = (uint)bytes.Length, Value = (IntPtr)p };
                DcException.Check(NativeMethods.dc_launch_set_arg(l.Raw, (uint)index, &arg));
                Handle.Bind(index, null);
            }
        }

        /// <summary>Enqueue on `stream` (a stream of the function's device); every argument
        /// must be bound.</summary>
        public void Enqueue(DcStream stream)
        {
            using (var l = Use())
            using (var s = new Pin(stream == null ? null : stream.Handle, "stream"))
            {
                DcException.Check(NativeMethods.dc_launch_enqueue(l.Raw, s.Raw));
                GraphResources graph = stream.Capture;
                if (graph != null)
                    Handle.HoldBoundIn(graph);   // captured: the graph uses the bound buffers
            }
        }

        /// <summary>Enqueue every launch of `launches` on `stream`, in order, in one native call
        /// (dc_launch_enqueue_batch): one transition and one validation pass for all of them. A
        /// launch may appear more than once. Every launch is checked before anything is enqueued:
        /// a bad one (disposed, unbound arguments, another device) throws and nothing is enqueued;
        /// the message names its index ("launches[3]"). A driver failure half way throws with a
        /// message saying how many launches were enqueued before it.</summary>
        public static void EnqueueBatch(ReadOnlySpan<PreparedLaunch> launches, DcStream stream)
        {
            int n = launches.Length;
            var pins = new Pin[n];
            int pinned = 0;
            IntPtr[] raw = new IntPtr[n];
            try
            {
                for (; pinned < n; pinned++)
                {
                    PreparedLaunch l = launches[pinned];
                    pins[pinned] = new Pin(l == null ? null : l.Handle, "launches[" + pinned + "]");
                    raw[pinned] = pins[pinned].Raw;
                }
                using (var s = new Pin(stream == null ? null : stream.Handle, "stream"))
                {
                    fixed (IntPtr* p = raw)
                        DcException.Check(NativeMethods.dc_launch_enqueue_batch(n == 0 ? null : p, (uint)n, s.Raw));
                    GraphResources graph = stream.Capture;
                    if (graph != null)
                        for (int i = 0; i < n; i++)
                            launches[i].Handle.HoldBoundIn(graph);   // captured: the graph uses the bound buffers
                }
            }
            finally
            {
                for (int i = 0; i < pinned; i++)
                    pins[i].Dispose();
            }
        }

        /// <summary>True once Dispose released the handle.</summary>
        public bool IsDisposed { get { return Handle.IsClosed; } }

        /// <summary>Release the launch and its hold on the bound buffers.</summary>
        public void Dispose()
        {
            Handle.Dispose();
        }
    }
}
