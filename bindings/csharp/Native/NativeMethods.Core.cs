// Raw declarations: version, status names, the last error, initialisation, handle counts.
// Each mirrors its C prototype in include/dccuda.h, where it is documented.
//
// The rules every NativeMethods declaration follows (all files):
// - One declaration per C function, written once. Only its attribute and modifiers differ
//   per runtime: .NET 7+ compiles the [LibraryImport] branch (a source-generated stub;
//   `static partial`), Mono and .NET Framework the [DllImport] branch (`static extern`).
//   abi/check_abi.py reads both views and holds each against the header.
// - EntryPoint is always explicit: the runtime otherwise binds the C# method name.
// - Blittable types only, so neither runtime marshals anything: handles are IntPtr;
//   int32_t/uint32_t/uint64_t are int/uint/ulong (never nint/nuint: those are pointer-sized);
//   input strings are NUL-terminated UTF-8 byte*; out-values are pointers; callbacks are
//   IntPtr function pointers. No string or bool return: a library-owned const char* is
//   returned as IntPtr and decoded with Utf8.Decode (a marshalled string return would be
//   freed by the runtime).
// - The library is "dccuda": NativeLibraryResolver maps it to libdccuda.so.1 (.NET), and
//   Dccuda.dll.config does for Mono.
using System;
using System.Runtime.InteropServices;

namespace Dccuda.Interop
{
    public static unsafe partial class NativeMethods
    {
        /// <summary>The library name every declaration binds; resolved by NativeLibraryResolver.</summary>
        public const string Lib = "dccuda";

        // .NET runs an explicit static constructor before the first call of any method of this
        // class, so the resolver is in place before the runtime looks for "dccuda". (Mono binds
        // earlier: see NativeLibraryResolver.)
        static NativeMethods()
        {
            NativeLibraryResolver.Register();
        }

#if NET7_0_OR_GREATER
        [LibraryImport(Lib, EntryPoint = "dc_version")]
        public static partial
#else
        [DllImport(Lib, EntryPoint = "dc_version", ExactSpelling = true, CallingConvention = CallingConvention.Cdecl)]
        public static extern
#endif
            uint dc_version();

#if NET7_0_OR_GREATER
        [LibraryImport(Lib, EntryPoint = "dc_status_name")]
        public static partial
#else
        [DllImport(Lib, EntryPoint = "dc_status_name", ExactSpelling = true, CallingConvention = CallingConvention.Cdecl)]
        public static extern
#endif
            IntPtr dc_status_name(int status);

#if NET7_0_OR_GREATER
        [LibraryImport(Lib, EntryPoint = "dc_last_error_message")]
        public static partial
#else
        [DllImport(Lib, EntryPoint = "dc_last_error_message", ExactSpelling = true, CallingConvention = CallingConvention.Cdecl)]
        public static extern
#endif
            IntPtr dc_last_error_message();

#if NET7_0_OR_GREATER
        [LibraryImport(Lib, EntryPoint = "dc_last_error_status")]
        public static partial
#else
        [DllImport(Lib, EntryPoint = "dc_last_error_status", ExactSpelling = true, CallingConvention = CallingConvention.Cdecl)]
        public static extern
#endif
            int dc_last_error_status();

#if NET7_0_OR_GREATER
        [LibraryImport(Lib, EntryPoint = "dc_last_error_cuda")]
        public static partial
#else
        [DllImport(Lib, EntryPoint = "dc_last_error_cuda", ExactSpelling = true, CallingConvention = CallingConvention.Cdecl)]
        public static extern
#endif
            int dc_last_error_cuda();

#if NET7_0_OR_GREATER
        [LibraryImport(Lib, EntryPoint = "dc_last_error_nvrtc")]
        public static partial
#else
        [DllImport(Lib, EntryPoint = "dc_last_error_nvrtc", ExactSpelling = true, CallingConvention = CallingConvention.Cdecl)]
        public static extern
#endif
            int dc_last_error_nvrtc();

#if NET7_0_OR_GREATER
        [LibraryImport(Lib, EntryPoint = "dc_last_error_detail")]
        public static partial
#else
        [DllImport(Lib, EntryPoint = "dc_last_error_detail", ExactSpelling = true, CallingConvention = CallingConvention.Cdecl)]
        public static extern
#endif
            IntPtr dc_last_error_detail();

#if NET7_0_OR_GREATER
        [LibraryImport(Lib, EntryPoint = "dc_init")]
        public static partial
#else
        [DllImport(Lib, EntryPoint = "dc_init", ExactSpelling = true, CallingConvention = CallingConvention.Cdecl)]
        public static extern
#endif
            int dc_init(DcInitOptions* options);

#if NET7_0_OR_GREATER
        [LibraryImport(Lib, EntryPoint = "dc_driver_version")]
        public static partial
#else
        [DllImport(Lib, EntryPoint = "dc_driver_version", ExactSpelling = true, CallingConvention = CallingConvention.Cdecl)]
        public static extern
#endif
            int dc_driver_version(int* version);

#if NET7_0_OR_GREATER
        [LibraryImport(Lib, EntryPoint = "dc_driver_library")]
        public static partial
#else
        [DllImport(Lib, EntryPoint = "dc_driver_library", ExactSpelling = true, CallingConvention = CallingConvention.Cdecl)]
        public static extern
#endif
            int dc_driver_library(IntPtr* path);

#if NET7_0_OR_GREATER
        [LibraryImport(Lib, EntryPoint = "dc_nvrtc_version")]
        public static partial
#else
        [DllImport(Lib, EntryPoint = "dc_nvrtc_version", ExactSpelling = true, CallingConvention = CallingConvention.Cdecl)]
        public static extern
#endif
            int dc_nvrtc_version(int* major, int* minor);

#if NET7_0_OR_GREATER
        [LibraryImport(Lib, EntryPoint = "dc_config_warnings")]
        public static partial
#else
        [DllImport(Lib, EntryPoint = "dc_config_warnings", ExactSpelling = true, CallingConvention = CallingConvention.Cdecl)]
        public static extern
#endif
            int dc_config_warnings(IntPtr* warnings);

#if NET7_0_OR_GREATER
        [LibraryImport(Lib, EntryPoint = "dc_handle_count")]
        public static partial
#else
        [DllImport(Lib, EntryPoint = "dc_handle_count", ExactSpelling = true, CallingConvention = CallingConvention.Cdecl)]
        public static extern
#endif
            int dc_handle_count(int handle_type, ulong* count);
    }
}
