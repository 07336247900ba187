//! Typed Zig callbacks behind the library's `void* user_data` C callbacks:
//! a comptime trampoline per (context type, function) pair.

/// `context` must be a single-item pointer (or null): it travels as user_data.
pub fn toUserData(context: anytype) ?*anyopaque {
    const T = @TypeOf(context);
    switch (@typeInfo(T)) {
        .pointer => |p| {
            if (p.size != .One) @compileError("callback context must be a single-item pointer, got " ++ @typeName(T));
            return @ptrCast(@constCast(context));
        },
        .optional => |o| {
            if (@typeInfo(o.child) != .pointer) @compileError("callback context must be a pointer, got " ++ @typeName(T));
            return if (context) |p| toUserData(p) else null;
        },
        .null => return null,
        else => @compileError("callback context must be a pointer, got " ++ @typeName(T)),
    }
}

/// user_data back as the context's type.
pub fn fromUserData(comptime T: type, user_data: ?*anyopaque) T {
    return switch (@typeInfo(T)) {
        .null => null,
        .optional => if (user_data) |p| @ptrCast(@alignCast(p)) else null,
        else => @ptrCast(@alignCast(user_data.?)),
    };
}
