//! Pools you control, growable buffers and IPC refusals.

const std = @import("std");
const dc = @import("dccuda");
const support = @import("support.zig");
const expectError = support.expectError;
const testing = std.testing;

const mib: u64 = 1 << 20;

test "pool statistics move with allocations" {
    try support.withDevice(struct {
        fn run(dev: *dc.Device) !void {
            const pool = try dc.Pool.create(dev, 0, .{});
            defer pool.deinit();
            try pool.setAttribute(.release_threshold, std.math.maxInt(u64));
            try testing.expectEqual(std.math.maxInt(u64), try pool.attribute(.release_threshold));
            try testing.expectEqual(@as(u64, 0), (try pool.stats()).used_current);
            const a = try pool.alloc(null, 3 * mib);
            defer a.deinit();
            const b = try pool.alloc(null, 5 * mib);
            const both = try pool.stats();
            try testing.expect(both.used_current >= 8 * mib);
            try testing.expect(both.reserved_current >= both.used_current);
            b.deinit();
            try dev.synchronize();
            const after = try pool.stats();
            try testing.expect(after.used_current < both.used_current);
            try testing.expectEqual(both.used_current, after.used_high);
            try pool.resetHighWater();
            const reset = try pool.stats();
            try testing.expectEqual(reset.used_current, reset.used_high);
            try expectError(error.InvalidArgument, pool.setAttribute(.reuse_allow_opportunistic, 2), &.{"is not 0 or 1"});
            _ = try dev.poolStats();
        }
    }.run);
}

test "a growable buffer keeps its address and data" {
    try support.withDevice(struct {
        fn run(dev: *dc.Device) !void {
            const g = try dev.allocationGranularity(false);
            const buf = try dc.Buffer.allocGrowable(dev, 8 * g, 1);
            defer buf.deinit();
            try testing.expectEqual(g, try buf.size());
            try testing.expectEqual(8 * g, try buf.reservedSize());
            const address = try buf.devicePointer();
            var data: [1024]f32 = undefined;
            support.randomFloats(&data, 7);
            try buf.write(g - 4096, &data);
            try buf.grow(3 * g + 1);
            try testing.expectEqual(4 * g, try buf.size());
            try testing.expectEqual(address, try buf.devicePointer());
            var back: [1024]f32 = undefined;
            try buf.read(g - 4096, &back);
            try testing.expectEqualSlices(f32, &data, &back);
            // Across the boundary between the two grows' memory.
            try buf.write(g - 2048, &data);
            try buf.read(g - 2048, &back);
            try testing.expectEqualSlices(f32, &data, &back);
            try expectError(error.OutOfRange, buf.grow(8 * g + 1), &.{"reserved for the buffer"});
        }
    }.run);
}

test "only shareable memory is exported" {
    try support.withDevice(struct {
        fn run(dev: *dc.Device) !void {
            const pooled = try dc.Buffer.alloc(dev, 4096, .{});
            defer pooled.deinit();
            try expectError(error.NotSupported, pooled.exportIpc(), &.{"DC_ALLOC_NO_POOL"});
            const plain = try dc.Buffer.alloc(dev, 4096, .{ .no_pool = true });
            defer plain.deinit();
            _ = try plain.exportIpc();
            const ev = try dc.Event.create(dev, .{ .disable_timing = true, .interprocess = true });
            defer ev.deinit();
            _ = try ev.exportIpc();
            const junk = [_]u8{0} ** dc.c.DC_IPC_HANDLE_SIZE;
            try expectError(error.InvalidArgument, dc.Buffer.importIpc(dev, &junk), &.{"not the bytes of an exported buffer"});
        }
    }.run);
}

// The fake models both sides in one process (its imports are the exporter's
// own memory); two real processes are the C++ GPU suite's.
test "a pool and its buffer round trip in one process on the fake" {
    if (@import("builtin").os.tag != .linux) return error.SkipZigTest;
    _ = try support.requireFake();
    try support.withDevice(struct {
        fn run(dev: *dc.Device) !void {
            const pool = try dc.Pool.create(dev, 0, .{ .exportable = true });
            defer pool.deinit();
            const owner = try pool.alloc(null, 1024);
            defer owner.deinit();
            var data: [256]u32 = undefined;
            for (&data, 0..) |*v, i| v.* = @intCast(i * 3);
            try owner.write(0, &data);
            const pool_bytes = try pool.exportIpc();
            const buffer_bytes = try owner.exportIpc();
            const imported = try dc.Pool.importIpc(dev, &pool_bytes);
            defer imported.deinit();
            const shared = try imported.importBuffer(&buffer_bytes);
            var back: [256]u32 = undefined;
            try shared.read(0, &back);
            try testing.expectEqualSlices(u32, &data, &back);
            shared.deinit(); // the importer frees first
            try expectError(error.InvalidArgument, imported.alloc(null, 64), &.{"dc_buffer_import_ipc_from_pool"});
            try expectError(error.InvalidArgument, dc.Buffer.importIpc(dev, &buffer_bytes), &.{"dc_buffer_import_ipc_from_pool"});
            const fd = try pool.exportFd();
            const by_fd = try dc.Pool.importFd(dev, fd);
            by_fd.deinit();
            const plain = try dc.Pool.create(dev, 0, .{});
            defer plain.deinit();
            try expectError(error.NotSupported, plain.exportIpc(), &.{"DC_POOL_EXPORTABLE"});
        }
    }.run);
}

test "virtual memory pieces make one range" {
    try support.withDevice(struct {
        fn run(dev: *dc.Device) !void {
            const g = try dev.allocationGranularity(false);
            const base = try dev.vmmReserve(2 * g, 0);
            const a = try dev.vmmCreate(g);
            const b = try dev.vmmCreate(g);
            try dev.vmmMap(base, g, a);
            try dev.vmmMap(base + g, g, b);
            try dev.vmmSetAccess(base, 2 * g, dev, dc.c.DC_VMM_ACCESS_READWRITE);
            try expectError(error.InvalidArgument, dev.vmmMap(base, g, b), &.{"overlaps"});
            try expectError(error.InvalidState, dev.vmmFree(base, 2 * g), &.{"dc_vmm_unmap"});
            try dev.vmmUnmap(base, 2 * g);
            try dev.vmmRelease(a);
            try dev.vmmRelease(b);
            try dev.vmmFree(base, 2 * g);
        }
    }.run);
}
