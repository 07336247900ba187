// DeviceBuffer<T>: a buffer of T elements with Span<T> copies. T is any struct without
// references (int, float, a [StructLayout(Sequential)] struct of them): its bytes are
// copied as they lie in memory, the layout the kernel must expect.
using System;
using System.Runtime.InteropServices;
using Dccuda.Interop;

namespace Dccuda
{
    /// <summary>A buffer of T elements, with Span and Memory copies. T is a plain value type (no references): its bytes are copied as they lie in memory, the layout the kernel must expect.</summary>
    public sealed unsafe class DeviceBuffer<T> : DeviceBuffer
#if NET7_0_OR_GREATER
        where T : unmanaged
#else
        where T : struct
#endif
    {
        // -1 when T holds references (measured once; the property throws, so that the
        // caller sees an ArgumentException, not a TypeInitializationException).
        private static readonly int elementSize = MeasureElement();

        private static int MeasureElement()
        {
            try
            {
                // MemoryMarshal.AsBytes refuses types that hold references.
                return MemoryMarshal.AsBytes(new Span<T>(new T[1])).Length;
            }
            catch (ArgumentException)
            {
                return -1;
            }
        }

        /// <summary>The size of one T in bytes, as copies lay it out.</summary>
        public static int ElementSize
        {
            get
            {
                if (elementSize < 0)
                    throw new ArgumentException("DeviceBuffer<" + typeof(T).Name + ">: " + typeof(T).Name +
                                                " holds references; device buffers need plain value types");
                return elementSize;
            }
        }

        internal static ulong BytesFor(long count)
        {
            if (count < 0)
                throw new ArgumentOutOfRangeException("count", count, "the element count is negative");
            return checked((ulong)count * (ulong)ElementSize);
        }

        internal DeviceBuffer(DcBufferHandle handle) : base(handle) { }

        internal override string TypeName { get { return "DeviceBuffer<" + typeof(T).Name + ">"; } }

        /// <summary>The number of elements (whole elements of the buffer's size).</summary>
        public long Length { get { return (long)(SizeInBytes / (ulong)ElementSize); } }

        /// <summary>Grow a growable buffer (Device.AllocateGrowable) to at least `count`
        /// elements; its address and contents stay; a smaller count changes nothing.</summary>
        public void Grow(long count)
        {
            GrowBytes(BytesFor(count));
        }

        private static ulong Offset(long index)
        {
            if (index < 0)
                throw new ArgumentOutOfRangeException("index", index, "the element index is negative");
            return checked((ulong)index * (ulong)ElementSize);
        }

        /// <summary>Copy host elements into the buffer from element `index` on; returns when done.</summary>
        public void CopyFrom(ReadOnlySpan<T> source, long index = 0)
        {
            WriteBytes(Offset(index), MemoryMarshal.AsBytes(source));
        }

        /// <summary>Copy elements from element `index` on into host memory; returns when done.</summary>
        public void CopyTo(Span<T> destination, long index = 0)
        {
            ReadBytes(Offset(index), MemoryMarshal.AsBytes(destination));
        }

        /// <summary>In stream order: see DeviceBuffer.EnqueueWriteBytes for when `source` may be reused.</summary>
        public void EnqueueCopyFrom(ReadOnlySpan<T> source, DcStream stream, long index = 0)
        {
            EnqueueWriteBytes(Offset(index), MemoryMarshal.AsBytes(source), stream);
        }

        /// <summary>In stream order: see DeviceBuffer.EnqueueReadBytes for when the data is there.</summary>
        public void EnqueueCopyTo(Span<T> destination, DcStream stream, long index = 0)
        {
            EnqueueReadBytes(Offset(index), MemoryMarshal.AsBytes(destination), stream);
        }

        /// <summary>In stream order, from `source`, which stays pinned (and must stay unchanged)
        /// until the copy has run: right for pinned host memory (AsMemory of a pinned buffer),
        /// which the driver copies asynchronously. Refused (DC_ERROR_INVALID_STATE) while the
        /// stream captures a graph.</summary>
        public void EnqueueCopyFrom(ReadOnlyMemory<T> source, DcStream stream, long index = 0)
        {
            EnqueueHostCopy(Offset(index), source, ElementSize, stream, true, TypeName + ".EnqueueCopyFrom");
        }

        /// <summary>In stream order, into `destination`, which stays pinned until the copy has
        /// run; the data is there once the stream has reached the copy (await
        /// SynchronizeAsync). Refused (DC_ERROR_INVALID_STATE) while the stream captures a graph.</summary>
        public void EnqueueCopyTo(Memory<T> destination, DcStream stream, long index = 0)
        {
            EnqueueHostCopy(Offset(index), (ReadOnlyMemory<T>)destination, ElementSize, stream, false, TypeName + ".EnqueueCopyTo");
        }

        /// <summary>In stream order from an array (pageable memory: read before the call
        /// returns). Refused while the stream captures a graph.</summary>
        public void EnqueueCopyFrom(T[] source, DcStream stream, long index = 0)
        {
            EnqueueCopyFrom(new ReadOnlySpan<T>(source), stream, index);
        }

        /// <summary>In stream order into an array (pageable memory: the data is there when the
        /// call returns). Refused while the stream captures a graph.</summary>
        public void EnqueueCopyTo(T[] destination, DcStream stream, long index = 0)
        {
            EnqueueCopyTo(new Span<T>(destination), stream, index);
        }

        /// <summary>The CPU memory of a pinned, registered or managed buffer as a Memory&lt;T&gt;
        /// (device memory has none: DC_ERROR_NOT_SUPPORTED). Valid while the buffer lives; a
        /// pin of it (as a Memory copy takes) keeps the buffer alive until it is let go.</summary>
        public Memory<T> AsMemory()
        {
            long n = Length;
            if (n > int.MaxValue)
                throw new InvalidOperationException(TypeName + ".AsMemory: " + n + " elements are more than a Memory holds");
            return new HostBufferMemory<T>(this, HostPointer, (int)n).Memory;
        }

        /// <summary>Copy `count` elements from `source` (from its element `sourceIndex`) into
        /// this buffer (at element `index`); returns when done.</summary>
        public void CopyFrom(DeviceBuffer<T> source, long count, long sourceIndex = 0, long index = 0)
        {
            CopyBytesFrom(source, Offset(sourceIndex), Offset(index), BytesFor(count));
        }

        /// <summary>In stream order: `count` elements of `source` from `sourceIndex` to element `index` of this buffer. Captured into a graph, both buffers are kept until the graph can no longer run.</summary>
        public void EnqueueCopyFrom(DeviceBuffer<T> source, long count, DcStream stream, long sourceIndex = 0, long index = 0)
        {
            EnqueueCopyBytesFrom(source, Offset(sourceIndex), Offset(index), BytesFor(count), stream);
        }

        /// <summary>A typed view (dc_buffer_view) of `count` elements from element `start`: a new
        /// DeviceBuffer&lt;T&gt; over the same memory, bounds-checked against its own range and usable
        /// wherever a buffer is (copies, kernel arguments, 2D copies). It keeps this buffer's memory
        /// alive and frees nothing; dispose it.</summary>
        public DeviceBuffer<T> Slice(long start, long count)
        {
            return new DeviceBuffer<T>(MakeView(Offset(start), BytesFor(count)));
        }

        /// <summary>Copy a `width` x `height` block of elements from `source` (rows `sourcePitch`
        /// elements apart, from element `sourceIndex`) into this buffer (rows `pitch` elements
        /// apart, from element `index`): a tile of one matrix into a tile of another. Returns when
        /// done; every row is bounds-checked.</summary>
        public void CopyFrom2D(DeviceBuffer<T> source, long sourceIndex, long sourcePitch, long index, long pitch,
                               long width, long height)
        {
            CopyBytesFrom2D(source, Offset(sourceIndex), BytesFor(sourcePitch), Offset(index), BytesFor(pitch),
                            BytesFor(width), Rows(height));
        }

        /// <summary>CopyFrom2D in stream order on `stream`.</summary>
        public void EnqueueCopyFrom2D(DeviceBuffer<T> source, long sourceIndex, long sourcePitch, long index, long pitch,
                                      long width, long height, DcStream stream)
        {
            EnqueueCopyBytesFrom2D(source, Offset(sourceIndex), BytesFor(sourcePitch), Offset(index), BytesFor(pitch),
                                   BytesFor(width), Rows(height), stream);
        }

        /// <summary>Copy a `width` x `height` block from host elements (rows `sourcePitch` elements
        /// apart from the span's start) into this buffer (rows `pitch` elements apart, from element
        /// `index`); returns when done.</summary>
        public void CopyFrom2D(ReadOnlySpan<T> source, long sourcePitch, long index, long pitch, long width, long height)
        {
            WriteBytes2D(MemoryMarshal.AsBytes(source), BytesFor(sourcePitch), Offset(index), BytesFor(pitch),
                         BytesFor(width), Rows(height));
        }

        /// <summary>Copy a `width` x `height` block of this buffer (rows `pitch` elements apart,
        /// from element `index`) into host elements (rows `destinationPitch` apart); returns when done.</summary>
        public void CopyTo2D(Span<T> destination, long destinationPitch, long index, long pitch, long width, long height)
        {
            ReadBytes2D(Offset(index), BytesFor(pitch), MemoryMarshal.AsBytes(destination), BytesFor(destinationPitch),
                        BytesFor(width), Rows(height));
        }

        /// <summary>CopyFrom2D from host elements, in stream order (see DeviceBuffer.EnqueueWriteBytes2D).</summary>
        public void EnqueueCopyFrom2D(ReadOnlySpan<T> source, long sourcePitch, long index, long pitch, long width, long height,
                                      DcStream stream)
        {
            EnqueueWriteBytes2D(MemoryMarshal.AsBytes(source), BytesFor(sourcePitch), Offset(index), BytesFor(pitch),
                                BytesFor(width), Rows(height), stream);
        }

        /// <summary>CopyTo2D in stream order (see DeviceBuffer.EnqueueReadBytes2D).</summary>
        public void EnqueueCopyTo2D(Span<T> destination, long destinationPitch, long index, long pitch, long width, long height,
                                    DcStream stream)
        {
            EnqueueReadBytes2D(Offset(index), BytesFor(pitch), MemoryMarshal.AsBytes(destination), BytesFor(destinationPitch),
                               BytesFor(width), Rows(height), stream);
        }

        /// <summary>Set a `width` x `height` block (rows `pitch` elements apart, from element
        /// `index`) to a 1-, 2- or 4-byte value; returns when done.</summary>
        public void Fill2D(T value, long index, long pitch, long width, long height)
        {
            FillBytes2D(Offset(index), BytesFor(pitch), BytesFor(width), Rows(height), FillPattern(value), (uint)ElementSize);
        }

        /// <summary>Fill2D in stream order.</summary>
        public void EnqueueFill2D(T value, long index, long pitch, long width, long height, DcStream stream)
        {
            EnqueueFillBytes2D(Offset(index), BytesFor(pitch), BytesFor(width), Rows(height), FillPattern(value),
                               (uint)ElementSize, stream);
        }

        /// <summary>Copy a box of `depth` planes of `height` rows of `width` elements from
        /// `source` (rows `sourcePitch` elements apart from element `sourceIndex`, planes
        /// `sourceRowsPerPlane` rows apart) into this buffer (rows `pitch` apart from `index`,
        /// planes `rowsPerPlane` rows apart); returns when done.</summary>
        public void CopyFrom3D(DeviceBuffer<T> source, long sourceIndex, long sourcePitch, long sourceRowsPerPlane,
                               long index, long pitch, long rowsPerPlane, long width, long height, long depth)
        {
            CopyBytesFrom3D(source, Offset(sourceIndex), BytesFor(sourcePitch), Rows(sourceRowsPerPlane), Offset(index),
                            BytesFor(pitch), Rows(rowsPerPlane), BytesFor(width), Rows(height), Rows(depth));
        }

        /// <summary>CopyFrom3D in stream order.</summary>
        public void EnqueueCopyFrom3D(DeviceBuffer<T> source, long sourceIndex, long sourcePitch, long sourceRowsPerPlane,
                                      long index, long pitch, long rowsPerPlane, long width, long height, long depth,
                                      DcStream stream)
        {
            EnqueueCopyBytesFrom3D(source, Offset(sourceIndex), BytesFor(sourcePitch), Rows(sourceRowsPerPlane),
                                   Offset(index), BytesFor(pitch), Rows(rowsPerPlane), BytesFor(width), Rows(height),
                                   Rows(depth), stream);
        }

        private static ulong Rows(long height)
        {
            if (height < 0)
                throw new ArgumentOutOfRangeException("height", height, "the row count is negative");
            return (ulong)height;
        }

        /// <summary>The whole buffer as a new array.</summary>
        public T[] ToArray()
        {
            long n = Length;
            if (n > int.MaxValue)
                throw new InvalidOperationException("DeviceBuffer<" + typeof(T).Name + ">.ToArray: " + n +
                                                    " elements do not fit in an array; copy it in parts with CopyTo");
            var a = new T[n];
            CopyTo(a);
            return a;
        }

        /// <summary>The CPU view of pinned, registered or managed memory. Valid while the
        /// buffer lives; device memory has none (DC_ERROR_NOT_SUPPORTED).</summary>
        public Span<T> AsSpan()
        {
            long n = Length;
            if (n > int.MaxValue)
                throw new InvalidOperationException("DeviceBuffer<" + typeof(T).Name + ">.AsSpan: " + n +
                                                    " elements are more than a Span holds");
            return new Span<T>((void*)HostPointer, (int)n);
        }

        /// <summary>Fill every element with the same 1-, 2- or 4-byte value; returns when done.</summary>
        public void Fill(T value)
        {
            FillBytes(0, SizeInBytes, FillPattern(value), (uint)ElementSize);
        }

        /// <summary>In stream order: every element set to `value` (1-, 2- or 4-byte elements).</summary>
        public void EnqueueFill(T value, DcStream stream)
        {
            EnqueueFillBytes(0, SizeInBytes, FillPattern(value), (uint)ElementSize, stream);
        }

        private static uint FillPattern(T value)
        {
            if (ElementSize != 1 && ElementSize != 2 && ElementSize != 4)
                throw new ArgumentException("DeviceBuffer<" + typeof(T).Name + ">.Fill: elements of " + ElementSize +
                                            " bytes cannot be filled (1, 2 or 4 bytes); write an array instead");
            var one = new T[] { value };
            Span<byte> b = MemoryMarshal.AsBytes(new Span<T>(one));
            uint v = 0;
            for (int i = 0; i < b.Length; i++)
                v |= (uint)b[i] << (8 * i);
            return v;
        }
    }
}
