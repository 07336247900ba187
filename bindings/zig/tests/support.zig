//! What the binding's tests share: which driver they run on, the fake
//! driver's controls (when DCCUDA_DRIVER_LIBRARY names it), skips, error
//! expectations and the leak check. The same test binary runs against the
//! real driver on a GPU machine: tests that need fault injection skip there.

const std = @import("std");
const dc = @import("dccuda");

/// The fake driver's control interface (tests/fake_driver/fake_control.h).
pub const Fake = struct {
    reset: *const fn () callconv(.C) void,
    inject: *const fn (entry: [*:0]const u8, nth: c_int, result: c_int, times: c_int) callconv(.C) void,
    live: *const fn (kind: [*:0]const u8) callconv(.C) c_long,
    legacy_calls: *const fn () callconv(.C) c_long,
};

var fake_once = std.once(loadFake);
var fake_controls: ?Fake = null;
var fake_lib: ?std.DynLib = null;

fn loadFake() void {
    const path = std.posix.getenv("DCCUDA_DRIVER_LIBRARY") orelse return;
    if (path.len == 0) return;
    var lib = std.DynLib.open(path) catch return;
    const reset = lib.lookup(*const fn () callconv(.C) void, "dcfake_reset") orelse {
        lib.close();
        return;
    };
    fake_controls = .{
        .reset = reset,
        .inject = lib.lookup(@TypeOf(@as(Fake, undefined).inject), "dcfake_inject") orelse return,
        .live = lib.lookup(@TypeOf(@as(Fake, undefined).live), "dcfake_live") orelse return,
        .legacy_calls = lib.lookup(@TypeOf(@as(Fake, undefined).legacy_calls), "dcfake_legacy_calls") orelse return,
    };
    fake_lib = lib; // kept open for the life of the process
}

/// The fake driver's controls, or null on a real driver.
pub fn fake() ?Fake {
    fake_once.call();
    return fake_controls;
}

/// Skips the test unless the fake driver (fault injection) is in use.
pub fn requireFake() !Fake {
    return fake() orelse {
        std.debug.print("skipped: needs the fake driver's fault injection\n", .{});
        return error.SkipZigTest;
    };
}

/// Skips the test without a CUDA device (real or fake).
pub fn requireDevice() !void {
    const n = dc.Device.count() catch 0;
    if (n < 1) {
        std.debug.print("skipped: needs a CUDA device (real or fake)\n", .{});
        return error.SkipZigTest;
    }
}

/// Skips the test without NVRTC.
pub fn requireNvrtc() !void {
    _ = dc.nvrtcVersion() catch {
        std.debug.print("skipped: no NVRTC: {s}\n", .{dc.lastErrorMessage()});
        return error.SkipZigTest;
    };
}

/// One line saying where the tests run: a fake-driver pass is never a GPU pass.
pub fn describeDriver(writer: anytype) !void {
    if (fake() != null) return writer.writeAll("driver: the FAKE driver (test double, no GPU)");
    const v = dc.driverVersion() catch return writer.writeAll("driver: none");
    const n = dc.Device.count() catch 0;
    try writer.print("driver: a REAL driver, CUDA {d}.{d}, {d} device(s)", .{ @divTrunc(v, 1000), @divTrunc(@mod(v, 1000), 10), n });
}

/// Expects `result` to be `expected`, with the library's last error agreeing
/// and its message containing each of `texts`.
pub fn expectError(expected: dc.DcError, result: anytype, texts: []const []const u8) !void {
    if (result) |value| {
        // Release what the unexpected success made, so one failure is reported once.
        const V = @TypeOf(value);
        if (comptime ownsHandle(V)) value.deinit();
        std.debug.print("expected error.{s}, the call succeeded\n", .{@errorName(expected)});
        return error.TestExpectedError;
    } else |err| {
        const last = dc.lastError();
        if (err != expected) {
            std.debug.print("expected error.{s}, got error.{s}: {}\n", .{ @errorName(expected), @errorName(err), last });
            return error.TestUnexpectedError;
        }
        try std.testing.expectEqual(dc.statusFromError(expected), last.status);
        for (texts) |t| {
            if (std.mem.indexOf(u8, last.message, t) == null) {
                std.debug.print("message \"{s}\" lacks \"{s}\"\n", .{ last.message, t });
                return error.TestExpectedMessage;
            }
        }
    }
}

fn ownsHandle(comptime V: type) bool {
    if (@typeInfo(V) != .pointer) return false;
    const C = std.meta.Child(V);
    return switch (@typeInfo(C)) {
        .@"opaque", .@"struct" => @hasDecl(C, "deinit"),
        else => false,
    };
}

/// Prints the last error and returns the error: `foo() catch |e| return support.fail(e)`.
pub fn fail(err: anyerror) anyerror {
    std.debug.print("error.{s}: {}\n", .{ @errorName(err), dc.lastError() });
    return err;
}

/// Fails when a dccuda handle or (on the fake) a driver object outlived its test.
pub fn expectNoLeaks() !void {
    const handles = try dc.liveHandles();
    if (handles != 0) {
        inline for (@typeInfo(dc.HandleType).@"enum".fields) |f| {
            const n = try dc.handleCount(@enumFromInt(f.value));
            if (n != 0) std.debug.print("leaked {d} {s} handle(s)\n", .{ n, f.name });
        }
        return error.TestLeakedHandles;
    }
    if (fake()) |f| {
        const kinds = [_][*:0]const u8{ "allocations", "host_allocations", "managed", "registrations", "pools", "streams", "events", "modules", "graphs", "graph_execs", "primary_retains", "libraries" };
        for (kinds) |k| {
            const n = f.live(k);
            if (n > 0) {
                std.debug.print("leaked {d} fake driver object(s) of kind {s}\n", .{ n, k });
                return error.TestLeakedDriverObjects;
            }
        }
        try std.testing.expectEqual(@as(c_long, 0), f.legacy_calls());
    }
}

/// Opens device 0 for a test body and checks for leaks once it is released:
/// `try support.withDevice(struct { fn run(dev: *dc.Device) !void { ... } }.run)`.
pub fn withDevice(comptime body: anytype) !void {
    try requireDevice();
    if (fake()) |f| f.reset();
    try expectNoLeaks();
    {
        const dev = dc.Device.open(0) catch |e| return fail(e);
        defer dev.deinit();
        try body(dev);
    }
    try expectNoLeaks();
}

/// Reproducible pseudo-random floats in [-1, 1).
pub fn randomFloats(out: []f32, seed: u64) void {
    var prng = std.Random.DefaultPrng.init(seed);
    const r = prng.random();
    for (out) |*x| x.* = r.float(f32) * 2 - 1;
}

/// |a - b| within a relative tolerance (a GPU may fuse a*x+y into one FMA).
pub fn expectClose(expected: f32, actual: f32) !void {
    const tol = 1e-5 * @max(1.0, @abs(expected));
    if (@abs(expected - actual) > tol) {
        std.debug.print("expected {d}, got {d}\n", .{ expected, actual });
        return error.TestExpectedApproxEq;
    }
}

/// The CUDA sources of the tests: saxpy as the repository's C tests have it,
/// a templated kernel (name expressions), and a module global.
pub const kernels: [:0]const u8 =
    \\__device__ int answer = 42;
    \\
    \\extern "C" __global__ void saxpy(float a, const float* x, float* y, int n) {
    \\  int i = blockIdx.x * blockDim.x + threadIdx.x;
    \\  if (i < n) y[i] = a * x[i] + y[i];
    \\}
    \\
    \\template <typename T>
    \\__global__ void scale(T* p, T factor, int n) {
    \\  int i = blockIdx.x * blockDim.x + threadIdx.x;
    \\  if (i < n) p[i] *= factor;
    \\}
;
