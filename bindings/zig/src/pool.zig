//! Memory pools you control (dc_pool): a stream-ordered pool of your own on
//! one device, with its size limit, release threshold, reuse rules,
//! statistics and peer access. Buffers from it are ordinary `*Buffer`s; each
//! keeps the pool alive, so `deinit` on the pool while buffers from it live is
//! safe (the library destroys the driver's pool after the last of them).

const c = @import("c.zig");
const errors = @import("errors.zig");
const DcError = errors.DcError;
const check = errors.check;
const Device = @import("device.zig").Device;
const Buffer = @import("buffer.zig").Buffer;
const IpcHandle = @import("buffer.zig").IpcHandle;
const Stream = @import("stream.zig").Stream;

/// DC_POOL_* attributes.
pub const PoolAttribute = enum(i32) {
    /// 0 or 1: reuse memory freed on another stream once an event orders the two.
    reuse_follow_event_dependencies = c.DC_POOL_REUSE_FOLLOW_EVENT_DEPENDENCIES,
    /// 0 or 1: reuse memory whose free has completed, without a dependency.
    reuse_allow_opportunistic = c.DC_POOL_REUSE_ALLOW_OPPORTUNISTIC,
    /// 0 or 1: let the driver insert dependencies to reuse memory.
    reuse_allow_internal_dependencies = c.DC_POOL_REUSE_ALLOW_INTERNAL_DEPENDENCIES,
    /// Bytes of freed memory kept cached at a synchronisation.
    release_threshold = c.DC_POOL_RELEASE_THRESHOLD,
};

/// A pool's statistics (dc_pool_stats): bytes reserved and in use, now and at
/// their high-water marks.
pub const PoolStats = c.dc_pool_stats;

/// DC_POOL_* creation flags.
pub const PoolFlags = packed struct(u32) {
    /// Its memory may be shared with other processes (Linux).
    exportable: bool = false,
    _reserved: u31 = 0,
};

pub const Pool = opaque {
    /// A pool on `dev` reserving at most `max_size` bytes (0: the device's
    /// memory; a limit needs a CUDA 12.2 driver).
    pub fn create(dev: *Device, max_size: u64, flags: PoolFlags) DcError!*Pool {
        var p: ?*Pool = null;
        try check(c.dc_pool_create(dev, max_size, @bitCast(flags), &p));
        return errors.handle(Pool, p);
    }

    /// Release the pool (its buffers keep it alive until they are released).
    pub fn deinit(self: *Pool) void {
        c.dc_pool_release(self);
    }

    pub fn setAttribute(self: *Pool, which: PoolAttribute, value: u64) DcError!void {
        try check(c.dc_pool_set_attribute(self, @intFromEnum(which), value));
    }

    pub fn attribute(self: *Pool, which: PoolAttribute) DcError!u64 {
        var v: u64 = 0;
        try check(c.dc_pool_attribute(self, @intFromEnum(which), &v));
        return v;
    }

    pub fn stats(self: *Pool) DcError!PoolStats {
        var s: PoolStats = .{};
        try check(c.dc_pool_statistics(self, &s));
        return s;
    }

    /// Reset the high-water marks to the current values.
    pub fn resetHighWater(self: *Pool) DcError!void {
        try check(c.dc_pool_reset_high_water(self));
    }

    /// Give cached memory back until the pool reserves at most `keep_bytes`.
    pub fn trim(self: *Pool, keep_bytes: u64) DcError!void {
        try check(c.dc_pool_trim(self, keep_bytes));
    }

    /// Grant (or take back) `accessor`'s access to the pool's memory.
    pub fn setAccess(self: *Pool, accessor: *Device, enable: bool) DcError!void {
        try check(c.dc_pool_set_access(self, accessor, @intFromBool(enable)));
    }

    /// `byte_count` bytes from the pool: in stream order on `stream`, or,
    /// with null, usable from every stream when it returns.
    pub fn alloc(self: *Pool, stream: ?*Stream, byte_count: u64) DcError!*Buffer {
        var b: ?*Buffer = null;
        try check(c.dc_buffer_alloc_from_pool(self, stream, byte_count, &b));
        return errors.handle(Buffer, b);
    }

    /// Export the pool (made .exportable) for another process: bytes for
    /// `importIpc` there. Its buffers are exported with `Buffer.exportIpc`.
    pub fn exportIpc(self: *Pool) DcError!IpcHandle {
        var h: IpcHandle = undefined;
        try check(c.dc_pool_export_ipc(self, &h, h.len));
        return h;
    }

    /// Import a pool another process exported, taking its descriptor with
    /// pidfd_getfd (error.NotSupported where the system refuses: then use
    /// `exportFd` / `importFd` over a Unix socket). It holds imports only.
    pub fn importIpc(dev: *Device, handle: *const IpcHandle) DcError!*Pool {
        var p: ?*Pool = null;
        try check(c.dc_pool_import_ipc(dev, handle, handle.len, &p));
        return errors.handle(Pool, p);
    }

    /// The pool's file descriptor, to send yourself; it stays the pool's.
    pub fn exportFd(self: *Pool) DcError!i32 {
        var fd: i32 = 0;
        try check(c.dc_pool_export_fd(self, &fd));
        return fd;
    }

    /// Import a pool from a descriptor of this process for another process's
    /// exported pool; `fd` stays the caller's.
    pub fn importFd(dev: *Device, fd: i32) DcError!*Pool {
        var p: ?*Pool = null;
        try check(c.dc_pool_import_fd(dev, fd, &p));
        return errors.handle(Pool, p);
    }

    /// Import into this imported pool a buffer the exporter allocated from it
    /// and exported; it keeps the pool alive. Deinit it before the exporter
    /// releases its buffer.
    pub fn importBuffer(self: *Pool, handle: *const IpcHandle) DcError!*Buffer {
        var b: ?*Buffer = null;
        try check(c.dc_buffer_import_ipc_from_pool(self, handle, handle.len, &b));
        return errors.handle(Buffer, b);
    }
};
