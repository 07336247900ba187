// Kernel arguments in order: buffers (passed as their device address + offset, checked
// alive by the library) and values of any plain struct (copied at launch or bind time).
// The library checks count and sizes against the kernel where the driver reports them.
using System;
using System.Collections.Generic;
using System.Runtime.InteropServices;
using Dccuda.Interop;

namespace Dccuda
{
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

        public int Count { get { return entries.Count; } }

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
        public KernelArgs Value<T>(T value) where T : struct
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

        internal delegate int NativeCall(DcArg* args, uint count);

        /// <summary>Run `call` with the native dc_arg array: value bytes pinned, every buffer's
        /// handle held (so no Dispose can release it mid-call).</summary>
        internal int Invoke(NativeCall call)
        {
            int n = entries.Count;
            var args = new DcArg[n];
            var held = new bool[n];
            GCHandle pinnedValues = GCHandle.Alloc(values, GCHandleType.Pinned);
            try
            {
                byte* basePtr = (byte*)pinnedValues.AddrOfPinnedObject();
                for (int i = 0; i < n; i++)
                {
                    Entry e = entries[i];
                    if (e.Buffer != null)
                    {
                        BufferHandle h = e.Buffer.Handle;
                        if (h.IsClosed)
                            throw DcException.Disposed("KernelArgs: argument " + i + " (a " + e.Buffer.GetType().Name + ")");
                        h.DangerousAddRef(ref held[i]);
                        args[i].Kind = NativeConstants.DC_ARG_BUFFER;
                        args[i].Size = 8;
                        args[i].Buffer = h.DangerousGetHandle();
                        args[i].Offset = e.Offset;
                    }
                    else
                    {
                        args[i].Kind = NativeConstants.DC_ARG_VALUE;
                        args[i].Size = (uint)e.Size;
                        args[i].Value = (IntPtr)(basePtr + e.ValueAt);
                    }
                }
                fixed (DcArg* a = args)
                    return call(a, (uint)n);
            }
            finally
            {
                for (int i = 0; i < n; i++)
                {
                    if (held[i])
                        entries[i].Buffer.Handle.DangerousRelease();
                }
                pinnedValues.Free();
            }
        }
    }
}
