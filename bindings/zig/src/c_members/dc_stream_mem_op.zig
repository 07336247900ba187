//! Members of dc_stream_mem_op, copied into the generated struct in ../c.zig by abi/gen.py
//! (Zig has no methods outside a type's declaration). Written by hand: one constructor per
//! DC_MEM_OP_* kind, taking what the single call (Stream.waitValue32...) takes.

/// Wait until the 32-bit value at `offset` compares with `value` as `compare` says.
pub fn wait32(buffer: *Buffer, offset: u64, value: u32, compare: @import("stream.zig").Compare, flags: @import("stream.zig").ValueFlags) dc_stream_mem_op {
    return .{ .kind = DC_MEM_OP_WAIT32, .compare = @intFromEnum(compare), .flags = @bitCast(flags), .buffer = buffer, .offset = offset, .value = value };
}
/// As wait32, for the 64-bit value at `offset`.
pub fn wait64(buffer: *Buffer, offset: u64, value: u64, compare: @import("stream.zig").Compare, flags: @import("stream.zig").ValueFlags) dc_stream_mem_op {
    return .{ .kind = DC_MEM_OP_WAIT64, .compare = @intFromEnum(compare), .flags = @bitCast(flags), .buffer = buffer, .offset = offset, .value = value };
}
/// Write the 32-bit `value` at `offset`.
pub fn write32(buffer: *Buffer, offset: u64, value: u32, flags: @import("stream.zig").ValueFlags) dc_stream_mem_op {
    return .{ .kind = DC_MEM_OP_WRITE32, .flags = @bitCast(flags), .buffer = buffer, .offset = offset, .value = value };
}
/// Write the 64-bit `value` at `offset`.
pub fn write64(buffer: *Buffer, offset: u64, value: u64, flags: @import("stream.zig").ValueFlags) dc_stream_mem_op {
    return .{ .kind = DC_MEM_OP_WRITE64, .flags = @bitCast(flags), .buffer = buffer, .offset = offset, .value = value };
}
