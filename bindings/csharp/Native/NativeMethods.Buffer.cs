// Raw declarations: buffers, copies and fills. Each mirrors its C prototype in include/dccuda.h
// (section "Buffers"), where it is documented. See NativeMethods.Core.cs for the rules
// every declaration here follows.
using System;
using System.Runtime.InteropServices;

namespace Dccuda.Interop
{
    public static unsafe partial class NativeMethods
    {
#if NET7_0_OR_GREATER
        [LibraryImport(Lib, EntryPoint = "dc_buffer_alloc")]
        public static partial
#else
        [DllImport(Lib, EntryPoint = "dc_buffer_alloc", ExactSpelling = true, CallingConvention = CallingConvention.Cdecl)]
        public static extern
#endif
            int dc_buffer_alloc(IntPtr device, ulong size, uint flags, IntPtr* buffer);

#if NET7_0_OR_GREATER
        [LibraryImport(Lib, EntryPoint = "dc_buffer_alloc_async")]
        public static partial
#else
        [DllImport(Lib, EntryPoint = "dc_buffer_alloc_async", ExactSpelling = true, CallingConvention = CallingConvention.Cdecl)]
        public static extern
#endif
            int dc_buffer_alloc_async(IntPtr stream, ulong size, uint flags, IntPtr* buffer);

#if NET7_0_OR_GREATER
        [LibraryImport(Lib, EntryPoint = "dc_buffer_alloc_pinned")]
        public static partial
#else
        [DllImport(Lib, EntryPoint = "dc_buffer_alloc_pinned", ExactSpelling = true, CallingConvention = CallingConvention.Cdecl)]
        public static extern
#endif
            int dc_buffer_alloc_pinned(IntPtr device, ulong size, uint flags, IntPtr* buffer);

#if NET7_0_OR_GREATER
        [LibraryImport(Lib, EntryPoint = "dc_buffer_alloc_managed")]
        public static partial
#else
        [DllImport(Lib, EntryPoint = "dc_buffer_alloc_managed", ExactSpelling = true, CallingConvention = CallingConvention.Cdecl)]
        public static extern
#endif
            int dc_buffer_alloc_managed(IntPtr device, ulong size, uint flags, IntPtr* buffer);

#if NET7_0_OR_GREATER
        [LibraryImport(Lib, EntryPoint = "dc_buffer_wrap_device")]
        public static partial
#else
        [DllImport(Lib, EntryPoint = "dc_buffer_wrap_device", ExactSpelling = true, CallingConvention = CallingConvention.Cdecl)]
        public static extern
#endif
            int dc_buffer_wrap_device(IntPtr device, ulong device_pointer, ulong size, IntPtr* buffer);

#if NET7_0_OR_GREATER
        [LibraryImport(Lib, EntryPoint = "dc_buffer_register_host")]
        public static partial
#else
        [DllImport(Lib, EntryPoint = "dc_buffer_register_host", ExactSpelling = true, CallingConvention = CallingConvention.Cdecl)]
        public static extern
#endif
            int dc_buffer_register_host(IntPtr device, void* host, ulong size, uint flags, IntPtr* buffer);

#if NET7_0_OR_GREATER
        [LibraryImport(Lib, EntryPoint = "dc_buffer_release")]
        public static partial
#else
        [DllImport(Lib, EntryPoint = "dc_buffer_release", ExactSpelling = true, CallingConvention = CallingConvention.Cdecl)]
        public static extern
#endif
            void dc_buffer_release(IntPtr buffer);

#if NET7_0_OR_GREATER
        [LibraryImport(Lib, EntryPoint = "dc_buffer_size")]
        public static partial
#else
        [DllImport(Lib, EntryPoint = "dc_buffer_size", ExactSpelling = true, CallingConvention = CallingConvention.Cdecl)]
        public static extern
#endif
            int dc_buffer_size(IntPtr buffer, ulong* size);

#if NET7_0_OR_GREATER
        [LibraryImport(Lib, EntryPoint = "dc_buffer_kind")]
        public static partial
#else
        [DllImport(Lib, EntryPoint = "dc_buffer_kind", ExactSpelling = true, CallingConvention = CallingConvention.Cdecl)]
        public static extern
#endif
            int dc_buffer_kind(IntPtr buffer, int* kind);

#if NET7_0_OR_GREATER
        [LibraryImport(Lib, EntryPoint = "dc_buffer_device")]
        public static partial
#else
        [DllImport(Lib, EntryPoint = "dc_buffer_device", ExactSpelling = true, CallingConvention = CallingConvention.Cdecl)]
        public static extern
#endif
            int dc_buffer_device(IntPtr buffer, IntPtr* device);

#if NET7_0_OR_GREATER
        [LibraryImport(Lib, EntryPoint = "dc_buffer_device_pointer")]
        public static partial
#else
        [DllImport(Lib, EntryPoint = "dc_buffer_device_pointer", ExactSpelling = true, CallingConvention = CallingConvention.Cdecl)]
        public static extern
#endif
            int dc_buffer_device_pointer(IntPtr buffer, ulong* device_pointer);

#if NET7_0_OR_GREATER
        [LibraryImport(Lib, EntryPoint = "dc_buffer_host_pointer")]
        public static partial
#else
        [DllImport(Lib, EntryPoint = "dc_buffer_host_pointer", ExactSpelling = true, CallingConvention = CallingConvention.Cdecl)]
        public static extern
#endif
            int dc_buffer_host_pointer(IntPtr buffer, IntPtr* host_pointer);

#if NET7_0_OR_GREATER
        [LibraryImport(Lib, EntryPoint = "dc_buffer_prefetch")]
        public static partial
#else
        [DllImport(Lib, EntryPoint = "dc_buffer_prefetch", ExactSpelling = true, CallingConvention = CallingConvention.Cdecl)]
        public static extern
#endif
            int dc_buffer_prefetch(IntPtr buffer, ulong offset, ulong size, int location, IntPtr stream);

#if NET7_0_OR_GREATER
        [LibraryImport(Lib, EntryPoint = "dc_buffer_advise")]
        public static partial
#else
        [DllImport(Lib, EntryPoint = "dc_buffer_advise", ExactSpelling = true, CallingConvention = CallingConvention.Cdecl)]
        public static extern
#endif
            int dc_buffer_advise(IntPtr buffer, ulong offset, ulong size, int advice, int location);

#if NET7_0_OR_GREATER
        [LibraryImport(Lib, EntryPoint = "dc_buffer_write")]
        public static partial
#else
        [DllImport(Lib, EntryPoint = "dc_buffer_write", ExactSpelling = true, CallingConvention = CallingConvention.Cdecl)]
        public static extern
#endif
            int dc_buffer_write(IntPtr dst, ulong dst_offset, void* src, ulong size);

#if NET7_0_OR_GREATER
        [LibraryImport(Lib, EntryPoint = "dc_buffer_read")]
        public static partial
#else
        [DllImport(Lib, EntryPoint = "dc_buffer_read", ExactSpelling = true, CallingConvention = CallingConvention.Cdecl)]
        public static extern
#endif
            int dc_buffer_read(IntPtr src, ulong src_offset, void* dst, ulong size);

#if NET7_0_OR_GREATER
        [LibraryImport(Lib, EntryPoint = "dc_buffer_copy")]
        public static partial
#else
        [DllImport(Lib, EntryPoint = "dc_buffer_copy", ExactSpelling = true, CallingConvention = CallingConvention.Cdecl)]
        public static extern
#endif
            int dc_buffer_copy(IntPtr dst, ulong dst_offset, IntPtr src, ulong src_offset, ulong size);

#if NET7_0_OR_GREATER
        [LibraryImport(Lib, EntryPoint = "dc_buffer_write_async")]
        public static partial
#else
        [DllImport(Lib, EntryPoint = "dc_buffer_write_async", ExactSpelling = true, CallingConvention = CallingConvention.Cdecl)]
        public static extern
#endif
            int dc_buffer_write_async(IntPtr dst, ulong dst_offset, void* src, ulong size, IntPtr stream);

#if NET7_0_OR_GREATER
        [LibraryImport(Lib, EntryPoint = "dc_buffer_read_async")]
        public static partial
#else
        [DllImport(Lib, EntryPoint = "dc_buffer_read_async", ExactSpelling = true, CallingConvention = CallingConvention.Cdecl)]
        public static extern
#endif
            int dc_buffer_read_async(IntPtr src, ulong src_offset, void* dst, ulong size, IntPtr stream);

#if NET7_0_OR_GREATER
        [LibraryImport(Lib, EntryPoint = "dc_buffer_copy_async")]
        public static partial
#else
        [DllImport(Lib, EntryPoint = "dc_buffer_copy_async", ExactSpelling = true, CallingConvention = CallingConvention.Cdecl)]
        public static extern
#endif
            int dc_buffer_copy_async(IntPtr dst, ulong dst_offset, IntPtr src, ulong src_offset, ulong size, IntPtr stream);

#if NET7_0_OR_GREATER
        [LibraryImport(Lib, EntryPoint = "dc_buffer_fill")]
        public static partial
#else
        [DllImport(Lib, EntryPoint = "dc_buffer_fill", ExactSpelling = true, CallingConvention = CallingConvention.Cdecl)]
        public static extern
#endif
            int dc_buffer_fill(IntPtr buffer, ulong offset, ulong size, uint value, uint element_size);

#if NET7_0_OR_GREATER
        [LibraryImport(Lib, EntryPoint = "dc_buffer_fill_async")]
        public static partial
#else
        [DllImport(Lib, EntryPoint = "dc_buffer_fill_async", ExactSpelling = true, CallingConvention = CallingConvention.Cdecl)]
        public static extern
#endif
            int dc_buffer_fill_async(IntPtr buffer, ulong offset, ulong size, uint value, uint element_size, IntPtr stream);

#if NET7_0_OR_GREATER
        [LibraryImport(Lib, EntryPoint = "dc_buffer_copy_path")]
        public static partial
#else
        [DllImport(Lib, EntryPoint = "dc_buffer_copy_path", ExactSpelling = true, CallingConvention = CallingConvention.Cdecl)]
        public static extern
#endif
            int dc_buffer_copy_path(IntPtr dst, IntPtr src, int* path);
    }
}
