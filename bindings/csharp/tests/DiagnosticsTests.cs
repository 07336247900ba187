// The log hook routed to a DcLogHandler, the live-handle report and telemetry (without NVML
// in CI: every field unavailable with the reason).
using System;
using System.Collections.Generic;
using Dccuda.Interop;
using Xunit;

namespace Dccuda.Tests
{
    public sealed class DiagnosticsTests
    {
        [Fact]
        public void LogReachesTheHandler()
        {
            var lines = new List<string>();
            Diagnostics.SetLogHandler(DcLogLevel.Information, (level, category, message) =>
            {
                lock (lines)
                    lines.Add(level + " " + category + ": " + message);
            });
            try
            {
                using (var device = Device.Open(0))
                {
                    using (var b = device.Allocate<byte>(4096))
                    {
                    }
                    device.TrimMemory(0);
                }
            }
            finally
            {
                Diagnostics.SetLogHandler(DcLogLevel.Trace, null);
            }
            lock (lines)
                Expect.True(lines.Exists(l => l.StartsWith("Information pool: device 0: pool trimmed", StringComparison.Ordinal)),
                            "no pool line in: " + string.Join(" | ", lines));
        }

        [Fact]
        public void HandleReportNamesALiveBuffer()
        {
            using (var device = Device.Open(0))
            using (var b = device.Allocate<byte>(12345))
            {
                string report = Diagnostics.HandleReport();
                Expect.True(report.Contains("12345 bytes of device memory"), "report: " + report);
                Expect.True(report.Contains("made by dc_buffer_alloc"), "report: " + report);
            }
        }

        [Fact]
        public void TelemetryMarksWhatIsMissing()
        {
            using (var device = Device.Open(0))
            {
                DcDeviceTelemetry t = device.Telemetry;
                bool nvml;
                try
                {
                    string unused = Diagnostics.TelemetryLibrary;
                    nvml = unused.Length > 0;
                }
                catch (DcException e)
                {
                    Expect.Equal(DcStatus.NotSupported, e.Status, "without NVML");
                    nvml = false;
                }
                if (!nvml)
                {
                    for (int f = 0; f <= NativeConstants.DC_TELEMETRY_FIELD_NVLINK_TRAFFIC; ++f)
                        Expect.Equal(NativeConstants.DC_TELEMETRY_NO_NVML, Diagnostics.Reason(t, f), "field " + f);
                }
                else
                {
                    Expect.True(Diagnostics.Available(t, NativeConstants.DC_TELEMETRY_FIELD_MEMORY), "memory with NVML");
                }
            }
        }
    }
}
