// Finding libdccuda. Every declaration binds the name "dccuda"; this class makes that name
// load the right file on each runtime. The file's name is the platform's: dccuda.dll on
// Windows, libdccuda.so.1 (the SONAME: present without a development package) or libdccuda.so
// on Linux, libdccuda.dylib on macOS. Where it is looked for, in order:
//
//   1. $DCCUDA_LIBRARY_PATH: the file, or a folder holding it (nothing else is tried then);
//   2. runtimes/<rid>/native/ beside this assembly (how `dotnet build` lays out a package's
//      native assets for a RID-less app, and how an app copies them by hand), then
//      ../../runtimes/<rid>/native/ from it (the layout of the NuGet package itself, when the
//      assembly is used from an extracted package's lib/<tfm>/ folder); <rid> is linux-x64,
//      linux-arm64, win-x64, win-arm64, osx-x64 or osx-arm64;
//   3. the runtime's own search (.NET: the deps.json native assets, the application's folder,
//      then the system's; Mono: Dccuda.dll.config maps "dccuda" to libdccuda.so.1, found next
//      to Dccuda.dll, in LD_LIBRARY_PATH or the system).
//
// - .NET Core 3+ / .NET 5+: a DllImportResolver for this assembly does 1 and 2, then 3 with
//   NativeLibrary.TryLoad(name, assembly, searchPath); returning zero lets the runtime's own
//   probing have a go.
// - Mono and .NET Framework (the netstandard2.0 build): 1 and 2 load the file (dlopen,
//   LoadLibraryW) before the first call; the system loader then hands the already loaded
//   library to the runtime's own lookup (glibc matches a loaded library by its SONAME, through
//   the dllmap's libdccuda.so.1; Windows by its module name, dccuda.dll). The same build on
//   .NET Core 3+ hands the loaded handle to NativeLibrary through reflection. Mono resolves a method's P/Invokes when it
//   compiles the method, before any static constructor of its class runs, so the safe layer's
//   first calls (Dc, Device.Open, DcProgram.Compile) call Register() before the method holding
//   the native call is compiled. A program that calls NativeMethods directly on Mono calls
//   Register() first itself.
using System;
using System.IO;
using System.Reflection;
using System.Runtime.InteropServices;
using System.Threading;

namespace Dccuda.Interop
{
    /// <summary>Finds libdccuda for the declarations' "dccuda" (see the file's comment).</summary>
    public static class NativeLibraryResolver
    {
        /// <summary>The environment variable naming the library file (or its folder).</summary>
        public const string PathVariable = "DCCUDA_LIBRARY_PATH";

        private static readonly string[] Names = PlatformNames();
        private static int registered;

        /// <summary>The library's file names on this platform, most specific first.</summary>
        public static string[] PlatformNames()
        {
            if (RuntimeInformation.IsOSPlatform(OSPlatform.Windows))
                return new[] { "dccuda.dll" };
            if (RuntimeInformation.IsOSPlatform(OSPlatform.OSX))
                return new[] { "libdccuda.1.dylib", "libdccuda.dylib" };
            return new[] { "libdccuda.so.1", "libdccuda.so" };
        }

        /// <summary>The NuGet runtime identifier of this process (linux-x64, win-x64...), or null
        /// for a platform no package carries.</summary>
        public static string RuntimeIdentifier()
        {
            string os = RuntimeInformation.IsOSPlatform(OSPlatform.Windows) ? "win"
                      : RuntimeInformation.IsOSPlatform(OSPlatform.OSX) ? "osx"
                      : RuntimeInformation.IsOSPlatform(OSPlatform.Linux) ? "linux" : null;
            string arch;
            switch (RuntimeInformation.ProcessArchitecture)
            {
                case Architecture.X64: arch = "x64"; break;
                case Architecture.Arm64: arch = "arm64"; break;
                default: arch = null; break;
            }
            return os == null || arch == null ? null : os + "-" + arch;
        }

        /// <summary>Install the resolver (idempotent; the safe layer's first calls make it). An
        /// application that set its own resolver for this assembly keeps it.</summary>
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

        /// <summary>The files $DCCUDA_LIBRARY_PATH stands for: the path itself, or each of this
        /// platform's library names inside it when it is a folder.</summary>
        public static string[] ExplicitCandidates(string path)
        {
            if (!Directory.Exists(path))
                return new[] { path };
            var list = new string[Names.Length];
            for (int i = 0; i < Names.Length; i++)
                list[i] = Path.Combine(path, Names[i]);
            return list;
        }

        /// <summary>The packaged copies that exist, in the order tried: runtimes/&lt;rid&gt;/native
        /// beside the assembly in `assemblyDirectory`, then in the package root two levels up
        /// (lib/&lt;tfm&gt;/ of an extracted package).</summary>
        public static string[] PackagedCandidates(string assemblyDirectory)
        {
            string rid = RuntimeIdentifier();
            if (rid == null || string.IsNullOrEmpty(assemblyDirectory))
                return new string[0];
            string beside = Path.Combine(assemblyDirectory, "runtimes", rid, "native");
            string packageRoot = Path.GetDirectoryName(Path.GetDirectoryName(Path.GetFullPath(assemblyDirectory)));
            string[] folders = packageRoot == null
                ? new[] { beside }
                : new[] { beside, Path.Combine(packageRoot, "runtimes", rid, "native") };
            var found = new System.Collections.Generic.List<string>();
            foreach (string folder in folders)
                foreach (string name in Names)
                {
                    string file = Path.Combine(folder, name);
                    if (File.Exists(file))
                        found.Add(file);
                }
            return found.ToArray();
        }

        private static string AssemblyDirectory()
        {
            try
            {
                string location = typeof(NativeLibraryResolver).Assembly.Location;
                return string.IsNullOrEmpty(location) ? null : Path.GetDirectoryName(location);
            }
            catch (NotSupportedException)
            {
                return null;   // an assembly without a file (single-file bundles, in memory)
            }
        }

        private static DllNotFoundException NotLoaded(string path)
        {
            return new DllNotFoundException(
                "dccuda: " + PathVariable + "=" + path + " could not be loaded: set it to the libdccuda " +
                "file (" + string.Join(", ", Names) + ") or the folder holding it, or unset it to search the usual places");
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
            foreach (string candidate in PackagedCandidates(AssemblyDirectory()))
            {
                if (NativeLibrary.TryLoad(candidate, out handle))
                    return handle;
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

        private static IntPtr LoadFile(string file)
        {
            bool windows = RuntimeInformation.IsOSPlatform(OSPlatform.Windows);
            string full = Path.GetFullPath(file);
            return windows ? LoadLibraryW(full) : DlOpen(Utf8.Encode(full), RTLD_NOW | RTLD_GLOBAL);
        }

        private static void Preload()
        {
            string explicitPath = Environment.GetEnvironmentVariable(PathVariable);
            if (!string.IsNullOrEmpty(explicitPath))
            {
                foreach (string candidate in ExplicitCandidates(explicitPath))
                {
                    IntPtr h = File.Exists(candidate) ? LoadFile(candidate) : IntPtr.Zero;
                    if (h != IntPtr.Zero)
                    {
                        preloaded = h;
                        RegisterWithNetCore();
                        return;
                    }
                }
                throw NotLoaded(explicitPath);
            }
            foreach (string candidate in PackagedCandidates(AssemblyDirectory()))
            {
                IntPtr h = LoadFile(candidate);
                if (h != IntPtr.Zero)
                {
                    preloaded = h;
                    RegisterWithNetCore();
                    return;
                }
            }
            // Neither: the runtime's own search (the dllmap, LD_LIBRARY_PATH, the system).
        }

        private static IntPtr preloaded;

        /// <summary>This build (netstandard2.0, Mono) running on .NET Core 3+: .NET ignores the
        /// dllmap and would look for "libdccuda.so", not the file loaded above, so the loaded
        /// handle is handed over through NativeLibrary.SetDllImportResolver, found by
        /// reflection (this build cannot reference it). Elsewhere (Mono, .NET Framework) the
        /// type does not exist and nothing happens.</summary>
        private static void RegisterWithNetCore()
        {
            try
            {
                Type nativeLibrary = Type.GetType("System.Runtime.InteropServices.NativeLibrary");
                Type resolverType = Type.GetType("System.Runtime.InteropServices.DllImportResolver");
                if (nativeLibrary == null || resolverType == null)
                    return;
                MethodInfo set = nativeLibrary.GetMethod("SetDllImportResolver", new[] { typeof(Assembly), resolverType });
                MethodInfo resolve = typeof(NativeLibraryResolver).GetMethod("ResolvePreloaded", BindingFlags.NonPublic | BindingFlags.Static);
                if (set == null || resolve == null)
                    return;
                set.Invoke(null, new object[] { typeof(NativeLibraryResolver).Assembly, Delegate.CreateDelegate(resolverType, resolve) });
            }
            catch (Exception)
            {
                // Another resolver is set already, or the API differs: the runtime's own search.
            }
        }

        private static IntPtr ResolvePreloaded(string name, Assembly assembly, DllImportSearchPath? searchPath)
        {
            return name == NativeMethods.Lib ? preloaded : IntPtr.Zero;
        }
#endif
    }
}
