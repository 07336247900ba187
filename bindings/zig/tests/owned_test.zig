//! Owned copies of the library's borrowed strings (the `...Alloc` variants)
//! and the error names that must not collide with the standard library's.

const std = @import("std");
const testing = std.testing;
const dc = @import("dccuda");
const support = @import("support.zig");

test "the library's out-of-memory is error.DeviceOutOfMemory, apart from an allocator's" {
    // A merged set (what an ...Alloc variant returns) must keep the two apart:
    // DcError naming OutOfMemory would make `catch error.OutOfMemory` ambiguous.
    inline for (@typeInfo(dc.DcError).error_set.?) |e| {
        try testing.expect(!std.mem.eql(u8, e.name, "OutOfMemory"));
    }
    try testing.expectEqual(dc.Status.out_of_memory, dc.statusFromError(error.DeviceOutOfMemory));
    try testing.expectEqual(error.DeviceOutOfMemory, dc.errorFromStatus(.out_of_memory));
    const merged: dc.AllocError = error.OutOfMemory;
    try testing.expect(merged != error.DeviceOutOfMemory);
}

test "an owned last error outlives the next failing call" {
    try support.requireDevice();
    const n = try dc.Device.count();
    try testing.expectError(error.NoDevice, dc.Device.open(n + 7));
    const first = try dc.lastErrorAlloc(testing.allocator);
    defer first.deinit(testing.allocator);
    try testing.expectError(error.NoDevice, dc.Device.open(-1));
    // The borrowed message now describes the second call; the copy still the first.
    try testing.expect(std.mem.indexOf(u8, dc.lastErrorMessage(), "-1") != null);
    var ordinal: [16]u8 = undefined;
    const want = try std.fmt.bufPrint(&ordinal, "{d}", .{n + 7});
    try testing.expect(std.mem.indexOf(u8, first.message, want) != null);
    try testing.expect(std.mem.indexOf(u8, first.message, "dc_device_open") != null);
    try testing.expectEqual(dc.Status.no_device, first.status);
    var text: [512]u8 = undefined;
    const shown = try std.fmt.bufPrint(&text, "{}", .{first.view()});
    try testing.expect(std.mem.startsWith(u8, shown, "DC_ERROR_NO_DEVICE: dc_device_open"));
    try support.expectNoLeaks();
}

test "owned names and paths outlive their handles" {
    try support.requireNvrtc();
    try support.withDevice(struct {
        fn run(dev: *dc.Device) !void {
            const module = dc.Module.compileAndLoad(dev, support.kernels, .{ .name = "kernels.cu" }) catch |e| return support.fail(e);
            const saxpy = module.getFunction("saxpy") catch |e| {
                module.deinit();
                return support.fail(e);
            };
            const name = try saxpy.nameAlloc(testing.allocator);
            defer testing.allocator.free(name);
            const listed = try module.functionNameAlloc(0, testing.allocator);
            defer testing.allocator.free(listed);
            saxpy.deinit();
            module.deinit();
            try testing.expectEqualStrings("saxpy", name);
            try testing.expect(listed.len > 0);
            // A failing call through an ...Alloc variant is the library's error.
            try testing.expectError(error.InvalidHandle, saxpy.nameAlloc(testing.allocator));

            const driver = try dc.driverLibraryAlloc(testing.allocator);
            defer testing.allocator.free(driver);
            try testing.expect(driver.len > 0);
            const cache = try dc.cacheDirectoryAlloc(testing.allocator);
            defer testing.allocator.free(cache);
            const borrowed = try dc.cacheDirectory();
            try testing.expectEqualStrings(borrowed, cache);
        }
    }.run);
}

test "an allocator's failure comes back as error.OutOfMemory" {
    try support.requireNvrtc();
    try support.withDevice(struct {
        fn run(dev: *dc.Device) !void {
            const program = dc.Program.compile(support.kernels, .{ .device = dev }) catch |e| return support.fail(e);
            defer program.deinit();
            var failing = testing.FailingAllocator.init(testing.allocator, .{ .fail_index = 0 });
            try testing.expectError(error.OutOfMemory, program.logAlloc(failing.allocator()));
            const log = try program.logAlloc(testing.allocator);
            defer testing.allocator.free(log);
            try testing.expectEqualStrings(try program.log(), log);
        }
    }.run);
}
