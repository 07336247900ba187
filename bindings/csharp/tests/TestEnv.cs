// What the tests need from their surroundings: a device (else skip), NVRTC (else skip),
// the fake driver's live-object counts (only under the fake), and GC helpers.
using System;
using System.Runtime.InteropServices;
using System.Threading;

namespace Dccuda.Tests
{
    internal static class TestEnv
    {
        /// <summary>True when DCCUDA_DRIVER_LIBRARY names the fake driver (a test double, not a GPU).</summary>
        public static bool OnFakeDriver
        {
            get { return (Environment.GetEnvironmentVariable("DCCUDA_DRIVER_LIBRARY") ?? "").Contains("dcfake"); }
        }

        public static Device OpenDevice(int ordinal = 0)
        {
            int n;
            try
            {
                n = Dc.DeviceCount;
            }
            catch (DcException e)
            {
                throw Skip.Because("no driver: " + e.Message);
            }
            if (n <= ordinal)
                throw Skip.Because("needs " + (ordinal + 1) + " device(s), the driver reports " + n);
            return Device.Open(ordinal);
        }

        /// <summary>Skip the test unless NVRTC can be loaded.</summary>
        public static void RequireNvrtc()
        {
            string why = NvrtcMissing();
            if (why != null)
                throw Skip.Because("NVRTC is not available: " + why);
        }

        /// <summary>True when NVRTC can be loaded.</summary>
        public static bool HasNvrtc { get { return NvrtcMissing() == null; } }

        private static string NvrtcMissing()
        {
            try
            {
                Version v = Dc.NvrtcVersion;
                if (v.Major <= 0)
                    throw new ExpectationException("NVRTC version " + v);
                return null;
            }
            catch (DcException e)
            {
                if (e.Status != DcStatus.NoCompiler)
                    throw;
                return e.Message;
            }
        }

        /// <summary>Collect until `done` holds (finalizers run on the finalizer thread).</summary>
        public static bool CollectUntil(Func<bool> done, int milliseconds = 5000)
        {
            DateTime end = DateTime.UtcNow.AddMilliseconds(milliseconds);
            while (true)
            {
                GC.Collect();
                GC.WaitForPendingFinalizers();
                GC.Collect();
                if (done())
                    return true;
                if (DateTime.UtcNow > end)
                    return false;
                Thread.Sleep(10);
            }
        }

        public static ulong Handles(HandleType t) { return Dc.HandleCount(t); }

        /// <summary>Wait until graphs disposed earlier have given up what they held (after
        /// their last launch, through the thread pool) and finalizers have run: before counting
        /// handles.</summary>
        public static void Settle()
        {
            if (!CollectUntil(() => GraphResources.PendingReleases == 0))
                throw new ExpectationException("graph resources still pending after 5 s: " + GraphResources.PendingReleases);
        }
    }

    /// <summary>The fake driver's control functions (tests/fake_driver/fake_control.h),
    /// found with dlsym in the library DCCUDA_DRIVER_LIBRARY names.</summary>
    internal static class FakeDriver
    {
        [DllImport("libdl.so.2", EntryPoint = "dlopen")]
        private static extern IntPtr DlOpen(byte[] file, int mode);

        [DllImport("libdl.so.2", EntryPoint = "dlsym")]
        private static extern IntPtr DlSym(IntPtr handle, byte[] name);

        [UnmanagedFunctionPointer(CallingConvention.Cdecl)]
        private delegate long LiveFn(byte[] kind);

        private static LiveFn live;

        [UnmanagedFunctionPointer(CallingConvention.Cdecl)]
        private delegate void BreakFn(int ordinal, int result);

        private static BreakFn breakContext;

        private static IntPtr Symbol(string name)
        {
            if (!TestEnv.OnFakeDriver)
                throw Skip.Because("needs the fake driver (" + name + ")");
            IntPtr lib = DlOpen(Interop.Utf8.Encode(Environment.GetEnvironmentVariable("DCCUDA_DRIVER_LIBRARY")), 2);
            if (lib == IntPtr.Zero)
                throw new ExpectationException("dlopen of the fake driver failed");
            IntPtr fn = DlSym(lib, Interop.Utf8.Encode(name));
            if (fn == IntPtr.Zero)
                throw new ExpectationException("the fake driver has no " + name);
            return fn;
        }

        /// <summary>Break device `ordinal`'s context with a sticky CUresult, as a kernel fault
        /// would (dcfake_break_context).</summary>
        public static void BreakContext(int ordinal, int result)
        {
            if (breakContext == null)
                breakContext = (BreakFn)Marshal.GetDelegateForFunctionPointer(Symbol("dcfake_break_context"), typeof(BreakFn));
            breakContext(ordinal, result);
        }

        /// <summary>Live driver objects of a kind ("allocations", "streams"...).</summary>
        public static long Live(string kind)
        {
            if (!TestEnv.OnFakeDriver)
                throw Skip.Because("needs the fake driver (its live-object counts)");
            if (live == null)
            {
                IntPtr lib = DlOpen(Interop.Utf8.Encode(Environment.GetEnvironmentVariable("DCCUDA_DRIVER_LIBRARY")), 2);
                if (lib == IntPtr.Zero)
                    throw new ExpectationException("dlopen of the fake driver failed");
                IntPtr fn = DlSym(lib, Interop.Utf8.Encode("dcfake_live"));
                if (fn == IntPtr.Zero)
                    throw new ExpectationException("the fake driver has no dcfake_live");
                live = (LiveFn)Marshal.GetDelegateForFunctionPointer(fn, typeof(LiveFn));
            }
            return live(Interop.Utf8.Encode(kind));
        }
    }
}
