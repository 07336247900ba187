//! Prepared launches (dc_launch): a function, a configuration and bound
//! arguments, checked once, then enqueued as often as needed.

const std = @import("std");
const c = @import("c.zig");
const errors = @import("errors.zig");
const args_mod = @import("args.zig");
const DcError = errors.DcError;
const check = errors.check;
const Function = @import("function.zig").Function;
const Stream = @import("stream.zig").Stream;

const LaunchConfig = c.dc_launch_config;
const Arg = c.dc_arg;

pub const Launch = opaque {
    /// A prepared launch with no arguments bound yet.
    pub fn create(function: *Function, config: LaunchConfig) DcError!*Launch {
        var l: ?*Launch = null;
        try check(c.dc_launch_create(function, &config, &l));
        return errors.handle(Launch, l);
    }

    /// Release the launch and the references it holds (function, buffers).
    pub fn deinit(self: *Launch) void {
        c.dc_launch_release(self);
    }

    pub fn setConfig(self: *Launch, config: LaunchConfig) DcError!void {
        try check(c.dc_launch_set_config(self, &config));
    }

    /// Bind argument `index` to one value (a *Buffer, dccuda.at(...), an Arg,
    /// or a value passed by its bytes). Values are copied.
    pub fn setArg(self: *Launch, index: u32, value: anytype) DcError!void {
        var vals = args_mod.values(.{value});
        const packed_args = args_mod.pack(&vals);
        const arg = packed_args[0];
        try check(c.dc_launch_set_arg(self, index, &arg));
    }

    /// Bind every argument from a tuple: `try l.setArgs(.{ n, a, x, y })`.
    pub fn setArgs(self: *Launch, args: anytype) DcError!void {
        var vals = args_mod.values(args);
        const packed_args = args_mod.pack(&vals);
        try self.setArgsSlice(&packed_args);
    }

    pub fn setArgsSlice(self: *Launch, args: []const Arg) DcError!void {
        const n = std.math.cast(u32, args.len) orelse return error.InvalidArgument;
        try check(c.dc_launch_set_args(self, args.ptr, n));
    }

    /// Enqueue on `stream` (every argument must be bound).
    pub fn enqueue(self: *Launch, stream: *Stream) DcError!void {
        try check(c.dc_launch_enqueue(self, stream));
    }

    /// Enqueue every launch of `launches` on `stream`, in order, in one call
    /// (dc_launch_enqueue_batch): one validation pass for all of them; a launch
    /// may appear more than once. A bad launch refuses the whole batch and
    /// nothing is enqueued (the message names its index, "launches[3]"); a
    /// driver failure half way says how many were enqueued before it.
    pub fn enqueueBatch(launches: []const *Launch, stream: *Stream) DcError!void {
        const n = std.math.cast(u32, launches.len) orelse return error.InvalidArgument;
        const ptr: ?[*]const ?*Launch = if (n == 0) null else @ptrCast(launches.ptr);
        try check(c.dc_launch_enqueue_batch(ptr, n, stream));
    }
};
