//! Streams (dc_stream): ordered work queues, host callbacks, graph capture.

const std = @import("std");
const c = @import("c.zig");
const errors = @import("errors.zig");
const callback = @import("callback.zig");
const DcError = errors.DcError;
const check = errors.check;
const Device = @import("device.zig").Device;
const Event = @import("event.zig").Event;
const Graph = @import("graph.zig").Graph;
const Buffer = @import("buffer.zig").Buffer;

/// dc_stream_create flags (non-blocking unless .blocking).
pub const StreamFlags = packed struct(u32) {
    blocking: bool = false,
    _reserved: u31 = 0,
};

/// DC_STREAM_LEGACY / DC_STREAM_PER_THREAD.
pub const DefaultStream = enum(i32) {
    legacy = c.DC_STREAM_LEGACY,
    per_thread = c.DC_STREAM_PER_THREAD,
    _,
};

/// DC_CAPTURE_*.
pub const CaptureMode = enum(i32) {
    global = c.DC_CAPTURE_GLOBAL,
    thread_local = c.DC_CAPTURE_THREAD_LOCAL,
    relaxed = c.DC_CAPTURE_RELAXED,
    _,
};

pub const PriorityRange = struct { least: i32, greatest: i32 };

/// DC_COMPARE_*: how a stream wait compares the value in memory with its operand.
pub const Compare = enum(i32) {
    /// Until (int)(*p - value) >= 0: greater or equal, wrapping.
    geq = c.DC_COMPARE_GEQ,
    /// Until *p == value.
    eq = c.DC_COMPARE_EQ,
    /// Until (*p & value) != 0.
    @"and" = c.DC_COMPARE_AND,
    /// Until ~(*p | value) != 0.
    nor = c.DC_COMPARE_NOR,
};

/// DC_VALUE_* flags of the stream memory operations.
pub const ValueFlags = packed struct(u32) {
    /// A wait: flush the device's outstanding remote writes after it.
    flush: bool = false,
    /// A write: no memory barrier before it.
    no_memory_barrier: bool = false,
    _reserved: u30 = 0,

    comptime {
        std.debug.assert(@as(u32, @bitCast(ValueFlags{ .flush = true })) == c.DC_VALUE_FLUSH);
        std.debug.assert(@as(u32, @bitCast(ValueFlags{ .no_memory_barrier = true })) == c.DC_VALUE_NO_MEMORY_BARRIER);
    }
};

/// One operation of Stream.batchMemOps: `dc.MemOp.wait32(buf, 0, 1, .geq, .{})`,
/// `dc.MemOp.write64(buf, 8, 7, .{})`...
pub const MemOp = c.dc_stream_mem_op;

pub const Stream = opaque {
    /// A new stream; `priority` 0 is the default, lower is higher priority.
    pub fn create(dev: *Device, flags: StreamFlags, priority: i32) DcError!*Stream {
        var s: ?*Stream = null;
        try check(c.dc_stream_create(dev, @bitCast(flags), priority, &s));
        return errors.handle(Stream, s);
    }

    pub fn priorityRange(dev: *Device) DcError!PriorityRange {
        var r = PriorityRange{ .least = 0, .greatest = 0 };
        try check(c.dc_stream_priority_range(dev, &r.least, &r.greatest));
        return r;
    }

    /// A handle for one of the device's default streams (deinit it as any stream).
    pub fn getDefault(dev: *Device, which: DefaultStream) DcError!*Stream {
        var s: ?*Stream = null;
        try check(c.dc_stream_get_default(dev, @intFromEnum(which), &s));
        return errors.handle(Stream, s);
    }

    /// Wrap another library's CUstream without owning it.
    pub fn wrap(dev: *Device, cu_stream: *anyopaque) DcError!*Stream {
        var s: ?*Stream = null;
        try check(c.dc_stream_wrap(dev, cu_stream, &s));
        return errors.handle(Stream, s);
    }

    /// Release the stream; enqueued work still completes.
    pub fn deinit(self: *Stream) void {
        c.dc_stream_release(self);
    }

    pub fn synchronize(self: *Stream) DcError!void {
        try check(c.dc_stream_synchronize(self));
    }

    /// true when all work on the stream has completed.
    pub fn query(self: *Stream) DcError!bool {
        return errors.checkReady(c.dc_stream_query(self));
    }

    pub fn waitEvent(self: *Stream, event: *Event) DcError!void {
        try check(c.dc_stream_wait_event(self, event));
    }

    /// Enqueue `func(context)`: it runs on a driver thread once earlier work
    /// completes and must not enqueue work or synchronise (see
    /// dc_stream_add_callback). `context` is a pointer that must stay valid
    /// until the callback has run.
    pub fn addCallback(self: *Stream, context: anytype, comptime func: fn (@TypeOf(context)) void) DcError!void {
        const Ctx = @TypeOf(context);
        const Trampoline = struct {
            fn call(user_data: ?*anyopaque) callconv(.C) void {
                func(callback.fromUserData(Ctx, user_data));
            }
        };
        try check(c.dc_stream_add_callback(self, Trampoline.call, callback.toUserData(context)));
    }

    /// The C form of addCallback.
    pub fn addCallbackRaw(self: *Stream, func: c.dc_host_fn, user_data: ?*anyopaque) DcError!void {
        try check(c.dc_stream_add_callback(self, func, user_data));
    }

    /// The raw CUstream (0x1 / 0x2 for the default streams).
    pub fn native(self: *Stream) DcError!?*anyopaque {
        var p: ?*anyopaque = null;
        try check(c.dc_stream_native(self, &p));
        return p;
    }

    /// A new handle to the stream's device (deinit it).
    pub fn device(self: *Stream) DcError!*Device {
        var d: ?*Device = null;
        try check(c.dc_stream_device(self, &d));
        return errors.handle(Device, d);
    }

    /// Make later work on the stream wait until the 32-bit value at `offset`
    /// in `buffer` compares with `value` as `compare` says. Returns at once.
    /// The buffer (here and in every stream memory operation): device memory
    /// allocated with `.no_pool = true`, or device-mapped pinned memory; pool
    /// and managed memory are error.NotSupported, as the driver refuses them.
    pub fn waitValue32(self: *Stream, buffer: *Buffer, offset: u64, value: u32, compare: Compare, flags: ValueFlags) DcError!void {
        try check(c.dc_stream_wait_value32(self, buffer, offset, value, @intFromEnum(compare), @bitCast(flags)));
    }

    /// As waitValue32, for the 64-bit value at `offset` (a multiple of 8).
    pub fn waitValue64(self: *Stream, buffer: *Buffer, offset: u64, value: u64, compare: Compare, flags: ValueFlags) DcError!void {
        try check(c.dc_stream_wait_value64(self, buffer, offset, value, @intFromEnum(compare), @bitCast(flags)));
    }

    /// Write the 32-bit `value` at `offset` in `buffer` in stream order.
    pub fn writeValue32(self: *Stream, buffer: *Buffer, offset: u64, value: u32, flags: ValueFlags) DcError!void {
        try check(c.dc_stream_write_value32(self, buffer, offset, value, @bitCast(flags)));
    }

    /// As writeValue32, for a 64-bit value at `offset` (a multiple of 8).
    pub fn writeValue64(self: *Stream, buffer: *Buffer, offset: u64, value: u64, flags: ValueFlags) DcError!void {
        try check(c.dc_stream_write_value64(self, buffer, offset, value, @bitCast(flags)));
    }

    /// Enqueue 1 to 256 memory operations in one driver call, in order; all
    /// are checked first (on any error nothing is enqueued).
    pub fn batchMemOps(self: *Stream, ops: []const MemOp) DcError!void {
        const n = std.math.cast(u32, ops.len) orelse return error.InvalidArgument;
        try check(c.dc_stream_batch_mem_ops(self, if (ops.len == 0) null else ops.ptr, n));
    }

    /// Record the work enqueued from now on into a graph instead of running it.
    pub fn beginCapture(self: *Stream, mode: CaptureMode) DcError!void {
        try check(c.dc_stream_begin_capture(self, @intFromEnum(mode)));
    }

    /// End the capture: the recorded graph (deinit it).
    pub fn endCapture(self: *Stream) DcError!*Graph {
        var g: ?*Graph = null;
        try check(c.dc_stream_end_capture(self, &g));
        return errors.handle(Graph, g);
    }

    pub fn isCapturing(self: *Stream) DcError!bool {
        var v: i32 = 0;
        try check(c.dc_stream_is_capturing(self, &v));
        return v != 0;
    }
};

comptime {
    std.debug.assert(@as(u32, @bitCast(StreamFlags{ .blocking = true })) == c.DC_STREAM_BLOCKING);
}
