// Raw declarations: runtime compilation (NVRTC) and the kernel cache. Each mirrors its C prototype in include/dccuda.h
// (section "Runtime compilation (NVRTC) and the kernel cache"), where it is documented. See NativeMethods.Core.cs for the rules
// every declaration here follows.
using System;
using System.Runtime.InteropServices;

namespace Dccuda.Interop
{
    public static unsafe partial class NativeMethods
    {
#if NET7_0_OR_GREATER
        [LibraryImport(Lib, EntryPoint = "dc_compile")]
        public static partial
#else
        [DllImport(Lib, EntryPoint = "dc_compile", ExactSpelling = true, CallingConvention = CallingConvention.Cdecl)]
        public static extern
#endif
            int dc_compile(byte* source, byte* program_name, DcCompileOptions* options, IntPtr device, IntPtr* program);

#if NET7_0_OR_GREATER
        [LibraryImport(Lib, EntryPoint = "dc_program_release")]
        public static partial
#else
        [DllImport(Lib, EntryPoint = "dc_program_release", ExactSpelling = true, CallingConvention = CallingConvention.Cdecl)]
        public static extern
#endif
            void dc_program_release(IntPtr program);

#if NET7_0_OR_GREATER
        [LibraryImport(Lib, EntryPoint = "dc_program_output")]
        public static partial
#else
        [DllImport(Lib, EntryPoint = "dc_program_output", ExactSpelling = true, CallingConvention = CallingConvention.Cdecl)]
        public static extern
#endif
            int dc_program_output(IntPtr program, int* kind, IntPtr* data, ulong* size);

#if NET7_0_OR_GREATER
        [LibraryImport(Lib, EntryPoint = "dc_program_log")]
        public static partial
#else
        [DllImport(Lib, EntryPoint = "dc_program_log", ExactSpelling = true, CallingConvention = CallingConvention.Cdecl)]
        public static extern
#endif
            int dc_program_log(IntPtr program, IntPtr* log);

#if NET7_0_OR_GREATER
        [LibraryImport(Lib, EntryPoint = "dc_program_lowered_name")]
        public static partial
#else
        [DllImport(Lib, EntryPoint = "dc_program_lowered_name", ExactSpelling = true, CallingConvention = CallingConvention.Cdecl)]
        public static extern
#endif
            int dc_program_lowered_name(IntPtr program, byte* name_expression, IntPtr* lowered_name);

#if NET7_0_OR_GREATER
        [LibraryImport(Lib, EntryPoint = "dc_program_cache_source")]
        public static partial
#else
        [DllImport(Lib, EntryPoint = "dc_program_cache_source", ExactSpelling = true, CallingConvention = CallingConvention.Cdecl)]
        public static extern
#endif
            int dc_program_cache_source(IntPtr program, int* source);

#if NET7_0_OR_GREATER
        [LibraryImport(Lib, EntryPoint = "dc_cache_clear")]
        public static partial
#else
        [DllImport(Lib, EntryPoint = "dc_cache_clear", ExactSpelling = true, CallingConvention = CallingConvention.Cdecl)]
        public static extern
#endif
            int dc_cache_clear(uint flags);

#if NET7_0_OR_GREATER
        [LibraryImport(Lib, EntryPoint = "dc_cache_directory")]
        public static partial
#else
        [DllImport(Lib, EntryPoint = "dc_cache_directory", ExactSpelling = true, CallingConvention = CallingConvention.Cdecl)]
        public static extern
#endif
            int dc_cache_directory(IntPtr* path);
    }
}
