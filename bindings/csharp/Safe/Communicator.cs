// A dc_comm: one rank of an NCCL communicator on one device, and the collectives on
// DeviceBuffer<T>s. NCCL's thread rules hold: one thread uses a communicator at a time
// (Abort excepted: any thread, at any time, the way out of a hang); one thread driving
// several ranks wraps their calls in Communicator.Group (dc_nccl_group_start/_end).
// Offsets and counts are in elements of T; T picks the NCCL datatype.
using System;
using Dccuda.Interop;
using C = Dccuda.Interop.NativeConstants;

namespace Dccuda
{
    /// <summary>Owns a dc_comm.</summary>
    public sealed class DcCommHandle : DcHandle
    {
        internal override void Free(IntPtr value) { NativeMethods.dc_comm_release(value); }
    }

    /// <summary>DC_NCCL_*: NCCL's reductions.</summary>
    public enum NcclOp
    {
        /// <summary>DC_NCCL_SUM</summary>
        Sum = C.DC_NCCL_SUM,
        /// <summary>DC_NCCL_PROD</summary>
        Prod = C.DC_NCCL_PROD,
        /// <summary>DC_NCCL_MIN</summary>
        Min = C.DC_NCCL_MIN,
        /// <summary>DC_NCCL_MAX</summary>
        Max = C.DC_NCCL_MAX,
        /// <summary>DC_NCCL_AVG: the sum divided by the rank count (NCCL 2.10+).</summary>
        Avg = C.DC_NCCL_AVG,
    }

    /// <summary>One rank of an NCCL communicator (dc_comm).</summary>
    public sealed unsafe class Communicator : IDisposable
    {
        internal Communicator(DcCommHandle handle) { Handle = handle; }

        /// <summary>The SafeHandle owning the dc_comm (for NativeMethods calls).</summary>
        public DcCommHandle Handle { get; private set; }

        internal Pin Use() { return new Pin(Handle, "Communicator"); }

        /// <summary>Release the communicator (finalised and destroyed unless aborted).</summary>
        public void Dispose() { Handle.Dispose(); }

        /// <summary>The NCCL version, major*10000 + minor*100 + patch; throws NotSupported
        /// (saying what was tried) without NCCL.</summary>
        public static int LibraryVersion
        {
            get
            {
                int v;
                DcException.Check(NativeMethods.dc_nccl_library_version(&v));
                return v;
            }
        }

        /// <summary>A new unique id (DC_NCCL_UNIQUE_ID_BYTES bytes) for InitRank, to hand to
        /// every rank by the caller's own means.</summary>
        public static byte[] UniqueId()
        {
            var id = new byte[C.DC_NCCL_UNIQUE_ID_BYTES];
            fixed (byte* p = id)
                DcException.Check(NativeMethods.dc_nccl_unique_id(p, (ulong)id.Length));
            return id;
        }

        /// <summary>Join communicator `id` as `rank` of `ranks` on `device` (blocks until
        /// every rank has joined, unless inside a Group).</summary>
        public static Communicator InitRank(Device device, int ranks, byte[] id, int rank)
        {
            if (id == null) throw new ArgumentNullException("id");
            var h = new DcCommHandle();
            IntPtr raw;
            using (var d = device.Use())
            fixed (byte* p = id)
                DcException.Check(NativeMethods.dc_comm_init_rank(d.Raw, ranks, p, (ulong)id.Length, rank, &raw));
            h.Adopt(raw);
            return new Communicator(h);
        }

        /// <summary>One communicator over devices `ordinals` of this process: element i is rank i.</summary>
        public static Communicator[] InitAll(params int[] ordinals)
        {
            if (ordinals == null || ordinals.Length == 0) throw new ArgumentException("at least one device ordinal", "ordinals");
            var raw = new IntPtr[ordinals.Length];
            fixed (int* o = ordinals)
            fixed (IntPtr* r = raw)
                DcException.Check(NativeMethods.dc_comm_init_all(o, ordinals.Length, r));
            var comms = new Communicator[raw.Length];
            for (int i = 0; i < raw.Length; i++)
            {
                var h = new DcCommHandle();
                h.Adopt(raw[i]);
                comms[i] = new Communicator(h);
            }
            return comms;
        }

        /// <summary>Split: ranks passing the same color form a communicator ordered by key;
        /// a negative color (DC_COMM_SPLIT_NO_COLOR) joins none and returns null. Every rank calls it.</summary>
        public Communicator Split(int color, int key)
        {
            IntPtr raw;
            using (var c = Use())
                DcException.Check(NativeMethods.dc_comm_split(c.Raw, color, key, &raw));
            if (raw == IntPtr.Zero) return null;
            var h = new DcCommHandle();
            h.Adopt(raw);
            return new Communicator(h);
        }

        /// <summary>Abort (any thread, at any time): pending collectives stop; the comm is unusable afterwards.</summary>
        public void Abort()
        {
            using (var c = Use())
                DcException.Check(NativeMethods.dc_comm_abort(c.Raw));
        }

        /// <summary>NCCL's asynchronous error (an ncclResult_t; 0 when healthy).</summary>
        public int AsyncError { get { int v; using (var c = Use()) DcException.Check(NativeMethods.dc_comm_async_error(c.Raw, &v)); return v; } }
        /// <summary>This comm's rank.</summary>
        public int Rank { get { int v; using (var c = Use()) DcException.Check(NativeMethods.dc_comm_rank(c.Raw, &v)); return v; } }
        /// <summary>The number of ranks.</summary>
        public int Count { get { int v; using (var c = Use()) DcException.Check(NativeMethods.dc_comm_count(c.Raw, &v)); return v; } }
        /// <summary>The ordinal of the comm's device.</summary>
        public int DeviceOrdinal { get { int v; using (var c = Use()) DcException.Check(NativeMethods.dc_comm_device_ordinal(c.Raw, &v)); return v; } }

        /// <summary>Run `calls` (several ranks' collectives from this thread) as one NCCL group.</summary>
        public static void Group(Action calls)
        {
            DcException.Check(NativeMethods.dc_nccl_group_start());
            try { calls(); }
            finally { DcException.Check(NativeMethods.dc_nccl_group_end()); }
        }

        /// <summary>The DC_NCCL_* datatype of T (sbyte, byte, int, uint, long, ulong, float, double).</summary>
        public static int DataTypeOf<T>()
#if NET7_0_OR_GREATER
            where T : unmanaged
#else
            where T : struct
#endif
        {
            Type t = typeof(T);
            if (t == typeof(sbyte)) return C.DC_NCCL_INT8;
            if (t == typeof(byte)) return C.DC_NCCL_UINT8;
            if (t == typeof(int)) return C.DC_NCCL_INT32;
            if (t == typeof(uint)) return C.DC_NCCL_UINT32;
            if (t == typeof(long)) return C.DC_NCCL_INT64;
            if (t == typeof(ulong)) return C.DC_NCCL_UINT64;
            if (t == typeof(float)) return C.DC_NCCL_FLOAT32;
            if (t == typeof(double)) return C.DC_NCCL_FLOAT64;
            throw new ArgumentException("NCCL has no datatype for " + t.Name + "; use sbyte, byte, int, uint, long, ulong, float or double");
        }

        static ulong Bytes<T>(long elements)
#if NET7_0_OR_GREATER
            where T : unmanaged
#else
            where T : struct
#endif
        { return checked((ulong)elements * (ulong)DeviceBuffer<T>.ElementSize); }

        static IntPtr RawOf(DeviceBuffer b, ref Pin pin, ref bool pinned)
        {
            if (b == null) return IntPtr.Zero;
            pin = b.Use();
            pinned = true;
            return pin.Raw;
        }

        // One collective: the comm, two optional buffers and the stream pinned for the call.
        delegate int Call(IntPtr comm, IntPtr send, IntPtr recv, IntPtr stream);

        void Collective(DeviceBuffer send, DeviceBuffer recv, DcStream stream, Call call)
        {
            if (stream == null) throw new ArgumentNullException("stream");
            Pin sp = default(Pin), rp = default(Pin);
            bool sPinned = false, rPinned = false;
            try
            {
                using (var c = Use())
                using (var s = stream.Use())
                {
                    IntPtr sRaw = RawOf(send, ref sp, ref sPinned);
                    IntPtr rRaw = RawOf(recv, ref rp, ref rPinned);
                    DcException.Check(call(c.Raw, sRaw, rRaw, s.Raw));
                }
            }
            finally
            {
                if (sPinned) sp.Dispose();
                if (rPinned) rp.Dispose();
            }
        }

        /// <summary>All-reduce `count` elements from send[sendIndex..] into every rank's recv[recvIndex..].</summary>
        public void AllReduce<T>(DeviceBuffer<T> send, DeviceBuffer<T> recv, long count, NcclOp op, DcStream stream, long sendIndex = 0, long recvIndex = 0)
#if NET7_0_OR_GREATER
            where T : unmanaged
#else
            where T : struct
#endif
        {
            int dt = DataTypeOf<T>();
            Collective(send, recv, stream, (c, s, r, st) => NativeMethods.dc_comm_all_reduce(c, s, Bytes<T>(sendIndex), r, Bytes<T>(recvIndex), (ulong)count, dt, (int)op, st));
        }

        /// <summary>Broadcast root's send to every rank's recv (send may be null off the root).</summary>
        public void Broadcast<T>(DeviceBuffer<T> send, DeviceBuffer<T> recv, long count, int root, DcStream stream, long sendIndex = 0, long recvIndex = 0)
#if NET7_0_OR_GREATER
            where T : unmanaged
#else
            where T : struct
#endif
        {
            int dt = DataTypeOf<T>();
            Collective(send, recv, stream, (c, s, r, st) => NativeMethods.dc_comm_broadcast(c, s, Bytes<T>(sendIndex), r, Bytes<T>(recvIndex), (ulong)count, dt, root, st));
        }

        /// <summary>Reduce into root's recv (recv may be null off the root).</summary>
        public void Reduce<T>(DeviceBuffer<T> send, DeviceBuffer<T> recv, long count, NcclOp op, int root, DcStream stream, long sendIndex = 0, long recvIndex = 0)
#if NET7_0_OR_GREATER
            where T : unmanaged
#else
            where T : struct
#endif
        {
            int dt = DataTypeOf<T>();
            Collective(send, recv, stream, (c, s, r, st) => NativeMethods.dc_comm_reduce(c, s, Bytes<T>(sendIndex), r, Bytes<T>(recvIndex), (ulong)count, dt, (int)op, root, st));
        }

        /// <summary>All-gather: rank i's sendCount elements land at element i*sendCount of every recv.</summary>
        public void AllGather<T>(DeviceBuffer<T> send, DeviceBuffer<T> recv, long sendCount, DcStream stream, long sendIndex = 0, long recvIndex = 0)
#if NET7_0_OR_GREATER
            where T : unmanaged
#else
            where T : struct
#endif
        {
            int dt = DataTypeOf<T>();
            Collective(send, recv, stream, (c, s, r, st) => NativeMethods.dc_comm_all_gather(c, s, Bytes<T>(sendIndex), r, Bytes<T>(recvIndex), (ulong)sendCount, dt, st));
        }

        /// <summary>Reduce-scatter: rank i receives block i (recvCount elements) of the reduction.</summary>
        public void ReduceScatter<T>(DeviceBuffer<T> send, DeviceBuffer<T> recv, long recvCount, NcclOp op, DcStream stream, long sendIndex = 0, long recvIndex = 0)
#if NET7_0_OR_GREATER
            where T : unmanaged
#else
            where T : struct
#endif
        {
            int dt = DataTypeOf<T>();
            Collective(send, recv, stream, (c, s, r, st) => NativeMethods.dc_comm_reduce_scatter(c, s, Bytes<T>(sendIndex), r, Bytes<T>(recvIndex), (ulong)recvCount, dt, (int)op, st));
        }

        /// <summary>Send `count` elements to rank `peer` (its Recv must match; group exchanges).</summary>
        public void Send<T>(DeviceBuffer<T> send, long count, int peer, DcStream stream, long sendIndex = 0)
#if NET7_0_OR_GREATER
            where T : unmanaged
#else
            where T : struct
#endif
        {
            int dt = DataTypeOf<T>();
            Collective(send, null, stream, (c, s, r, st) => NativeMethods.dc_comm_send(c, s, Bytes<T>(sendIndex), (ulong)count, dt, peer, st));
        }

        /// <summary>Receive `count` elements from rank `peer`.</summary>
        public void Recv<T>(DeviceBuffer<T> recv, long count, int peer, DcStream stream, long recvIndex = 0)
#if NET7_0_OR_GREATER
            where T : unmanaged
#else
            where T : struct
#endif
        {
            int dt = DataTypeOf<T>();
            Collective(null, recv, stream, (c, s, r, st) => NativeMethods.dc_comm_recv(c, r, Bytes<T>(recvIndex), (ulong)count, dt, peer, st));
        }
    }
}
