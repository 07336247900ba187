//! cuBLAS through the binding: a GEMM against a CPU reference, the level-1/2
//! calls, and a matrix past its buffer refused naming it (the fake cuBLAS in
//! CI; skipped where no cuBLAS is found).

const std = @import("std");
const dc = @import("dccuda");
const support = @import("support.zig");
const expectError = support.expectError;
const testing = std.testing;

fn blasOrSkip(dev: *dc.Device) !?*dc.Blas {
    return dc.Blas.create(dev, null) catch |err| {
        if (err == error.NotSupported) {
            std.debug.print("SKIPPED: no cuBLAS: {s}\n", .{dc.lastErrorMessage()});
            return null;
        }
        return err;
    };
}

test "gemm and the level-1/2 calls" {
    try support.withDevice(struct {
        fn run(dev: *dc.Device) !void {
            const blas = (try blasOrSkip(dev)) orelse return;
            defer blas.deinit();
            const a = try dc.Buffer.alloc(dev, 4 * 4 * 8, .{});
            defer a.deinit();
            const b = try dc.Buffer.alloc(dev, 4 * 4 * 8, .{});
            defer b.deinit();
            const cm = try dc.Buffer.alloc(dev, 4 * 4 * 8, .{});
            defer cm.deinit();
            var av: [16]f64 = undefined;
            var bv: [16]f64 = undefined;
            for (0..16) |i| {
                av[i] = @as(f64, @floatFromInt(i % 5)) - 2.0;
                bv[i] = @as(f64, @floatFromInt(i % 3)) * 0.5;
            }
            try a.write(0, &av);
            try b.write(0, &bv);
            var d = dc.GemmDesc{};
            d.ab_type = dc.c.DC_BLAS_F64;
            d.c_type = dc.c.DC_BLAS_F64;
            d.m = 4;
            d.n = 4;
            d.k = 4;
            d.a_buffer = a;
            d.lda = 4;
            d.b_buffer = b;
            d.ldb = 4;
            d.c_buffer = cm;
            d.ldc = 4;
            d.alpha = 2.0;
            try blas.gemm(&d);
            try dev.synchronize();
            var got: [16]f64 = undefined;
            try cm.read(0, &got);
            for (0..4) |j| for (0..4) |i| {
                var s: f64 = 0;
                for (0..4) |p| s += av[i + p * 4] * bv[p + j * 4];
                try testing.expectApproxEqAbs(2.0 * s, got[i + j * 4], 1e-12);
            };
            d.ldb = 5; // B now needs 19 doubles: past its buffer
            try expectError(error.OutOfRange, blas.gemm(&d), &.{"B (desc->b_buffer) needs"});

            const ones = [4]f32{ 1, 1, 1, 1 };
            const xs = [4]f32{ 1, 2, 3, 4 };
            try a.write(0, &xs);
            try b.write(0, &ones);
            try testing.expectEqual(@as(f64, 10), try blas.dot(f32, 4, a, 1, b, 1));
            try blas.axpy(f32, 4, 2.0, a, 1, b, 1);
            try blas.scal(f32, 4, 0.5, b, 1);
            try dev.synchronize();
            var y: [4]f32 = undefined;
            try b.read(0, &y);
            try testing.expectEqualSlices(f32, &.{ 1.5, 2.5, 3.5, 4.5 }, &y);
            try testing.expectApproxEqAbs(@sqrt(30.0), try blas.nrm2(f32, 4, a, 1), 1e-6);
            try expectError(error.InvalidArgument, blas.axpy(f32, 4, 1.0, a, 0, b, 1), &.{"incx is 0"});
            try testing.expect((try dc.blasLibraryVersion()) >= 120000);
        }
    }.run);
}
