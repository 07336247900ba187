//! Linking device code (dc_link): relocatable code and LTO-IR of several
//! programs, files and archives into one CUBIN, with nvJitLink (else the
//! driver's cuLink), through the kernel cache. The result is a *Program;
//! load it with Module.loadProgram.

const c = @import("c.zig");
const errors = @import("errors.zig");
const DcError = errors.DcError;
const check = errors.check;
const Device = @import("device.zig").Device;
const Program = @import("compile.zig").Program;

/// DC_LINK_INPUT_*: what an input's bytes are.
pub const LinkInputKind = enum(i32) {
    cubin = c.DC_LINK_INPUT_CUBIN,
    ptx = c.DC_LINK_INPUT_PTX,
    ltoir = c.DC_LINK_INPUT_LTOIR,
    fatbin = c.DC_LINK_INPUT_FATBIN,
    object = c.DC_LINK_INPUT_OBJECT,
    library = c.DC_LINK_INPUT_LIBRARY,
    _,
};

/// One input of link(), borrowed for the call.
pub const LinkInput = union(enum) {
    /// A compiled program's output (relocatable CUBIN, PTX or LTO-IR).
    program: *Program,
    /// Bytes of a kind, and the name the linker's logs give them.
    bytes: struct { kind: LinkInputKind, data: []const u8, name: ?[*:0]const u8 = null },
    /// A file of a kind, read during the call.
    file: struct { kind: LinkInputKind, path: [*:0]const u8 },
    /// The device runtime (libcudadevrt): found in the toolkit, or at `path`.
    device_runtime: ?[*:0]const u8,

    fn toC(self: LinkInput) c.dc_link_input {
        return switch (self) {
            .program => |p| .{ .kind = c.DC_LINK_INPUT_PROGRAM, .program = p },
            .bytes => |b| .{ .kind = @intFromEnum(b.kind), .data = b.data.ptr, .size = b.data.len, .name = b.name },
            .file => |f| .{ .kind = @intFromEnum(f.kind), .path = f.path },
            .device_runtime => |path| .{ .kind = c.DC_LINK_INPUT_DEVICE_RUNTIME, .path = path },
        };
    }
};

/// DC_LINK_*.
pub const LinkFlags = packed struct(u32) {
    lto: bool = false,
    debug: bool = false,
    line_info: bool = false,
    use_driver: bool = false,
    no_cache: bool = false,
    _reserved: u27 = 0,
};

/// dc_link_options with a slice for the raw options.
pub const LinkOptions = struct {
    /// 10 * major + minor (90 = sm_90); 0: the device's own.
    arch: i32 = 0,
    flags: LinkFlags = .{},
    /// -O: 0..3 (nvJitLink takes 0 and 3); -1: the linker's default.
    optimization_level: i32 = -1,
    /// -maxrregcount; 0 = no limit.
    max_registers: i32 = 0,
    /// Raw nvJitLink options.
    options: []const [*:0]const u8 = &.{},
};

/// The most inputs link() takes (the library takes 4096; this bounds the stack).
pub const max_inputs = 64;

/// Link `inputs` into one CUBIN. `device` supplies the architecture when
/// options.arch is 0 and the context the driver's cuLink links in. On
/// error.Compile (an undefined symbol...) lastError().detail holds the
/// linker's error log.
pub fn link(inputs: []const LinkInput, options: LinkOptions, device: ?*Device) DcError!*Program {
    if (inputs.len > max_inputs) @panic("dccuda.link: more than max_inputs inputs");
    var raw: [max_inputs]c.dc_link_input = undefined;
    for (inputs, 0..) |input, i| raw[i] = input.toC();
    var o: c.dc_link_options = .{};
    o.arch = options.arch;
    o.flags = @bitCast(options.flags);
    o.optimization_level = options.optimization_level;
    o.max_registers = options.max_registers;
    o.num_options = @intCast(options.options.len);
    o.options = if (options.options.len == 0) null else options.options.ptr;
    var p: ?*Program = null;
    try check(c.dc_link(if (inputs.len == 0) null else &raw, @intCast(inputs.len), &o, device, &p));
    return errors.handle(Program, p);
}

pub const NvJitLinkVersion = struct { major: i32, minor: i32 };

/// The version of the nvJitLink link() uses ({0, 0} when it cannot say);
/// error.NotSupported without one.
pub fn nvjitlinkVersion() DcError!NvJitLinkVersion {
    var v: NvJitLinkVersion = .{ .major = 0, .minor = 0 };
    try check(c.dc_nvjitlink_version(&v.major, &v.minor));
    return v;
}
