const std = @import("std");
const dc = @import("dccuda");
test "a" {
    var fake: *dc.Buffer = @ptrFromInt(0x1000);
    var args = .{ dc.at(fake, 16) };
    const p = dc.packArgs(&args);
    try std.testing.expectEqual(@as(usize, 1), p.len);
}
