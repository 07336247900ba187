//! Kernel launches (one-shot, packed, prepared), occupancy and graphs, with
//! saxpy's results checked against the CPU on random data.

const std = @import("std");
const dc = @import("dccuda");
const support = @import("support.zig");
const expectError = support.expectError;
const testing = std.testing;

const n: usize = 3000;

/// saxpy compiled for the device, its data on the device, and the CPU inputs.
const Saxpy = struct {
    module: *dc.Module,
    function: *dc.Function,
    stream: *dc.Stream,
    x: *dc.Buffer,
    y: *dc.Buffer,
    hx: [n]f32,
    hy: [n]f32,

    fn init(self: *Saxpy, dev: *dc.Device) !void {
        self.module = dc.Module.compileAndLoad(dev, support.kernels, .{ .name = "kernels.cu" }) catch |e| return support.fail(e);
        errdefer self.module.deinit();
        self.function = try self.module.getFunction("saxpy");
        errdefer self.function.deinit();
        self.stream = try dc.Stream.create(dev, .{}, 0);
        errdefer self.stream.deinit();
        support.randomFloats(&self.hx, 11);
        support.randomFloats(&self.hy, 12);
        self.x = try dc.Buffer.fromSlice(dev, f32, &self.hx);
        errdefer self.x.deinit();
        self.y = try dc.Buffer.fromSlice(dev, f32, &self.hy);
    }

    fn deinit(self: *Saxpy) void {
        self.y.deinit();
        self.x.deinit();
        self.stream.deinit();
        self.function.deinit();
        self.module.deinit();
    }

    /// y after `times` launches of y = a * x + y, computed on the CPU.
    fn expectY(self: *Saxpy, a: f32, times: usize) !void {
        try self.stream.synchronize();
        var got: [n]f32 = undefined;
        try self.y.read(0, &got);
        for (got, 0..) |g, i| {
            var want = self.hy[i];
            for (0..times) |_| want = a * self.hx[i] + want;
            try support.expectClose(want, g);
        }
    }
};

test "saxpy through a one-shot launch" {
    try support.requireNvrtc();
    try support.withDevice(struct {
        fn run(dev: *dc.Device) !void {
            var s: Saxpy = undefined;
            try s.init(dev);
            defer s.deinit();
            const cfg = try s.function.config1d(n, 0);
            try testing.expect(@as(u64, cfg.grid[0]) * cfg.block[0] >= n);
            const a: f32 = 2.5;
            s.function.launch(cfg, .{ a, s.x, s.y, @as(i32, n) }, s.stream) catch |e| return support.fail(e);
            try s.expectY(a, 1);
        }
    }.run);
}

test "a launch with the wrong arguments is refused with the kernel's layout" {
    try support.requireNvrtc();
    try support.withDevice(struct {
        fn run(dev: *dc.Device) !void {
            var s: Saxpy = undefined;
            try s.init(dev);
            defer s.deinit();
            const cfg = dc.LaunchConfig.linear(12, 256);
            // A double where the kernel takes a float.
            try expectError(error.InvalidArgument, s.function.launch(cfg, .{ @as(f64, 2.0), s.x, s.y, @as(i32, n) }, s.stream), &.{ "saxpy", "parameter 0", "4 bytes" });
            // One argument short.
            try expectError(error.InvalidArgument, s.function.launch(cfg, .{ @as(f32, 2.0), s.x, s.y }, s.stream), &.{"saxpy"});
            // A released buffer.
            const gone = try dc.Buffer.alloc(dev, 64, .{});
            gone.deinit();
            try expectError(error.InvalidHandle, s.function.launch(cfg, .{ @as(f32, 2.0), s.x, gone, @as(i32, n) }, s.stream), &.{"dc_launch_kernel"});
            // Nothing ran.
            try s.expectY(0, 0);
        }
    }.run);
}

test "saxpy through the packed parameter block" {
    try support.requireNvrtc();
    try support.withDevice(struct {
        fn run(dev: *dc.Device) !void {
            var s: Saxpy = undefined;
            try s.init(dev);
            defer s.deinit();
            // The parameter block as the kernel's layout says, built from paramInfo.
            const info = try s.function.info();
            var block = [_]u8{0} ** 64;
            const a: f32 = -1.25;
            const xp = try s.x.devicePointer();
            const yp = try s.y.devicePointer();
            const count: i32 = n;
            const values = [_][]const u8{ std.mem.asBytes(&a), std.mem.asBytes(&xp), std.mem.asBytes(&yp), std.mem.asBytes(&count) };
            for (values, 0..) |v, i| {
                const p = try s.function.paramInfo(@intCast(i));
                try testing.expectEqual(@as(u64, v.len), p.size);
                @memcpy(block[@intCast(p.offset)..][0..v.len], v);
            }
            const size: usize = if (info.params_bytes != 0) info.params_bytes else 28;
            try s.function.launchPacked(dc.LaunchConfig.linear((n + 255) / 256, 256), block[0..size], s.stream);
            try s.expectY(a, 1);
        }
    }.run);
}

test "a prepared launch enqueued again and again, re-bound in between" {
    try support.requireNvrtc();
    try support.withDevice(struct {
        fn run(dev: *dc.Device) !void {
            var s: Saxpy = undefined;
            try s.init(dev);
            defer s.deinit();
            const launch = try dc.Launch.create(s.function, try s.function.config1d(n, 0));
            defer launch.deinit();
            try expectError(error.InvalidState, launch.enqueue(s.stream), &.{"dc_launch_enqueue"});
            try launch.setArgs(.{ @as(f32, 0.5), s.x, s.y, @as(i32, n) });
            for (0..3) |_| try launch.enqueue(s.stream);
            try s.expectY(0.5, 3);

            // Re-bind one argument: the value is copied at bind time.
            var a: f32 = 4.0;
            try launch.setArg(0, a);
            a = 100.0;
            try launch.setConfig(dc.LaunchConfig.linear((n + 127) / 128, 128));
            try launch.enqueue(s.stream);
            try s.stream.synchronize();
            var got: [n]f32 = undefined;
            try s.y.read(0, &got);
            for (got, 0..) |g, i| {
                var want = s.hy[i];
                for (0..3) |_| want = 0.5 * s.hx[i] + want;
                want = 4.0 * s.hx[i] + want;
                try support.expectClose(want, g);
            }
            try expectError(error.OutOfRange, launch.setArg(4, @as(i32, 1)), &.{"dc_launch_set_arg"});
        }
    }.run);
}

test "prepared launches enqueued in one batch" {
    try support.requireNvrtc();
    try support.withDevice(struct {
        fn run(dev: *dc.Device) !void {
            var s: Saxpy = undefined;
            try s.init(dev);
            defer s.deinit();
            const config = try s.function.config1d(n, 0);
            const launch = try dc.Launch.create(s.function, config);
            defer launch.deinit();
            const unbound = try dc.Launch.create(s.function, config);
            defer unbound.deinit();
            try launch.setArgs(.{ @as(f32, 1.5), s.x, s.y, @as(i32, n) });
            // An unbound launch at index 1 refuses the whole batch: nothing runs.
            try expectError(error.InvalidState, dc.Launch.enqueueBatch(&.{ launch, unbound, launch }, s.stream), &.{"launches[1]"});
            try dc.Launch.enqueueBatch(&.{}, s.stream);
            // The same launch twice in one batch.
            try dc.Launch.enqueueBatch(&.{ launch, launch }, s.stream);
            try s.expectY(1.5, 2);
        }
    }.run);
}

fn sharedPerBlock(calls: *u32, block_size: i32) u64 {
    calls.* += 1;
    return @as(u64, @intCast(block_size)) * 4;
}

test "occupancy queries" {
    try support.requireNvrtc();
    try support.withDevice(struct {
        fn run(dev: *dc.Device) !void {
            var s: Saxpy = undefined;
            try s.init(dev);
            defer s.deinit();
            const info = try dev.info();
            const best = try s.function.maxPotentialBlockSize(0, 0);
            try testing.expect(best.block_size > 0 and best.block_size <= info.max_threads_per_block);
            try testing.expect(best.min_grid_size > 0);
            try testing.expect((try s.function.maxActiveBlocks(best.block_size, 0)) >= 1);
            var calls: u32 = 0;
            const limited = try s.function.maxPotentialBlockSizeWith(&calls, sharedPerBlock, 128);
            try testing.expect(calls > 0);
            try testing.expect(limited.block_size > 0 and limited.block_size <= 128);
            try testing.expect((try s.function.availableDynamicShared(1, 128)) > 0);
        }
    }.run);
}

test "a captured graph replays saxpy and is updated from a new capture" {
    try support.requireNvrtc();
    try support.withDevice(struct {
        fn run(dev: *dc.Device) !void {
            var s: Saxpy = undefined;
            try s.init(dev);
            defer s.deinit();
            const cfg = try s.function.config1d(n, 0);
            try expectError(error.InvalidState, s.stream.endCapture(), &.{"dc_stream_end_capture"});

            try s.stream.beginCapture(.thread_local);
            try testing.expect(try s.stream.isCapturing());
            try s.function.launch(cfg, .{ @as(f32, 1.5), s.x, s.y, @as(i32, n) }, s.stream);
            const graph = try s.stream.endCapture();
            defer graph.deinit();
            try testing.expect(!try s.stream.isCapturing());
            try testing.expectEqual(@as(u64, 1), try graph.nodeCount());
            try s.expectY(0, 0); // captured, not run

            try graph.instantiate();
            try graph.upload(s.stream);
            try graph.launch(s.stream);
            try graph.launch(s.stream);
            try s.expectY(1.5, 2);

            // The same topology with another factor.
            try s.stream.beginCapture(.global);
            try s.function.launch(cfg, .{ @as(f32, -2.0), s.x, s.y, @as(i32, n) }, s.stream);
            const source = try s.stream.endCapture();
            defer source.deinit();
            try graph.update(source);
            try graph.launch(s.stream);
            try s.stream.synchronize();
            var got: [n]f32 = undefined;
            try s.y.read(0, &got);
            for (got, 0..) |g, i| {
                var want = s.hy[i];
                want = 1.5 * s.hx[i] + want;
                want = 1.5 * s.hx[i] + want;
                want = -2.0 * s.hx[i] + want;
                try support.expectClose(want, g);
            }

            graph.deinit();
            try expectError(error.InvalidHandle, graph.launch(s.stream), &.{"dc_graph_launch"});
        }
    }.run);
}

test "every handle type is created, counted and released" {
    try support.requireNvrtc();
    try support.withDevice(struct {
        fn run(dev: *dc.Device) !void {
            const program = try dc.Program.compile(support.kernels, .{ .device = dev });
            const module = try dc.Module.loadProgram(dev, program, .{});
            const function = try module.getFunction("saxpy");
            const stream = try dc.Stream.create(dev, .{}, 0);
            const event = try dc.Event.create(dev, .{ .disable_timing = true });
            const buffer = try dc.Buffer.alloc(dev, 1024, .{});
            const launch = try dc.Launch.create(function, dc.LaunchConfig.linear(1, 256));
            try launch.setArgs(.{ @as(f32, 1), buffer, buffer, @as(i32, 0) });
            try stream.beginCapture(.global);
            try launch.enqueue(stream);
            const graph = try stream.endCapture();

            const expected = .{
                .{ dc.HandleType.device, 1 },   .{ dc.HandleType.buffer, 1 },  .{ dc.HandleType.stream, 1 },
                .{ dc.HandleType.event, 1 },    .{ dc.HandleType.program, 1 }, .{ dc.HandleType.module, 1 },
                .{ dc.HandleType.function, 1 }, .{ dc.HandleType.launch, 1 },  .{ dc.HandleType.graph, 1 },
            };
            inline for (expected) |e| try testing.expectEqual(@as(u64, e[1]), try dc.handleCount(e[0]));

            // Parents released first: children keep them alive.
            program.deinit();
            module.deinit();
            try testing.expectEqualStrings("saxpy", try function.name());
            buffer.deinit();
            try launch.enqueue(stream);
            try stream.synchronize();
            graph.deinit();
            launch.deinit();
            function.deinit();
            event.deinit();
            stream.deinit();
            inline for (expected) |e| {
                const want: u64 = if (e[0] == .device) 1 else 0;
                try testing.expectEqual(want, try dc.handleCount(e[0]));
            }
        }
    }.run);
}
