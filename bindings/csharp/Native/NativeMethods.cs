// The raw declarations' shared part: the library they bind and its resolver. The declarations
// themselves (NativeMethods.<Section>.cs), NativeConstants.cs and Structs.cs are generated from
// include/dccuda.h by abi/gen.py; this file, NativeLibraryResolver.cs and Utf8.cs are written
// by hand.
//
// The rules every generated declaration follows:
// - One declaration per C function, written once. Only its attributes and modifiers differ
//   per runtime: .NET 7+ compiles the [LibraryImport] branch (a source-generated stub;
//   `static partial`; the C calling convention named with [UnmanagedCallConv]), Mono and .NET
//   Framework the [DllImport] branch (`static extern`, CallingConvention.Cdecl).
// - EntryPoint is always explicit: the runtime otherwise binds the C# method name.
// - Blittable types only, so neither runtime marshals anything: handles are IntPtr;
//   int32_t/uint32_t/uint64_t are int/uint/ulong (never nint/nuint: those are pointer-sized);
//   input strings are NUL-terminated UTF-8 byte*; out-values are pointers; callbacks and user
//   data are IntPtr; memory is void*. No string or bool return: a library-owned const char* is
//   returned as IntPtr and decoded with Utf8.Decode (a marshalled string return would be
//   freed by the runtime).
// - The library is "dccuda": NativeLibraryResolver maps it to libdccuda.so.1 (.NET), and
//   Dccuda.dll.config does for Mono.
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
    }
}
