// A dc_function: a kernel of a module (it keeps the module loaded): attributes, parameter
// layout, occupancy, and one-shot launches.
using System;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using Dccuda.Interop;

namespace Dccuda
{
    /// <summary>Where a kernel parameter lies in the packed parameter block.</summary>
    public struct ParamInfo
    {
        /// <summary>The parameter's byte offset in the parameter block.</summary>
        public ulong Offset;
        /// <summary>The parameter's size in bytes.</summary>
        public ulong Size;
    }

    /// <summary>The block size with the highest occupancy, and the smallest grid that fills
    /// the device with it.</summary>
    public struct PotentialBlockSize
    {
        /// <summary>The smallest grid that fills the device at BlockSize.</summary>
        public int MinGridSize;
        /// <summary>The block size with the highest occupancy.</summary>
        public int BlockSize;
    }

    /// <summary>A kernel (dc_function) of a module, which it keeps loaded: attributes, parameter layout, occupancy, and launches (Launch, LaunchPacked, Prepare).</summary>
    public sealed unsafe class Function : IDisposable
    {
        internal Function(DcFunctionHandle handle)
        {
            Handle = handle;
        }

        /// <summary>The SafeHandle owning the dc_function (for NativeMethods calls).</summary>
        public DcFunctionHandle Handle { get; private set; }

        internal Pin Use() { return new Pin(Handle, "Function"); }

        /// <summary>The kernel's name as the module knows it.</summary>
        public string Name
        {
            get
            {
                IntPtr name;
                using (var f = Use())
                {
                    DcException.Check(NativeMethods.dc_function_name(f.Raw, &name));
                    return Utf8.Decode(name);
                }
            }
        }

        /// <summary>Registers, shared and local memory, versions, parameter count and size.</summary>
        public DcFunctionInfo Info
        {
            get
            {
                DcFunctionInfo info = DcFunctionInfo.Init();
                using (var f = Use())
                    DcException.Check(NativeMethods.dc_function_get_info(f.Raw, &info));
                return info;
            }
        }

        /// <summary>Any CUfunction_attribute (cuda.h's CU_FUNC_ATTRIBUTE_* value).</summary>
        public int GetAttribute(int attribute)
        {
            int v;
            using (var f = Use())
                DcException.Check(NativeMethods.dc_function_attribute(f.Raw, attribute, &v));
            return v;
        }

        /// <summary>Set a CUfunction_attribute (8: max dynamic shared memory, 9: carveout).</summary>
        public void SetAttribute(int attribute, int value)
        {
            using (var f = Use())
                DcException.Check(NativeMethods.dc_function_set_attribute(f.Raw, attribute, value));
        }

        /// <summary>The kernel's preferred split between L1 cache and shared memory.</summary>
        public void SetCachePreference(CachePreference preference)
        {
            using (var f = Use())
                DcException.Check(NativeMethods.dc_function_set_cache_config(f.Raw, (int)preference));
        }

        /// <summary>The number of kernel parameters.</summary>
        public int ParamCount
        {
            get
            {
                uint n;
                using (var f = Use())
                    DcException.Check(NativeMethods.dc_function_param_count(f.Raw, &n));
                return (int)n;
            }
        }

        /// <summary>Where parameter `index` lies in the parameter block.</summary>
        public ParamInfo GetParamInfo(int index)
        {
            if (index < 0)
                throw new ArgumentOutOfRangeException("index", index, "a parameter index is 0 or more");
            ParamInfo p = default(ParamInfo);
            using (var f = Use())
                DcException.Check(NativeMethods.dc_function_param_info(f.Raw, (uint)index, &p.Offset, &p.Size));
            return p;
        }

        /// <summary>The raw CUfunction, valid while this object lives.</summary>
        public IntPtr Native
        {
            get
            {
                IntPtr p;
                using (var f = Use())
                    DcException.Check(NativeMethods.dc_function_native(f.Raw, &p));
                return p;
            }
        }

        // ---- launching -------------------------------------------------------------------

        /// <summary>A 1-D configuration of at least `n` threads with the occupancy-optimal block size.</summary>
        public LaunchConfig Config1D(ulong n, uint sharedMemoryBytes = 0)
        {
            DcLaunchConfig c = DcLaunchConfig.Init();
            using (var f = Use())
                DcException.Check(NativeMethods.dc_launch_config_1d(f.Raw, n, sharedMemoryBytes, &c));
            return LaunchConfig.FromNative(c);
        }

        /// <summary>Launch once on `stream`. Arguments are checked against the kernel's
        /// parameters; the launch is asynchronous (a fault shows at the next synchronisation).
        /// With a reused `args` (KernelArgs.Clear) nothing is allocated per call. Captured into
        /// a graph, the buffer arguments are kept until the graph can no longer run.</summary>
        public void Launch(LaunchConfig config, DcStream stream, KernelArgs args)
        {
            if (args == null)
                throw new ArgumentNullException("args");
            DcLaunchConfig c = config.ToNative();
            using (var f = Use())
            using (var s = new Pin(stream == null ? null : stream.Handle, "stream"))
            {
                int n = args.Bind();
                try
                {
                    int status;
                    fixed (byte* values = args.ValueBytes)
                    fixed (DcArg* a = args.NativeArgs)
                    {
                        args.FixValues(a, values);
                        status = NativeMethods.dc_launch_kernel(f.Raw, &c, n == 0 ? null : a, (uint)n, s.Raw);
                    }
                    DcException.Check(status);
                    GraphResources graph = stream.Capture;
                    if (graph != null)
                        args.HoldBuffersIn(graph);   // captured: the graph uses them at every launch
                }
                finally
                {
                    args.Unbind();
                }
            }
        }

        /// <summary>Launch once with every parameter packed in `parameters`, laid out as the
        /// kernel's parameters are (device pointers inside cannot be checked).</summary>
        public void LaunchPacked(LaunchConfig config, DcStream stream, ReadOnlySpan<byte> parameters)
        {
            DcLaunchConfig c = config.ToNative();
            fixed (byte* p = &MemoryMarshal.GetReference(parameters))
            using (var f = Use())
            using (var s = new Pin(stream == null ? null : stream.Handle, "stream"))
                DcException.Check(NativeMethods.dc_launch_kernel_packed(f.Raw, &c, p, (ulong)parameters.Length, s.Raw));
        }

        /// <summary>As LaunchPacked, from a struct laid out as the kernel's parameters (passed by
        /// reference only to keep it apart from the byte overload; it is not modified).</summary>
        public void LaunchPacked<T>(LaunchConfig config, DcStream stream, ref T parameters)
#if NET7_0_OR_GREATER
            where T : unmanaged
#else
            where T : struct
#endif
        {
            var one = new T[] { parameters };
            LaunchPacked(config, stream, MemoryMarshal.AsBytes(new ReadOnlySpan<T>(one)));
        }

        /// <summary>A prepared launch of this kernel (bind arguments, then enqueue often).</summary>
        public PreparedLaunch Prepare(LaunchConfig config)
        {
            return PreparedLaunch.Create(this, config);
        }

        // ---- occupancy -------------------------------------------------------------------

        /// <summary>Blocks of `blockSize` threads resident per multiprocessor.</summary>
        public int MaxActiveBlocksPerMultiprocessor(int blockSize, ulong dynamicSharedBytes = 0)
        {
            int blocks;
            using (var f = Use())
                DcException.Check(NativeMethods.dc_occupancy_max_active_blocks(f.Raw, blockSize, dynamicSharedBytes, &blocks));
            return blocks;
        }

        /// <summary>The occupancy-optimal block size with a fixed dynamic shared memory size.</summary>
        public PotentialBlockSize MaxPotentialBlockSize(ulong dynamicSharedBytes = 0, int blockSizeLimit = 0)
        {
            PotentialBlockSize r = default(PotentialBlockSize);
            using (var f = Use())
                DcException.Check(NativeMethods.dc_occupancy_max_potential_block_size(
                    f.Raw, IntPtr.Zero, IntPtr.Zero, dynamicSharedBytes, blockSizeLimit, &r.MinGridSize, &r.BlockSize));
            return r;
        }

        /// <summary>The occupancy-optimal block size when dynamic shared memory depends on the
        /// block size: `sharedBytesForBlockSize` is called on this thread during the call.</summary>
        public PotentialBlockSize MaxPotentialBlockSize(Func<int, ulong> sharedBytesForBlockSize, int blockSizeLimit = 0)
        {
            if (sharedBytesForBlockSize == null)
                throw new ArgumentNullException("sharedBytesForBlockSize");
            PotentialBlockSize r = default(PotentialBlockSize);
            GCHandle target = GCHandle.Alloc(sharedBytesForBlockSize);
            try
            {
                int status;
                using (var f = Use())
                    status = NativeMethods.dc_occupancy_max_potential_block_size(
                        f.Raw, OccupancyCallbacks.Thunk, GCHandle.ToIntPtr(target), 0, blockSizeLimit, &r.MinGridSize, &r.BlockSize);
                OccupancyCallbacks.RethrowPending();
                DcException.Check(status);
            }
            finally
            {
                target.Free();
            }
            return r;
        }

        /// <summary>Clusters of config.Cluster that can be co-resident.</summary>
        public int MaxActiveClusters(LaunchConfig config)
        {
            DcLaunchConfig c = config.ToNative();
            int clusters;
            using (var f = Use())
                DcException.Check(NativeMethods.dc_occupancy_max_active_clusters(f.Raw, &c, &clusters));
            return clusters;
        }

        /// <summary>Dynamic shared memory available per block with `numBlocks` blocks of
        /// `blockSize` threads on one multiprocessor.</summary>
        public ulong AvailableDynamicSharedMemory(int numBlocks, int blockSize)
        {
            ulong bytes;
            using (var f = Use())
                DcException.Check(NativeMethods.dc_occupancy_available_dynamic_shared(f.Raw, numBlocks, blockSize, &bytes));
            return bytes;
        }

        /// <summary>True once Dispose released the handle.</summary>
        public bool IsDisposed { get { return Handle.IsClosed; } }

        /// <summary>Release the function (launches made from it keep it alive).</summary>
        public void Dispose()
        {
            Handle.Dispose();
        }
    }

    /// <summary>The native side of the per-block-size shared memory callback: called on the
    /// calling thread, so an exception waits in a thread-static until the call returns.</summary>
    internal static unsafe class OccupancyCallbacks
    {
#if NET7_0_OR_GREATER
        [UnmanagedCallersOnly(CallConvs = new[] { typeof(CallConvCdecl) })]
        private static ulong InvokeFromNative(int blockSize, IntPtr userData)
        {
            return Invoke(blockSize, userData);
        }

        internal static readonly IntPtr Thunk = (IntPtr)(delegate* unmanaged[Cdecl]<int, IntPtr, ulong>)&InvokeFromNative;
#else
        [UnmanagedFunctionPointer(CallingConvention.Cdecl)]
        private delegate ulong SharedMemoryFn(int blockSize, IntPtr userData);

        // Static: never collected while the driver may call through it.
        private static readonly SharedMemoryFn Callback = Invoke;
        internal static readonly IntPtr Thunk = Marshal.GetFunctionPointerForDelegate(Callback);
#endif

        [ThreadStatic]
        private static Exception pending;

        private static ulong Invoke(int blockSize, IntPtr userData)
        {
            if (pending != null)
                return 0;
            try
            {
                var fn = (Func<int, ulong>)GCHandle.FromIntPtr(userData).Target;
                return fn(blockSize);
            }
            catch (Exception e)
            {
                pending = e;
                return 0;
            }
        }

        internal static void RethrowPending()
        {
            Exception e = pending;
            pending = null;
            if (e != null)
                throw new InvalidOperationException("Function.MaxPotentialBlockSize: the shared memory callback threw: " + e.Message, e);
        }
    }
}
