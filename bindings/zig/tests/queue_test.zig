//! Message queues and control blocks from the host's side: full and empty,
//! time limits, batches, counters, the control block's life. No kernel runs
//! here (the kernel's side is tested in C++, tests/queue/test_resident.cpp).

const std = @import("std");
const dc = @import("dccuda");
const support = @import("support.zig");
const expectError = support.expectError;
const testing = std.testing;

const Order = extern struct { id: u64, price: f64, quantity: u32, side: u32 };

test "a queue to the device fills up, times out and counts its drops" {
    try support.withDevice(struct {
        fn run(dev: *dc.Device) !void {
            const q = dc.Queue.create(dev, .to_device, 32, 4) catch |e| return support.fail(e);
            defer q.deinit();
            const order = Order{ .id = 1, .price = 2.5, .quantity = 3, .side = 1 };
            for (0..4) |_| try testing.expect(try q.tryEnqueue(&order));
            try testing.expect(!try q.tryEnqueue(&order));
            var timer = try std.time.Timer.start();
            try expectError(error.Timeout, q.enqueue(&order, .block, 20_000), &.{});
            try testing.expect(timer.read() >= 20 * std.time.ns_per_ms);
            const s = try q.counters();
            try testing.expectEqual(@as(i32, dc.c.DC_QUEUE_TO_DEVICE), s.direction);
            try testing.expectEqual(@as(u32, 32), s.slot_size);
            try testing.expectEqual(@as(u32, 4), s.capacity);
            try testing.expectEqual(@as(u64, 4), s.length);
            try testing.expectEqual(@as(u64, 2), s.drops);
            try testing.expectEqual(@as(u64, 1), s.full_waits);
            // A message longer than a slot; the host does not dequeue what it sends.
            const long = [_]u8{0} ** 33;
            try expectError(error.OutOfRange, q.tryEnqueue(&long), &.{});
            var out: [32]u8 = undefined;
            try expectError(error.InvalidArgument, q.tryDequeue(&out), &.{});

            const ring = try q.buffer();
            defer ring.deinit();
            try testing.expect(try ring.devicePointer() != 0);

            const batch = try dc.Queue.create(dev, .to_device, 8, 8);
            defer batch.deinit();
            const values = [_]u64{ 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 };
            try testing.expectEqual(@as(u32, 8), try batch.enqueueBatch(u64, &values));
            try testing.expectEqual(@as(u32, 0), try batch.enqueueBatch(u64, values[0..1]));
            try testing.expectEqual(@as(u64, 8), (try batch.counters()).length);
        }
    }.run);
}

test "a queue to the host is empty until a kernel writes, and refuses bad shapes" {
    try support.withDevice(struct {
        fn run(dev: *dc.Device) !void {
            const q = try dc.Queue.create(dev, .to_host, 64, 4);
            defer q.deinit();
            var out: [64]u8 = undefined;
            try testing.expectEqual(@as(?[]u8, null), try q.tryDequeue(&out));
            try expectError(error.Timeout, q.dequeue(&out, .spin_yield, 5_000), &.{});
            var many: [4 * 64]u8 = undefined;
            try testing.expectEqual(@as(u32, 0), try q.dequeueBatch(&many, 64));
            try expectError(error.InvalidArgument, q.dequeueBatch(&many, 32), &.{});
            try expectError(error.InvalidArgument, q.tryEnqueue(&@as(u32, 1)), &.{});
            try testing.expectEqual(@as(u64, 1), (try q.counters()).empty_waits);
            try expectError(error.InvalidArgument, dc.Queue.create(dev, .to_host, 8, 3), &.{});
            try expectError(error.InvalidArgument, dc.Queue.create(dev, .to_host, 12, 4), &.{});
        }
    }.run);
}

test "a control block goes from idle to stop requested and back by reset" {
    try support.withDevice(struct {
        fn run(dev: *dc.Device) !void {
            const ctl = dc.Control.create(dev) catch |e| return support.fail(e);
            defer ctl.deinit();
            try testing.expectEqual(dc.ControlState.idle, try ctl.state());
            try expectError(error.InvalidState, ctl.checkProgress(1000), &.{});
            try expectError(error.InvalidArgument, ctl.checkProgress(0), &.{});
            try expectError(error.Timeout, ctl.waitStopped(.block, 2_000), &.{});
            try ctl.requestStop();
            try testing.expectEqual(@as(u32, 1), (try ctl.status()).stop_requested);
            try ctl.reset();
            const info = try ctl.status();
            try testing.expectEqual(@as(u32, 0), info.stop_requested);
            try testing.expectEqual(@as(u64, 0), info.heartbeat);
            const block = try ctl.buffer();
            defer block.deinit();
            try testing.expect(try block.devicePointer() != 0);
        }
    }.run);
}
