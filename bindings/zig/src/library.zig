//! The library as a whole: version, initialisation, the driver and NVRTC
//! underneath, handle counts and the kernel cache.

const std = @import("std");
const c = @import("c.zig");
const errors = @import("errors.zig");
const DcError = errors.DcError;
const check = errors.check;

/// The version of the loaded library, MAJOR * 1000000 + MINOR * 1000 + PATCH.
pub fn version() u32 {
    return c.dc_version();
}

/// The version this binding was written against (the header's DCCUDA_VERSION).
pub const binding_version: u32 = c.DCCUDA_VERSION;

/// dc_init_options.flags.
pub const InitFlags = packed struct(u32) {
    no_nvrtc: bool = false,
    no_disk_cache: bool = false,
    no_memory_cache: bool = false,
    report_leaks: bool = false,
    _reserved: u28 = 0,
};

pub const InitOptions = struct {
    flags: InitFlags = .{},
    /// null: $DCCUDA_DRIVER_LIBRARY, else libcuda.so.1.
    driver_library: ?[*:0]const u8 = null,
    /// null: $DCCUDA_NVRTC_LIBRARY, else libnvrtc.so.13, then .12.
    nvrtc_library: ?[*:0]const u8 = null,
    /// null: $DCCUDA_CACHE_DIR, else $XDG_CACHE_HOME/dccuda, else ~/.cache/dccuda.
    cache_dir: ?[*:0]const u8 = null,
    /// 0: $DCCUDA_CACHE_MAX_BYTES, else 1 GiB.
    cache_max_bytes: u64 = 0,
};

/// Initialise with explicit options, at most once and before any other
/// fallible call (without it the first call uses the defaults).
/// error.NoDriver still leaves NVRTC and the cache usable.
pub fn init(options: InitOptions) DcError!void {
    const o = c.dc_init_options{
        .flags = @bitCast(options.flags),
        .driver_library = options.driver_library,
        .nvrtc_library = options.nvrtc_library,
        .cache_dir = options.cache_dir,
        .cache_max_bytes = options.cache_max_bytes,
    };
    try check(c.dc_init(&o));
}

/// The CUDA version the driver supports (12040 = 12.4).
pub fn driverVersion() DcError!i32 {
    var v: i32 = 0;
    try check(c.dc_driver_version(&v));
    return v;
}

/// The path or name the driver was loaded from (static for the process).
pub fn driverLibrary() DcError![:0]const u8 {
    var p: ?[*:0]const u8 = null;
    try check(c.dc_driver_library(&p));
    return errors.span(p);
}

pub const NvrtcVersion = struct { major: i32, minor: i32 };

/// The loaded NVRTC's version; error.NoCompiler without NVRTC.
pub fn nvrtcVersion() DcError!NvrtcVersion {
    var v = NvrtcVersion{ .major = 0, .minor = 0 };
    try check(c.dc_nvrtc_version(&v.major, &v.minor));
    return v;
}

/// The architectures the loaded NVRTC targets (10 * major + minor,
/// ascending), written to `buffer`; the slice of it they fill.
/// error.OutOfRange when `buffer` is too small.
pub fn nvrtcSupportedArchs(buffer: []i32) DcError![]i32 {
    var count: u32 = 0;
    // (The raw layer types the array as a single pointer: its first element.)
    try check(c.dc_nvrtc_supported_archs(if (buffer.len == 0) null else @ptrCast(buffer.ptr), @intCast(buffer.len), &count));
    return buffer[0..count];
}

/// DC_HANDLE_*: what handleCount counts.
pub const HandleType = enum(i32) {
    device = c.DC_HANDLE_DEVICE,
    buffer = c.DC_HANDLE_BUFFER,
    stream = c.DC_HANDLE_STREAM,
    event = c.DC_HANDLE_EVENT,
    program = c.DC_HANDLE_PROGRAM,
    module = c.DC_HANDLE_MODULE,
    function = c.DC_HANDLE_FUNCTION,
    launch = c.DC_HANDLE_LAUNCH,
    graph = c.DC_HANDLE_GRAPH,
    pool = c.DC_HANDLE_POOL,
    library = c.DC_HANDLE_LIBRARY,
    comm = c.DC_HANDLE_COMM,
    _,
};

/// How many handles of a type are live in this process (a leak check).
pub fn handleCount(handle_type: HandleType) DcError!u64 {
    var n: u64 = 0;
    try check(c.dc_handle_count(@intFromEnum(handle_type), &n));
    return n;
}

/// Live handles of every type together.
pub fn liveHandles() DcError!u64 {
    var total: u64 = 0;
    inline for (@typeInfo(HandleType).@"enum".fields) |f| {
        total += try handleCount(@enumFromInt(f.value));
    }
    return total;
}

/// Which caches dc_cache_clear empties.
pub const CacheClear = packed struct(u32) {
    memory: bool = false,
    disk: bool = false,
    _reserved: u30 = 0,
};

/// Empty the in-process cache and/or the on-disk cache's entries.
pub fn cacheClear(which: CacheClear) DcError!void {
    try check(c.dc_cache_clear(@bitCast(which)));
}

/// The on-disk cache directory, "" when the disk cache is disabled.
pub fn cacheDirectory() DcError![:0]const u8 {
    var p: ?[*:0]const u8 = null;
    try check(c.dc_cache_directory(&p));
    return errors.span(p);
}

/// cacheDirectory() copied into memory of `allocator` (free it with allocator.free).
pub fn cacheDirectoryAlloc(allocator: std.mem.Allocator) errors.AllocError![:0]u8 {
    return errors.dupe(allocator, cacheDirectory());
}

/// driverLibrary() copied into memory of `allocator` (free it with allocator.free).
pub fn driverLibraryAlloc(allocator: std.mem.Allocator) errors.AllocError![:0]u8 {
    return errors.dupe(allocator, driverLibrary());
}

comptime {
    std.debug.assert(@as(u32, @bitCast(InitFlags{ .no_nvrtc = true })) == c.DC_INIT_NO_NVRTC);
    std.debug.assert(@as(u32, @bitCast(InitFlags{ .no_disk_cache = true })) == c.DC_INIT_NO_DISK_CACHE);
    std.debug.assert(@as(u32, @bitCast(InitFlags{ .no_memory_cache = true })) == c.DC_INIT_NO_MEMORY_CACHE);
    std.debug.assert(@as(u32, @bitCast(CacheClear{ .memory = true })) == c.DC_CACHE_CLEAR_MEMORY);
    std.debug.assert(@as(u32, @bitCast(CacheClear{ .disk = true })) == c.DC_CACHE_CLEAR_DISK);
}
