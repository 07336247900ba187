//! NVRTC compilation, the kernel cache, modules, functions and globals.

const std = @import("std");
const dc = @import("dccuda");
const support = @import("support.zig");
const expectError = support.expectError;
const testing = std.testing;

test "a compile error surfaces NVRTC's message and whole log" {
    try support.requireNvrtc();
    const bad: [:0]const u8 = "extern \"C\" __global__ void k(float* p) {\n  p[0] = undefined_thing;\n}\n";
    try expectError(error.Compile, dc.Program.compile(bad, .{ .name = "broken.cu", .arch = 90 }), &.{ "dc_compile", "undefined_thing", "broken.cu(2)" });
    const last = dc.lastError();
    try testing.expect(std.mem.indexOf(u8, last.detail, "undefined_thing") != null);
    try testing.expect(std.mem.indexOf(u8, last.detail, "error detected in the compilation") != null);
    try testing.expectEqual(@as(i32, 6), last.nvrtc); // NVRTC_ERROR_COMPILATION
    try support.expectNoLeaks();
}

test "bad compile options are refused with the option named" {
    try support.requireNvrtc();
    try expectError(error.InvalidArgument, dc.Program.compile(support.kernels, .{ .output = .cubin }), &.{"dc_compile"});
    const opts = [_][*:0]const u8{"--no-such-option"};
    try expectError(error.InvalidArgument, dc.Program.compile(support.kernels, .{ .output = .ptx, .options = &opts }), &.{"--no-such-option"});
    try support.expectNoLeaks();
}

test "compile, load and inspect kernels, names and globals" {
    try support.requireNvrtc();
    try support.withDevice(struct {
        fn run(dev: *dc.Device) !void {
            const exprs = [_][*:0]const u8{"scale<float>"};
            const defines = [_][*:0]const u8{"UNUSED_DEFINE=1"};
            const program = dc.Program.compile(support.kernels, .{
                .name = "kernels.cu",
                .device = dev,
                .name_expressions = &exprs,
                .defines = &defines,
                .std = "c++17",
            }) catch |e| return support.fail(e);
            defer program.deinit();

            const out = try program.output();
            try testing.expectEqual(dc.Output.cubin, out.kind);
            try testing.expect(out.data.len > 4);
            try testing.expectEqualSlices(u8, "\x7fELF", out.data[0..4]);
            _ = try program.log();
            const cached = try program.cacheSource();
            try testing.expect(cached == .miss or cached == .memory or cached == .disk);

            const lowered = try program.loweredName("scale<float>");
            try testing.expectEqualStrings("_Z5scaleIfEvPT_S0_i", lowered);
            try expectError(error.NotFound, program.loweredName("scale<double>"), &.{"scale<double>"});

            const module = try dc.Module.loadProgram(dev, program, .{});
            defer module.deinit();
            const count = try module.functionCount();
            try testing.expect(count >= 2);
            var found_saxpy = false;
            var i: u32 = 0;
            while (i < count) : (i += 1) {
                if (std.mem.eql(u8, try module.functionName(i), "saxpy")) found_saxpy = true;
            }
            try testing.expect(found_saxpy);
            try expectError(error.OutOfRange, module.functionName(count), &.{"dc_module_function_name"});
            try expectError(error.NotFound, module.getFunction("nope"), &.{ "nope", "saxpy" });

            const saxpy = try module.getFunction("saxpy");
            defer saxpy.deinit();
            try testing.expectEqualStrings("saxpy", try saxpy.name());
            try testing.expect((try saxpy.native()) != null);
            // saxpy(float a, const float* x, float* y, int n), laid out by the C ABI.
            try testing.expectEqual(@as(u32, 4), try saxpy.paramCount());
            const expected = [_]dc.ParamInfo{
                .{ .offset = 0, .size = 4 },
                .{ .offset = 8, .size = 8 },
                .{ .offset = 16, .size = 8 },
                .{ .offset = 24, .size = 4 },
            };
            for (expected, 0..) |p, k| try testing.expectEqual(p, try saxpy.paramInfo(@intCast(k)));
            const finfo = try saxpy.info();
            try testing.expectEqual(@as(i32, 4), finfo.num_params);
            try testing.expect(finfo.max_threads_per_block > 0);
            try saxpy.setCacheConfig(.l1);

            const scale = try module.getFunction(lowered);
            defer scale.deinit();
            try testing.expectEqual(@as(u32, 3), try scale.paramCount());

            const answer = try module.getGlobal("answer");
            defer answer.deinit();
            try testing.expectEqual(dc.BufferKind.module_global, try answer.kind());
            var value: i32 = 0;
            try answer.read(0, &value);
            try testing.expectEqual(@as(i32, 42), value);
            try answer.write(0, &@as(i32, 7));
            try answer.read(0, &value);
            try testing.expectEqual(@as(i32, 7), value);
        }
    }.run);
}

test "PTX, the JIT log, images from memory and compile-and-load" {
    try support.requireNvrtc();
    try support.withDevice(struct {
        fn run(dev: *dc.Device) !void {
            const ptx = try dc.Program.compile(support.kernels, .{ .device = dev, .output = .ptx });
            defer ptx.deinit();
            const out = try ptx.output();
            try testing.expectEqual(dc.Output.ptx, out.kind);
            try testing.expect(std.mem.indexOf(u8, out.data, ".entry saxpy") != null);

            const from_image = try dc.Module.load(dev, out.data, .{ .optimization_level = 3 });
            defer from_image.deinit();
            _ = try from_image.jitLog();
            const f = try from_image.getFunction("saxpy");
            f.deinit();

            const direct = dc.Module.compileAndLoad(dev, support.kernels, .{ .name = "kernels.cu" }) catch |e| return support.fail(e);
            defer direct.deinit();
            const g = try direct.getFunction("saxpy");
            g.deinit();

            try expectError(error.InvalidImage, dc.Module.load(dev, "not an image at all", .{}), &.{"dc_module_load"});
        }
    }.run);
}

test "the kernel cache answers a repeated compile" {
    try support.requireNvrtc();
    try support.withDevice(struct {
        fn run(dev: *dc.Device) !void {
            _ = try dc.cacheDirectory();
            const first = try dc.Program.compile(support.kernels, .{ .device = dev });
            defer first.deinit();
            const second = try dc.Program.compile(support.kernels, .{ .device = dev });
            defer second.deinit();
            try testing.expectEqual(dc.CacheSource.memory, try second.cacheSource());
            const a = try first.output();
            const b = try second.output();
            try testing.expectEqualSlices(u8, a.data, b.data);
            const uncached = try dc.Program.compile(support.kernels, .{ .device = dev, .flags = .{ .no_cache = true } });
            defer uncached.deinit();
            try testing.expectEqual(dc.CacheSource.miss, try uncached.cacheSource());
        }
    }.run);
}
