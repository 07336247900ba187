//! The library as a whole, devices, and the error model: statuses, the last
//! error, released and mistyped handles.

const std = @import("std");
const dc = @import("dccuda");
const support = @import("support.zig");
const expectError = support.expectError;
const testing = std.testing;

test "the loaded library is the version the binding was written for" {
    const v = dc.version();
    try testing.expectEqual(dc.binding_version / 1000000, v / 1000000);
    try testing.expect(v >= dc.binding_version);
}

test "every status the binding names has the library's name for it" {
    inline for (@typeInfo(dc.Status).@"enum".fields) |f| {
        const status: dc.Status = @enumFromInt(f.value);
        var expected_buf: [64]u8 = undefined;
        const prefix = if (f.value < 0) "DC_ERROR_" else "DC_";
        const expected = try std.fmt.bufPrint(&expected_buf, "{s}{s}", .{ prefix, f.name });
        _ = std.ascii.upperString(expected[prefix.len..], expected[prefix.len..]);
        try testing.expectEqualStrings(expected, dc.statusName(status));
        if (status != .success) {
            try testing.expectEqual(status, dc.statusFromError(dc.errorFromStatus(status)));
        }
    }
    // A value from a newer library: named by the library, an error here.
    const future: dc.Status = @enumFromInt(-999);
    try testing.expectEqualStrings("DC_STATUS_UNKNOWN", dc.statusName(future));
    try testing.expectEqual(dc.DcError.UnknownStatus, dc.errorFromStatus(future));
}

test "each struct's struct_size default is its own size" {
    inline for (dc.c.structs) |entry| {
        const T = entry[1];
        if (@hasField(T, "struct_size")) {
            const value = T{};
            try testing.expectEqual(@as(u32, @sizeOf(T)), value.struct_size);
        }
    }
}

test "the driver and device 0 describe themselves consistently" {
    try support.withDevice(struct {
        fn run(dev: *dc.Device) !void {
            var line = std.ArrayList(u8).init(testing.allocator);
            defer line.deinit();
            try support.describeDriver(line.writer());
            std.debug.print("{s}\n", .{line.items});

            try testing.expect((try dc.driverVersion()) >= 12000);
            try testing.expect((try dc.driverLibrary()).len > 0);

            const info = try dev.info();
            try testing.expectEqual(@as(i32, 0), info.ordinal);
            try testing.expect(info.nameSlice().len > 0);
            try testing.expect(info.compute_capability_major >= 5);
            try testing.expect(info.total_memory > 0);
            try testing.expect(info.multiprocessor_count > 0);
            // CU_DEVICE_ATTRIBUTE_WARP_SIZE is 10 in cuda.h.
            try testing.expectEqual(info.warp_size, try dev.attribute(10));

            const mem = try dev.memoryInfo();
            try testing.expect(mem.free <= mem.total);
            try testing.expectEqual(info.total_memory, mem.total);

            const native = try dev.native();
            try testing.expect(native.cu_context != null);
            try testing.expect(try dev.canAccessPeer(dev));
            try dev.synchronize();
            try dev.trimMemory(0);

            // Each open is a handle of its own.
            try testing.expectEqual(@as(u64, 1), try dc.handleCount(.device));
            const again = try dc.Device.open(0);
            try testing.expectEqual(@as(u64, 2), try dc.handleCount(.device));
            again.deinit();
            try testing.expectEqual(@as(u64, 1), try dc.handleCount(.device));
        }
    }.run);
}

test "a bad ordinal is error.NoDevice naming the ordinal" {
    try support.requireDevice();
    const n = try dc.Device.count();
    try expectError(error.NoDevice, dc.Device.open(n + 7), &.{"dc_device_open"});
    try expectError(error.NoDevice, dc.Device.open(-1), &.{"-1"});
    try support.expectNoLeaks();
}

test "a released handle is a clean error, and releasing twice does nothing" {
    try support.withDevice(struct {
        fn run(dev: *dc.Device) !void {
            const buf = try dc.Buffer.alloc(dev, 256, .{});
            buf.deinit();
            try expectError(error.InvalidHandle, buf.size(), &.{ "dc_buffer_size", "buffer" });
            try expectError(error.InvalidHandle, buf.write(0, &[_]u8{ 1, 2, 3 }), &.{"dc_buffer_write"});
            buf.deinit();
            // Releases never touch the last error.
            try testing.expectEqual(dc.Status.invalid_handle, dc.lastError().status);

            const stream = try dc.Stream.create(dev, .{}, 0);
            stream.deinit();
            try expectError(error.InvalidHandle, stream.synchronize(), &.{"dc_stream_synchronize"});

            const event = try dc.Event.create(dev, .{});
            event.deinit();
            try expectError(error.InvalidHandle, event.query(), &.{"dc_event_query"});

            const other = try dc.Device.open(0);
            other.deinit();
            try expectError(error.InvalidHandle, other.info(), &.{"dc_device_get_info"});
        }
    }.run);
}

test "a handle of another type is refused, not dereferenced" {
    try support.withDevice(struct {
        fn run(dev: *dc.Device) !void {
            const stream = try dc.Stream.create(dev, .{}, 0);
            defer stream.deinit();
            const as_buffer: *dc.Buffer = @ptrCast(stream);
            try expectError(error.InvalidHandle, as_buffer.size(), &.{"dc_buffer_size"});
            const made_up: *dc.Buffer = @ptrFromInt(0xdead0000);
            try expectError(error.InvalidHandle, made_up.kind(), &.{"dc_buffer_kind"});
        }
    }.run);
}

test "a successful call clears the last error" {
    try support.withDevice(struct {
        fn run(dev: *dc.Device) !void {
            try expectError(error.InvalidArgument, dc.Buffer.alloc(dev, 0, .{}), &.{"dc_buffer_alloc"});
            try testing.expect(dc.lastErrorMessage().len > 0);
            _ = try dev.memoryInfo();
            const last = dc.lastError();
            try testing.expectEqual(dc.Status.success, last.status);
            try testing.expectEqualStrings("", last.message);
            try testing.expectEqual(@as(i32, 0), last.cuda);
        }
    }.run);
}

test "a driver failure carries the raw CUresult (fake driver)" {
    _ = try support.requireFake();
    try support.withDevice(struct {
        fn run(dev: *dc.Device) !void {
            const fk = support.fake().?;
            // CUDA_ERROR_OUT_OF_MEMORY (2) from every cuMemAlloc (the library retries once).
            fk.inject("cuMemAlloc", 1, 2, -1);
            try expectError(error.DeviceOutOfMemory, dc.Buffer.alloc(dev, 1 << 20, .{ .no_pool = true }), &.{ "dc_buffer_alloc", "cuMemAlloc" });
            try testing.expectEqual(@as(i32, 2), dc.lastError().cuda);
            fk.reset();
            // The library stays usable.
            const b = try dc.Buffer.alloc(dev, 1 << 20, .{ .no_pool = true });
            b.deinit();
        }
    }.run);
}
