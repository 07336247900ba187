// Kernel arguments in order: buffers (passed as their device address + offset, checked
// alive by the library) and values of any plain struct (copied at launch or bind time).
// The library checks count and sizes against the kernel where the driver reports them.
//
// A KernelArgs keeps its storage between uses (Clear, then add again), and binding it for a
// call allocates nothing: the values' bytes and the dc_arg array are arrays of the object,
// pinned with `fixed` for the length of the call, and buffers are held by their SafeHandle's
// count. So a launch with a reused KernelArgs allocates nothing per call.
using System;
using System.Collections.Generic;
using System.Runtime.InteropServices;
using Dccuda.Interop;

namespace Dccuda
{
    /// <summary>The arguments of a kernel launch, in the kernel's parameter order. Reusable
    /// (Clear); one thread at a time, like a StringBuilder.</summary>
    public sealed unsafe class KernelArgs
    {
        private struct Entry
        {
            public DeviceBuffer Buffer;   // null for a value
            public ulong Offset;          // byte offset into Buffer
            public int ValueAt;           // start of the value in `values`
            public int Size;              // the value's size
        }

        private readonly List<Entry> entries = new List<Entry>();
        private byte[] values = new byte[64];
        private int used;
        // Scratch for a call: the native array and which buffer handles this call holds.
        private DcArg[] native = new DcArg[8];
        private bool[] held = new bool[8];
        private int heldCount;

        /// <summary>The number of arguments.</summary>
        public int Count { get { return entries.Count; } }

        /// <summary>Forget every argument, keeping the storage (so that building the same kind of
        /// list again allocates nothing).</summary>
        public KernelArgs Clear()
        {
            entries.Clear();
            used = 0;
            return this;
        }

        /// <summary>The device address of `buffer` + `byteOffset` (an 8-byte pointer parameter).</summary>
        public KernelArgs Buffer(DeviceBuffer buffer, ulong byteOffset = 0)
        {
            if (buffer == null)
                throw new ArgumentNullException("buffer");
            entries.Add(new Entry { Buffer = buffer, Offset = byteOffset });
            return this;
        }

        /// <summary>A value parameter: T's bytes as they lie in memory (int, float, double, a
        /// [StructLayout(Sequential)] struct laid out as the kernel's).</summary>
        public KernelArgs Value<T>(T value)
#if NET7_0_OR_GREATER
            where T : unmanaged
#else
            where T : struct
#endif
        {
            int size = DeviceBuffer<T>.ElementSize;
            int at = (used + 7) & ~7;
            if (at + size > values.Length)
                Array.Resize(ref values, Math.Max(values.Length * 2, at + size));
            Span<T> slot = MemoryMarshal.Cast<byte, T>(new Span<byte>(values, at, size));
            slot[0] = value;
            used = at + size;
            entries.Add(new Entry { ValueAt = at, Size = size });
            return this;
        }

        // ---- binding for one call (Function.Launch, PreparedLaunch.SetArgs) ----------------

        /// <summary>Fill the native array (value pointers come with FixValues) and hold every
        /// buffer argument's handle, so that no Dispose on another thread releases it during
        /// the call. Pair with Unbind in a finally. Returns the argument count.</summary>
        internal int Bind()
        {
            int n = entries.Count;
            if (native.Length < n)
            {
                native = new DcArg[Math.Max(n, native.Length * 2)];
                held = new bool[native.Length];
            }
            heldCount = n;
            for (int i = 0; i < n; i++)
            {
                Entry e = entries[i];
                held[i] = false;
                if (e.Buffer != null)
                {
                    DcBufferHandle h = e.Buffer.Handle;
                    if (h.IsClosed)
                    {
                        heldCount = i;
                        Unbind();
                        throw DcException.Disposed("KernelArgs: argument " + i + " (a " + e.Buffer.TypeName + ")");
                    }
                    try
                    {
                        h.DangerousAddRef(ref held[i]);
                    }
                    catch (ObjectDisposedException)
                    {
                        heldCount = i;
                        Unbind();
                        throw DcException.Disposed("KernelArgs: argument " + i + " (a " + e.Buffer.TypeName + ")");
                    }
                    native[i].Kind = NativeConstants.DC_ARG_BUFFER;
                    native[i].Size = 8;
                    native[i].Buffer = h.DangerousGetHandle();
                    native[i].Offset = e.Offset;
                    native[i].Value = IntPtr.Zero;
                }
                else
                {
                    native[i].Kind = NativeConstants.DC_ARG_VALUE;
                    native[i].Size = (uint)e.Size;
                    native[i].Buffer = IntPtr.Zero;
                    native[i].Offset = 0;
                }
            }
            return n;
        }

        /// <summary>The native array and the values' bytes, to pin with `fixed` for the call.</summary>
        internal DcArg[] NativeArgs { get { return native; } }

        internal byte[] ValueBytes { get { return values; } }

        /// <summary>Point every value argument into the pinned values' bytes.</summary>
        internal void FixValues(DcArg* args, byte* valueBytes)
        {
            for (int i = 0; i < heldCount; i++)
            {
                Entry e = entries[i];
                if (e.Buffer == null)
                    args[i].Value = (IntPtr)(valueBytes + e.ValueAt);
            }
        }

        /// <summary>The buffer of argument `i` (null for a value); between Bind and Unbind.</summary>
        internal DcBufferHandle BufferAt(int i)
        {
            DeviceBuffer b = entries[i].Buffer;
            return b == null ? null : b.Handle;
        }

        /// <summary>Every buffer argument held by `graph` too (the call was captured).</summary>
        internal void HoldBuffersIn(GraphResources graph)
        {
            for (int i = 0; i < heldCount; i++)
                if (held[i])
                    graph.AddBuffer(entries[i].Buffer.Handle);
        }

        /// <summary>Let go of the handles Bind held.</summary>
        internal void Unbind()
        {
            for (int i = 0; i < heldCount; i++)
            {
                if (held[i])
                {
                    held[i] = false;
                    entries[i].Buffer.Handle.DangerousRelease();
                }
            }
            heldCount = 0;
        }
    }
}
