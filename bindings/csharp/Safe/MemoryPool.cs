// A dc_pool: a stream-ordered memory pool of the caller's own on one device, with its size
// limit, release threshold, reuse rules, statistics and peer access. Buffers from it are
// ordinary DeviceBuffers; each keeps the pool alive in the library, so disposing the pool
// while buffers from it live is safe (the driver's pool goes with the last of them).
using System;
using Dccuda.Interop;
using C = Dccuda.Interop.NativeConstants;

namespace Dccuda
{
    /// <summary>Owns a dc_pool.</summary>
    public sealed class DcPoolHandle : DcHandle
    {
        internal override void Free(IntPtr value) { NativeMethods.dc_pool_release(value); }
    }

    /// <summary>DC_POOL_*: a pool's attributes.</summary>
    public enum PoolAttribute
    {
        /// <summary>0 or 1: reuse memory freed on another stream once an event orders the two.</summary>
        ReuseFollowEventDependencies = C.DC_POOL_REUSE_FOLLOW_EVENT_DEPENDENCIES,
        /// <summary>0 or 1: reuse memory whose free has completed, without a dependency.</summary>
        ReuseAllowOpportunistic = C.DC_POOL_REUSE_ALLOW_OPPORTUNISTIC,
        /// <summary>0 or 1: let the driver insert dependencies to reuse memory.</summary>
        ReuseAllowInternalDependencies = C.DC_POOL_REUSE_ALLOW_INTERNAL_DEPENDENCIES,
        /// <summary>Bytes of freed memory kept cached at a synchronisation.</summary>
        ReleaseThreshold = C.DC_POOL_RELEASE_THRESHOLD,
    }

    /// <summary>A pool's statistics in bytes (dc_pool_stats): reserved from the device (in use or cached) and in use by allocations, now and at their high-water marks.</summary>
    public struct PoolStats
    {
        /// <summary>The pool's device.</summary>
        public int DeviceOrdinal;
        /// <summary>Bytes reserved now.</summary>
        public ulong ReservedCurrent;
        /// <summary>The most bytes reserved since creation or the last reset.</summary>
        public ulong ReservedHigh;
        /// <summary>Bytes in use by allocations now.</summary>
        public ulong UsedCurrent;
        /// <summary>The most bytes in use since creation or the last reset.</summary>
        public ulong UsedHigh;

        internal static PoolStats From(DcPoolStats s)
        {
            return new PoolStats
            {
                DeviceOrdinal = s.DeviceOrdinal,
                ReservedCurrent = s.ReservedCurrent,
                ReservedHigh = s.ReservedHigh,
                UsedCurrent = s.UsedCurrent,
                UsedHigh = s.UsedHigh,
            };
        }
    }

    /// <summary>A memory pool on one device (dc_pool); Allocate takes buffers from it.</summary>
    public sealed unsafe class MemoryPool : IDisposable
    {
        internal MemoryPool(DcPoolHandle handle)
        {
            Handle = handle;
        }

        /// <summary>The SafeHandle owning the dc_pool (for NativeMethods calls).</summary>
        public DcPoolHandle Handle { get; private set; }

        internal Pin Use() { return new Pin(Handle, "MemoryPool"); }

        /// <summary>A pool on `device` reserving at most `maxSize` bytes (0: the device's
        /// memory; a limit needs a CUDA 12.2 driver); `exportable`: its memory may be shared
        /// with other processes (Linux).</summary>
        public static MemoryPool Create(Device device, ulong maxSize = 0, bool exportable = false)
        {
            var h = new DcPoolHandle();
            IntPtr raw;
            using (var d = device.Use())
                DcException.Check(NativeMethods.dc_pool_create(d.Raw, maxSize, exportable ? C.DC_POOL_EXPORTABLE : 0u, &raw));
            h.Adopt(raw);
            return new MemoryPool(h);
        }

        /// <summary>Set an attribute (the reuse ones take 0 or 1).</summary>
        public void SetAttribute(PoolAttribute attribute, ulong value)
        {
            using (var p = Use())
                DcException.Check(NativeMethods.dc_pool_set_attribute(p.Raw, (int)attribute, value));
        }

        /// <summary>An attribute's value.</summary>
        public ulong GetAttribute(PoolAttribute attribute)
        {
            ulong v;
            using (var p = Use())
                DcException.Check(NativeMethods.dc_pool_attribute(p.Raw, (int)attribute, &v));
            return v;
        }

        /// <summary>The pool's statistics.</summary>
        public PoolStats Statistics
        {
            get
            {
                DcPoolStats s = DcPoolStats.Init();
                using (var p = Use())
                    DcException.Check(NativeMethods.dc_pool_statistics(p.Raw, &s));
                return PoolStats.From(s);
            }
        }

        /// <summary>Reset the high-water marks to the current values.</summary>
        public void ResetHighWater()
        {
            using (var p = Use())
                DcException.Check(NativeMethods.dc_pool_reset_high_water(p.Raw));
        }

        /// <summary>Give cached memory back until the pool reserves at most `keepBytes`.</summary>
        public void Trim(ulong keepBytes = 0)
        {
            using (var p = Use())
                DcException.Check(NativeMethods.dc_pool_trim(p.Raw, keepBytes));
        }

        /// <summary>Grant (or take back) `accessor`'s access to the pool's memory.</summary>
        public void SetAccess(Device accessor, bool enable)
        {
            using (var p = Use())
            using (var a = accessor.Use())
                DcException.Check(NativeMethods.dc_pool_set_access(p.Raw, a.Raw, enable ? 1 : 0));
        }

        /// <summary>`count` elements from the pool: in stream order on `stream`, or with null,
        /// usable from every stream when it returns.</summary>
        public DeviceBuffer<T> Allocate<T>(long count, DcStream stream = null)
#if NET7_0_OR_GREATER
            where T : unmanaged
#else
            where T : struct
#endif
        {
            ulong bytes = DeviceBuffer<T>.BytesFor(count);
            var h = new DcBufferHandle();
            IntPtr raw;
            using (var p = Use())
            using (var s = new Pin(stream == null ? null : stream.Handle, "stream", optional: true))
                DcException.Check(NativeMethods.dc_buffer_alloc_from_pool(p.Raw, s.Raw, bytes, &raw));
            h.Adopt(raw);
            return new DeviceBuffer<T>(h);
        }

        /// <summary>Export the pool (created exportable) for another process: DC_IPC_HANDLE_SIZE
        /// bytes for MemoryPool.ImportIpc there. Its buffers are exported with
        /// DeviceBuffer.ExportIpc and imported with ImportBuffer. Linux only.</summary>
        public byte[] ExportIpc()
        {
            var bytes = new byte[C.DC_IPC_HANDLE_SIZE];
            using (var p = Use())
            fixed (byte* b = bytes)
                DcException.Check(NativeMethods.dc_pool_export_ipc(p.Raw, b, (ulong)bytes.Length));
            return bytes;
        }

        /// <summary>Import a pool another process exported (ExportIpc there) on `device`,
        /// taking the exporter's descriptor with pidfd_getfd (DcStatus.NotSupported where the
        /// system refuses: then send ExportFd over a Unix socket and use ImportFd). The pool
        /// holds imported buffers only (ImportBuffer); Allocate is refused.</summary>
        public static MemoryPool ImportIpc(Device device, byte[] handle)
        {
            if (handle == null)
                throw new ArgumentNullException("handle");
            var h = new DcPoolHandle();
            IntPtr raw;
            using (var d = device.Use())
            fixed (byte* b = handle)
                DcException.Check(NativeMethods.dc_pool_import_ipc(d.Raw, b, (ulong)handle.Length, &raw));
            h.Adopt(raw);
            return new MemoryPool(h);
        }

        /// <summary>The pool's file descriptor (created exportable), to send to another process
        /// yourself (SCM_RIGHTS). It stays the pool's: do not close it.</summary>
        public int ExportFd()
        {
            int fd;
            using (var p = Use())
                DcException.Check(NativeMethods.dc_pool_export_fd(p.Raw, &fd));
            return fd;
        }

        /// <summary>Import a pool from `fd`, a descriptor of this process for another process's
        /// exported pool; `fd` stays the caller's to close.</summary>
        public static MemoryPool ImportFd(Device device, int fd)
        {
            var h = new DcPoolHandle();
            IntPtr raw;
            using (var d = device.Use())
                DcException.Check(NativeMethods.dc_pool_import_fd(d.Raw, fd, &raw));
            h.Adopt(raw);
            return new MemoryPool(h);
        }

        /// <summary>Import into this pool (imported with ImportIpc or ImportFd) a buffer the
        /// exporter allocated from it and exported: it keeps the pool alive; dispose it before
        /// the exporter disposes its buffer.</summary>
        public DeviceBuffer<T> ImportBuffer<T>(byte[] handle)
#if NET7_0_OR_GREATER
            where T : unmanaged
#else
            where T : struct
#endif
        {
            if (handle == null)
                throw new ArgumentNullException("handle");
            var h = new DcBufferHandle();
            IntPtr raw;
            using (var p = Use())
            fixed (byte* b = handle)
                DcException.Check(NativeMethods.dc_buffer_import_ipc_from_pool(p.Raw, b, (ulong)handle.Length, &raw));
            h.Adopt(raw);
            return new DeviceBuffer<T>(h);
        }

        /// <summary>Release the pool (buffers from it keep it alive until they are disposed).</summary>
        public void Dispose()
        {
            Handle.Dispose();
        }
    }
}
