// The library as a whole: versions, initialisation, the libraries underneath, handle counts,
// the kernel cache and callback errors.
using System;
using System.Diagnostics.CodeAnalysis;
using System.Runtime.CompilerServices;
using Dccuda.Interop;

namespace Dccuda
{
    /// <summary>Options for Dc.Init (dc_init_options). Null members mean the default or
    /// the environment variable the header names.</summary>
    public sealed class InitOptions
    {
        /// <summary>DC_INIT_* flags: no NVRTC, no disk or memory kernel cache.</summary>
        public InitFlags Flags { get; set; }
        /// <summary>The driver library to load; null: DCCUDA_DRIVER_LIBRARY, else libcuda.so.1.</summary>
        [AllowNull, MaybeNull]
        public string DriverLibrary { get; set; }
        /// <summary>The NVRTC library; null: DCCUDA_NVRTC_LIBRARY, else the default names.</summary>
        [AllowNull, MaybeNull]
        public string NvrtcLibrary { get; set; }
        /// <summary>The kernel cache folder; null: DCCUDA_CACHE_DIR, else the default.</summary>
        [AllowNull, MaybeNull]
        public string CacheDirectory { get; set; }
        /// <summary>The disk cache's size limit in bytes; 0: DCCUDA_CACHE_MAX_BYTES, else 1 GiB.</summary>
        public ulong CacheMaxBytes { get; set; }
    }

    /// <summary>The library as a whole: versions, initialisation, the driver and NVRTC underneath, handle counts, the kernel cache, and where callback exceptions go.</summary>
    public static class Dc
    {
        // Mono resolves the P/Invokes a method makes when it compiles the method, before the
        // static constructor of its class has run. So the library is found here, in Dc's static
        // constructor, and the members below leave the native calls to DcCalls, whose methods
        // are compiled only when first called: after the constructor (NativeLibraryResolver
        // honours DCCUDA_LIBRARY_PATH on Mono by loading the file first). Device.Open and
        // DcProgram.Compile, the other first calls a program can make, do the same.
        static Dc()
        {
            NativeLibraryResolver.Register();
        }

        /// <summary>The version this binding was written for (DCCUDA_VERSION).</summary>
        public const uint HeaderVersion = NativeConstants.DCCUDA_VERSION;

        /// <summary>The loaded library's version, encoded as DCCUDA_VERSION is.</summary>
        public static uint Version { get { return DcCalls.Version(); } }

        /// <summary>The loaded library's version as major.minor.patch.</summary>
        public static Version LibraryVersion
        {
            get
            {
                uint v = Version;
                return new Version((int)(v / 1000000), (int)(v / 1000 % 1000), (int)(v % 1000));
            }
        }

        /// <summary>Initialise with explicit options (optional; at most once, before any
        /// other call). Throws DcException: DC_ERROR_NO_DRIVER (compilation still works),
        /// DC_ERROR_INVALID_STATE (already initialised), DC_ERROR_INVALID_ARGUMENT.</summary>
        public static void Init([AllowNull] InitOptions options) { DcCalls.Init(options); }

        /// <summary>The CUDA version the driver supports (12040 = 12.4).</summary>
        public static int DriverVersion { get { return DcCalls.DriverVersion(); } }

        /// <summary>The path or name the driver was loaded from.</summary>
        public static string DriverLibrary { get { return DcCalls.DriverLibrary(); } }

        /// <summary>The loaded NVRTC's version (13.0).</summary>
        public static Version NvrtcVersion { get { return DcCalls.NvrtcVersion(); } }

        /// <summary>The architectures the loaded NVRTC targets, 10 * major + minor, ascending.</summary>
        public static int[] NvrtcSupportedArchs { get { return DcCalls.NvrtcSupportedArchs(); } }

        /// <summary>The number of CUDA devices (0 when the driver sees none).</summary>
        public static int DeviceCount { get { return DcCalls.DeviceCount(); } }

        /// <summary>How many handles of a type are live in this process (a leak check).</summary>
        public static ulong HandleCount(HandleType type) { return DcCalls.HandleCount(type); }

        /// <summary>The C name of a status ("DC_ERROR_OUT_OF_RANGE"; "DC_STATUS_UNKNOWN").</summary>
        public static string StatusName(DcStatus status) { return DcCalls.StatusName(status); }

        /// <summary>Empty the in-process and/or on-disk kernel cache.</summary>
        public static void ClearCache(CacheClearFlags which) { DcCalls.ClearCache(which); }

        /// <summary>The on-disk kernel cache folder, "" when the disk cache is off.</summary>
        public static string CacheDirectory { get { return DcCalls.CacheDirectory(); } }

        /// <summary>Raised when a stream callback (DcStream.AddCallback) throws. Callbacks run on
        /// a driver thread where an exception cannot travel back to the caller; without a
        /// handler the exception is written to standard error.</summary>
        public static event Action<Exception> CallbackException;

        internal static void ReportCallbackException(Exception e)
        {
            Action<Exception> handler = CallbackException;
            if (handler != null)
            {
                try
                {
                    handler(e);
                    return;
                }
                catch (Exception inner)
                {
                    e = new AggregateException(e, inner);
                }
            }
            try
            {
                Console.Error.WriteLine("dccuda: a stream callback threw: " + e);
            }
            catch (Exception)
            {
                // Standard error is gone: nothing may escape into the driver's thread
                // (under [UnmanagedCallersOnly] an exception there ends the process).
            }
        }
    }

    /// <summary>The native calls behind Dc (see Dc's static constructor for why apart).</summary>
    internal static unsafe class DcCalls
    {
        [MethodImpl(MethodImplOptions.NoInlining)]
        internal static uint Version() { return NativeMethods.dc_version(); }

        [MethodImpl(MethodImplOptions.NoInlining)]
        internal static void Init([AllowNull] InitOptions options)
        {
            if (options == null)
            {
                DcException.Check(NativeMethods.dc_init(null));
                return;
            }
            using (var arena = new Utf8Arena())
            {
                DcInitOptions o = DcInitOptions.Init();
                o.Flags = (uint)options.Flags;
                o.DriverLibrary = arena.String(options.DriverLibrary);
                o.NvrtcLibrary = arena.String(options.NvrtcLibrary);
                o.CacheDir = arena.String(options.CacheDirectory);
                o.CacheMaxBytes = options.CacheMaxBytes;
                DcException.Check(NativeMethods.dc_init(&o));
            }
        }

        [MethodImpl(MethodImplOptions.NoInlining)]
        internal static int DriverVersion()
        {
            int v;
            DcException.Check(NativeMethods.dc_driver_version(&v));
            return v;
        }

        [MethodImpl(MethodImplOptions.NoInlining)]
        internal static string DriverLibrary()
        {
            IntPtr p;
            DcException.Check(NativeMethods.dc_driver_library(&p));
            return Utf8.Decode(p);
        }

        [MethodImpl(MethodImplOptions.NoInlining)]
        internal static Version NvrtcVersion()
        {
            int major, minor;
            DcException.Check(NativeMethods.dc_nvrtc_version(&major, &minor));
            return new Version(major, minor);
        }

        [MethodImpl(MethodImplOptions.NoInlining)]
        internal static int[] NvrtcSupportedArchs()
        {
            uint count;
            DcException.Check(NativeMethods.dc_nvrtc_supported_archs(null, 0, &count));
            var archs = new int[count];
            fixed (int* a = archs)
                DcException.Check(NativeMethods.dc_nvrtc_supported_archs(a, count, &count));
            return archs;
        }

        [MethodImpl(MethodImplOptions.NoInlining)]
        internal static int DeviceCount()
        {
            int n;
            DcException.Check(NativeMethods.dc_device_count(&n));
            return n;
        }

        [MethodImpl(MethodImplOptions.NoInlining)]
        internal static ulong HandleCount(HandleType type)
        {
            ulong n;
            DcException.Check(NativeMethods.dc_handle_count((int)type, &n));
            return n;
        }

        [MethodImpl(MethodImplOptions.NoInlining)]
        internal static string StatusName(DcStatus status)
        {
            return Utf8.Decode(NativeMethods.dc_status_name((int)status));
        }

        [MethodImpl(MethodImplOptions.NoInlining)]
        internal static void ClearCache(CacheClearFlags which)
        {
            DcException.Check(NativeMethods.dc_cache_clear((uint)which));
        }

        [MethodImpl(MethodImplOptions.NoInlining)]
        internal static string CacheDirectory()
        {
            IntPtr p;
            DcException.Check(NativeMethods.dc_cache_directory(&p));
            return Utf8.Decode(p);
        }
    }
}
