//! Kernel arguments from tuples: what each value becomes (no library calls).

const std = @import("std");
const dc = @import("dccuda");

test "a tuple becomes value and buffer arguments" {
    const fake: *dc.Buffer = @ptrFromInt(0x1000);
    const x: f32 = 2.5;
    var vals = dc.argValues(.{ @as(u32, 7), x, fake, dc.at(fake, 16) });
    const packed_args = dc.packArgs(&vals);
    try std.testing.expectEqual(@as(usize, 4), packed_args.len);
    try std.testing.expectEqual(dc.c.DC_ARG_VALUE, packed_args[0].kind);
    try std.testing.expectEqual(@as(u32, 4), packed_args[0].size);
    try std.testing.expectEqual(@as(u32, 7), @as(*const u32, @ptrCast(@alignCast(packed_args[0].value.?))).*);
    try std.testing.expectEqual(@as(f32, 2.5), @as(*const f32, @ptrCast(@alignCast(packed_args[1].value.?))).*);
    try std.testing.expectEqual(dc.c.DC_ARG_BUFFER, packed_args[2].kind);
    try std.testing.expectEqual(@as(u32, 8), packed_args[2].size);
    try std.testing.expectEqual(fake, packed_args[2].buffer.?);
    try std.testing.expectEqual(@as(u64, 16), packed_args[3].offset);
}
