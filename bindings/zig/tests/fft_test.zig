//! cuFFT through the binding (the fake cuFFT in CI): a round trip scales by n,
//! a short buffer is refused naming the bytes, a released plan is reused.

const std = @import("std");
const dc = @import("dccuda");
const support = @import("support.zig");
const testing = std.testing;

fn requireCufft() !void {
    _ = dc.cufftVersion() catch return error.SkipZigTest;
}

test "a cuFFT round trip scales by n" {
    try requireCufft();
    try support.withDevice(struct {
        fn run(dev: *dc.Device) !void {
            // Released plans wait in the cache with their work areas: give them back
            // before withDevice counts the fake driver's allocations.
            defer dc.FftPlan.trimCache(dev, 0) catch {};
            const plan = try dc.FftPlan.create(dev, .c2c, .double, &.{ 4, 6 }, 2);
            defer plan.deinit();
            var x: [48]dc.ComplexF64 = undefined;
            for (&x, 0..) |*v, i| v.* = .{ .re = @floatFromInt(i % 5), .im = @floatFromInt(i % 3) };
            const a = try dc.Buffer.alloc(dev, @sizeOf(@TypeOf(x)), .{});
            defer a.deinit();
            const b = try dc.Buffer.alloc(dev, @sizeOf(@TypeOf(x)), .{});
            defer b.deinit();
            try a.write(0, &x);
            try plan.execute(a, 0, b, 0, .forward);
            try plan.execute(b, 0, a, 0, .inverse);
            try dev.synchronize();
            var y: [48]dc.ComplexF64 = undefined;
            try a.read(0, &y);
            for (x, y) |u, v| {
                try testing.expectApproxEqAbs(24 * u.re, v.re, 1e-9);
                try testing.expectApproxEqAbs(24 * u.im, v.im, 1e-9);
            }
            try testing.expectEqual(@as(u64, 768), (try plan.info()).input_bytes);
        }
    }.run);
}

test "a short cuFFT buffer is refused and a released plan is reused" {
    try requireCufft();
    try support.withDevice(struct {
        fn run(dev: *dc.Device) !void {
            try dc.FftPlan.trimCache(dev, 0);
            defer dc.FftPlan.trimCache(dev, 0) catch {};
            const plan = try dc.FftPlan.create(dev, .r2c, .single, &.{8}, 1);
            const short = try dc.Buffer.alloc(dev, 28, .{});
            defer short.deinit();
            const out = try dc.Buffer.alloc(dev, 40, .{});
            defer out.deinit();
            try support.expectError(error.OutOfRange, plan.execute(short, 0, out, 0, .forward),
                &.{"the input needs 32 bytes from in_offset 0, but in holds 28 bytes"});
            try testing.expectEqual(@as(i32, 0), (try plan.info()).reused);
            plan.deinit();
            const again = try dc.FftPlan.create(dev, .r2c, .single, &.{8}, 1);
            defer again.deinit();
            try testing.expectEqual(@as(i32, 1), (try again.info()).reused);
        }
    }.run);
}
