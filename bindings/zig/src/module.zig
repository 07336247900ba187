//! Modules (dc_module): loaded PTX, CUBIN or fatbin images, their kernels and globals.

const std = @import("std");
const c = @import("c.zig");
const errors = @import("errors.zig");
const DcError = errors.DcError;
const check = errors.check;
const Device = @import("device.zig").Device;
const Buffer = @import("buffer.zig").Buffer;
const Function = @import("function.zig").Function;
const compile = @import("compile.zig");
const Program = compile.Program;
const CompileOptions = compile.CompileOptions;

/// DC_JIT_* (PTX JIT options).
pub const JitFlags = packed struct(u32) {
    line_info: bool = false,
    debug: bool = false,
    _reserved: u30 = 0,
};

pub const ModuleOptions = struct {
    flags: JitFlags = .{},
    /// PTX JIT: 0..4; -1 = the driver's default.
    optimization_level: i32 = -1,
    /// PTX JIT: 0 = no limit.
    max_registers: i32 = 0,
    /// Bytes of JIT log kept; 0 = 16 KiB.
    log_size: u32 = 0,

    pub fn toC(self: ModuleOptions) c.dc_module_options {
        return .{
            .flags = @bitCast(self.flags),
            .optimization_level = self.optimization_level,
            .max_registers = self.max_registers,
            .log_size = self.log_size,
        };
    }
};

pub const Module = opaque {
    /// Load an image from memory (copied; PTX is JIT-compiled). On
    /// error.InvalidImage, lastError().detail holds the JIT log.
    pub fn load(device: *Device, image: []const u8, options: ModuleOptions) DcError!*Module {
        const o = options.toC();
        var m: ?*Module = null;
        try check(c.dc_module_load(device, image.ptr, image.len, &o, &m));
        return errors.handle(Module, m);
    }

    pub fn loadFile(device: *Device, path: [:0]const u8, options: ModuleOptions) DcError!*Module {
        const o = options.toC();
        var m: ?*Module = null;
        try check(c.dc_module_load_file(device, path.ptr, &o, &m));
        return errors.handle(Module, m);
    }

    pub fn loadProgram(device: *Device, program: *Program, options: ModuleOptions) DcError!*Module {
        const o = options.toC();
        var m: ?*Module = null;
        try check(c.dc_module_load_program(device, program, &o, &m));
        return errors.handle(Module, m);
    }

    /// Compile for `device` (through the cache) and load: CUDA C++ to a module
    /// in one call. `options.device` is not used; `options.output` must be
    /// CUBIN or PTX.
    pub fn compileAndLoad(device: *Device, source: [:0]const u8, options: CompileOptions) DcError!*Module {
        const o = options.toC();
        var m: ?*Module = null;
        try check(c.dc_module_compile_and_load(device, source.ptr, options.name, &o, &m));
        return errors.handle(Module, m);
    }

    /// Release the module; its functions keep it loaded until they are released.
    pub fn deinit(self: *Module) void {
        c.dc_module_release(self);
    }

    /// The JIT info log of the load ("" for CUBIN).
    pub fn jitLog(self: *Module) DcError![:0]const u8 {
        var p: ?[*:0]const u8 = null;
        try check(c.dc_module_jit_log(self, &p));
        return errors.span(p);
    }

    /// jitLog() copied into memory of `allocator` (free it with allocator.free).
    pub fn jitLogAlloc(self: *Module, allocator: std.mem.Allocator) errors.AllocError![:0]u8 {
        return errors.dupe(allocator, self.jitLog());
    }

    /// A kernel by its (mangled) name; error.NotFound lists the module's kernels
    /// in the message.
    pub fn getFunction(self: *Module, name: [:0]const u8) DcError!*Function {
        var f: ?*Function = null;
        try check(c.dc_module_get_function(self, name.ptr, &f));
        return errors.handle(Function, f);
    }

    pub fn functionCount(self: *Module) DcError!u32 {
        var n: u32 = 0;
        try check(c.dc_module_function_count(self, &n));
        return n;
    }

    pub fn functionName(self: *Module, index: u32) DcError![:0]const u8 {
        var p: ?[*:0]const u8 = null;
        try check(c.dc_module_function_name(self, index, &p));
        return errors.span(p);
    }

    /// functionName() copied into memory of `allocator` (free it with allocator.free).
    pub fn functionNameAlloc(self: *Module, index: u32, allocator: std.mem.Allocator) errors.AllocError![:0]u8 {
        return errors.dupe(allocator, self.functionName(index));
    }

    /// A __device__ / __constant__ variable as a buffer (deinit it).
    pub fn getGlobal(self: *Module, name: [:0]const u8) DcError!*Buffer {
        var b: ?*Buffer = null;
        try check(c.dc_module_get_global(self, name.ptr, &b));
        return errors.handle(Buffer, b);
    }
};

comptime {
    std.debug.assert(@as(u32, @bitCast(JitFlags{ .line_info = true })) == c.DC_JIT_LINE_INFO);
    std.debug.assert(@as(u32, @bitCast(JitFlags{ .debug = true })) == c.DC_JIT_DEBUG);
}
