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

        /// <summary>Release the pool (buffers from it keep it alive until they are disposed).</summary>
        public void Dispose()
        {
            Handle.Dispose();
        }
    }
}
