// The library as a whole: versions, constants against the header, status names, the
// thread-local last error and its UTF-8 decoding.
using System;
using System.Collections.Generic;
using System.Globalization;
using System.IO;
using System.Linq;
using System.Reflection;
using System.Runtime.InteropServices;
using System.Text.RegularExpressions;
using System.Threading;
using Dccuda.Interop;
using Xunit;

namespace Dccuda.Tests
{
    public sealed class CoreTests
    {
        [Fact]
        public void VersionMatchesTheHeader()
        {
            Expect.Equal(Dc.HeaderVersion, Dc.Version, "dc_version() against DCCUDA_VERSION");
            Expect.Equal(NativeConstants.DCCUDA_VERSION_MAJOR, Dc.LibraryVersion.Major, "major version");
            Expect.Equal(NativeConstants.DCCUDA_VERSION_MINOR, Dc.LibraryVersion.Minor, "minor version");
        }

        /// <summary>Every numeric #define of include/dccuda.h has a NativeConstants field of the
        /// same name and value, and NativeConstants has nothing the header lacks.</summary>
        [Fact]
        public void ConstantsMatchTheHeader()
        {
            string header = Environment.GetEnvironmentVariable("DCCUDA_HEADER");
            if (string.IsNullOrEmpty(header) || !File.Exists(header))
                throw Skip.Because("DCCUDA_HEADER does not name include/dccuda.h");
            var fields = typeof(NativeConstants).GetFields(BindingFlags.Public | BindingFlags.Static)
                                                .ToDictionary(f => f.Name, f => Convert.ToInt64(f.GetValue(null)));
            var define = new Regex(@"^#define\s+(DC\w*)\s+\(?\s*(-?)(0x[0-9a-fA-F]+|[0-9]+)u?\s*\)?\s*(/\*.*)?$");
            var seen = new HashSet<string>();
            foreach (string line in File.ReadAllLines(header))
            {
                Match m = define.Match(line.Trim());
                if (!m.Success)
                    continue;
                string name = m.Groups[1].Value;
                string digits = m.Groups[3].Value;
                long value = digits.StartsWith("0x") ? long.Parse(digits.Substring(2), NumberStyles.HexNumber) : long.Parse(digits);
                if (m.Groups[2].Value == "-")
                    value = -value;
                Expect.True(fields.ContainsKey(name), "NativeConstants has " + name + " (the header defines it as " + value + ")");
                Expect.Equal(value, fields[name], name);
                seen.Add(name);
            }
            Expect.True(seen.Count > 80, "the header's constants were found (" + seen.Count + ")");
            // DCCUDA_VERSION is an expression in the header: check it from its parts.
            Expect.Equal((long)(NativeConstants.DCCUDA_VERSION_MAJOR * 1000000 + NativeConstants.DCCUDA_VERSION_MINOR * 1000 +
                                NativeConstants.DCCUDA_VERSION_PATCH), fields["DCCUDA_VERSION"], "DCCUDA_VERSION");
            seen.Add("DCCUDA_VERSION");
            foreach (string name in fields.Keys)
                Expect.True(seen.Contains(name), "NativeConstants." + name + " is #defined in the header");
        }

        [Fact]
        public void StatusNamesComeFromTheLibrary()
        {
            foreach (FieldInfo f in typeof(NativeConstants).GetFields(BindingFlags.Public | BindingFlags.Static))
            {
                if (f.Name == "DC_SUCCESS" || f.Name == "DC_NOT_READY" || f.Name.StartsWith("DC_ERROR_"))
                {
                    var status = (DcStatus)(int)f.GetValue(null);
                    Expect.Equal(f.Name, Dc.StatusName(status), "dc_status_name(" + (int)status + ")");
                    Expect.True(Enum.IsDefined(typeof(DcStatus), status), "DcStatus has " + f.Name);
                }
            }
            Expect.Equal("DC_STATUS_UNKNOWN", Dc.StatusName((DcStatus)12345), "an unknown status");
        }

        [Fact]
        public void DriverAndCompilerAreReported()
        {
            int driver;
            try
            {
                driver = Dc.DriverVersion;
            }
            catch (DcException e)
            {
                Expect.Equal(DcStatus.NoDriver, e.Status, "without a driver");
                Expect.Contains("dc_driver_version", e.Message, "message names the call");
                throw Skip.Because("no driver");
            }
            Expect.True(driver >= 12000, "driver version " + driver + " is CUDA 12.0 or newer");
            string lib = Dc.DriverLibrary;
            Expect.True(lib.Length > 0, "the driver library has a name");
            if (TestEnv.OnFakeDriver)
                Expect.Contains("dcfake", lib, "the fake driver is the one loaded");
        }

        /// <summary>The last error belongs to the thread that failed, and the next fallible
        /// call clears it.</summary>
        [Fact]
        public void LastErrorIsPerThreadAndClearedBySuccess()
        {
            DcException e = Expect.Throws(DcStatus.NoDevice, () => Device.Open(-1), "Device.Open(-1)", "dc_device_open", "-1");
            Expect.Equal(0, e.CudaError, "no CUresult behind a bad ordinal");
            Expect.Equal((int)DcStatus.NoDevice, NativeMethods.dc_last_error_status(), "the thread's last status");
            string otherMessage = null;
            int otherStatus = 1;
            var t = new Thread(() =>
            {
                otherStatus = NativeMethods.dc_last_error_status();
                otherMessage = Utf8.Decode(NativeMethods.dc_last_error_message());
            });
            t.Start();
            t.Join();
            Expect.Equal(0, otherStatus, "another thread's last status");
            Expect.Equal("", otherMessage, "another thread's last message");
            Expect.Equal(e.Message, Utf8.Decode(NativeMethods.dc_last_error_message()), "reading the error twice");
            Expect.True(Dc.DeviceCount >= 0, "a successful call");
            Expect.Equal("", Utf8.Decode(NativeMethods.dc_last_error_message()), "the message after a success");
            Expect.Equal(0, NativeMethods.dc_last_error_status(), "the status after a success");
        }

        /// <summary>Non-ASCII text crosses both ways as UTF-8: a path in, the message naming it out.</summary>
        [Fact]
        public void LastErrorMessageIsUtf8()
        {
            using (Device d = TestEnv.OpenDevice())
            {
                string path = "/nonexistent/ünïcødé-路径-🚀/kernels.ptx";
                DcException e = Expect.Throws(DcStatus.NotFound, () => d.LoadModuleFile(path), "LoadModuleFile", path);
                Expect.Contains("dc_module_load_file", e.Message, "message names the call");
            }
        }

        [Fact]
        public void StringsWithNulAreRefused()
        {
            Expect.Throws<ArgumentException>(() => Utf8.Encode("saxpy\0evil"), "Utf8.Encode of a string holding NUL");
            byte[] encoded = Utf8.Encode("ü路🚀");
            Expect.Equal(1 + 2 + 3 + 4, encoded.Length, "UTF-8 bytes with the NUL");
            IntPtr p = System.Runtime.InteropServices.Marshal.AllocHGlobal(encoded.Length);
            try
            {
                System.Runtime.InteropServices.Marshal.Copy(encoded, 0, p, encoded.Length);
                Expect.Equal("ü路🚀", Utf8.Decode(p), "decode of 2-, 3- and 4-byte characters");
            }
            finally
            {
                System.Runtime.InteropServices.Marshal.FreeHGlobal(p);
            }
        }

        [Fact]
        public void InitAfterUseIsInvalidState()
        {
            Expect.Throws(DcStatus.InvalidState, () => Dc.Init(new InitOptions { Flags = InitFlags.NoDiskCache }), "Dc.Init after use", "dc_init");
        }

        /// <summary>Where the resolver looks for a packaged libdccuda: runtimes/&lt;rid&gt;/native
        /// beside the assembly (a build's output), then in the package root two levels up (an
        /// extracted package's lib/&lt;tfm&gt;/), under this platform's file names.</summary>
        [Fact]
        public void ResolverFindsPackagedNativeLibraries()
        {
            string rid = NativeLibraryResolver.RuntimeIdentifier();
            if (rid == null)
                throw Skip.Because("no NuGet runtime identifier for this platform");
            string[] names = NativeLibraryResolver.PlatformNames();
            if (RuntimeInformation.IsOSPlatform(OSPlatform.Windows))
                Expect.SequenceEqual(new[] { "dccuda.dll" }, names, "the names on Windows");
            else if (RuntimeInformation.IsOSPlatform(OSPlatform.Linux))
                Expect.SequenceEqual(new[] { "libdccuda.so.1", "libdccuda.so" }, names, "the names on Linux");
            string root = Path.Combine(Path.GetTempPath(), "dccuda-resolver-" + Guid.NewGuid().ToString("N"));
            try
            {
                string lib = Path.Combine(root, "lib", "net48");
                string packaged = Path.Combine(root, "runtimes", rid, "native", names[0]);
                string beside = Path.Combine(lib, "runtimes", rid, "native", names[0]);
                Directory.CreateDirectory(lib);
                Expect.Equal(0, NativeLibraryResolver.PackagedCandidates(lib).Length, "nothing packaged yet");
                Directory.CreateDirectory(Path.GetDirectoryName(packaged));
                File.WriteAllText(packaged, "");
                Expect.SequenceEqual(new[] { packaged }, NativeLibraryResolver.PackagedCandidates(lib), "the package root's runtimes");
                Directory.CreateDirectory(Path.GetDirectoryName(beside));
                File.WriteAllText(beside, "");
                Expect.SequenceEqual(new[] { beside, packaged }, NativeLibraryResolver.PackagedCandidates(lib),
                                     "runtimes beside the assembly first");
            }
            finally
            {
                Directory.Delete(root, true);
            }
        }
    }
}
