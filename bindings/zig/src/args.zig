//! Kernel arguments from Zig values: a tuple such as `.{ n, a, x, y }` becomes
//! an array of dc_arg. A `*Buffer` is passed as its device address, a `BufferAt`
//! as the address plus an offset, an `Arg` as it is, and any other value by
//! its bytes (so its type must have the kernel parameter's size: `u32` for
//! `unsigned`, `f32` for `float`, an `extern struct` for a C struct).

const std = @import("std");
const c = @import("c.zig");
const Buffer = @import("buffer.zig").Buffer;

pub const Arg = c.dc_arg;

/// A buffer's device address plus a byte offset.
pub const BufferAt = struct {
    buffer: *Buffer,
    offset: u64,
};

pub fn at(buffer: *Buffer, offset: u64) BufferAt {
    return .{ .buffer = buffer, .offset = offset };
}

/// The dc_arg for one value; `ptr` must live until the launch call returns
/// (the library copies values when the launch is made or the argument bound).
pub fn toArg(comptime T: type, ptr: *const T) Arg {
    if (T == *Buffer) return Arg.buf(ptr.*);
    if (T == BufferAt) return Arg.bufAt(ptr.buffer, ptr.offset);
    if (T == Arg) return ptr.*;
    switch (@typeInfo(T)) {
        .comptime_int, .comptime_float => @compileError("a kernel argument needs a concrete type: write @as(u32, 5) or @as(f32, 2.0), not a bare literal"),
        .pointer => @compileError("a host pointer (" ++ @typeName(T) ++ ") cannot be a kernel argument: pass a *Buffer, dccuda.at(buffer, offset) or an Arg"),
        .optional => @compileError("an optional (" ++ @typeName(T) ++ ") cannot be a kernel argument: unwrap it"),
        .@"struct" => |s| if (s.layout == .auto)
            @compileError(@typeName(T) ++ " has no defined layout: declare it `extern struct` to pass it to a kernel"),
        else => {},
    }
    return Arg.of(ptr);
}

/// The tuple type holding a copy of each argument as a runtime value.
/// (Arguments known at compile time are comptime fields of the caller's
/// tuple; they have no address, so they are copied here first.)
pub fn Values(comptime T: type) type {
    const info = @typeInfo(T);
    if (info != .@"struct") @compileError("kernel arguments are a tuple such as .{ n, a, x, y }, got " ++ @typeName(T));
    const fields = info.@"struct".fields;
    var types: [fields.len]type = undefined;
    for (fields, 0..) |f, i| {
        switch (@typeInfo(f.type)) {
            .comptime_int, .comptime_float => @compileError("kernel argument " ++ f.name ++ " needs a concrete type: write @as(u32, 5) or @as(f32, 2.0), not a bare literal"),
            else => {},
        }
        types[i] = f.type;
    }
    return std.meta.Tuple(&types);
}

/// A runtime copy of a tuple of arguments, for pack().
pub fn values(tuple: anytype) Values(@TypeOf(tuple)) {
    var out: Values(@TypeOf(tuple)) = undefined;
    inline for (@typeInfo(@TypeOf(tuple)).@"struct".fields, 0..) |f, i| out[i] = @field(tuple, f.name);
    return out;
}

fn ValuesPtr(comptime P: type) type {
    const info = @typeInfo(P);
    if (info != .pointer or info.pointer.size != .One or @typeInfo(info.pointer.child) != .@"struct")
        @compileError("expected a pointer to the result of dccuda.argValues(...), got " ++ @typeName(P));
    return info.pointer.child;
}

/// The number of arguments behind a pointer to values().
pub fn countOf(comptime P: type) usize {
    return @typeInfo(ValuesPtr(P)).@"struct".fields.len;
}

/// The arguments as dc_args: `var v = values(.{ a, x, y, n }); const args = pack(&v);`.
/// Value arguments point into `v`: keep it alive while the dc_args are used.
pub fn pack(vals: anytype) [countOf(@TypeOf(vals))]Arg {
    const fields = @typeInfo(ValuesPtr(@TypeOf(vals))).@"struct".fields;
    var out: [fields.len]Arg = undefined;
    inline for (fields, 0..) |f, i| {
        if (f.is_comptime) @compileError("pack() takes a pointer to dccuda.argValues(...), whose fields have addresses");
        out[i] = toArg(f.type, &vals[i]);
    }
    return out;
}
