//! Buffers, copies, fills, streams, events and host callbacks.

const std = @import("std");
const dc = @import("dccuda");
const support = @import("support.zig");
const expectError = support.expectError;
const testing = std.testing;

test "a copy round trip through device memory" {
    try support.withDevice(struct {
        fn run(dev: *dc.Device) !void {
            var data: [1000]f32 = undefined;
            support.randomFloats(&data, 1);
            const a = try dc.Buffer.fromSlice(dev, f32, &data);
            defer a.deinit();
            try testing.expectEqual(@as(u64, 4000), try a.size());
            try testing.expectEqual(dc.BufferKind.device, try a.kind());

            var back: [1000]f32 = undefined;
            try a.read(0, &back);
            try testing.expectEqualSlices(f32, &data, &back);

            // Device to device, at offsets, then part of it back.
            const b = try dc.Buffer.alloc(dev, 4000, .{ .no_pool = true });
            defer b.deinit();
            try b.fill(0, 4000, @as(f32, -3.5));
            try b.copyFrom(400, a, 800, 1200);
            var part: [500]f32 = undefined;
            try b.read(0, &part);
            for (part[0..100]) |x| try testing.expectEqual(@as(f32, -3.5), x);
            try testing.expectEqualSlices(f32, data[200..500], part[100..400]);
            for (part[400..]) |x| try testing.expectEqual(@as(f32, -3.5), x);
            try testing.expectEqual(dc.CopyPath.same_device, try b.copyPath(a));

            // A single value and byte fills.
            try a.write(4, &@as(f32, 9.25));
            var one: f32 = 0;
            try a.read(4, &one);
            try testing.expectEqual(@as(f32, 9.25), one);
            try a.fill(0, 8, @as(u8, 0xab));
            var bytes: [12]u8 = undefined;
            try a.read(0, &bytes);
            try testing.expectEqualSlices(u8, &[_]u8{0xab} ** 8, bytes[0..8]);
            try testing.expectEqualSlices(u8, std.mem.asBytes(&data[2]), bytes[8..12]);

            const owner = try a.device();
            defer owner.deinit();
            try testing.expect((try a.devicePointer()) != 0);
        }
    }.run);
}

test "a copy past the end is error.OutOfRange with the numbers" {
    try support.withDevice(struct {
        fn run(dev: *dc.Device) !void {
            const b = try dc.Buffer.alloc(dev, 1024, .{});
            defer b.deinit();
            const src = [_]u8{0} ** 16;
            try expectError(error.OutOfRange, b.write(1020, &src), &.{ "dc_buffer_write", "1024" });
            var dst: [16]u8 = undefined;
            try expectError(error.OutOfRange, b.read(1016, &dst), &.{ "dc_buffer_read", "1024" });
            try expectError(error.InvalidArgument, b.fill(1, 4, @as(u32, 7)), &.{"dc_buffer_fill"});
        }
    }.run);
}

test "pinned, registered and managed host memory" {
    try support.withDevice(struct {
        fn run(dev: *dc.Device) !void {
            const pinned = try dc.Buffer.allocPinned(dev, 64 * @sizeOf(u32), .{});
            defer pinned.deinit();
            try testing.expectEqual(dc.BufferKind.pinned, try pinned.kind());
            const host = try pinned.hostSlice(u32);
            try testing.expectEqual(@as(usize, 64), host.len);
            for (host, 0..) |*x, i| x.* = @intCast(i * 3);

            const devbuf = try dc.Buffer.alloc(dev, 64 * @sizeOf(u32), .{});
            defer devbuf.deinit();
            try devbuf.copyFrom(0, pinned, 0, 64 * @sizeOf(u32));
            try testing.expectEqual(dc.CopyPath.host, try devbuf.copyPath(pinned));

            // The caller's own memory, registered.
            const page = std.mem.page_size;
            const mine = try std.heap.page_allocator.alignedAlloc(u32, page, page / @sizeOf(u32));
            defer std.heap.page_allocator.free(mine);
            @memset(mine, 0);
            const registered = try dc.Buffer.registerHost(dev, mine, .{});
            defer registered.deinit();
            try testing.expectEqual(dc.BufferKind.registered_host, try registered.kind());
            try registered.copyFrom(0, devbuf, 0, 64 * @sizeOf(u32));
            for (mine[0..64], 0..) |x, i| try testing.expectEqual(@as(u32, @intCast(i * 3)), x);

            const managed = dc.Buffer.allocManaged(dev, 256, .{}) catch |e| switch (e) {
                error.NotSupported => return, // a device without managed memory
                else => return support.fail(e),
            };
            defer managed.deinit();
            const m = try managed.hostSlice(u8);
            @memset(m, 0x5a);
            var seen: [256]u8 = undefined;
            try managed.read(0, &seen);
            try testing.expectEqualSlices(u8, &[_]u8{0x5a} ** 256, &seen);
        }
    }.run);
}

const Counter = struct {
    calls: std.atomic.Value(u32) = std.atomic.Value(u32).init(0),
    fn bump(self: *Counter) void {
        _ = self.calls.fetchAdd(1, .seq_cst);
    }
};

test "stream-ordered copies, events and a host callback" {
    try support.withDevice(struct {
        fn run(dev: *dc.Device) !void {
            const range = try dc.Stream.priorityRange(dev);
            try testing.expect(range.greatest <= range.least);
            const stream = try dc.Stream.create(dev, .{}, range.greatest);
            defer stream.deinit();
            const start = try dc.Event.create(dev, .{});
            defer start.deinit();
            const end = try dc.Event.create(dev, .{ .blocking_sync = true });
            defer end.deinit();

            var data: [4096]f32 = undefined;
            support.randomFloats(&data, 2);
            const buf = try dc.Buffer.allocAsync(stream, @sizeOf(@TypeOf(data)), .{});
            defer buf.deinit();

            var counter = Counter{};
            try start.record(stream);
            try buf.writeAsync(0, &data, stream);
            try buf.fillAsync(0, 16, @as(f32, 1.0), stream);
            var back: [4096]f32 = undefined;
            try buf.readAsync(0, &back, stream);
            try stream.addCallback(&counter, Counter.bump);
            try end.record(stream);
            try stream.synchronize();

            try testing.expect(try stream.query());
            try testing.expect(try end.query());
            try testing.expectEqual(@as(u32, 1), counter.calls.load(.seq_cst));
            for (back[0..4]) |x| try testing.expectEqual(@as(f32, 1.0), x);
            try testing.expectEqualSlices(f32, data[4..], back[4..]);
            try testing.expect((try dc.Event.elapsedMs(start, end)) >= 0);

            // Another stream waits for the first through an event.
            const other = try dc.Stream.create(dev, .{ .blocking = true }, 0);
            defer other.deinit();
            try other.waitEvent(end);
            try other.synchronize();
            const owner = try other.device();
            owner.deinit();
            try testing.expect((try stream.native()) != null);
            try testing.expect((try end.native()) != null);

            const legacy = try dc.Stream.getDefault(dev, .legacy);
            defer legacy.deinit();
            try legacy.synchronize();
        }
    }.run);
}

test "views and 2D copies of tiles" {
    try support.withDevice(struct {
        fn run(dev: *dc.Device) !void {
            var data: [100]u32 = undefined;
            for (&data, 0..) |*x, i| x.* = @intCast(i);
            const parent = try dc.Buffer.fromSlice(dev, u32, &data);
            defer parent.deinit();
            const view = try parent.slice(40, 80);
            defer view.deinit();
            try testing.expectEqual(@as(u64, 80), try view.size());
            try testing.expectEqual((try parent.devicePointer()) + 40, try view.devicePointer());
            var got: [20]u32 = undefined;
            try view.read(0, &got);
            try testing.expectEqualSlices(u32, data[10..30], &got);
            try expectError(error.OutOfRange, view.write(76, &[_]u32{ 1, 2 }), &.{ "dc_buffer_write", "80" });

            // A 5 x 3 block of bytes (host rows 6 apart) into a pitched buffer, on to a
            // buffer with rows 11 apart, and back.
            var pitch: u64 = 0;
            const m = try dc.Buffer.allocPitched(dev, 13, 7, 4, &pitch);
            defer m.deinit();
            try testing.expect(pitch >= 13);
            var host: [18]u8 = undefined;
            for (&host, 0..) |*x, i| x.* = @intCast(i * 7 + 1);
            try m.write2d(2 * pitch + 4, pitch, &host, 6, 5, 3);
            const other = try dc.Buffer.alloc(dev, 11 * 9, .{});
            defer other.deinit();
            try other.fill(0, 11 * 9, @as(u8, 0));
            try other.copyFrom2d(11 + 2, 11, m, 2 * pitch + 4, pitch, 5, 3);
            var back: [15]u8 = undefined;
            try other.read2d(11 + 2, 11, &back, 5, 5, 3);
            for (0..3) |r| {
                for (0..5) |col| try testing.expectEqual(host[r * 6 + col], back[r * 5 + col]);
            }
            try expectError(error.OutOfRange, other.copyFrom2d(8 * 11, 11, m, 0, pitch, 5, 2), &.{ "dc_buffer_copy_2d", "row 1" });
        }
    }.run);
}
