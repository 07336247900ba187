// Seeing inside: dccuda's log routed to a handler shaped like Microsoft.Extensions.Logging
// (no dependency on it), the live-handle report and device telemetry (NVML).
using System;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using Dccuda.Interop;

namespace Dccuda
{
    /// <summary>dccuda's log levels (DC_LOG_*), with the values of
    /// Microsoft.Extensions.Logging.LogLevel: cast one to the other.</summary>
    public enum DcLogLevel
    {
        /// <summary>Every step of a decision (each cache lookup).</summary>
        Trace = 0,
        /// <summary>Decisions worth knowing when tuning: staging, cache misses, fallbacks.</summary>
        Debug = 1,
        /// <summary>Decisions that change what the process holds: the driver loaded, a pool trimmed.</summary>
        Information = 2,
        /// <summary>Something to act on: an entry point the driver lacks.</summary>
        Warning = 3,
        /// <summary>Reserved for failures no call reports.</summary>
        Error = 4,
    }

    /// <summary>Receives dccuda's log: the level, a category ("staging", "cache", "pool",
    /// "fallback", "driver", "profiler", "trace") and one line of text. Shaped to forward to an
    /// ILogger: <c>(l, c, m) =&gt; logger.Log((LogLevel)l, "{Category}: {Message}", c, m)</c>.
    /// It runs on the thread that made the decision, inside a dccuda call: it must be quick and
    /// must not call dccuda (such calls fail with DcStatus.InvalidState).</summary>
    public delegate void DcLogHandler(DcLogLevel level, string category, string message);

    /// <summary>The log hook, the live-handle report and telemetry.</summary>
    public static class Diagnostics
    {
        [UnmanagedFunctionPointer(CallingConvention.Cdecl)]
        private delegate void LogFn(IntPtr userData, int level, IntPtr category, IntPtr message);

        // Static: the delegate the library calls through is never collected.
        private static readonly LogFn Thunk = OnLog;
        private static readonly IntPtr ThunkPointer = Marshal.GetFunctionPointerForDelegate(Thunk);
        private static volatile DcLogHandler handler;

        private static void OnLog(IntPtr userData, int level, IntPtr category, IntPtr message)
        {
            DcLogHandler h = handler;
            if (h == null)
                return;
            try
            {
                h((DcLogLevel)level, Utf8.Decode(category), Utf8.Decode(message));
            }
            catch (Exception e)
            {
                // An exception must not unwind into the library.
                Dc.ReportCallbackException(e);
            }
        }

        /// <summary>Sends dccuda's decisions at minLevel and above to handler (null: stop). One
        /// handler per process; when this returns, the previous one is never called again.</summary>
        public static void SetLogHandler(DcLogLevel minLevel, DcLogHandler handler)
        {
            DiagnosticsCalls.SetLogHandler(minLevel, handler);
        }

        internal static void Install(DcLogLevel minLevel, DcLogHandler h)
        {
            handler = h;
            DcException.Check(NativeMethods.dc_set_log_callback((int)minLevel, h == null ? IntPtr.Zero : ThunkPointer,
                                                                IntPtr.Zero));
        }

        /// <summary>Every live handle of the process as text (dc_handle_report): a summary line,
        /// then one line per handle with its age, the call and thread that made it, and for a
        /// buffer its size and kind; "" when none is live. For leak hunting in tests.</summary>
        public static string HandleReport() { return DiagnosticsCalls.HandleReport(); }

        /// <summary>Where NVML was loaded from; throws DcException (NotSupported) saying why
        /// when telemetry has no NVML.</summary>
        public static string TelemetryLibrary { get { return DiagnosticsCalls.TelemetryLibrary(); } }

        /// <summary>Whether a telemetry field (DC_TELEMETRY_FIELD_*) was read; otherwise
        /// Reason gives DC_TELEMETRY_* (why not).</summary>
        public static unsafe bool Available(DcDeviceTelemetry t, int field)
        {
            return Reason(t, field) == NativeConstants.DC_TELEMETRY_AVAILABLE;
        }

        /// <summary>Why a telemetry field is unavailable (DC_TELEMETRY_*), 0 when it is there.</summary>
        public static unsafe int Reason(DcDeviceTelemetry t, int field)
        {
            if (field < 0 || field >= 32)
                throw new ArgumentOutOfRangeException(nameof(field), field, "a DC_TELEMETRY_FIELD_* index (0..31)");
            fixed (int* status = t.FieldStatus)
                return status[field];
        }
    }

    internal static unsafe class DiagnosticsCalls
    {
        [MethodImpl(MethodImplOptions.NoInlining)]
        internal static void SetLogHandler(DcLogLevel minLevel, DcLogHandler h) { Diagnostics.Install(minLevel, h); }

        [MethodImpl(MethodImplOptions.NoInlining)]
        internal static string HandleReport()
        {
            for (;;)
            {
                ulong length;
                DcException.Check(NativeMethods.dc_handle_report(null, 0, &length));
                byte[] text = new byte[length + 256];
                fixed (byte* p = text)
                {
                    int status = NativeMethods.dc_handle_report(p, (ulong)text.Length, &length);
                    if (status == (int)DcStatus.OutOfRange)
                        continue;  // handles came meanwhile: ask again
                    DcException.Check(status);
                    return System.Text.Encoding.UTF8.GetString(text, 0, (int)length);
                }
            }
        }

        [MethodImpl(MethodImplOptions.NoInlining)]
        internal static string TelemetryLibrary()
        {
            IntPtr p;
            DcException.Check(NativeMethods.dc_telemetry_library(&p));
            return Utf8.Decode(p);
        }
    }
}
