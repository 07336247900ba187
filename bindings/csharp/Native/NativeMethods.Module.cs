// Raw declarations: modules and functions. Each mirrors its C prototype in include/dccuda.h
// (section "Modules and functions"), where it is documented. See NativeMethods.Core.cs for the rules
// every declaration here follows.
using System;
using System.Runtime.InteropServices;

namespace Dccuda.Interop
{
    public static unsafe partial class NativeMethods
    {
#if NET7_0_OR_GREATER
        [LibraryImport(Lib, EntryPoint = "dc_module_load")]
        public static partial
#else
        [DllImport(Lib, EntryPoint = "dc_module_load", ExactSpelling = true, CallingConvention = CallingConvention.Cdecl)]
        public static extern
#endif
            int dc_module_load(IntPtr device, void* image, ulong size, DcModuleOptions* options, IntPtr* module);

#if NET7_0_OR_GREATER
        [LibraryImport(Lib, EntryPoint = "dc_module_load_file")]
        public static partial
#else
        [DllImport(Lib, EntryPoint = "dc_module_load_file", ExactSpelling = true, CallingConvention = CallingConvention.Cdecl)]
        public static extern
#endif
            int dc_module_load_file(IntPtr device, byte* path, DcModuleOptions* options, IntPtr* module);

#if NET7_0_OR_GREATER
        [LibraryImport(Lib, EntryPoint = "dc_module_load_program")]
        public static partial
#else
        [DllImport(Lib, EntryPoint = "dc_module_load_program", ExactSpelling = true, CallingConvention = CallingConvention.Cdecl)]
        public static extern
#endif
            int dc_module_load_program(IntPtr device, IntPtr program, DcModuleOptions* options, IntPtr* module);

#if NET7_0_OR_GREATER
        [LibraryImport(Lib, EntryPoint = "dc_module_compile_and_load")]
        public static partial
#else
        [DllImport(Lib, EntryPoint = "dc_module_compile_and_load", ExactSpelling = true, CallingConvention = CallingConvention.Cdecl)]
        public static extern
#endif
            int dc_module_compile_and_load(IntPtr device, byte* source, byte* program_name, DcCompileOptions* options, IntPtr* module);

#if NET7_0_OR_GREATER
        [LibraryImport(Lib, EntryPoint = "dc_module_release")]
        public static partial
#else
        [DllImport(Lib, EntryPoint = "dc_module_release", ExactSpelling = true, CallingConvention = CallingConvention.Cdecl)]
        public static extern
#endif
            void dc_module_release(IntPtr module);

#if NET7_0_OR_GREATER
        [LibraryImport(Lib, EntryPoint = "dc_module_jit_log")]
        public static partial
#else
        [DllImport(Lib, EntryPoint = "dc_module_jit_log", ExactSpelling = true, CallingConvention = CallingConvention.Cdecl)]
        public static extern
#endif
            int dc_module_jit_log(IntPtr module, IntPtr* log);

#if NET7_0_OR_GREATER
        [LibraryImport(Lib, EntryPoint = "dc_module_get_function")]
        public static partial
#else
        [DllImport(Lib, EntryPoint = "dc_module_get_function", ExactSpelling = true, CallingConvention = CallingConvention.Cdecl)]
        public static extern
#endif
            int dc_module_get_function(IntPtr module, byte* name, IntPtr* function);

#if NET7_0_OR_GREATER
        [LibraryImport(Lib, EntryPoint = "dc_module_function_count")]
        public static partial
#else
        [DllImport(Lib, EntryPoint = "dc_module_function_count", ExactSpelling = true, CallingConvention = CallingConvention.Cdecl)]
        public static extern
#endif
            int dc_module_function_count(IntPtr module, uint* count);

#if NET7_0_OR_GREATER
        [LibraryImport(Lib, EntryPoint = "dc_module_function_name")]
        public static partial
#else
        [DllImport(Lib, EntryPoint = "dc_module_function_name", ExactSpelling = true, CallingConvention = CallingConvention.Cdecl)]
        public static extern
#endif
            int dc_module_function_name(IntPtr module, uint index, IntPtr* name);

#if NET7_0_OR_GREATER
        [LibraryImport(Lib, EntryPoint = "dc_module_get_global")]
        public static partial
#else
        [DllImport(Lib, EntryPoint = "dc_module_get_global", ExactSpelling = true, CallingConvention = CallingConvention.Cdecl)]
        public static extern
#endif
            int dc_module_get_global(IntPtr module, byte* name, IntPtr* buffer);

#if NET7_0_OR_GREATER
        [LibraryImport(Lib, EntryPoint = "dc_function_release")]
        public static partial
#else
        [DllImport(Lib, EntryPoint = "dc_function_release", ExactSpelling = true, CallingConvention = CallingConvention.Cdecl)]
        public static extern
#endif
            void dc_function_release(IntPtr function);

#if NET7_0_OR_GREATER
        [LibraryImport(Lib, EntryPoint = "dc_function_name")]
        public static partial
#else
        [DllImport(Lib, EntryPoint = "dc_function_name", ExactSpelling = true, CallingConvention = CallingConvention.Cdecl)]
        public static extern
#endif
            int dc_function_name(IntPtr function, IntPtr* name);

#if NET7_0_OR_GREATER
        [LibraryImport(Lib, EntryPoint = "dc_function_get_info")]
        public static partial
#else
        [DllImport(Lib, EntryPoint = "dc_function_get_info", ExactSpelling = true, CallingConvention = CallingConvention.Cdecl)]
        public static extern
#endif
            int dc_function_get_info(IntPtr function, DcFunctionInfo* info);

#if NET7_0_OR_GREATER
        [LibraryImport(Lib, EntryPoint = "dc_function_attribute")]
        public static partial
#else
        [DllImport(Lib, EntryPoint = "dc_function_attribute", ExactSpelling = true, CallingConvention = CallingConvention.Cdecl)]
        public static extern
#endif
            int dc_function_attribute(IntPtr function, int attribute, int* value);

#if NET7_0_OR_GREATER
        [LibraryImport(Lib, EntryPoint = "dc_function_set_attribute")]
        public static partial
#else
        [DllImport(Lib, EntryPoint = "dc_function_set_attribute", ExactSpelling = true, CallingConvention = CallingConvention.Cdecl)]
        public static extern
#endif
            int dc_function_set_attribute(IntPtr function, int attribute, int value);

#if NET7_0_OR_GREATER
        [LibraryImport(Lib, EntryPoint = "dc_function_set_cache_config")]
        public static partial
#else
        [DllImport(Lib, EntryPoint = "dc_function_set_cache_config", ExactSpelling = true, CallingConvention = CallingConvention.Cdecl)]
        public static extern
#endif
            int dc_function_set_cache_config(IntPtr function, int preference);

#if NET7_0_OR_GREATER
        [LibraryImport(Lib, EntryPoint = "dc_function_param_count")]
        public static partial
#else
        [DllImport(Lib, EntryPoint = "dc_function_param_count", ExactSpelling = true, CallingConvention = CallingConvention.Cdecl)]
        public static extern
#endif
            int dc_function_param_count(IntPtr function, uint* count);

#if NET7_0_OR_GREATER
        [LibraryImport(Lib, EntryPoint = "dc_function_param_info")]
        public static partial
#else
        [DllImport(Lib, EntryPoint = "dc_function_param_info", ExactSpelling = true, CallingConvention = CallingConvention.Cdecl)]
        public static extern
#endif
            int dc_function_param_info(IntPtr function, uint index, ulong* offset, ulong* size);

#if NET7_0_OR_GREATER
        [LibraryImport(Lib, EntryPoint = "dc_function_native")]
        public static partial
#else
        [DllImport(Lib, EntryPoint = "dc_function_native", ExactSpelling = true, CallingConvention = CallingConvention.Cdecl)]
        public static extern
#endif
            int dc_function_native(IntPtr function, IntPtr* cu_function);
    }
}
