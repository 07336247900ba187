//! A consumer of the dccuda package, as a user's project would be written:
//! the dependency comes from build.zig.zon, the module from the dependency,
//! and nothing about linking is repeated here (the module carries it).
//!
//!     zig build -Dlib-dir=<folder with libdccuda.so>     # or DCCUDA_LIB_DIR

const std = @import("std");

pub fn build(b: *std.Build) void {
    const target = b.standardTargetOptions(.{});
    const optimize = b.standardOptimizeOption(.{});
    const lib_dir = b.option([]const u8, "lib-dir", "Folder holding libdccuda.so, handed to the dccuda package");

    const dccuda = if (lib_dir) |dir|
        b.dependency("dccuda", .{ .target = target, .optimize = optimize, .@"lib-dir" = dir })
    else
        b.dependency("dccuda", .{ .target = target, .optimize = optimize });

    const exe = b.addExecutable(.{
        .name = "dccuda-zig-consumer",
        .root_source_file = b.path("src/main.zig"),
        .target = target,
        .optimize = optimize,
    });
    exe.root_module.addImport("dccuda", dccuda.module("dccuda"));
    b.installArtifact(exe);
}
