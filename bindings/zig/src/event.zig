//! Events (dc_event): markers in a stream, for ordering and timing.

const std = @import("std");
const c = @import("c.zig");
const errors = @import("errors.zig");
const DcError = errors.DcError;
const check = errors.check;
const Device = @import("device.zig").Device;
const Stream = @import("stream.zig").Stream;

/// dc_event_create flags.
pub const EventFlags = packed struct(u32) {
    disable_timing: bool = false,
    blocking_sync: bool = false,
    /// Shareable with other processes (exportIpc); needs disable_timing too.
    interprocess: bool = false,
    _reserved: u29 = 0,
};

pub const Event = opaque {
    pub fn create(device: *Device, flags: EventFlags) DcError!*Event {
        var e: ?*Event = null;
        try check(c.dc_event_create(device, @bitCast(flags), &e));
        return errors.handle(Event, e);
    }

    pub fn deinit(self: *Event) void {
        c.dc_event_release(self);
    }

    /// Export an .interprocess event for another process (importIpc there).
    pub fn exportIpc(self: *Event) DcError![c.DC_IPC_HANDLE_SIZE]u8 {
        var h: [c.DC_IPC_HANDLE_SIZE]u8 = undefined;
        try check(c.dc_event_export_ipc(self, &h, h.len));
        return h;
    }

    /// Import an event another process exported: waiting on it waits for the
    /// exporter's last record.
    pub fn importIpc(device: *Device, handle: *const [c.DC_IPC_HANDLE_SIZE]u8) DcError!*Event {
        var e: ?*Event = null;
        try check(c.dc_event_import_ipc(device, handle, handle.len, &e));
        return errors.handle(Event, e);
    }

    /// Record the event at the current end of `stream`.
    pub fn record(self: *Event, stream: *Stream) DcError!void {
        try check(c.dc_event_record(self, stream));
    }

    pub fn synchronize(self: *Event) DcError!void {
        try check(c.dc_event_synchronize(self));
    }

    /// true when the recorded work has completed.
    pub fn query(self: *Event) DcError!bool {
        return errors.checkReady(c.dc_event_query(self));
    }

    /// Milliseconds from `start` to `end` (both recorded and completed).
    pub fn elapsedMs(start: *Event, end: *Event) DcError!f32 {
        var ms: f32 = 0;
        try check(c.dc_event_elapsed_ms(start, end, &ms));
        return ms;
    }

    pub fn native(self: *Event) DcError!?*anyopaque {
        var p: ?*anyopaque = null;
        try check(c.dc_event_native(self, &p));
        return p;
    }
};

comptime {
    std.debug.assert(@as(u32, @bitCast(EventFlags{ .disable_timing = true })) == c.DC_EVENT_DISABLE_TIMING);
    std.debug.assert(@as(u32, @bitCast(EventFlags{ .blocking_sync = true })) == c.DC_EVENT_BLOCKING_SYNC);
}
