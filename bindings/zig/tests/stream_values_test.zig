//! Stream memory operations (writes and waits on values in stream order, one
//! at a time and batched), the device's limits and cache preference, and the
//! 2D/3D copies and fills the rest of the tests do not cover.

const std = @import("std");
const dc = @import("dccuda");
const support = @import("support.zig");
const expectError = support.expectError;
const testing = std.testing;

test "values written in stream order, satisfied waits, a batch, and refused input" {
    try support.withDevice(struct {
        fn run(dev: *dc.Device) !void {
            const stream = try dc.Stream.create(dev, .{}, 0);
            defer stream.deinit();
            // cuMemAlloc memory: the driver's stream memory operations refuse pool memory.
            const buf = try dc.Buffer.alloc(dev, 64, .{ .no_pool = true });
            defer buf.deinit();
            try buf.fill(0, 64, @as(u8, 0));
            stream.writeValue32(buf, 4, 0xabcd1234, .{}) catch |e| return support.fail(e);
            try stream.writeValue64(buf, 8, 0x1122334455667788, .{ .no_memory_barrier = true });
            // Waits whose values are already there never hold the stream.
            try stream.waitValue32(buf, 4, 0xabcd1234, .eq, .{});
            try stream.waitValue64(buf, 8, 0x1122334455667700, .geq, .{});
            try stream.batchMemOps(&.{
                dc.MemOp.wait32(buf, 4, 0x4, .@"and", .{}),
                dc.MemOp.write32(buf, 16, 77, .{}),
                dc.MemOp.write64(buf, 24, 0xffff_0000_ffff, .{}),
                dc.MemOp.wait64(buf, 24, 0xffff_0000_ffff, .eq, .{}),
            });
            try stream.synchronize();
            var got: [8]u64 = undefined;
            try buf.read(0, &got);
            try testing.expectEqual(@as(u64, 0xabcd1234) << 32, got[0]);
            try testing.expectEqual(@as(u64, 0x1122334455667788), got[1]);
            try testing.expectEqual(@as(u64, 77), got[2]);
            try testing.expectEqual(@as(u64, 0xffff_0000_ffff), got[3]);

            try expectError(error.InvalidArgument, stream.writeValue32(buf, 2, 1, .{}), &.{"offset"});
            try expectError(error.InvalidArgument, stream.writeValue64(buf, 4, 1, .{}), &.{"offset"});
            try expectError(error.OutOfRange, stream.waitValue32(buf, 64, 1, .eq, .{}), &.{});
            try expectError(error.InvalidArgument, stream.batchMemOps(&.{}), &.{});
            // A bad operation is named by its index, and nothing of the batch runs.
            try expectError(error.InvalidArgument, stream.batchMemOps(&.{
                dc.MemOp.write32(buf, 32, 5, .{}),
                dc.MemOp.write32(buf, 34, 5, .{}),
            }), &.{"1"});
            try stream.synchronize();
            var word: u32 = 1;
            try buf.read(32, &word);
            try testing.expectEqual(@as(u32, 0), word);
        }
    }.run);
}

test "device limits and the cache preference are set and read back" {
    try support.withDevice(struct {
        fn run(dev: *dc.Device) !void {
            dev.setLimit(.malloc_heap_size, 64 << 20) catch |e| return support.fail(e);
            try testing.expect(try dev.limit(.malloc_heap_size) >= 64 << 20);
            if (support.fake() != null) {
                try dev.setLimit(.printf_fifo_size, 2 << 20);
                try testing.expect(try dev.limit(.printf_fifo_size) >= 2 << 20);
            } else if (dev.setLimit(.printf_fifo_size, 2 << 20)) |_| {
                try testing.expect(try dev.limit(.printf_fifo_size) >= 2 << 20);
            } else |_| {
                // A real driver refuses a new printf FIFO once a kernel that uses
                // printf ran in the context (the cuBLAS, cuFFT and NCCL tests
                // before this one launch the libraries' kernels): dccuda says so.
                try expectError(error.InvalidArgument, dev.setLimit(.printf_fifo_size, 2 << 20),
                    &.{ "DC_LIMIT_PRINTF_FIFO_SIZE", "before the kernels that depend on them" });
            }
            try testing.expect(try dev.limit(.stack_size) > 0);
            try expectError(error.InvalidArgument, dev.limit(@enumFromInt(3)), &.{});
            try testing.expectEqual(dc.CachePreference.none, try dev.cacheConfig());
            try dev.setCacheConfig(.l1);
            // A device with a fixed L1/shared split may keep its own answer; the fake keeps the value.
            if (support.fake() != null) try testing.expectEqual(dc.CachePreference.l1, try dev.cacheConfig());
            try dev.setCacheConfig(.none);
            try expectError(error.InvalidArgument, dev.setCacheConfig(@enumFromInt(9)), &.{});
        }
    }.run);
}

test "2D fills and asynchronous 2D copies, and a 3D copy between pitched buffers" {
    try support.withDevice(struct {
        fn run(dev: *dc.Device) !void {
            const stream = try dc.Stream.create(dev, .{}, 0);
            defer stream.deinit();
            // 4 rows of 16 bytes, 32 bytes apart.
            const b = try dc.Buffer.alloc(dev, 128, .{});
            defer b.deinit();
            try b.fill(0, 128, @as(u8, 0xee));
            try b.fill2d(0, 32, 16, 4, @as(u32, 0x01020304));
            var rows: [128]u8 = undefined;
            try b.read(0, &rows);
            const little_endian = [_]u8{ 4, 3, 2, 1 };
            for (0..4) |r| {
                for (0..16) |i| try testing.expectEqual(little_endian[i % 4], rows[r * 32 + i]);
                for (16..32) |i| try testing.expectEqual(@as(u8, 0xee), rows[r * 32 + i]);
            }
            try b.fill2dAsync(16, 32, 16, 4, @as(u16, 0x0909), stream);
            try expectError(error.InvalidArgument, b.fill2d(0, 8, 16, 4, @as(u8, 0)), &.{});

            var host: [64]u8 = undefined;
            for (&host, 0..) |*v, i| v.* = @intCast(i);
            // Host rows of 16 bytes packed together into the device rows.
            try b.write2dAsync(0, 32, &host, 16, 16, 4, stream);
            var back: [64]u8 = undefined;
            try b.read2dAsync(0, 32, &back, 16, 16, 4, stream);
            try stream.synchronize();
            try testing.expectEqualSlices(u8, &host, &back);
            try b.read(0, &rows);
            for (rows[16..32]) |v| try testing.expectEqual(@as(u8, 9), v);

            // 2 planes of 3 rows of 8 bytes: source rows 16 apart, 4 rows per
            // plane; destination rows 8 apart, 3 rows per plane (packed).
            var src_host: [2 * 4 * 16]u8 = undefined;
            for (&src_host, 0..) |*v, i| v.* = @intCast(i % 251);
            const src = try dc.Buffer.fromSlice(dev, u8, &src_host);
            defer src.deinit();
            const dst = try dc.Buffer.alloc(dev, 2 * 3 * 8, .{});
            defer dst.deinit();
            try dst.copyFrom3d(0, 8, 3, src, 0, 16, 4, 8, 3, 2);
            var packed_rows: [48]u8 = undefined;
            try dst.read(0, &packed_rows);
            for (0..2) |z| {
                for (0..3) |y| {
                    for (0..8) |x| try testing.expectEqual(src_host[z * 64 + y * 16 + x], packed_rows[z * 24 + y * 8 + x]);
                }
            }
            try dst.fill(0, 48, @as(u8, 0));
            try dst.copyFrom3dAsync(0, 8, 3, src, 0, 16, 4, 8, 3, 2, stream);
            try stream.synchronize();
            var again: [48]u8 = undefined;
            try dst.read(0, &again);
            try testing.expectEqualSlices(u8, &packed_rows, &again);
            try expectError(error.InvalidArgument, dst.copyFrom3d(0, 8, 2, src, 0, 16, 4, 8, 3, 2), &.{});
        }
    }.run);
}
