//! Buffers (dc_buffer): device, pinned, managed, wrapped and registered memory,
//! with copies and fills that take Zig slices.

const std = @import("std");
const c = @import("c.zig");
const errors = @import("errors.zig");
const DcError = errors.DcError;
const check = errors.check;
const Device = @import("device.zig").Device;
const Stream = @import("stream.zig").Stream;

/// DC_BUFFER_*.
pub const BufferKind = enum(i32) {
    device = c.DC_BUFFER_DEVICE,
    pinned = c.DC_BUFFER_PINNED,
    managed = c.DC_BUFFER_MANAGED,
    wrapped_device = c.DC_BUFFER_WRAPPED_DEVICE,
    registered_host = c.DC_BUFFER_REGISTERED_HOST,
    module_global = c.DC_BUFFER_MODULE_GLOBAL,
    _,
};

/// DC_ALLOC_* (which flags each allocation accepts: see the header).
pub const AllocFlags = packed struct(u32) {
    no_pool: bool = false,
    portable: bool = false,
    device_mapped: bool = false,
    write_combined: bool = false,
    attach_host: bool = false,
    read_only: bool = false,
    _reserved: u26 = 0,
};

/// DC_COPY_PATH_*.
pub const CopyPath = enum(i32) {
    same_device = c.DC_COPY_PATH_SAME_DEVICE,
    peer = c.DC_COPY_PATH_PEER,
    staged = c.DC_COPY_PATH_STAGED,
    host = c.DC_COPY_PATH_HOST,
    _,
};

/// DC_ADVISE_*.
pub const Advice = enum(i32) {
    set_read_mostly = c.DC_ADVISE_SET_READ_MOSTLY,
    unset_read_mostly = c.DC_ADVISE_UNSET_READ_MOSTLY,
    set_preferred_location = c.DC_ADVISE_SET_PREFERRED_LOCATION,
    unset_preferred_location = c.DC_ADVISE_UNSET_PREFERRED_LOCATION,
    set_accessed_by = c.DC_ADVISE_SET_ACCESSED_BY,
    unset_accessed_by = c.DC_ADVISE_UNSET_ACCESSED_BY,
    _,
};

/// Where managed memory goes: the host, or a device ordinal (`Location.device(0)`).
pub const Location = enum(i32) {
    host = c.DC_LOCATION_HOST,
    _,

    pub fn device(ordinal: i32) Location {
        return @enumFromInt(ordinal);
    }
};

/// The bytes of a slice, or of what a single-item pointer points to (an array,
/// a struct): what the copies accept as host memory.
pub fn constBytes(data: anytype) []const u8 {
    const P = @TypeOf(data);
    const info = @typeInfo(P);
    if (info != .pointer) @compileError("expected a slice or a pointer, got " ++ @typeName(P));
    return switch (info.pointer.size) {
        .Slice => std.mem.sliceAsBytes(data),
        .One => std.mem.asBytes(data),
        else => @compileError("expected a slice or a single-item pointer, got " ++ @typeName(P)),
    };
}

pub fn mutableBytes(data: anytype) []u8 {
    const P = @TypeOf(data);
    const info = @typeInfo(P);
    if (info != .pointer or info.pointer.is_const) @compileError("expected a mutable slice or pointer, got " ++ @typeName(P));
    return switch (info.pointer.size) {
        .Slice => std.mem.sliceAsBytes(data),
        .One => std.mem.asBytes(data),
        else => @compileError("expected a slice or a single-item pointer, got " ++ @typeName(P)),
    };
}

/// A fill value of 1, 2 or 4 bytes (u8, i16, u32, f32...) as dc_buffer_fill takes it
/// (also the graph's fill nodes).
pub fn fillValue(value: anytype) struct { value: u32, size: u32 } {
    const T = @TypeOf(value);
    return switch (@sizeOf(T)) {
        1 => .{ .value = @as(u8, @bitCast(value)), .size = 1 },
        2 => .{ .value = @as(u16, @bitCast(value)), .size = 2 },
        4 => .{ .value = @as(u32, @bitCast(value)), .size = 4 },
        else => @compileError("a fill value has 1, 2 or 4 bytes; " ++ @typeName(T) ++ " has another size"),
    };
}

fn allocWith(comptime f: anytype, owner: anytype, byte_count: u64, flags: AllocFlags) DcError!*Buffer {
    var b: ?*Buffer = null;
    try check(f(owner, byte_count, @bitCast(flags), &b));
    return errors.handle(Buffer, b);
}

/// The bytes of an exported buffer or event (DC_IPC_HANDLE_SIZE).
pub const IpcHandle = [c.DC_IPC_HANDLE_SIZE]u8;

pub const Buffer = opaque {
    /// A growable buffer: `max_size` bytes of address space reserved once,
    /// `initial_size` mapped (both rounded up to the device's allocation
    /// granularity: size() says how much). grow() maps more; the device
    /// address never changes and growing never copies.
    pub fn allocGrowable(dev: *Device, max_size: u64, initial_size: u64) DcError!*Buffer {
        var b: ?*Buffer = null;
        try check(c.dc_buffer_alloc_growable(dev, max_size, initial_size, &b));
        return errors.handle(Buffer, b);
    }

    /// Grow a growable buffer to at least `new_size` bytes (rounded up); its
    /// address and contents stay. A smaller size changes nothing.
    pub fn grow(self: *Buffer, new_size: u64) DcError!void {
        try check(c.dc_buffer_grow(self, new_size));
    }

    /// The bytes a growable buffer may grow to; for another buffer its size.
    pub fn reservedSize(self: *Buffer) DcError!u64 {
        var n: u64 = 0;
        try check(c.dc_buffer_reserved_size(self, &n));
        return n;
    }

    /// Export the buffer for another process (DC_ALLOC_NO_POOL device memory,
    /// or a view of it): pass the bytes there to importIpc.
    pub fn exportIpc(self: *Buffer) DcError!IpcHandle {
        var h: IpcHandle = undefined;
        try check(c.dc_buffer_export_ipc(self, &h, h.len));
        return h;
    }

    /// Import memory another process exported: a buffer that does not own it
    /// (the exporter keeps it alive); deinit unmaps it here.
    pub fn importIpc(dev: *Device, handle: *const IpcHandle) DcError!*Buffer {
        var b: ?*Buffer = null;
        try check(c.dc_buffer_import_ipc(dev, handle, handle.len, &b));
        return errors.handle(Buffer, b);
    }

    /// Device memory (from dccuda's stream-ordered pool unless .no_pool).
    pub fn alloc(dev: *Device, byte_count: u64, flags: AllocFlags) DcError!*Buffer {
        return allocWith(c.dc_buffer_alloc, dev, byte_count, flags);
    }

    /// Device memory allocated in stream order on `stream`.
    pub fn allocAsync(stream: *Stream, byte_count: u64, flags: AllocFlags) DcError!*Buffer {
        return allocWith(c.dc_buffer_alloc_async, stream, byte_count, flags);
    }

    /// Page-locked host memory (see hostSlice).
    pub fn allocPinned(dev: *Device, byte_count: u64, flags: AllocFlags) DcError!*Buffer {
        return allocWith(c.dc_buffer_alloc_pinned, dev, byte_count, flags);
    }

    /// Managed (unified) memory.
    pub fn allocManaged(dev: *Device, byte_count: u64, flags: AllocFlags) DcError!*Buffer {
        return allocWith(c.dc_buffer_alloc_managed, dev, byte_count, flags);
    }

    /// Device memory with `data` copied in: `try Buffer.fromSlice(dev, f32, xs)`
    /// (an empty slice is error.InvalidArgument, as a 0-byte allocation is).
    pub fn fromSlice(dev: *Device, comptime T: type, data: []const T) DcError!*Buffer {
        const b = try alloc(dev, @sizeOf(T) * data.len, .{});
        errdefer b.deinit();
        try b.write(0, data);
        return b;
    }

    /// Wrap device memory someone else owns (nothing is freed at deinit).
    pub fn wrapDevice(dev: *Device, device_pointer: u64, byte_count: u64) DcError!*Buffer {
        var b: ?*Buffer = null;
        try check(c.dc_buffer_wrap_device(dev, device_pointer, byte_count, &b));
        return errors.handle(Buffer, b);
    }

    /// Register the caller's host memory (a slice or pointer); it must stay
    /// allocated until the buffer is released.
    pub fn registerHost(dev: *Device, host: anytype, flags: AllocFlags) DcError!*Buffer {
        const bytes = mutableBytes(host);
        var b: ?*Buffer = null;
        try check(c.dc_buffer_register_host(dev, bytes.ptr, bytes.len, @bitCast(flags), &b));
        return errors.handle(Buffer, b);
    }

    /// Device memory for `height` rows of `width` bytes, rows padded to the
    /// pitch the device accesses fastest (cuMemAllocPitch); `pitch` receives it.
    /// `element_size` (4, 8 or 16) is the size of the elements kernels access.
    pub fn allocPitched(dev: *Device, width: u64, height: u64, element_size: u32, pitch: *u64) DcError!*Buffer {
        var b: ?*Buffer = null;
        try check(c.dc_buffer_alloc_pitched(dev, width, height, element_size, 0, pitch, &b));
        return errors.handle(Buffer, b);
    }

    /// A view (dc_buffer_view) of bytes [offset, offset + byte_count): a new
    /// buffer over the same memory, bounds-checked against its own range and
    /// usable wherever a buffer is. It keeps this buffer's memory alive and
    /// frees nothing; deinit it.
    pub fn slice(self: *Buffer, offset: u64, byte_count: u64) DcError!*Buffer {
        var b: ?*Buffer = null;
        try check(c.dc_buffer_view(self, offset, byte_count, &b));
        return errors.handle(Buffer, b);
    }

    /// Copy a 2D region of `height` rows of `width` bytes from `src` (rows at
    /// `src_offset`, `src_pitch` apart) into this buffer (rows at `dst_offset`,
    /// `dst_pitch` apart); returns when complete. Every row is bounds-checked.
    pub fn copyFrom2d(self: *Buffer, dst_offset: u64, dst_pitch: u64, src: *Buffer, src_offset: u64, src_pitch: u64, width: u64, height: u64) DcError!void {
        try check(c.dc_buffer_copy_2d(self, dst_offset, dst_pitch, src, src_offset, src_pitch, width, height));
    }

    /// As copyFrom2d, in stream order on `stream`.
    pub fn copyFrom2dAsync(self: *Buffer, dst_offset: u64, dst_pitch: u64, src: *Buffer, src_offset: u64, src_pitch: u64, width: u64, height: u64, stream: *Stream) DcError!void {
        try check(c.dc_buffer_copy_2d_async(self, dst_offset, dst_pitch, src, src_offset, src_pitch, width, height, stream));
    }

    /// Copy a 2D region from host memory `data` (rows `src_pitch` bytes apart
    /// from its start) into this buffer (rows at `dst_offset`, `dst_pitch` apart).
    pub fn write2d(self: *Buffer, dst_offset: u64, dst_pitch: u64, data: anytype, src_pitch: u64, width: u64, height: u64) DcError!void {
        const bytes = constBytes(data);
        try check(c.dc_buffer_write_2d(self, dst_offset, dst_pitch, bytes.ptr, bytes.len, src_pitch, width, height));
    }

    /// Copy a 2D region of this buffer (rows at `src_offset`, `src_pitch` apart)
    /// into host memory `out` (rows `dst_pitch` bytes apart).
    pub fn read2d(self: *Buffer, src_offset: u64, src_pitch: u64, out: anytype, dst_pitch: u64, width: u64, height: u64) DcError!void {
        const bytes = mutableBytes(out);
        try check(c.dc_buffer_read_2d(self, src_offset, src_pitch, bytes.ptr, bytes.len, dst_pitch, width, height));
    }

    /// As write2d, in stream order on `stream` (pageable `data` has been read
    /// when the call returns, as writeAsync).
    pub fn write2dAsync(self: *Buffer, dst_offset: u64, dst_pitch: u64, data: anytype, src_pitch: u64, width: u64, height: u64, stream: *Stream) DcError!void {
        const bytes = constBytes(data);
        try check(c.dc_buffer_write_2d_async(self, dst_offset, dst_pitch, bytes.ptr, bytes.len, src_pitch, width, height, stream));
    }

    /// As read2d, in stream order on `stream`: `out` holds the data once the
    /// stream has reached the copy (as readAsync); keep it alive until then.
    pub fn read2dAsync(self: *Buffer, src_offset: u64, src_pitch: u64, out: anytype, dst_pitch: u64, width: u64, height: u64, stream: *Stream) DcError!void {
        const bytes = mutableBytes(out);
        try check(c.dc_buffer_read_2d_async(self, src_offset, src_pitch, bytes.ptr, bytes.len, dst_pitch, width, height, stream));
    }

    /// Copy a 3D region of `depth` planes of `height` rows of `width` bytes from
    /// `src` into this buffer: rows `*_pitch` bytes apart, planes
    /// `*_rows_per_plane` rows apart. Returns when complete.
    pub fn copyFrom3d(self: *Buffer, dst_offset: u64, dst_pitch: u64, dst_rows_per_plane: u64, src: *Buffer, src_offset: u64, src_pitch: u64, src_rows_per_plane: u64, width: u64, height: u64, depth: u64) DcError!void {
        try check(c.dc_buffer_copy_3d(self, dst_offset, dst_pitch, dst_rows_per_plane, src, src_offset, src_pitch, src_rows_per_plane, width, height, depth));
    }

    /// As copyFrom3d, in stream order on `stream`.
    pub fn copyFrom3dAsync(self: *Buffer, dst_offset: u64, dst_pitch: u64, dst_rows_per_plane: u64, src: *Buffer, src_offset: u64, src_pitch: u64, src_rows_per_plane: u64, width: u64, height: u64, depth: u64, stream: *Stream) DcError!void {
        try check(c.dc_buffer_copy_3d_async(self, dst_offset, dst_pitch, dst_rows_per_plane, src, src_offset, src_pitch, src_rows_per_plane, width, height, depth, stream));
    }

    /// Fill `height` rows of `width` bytes, `pitch` apart from `offset`, with
    /// `value` (1, 2 or 4 bytes, as fill: offset, width and pitch multiples of its size).
    pub fn fill2d(self: *Buffer, offset: u64, pitch: u64, width: u64, height: u64, value: anytype) DcError!void {
        const v = fillValue(value);
        try check(c.dc_buffer_fill_2d(self, offset, pitch, width, height, v.value, v.size));
    }

    /// As fill2d, in stream order on `stream` (the device fills the memory).
    pub fn fill2dAsync(self: *Buffer, offset: u64, pitch: u64, width: u64, height: u64, value: anytype, stream: *Stream) DcError!void {
        const v = fillValue(value);
        try check(c.dc_buffer_fill_2d_async(self, offset, pitch, width, height, v.value, v.size, stream));
    }

    /// Release the buffer: owned memory is freed in stream order after the
    /// work already enqueued with it.
    pub fn deinit(self: *Buffer) void {
        c.dc_buffer_release(self);
    }

    pub fn size(self: *Buffer) DcError!u64 {
        var n: u64 = 0;
        try check(c.dc_buffer_size(self, &n));
        return n;
    }

    pub fn kind(self: *Buffer) DcError!BufferKind {
        var k: i32 = 0;
        try check(c.dc_buffer_kind(self, &k));
        return @enumFromInt(k);
    }

    /// A new device handle (deinit it).
    pub fn device(self: *Buffer) DcError!*Device {
        var d: ?*Device = null;
        try check(c.dc_buffer_device(self, &d));
        return errors.handle(Device, d);
    }

    /// The CUdeviceptr, for other CUDA libraries.
    pub fn devicePointer(self: *Buffer) DcError!u64 {
        var p: u64 = 0;
        try check(c.dc_buffer_device_pointer(self, &p));
        return p;
    }

    /// The CPU address of pinned, registered and managed memory.
    pub fn hostPointer(self: *Buffer) DcError!*anyopaque {
        var p: ?*anyopaque = null;
        try check(c.dc_buffer_host_pointer(self, &p));
        return p orelse error.Internal;
    }

    /// Pinned, registered or managed memory as a slice of T (size / @sizeOf(T)
    /// elements), valid while the buffer lives.
    pub fn hostSlice(self: *Buffer, comptime T: type) DcError![]T {
        const p = try self.hostPointer();
        const n: usize = @intCast((try self.size()) / @sizeOf(T));
        const many: [*]T = @ptrCast(@alignCast(p));
        return many[0..n];
    }

    pub fn prefetch(self: *Buffer, offset: u64, bytes: u64, location: Location, stream: *Stream) DcError!void {
        try check(c.dc_buffer_prefetch(self, offset, bytes, @intFromEnum(location), stream));
    }

    pub fn advise(self: *Buffer, offset: u64, bytes: u64, advice: Advice, location: Location) DcError!void {
        try check(c.dc_buffer_advise(self, offset, bytes, @intFromEnum(advice), @intFromEnum(location)));
    }

    /// Copy host memory (a slice, or a pointer to an array or value) into the
    /// buffer at byte `offset`; returns when complete.
    pub fn write(self: *Buffer, offset: u64, data: anytype) DcError!void {
        const bytes = constBytes(data);
        try check(c.dc_buffer_write(self, offset, bytes.ptr, bytes.len));
    }

    /// Fill `out` (a mutable slice or pointer) from the buffer at byte `offset`.
    pub fn read(self: *Buffer, offset: u64, out: anytype) DcError!void {
        const bytes = mutableBytes(out);
        try check(c.dc_buffer_read(self, offset, bytes.ptr, bytes.len));
    }

    /// Copy `bytes` bytes from `src` at `src_offset` into this buffer at `dst_offset`.
    pub fn copyFrom(self: *Buffer, dst_offset: u64, src: *Buffer, src_offset: u64, bytes: u64) DcError!void {
        try check(c.dc_buffer_copy(self, dst_offset, src, src_offset, bytes));
    }

    /// As write, in stream order. Pinned `data` must stay untouched until the
    /// stream reaches the copy; pageable `data` may be reused on return.
    pub fn writeAsync(self: *Buffer, offset: u64, data: anytype, stream: *Stream) DcError!void {
        const bytes = constBytes(data);
        try check(c.dc_buffer_write_async(self, offset, bytes.ptr, bytes.len, stream));
    }

    /// As read, in stream order (pinned `out` holds the data once the stream
    /// reaches the copy; pageable `out` holds it on return).
    pub fn readAsync(self: *Buffer, offset: u64, out: anytype, stream: *Stream) DcError!void {
        const bytes = mutableBytes(out);
        try check(c.dc_buffer_read_async(self, offset, bytes.ptr, bytes.len, stream));
    }

    pub fn copyFromAsync(self: *Buffer, dst_offset: u64, src: *Buffer, src_offset: u64, bytes: u64, stream: *Stream) DcError!void {
        try check(c.dc_buffer_copy_async(self, dst_offset, src, src_offset, bytes, stream));
    }

    /// Fill `bytes` bytes at `offset` with `value` repeated; its type gives the
    /// element size (1, 2 or 4 bytes: `@as(f32, 1.5)`, `@as(u8, 0xff)`).
    pub fn fill(self: *Buffer, offset: u64, bytes: u64, value: anytype) DcError!void {
        const v = fillValue(value);
        try check(c.dc_buffer_fill(self, offset, bytes, v.value, v.size));
    }

    pub fn fillAsync(self: *Buffer, offset: u64, bytes: u64, value: anytype, stream: *Stream) DcError!void {
        const v = fillValue(value);
        try check(c.dc_buffer_fill_async(self, offset, bytes, v.value, v.size, stream));
    }

    /// The path a copy from `src` into this buffer takes.
    pub fn copyPath(self: *Buffer, src: *Buffer) DcError!CopyPath {
        var p: i32 = 0;
        try check(c.dc_buffer_copy_path(self, src, &p));
        return @enumFromInt(p);
    }
};

comptime {
    const a = std.debug.assert;
    a(@as(u32, @bitCast(AllocFlags{ .no_pool = true })) == c.DC_ALLOC_NO_POOL);
    a(@as(u32, @bitCast(AllocFlags{ .portable = true })) == c.DC_ALLOC_PORTABLE);
    a(@as(u32, @bitCast(AllocFlags{ .device_mapped = true })) == c.DC_ALLOC_DEVICE_MAPPED);
    a(@as(u32, @bitCast(AllocFlags{ .write_combined = true })) == c.DC_ALLOC_WRITE_COMBINED);
    a(@as(u32, @bitCast(AllocFlags{ .attach_host = true })) == c.DC_ALLOC_ATTACH_HOST);
    a(@as(u32, @bitCast(AllocFlags{ .read_only = true })) == c.DC_ALLOC_READ_ONLY);
}
