//! Status codes as Zig errors, and the calling thread's last error.
//!
//! Every wrapper turns a failing dc_status into a DcError. The library keeps
//! the details (message, log, raw CUresult / nvrtcResult) per thread until the
//! next dc_ call on that thread: read them with lastError() right after the
//! failure, before calling anything else of dccuda. Releases (deinit) never
//! touch the last error, so `errdefer x.deinit()` keeps it intact.

const std = @import("std");
const c = @import("c.zig");

const status_map = @import("status.zig");

pub const Status = status_map.Status;
/// One error per DC_ERROR_* status, NotReady and UnknownStatus (status.zig, generated
/// from the header's status family).
pub const DcError = status_map.DcError;
/// The error for a status that is not success (status.zig).
pub const errorFromStatus = status_map.errorFromStatus;
/// The status an error stands for; UnknownStatus gives DC_ERROR_INTERNAL (status.zig).
pub const statusFromError = status_map.statusFromError;

/// DC_SUCCESS or the matching error.
pub inline fn check(status: Status) DcError!void {
    if (status != .success) return errorFromStatus(status);
}

/// For the queries (dc_stream_query, dc_event_query): true when the work has
/// completed, false for DC_NOT_READY.
pub inline fn checkReady(status: Status) DcError!bool {
    return switch (status) {
        .success => true,
        .not_ready => false,
        else => errorFromStatus(status),
    };
}

/// The status's name ("DC_ERROR_OUT_OF_RANGE"; "DC_STATUS_UNKNOWN" for a value
/// the library does not know). Static storage.
pub fn statusName(status: Status) [:0]const u8 {
    return std.mem.span(c.dc_status_name(status));
}

/// The calling thread's last failure. The strings belong to the library and
/// stay valid until the next dc_ call on this thread: copy them to keep them.
pub const LastError = struct {
    status: Status,
    /// "<function>: <what was wrong>; <what to do>"; "" after a success.
    message: [:0]const u8,
    /// The long log that belongs to the failure (the whole NVRTC log after
    /// error.Compile, the JIT log after error.InvalidImage), else "".
    detail: [:0]const u8,
    /// The raw CUresult behind the failure, 0 if it did not come from the driver.
    cuda: i32,
    /// The raw nvrtcResult behind the failure, 0 if it did not come from NVRTC.
    nvrtc: i32,

    pub fn format(self: LastError, comptime fmt: []const u8, options: std.fmt.FormatOptions, writer: anytype) !void {
        _ = fmt;
        _ = options;
        try writer.print("{s}: {s}", .{ statusName(self.status), self.message });
        if (self.cuda != 0) try writer.print(" (CUresult {d})", .{self.cuda});
        if (self.nvrtc != 0) try writer.print(" (nvrtcResult {d})", .{self.nvrtc});
    }
};

/// An owned copy of a LastError: its strings belong to the caller's allocator
/// and outlive any later dc_ call. Release with deinit(allocator).
pub const OwnedLastError = struct {
    status: Status,
    message: [:0]u8,
    detail: [:0]u8,
    cuda: i32,
    nvrtc: i32,

    pub fn deinit(self: OwnedLastError, allocator: std.mem.Allocator) void {
        allocator.free(self.message);
        allocator.free(self.detail);
    }

    /// The borrowed view, for printing ("{}") and comparisons.
    pub fn view(self: *const OwnedLastError) LastError {
        return .{ .status = self.status, .message = self.message, .detail = self.detail, .cuda = self.cuda, .nvrtc = self.nvrtc };
    }
};

/// Copies the calling thread's last error into memory of `allocator`, to keep
/// it past the next dc_ call (a log, a report to another thread).
pub fn lastErrorAlloc(allocator: std.mem.Allocator) std.mem.Allocator.Error!OwnedLastError {
    const last = lastError();
    const message = try allocator.dupeZ(u8, last.message);
    errdefer allocator.free(message);
    const detail = try allocator.dupeZ(u8, last.detail);
    return .{ .status = last.status, .message = message, .detail = detail, .cuda = last.cuda, .nvrtc = last.nvrtc };
}

/// A library string (valid until the next call or the handle's release) copied
/// into memory of `allocator`: what the `...Alloc` variants return. Free it
/// with `allocator.free`. DcError and Allocator.Error do not share a name
/// (the library's is error.DeviceOutOfMemory), so the union tells them apart.
pub fn dupe(allocator: std.mem.Allocator, borrowed: DcError![:0]const u8) AllocError![:0]u8 {
    return allocator.dupeZ(u8, try borrowed);
}

/// The errors of the `...Alloc` variants: the library's, or the allocator's OutOfMemory.
pub const AllocError = DcError || std.mem.Allocator.Error;

/// The calling thread's last error (see LastError for how long it is valid).
pub fn lastError() LastError {
    return .{
        .status = c.dc_last_error_status(),
        .message = std.mem.span(c.dc_last_error_message()),
        .detail = std.mem.span(c.dc_last_error_detail()),
        .cuda = c.dc_last_error_cuda(),
        .nvrtc = c.dc_last_error_nvrtc(),
    };
}

/// Just the message of the calling thread's last error ("" if none).
pub fn lastErrorMessage() [:0]const u8 {
    return std.mem.span(c.dc_last_error_message());
}

/// A library-owned string out-parameter as a slice ("" for NULL, which the
/// library never returns on success).
pub fn span(p: ?[*:0]const u8) [:0]const u8 {
    return if (p) |s| std.mem.span(s) else "";
}

/// The handle a successful call wrote; the library sets it on DC_SUCCESS, so
/// null here would be a library bug, reported as such rather than crashing.
pub fn handle(comptime T: type, p: ?*T) DcError!*T {
    return p orelse error.Internal;
}
