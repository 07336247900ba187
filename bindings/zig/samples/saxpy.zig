//! saxpy with dccuda from Zig: compile CUDA C++ with NVRTC, copy in, launch,
//! copy out, check against the CPU. Exit status 0 when every element matches.
//!
//!     zig build saxpy -Dlib-dir=../../build
//!     LD_LIBRARY_PATH=<folder of libdccuda.so.1> ./dccuda-zig-saxpy [n]

const std = @import("std");
const dc = @import("dccuda");

const source: [:0]const u8 =
    \\extern "C" __global__ void saxpy(float a, const float* x, float* y, int n) {
    \\  int i = blockIdx.x * blockDim.x + threadIdx.x;
    \\  if (i < n) y[i] = a * x[i] + y[i];
    \\}
;

pub fn main() !void {
    run() catch |err| {
        // The library's own words: what failed, with which value, what to do.
        std.debug.print("saxpy (Zig): FAILED: error.{s}: {}\n", .{ @errorName(err), dc.lastError() });
        std.process.exit(1);
    };
}

fn run() !void {
    const allocator = std.heap.page_allocator;
    const n: usize = blk: {
        var args = try std.process.argsWithAllocator(allocator);
        defer args.deinit();
        _ = args.skip();
        const arg = args.next() orelse break :blk 1 << 20;
        break :blk try std.fmt.parseInt(usize, arg, 10);
    };

    const dev = try dc.Device.open(0);
    defer dev.deinit();
    const info = try dev.info();

    // NVRTC compiles for this device's architecture (or the kernel cache answers).
    const program = dc.Program.compile(source, .{ .name = "saxpy.cu", .device = dev }) catch |err| {
        if (err == error.Compile) std.debug.print("{s}\n", .{dc.lastError().detail});
        return err;
    };
    defer program.deinit();
    const module = try dc.Module.loadProgram(dev, program, .{});
    defer module.deinit();
    const saxpy = try module.getFunction("saxpy");
    defer saxpy.deinit();

    const x = try allocator.alloc(f32, n);
    defer allocator.free(x);
    const y = try allocator.alloc(f32, n);
    defer allocator.free(y);
    for (x, y, 0..) |*xi, *yi, i| {
        xi.* = @floatFromInt(i % 1000);
        yi.* = @floatFromInt((i * 7) % 1000);
    }

    const dx = try dc.Buffer.fromSlice(dev, f32, x);
    defer dx.deinit();
    const dy = try dc.Buffer.fromSlice(dev, f32, y);
    defer dy.deinit();
    const stream = try dc.Stream.create(dev, .{}, 0);
    defer stream.deinit();

    const a: f32 = 2.0;
    const config = try saxpy.config1d(n, 0);
    try saxpy.launch(config, .{ a, dx, dy, @as(i32, @intCast(n)) }, stream);
    try stream.synchronize();

    const out = try allocator.alloc(f32, n);
    defer allocator.free(out);
    try dy.read(0, out);

    var bad: usize = 0;
    for (out, x, y, 0..) |got, xi, yi, i| {
        const want = a * xi + yi; // exact: small integers
        if (got != want) {
            if (bad < 5) std.debug.print("saxpy (Zig): y[{d}] = {d}, expected {d}\n", .{ i, got, want });
            bad += 1;
        }
    }
    const stdout = std.io.getStdOut().writer();
    try stdout.print("saxpy (Zig): {d} elements, grid {d} x block {d}, on {s} (sm_{d}{d}), driver library {s}\n", .{
        n,                      config.grid[0],                config.block[0],
        info.nameSlice(),       info.compute_capability_major, info.compute_capability_minor,
        try dc.driverLibrary(),
    });
    if (bad != 0) {
        try stdout.print("saxpy (Zig): FAILED: {d} of {d} elements wrong\n", .{ bad, n });
        std.process.exit(1);
    }
    try stdout.print("saxpy (Zig): OK, every element checked\n", .{});
}
