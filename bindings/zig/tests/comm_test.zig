//! NCCL through the binding, on the fake NCCL (DCCUDA_NCCL_LIBRARY): a
//! one-rank communicator from a unique id, an all-reduce (its result the
//! input), a send/receive to itself in a group, and a count past the buffer
//! refused, naming the count.

const std = @import("std");
const dc = @import("dccuda");
const support = @import("support.zig");
const testing = std.testing;

test "a one-rank communicator runs an all-reduce and an exchange" {
    _ = dc.ncclVersion() catch return error.SkipZigTest; // no NCCL here
    try support.withDevice(struct {
        fn run(dev: *dc.Device) !void {
            const id = try dc.ncclUniqueId();
            const comm = try dc.Comm.initRank(dev, 1, &id, 0);
            defer comm.deinit();
            try testing.expectEqual(@as(i32, 1), try comm.count());
            const stream = try dc.Stream.create(dev, .{}, 0);
            defer stream.deinit();
            const a = try dc.Buffer.alloc(dev, 16, .{});
            defer a.deinit();
            const b = try dc.Buffer.alloc(dev, 16, .{});
            defer b.deinit();
            const x = [4]i32{ 3, 1, 4, 1 };
            try a.write(0, &x);
            try comm.allReduce(a, 0, b, 0, 4, .int32, .sum, stream);
            try stream.synchronize();
            var y: [4]i32 = undefined;
            try b.read(0, &y);
            try testing.expectEqualSlices(i32, &x, &y);
            try dc.ncclGroupStart();
            try comm.send(a, 0, 2, .int32, 0, stream);
            try comm.recv(b, 8, 2, .int32, 0, stream);
            try dc.ncclGroupEnd();
            try stream.synchronize();
            try b.read(0, &y);
            try testing.expectEqualSlices(i32, &[4]i32{ 3, 1, 3, 1 }, &y);
            try support.expectError(error.OutOfRange, comm.allReduce(a, 0, b, 0, 5, .int32, .sum, stream), &.{"count 5"});
        }
    }.run);
}
