//! Builds the Zig binding as a package (the module `dccuda`) and its tests,
//! the saxpy sample and the benchmark against a built libdccuda. Tested with
//! Zig 0.14 (0.14.0-dev.2456, tests/scripts/get_zig.sh):
//!
//!     zig build test -Dlib-dir=../../build        # build and run the tests
//!     zig build -Dlib-dir=../../build             # install into zig-out/bin
//!
//! Used from another project (build.zig.zon names this folder or its tarball):
//!
//!     const dccuda = b.dependency("dccuda", .{ .@"lib-dir" = lib_dir });
//!     exe.root_module.addImport("dccuda", dccuda.module("dccuda"));
//!
//! The module carries its link settings (libc, -ldccuda and the library path),
//! so the importing executable needs nothing else.
//!
//! Options: -Dlib-dir (the folder with libdccuda.so): when not given, the
//! environment variable DCCUDA_LIB_DIR; then, inside the dccuda source tree,
//! ../../build when it holds the library; otherwise the linker's default
//! folders (an installed libdccuda). -Dtarget (default native;
//! x86_64-linux-gnu.2.28 runs on any glibc >= 2.28), -Doptimize (for the tests;
//! the sample is ReleaseSafe, the benchmark ReleaseFast). The programs link
//! libdccuda.so.1 dynamically, with no RPATH: run them with LD_LIBRARY_PATH
//! naming the library's folder.

const std = @import("std");

pub fn build(b: *std.Build) void {
    const target = b.standardTargetOptions(.{});
    const optimize = b.standardOptimizeOption(.{});
    const lib_dir = libDir(b);

    // The package's module: what `dependency.module("dccuda")` hands a consumer
    // (built for the -Dtarget and -Doptimize the consumer passes to b.dependency).
    const dccuda = b.addModule("dccuda", moduleOptions(b, target, optimize));
    linkLibrary(dccuda, lib_dir);

    const tests = b.addTest(.{
        .name = "dccuda-zig-tests",
        .root_source_file = b.path("tests/main.zig"),
        .target = target,
        .optimize = optimize,
    });
    tests.root_module.addImport("dccuda", dccuda);
    b.installArtifact(tests);

    const saxpy = b.addExecutable(.{
        .name = "dccuda-zig-saxpy",
        .root_source_file = b.path("samples/saxpy.zig"),
        .target = target,
        .optimize = .ReleaseSafe,
    });
    saxpy.root_module.addImport("dccuda", privateModule(b, target, .ReleaseSafe, lib_dir));
    b.installArtifact(saxpy);

    const bench = b.addExecutable(.{
        .name = "dccuda-zig-bench",
        .root_source_file = b.path("bench/bench.zig"),
        .target = target,
        .optimize = .ReleaseFast,
    });
    bench.root_module.addImport("dccuda", privateModule(b, target, .ReleaseFast, lib_dir));
    b.installArtifact(bench);

    const run_tests = b.addRunArtifact(tests);
    if (lib_dir) |dir| run_tests.setEnvironmentVariable("LD_LIBRARY_PATH", dir);
    b.step("test", "Build and run the binding's tests (set DCCUDA_DRIVER_LIBRARY for the fake driver)").dependOn(&run_tests.step);

    const run_saxpy = b.addRunArtifact(saxpy);
    if (lib_dir) |dir| run_saxpy.setEnvironmentVariable("LD_LIBRARY_PATH", dir);
    b.step("saxpy", "Build and run the saxpy sample").dependOn(&run_saxpy.step);
}

fn moduleOptions(b: *std.Build, target: std.Build.ResolvedTarget, optimize: std.builtin.OptimizeMode) std.Build.Module.CreateOptions {
    return .{ .root_source_file = b.path("dccuda.zig"), .target = target, .optimize = optimize, .link_libc = true };
}

/// The module's link settings: libc, libdccuda and where it is.
fn linkLibrary(m: *std.Build.Module, lib_dir: ?[]const u8) void {
    if (lib_dir) |dir| m.addLibraryPath(.{ .cwd_relative = dir });
    m.linkSystemLibrary("dccuda", .{});
}

/// The module again, optimized as the sample or benchmark is.
fn privateModule(b: *std.Build, target: std.Build.ResolvedTarget, optimize: std.builtin.OptimizeMode, lib_dir: ?[]const u8) *std.Build.Module {
    const m = b.createModule(moduleOptions(b, target, optimize));
    linkLibrary(m, lib_dir);
    return m;
}

/// The folder holding libdccuda.so, or null for the linker's default folders.
/// A relative -Dlib-dir is taken from the folder zig build runs in (the
/// consumer's project), not from this package's folder.
fn libDir(b: *std.Build) ?[]const u8 {
    if (b.option([]const u8, "lib-dir", "Folder holding libdccuda.so (default: $DCCUDA_LIB_DIR, else ../../build in the source tree, else the linker's default folders)")) |dir|
        return absolute(b, dir);
    if (b.graph.env_map.get("DCCUDA_LIB_DIR")) |dir| if (dir.len > 0) return absolute(b, dir);
    const in_tree = b.pathFromRoot("../../build");
    const probe = b.pathJoin(&.{ in_tree, "libdccuda.so" });
    std.fs.cwd().access(probe, .{}) catch return null;
    return in_tree;
}

fn absolute(b: *std.Build, dir: []const u8) []const u8 {
    if (std.fs.path.isAbsolute(dir)) return dir;
    const cwd = std.process.getCwdAlloc(b.allocator) catch @panic("OOM");
    return b.pathJoin(&.{ cwd, dir });
}
