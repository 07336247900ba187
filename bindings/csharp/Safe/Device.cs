// A CUDA device (dc_device): its info and attributes, memory, peers, and the factories for
// what lives on it (buffers, streams, events, modules).
using System;
using System.Diagnostics.CodeAnalysis;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using Dccuda.Interop;
using C = Dccuda.Interop.NativeConstants;

namespace Dccuda
{
    /// <summary>Free and total device memory in bytes.</summary>
    public struct MemoryInfo
    {
        /// <summary>Free device memory in bytes.</summary>
        public ulong Free;
        /// <summary>Total device memory in bytes.</summary>
        public ulong Total;
    }

    /// <summary>A device's stream priorities: Greatest is the numerically lowest.</summary>
    public struct StreamPriorityRange
    {
        /// <summary>The numerically greatest (least urgent) priority: the default.</summary>
        public int Least;
        /// <summary>The numerically lowest (most urgent) priority.</summary>
        public int Greatest;
    }

    /// <summary>A CUDA device (dc_device) with its primary context: its properties, memory and peers, and the factories for what lives on it. Children keep it alive, so it may be disposed first.</summary>
    public sealed unsafe class Device : IDisposable
    {
        internal Device(DcDeviceHandle handle)
        {
            Handle = handle;
        }

        /// <summary>The SafeHandle owning the dc_device (for NativeMethods calls).</summary>
        public DcDeviceHandle Handle { get; private set; }

        /// <summary>The number of CUDA devices (0 when the driver sees none).</summary>
        public static int Count { get { return Dc.DeviceCount; } }

        /// <summary>Open device `ordinal` (0-based) and retain its primary context.</summary>
        public static Device Open(int ordinal)
        {
            // A possible first call: find the library before OpenCore is compiled (see Dc).
            NativeLibraryResolver.Register();
            return OpenCore(ordinal);
        }

        [MethodImpl(MethodImplOptions.NoInlining)]
        private static Device OpenCore(int ordinal)
        {
            var h = new DcDeviceHandle();
            IntPtr raw;
            DcException.Check(NativeMethods.dc_device_open(ordinal, &raw));
            h.Adopt(raw);
            return new Device(h);
        }

        internal static Device Adopt(IntPtr raw)
        {
            var h = new DcDeviceHandle();
            h.Adopt(raw);
            return new Device(h);
        }

        internal Pin Use() { return new Pin(Handle, "Device"); }

        /// <summary>The device's properties, read now (FreeMemory changes).</summary>
        public DeviceInfo Info
        {
            get
            {
                DcDeviceInfo info = DcDeviceInfo.Init();
                using (var d = Use())
                    DcException.Check(NativeMethods.dc_device_get_info(d.Raw, &info));
                return new DeviceInfo(info);
            }
        }

        /// <summary>The device's telemetry now, from NVML (dc_device_telemetry_get): check each
        /// field with Diagnostics.Available before using it (unavailable ones read 0).</summary>
        public DcDeviceTelemetry Telemetry
        {
            get
            {
                DcDeviceTelemetry t = DcDeviceTelemetry.Init();
                using (var d = Use())
                    DcException.Check(NativeMethods.dc_device_telemetry_get(d.Raw, &t));
                return t;
            }
        }

        private int ordinal = -1;

        /// <summary>The device's ordinal (asked once).</summary>
        public int Ordinal
        {
            get
            {
                if (ordinal < 0)
                    ordinal = Info.Ordinal;
                return ordinal;
            }
        }

        /// <summary>The device's name ("NVIDIA H200").</summary>
        public string Name { get { return Info.Name; } }

        /// <summary>Any CUdevice_attribute (the numeric value of cuda.h's CU_DEVICE_ATTRIBUTE_*).</summary>
        public int GetAttribute(int attribute)
        {
            int v;
            using (var d = Use())
                DcException.Check(NativeMethods.dc_device_attribute(d.Raw, attribute, &v));
            return v;
        }

        /// <summary>Free and total memory, read now.</summary>
        public MemoryInfo MemoryInfo
        {
            get
            {
                MemoryInfo m = default(MemoryInfo);
                using (var d = Use())
                    DcException.Check(NativeMethods.dc_device_memory_info(d.Raw, &m.Free, &m.Total));
                return m;
            }
        }

        /// <summary>Wait for all work on the device; a fault in it is reported here.</summary>
        public void Synchronize()
        {
            using (var d = Use())
                DcException.Check(NativeMethods.dc_device_synchronize(d.Raw));
        }

        /// <summary>Recover after DC_ERROR_CONTEXT_LOST: every object made on the device
        /// before becomes dead (see dc_device_reset).</summary>
        public void Reset()
        {
            using (var d = Use())
                DcException.Check(NativeMethods.dc_device_reset(d.Raw));
        }

        /// <summary>Give cached pool memory back to the driver, keeping `keepBytes`.</summary>
        public void TrimMemory(ulong keepBytes = 0)
        {
            using (var d = Use())
                DcException.Check(NativeMethods.dc_device_trim_memory(d.Raw, keepBytes));
        }

        /// <summary>Set one of the limits of the device's primary context (shared by every
        /// user of the device in the process). The driver may round the value up (read it back
        /// with GetLimit); some limits cannot change once a kernel depended on them (the heap
        /// after a kernel used malloc: DcException InvalidArgument). Call it while no work runs.
        /// Reset restores the defaults.</summary>
        public void SetLimit(DeviceLimit limit, ulong value)
        {
            using (var d = Use())
                DcException.Check(NativeMethods.dc_device_set_limit(d.Raw, (int)limit, value));
        }

        /// <summary>The current value of one of the context's limits.</summary>
        public ulong GetLimit(DeviceLimit limit)
        {
            ulong v;
            using (var d = Use())
                DcException.Check(NativeMethods.dc_device_limit(d.Raw, (int)limit, &v));
            return v;
        }

        /// <summary>The device-wide L1/shared memory preference (a hint; a kernel's own
        /// Function.SetCachePreference wins; Reset restores None).</summary>
        public CachePreference CacheConfig
        {
            get
            {
                int p;
                using (var d = Use())
                    DcException.Check(NativeMethods.dc_device_cache_config(d.Raw, &p));
                return (CachePreference)p;
            }
            set
            {
                using (var d = Use())
                    DcException.Check(NativeMethods.dc_device_set_cache_config(d.Raw, (int)value));
            }
        }

        /// <summary>The raw CUdevice ordinal.</summary>
        public int NativeDevice
        {
            get
            {
                int cu;
                using (var d = Use())
                    DcException.Check(NativeMethods.dc_device_native(d.Raw, &cu, null));
                return cu;
            }
        }

        /// <summary>The primary CUcontext (owned by the device handle: never destroy it).</summary>
        public IntPtr NativeContext
        {
            get
            {
                IntPtr ctx;
                using (var d = Use())
                    DcException.Check(NativeMethods.dc_device_native(d.Raw, null, &ctx));
                return ctx;
            }
        }

        /// <summary>True when this device can access `peer`'s memory directly (after EnablePeerAccess).</summary>
        public bool CanAccessPeer(Device peer)
        {
            int v;
            using (var d = Use())
            using (var p = new Pin(peer == null ? null : peer.Handle, "peer"))
                DcException.Check(NativeMethods.dc_device_can_access_peer(d.Raw, p.Raw, &v));
            return v != 0;
        }

        /// <summary>Let this device's kernels and copies access `peer`'s memory.</summary>
        public void EnablePeerAccess(Device peer)
        {
            using (var d = Use())
            using (var p = new Pin(peer == null ? null : peer.Handle, "peer"))
                DcException.Check(NativeMethods.dc_device_enable_peer_access(d.Raw, p.Raw));
        }

        /// <summary>Undo EnablePeerAccess.</summary>
        public void DisablePeerAccess(Device peer)
        {
            using (var d = Use())
            using (var p = new Pin(peer == null ? null : peer.Handle, "peer"))
                DcException.Check(NativeMethods.dc_device_disable_peer_access(d.Raw, p.Raw));
        }

        /// <summary>An attribute of the link from this device to `peer`.</summary>
        public int GetPeerAttribute(Device peer, PeerAttribute attribute)
        {
            int v;
            using (var d = Use())
            using (var p = new Pin(peer == null ? null : peer.Handle, "peer"))
                DcException.Check(NativeMethods.dc_device_peer_attribute(d.Raw, p.Raw, (int)attribute, &v));
            return v;
        }

        /// <summary>The priorities CreateStream accepts.</summary>
        public StreamPriorityRange StreamPriorityRange
        {
            get
            {
                StreamPriorityRange r = default(StreamPriorityRange);
                using (var d = Use())
                    DcException.Check(NativeMethods.dc_stream_priority_range(d.Raw, &r.Least, &r.Greatest));
                return r;
            }
        }

        // ---- factories -------------------------------------------------------------------

        /// <summary>Device memory for `height` rows of `width` elements, each row padded to the
        /// pitch the device accesses fastest (cuMemAllocPitch); `pitch` is that pitch in
        /// elements (it is a multiple of the element size for elements of 4, 8 or 16 bytes;
        /// other sizes are refused).</summary>
        public DeviceBuffer<T> AllocatePitched<T>(long width, long height, out long pitch)
#if NET7_0_OR_GREATER
            where T : unmanaged
#else
            where T : struct
#endif
        {
            int e = DeviceBuffer<T>.ElementSize;
            if (height < 0)
                throw new ArgumentOutOfRangeException("height", height, "the row count is negative");
            var h = new DcBufferHandle();
            IntPtr raw;
            ulong bytePitch;
            using (var d = Use())
                DcException.Check(NativeMethods.dc_buffer_alloc_pitched(d.Raw, DeviceBuffer<T>.BytesFor(width), (ulong)height,
                                                                        (uint)e, 0, &bytePitch, &raw));
            h.Adopt(raw);
            var b = new DeviceBuffer<T>(h);
            if (bytePitch % (ulong)e != 0)
            {
                b.Dispose();
                throw new ArgumentException("AllocatePitched<" + typeof(T).Name + ">: the device's pitch " + bytePitch +
                                            " is not a whole number of " + e + "-byte elements");
            }
            pitch = (long)(bytePitch / (ulong)e);
            return b;
        }

        /// <summary>A new stream: non-blocking unless StreamFlags.Blocking; lower priority
        /// numbers run first.</summary>
        public DcStream CreateStream(StreamFlags flags = StreamFlags.NonBlocking, int priority = 0)
        {
            var h = new DcStreamHandle();
            IntPtr raw;
            using (var d = Use())
                DcException.Check(NativeMethods.dc_stream_create(d.Raw, (uint)flags, priority, &raw));
            h.Adopt(raw);
            return new DcStream(h);
        }

        /// <summary>A handle for one of the device's default streams.</summary>
        public DcStream GetDefaultStream(DefaultStream which = DefaultStream.Legacy)
        {
            var h = new DcStreamHandle();
            IntPtr raw;
            using (var d = Use())
                DcException.Check(NativeMethods.dc_stream_get_default(d.Raw, (int)which, &raw));
            h.Adopt(raw);
            return new DcStream(h);
        }

        /// <summary>Wrap a CUstream another library created on this device's primary context
        /// (not owned: it must outlive the returned DcStream).</summary>
        public DcStream WrapStream(IntPtr cuStream)
        {
            var h = new DcStreamHandle();
            IntPtr raw;
            using (var d = Use())
                DcException.Check(NativeMethods.dc_stream_wrap(d.Raw, (void*)cuStream, &raw));
            h.Adopt(raw);
            return new DcStream(h);
        }

        /// <summary>The statistics of dccuda's own stream-ordered pool on the device (the one
        /// Allocate uses); all zero without pools.</summary>
        public PoolStats PoolStatistics
        {
            get
            {
                DcPoolStats s = DcPoolStats.Init();
                using (var d = Use())
                    DcException.Check(NativeMethods.dc_device_pool_statistics(d.Raw, &s));
                return PoolStats.From(s);
            }
        }

        /// <summary>The allocation granularity in bytes: the minimum growable buffers round to,
        /// or the recommended one.</summary>
        public ulong AllocationGranularity(bool recommended = false)
        {
            ulong g;
            using (var d = Use())
                DcException.Check(NativeMethods.dc_device_allocation_granularity(
                    d.Raw, recommended ? C.DC_GRANULARITY_RECOMMENDED : C.DC_GRANULARITY_MINIMUM, &g));
            return g;
        }

        /// <summary>A growable buffer: `maxCount` elements of address space reserved once,
        /// `initialCount` mapped (both rounded up to the allocation granularity, so Length may
        /// exceed what was asked). DeviceBuffer.Grow maps more; the device address never
        /// changes and growing never copies.</summary>
        public DeviceBuffer<T> AllocateGrowable<T>(long maxCount, long initialCount)
#if NET7_0_OR_GREATER
            where T : unmanaged
#else
            where T : struct
#endif
        {
            ulong max = DeviceBuffer<T>.BytesFor(maxCount);
            ulong initial = DeviceBuffer<T>.BytesFor(initialCount);
            var h = new DcBufferHandle();
            IntPtr raw;
            using (var d = Use())
                DcException.Check(NativeMethods.dc_buffer_alloc_growable(d.Raw, max, initial, &raw));
            h.Adopt(raw);
            return new DeviceBuffer<T>(h);
        }

        /// <summary>Import memory another process exported (DeviceBuffer.ExportIpc there): a
        /// buffer that does not own it (the exporter keeps it alive); disposing it unmaps it here.</summary>
        public DeviceBuffer<T> ImportIpcBuffer<T>(byte[] handle)
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
            using (var d = Use())
            fixed (byte* p = handle)
                DcException.Check(NativeMethods.dc_buffer_import_ipc(d.Raw, p, (ulong)handle.Length, &raw));
            h.Adopt(raw);
            return new DeviceBuffer<T>(h);
        }

        /// <summary>Import an event another process exported (Event.ExportIpc there): waiting on
        /// it waits for the exporter's last record.</summary>
        public Event ImportIpcEvent(byte[] handle)
        {
            if (handle == null)
                throw new ArgumentNullException("handle");
            var h = new DcEventHandle();
            IntPtr raw;
            int device = Ordinal;
            using (var d = Use())
            fixed (byte* p = handle)
                DcException.Check(NativeMethods.dc_event_import_ipc(d.Raw, p, (ulong)handle.Length, &raw));
            h.Adopt(raw);
            return new Event(h, device);
        }

        /// <summary>Reserve `size` bytes of device address space (a multiple of the granularity;
        /// `alignment` 0 or a power of two); free it with VmmFree.</summary>
        public ulong VmmReserve(ulong size, ulong alignment = 0)
        {
            ulong address;
            using (var d = Use())
                DcException.Check(NativeMethods.dc_vmm_reserve(d.Raw, size, alignment, &address));
            return address;
        }

        /// <summary>Free a reservation whole, once nothing is mapped in it.</summary>
        public void VmmFree(ulong address, ulong size)
        {
            using (var d = Use())
                DcException.Check(NativeMethods.dc_vmm_free(d.Raw, address, size));
        }

        /// <summary>Create `size` bytes of physical memory (a multiple of the granularity);
        /// release it with VmmRelease.</summary>
        public ulong VmmCreate(ulong size)
        {
            ulong handle;
            using (var d = Use())
                DcException.Check(NativeMethods.dc_vmm_create(d.Raw, size, &handle));
            return handle;
        }

        /// <summary>Release physical memory (freed at its last unmap if mapped).</summary>
        public void VmmRelease(ulong handle)
        {
            using (var d = Use())
                DcException.Check(NativeMethods.dc_vmm_release(d.Raw, handle));
        }

        /// <summary>Map the first `size` bytes of `handle` at `address` inside a reservation.</summary>
        public void VmmMap(ulong address, ulong size, ulong handle)
        {
            using (var d = Use())
                DcException.Check(NativeMethods.dc_vmm_map(d.Raw, address, size, handle));
        }

        /// <summary>Unmap whole mappings covering [address, address + size).</summary>
        public void VmmUnmap(ulong address, ulong size)
        {
            using (var d = Use())
                DcException.Check(NativeMethods.dc_vmm_unmap(d.Raw, address, size));
        }

        /// <summary>Set `accessor`'s access (DC_VMM_ACCESS_*: 0 none, 1 read, 3 read and write)
        /// to a mapped range.</summary>
        public void VmmSetAccess(ulong address, ulong size, Device accessor, int access)
        {
            using (var d = Use())
            using (var a = accessor.Use())
                DcException.Check(NativeMethods.dc_vmm_set_access(d.Raw, address, size, a.Raw, access));
        }

        /// <summary>A new event on this device (DisableTiming makes it cheaper).</summary>
        public Event CreateEvent(EventFlags flags = EventFlags.None)
        {
            var h = new DcEventHandle();
            IntPtr raw;
            int device = Ordinal;
            using (var d = Use())
                DcException.Check(NativeMethods.dc_event_create(d.Raw, (uint)flags, &raw));
            h.Adopt(raw);
            return new Event(h, device);
        }

        /// <summary>`count` elements of device memory (from the stream-ordered pool unless
        /// AllocFlags.NoPool), not initialised.</summary>
        public DeviceBuffer<T> Allocate<T>(long count, AllocFlags flags = AllocFlags.None)
#if NET7_0_OR_GREATER
            where T : unmanaged
#else
            where T : struct
#endif
        {
            ulong bytes = DeviceBuffer<T>.BytesFor(count);
            var h = new DcBufferHandle();
            IntPtr raw;
            using (var d = Use())
                DcException.Check(NativeMethods.dc_buffer_alloc(d.Raw, bytes, (uint)flags, &raw));
            h.Adopt(raw);
            return new DeviceBuffer<T>(h);
        }

        /// <summary>`count` elements of page-locked host memory (AsSpan gives the CPU view).</summary>
        public DeviceBuffer<T> AllocatePinned<T>(long count, AllocFlags flags = AllocFlags.None)
#if NET7_0_OR_GREATER
            where T : unmanaged
#else
            where T : struct
#endif
        {
            ulong bytes = DeviceBuffer<T>.BytesFor(count);
            var h = new DcBufferHandle();
            IntPtr raw;
            using (var d = Use())
                DcException.Check(NativeMethods.dc_buffer_alloc_pinned(d.Raw, bytes, (uint)flags, &raw));
            h.Adopt(raw);
            return new DeviceBuffer<T>(h);
        }

        /// <summary>`count` elements of managed (unified) memory.</summary>
        public DeviceBuffer<T> AllocateManaged<T>(long count, AllocFlags flags = AllocFlags.None)
#if NET7_0_OR_GREATER
            where T : unmanaged
#else
            where T : struct
#endif
        {
            ulong bytes = DeviceBuffer<T>.BytesFor(count);
            var h = new DcBufferHandle();
            IntPtr raw;
            using (var d = Use())
                DcException.Check(NativeMethods.dc_buffer_alloc_managed(d.Raw, bytes, (uint)flags, &raw));
            h.Adopt(raw);
            return new DeviceBuffer<T>(h);
        }

        /// <summary>Device memory someone else owns, as a buffer of `count` elements that frees
        /// nothing when released.</summary>
        public DeviceBuffer<T> WrapDeviceMemory<T>(ulong devicePointer, long count)
#if NET7_0_OR_GREATER
            where T : unmanaged
#else
            where T : struct
#endif
        {
            ulong bytes = DeviceBuffer<T>.BytesFor(count);
            var h = new DcBufferHandle();
            IntPtr raw;
            using (var d = Use())
                DcException.Check(NativeMethods.dc_buffer_wrap_device(d.Raw, devicePointer, bytes, &raw));
            h.Adopt(raw);
            return new DeviceBuffer<T>(h);
        }

        /// <summary>Register a managed array with the driver (page-locked) so that copies to
        /// and from it run at pinned speed. The array stays pinned in memory until the
        /// returned buffer is disposed, which unregisters it. Registration is slow: register
        /// once, copy many times.</summary>
        public DeviceBuffer<T> RegisterHost<T>(T[] array, AllocFlags flags = AllocFlags.None)
#if NET7_0_OR_GREATER
            where T : unmanaged
#else
            where T : struct
#endif
        {
            if (array == null)
                throw new ArgumentNullException("array");
            ulong bytes = DeviceBuffer<T>.BytesFor(array.LongLength);
            var h = new DcBufferHandle();
            GCHandle pin = GCHandle.Alloc(array, GCHandleType.Pinned);
            try
            {
                IntPtr raw;
                using (var d = Use())
                    DcException.Check(NativeMethods.dc_buffer_register_host(d.Raw, (void*)pin.AddrOfPinnedObject(), bytes,
                                                                           (uint)flags, &raw));
                h.KeepPinned(pin);
                h.Adopt(raw);
            }
            catch
            {
                pin.Free();
                throw;
            }
            return new DeviceBuffer<T>(h);
        }

        /// <summary>Register caller-owned host memory [host, host + bytes): the caller keeps it
        /// allocated until the buffer is disposed.</summary>
        public DeviceBuffer RegisterHost(IntPtr host, ulong bytes, AllocFlags flags = AllocFlags.None)
        {
            var h = new DcBufferHandle();
            IntPtr raw;
            using (var d = Use())
                DcException.Check(NativeMethods.dc_buffer_register_host(d.Raw, (void*)host, bytes, (uint)flags, &raw));
            h.Adopt(raw);
            return new DeviceBuffer(h);
        }

        /// <summary>Compile CUDA C++ for this device (through the kernel cache).</summary>
        public DcProgram Compile(string source, [AllowNull] CompileOptions options = null, [AllowNull] string name = null)
        {
            return DcProgram.Compile(source, options, name, this);
        }

        /// <summary>Compile CUDA C++ for this device and load it: source to module in one call.</summary>
        public DcModule CompileAndLoad(string source, [AllowNull] CompileOptions options = null, [AllowNull] string name = null)
        {
            return DcModule.CompileAndLoad(this, source, options, name);
        }

        /// <summary>Load a PTX, CUBIN or fatbin image.</summary>
        public DcModule LoadModule(byte[] image, [AllowNull] ModuleOptions options = null)
        {
            return DcModule.Load(this, image, options);
        }

        /// <summary>Load a compiled program's image.</summary>
        public DcModule LoadModule(DcProgram program, [AllowNull] ModuleOptions options = null)
        {
            return DcModule.Load(this, program, options);
        }

        /// <summary>Load a PTX, CUBIN or fatbin file.</summary>
        public DcModule LoadModuleFile(string path, [AllowNull] ModuleOptions options = null)
        {
            return DcModule.LoadFile(this, path, options);
        }

        /// <summary>True once Dispose released the handle.</summary>
        public bool IsDisposed { get { return Handle.IsClosed; } }

        /// <summary>Release this handle to the device (objects made on it keep it alive).</summary>
        public void Dispose()
        {
            Handle.Dispose();
        }

        /// <summary>The device's description, or "Device (disposed)".</summary>
        public override string ToString()
        {
            return IsDisposed ? "Device (disposed)" : Info.ToString();
        }
    }
}
