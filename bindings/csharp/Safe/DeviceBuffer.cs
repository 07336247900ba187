// A dc_buffer: device, pinned, managed, wrapped or registered memory, or a module global.
// DeviceBuffer addresses bytes; DeviceBuffer<T> (DeviceBufferOfT.cs) adds elements and
// Span<T> copies. Every copy is bounds-checked by the library (DC_ERROR_OUT_OF_RANGE with
// the numbers), never a GPU fault.
using System;
using System.Runtime.InteropServices;
using Dccuda.Interop;
using C = Dccuda.Interop.NativeConstants;

namespace Dccuda
{
    /// <summary>A buffer (dc_buffer) addressed in bytes: device, pinned, managed, wrapped or registered memory, or a module global. DeviceBuffer&lt;T&gt; adds elements; copies are bounds-checked by the library.</summary>
    public unsafe class DeviceBuffer : IDisposable
    {
        internal DeviceBuffer(DcBufferHandle handle)
        {
            Handle = handle;
        }

        /// <summary>The SafeHandle owning the dc_buffer (for NativeMethods calls and kernel
        /// arguments).</summary>
        public DcBufferHandle Handle { get; private set; }

        internal virtual string TypeName { get { return "DeviceBuffer"; } }

        internal Pin Use() { return new Pin(Handle, TypeName); }

        /// <summary>The buffer's size in bytes.</summary>
        public ulong SizeInBytes
        {
            get
            {
                ulong n;
                using (var b = Use())
                    DcException.Check(NativeMethods.dc_buffer_size(b.Raw, &n));
                return n;
            }
        }

        /// <summary>The bytes a growable buffer (Device.AllocateGrowable) may grow to; for
        /// another buffer its size.</summary>
        public ulong ReservedSizeInBytes
        {
            get
            {
                ulong n;
                using (var b = Use())
                    DcException.Check(NativeMethods.dc_buffer_reserved_size(b.Raw, &n));
                return n;
            }
        }

        /// <summary>Grow a growable buffer to at least `sizeInBytes` (rounded up to the
        /// granularity); its address and contents stay; a smaller size changes nothing.</summary>
        public void GrowBytes(ulong sizeInBytes)
        {
            using (var b = Use())
                DcException.Check(NativeMethods.dc_buffer_grow(b.Raw, sizeInBytes));
        }

        /// <summary>Export the buffer for another process (DC_ALLOC_NO_POOL device memory, or a
        /// view of it): DC_IPC_HANDLE_SIZE bytes for Device.ImportIpcBuffer there.</summary>
        public byte[] ExportIpc()
        {
            var bytes = new byte[C.DC_IPC_HANDLE_SIZE];
            using (var b = Use())
            fixed (byte* p = bytes)
                DcException.Check(NativeMethods.dc_buffer_export_ipc(b.Raw, p, (ulong)bytes.Length));
            return bytes;
        }

        /// <summary>What the buffer's memory is (device, pinned, managed...).</summary>
        public BufferKind Kind
        {
            get
            {
                int k;
                using (var b = Use())
                    DcException.Check(NativeMethods.dc_buffer_kind(b.Raw, &k));
                return (BufferKind)k;
            }
        }

        /// <summary>A new handle to the buffer's device (dispose it).</summary>
        public Device GetDevice()
        {
            IntPtr raw;
            using (var b = Use())
                DcException.Check(NativeMethods.dc_buffer_device(b.Raw, &raw));
            return Device.Adopt(raw);
        }

        /// <summary>The CUdeviceptr, for other CUDA libraries; valid while the buffer lives.</summary>
        public ulong DevicePointer
        {
            get
            {
                ulong p;
                using (var b = Use())
                    DcException.Check(NativeMethods.dc_buffer_device_pointer(b.Raw, &p));
                return p;
            }
        }

        /// <summary>The CPU address of pinned, registered or managed memory (device memory has
        /// none: DC_ERROR_NOT_SUPPORTED); valid while the buffer lives.</summary>
        public IntPtr HostPointer
        {
            get
            {
                IntPtr p;
                using (var b = Use())
                    DcException.Check(NativeMethods.dc_buffer_host_pointer(b.Raw, &p));
                return p;
            }
        }

        /// <summary>Copy host bytes into the buffer at `offset`; returns when done.</summary>
        public void WriteBytes(ulong offset, ReadOnlySpan<byte> source)
        {
            fixed (byte* src = &MemoryMarshal.GetReference(source))
            using (var b = Use())
                DcException.Check(NativeMethods.dc_buffer_write(b.Raw, offset, src, (ulong)source.Length));
        }

        /// <summary>Copy bytes at `offset` into host memory; returns when done.</summary>
        public void ReadBytes(ulong offset, Span<byte> destination)
        {
            fixed (byte* dst = &MemoryMarshal.GetReference(destination))
            using (var b = Use())
                DcException.Check(NativeMethods.dc_buffer_read(b.Raw, offset, dst, (ulong)destination.Length));
        }

        /// <summary>In stream order. Managed (pageable) memory has been read when the call
        /// returns; memory the driver knows (a pinned buffer's span) must stay untouched until
        /// the stream reaches the copy. Refused (DC_ERROR_INVALID_STATE) while the stream
        /// captures a graph.</summary>
        public void EnqueueWriteBytes(ulong offset, ReadOnlySpan<byte> source, DcStream stream)
        {
            fixed (byte* src = &MemoryMarshal.GetReference(source))
            using (var b = Use())
            using (var s = new Pin(stream == null ? null : stream.Handle, "stream"))
            {
                DcStream.RefuseHostCopyWhileCapturing(s.Raw, TypeName + ".EnqueueWriteBytes");
                DcException.Check(NativeMethods.dc_buffer_write_async(b.Raw, offset, src, (ulong)source.Length, s.Raw));
            }
        }

        /// <summary>In stream order. Into managed (pageable) memory the data is there when the
        /// call returns; into pinned memory once the stream reaches the copy. Refused
        /// (DC_ERROR_INVALID_STATE) while the stream captures a graph.</summary>
        public void EnqueueReadBytes(ulong offset, Span<byte> destination, DcStream stream)
        {
            fixed (byte* dst = &MemoryMarshal.GetReference(destination))
            using (var b = Use())
            using (var s = new Pin(stream == null ? null : stream.Handle, "stream"))
            {
                DcStream.RefuseHostCopyWhileCapturing(s.Raw, TypeName + ".EnqueueReadBytes");
                DcException.Check(NativeMethods.dc_buffer_read_async(b.Raw, offset, dst, (ulong)destination.Length, s.Raw));
            }
        }

        /// <summary>In stream order, from `source`, which stays pinned (and must stay unchanged)
        /// until the copy has run: safe for pinned host memory, which the driver copies
        /// asynchronously. Refused (DC_ERROR_INVALID_STATE) while the stream captures a graph.</summary>
        public void EnqueueWriteBytes(ulong offset, ReadOnlyMemory<byte> source, DcStream stream)
        {
            EnqueueHostCopy(offset, source, 1, stream, true, TypeName + ".EnqueueWriteBytes");
        }

        /// <summary>In stream order, as EnqueueWriteBytes(ReadOnlySpan): an array is read before
        /// the call returns (pageable memory).</summary>
        public void EnqueueWriteBytes(ulong offset, byte[] source, DcStream stream)
        {
            EnqueueWriteBytes(offset, new ReadOnlySpan<byte>(source), stream);
        }

        /// <summary>In stream order, into `destination`, which stays pinned until the copy has
        /// run; the data is there once the stream has reached the copy (SynchronizeAsync).
        /// Refused (DC_ERROR_INVALID_STATE) while the stream captures a graph.</summary>
        public void EnqueueReadBytes(ulong offset, Memory<byte> destination, DcStream stream)
        {
            EnqueueHostCopy(offset, (ReadOnlyMemory<byte>)destination, 1, stream, false, TypeName + ".EnqueueReadBytes");
        }

        /// <summary>In stream order, as EnqueueReadBytes(Span): into an array (pageable memory)
        /// the data is there when the call returns.</summary>
        public void EnqueueReadBytes(ulong offset, byte[] destination, DcStream stream)
        {
            EnqueueReadBytes(offset, new Span<byte>(destination), stream);
        }

        /// <summary>A stream-ordered copy with host memory pinned until it has run: the pin is
        /// given back by a one-shot host callback behind the copy (HostPin).</summary>
        internal void EnqueueHostCopy<T>(ulong offset, ReadOnlyMemory<T> memory, int elementSize, DcStream stream, bool write, string what)
            where T : struct
        {
            using (var b = Use())
            using (var s = new Pin(stream == null ? null : stream.Handle, "stream"))
            {
                DcStream.RefuseHostCopyWhileCapturing(s.Raw, what);
                ulong bytes = checked((ulong)memory.Length * (ulong)elementSize);
                HostPin pin = HostPin.Of(memory, elementSize);
                int status = write
                    ? NativeMethods.dc_buffer_write_async(b.Raw, offset, pin.Pointer, bytes, s.Raw)
                    : NativeMethods.dc_buffer_read_async(b.Raw, offset, pin.Pointer, bytes, s.Raw);
                if (status < 0)
                {
                    DcException e = DcException.FromLastError(status);
                    pin.Release();
                    throw e;
                }
                long key = HostCallbacks.Add(pin, false);
                status = NativeMethods.dc_stream_add_callback(s.Raw, HostCallbacks.Thunk, HostCallbacks.UserData(key));
                if (status < 0)
                {
                    // The copy is enqueued but the unpin could not be: wait for it here.
                    DcException e = DcException.FromLastError(status);
                    HostCallbacks.Remove(key);
                    NativeMethods.dc_stream_synchronize(s.Raw);
                    pin.Release();
                    throw e;
                }
            }
        }

        /// <summary>Copy `bytes` from `source` at `sourceOffset` to this buffer at
        /// `offset`; returns when done.</summary>
        public void CopyBytesFrom(DeviceBuffer source, ulong sourceOffset, ulong offset, ulong bytes)
        {
            using (var d = Use())
            using (var s = new Pin(source == null ? null : source.Handle, "source"))
                DcException.Check(NativeMethods.dc_buffer_copy(d.Raw, offset, s.Raw, sourceOffset, bytes));
        }

        /// <summary>In stream order. Captured into a graph, both buffers are kept until the
        /// graph can no longer run.</summary>
        public void EnqueueCopyBytesFrom(DeviceBuffer source, ulong sourceOffset, ulong offset, ulong bytes, DcStream stream)
        {
            using (var d = Use())
            using (var s = new Pin(source == null ? null : source.Handle, "source"))
            using (var st = new Pin(stream == null ? null : stream.Handle, "stream"))
            {
                DcException.Check(NativeMethods.dc_buffer_copy_async(d.Raw, offset, s.Raw, sourceOffset, bytes, st.Raw));
                GraphResources graph = stream.Capture;
                if (graph != null)
                {
                    graph.AddBuffer(Handle);
                    graph.AddBuffer(source.Handle);
                }
            }
        }

        /// <summary>Enqueue every copy of `copies` on `stream` in one native call
        /// (dc_buffer_copy_batch_async): one transition and one validation pass for all of them.
        /// Every copy is checked first (a bad one throws naming its index, "ops[3]", and nothing
        /// is enqueued). The copies of one batch are not ordered among themselves, so one that
        /// writes what another reads or writes is refused: put dependent copies in two batches.
        /// Captured into a graph, every buffer is kept until the graph can no longer run.</summary>
        public static void EnqueueCopyBatch(ReadOnlySpan<BufferCopy> copies, DcStream stream)
        {
            int n = copies.Length;
            var pins = new Pin[2 * n];
            int pinned = 0;
            var ops = new DcCopyOp[n];
            try
            {
                for (int i = 0; i < n; i++)
                {
                    BufferCopy c = copies[i];
                    pins[pinned] = new Pin(c.Destination == null ? null : c.Destination.Handle, "copies[" + i + "].Destination");
                    pinned++;
                    pins[pinned] = new Pin(c.Source == null ? null : c.Source.Handle, "copies[" + i + "].Source");
                    pinned++;
                    ops[i] = new DcCopyOp
                    {
                        Kind = NativeConstants.DC_COPY_BUFFER_TO_BUFFER,
                        Dst = pins[pinned - 2].Raw,
                        DstOffset = c.DestinationOffset,
                        Src = pins[pinned - 1].Raw,
                        SrcOffset = c.SourceOffset,
                        Size = c.Bytes,
                    };
                }
                using (var st = new Pin(stream == null ? null : stream.Handle, "stream"))
                {
                    fixed (DcCopyOp* p = ops)
                        DcException.Check(NativeMethods.dc_buffer_copy_batch_async(n == 0 ? null : p, (uint)n, st.Raw));
                    GraphResources graph = stream.Capture;
                    if (graph != null)
                        for (int i = 0; i < n; i++)
                        {
                            graph.AddBuffer(copies[i].Destination.Handle);
                            graph.AddBuffer(copies[i].Source.Handle);
                        }
                }
            }
            finally
            {
                for (int i = 0; i < pinned; i++)
                    pins[i].Dispose();
            }
        }

        /// <summary>Fill [offset, offset + bytes) with `value` as elements of `elementSize`
        /// bytes (1, 2 or 4); returns when done.</summary>
        public void FillBytes(ulong offset, ulong bytes, uint value, uint elementSize)
        {
            using (var b = Use())
                DcException.Check(NativeMethods.dc_buffer_fill(b.Raw, offset, bytes, value, elementSize));
        }

        /// <summary>In stream order. Captured into a graph, the buffer is kept until the graph
        /// can no longer run.</summary>
        public void EnqueueFillBytes(ulong offset, ulong bytes, uint value, uint elementSize, DcStream stream)
        {
            using (var b = Use())
            using (var s = new Pin(stream == null ? null : stream.Handle, "stream"))
            {
                DcException.Check(NativeMethods.dc_buffer_fill_async(b.Raw, offset, bytes, value, elementSize, s.Raw));
                HoldIfCaptured(stream);
            }
        }

        /// <summary>After work on this buffer was enqueued on `stream`: a capture begun through
        /// it keeps the buffer.</summary>
        private void HoldIfCaptured(DcStream stream)
        {
            GraphResources graph = stream.Capture;
            if (graph != null)
                graph.AddBuffer(Handle);
        }

        /// <summary>Managed memory: prefetch a byte range to `location` (a device ordinal, or
        /// Location.Host) in stream order.</summary>
        public void EnqueuePrefetch(ulong offset, ulong bytes, int location, DcStream stream)
        {
            using (var b = Use())
            using (var s = new Pin(stream == null ? null : stream.Handle, "stream"))
            {
                DcException.Check(NativeMethods.dc_buffer_prefetch(b.Raw, offset, bytes, location, s.Raw));
                HoldIfCaptured(stream);
            }
        }

        /// <summary>Managed memory: advice for a byte range and a location.</summary>
        public void Advise(ulong offset, ulong bytes, MemoryAdvice advice, int location)
        {
            using (var b = Use())
                DcException.Check(NativeMethods.dc_buffer_advise(b.Raw, offset, bytes, (int)advice, location));
        }

        /// <summary>How a copy from `source` into this buffer travels.</summary>
        public CopyPath CopyPathFrom(DeviceBuffer source)
        {
            int path;
            using (var d = Use())
            using (var s = new Pin(source == null ? null : source.Handle, "source"))
                DcException.Check(NativeMethods.dc_buffer_copy_path(d.Raw, s.Raw, &path));
            return (CopyPath)path;
        }

        /// <summary>A view (dc_buffer_view) of `bytes` bytes from `offset`: a new buffer over the same
        /// memory, bounds-checked against its own range, usable wherever a buffer is. It keeps this
        /// buffer's memory alive and frees nothing; dispose it.</summary>
        public DeviceBuffer ViewBytes(ulong offset, ulong bytes)
        {
            return new DeviceBuffer(MakeView(offset, bytes));
        }

        internal DcBufferHandle MakeView(ulong offset, ulong bytes)
        {
            var h = new DcBufferHandle();
            IntPtr raw;
            using (var b = Use())
            {
                DcException.Check(NativeMethods.dc_buffer_view(b.Raw, offset, bytes, &raw));
                h.Adopt(raw);
                h.KeepParent(Handle);
            }
            return h;
        }

        /// <summary>Copy a 2D region of `height` rows of `width` bytes from `source` (rows at
        /// `sourceOffset`, `sourcePitch` bytes apart) to this buffer (rows at `offset`, `pitch`
        /// apart); returns when done. Every row is bounds-checked (DC_ERROR_OUT_OF_RANGE names
        /// the first that overruns).</summary>
        public void CopyBytesFrom2D(DeviceBuffer source, ulong sourceOffset, ulong sourcePitch, ulong offset, ulong pitch,
                                    ulong width, ulong height)
        {
            using (var d = Use())
            using (var s = new Pin(source == null ? null : source.Handle, "source"))
                DcException.Check(NativeMethods.dc_buffer_copy_2d(d.Raw, offset, pitch, s.Raw, sourceOffset, sourcePitch,
                                                                  width, height));
        }

        /// <summary>CopyBytesFrom2D in stream order. Captured into a graph, both buffers are kept
        /// until the graph can no longer run.</summary>
        public void EnqueueCopyBytesFrom2D(DeviceBuffer source, ulong sourceOffset, ulong sourcePitch, ulong offset,
                                           ulong pitch, ulong width, ulong height, DcStream stream)
        {
            using (var d = Use())
            using (var s = new Pin(source == null ? null : source.Handle, "source"))
            using (var st = new Pin(stream == null ? null : stream.Handle, "stream"))
            {
                DcException.Check(NativeMethods.dc_buffer_copy_2d_async(d.Raw, offset, pitch, s.Raw, sourceOffset,
                                                                        sourcePitch, width, height, st.Raw));
                GraphResources graph = stream.Capture;
                if (graph != null)
                {
                    graph.AddBuffer(Handle);
                    graph.AddBuffer(source.Handle);
                }
            }
        }

        /// <summary>Copy a 2D region from host bytes (rows `sourcePitch` apart from the span's
        /// start) into this buffer (rows at `offset`, `pitch` apart); returns when done. Large
        /// regions of ordinary memory are staged through pinned buffers.</summary>
        public void WriteBytes2D(ReadOnlySpan<byte> source, ulong sourcePitch, ulong offset, ulong pitch, ulong width,
                                 ulong height)
        {
            fixed (byte* src = &MemoryMarshal.GetReference(source))
            using (var b = Use())
                DcException.Check(NativeMethods.dc_buffer_write_2d(b.Raw, offset, pitch, src, (ulong)source.Length,
                                                                   sourcePitch, width, height));
        }

        /// <summary>Copy a 2D region of this buffer (rows at `offset`, `pitch` apart) into host
        /// bytes (rows `destinationPitch` apart); returns when done.</summary>
        public void ReadBytes2D(ulong offset, ulong pitch, Span<byte> destination, ulong destinationPitch, ulong width,
                                ulong height)
        {
            fixed (byte* dst = &MemoryMarshal.GetReference(destination))
            using (var b = Use())
                DcException.Check(NativeMethods.dc_buffer_read_2d(b.Raw, offset, pitch, dst, (ulong)destination.Length,
                                                                  destinationPitch, width, height));
        }

        /// <summary>WriteBytes2D in stream order. Managed (pageable) memory has been read when
        /// the call returns (as EnqueueWriteBytes). Refused (DC_ERROR_INVALID_STATE) while the
        /// stream captures a graph.</summary>
        public void EnqueueWriteBytes2D(ReadOnlySpan<byte> source, ulong sourcePitch, ulong offset, ulong pitch, ulong width,
                                        ulong height, DcStream stream)
        {
            fixed (byte* src = &MemoryMarshal.GetReference(source))
            using (var b = Use())
            using (var s = new Pin(stream == null ? null : stream.Handle, "stream"))
            {
                DcStream.RefuseHostCopyWhileCapturing(s.Raw, TypeName + ".EnqueueWriteBytes2D");
                DcException.Check(NativeMethods.dc_buffer_write_2d_async(b.Raw, offset, pitch, src, (ulong)source.Length,
                                                                         sourcePitch, width, height, s.Raw));
            }
        }

        /// <summary>ReadBytes2D in stream order. Into managed (pageable) memory the data is
        /// there when the call returns (as EnqueueReadBytes). Refused (DC_ERROR_INVALID_STATE)
        /// while the stream captures a graph.</summary>
        public void EnqueueReadBytes2D(ulong offset, ulong pitch, Span<byte> destination, ulong destinationPitch, ulong width,
                                       ulong height, DcStream stream)
        {
            fixed (byte* dst = &MemoryMarshal.GetReference(destination))
            using (var b = Use())
            using (var s = new Pin(stream == null ? null : stream.Handle, "stream"))
            {
                DcStream.RefuseHostCopyWhileCapturing(s.Raw, TypeName + ".EnqueueReadBytes2D");
                DcException.Check(NativeMethods.dc_buffer_read_2d_async(b.Raw, offset, pitch, dst, (ulong)destination.Length,
                                                                        destinationPitch, width, height, s.Raw));
            }
        }

        /// <summary>Fill `height` rows of `width` bytes (`pitch` apart from `offset`) with `value`
        /// as elements of `elementSize` bytes (1, 2 or 4; offset, width and pitch multiples of
        /// it); returns when done.</summary>
        public void FillBytes2D(ulong offset, ulong pitch, ulong width, ulong height, uint value, uint elementSize)
        {
            using (var b = Use())
                DcException.Check(NativeMethods.dc_buffer_fill_2d(b.Raw, offset, pitch, width, height, value, elementSize));
        }

        /// <summary>FillBytes2D in stream order. Captured into a graph, the buffer is kept until
        /// the graph can no longer run.</summary>
        public void EnqueueFillBytes2D(ulong offset, ulong pitch, ulong width, ulong height, uint value, uint elementSize,
                                       DcStream stream)
        {
            using (var b = Use())
            using (var s = new Pin(stream == null ? null : stream.Handle, "stream"))
            {
                DcException.Check(NativeMethods.dc_buffer_fill_2d_async(b.Raw, offset, pitch, width, height, value,
                                                                        elementSize, s.Raw));
                HoldIfCaptured(stream);
            }
        }

        /// <summary>Copy a 3D region of `depth` planes of `height` rows of `width` bytes from
        /// `source` (rows `sourcePitch` bytes apart from `sourceOffset`, planes
        /// `sourceRowsPerPlane` rows apart) to this buffer (rows `pitch` apart from `offset`,
        /// planes `rowsPerPlane` rows apart); returns when done.</summary>
        public void CopyBytesFrom3D(DeviceBuffer source, ulong sourceOffset, ulong sourcePitch, ulong sourceRowsPerPlane,
                                    ulong offset, ulong pitch, ulong rowsPerPlane, ulong width, ulong height, ulong depth)
        {
            using (var d = Use())
            using (var s = new Pin(source == null ? null : source.Handle, "source"))
                DcException.Check(NativeMethods.dc_buffer_copy_3d(d.Raw, offset, pitch, rowsPerPlane, s.Raw, sourceOffset,
                                                                  sourcePitch, sourceRowsPerPlane, width, height, depth));
        }

        /// <summary>CopyBytesFrom3D in stream order. Captured into a graph, both buffers are kept
        /// until the graph can no longer run.</summary>
        public void EnqueueCopyBytesFrom3D(DeviceBuffer source, ulong sourceOffset, ulong sourcePitch,
                                           ulong sourceRowsPerPlane, ulong offset, ulong pitch, ulong rowsPerPlane,
                                           ulong width, ulong height, ulong depth, DcStream stream)
        {
            using (var d = Use())
            using (var s = new Pin(source == null ? null : source.Handle, "source"))
            using (var st = new Pin(stream == null ? null : stream.Handle, "stream"))
            {
                DcException.Check(NativeMethods.dc_buffer_copy_3d_async(d.Raw, offset, pitch, rowsPerPlane, s.Raw,
                                                                        sourceOffset, sourcePitch, sourceRowsPerPlane,
                                                                        width, height, depth, st.Raw));
                GraphResources graph = stream.Capture;
                if (graph != null)
                {
                    graph.AddBuffer(Handle);
                    graph.AddBuffer(source.Handle);
                }
            }
        }

        /// <summary>This buffer's memory as elements of T (its size must be a multiple of T's).
        /// The view shares the handle: disposing either disposes both.</summary>
        public DeviceBuffer<T> As<T>()
#if NET7_0_OR_GREATER
            where T : unmanaged
#else
            where T : struct
#endif
        {
            ulong bytes = SizeInBytes;
            if (bytes % (ulong)DeviceBuffer<T>.ElementSize != 0)
                throw new ArgumentException(TypeName + ".As<" + typeof(T).Name + ">: the buffer's " + bytes +
                                            " bytes are not a whole number of " + DeviceBuffer<T>.ElementSize + "-byte elements");
            return new DeviceBuffer<T>(Handle);
        }

        /// <summary>True once Dispose released the handle (the memory may live on while a prepared launch, graph or pin holds it).</summary>
        public bool IsDisposed { get { return Handle.IsClosed; } }

        /// <summary>Release the buffer. Memory is freed in stream order after work already
        /// enqueued on its last stream (see dc_buffer_release).</summary>
        public void Dispose()
        {
            Handle.Dispose();
        }
    }

    /// <summary>Prefetch and advice locations.</summary>
    public static class Location
    {
        /// <summary>The CPU (DC_LOCATION_HOST); a value >= 0 is a device ordinal.</summary>
        public const int Host = NativeConstants.DC_LOCATION_HOST;
    }
}
