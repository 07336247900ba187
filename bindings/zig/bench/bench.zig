//! The CPU cost of calls through the Zig binding: a prepared launch
//! (dc_launch_enqueue) and a small synchronous copy (dc_buffer_write), each
//! through the idiomatic wrapper and through the raw extern declaration, in
//! the same process and run. Launches are timed in bursts short enough not to
//! fill the driver's launch queue (which would measure the GPU's launch rate
//! instead), with a synchronisation between bursts outside the timing.
//!
//!     LD_LIBRARY_PATH=<lib> ./dccuda-zig-bench [--bursts N] [--burst-size N]

const std = @import("std");
const dc = @import("dccuda");

const source: [:0]const u8 =
    \\extern "C" __global__ void saxpy(float a, const float* x, float* y, int n) {
    \\  int i = blockIdx.x * blockDim.x + threadIdx.x;
    \\  if (i < n) y[i] = a * x[i] + y[i];
    \\}
;

const Options = struct { bursts: usize = 200, burst_size: usize = 256 };

fn parseOptions() !Options {
    var o = Options{};
    var args = try std.process.argsWithAllocator(std.heap.page_allocator);
    defer args.deinit();
    _ = args.skip();
    while (args.next()) |a| {
        const value = args.next() orelse return error.MissingValue;
        if (std.mem.eql(u8, a, "--bursts")) {
            o.bursts = try std.fmt.parseInt(usize, value, 10);
        } else if (std.mem.eql(u8, a, "--burst-size")) {
            o.burst_size = try std.fmt.parseInt(usize, value, 10);
        } else return error.UnknownOption;
    }
    if (o.bursts == 0 or o.burst_size == 0) return error.InvalidOption;
    return o;
}

/// Per-call nanoseconds of each burst; the median and the best are reported.
const Samples = struct {
    per_call: std.ArrayList(f64),

    fn report(self: *Samples, label: []const u8, calls: usize) !void {
        std.sort.block(f64, self.per_call.items, {}, std.sort.asc(f64));
        const items = self.per_call.items;
        try std.io.getStdOut().writer().print("{s:<48} median {d:>9.1} ns/call, best {d:>9.1} ns/call ({d} calls)\n", .{ label, items[items.len / 2], items[0], calls });
    }
};

pub fn main() !void {
    run() catch |err| {
        std.debug.print("dccuda-zig-bench: FAILED: error.{s}: {}\n", .{ @errorName(err), dc.lastError() });
        std.process.exit(1);
    };
}

fn run() !void {
    const o = try parseOptions();
    const allocator = std.heap.page_allocator;
    const out = std.io.getStdOut().writer();

    const dev = try dc.Device.open(0);
    defer dev.deinit();
    const info = try dev.info();
    try out.print("dccuda Zig binding benchmark: {s}, driver library {s}, {d} bursts of {d}\n", .{ info.nameSlice(), try dc.driverLibrary(), o.bursts, o.burst_size });

    const module = try dc.Module.compileAndLoad(dev, source, .{ .name = "bench.cu" });
    defer module.deinit();
    const saxpy = try module.getFunction("saxpy");
    defer saxpy.deinit();
    const n: i32 = 256;
    const x = try dc.Buffer.alloc(dev, 256 * 4, .{});
    defer x.deinit();
    const y = try dc.Buffer.alloc(dev, 256 * 4, .{});
    defer y.deinit();
    try x.fill(0, 256 * 4, @as(f32, 1));
    try y.fill(0, 256 * 4, @as(f32, 0));
    const stream = try dc.Stream.create(dev, .{}, 0);
    defer stream.deinit();
    const launch = try dc.Launch.create(saxpy, dc.LaunchConfig.linear(1, 256));
    defer launch.deinit();
    try launch.setArgs(.{ @as(f32, 0), x, y, n });

    var samples = Samples{ .per_call = try std.ArrayList(f64).initCapacity(allocator, o.bursts) };
    defer samples.per_call.deinit();

    // Warm up (first launch loads the module's code on the device).
    try launch.enqueue(stream);
    try stream.synchronize();

    inline for (.{ "launch enqueue, Zig wrapper (Launch.enqueue)", "launch enqueue, raw extern (dc_launch_enqueue)" }, 0..) |label, raw| {
        samples.per_call.clearRetainingCapacity();
        for (0..o.bursts) |_| {
            var timer = try std.time.Timer.start();
            for (0..o.burst_size) |_| {
                if (raw == 1) {
                    try dc.check(dc.c.dc_launch_enqueue(launch, stream));
                } else {
                    try launch.enqueue(stream);
                }
            }
            const ns = timer.read();
            try stream.synchronize();
            samples.per_call.appendAssumeCapacity(@as(f64, @floatFromInt(ns)) / @as(f64, @floatFromInt(o.burst_size)));
        }
        try samples.report(label, o.bursts * o.burst_size);
    }

    var host: [64]f32 = undefined;
    @memset(&host, 0.5);
    inline for (.{ "256-byte write, Zig wrapper (Buffer.write)", "256-byte write, raw extern (dc_buffer_write)" }, 0..) |label, raw| {
        samples.per_call.clearRetainingCapacity();
        for (0..o.bursts) |_| {
            var timer = try std.time.Timer.start();
            for (0..o.burst_size) |_| {
                if (raw == 1) {
                    try dc.check(dc.c.dc_buffer_write(x, 0, &host, @sizeOf(@TypeOf(host))));
                } else {
                    try x.write(0, &host);
                }
            }
            const ns = timer.read();
            samples.per_call.appendAssumeCapacity(@as(f64, @floatFromInt(ns)) / @as(f64, @floatFromInt(o.burst_size)));
        }
        try samples.report(label, o.bursts * o.burst_size);
    }

    // The data is right after all that (a benchmark of wrong work is worthless):
    // y was 0, a = 0 every time, x was overwritten with 0.5.
    var check_y: [256]f32 = undefined;
    try y.read(0, &check_y);
    for (check_y) |v| if (v != 0) return error.WrongResult;
    var check_x: [64]f32 = undefined;
    try x.read(0, &check_x);
    for (check_x) |v| if (v != 0.5) return error.WrongResult;
}
