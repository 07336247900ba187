//! Runtime compilation with NVRTC (dc_program) and the kernel cache.

const std = @import("std");
const c = @import("c.zig");
const errors = @import("errors.zig");
const DcError = errors.DcError;
const check = errors.check;
const Device = @import("device.zig").Device;

/// DC_OUTPUT_*.
pub const Output = enum(i32) {
    cubin = c.DC_OUTPUT_CUBIN,
    ptx = c.DC_OUTPUT_PTX,
    ltoir = c.DC_OUTPUT_LTOIR,
    _,
};

/// DC_COMPILE_*.
pub const CompileFlags = packed struct(u32) {
    fast_math: bool = false,
    line_info: bool = false,
    device_debug: bool = false,
    relocatable: bool = false,
    arch_specific: bool = false,
    no_cache: bool = false,
    /// DC_COMPILE_TOOLKIT_HEADERS: the installed toolkit's include directories (CCCL, cooperative groups).
    toolkit_headers: bool = false,
    _reserved: u25 = 0,
};

/// DC_CACHE_MISS / DC_CACHE_MEMORY / DC_CACHE_DISK.
pub const CacheSource = enum(i32) {
    miss = c.DC_CACHE_MISS,
    memory = c.DC_CACHE_MEMORY,
    disk = c.DC_CACHE_DISK,
    _,
};

/// dc_compile's arguments with slices instead of count + pointer pairs.
pub const CompileOptions = struct {
    /// The source's name in diagnostics; null: "dccuda.cu".
    name: ?[*:0]const u8 = null,
    /// Supplies the architecture when `arch` is 0 (Program.compile only;
    /// Module.compileAndLoad takes its device as a parameter).
    device: ?*Device = null,
    output: Output = .cubin,
    /// 10 * major + minor (90 = sm_90); 0: the device's own.
    arch: i32 = 0,
    flags: CompileFlags = .{},
    /// --maxrregcount; 0 = no limit.
    max_registers: i32 = 0,
    /// "c++17", "c++20"...; null: NVRTC's default.
    std: ?[*:0]const u8 = null,
    /// Raw NVRTC options, passed as they are.
    options: []const [*:0]const u8 = &.{},
    /// "NAME" or "NAME=VALUE".
    defines: []const [*:0]const u8 = &.{},
    include_paths: []const [*:0]const u8 = &.{},
    /// In-memory headers: header_names[i] is #included as header_sources[i];
    /// the two slices must have the same length.
    header_names: []const [*:0]const u8 = &.{},
    header_sources: []const [*:0]const u8 = &.{},
    /// Expressions whose lowered names you need ("scale<float>"): see Program.loweredName.
    name_expressions: []const [*:0]const u8 = &.{},

    /// The C struct; it borrows the slices, which must outlive the call.
    pub fn toC(self: *const CompileOptions) c.dc_compile_options {
        if (self.header_names.len != self.header_sources.len)
            @panic("dccuda.CompileOptions: header_names and header_sources differ in length");
        return .{
            .output = @intFromEnum(self.output),
            .arch = self.arch,
            .flags = @bitCast(self.flags),
            .max_registers = self.max_registers,
            .num_options = count(self.options),
            .num_defines = count(self.defines),
            .num_include_paths = count(self.include_paths),
            .num_headers = count(self.header_names),
            .num_name_expressions = count(self.name_expressions),
            .std = self.std,
            .options = self.options.ptr,
            .defines = self.defines.ptr,
            .include_paths = self.include_paths.ptr,
            .header_names = self.header_names.ptr,
            .header_sources = self.header_sources.ptr,
            .name_expressions = self.name_expressions.ptr,
        };
    }

    fn count(list: []const [*:0]const u8) u32 {
        // More than 4 billion strings cannot be passed: saturate and let the
        // library refuse the inconsistent request rather than wrap around.
        return std.math.cast(u32, list.len) orelse std.math.maxInt(u32);
    }
};

pub const ProgramOutput = struct {
    kind: Output,
    /// The image (PTX includes its terminating NUL), valid while the program lives.
    data: []const u8,
};

/// A compiled program: its image, log and lowered names.
pub const Program = opaque {
    /// Compile CUDA C++ with NVRTC (through the kernel cache). On
    /// error.Compile, lastError().detail holds the whole compiler log.
    pub fn compile(source: [:0]const u8, options: CompileOptions) DcError!*Program {
        const o = options.toC();
        var p: ?*Program = null;
        try check(c.dc_compile(source.ptr, options.name, &o, options.device, &p));
        return errors.handle(Program, p);
    }

    pub fn deinit(self: *Program) void {
        c.dc_program_release(self);
    }

    pub fn output(self: *Program) DcError!ProgramOutput {
        var kind: i32 = 0;
        var data: ?*const anyopaque = null;
        var n: u64 = 0;
        try check(c.dc_program_output(self, &kind, &data, &n));
        const bytes: [*]const u8 = @ptrCast(data orelse return .{ .kind = @enumFromInt(kind), .data = &.{} });
        return .{ .kind = @enumFromInt(kind), .data = bytes[0..@intCast(n)] };
    }

    /// The compiler's log (warnings), "" if empty.
    pub fn log(self: *Program) DcError![:0]const u8 {
        var p: ?[*:0]const u8 = null;
        try check(c.dc_program_log(self, &p));
        return errors.span(p);
    }

    /// The mangled name of a name expression given at compile time.
    pub fn loweredName(self: *Program, name_expression: [:0]const u8) DcError![:0]const u8 {
        var p: ?[*:0]const u8 = null;
        try check(c.dc_program_lowered_name(self, name_expression.ptr, &p));
        return errors.span(p);
    }

    /// log() copied into memory of `allocator`, valid after the program is
    /// released (free it with allocator.free).
    pub fn logAlloc(self: *Program, allocator: std.mem.Allocator) errors.AllocError![:0]u8 {
        return errors.dupe(allocator, self.log());
    }

    /// loweredName() copied into memory of `allocator` (free it with allocator.free).
    pub fn loweredNameAlloc(self: *Program, name_expression: [:0]const u8, allocator: std.mem.Allocator) errors.AllocError![:0]u8 {
        return errors.dupe(allocator, self.loweredName(name_expression));
    }

    pub fn cacheSource(self: *Program) DcError!CacheSource {
        var s: i32 = 0;
        try check(c.dc_program_cache_source(self, &s));
        return @enumFromInt(s);
    }
};

comptime {
    const a = std.debug.assert;
    a(@as(u32, @bitCast(CompileFlags{ .fast_math = true })) == c.DC_COMPILE_FAST_MATH);
    a(@as(u32, @bitCast(CompileFlags{ .line_info = true })) == c.DC_COMPILE_LINE_INFO);
    a(@as(u32, @bitCast(CompileFlags{ .device_debug = true })) == c.DC_COMPILE_DEVICE_DEBUG);
    a(@as(u32, @bitCast(CompileFlags{ .relocatable = true })) == c.DC_COMPILE_RELOCATABLE);
    a(@as(u32, @bitCast(CompileFlags{ .arch_specific = true })) == c.DC_COMPILE_ARCH_SPECIFIC);
    a(@as(u32, @bitCast(CompileFlags{ .no_cache = true })) == c.DC_COMPILE_NO_CACHE);
}
