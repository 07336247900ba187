// Finding libdccuda. Every declaration binds the name "dccuda"; this class makes that name
// load the right file on each runtime:
//
// - .NET Core 3+ / .NET 5+: a DllImportResolver for this assembly tries, in order,
//   $DCCUDA_LIBRARY_PATH (a file, or a folder holding one of the names below), then
//   libdccuda.so.1 (the SONAME: present without a development package), libdccuda.so,
//   dccuda.dll, libdccuda.dylib, each by the runtime's usual search (the application's
//   folder, then the system's). Returning zero lets the runtime's own probing have a go.
// - Mono and .NET Framework: Dccuda.dll.config maps "dccuda" to libdccuda.so.1 on Linux
//   (dccuda.dll is the runtime's default on Windows); Mono also looks next to Dccuda.dll
//   first. $DCCUDA_LIBRARY_PATH is honoured by loading that file before the first call: the
//   system loader then hands the already loaded library to the runtime's own lookup (glibc
//   matches a loaded library by its SONAME; Windows by its module name). Mono resolves a
//   method's P/Invokes when it compiles the method, before any static constructor of its
//   class runs, so the safe layer's first calls (Dc, Device.Open, DcProgram.Compile) call
//   Register() before the method holding the native call is compiled. A program that calls
//   NativeMethods directly on Mono with $DCCUDA_LIBRARY_PATH calls Register() first itself.
using System;
using System.IO;
using System.Reflection;
using System.Runtime.InteropServices;
using System.Threading;

namespace Dccuda.Interop
{
    public static class NativeLibraryResolver
    {
        /// <summary>The environment variable naming the library file (or its folder).</summary>
        public const string PathVariable = "DCCUDA_LIBRARY_PATH";

        private static readonly string[] Names = { "libdccuda.so.1", "libdccuda.so", "dccuda.dll", "libdccuda.dylib" };
        private static int registered;

        /// <summary>Install the resolver (idempotent; NativeMethods' static constructor calls
        /// it). An application that set its own resolver for this assembly keeps it.</summary>
        public static void Register()
        {
            if (Interlocked.Exchange(ref registered, 1) != 0)
                return;
#if NETCOREAPP3_0_OR_GREATER || NET5_0_OR_GREATER
            try
            {
                NativeLibrary.SetDllImportResolver(typeof(NativeLibraryResolver).Assembly, Resolve);
            }
            catch (InvalidOperationException)
            {
                // The application already set a resolver for this assembly: it decides.
            }
#else
            Preload();
#endif
        }

        /// <summary>The files $DCCUDA_LIBRARY_PATH stands for: the path itself, or each known
        /// library name inside it when it is a folder.</summary>
        public static string[] ExplicitCandidates(string path)
        {
            if (!Directory.Exists(path))
                return new[] { path };
            var list = new string[Names.Length];
            for (int i = 0; i < Names.Length; i++)
                list[i] = Path.Combine(path, Names[i]);
            return list;
        }

        private static DllNotFoundException NotLoaded(string path)
        {
            return new DllNotFoundException(
                "dccuda: " + PathVariable + "=" + path + " could not be loaded: set it to the libdccuda " +
                "file (libdccuda.so.1, dccuda.dll) or the folder holding it, or unset it to search the usual places");
        }

#if NETCOREAPP3_0_OR_GREATER || NET5_0_OR_GREATER
        private static IntPtr Resolve(string name, Assembly assembly, DllImportSearchPath? searchPath)
        {
            if (name != NativeMethods.Lib)
                return IntPtr.Zero;
            IntPtr handle;
            string explicitPath = Environment.GetEnvironmentVariable(PathVariable);
            if (!string.IsNullOrEmpty(explicitPath))
            {
                foreach (string candidate in ExplicitCandidates(explicitPath))
                {
                    if (File.Exists(candidate) && NativeLibrary.TryLoad(candidate, out handle))
                        return handle;
                }
                throw NotLoaded(explicitPath);
            }
            foreach (string candidate in Names)
            {
                if (NativeLibrary.TryLoad(candidate, assembly, searchPath, out handle))
                    return handle;
            }
            return IntPtr.Zero;
        }
#else
        [DllImport("libdl.so.2", EntryPoint = "dlopen")]
        private static extern IntPtr DlOpen(byte[] file, int mode);

        [DllImport("kernel32", EntryPoint = "LoadLibraryW", CharSet = CharSet.Unicode, SetLastError = true)]
        private static extern IntPtr LoadLibraryW(string file);

        private const int RTLD_NOW = 2;
        private const int RTLD_GLOBAL = 0x100;

        private static void Preload()
        {
            string explicitPath = Environment.GetEnvironmentVariable(PathVariable);
            if (string.IsNullOrEmpty(explicitPath))
                return;
            bool windows = Path.DirectorySeparatorChar == '\\';
            foreach (string candidate in ExplicitCandidates(explicitPath))
            {
                if (!File.Exists(candidate))
                    continue;
                IntPtr h = windows ? LoadLibraryW(candidate) : DlOpen(Utf8.Encode(Path.GetFullPath(candidate)), RTLD_NOW | RTLD_GLOBAL);
                if (h != IntPtr.Zero)
                    return;
            }
            throw NotLoaded(explicitPath);
        }
#endif
    }
}
