//! Kernels (dc_function): attributes, parameter layout, occupancy and
//! one-shot launches.

const std = @import("std");
const c = @import("c.zig");
const errors = @import("errors.zig");
const callback = @import("callback.zig");
const args_mod = @import("args.zig");
const DcError = errors.DcError;
const check = errors.check;
const Stream = @import("stream.zig").Stream;

pub const FunctionInfo = c.dc_function_info;
pub const LaunchConfig = c.dc_launch_config;
pub const Arg = c.dc_arg;

/// DC_CACHE_PREFER_* (cuda.h's CUfunc_cache).
pub const CachePreference = enum(i32) {
    none = c.DC_CACHE_PREFER_NONE,
    shared = c.DC_CACHE_PREFER_SHARED,
    l1 = c.DC_CACHE_PREFER_L1,
    equal = c.DC_CACHE_PREFER_EQUAL,
    _,
};

/// DC_LAUNCH_* flags for LaunchConfig.flags (`@bitCast` them, or use the constants).
pub const LaunchFlags = packed struct(u32) {
    cooperative: bool = false,
    programmatic_serialization: bool = false,
    /// A resident kernel (DC_LAUNCH_PERSISTENT): launched once on a created
    /// stream, stopped through its control block (dc.Control).
    persistent: bool = false,
    _reserved: u29 = 0,

    comptime {
        std.debug.assert(@as(u32, @bitCast(LaunchFlags{ .cooperative = true })) == c.DC_LAUNCH_COOPERATIVE);
        std.debug.assert(@as(u32, @bitCast(LaunchFlags{ .programmatic_serialization = true })) == c.DC_LAUNCH_PROGRAMMATIC_SERIALIZATION);
        std.debug.assert(@as(u32, @bitCast(LaunchFlags{ .persistent = true })) == c.DC_LAUNCH_PERSISTENT);
    }
};

pub const ParamInfo = struct { offset: u64, size: u64 };
pub const BlockSize = struct { min_grid_size: i32, block_size: i32 };

pub const Function = opaque {
    /// Release the handle; the module stays loaded while functions live.
    pub fn deinit(self: *Function) void {
        c.dc_function_release(self);
    }

    /// The kernel's name, valid while the function lives.
    pub fn name(self: *Function) DcError![:0]const u8 {
        var p: ?[*:0]const u8 = null;
        try check(c.dc_function_name(self, &p));
        return errors.span(p);
    }

    /// name() copied into memory of `allocator`, valid after the function is
    /// released (free it with allocator.free).
    pub fn nameAlloc(self: *Function, allocator: std.mem.Allocator) errors.AllocError![:0]u8 {
        return errors.dupe(allocator, self.name());
    }

    pub fn info(self: *Function) DcError!FunctionInfo {
        var i = FunctionInfo{};
        try check(c.dc_function_get_info(self, &i));
        return i;
    }

    /// Any CU_FUNC_ATTRIBUTE_* (its numeric value in cuda.h).
    pub fn attribute(self: *Function, attr: i32) DcError!i32 {
        var v: i32 = 0;
        try check(c.dc_function_attribute(self, attr, &v));
        return v;
    }

    pub fn setAttribute(self: *Function, attr: i32, value: i32) DcError!void {
        try check(c.dc_function_set_attribute(self, attr, value));
    }

    pub fn setCacheConfig(self: *Function, preference: CachePreference) DcError!void {
        try check(c.dc_function_set_cache_config(self, @intFromEnum(preference)));
    }

    pub fn paramCount(self: *Function) DcError!u32 {
        var n: u32 = 0;
        try check(c.dc_function_param_count(self, &n));
        return n;
    }

    /// Byte offset and size of parameter `index` in the packed parameter block.
    pub fn paramInfo(self: *Function, index: u32) DcError!ParamInfo {
        var p = ParamInfo{ .offset = 0, .size = 0 };
        try check(c.dc_function_param_info(self, index, &p.offset, &p.size));
        return p;
    }

    /// The raw CUfunction.
    pub fn native(self: *Function) DcError!?*anyopaque {
        var p: ?*anyopaque = null;
        try check(c.dc_function_native(self, &p));
        return p;
    }

    /// A 1-D configuration covering `n` threads at the best occupancy.
    pub fn config1d(self: *Function, n: u64, shared_memory_bytes: u32) DcError!LaunchConfig {
        var cfg = LaunchConfig{};
        try check(c.dc_launch_config_1d(self, n, shared_memory_bytes, &cfg));
        return cfg;
    }

    /// Launch once on `stream` with the arguments of a tuple:
    /// `try saxpy.launch(cfg, .{ n, a, x, y }, stream)` (see args.zig for how
    /// each value is passed). Checked against the kernel's parameters.
    pub fn launch(self: *Function, config: LaunchConfig, args: anytype, stream: *Stream) DcError!void {
        var vals = args_mod.values(args);
        const packed_args = args_mod.pack(&vals);
        try self.launchArgs(config, &packed_args, stream);
    }

    /// Launch once with prepared dc_args.
    pub fn launchArgs(self: *Function, config: LaunchConfig, args: []const Arg, stream: *Stream) DcError!void {
        const n = std.math.cast(u32, args.len) orelse return error.InvalidArgument;
        try check(c.dc_launch_kernel(self, &config, args.ptr, n, stream));
    }

    /// Launch with every parameter packed in one block laid out as the
    /// kernel's parameters (`params` points to an extern struct, or is a slice).
    pub fn launchPacked(self: *Function, config: LaunchConfig, params: anytype, stream: *Stream) DcError!void {
        const P = @TypeOf(params);
        const bytes: []const u8 = switch (@typeInfo(P).pointer.size) {
            .Slice => std.mem.sliceAsBytes(params),
            .One => std.mem.asBytes(params),
            else => @compileError("launchPacked takes a slice or a single-item pointer, got " ++ @typeName(P)),
        };
        try check(c.dc_launch_kernel_packed(self, &config, bytes.ptr, bytes.len, stream));
    }

    /// Blocks of `block_size` threads resident per multiprocessor.
    pub fn maxActiveBlocks(self: *Function, block_size: i32, dynamic_shared_bytes: u64) DcError!i32 {
        var n: i32 = 0;
        try check(c.dc_occupancy_max_active_blocks(self, block_size, dynamic_shared_bytes, &n));
        return n;
    }

    /// The block size with the best occupancy (constant dynamic shared memory;
    /// block_size_limit 0 = none) and the grid size that fills the device.
    pub fn maxPotentialBlockSize(self: *Function, dynamic_shared_bytes: u64, block_size_limit: i32) DcError!BlockSize {
        var r = BlockSize{ .min_grid_size = 0, .block_size = 0 };
        try check(c.dc_occupancy_max_potential_block_size(self, null, null, dynamic_shared_bytes, block_size_limit, &r.min_grid_size, &r.block_size));
        return r;
    }

    /// As maxPotentialBlockSize, with the dynamic shared memory of each block
    /// size given by `func(context, block_size)` (called on this thread).
    pub fn maxPotentialBlockSizeWith(
        self: *Function,
        context: anytype,
        comptime func: fn (@TypeOf(context), i32) u64,
        block_size_limit: i32,
    ) DcError!BlockSize {
        const Ctx = @TypeOf(context);
        const Trampoline = struct {
            fn call(block_size: i32, user_data: ?*anyopaque) callconv(.C) u64 {
                return func(callback.fromUserData(Ctx, user_data), block_size);
            }
        };
        var r = BlockSize{ .min_grid_size = 0, .block_size = 0 };
        try check(c.dc_occupancy_max_potential_block_size(self, Trampoline.call, callback.toUserData(context), 0, block_size_limit, &r.min_grid_size, &r.block_size));
        return r;
    }

    /// Clusters of config.cluster that can be co-resident.
    pub fn maxActiveClusters(self: *Function, config: LaunchConfig) DcError!i32 {
        var n: i32 = 0;
        try check(c.dc_occupancy_max_active_clusters(self, &config, &n));
        return n;
    }

    /// Dynamic shared memory per block when `num_blocks` blocks of `block_size` share an SM.
    pub fn availableDynamicShared(self: *Function, num_blocks: i32, block_size: i32) DcError!u64 {
        var n: u64 = 0;
        try check(c.dc_occupancy_available_dynamic_shared(self, num_blocks, block_size, &n));
        return n;
    }
};

comptime {
    std.debug.assert(@as(u32, @bitCast(LaunchFlags{ .cooperative = true })) == c.DC_LAUNCH_COOPERATIVE);
    std.debug.assert(@as(u32, @bitCast(LaunchFlags{ .programmatic_serialization = true })) == c.DC_LAUNCH_PROGRAMMATIC_SERIALIZATION);
}
