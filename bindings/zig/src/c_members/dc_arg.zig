//! Members of dc_arg, copied into the generated struct in ../c.zig by abi/gen.py (Zig has no
//! methods outside a type's declaration). Written by hand.

/// DC_ARG_VALUE_OF(ptr): the bytes of `*ptr`, copied when the launch is
/// made (or the argument bound); `ptr` only has to live until then.
pub fn of(ptr: anytype) dc_arg {
    const T = @typeInfo(@TypeOf(ptr)).pointer.child;
    return .{ .kind = DC_ARG_VALUE, .size = @sizeOf(T), .value = @ptrCast(ptr) };
}
/// DC_ARG_BUFFER_OF(buf): the buffer's device address.
pub fn buf(buffer: *Buffer) dc_arg {
    return .{ .kind = DC_ARG_BUFFER, .size = 8, .buffer = buffer };
}
/// DC_ARG_BUFFER_AT(buf, off): the buffer's device address + `offset` bytes.
pub fn bufAt(buffer: *Buffer, offset: u64) dc_arg {
    return .{ .kind = DC_ARG_BUFFER, .size = 8, .buffer = buffer, .offset = offset };
}
