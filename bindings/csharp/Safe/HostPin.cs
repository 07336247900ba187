// Host memory kept pinned until a stream-ordered copy has run: the Memory<T> overloads of
// DeviceBuffer's Enqueue… copies. A Span cannot say how long its memory must stay put; a
// Memory<T> can be pinned for as long as needed. The pin is given back by a one-shot host
// callback enqueued behind the copy: an array's GCHandle is freed right there (GCHandle.Free
// is safe on any thread); any other memory (a MemoryManager's, such as DeviceBuffer.AsMemory)
// is unpinned on the thread pool, since its Unpin may run code that calls the library.
using System;
using System.Buffers;
using System.Runtime.InteropServices;
using System.Threading;

namespace Dccuda
{
    internal sealed unsafe class HostPin : HostCallback
    {
        private GCHandle array;
        private MemoryHandle other;
        private int released;

        /// <summary>The first byte of the pinned memory.</summary>
        internal byte* Pointer;

        internal static HostPin Of<T>(ReadOnlyMemory<T> memory, int elementSize) where T : struct
        {
            var p = new HostPin();
            ArraySegment<T> segment;
            if (MemoryMarshal.TryGetArray(memory, out segment) && segment.Array != null)
            {
                p.array = GCHandle.Alloc(segment.Array, GCHandleType.Pinned);
                p.Pointer = (byte*)p.array.AddrOfPinnedObject() + (long)segment.Offset * elementSize;
            }
            else
            {
                p.other = memory.Pin();
                p.Pointer = (byte*)p.other.Pointer;
            }
            return p;
        }

        /// <summary>The copy has run (a driver thread).</summary>
        internal override void Run()
        {
            if (array.IsAllocated)
                Release();
            else
                ThreadPool.UnsafeQueueUserWorkItem(s => ((HostPin)s).Release(), this);
        }

        /// <summary>Unpin now (on a thread that may call the library).</summary>
        internal void Release()
        {
            if (Interlocked.Exchange(ref released, 1) != 0)
                return;
            if (array.IsAllocated)
                array.Free();
            else
                other.Dispose();
        }
    }

    /// <summary>The CPU memory of a pinned, registered or managed buffer as a Memory&lt;T&gt;
    /// (DeviceBuffer&lt;T&gt;.AsMemory). Pinning it (Memory.Pin, or a copy that pins it) holds
    /// the buffer, so that its memory outlives a copy in flight even if the buffer is disposed;
    /// the memory is usable until the buffer is disposed and no pin holds it.</summary>
    internal sealed unsafe class HostBufferMemory<T> : MemoryManager<T>
#if NET7_0_OR_GREATER
        where T : unmanaged
#else
        where T : struct
#endif
    {
        private readonly DeviceBuffer<T> buffer;
        private readonly IntPtr host;
        private readonly int length;

        internal HostBufferMemory(DeviceBuffer<T> buffer, IntPtr host, int length)
        {
            this.buffer = buffer;
            this.host = host;
            this.length = length;
        }

        public override Span<T> GetSpan()
        {
            if (!buffer.Handle.IsHeld)
                throw DcException.Disposed(buffer.TypeName + ".AsMemory");
            return new Span<T>((void*)host, length);
        }

        public override MemoryHandle Pin(int elementIndex = 0)
        {
            if (elementIndex < 0 || elementIndex > length)
                throw new ArgumentOutOfRangeException("elementIndex", elementIndex, "outside the buffer's " + length + " elements");
            // Allowed after the buffer's Dispose while another pin still holds its memory.
            if (!buffer.Handle.TryHold())
                throw DcException.Disposed(buffer.TypeName + ".AsMemory");
            return new MemoryHandle((byte*)host + (long)elementIndex * DeviceBuffer<T>.ElementSize, default(GCHandle), this);
        }

        public override void Unpin()
        {
            buffer.Handle.Unhold();
        }

        protected override void Dispose(bool disposing)
        {
        }
    }
}
