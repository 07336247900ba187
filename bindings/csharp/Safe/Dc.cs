// The library as a whole: versions, initialisation, the libraries underneath, handle counts,
// the kernel cache and callback errors.
using System;
using Dccuda.Interop;

namespace Dccuda
{
    /// <summary>Options for Dc.Init (dc_init_options). Null members mean the default or
    /// the environment variable the header names.</summary>
    public sealed class InitOptions
    {
        public InitFlags Flags { get; set; }
        public string DriverLibrary { get; set; }
        public string NvrtcLibrary { get; set; }
        public string CacheDirectory { get; set; }
        public ulong CacheMaxBytes { get; set; }
    }

    public static unsafe class Dc
    {
        /// <summary>The version this binding was written for (DCCUDA_VERSION).</summary>
        public const uint HeaderVersion = NativeConstants.DCCUDA_VERSION;

        /// <summary>The loaded library's version, encoded as DCCUDA_VERSION is.</summary>
        public static uint Version { get { return NativeMethods.dc_version(); } }

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
        public static void Init(InitOptions options)
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

        /// <summary>The CUDA version the driver supports (12040 = 12.4).</summary>
        public static int DriverVersion
        {
            get
            {
                int v;
                DcException.Check(NativeMethods.dc_driver_version(&v));
                return v;
            }
        }

        /// <summary>The path or name the driver was loaded from.</summary>
        public static string DriverLibrary
        {
            get
            {
                IntPtr p;
                DcException.Check(NativeMethods.dc_driver_library(&p));
                return Utf8.Decode(p);
            }
        }

        /// <summary>The loaded NVRTC's version (13.0).</summary>
        public static Version NvrtcVersion
        {
            get
            {
                int major, minor;
                DcException.Check(NativeMethods.dc_nvrtc_version(&major, &minor));
                return new Version(major, minor);
            }
        }

        /// <summary>The number of CUDA devices (0 when the driver sees none).</summary>
        public static int DeviceCount
        {
            get
            {
                int n;
                DcException.Check(NativeMethods.dc_device_count(&n));
                return n;
            }
        }

        /// <summary>How many handles of a type are live in this process (a leak check).</summary>
        public static ulong HandleCount(HandleType type)
        {
            ulong n;
            DcException.Check(NativeMethods.dc_handle_count((int)type, &n));
            return n;
        }

        /// <summary>The C name of a status ("DC_ERROR_OUT_OF_RANGE"; "DC_STATUS_UNKNOWN").</summary>
        public static string StatusName(DcStatus status)
        {
            return Utf8.Decode(NativeMethods.dc_status_name((int)status));
        }

        /// <summary>Empty the in-process and/or on-disk kernel cache.</summary>
        public static void ClearCache(CacheClearFlags which)
        {
            DcException.Check(NativeMethods.dc_cache_clear((uint)which));
        }

        /// <summary>The on-disk kernel cache folder, "" when the disk cache is off.</summary>
        public static string CacheDirectory
        {
            get
            {
                IntPtr p;
                DcException.Check(NativeMethods.dc_cache_directory(&p));
                return Utf8.Decode(p);
            }
        }

        /// <summary>Raised when a stream callback (Stream.AddCallback) throws. Callbacks run on
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
            Console.Error.WriteLine("dccuda: a stream callback threw: " + e);
        }
    }
}
