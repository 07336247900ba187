// Raw declarations: devices and peer access. Each mirrors its C prototype in include/dccuda.h
// (section "Devices; Several devices"), where it is documented. See NativeMethods.Core.cs for the rules
// every declaration here follows.
using System;
using System.Runtime.InteropServices;

namespace Dccuda.Interop
{
    public static unsafe partial class NativeMethods
    {
#if NET7_0_OR_GREATER
        [LibraryImport(Lib, EntryPoint = "dc_device_count")]
        public static partial
#else
        [DllImport(Lib, EntryPoint = "dc_device_count", ExactSpelling = true, CallingConvention = CallingConvention.Cdecl)]
        public static extern
#endif
            int dc_device_count(int* count);

#if NET7_0_OR_GREATER
        [LibraryImport(Lib, EntryPoint = "dc_device_open")]
        public static partial
#else
        [DllImport(Lib, EntryPoint = "dc_device_open", ExactSpelling = true, CallingConvention = CallingConvention.Cdecl)]
        public static extern
#endif
            int dc_device_open(int ordinal, IntPtr* device);

#if NET7_0_OR_GREATER
        [LibraryImport(Lib, EntryPoint = "dc_device_release")]
        public static partial
#else
        [DllImport(Lib, EntryPoint = "dc_device_release", ExactSpelling = true, CallingConvention = CallingConvention.Cdecl)]
        public static extern
#endif
            void dc_device_release(IntPtr device);

#if NET7_0_OR_GREATER
        [LibraryImport(Lib, EntryPoint = "dc_device_get_info")]
        public static partial
#else
        [DllImport(Lib, EntryPoint = "dc_device_get_info", ExactSpelling = true, CallingConvention = CallingConvention.Cdecl)]
        public static extern
#endif
            int dc_device_get_info(IntPtr device, DcDeviceInfo* info);

#if NET7_0_OR_GREATER
        [LibraryImport(Lib, EntryPoint = "dc_device_attribute")]
        public static partial
#else
        [DllImport(Lib, EntryPoint = "dc_device_attribute", ExactSpelling = true, CallingConvention = CallingConvention.Cdecl)]
        public static extern
#endif
            int dc_device_attribute(IntPtr device, int attribute, int* value);

#if NET7_0_OR_GREATER
        [LibraryImport(Lib, EntryPoint = "dc_device_memory_info")]
        public static partial
#else
        [DllImport(Lib, EntryPoint = "dc_device_memory_info", ExactSpelling = true, CallingConvention = CallingConvention.Cdecl)]
        public static extern
#endif
            int dc_device_memory_info(IntPtr device, ulong* free_bytes, ulong* total_bytes);

#if NET7_0_OR_GREATER
        [LibraryImport(Lib, EntryPoint = "dc_device_synchronize")]
        public static partial
#else
        [DllImport(Lib, EntryPoint = "dc_device_synchronize", ExactSpelling = true, CallingConvention = CallingConvention.Cdecl)]
        public static extern
#endif
            int dc_device_synchronize(IntPtr device);

#if NET7_0_OR_GREATER
        [LibraryImport(Lib, EntryPoint = "dc_device_reset")]
        public static partial
#else
        [DllImport(Lib, EntryPoint = "dc_device_reset", ExactSpelling = true, CallingConvention = CallingConvention.Cdecl)]
        public static extern
#endif
            int dc_device_reset(IntPtr device);

#if NET7_0_OR_GREATER
        [LibraryImport(Lib, EntryPoint = "dc_device_trim_memory")]
        public static partial
#else
        [DllImport(Lib, EntryPoint = "dc_device_trim_memory", ExactSpelling = true, CallingConvention = CallingConvention.Cdecl)]
        public static extern
#endif
            int dc_device_trim_memory(IntPtr device, ulong keep_bytes);

#if NET7_0_OR_GREATER
        [LibraryImport(Lib, EntryPoint = "dc_device_native")]
        public static partial
#else
        [DllImport(Lib, EntryPoint = "dc_device_native", ExactSpelling = true, CallingConvention = CallingConvention.Cdecl)]
        public static extern
#endif
            int dc_device_native(IntPtr device, int* cu_device, IntPtr* cu_context);

#if NET7_0_OR_GREATER
        [LibraryImport(Lib, EntryPoint = "dc_device_can_access_peer")]
        public static partial
#else
        [DllImport(Lib, EntryPoint = "dc_device_can_access_peer", ExactSpelling = true, CallingConvention = CallingConvention.Cdecl)]
        public static extern
#endif
            int dc_device_can_access_peer(IntPtr device, IntPtr peer, int* can_access);

#if NET7_0_OR_GREATER
        [LibraryImport(Lib, EntryPoint = "dc_device_enable_peer_access")]
        public static partial
#else
        [DllImport(Lib, EntryPoint = "dc_device_enable_peer_access", ExactSpelling = true, CallingConvention = CallingConvention.Cdecl)]
        public static extern
#endif
            int dc_device_enable_peer_access(IntPtr device, IntPtr peer);

#if NET7_0_OR_GREATER
        [LibraryImport(Lib, EntryPoint = "dc_device_disable_peer_access")]
        public static partial
#else
        [DllImport(Lib, EntryPoint = "dc_device_disable_peer_access", ExactSpelling = true, CallingConvention = CallingConvention.Cdecl)]
        public static extern
#endif
            int dc_device_disable_peer_access(IntPtr device, IntPtr peer);

#if NET7_0_OR_GREATER
        [LibraryImport(Lib, EntryPoint = "dc_device_peer_attribute")]
        public static partial
#else
        [DllImport(Lib, EntryPoint = "dc_device_peer_attribute", ExactSpelling = true, CallingConvention = CallingConvention.Cdecl)]
        public static extern
#endif
            int dc_device_peer_attribute(IntPtr device, IntPtr peer, int attribute, int* value);
    }
}
