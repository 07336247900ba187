//! The log through a handler, the live-handle report and telemetry (without
//! NVML in CI: every field unavailable with the reason).

const std = @import("std");
const dc = @import("dccuda");
const testing = std.testing;

var pool_lines: usize = 0;

fn countPoolLines(level: dc.LogLevel, category: []const u8, message: []const u8) void {
    if (level == .info and std.mem.eql(u8, category, "pool") and std.mem.startsWith(u8, message, "device 0: pool trimmed"))
        pool_lines += 1;
}

test "the log reaches the handler" {
    const dev = try dc.Device.open(0);
    defer dev.deinit();
    pool_lines = 0;
    try dc.setLogHandler(.info, countPoolLines);
    defer dc.stopLog() catch {};
    const buf = try dc.Buffer.alloc(dev, 4096, .{});
    buf.deinit();
    try dev.trimMemory(0);
    try testing.expect(pool_lines >= 1);
}

test "the handle report names a live buffer" {
    const dev = try dc.Device.open(0);
    defer dev.deinit();
    const buf = try dc.Buffer.alloc(dev, 12345, .{});
    defer buf.deinit();
    const report = try dc.handleReportAlloc(testing.allocator);
    defer testing.allocator.free(report);
    try testing.expect(std.mem.indexOf(u8, report, "12345 bytes of device memory") != null);
}

test "telemetry marks what is missing" {
    const dev = try dc.Device.open(0);
    defer dev.deinit();
    const t = try dc.telemetry(dev);
    if (dc.telemetryLibrary()) |_| {
        try testing.expect(t.available(dc.c.DC_TELEMETRY_FIELD_MEMORY));
    } else |err| {
        try testing.expectEqual(error.NotSupported, err);
        var f: i32 = 0;
        while (f <= dc.c.DC_TELEMETRY_FIELD_NVLINK_TRAFFIC) : (f += 1)
            try testing.expectEqual(dc.c.DC_TELEMETRY_NO_NVML, t.reason(f));
    }
}
