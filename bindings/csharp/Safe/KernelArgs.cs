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

        /// <summary>The native dc_arg array for one call: value bytes pinned, every buffer's
        /// handle held (so no Dispose can release it mid-call) until the result is disposed.</summary>
        internal Bound Bind()
        {
            return new Bound(this);
        }

        internal sealed class Bound : IDisposable
        {
            private readonly KernelArgs owner;
            private readonly bool[] held;
            private GCHandle pinnedValues;
            private GCHandle pinnedArgs;

            public readonly DcArg* Args;
            public readonly uint Count;

            public Bound(KernelArgs args)
            {
                owner = args;
                int n = args.entries.Count;
                var native = new DcArg[n];
                held = new bool[n];
                try
                {
                    pinnedValues = GCHandle.Alloc(args.values, GCHandleType.Pinned);
                    byte* basePtr = (byte*)pinnedValues.AddrOfPinnedObject();
                    for (int i = 0; i < n; i++)
                    {
                        Entry e = args.entries[i];
                        if (e.Buffer != null)
                        {
                            DcBufferHandle h = e.Buffer.Handle;
                            if (h.IsClosed)
                                throw DcException.Disposed("KernelArgs: argument " + i + " (a " + e.Buffer.TypeName + ")");
                            h.DangerousAddRef(ref held[i]);
                            native[i].Kind = NativeConstants.DC_ARG_BUFFER;
                            native[i].Size = 8;
                            native[i].Buffer = h.DangerousGetHandle();
                            native[i].Offset = e.Offset;
                        }
                        else
                        {
                            native[i].Kind = NativeConstants.DC_ARG_VALUE;
                            native[i].Size = (uint)e.Size;
                            native[i].Value = (IntPtr)(basePtr + e.ValueAt);
                        }
                    }
                    pinnedArgs = GCHandle.Alloc(native, GCHandleType.Pinned);
                    Args = n == 0 ? null : (DcArg*)pinnedArgs.AddrOfPinnedObject();
                    Count = (uint)n;
                }
                catch
                {
                    Dispose();
                    throw;
                }
            }

            /// <summary>The buffer of argument `i`, or null for a value.</summary>
            public DcBufferHandle BufferAt(int i)
            {
                DeviceBuffer b = owner.entries[i].Buffer;
                return b == null ? null : b.Handle;
            }

            /// <summary>Every buffer argument held by `graph` too (the call was captured).</summary>
            public void HoldBuffersIn(GraphResources graph)
            {
                for (int i = 0; i < held.Length; i++)
                    if (held[i])
                        graph.AddBuffer(owner.entries[i].Buffer.Handle);
            }

            public void Dispose()
            {
                for (int i = 0; i < held.Length; i++)
                {
                    if (held[i])
                    {
                        owner.entries[i].Buffer.Handle.DangerousRelease();
                        held[i] = false;
                    }
                }
                if (pinnedArgs.IsAllocated)
                    pinnedArgs.Free();
                if (pinnedValues.IsAllocated)
                    pinnedValues.Free();
            }
        }
    }
}
