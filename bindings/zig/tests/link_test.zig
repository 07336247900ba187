//! Linking: LTO-IR and relocatable code of two programs into one CUBIN
//! (real nvJitLink in CI; the driver's cuLink through the fake driver).

const std = @import("std");
const dc = @import("dccuda");
const support = @import("support.zig");
const expectError = support.expectError;
const testing = std.testing;

const callee: [:0]const u8 = "extern \"C\" __device__ float axpy_one(float a, float x, float y) { return a * x + y; }\n";
const caller: [:0]const u8 =
    \\extern "C" __device__ float axpy_one(float a, float x, float y);
    \\extern "C" __global__ void saxpy(float a, const float* x, float* y, int n) {
    \\  int i = blockIdx.x * blockDim.x + threadIdx.x;
    \\  if (i < n) y[i] = axpy_one(a, x[i], y[i]);
    \\}
;

fn linkTwo(dev: *dc.Device, output: dc.Output, options: dc.LinkOptions) !void {
    const flags: dc.CompileFlags = .{ .relocatable = true, .no_cache = true };
    const a = dc.Program.compile(caller, .{ .device = dev, .output = output, .flags = flags }) catch |e| return support.fail(e);
    defer a.deinit();
    const b = dc.Program.compile(callee, .{ .device = dev, .output = output, .flags = flags }) catch |e| return support.fail(e);
    defer b.deinit();
    const linked = dc.link(&.{ .{ .program = a }, .{ .program = b } }, options, dev) catch |e| return support.fail(e);
    defer linked.deinit();
    try testing.expectEqual(dc.Output.cubin, (try linked.output()).kind);
    const m = dc.Module.loadProgram(dev, linked, .{}) catch |e| return support.fail(e);
    defer m.deinit();
    const f = m.getFunction("saxpy") catch |e| return support.fail(e);
    f.deinit();
}

test "LTO-IR of two programs links with nvJitLink and loads" {
    try support.requireNvrtc();
    _ = dc.nvjitlinkVersion() catch {
        std.debug.print("skipped: no nvJitLink: {s}\n", .{dc.lastErrorMessage()});
        return error.SkipZigTest;
    };
    try support.withDevice(struct {
        fn run(dev: *dc.Device) !void {
            try linkTwo(dev, .ltoir, .{ .flags = .{ .no_cache = true } });
        }
    }.run);
}

test "relocatable CUBINs link with the driver's cuLink" {
    try support.requireNvrtc();
    try support.withDevice(struct {
        fn run(dev: *dc.Device) !void {
            try linkTwo(dev, .cubin, .{ .flags = .{ .use_driver = true, .no_cache = true } });
            try expectError(error.InvalidArgument, dc.link(&.{}, .{}, dev), &.{ "dc_link", "count is 0" });
        }
    }.run);
}

test "NVRTC lists its architectures, ascending, sm_90 among them" {
    try support.requireNvrtc();
    var buffer: [128]i32 = undefined;
    const archs = try dc.nvrtcSupportedArchs(&buffer);
    try testing.expect(archs.len > 0);
    for (archs[1..], 0..) |a, i| try testing.expect(archs[i] < a);
    try testing.expect(std.mem.indexOfScalar(i32, archs, 90) != null);
}
