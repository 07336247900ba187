//! Seeing inside: dccuda's log routed to std.log (scope .dccuda) or to a
//! function of yours, the live-handle report and device telemetry (NVML).

const std = @import("std");
const c = @import("c.zig");
const errors = @import("errors.zig");
const DcError = errors.DcError;
const check = errors.check;
const Device = @import("device.zig").Device;

/// dccuda's log levels (DC_LOG_*).
pub const LogLevel = enum(i32) { trace = 0, debug = 1, info = 2, warning = 3, err = 4 };

/// A log handler: the level, the category ("staging", "cache", "pool",
/// "fallback", "driver", "profiler", "trace") and one line of text, each
/// valid during the call only. It runs on the thread that made the decision,
/// inside a dccuda call: quick, and no dccuda calls (they fail with
/// error.InvalidState).
pub const LogHandler = fn (level: LogLevel, category: []const u8, message: []const u8) void;

fn thunk(comptime handler: LogHandler) c.dc_log_fn {
    return struct {
        fn call(user_data: ?*anyopaque, level: i32, category: ?[*:0]const u8, message: ?[*:0]const u8) callconv(.C) void {
            _ = user_data;
            const l: LogLevel = switch (level) {
                0 => .trace,
                1 => .debug,
                2 => .info,
                3 => .warning,
                else => .err,
            };
            handler(l, std.mem.span(category orelse return), std.mem.span(message orelse return));
        }
    }.call;
}

const dccuda_log = std.log.scoped(.dccuda);

fn toStdLog(level: LogLevel, category: []const u8, message: []const u8) void {
    switch (level) {
        .trace, .debug => dccuda_log.debug("{s}: {s}", .{ category, message }),
        .info => dccuda_log.info("{s}: {s}", .{ category, message }),
        .warning => dccuda_log.warn("{s}: {s}", .{ category, message }),
        .err => dccuda_log.err("{s}: {s}", .{ category, message }),
    }
}

/// Sends dccuda's decisions at `min_level` and above to `handler`, replacing
/// the handler set before (never called again once this returns).
pub fn setLogHandler(min_level: LogLevel, comptime handler: LogHandler) DcError!void {
    try check(c.dc_set_log_callback(@intFromEnum(min_level), thunk(handler), null));
}

/// Sends dccuda's decisions at `min_level` and above to std.log, scope .dccuda
/// (trace and debug as debug).
pub fn logToStd(min_level: LogLevel) DcError!void {
    try setLogHandler(min_level, toStdLog);
}

/// Stops dccuda's log.
pub fn stopLog() DcError!void {
    try check(c.dc_set_log_callback(c.DC_LOG_TRACE, null, null));
}

/// Every live handle of the process as text (dc_handle_report), owned by the
/// caller: a summary line, then one line per handle; "" when none is live.
pub fn handleReportAlloc(allocator: std.mem.Allocator) (DcError || std.mem.Allocator.Error)![]u8 {
    while (true) {
        var length: u64 = 0;
        try check(c.dc_handle_report(null, 0, &length));
        const text = try allocator.alloc(u8, @intCast(length + 256));
        const status = c.dc_handle_report(text.ptr, text.len, &length);
        if (status == .out_of_range) {
            allocator.free(text);
            continue; // handles came meanwhile: ask again
        }
        check(status) catch |e| {
            allocator.free(text);
            return e;
        };
        return allocator.realloc(text, @intCast(length)) catch text[0..@intCast(length)];
    }
}

/// Where NVML was loaded from (static); error.NotSupported, with the reason in
/// lastError(), when telemetry has no NVML.
pub fn telemetryLibrary() DcError![:0]const u8 {
    var p: ?[*:0]const u8 = null;
    try check(c.dc_telemetry_library(&p));
    return std.mem.span(p.?);
}

/// A device's telemetry: the C struct, with the check every field needs.
pub const Telemetry = struct {
    raw: c.dc_device_telemetry,

    /// Whether the field (c.DC_TELEMETRY_FIELD_*) was read.
    pub fn available(self: Telemetry, field: i32) bool {
        return self.reason(field) == c.DC_TELEMETRY_AVAILABLE;
    }

    /// Why the field is unavailable (c.DC_TELEMETRY_*), 0 when it is there,
    /// -1 for an index out of range.
    pub fn reason(self: Telemetry, field: i32) i32 {
        if (field < 0 or field >= self.raw.field_status.len) return -1;
        return self.raw.field_status[@intCast(field)];
    }
};

/// The device's telemetry now, from NVML (dc_device_telemetry_get).
pub fn telemetry(device: *Device) DcError!Telemetry {
    var t = c.dc_device_telemetry{};
    try check(c.dc_device_telemetry_get(device, &t));
    return .{ .raw = t };
}
