//! A user's program: opens device 0, round-trips data through device memory,
//! and reports a failure with the library's message. Prints
//! "consumer (Zig package): OK" when every element came back.

const std = @import("std");
const dc = @import("dccuda");

pub fn main() !void {
    var gpa = std.heap.GeneralPurposeAllocator(.{}){};
    defer _ = gpa.deinit();
    const allocator = gpa.allocator();

    const dev = dc.Device.open(0) catch |err| return report(allocator, err);
    defer dev.deinit();
    const data = try allocator.alloc(u32, 4096);
    defer allocator.free(data);
    for (data, 0..) |*x, i| x.* = @intCast(i * 3 + 1);
    const buf = dc.Buffer.fromSlice(dev, u32, data) catch |err| return report(allocator, err);
    defer buf.deinit();
    const back = try allocator.alloc(u32, data.len);
    defer allocator.free(back);
    buf.read(0, back) catch |err| return report(allocator, err);
    if (!std.mem.eql(u32, data, back)) return error.RoundTripMismatch;

    // The library's errors and the allocator's stay apart in one error set.
    const info = dev.info() catch |err| return report(allocator, err);
    const stdout = std.io.getStdOut().writer();
    try stdout.print("consumer (Zig package): device \"{s}\", dccuda {d}.{d}\n", .{ info.nameSlice(), dc.c.DCCUDA_VERSION_MAJOR, dc.c.DCCUDA_VERSION_MINOR });
    try stdout.print("consumer (Zig package): OK\n", .{});
}

fn report(allocator: std.mem.Allocator, err: anyerror) anyerror {
    const last = try dc.lastErrorAlloc(allocator);
    defer last.deinit(allocator);
    std.debug.print("consumer: error.{s}: {}\n", .{ @errorName(err), last.view() });
    return err;
}
