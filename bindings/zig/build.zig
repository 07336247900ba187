//! Builds the Zig binding's tests, the saxpy sample and the benchmark
//! against a built libdccuda (Zig 0.11):
//!
//!     zig build test -Dlib-dir=../../build        # build and run the tests
//!     zig build -Dlib-dir=../../build             # install into zig-out/bin
//!
//! Options: -Dlib-dir (the folder with libdccuda.so; default ../../build),
//! -Dtarget (default native; x86_64-linux-gnu.2.28 runs on any glibc >= 2.28),
//! -Doptimize (for the tests; the sample is ReleaseSafe, the benchmark
//! ReleaseFast). The programs link libdccuda.so.1 dynamically, with no RPATH:
//! run them with LD_LIBRARY_PATH naming the library's folder.

const std = @import("std");

pub fn build(b: *std.Build) void {
    const target = b.standardTargetOptions(.{});
    const optimize = b.standardOptimizeOption(.{});
    const lib_dir = b.pathFromRoot(b.option([]const u8, "lib-dir", "Folder holding libdccuda.so (default ../../build)") orelse "../../build");

    const dccuda = b.addModule("dccuda", .{ .source_file = .{ .path = "dccuda.zig" } });

    const tests = b.addTest(.{
        .name = "dccuda-zig-tests",
        .root_source_file = .{ .path = "tests/main.zig" },
        .target = target,
        .optimize = optimize,
    });
    link(tests, dccuda, lib_dir);
    b.installArtifact(tests);

    const saxpy = b.addExecutable(.{
        .name = "dccuda-zig-saxpy",
        .root_source_file = .{ .path = "samples/saxpy.zig" },
        .target = target,
        .optimize = .ReleaseSafe,
    });
    link(saxpy, dccuda, lib_dir);
    b.installArtifact(saxpy);

    const bench = b.addExecutable(.{
        .name = "dccuda-zig-bench",
        .root_source_file = .{ .path = "bench/bench.zig" },
        .target = target,
        .optimize = .ReleaseFast,
    });
    link(bench, dccuda, lib_dir);
    b.installArtifact(bench);

    const run_tests = b.addRunArtifact(tests);
    run_tests.setEnvironmentVariable("LD_LIBRARY_PATH", lib_dir);
    b.step("test", "Build and run the binding's tests (set DCCUDA_DRIVER_LIBRARY for the fake driver)").dependOn(&run_tests.step);

    const run_saxpy = b.addRunArtifact(saxpy);
    run_saxpy.setEnvironmentVariable("LD_LIBRARY_PATH", lib_dir);
    b.step("saxpy", "Build and run the saxpy sample").dependOn(&run_saxpy.step);
}

fn link(step: *std.Build.Step.Compile, dccuda: *std.Build.Module, lib_dir: []const u8) void {
    step.addModule("dccuda", dccuda);
    step.linkLibC();
    step.addLibraryPath(.{ .cwd_relative = lib_dir });
    step.linkSystemLibrary("dccuda");
}
