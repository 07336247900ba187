//! Context-independent libraries: one image loaded once, saxpy got on device 0
//! through it, its name and the kernel list checked; a missing kernel is NotFound.

const std = @import("std");
const dc = @import("dccuda");
const support = @import("support.zig");
const testing = std.testing;

test "a kernel library loads once and hands out functions" {
    try support.requireNvrtc();
    try support.withDevice(struct {
        fn run(dev: *dc.Device) !void {
            const program = dc.Program.compile(support.kernels, .{ .name = "kernels.cu", .output = .ptx }) catch |e| return support.fail(e);
            defer program.deinit();
            const out = try program.output();
            const lib = try dc.KernelLibrary.load(out.data, .{});
            defer lib.deinit();
            const count = try lib.functionCount();
            var found = false;
            var i: u32 = 0;
            while (i < count) : (i += 1) {
                if (std.mem.eql(u8, try lib.functionName(i), "saxpy")) found = true;
            }
            try testing.expect(found);
            const f = try lib.getFunction(dev, "saxpy");
            defer f.deinit();
            try testing.expectEqualStrings("saxpy", try f.name());
            try support.expectError(error.NotFound, lib.getFunction(dev, "no_such_kernel"), &.{"no_such_kernel"});
        }
    }.run);
}
