// Raw declarations: kernel launches and occupancy. Each mirrors its C prototype in include/dccuda.h
// (section "Launching kernels; Occupancy"), where it is documented. See NativeMethods.Core.cs for the rules
// every declaration here follows.
using System;
using System.Runtime.InteropServices;

namespace Dccuda.Interop
{
    public static unsafe partial class NativeMethods
    {
#if NET7_0_OR_GREATER
        [LibraryImport(Lib, EntryPoint = "dc_launch_config_1d")]
        public static partial
#else
        [DllImport(Lib, EntryPoint = "dc_launch_config_1d", ExactSpelling = true, CallingConvention = CallingConvention.Cdecl)]
        public static extern
#endif
            int dc_launch_config_1d(IntPtr function, ulong n, uint shared_memory_bytes, DcLaunchConfig* config);

#if NET7_0_OR_GREATER
        [LibraryImport(Lib, EntryPoint = "dc_launch_kernel")]
        public static partial
#else
        [DllImport(Lib, EntryPoint = "dc_launch_kernel", ExactSpelling = true, CallingConvention = CallingConvention.Cdecl)]
        public static extern
#endif
            int dc_launch_kernel(IntPtr function, DcLaunchConfig* config, DcArg* args, uint num_args, IntPtr stream);

#if NET7_0_OR_GREATER
        [LibraryImport(Lib, EntryPoint = "dc_launch_kernel_packed")]
        public static partial
#else
        [DllImport(Lib, EntryPoint = "dc_launch_kernel_packed", ExactSpelling = true, CallingConvention = CallingConvention.Cdecl)]
        public static extern
#endif
            int dc_launch_kernel_packed(IntPtr function, DcLaunchConfig* config, void* @params, ulong size, IntPtr stream);

#if NET7_0_OR_GREATER
        [LibraryImport(Lib, EntryPoint = "dc_launch_create")]
        public static partial
#else
        [DllImport(Lib, EntryPoint = "dc_launch_create", ExactSpelling = true, CallingConvention = CallingConvention.Cdecl)]
        public static extern
#endif
            int dc_launch_create(IntPtr function, DcLaunchConfig* config, IntPtr* launch);

#if NET7_0_OR_GREATER
        [LibraryImport(Lib, EntryPoint = "dc_launch_set_config")]
        public static partial
#else
        [DllImport(Lib, EntryPoint = "dc_launch_set_config", ExactSpelling = true, CallingConvention = CallingConvention.Cdecl)]
        public static extern
#endif
            int dc_launch_set_config(IntPtr launch, DcLaunchConfig* config);

#if NET7_0_OR_GREATER
        [LibraryImport(Lib, EntryPoint = "dc_launch_set_arg")]
        public static partial
#else
        [DllImport(Lib, EntryPoint = "dc_launch_set_arg", ExactSpelling = true, CallingConvention = CallingConvention.Cdecl)]
        public static extern
#endif
            int dc_launch_set_arg(IntPtr launch, uint index, DcArg* arg);

#if NET7_0_OR_GREATER
        [LibraryImport(Lib, EntryPoint = "dc_launch_set_args")]
        public static partial
#else
        [DllImport(Lib, EntryPoint = "dc_launch_set_args", ExactSpelling = true, CallingConvention = CallingConvention.Cdecl)]
        public static extern
#endif
            int dc_launch_set_args(IntPtr launch, DcArg* args, uint num_args);

#if NET7_0_OR_GREATER
        [LibraryImport(Lib, EntryPoint = "dc_launch_enqueue")]
        public static partial
#else
        [DllImport(Lib, EntryPoint = "dc_launch_enqueue", ExactSpelling = true, CallingConvention = CallingConvention.Cdecl)]
        public static extern
#endif
            int dc_launch_enqueue(IntPtr launch, IntPtr stream);

#if NET7_0_OR_GREATER
        [LibraryImport(Lib, EntryPoint = "dc_launch_release")]
        public static partial
#else
        [DllImport(Lib, EntryPoint = "dc_launch_release", ExactSpelling = true, CallingConvention = CallingConvention.Cdecl)]
        public static extern
#endif
            void dc_launch_release(IntPtr launch);

#if NET7_0_OR_GREATER
        [LibraryImport(Lib, EntryPoint = "dc_occupancy_max_active_blocks")]
        public static partial
#else
        [DllImport(Lib, EntryPoint = "dc_occupancy_max_active_blocks", ExactSpelling = true, CallingConvention = CallingConvention.Cdecl)]
        public static extern
#endif
            int dc_occupancy_max_active_blocks(IntPtr function, int block_size, ulong dynamic_shared_bytes, int* blocks_per_multiprocessor);

#if NET7_0_OR_GREATER
        [LibraryImport(Lib, EntryPoint = "dc_occupancy_max_potential_block_size")]
        public static partial
#else
        [DllImport(Lib, EntryPoint = "dc_occupancy_max_potential_block_size", ExactSpelling = true, CallingConvention = CallingConvention.Cdecl)]
        public static extern
#endif
            int dc_occupancy_max_potential_block_size(IntPtr function, IntPtr fn, IntPtr user_data, ulong dynamic_shared_bytes, int block_size_limit, int* min_grid_size, int* block_size);

#if NET7_0_OR_GREATER
        [LibraryImport(Lib, EntryPoint = "dc_occupancy_max_active_clusters")]
        public static partial
#else
        [DllImport(Lib, EntryPoint = "dc_occupancy_max_active_clusters", ExactSpelling = true, CallingConvention = CallingConvention.Cdecl)]
        public static extern
#endif
            int dc_occupancy_max_active_clusters(IntPtr function, DcLaunchConfig* config, int* clusters);

#if NET7_0_OR_GREATER
        [LibraryImport(Lib, EntryPoint = "dc_occupancy_available_dynamic_shared")]
        public static partial
#else
        [DllImport(Lib, EntryPoint = "dc_occupancy_available_dynamic_shared", ExactSpelling = true, CallingConvention = CallingConvention.Cdecl)]
        public static extern
#endif
            int dc_occupancy_available_dynamic_shared(IntPtr function, int num_blocks, int block_size, ulong* bytes);
    }
}
