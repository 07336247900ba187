//! NCCL communicators (dc_comm): one rank of a communicator on one device, and
//! the collectives on Buffers (byte offsets, counts in elements of `DataType`).
//! NCCL's thread rules hold: one thread uses a Comm at a time (abort excepted:
//! the way out of a hang, from any thread); one thread driving several ranks
//! wraps their calls in groupStart/groupEnd.

const c = @import("c.zig");
const errors = @import("errors.zig");
const DcError = errors.DcError;
const check = errors.check;
const Device = @import("device.zig").Device;
const Buffer = @import("buffer.zig").Buffer;
const Stream = @import("stream.zig").Stream;

/// DC_NCCL_*: element types.
pub const DataType = enum(i32) {
    int8 = c.DC_NCCL_INT8,
    uint8 = c.DC_NCCL_UINT8,
    int32 = c.DC_NCCL_INT32,
    uint32 = c.DC_NCCL_UINT32,
    int64 = c.DC_NCCL_INT64,
    uint64 = c.DC_NCCL_UINT64,
    float16 = c.DC_NCCL_FLOAT16,
    float32 = c.DC_NCCL_FLOAT32,
    float64 = c.DC_NCCL_FLOAT64,
    bfloat16 = c.DC_NCCL_BFLOAT16,
};

/// DC_NCCL_*: reductions.
pub const ReduceOp = enum(i32) {
    sum = c.DC_NCCL_SUM,
    prod = c.DC_NCCL_PROD,
    min = c.DC_NCCL_MIN,
    max = c.DC_NCCL_MAX,
    avg = c.DC_NCCL_AVG,
};

pub const unique_id_bytes: usize = c.DC_NCCL_UNIQUE_ID_BYTES;

/// The NCCL version, major*10000 + minor*100 + patch; error.NotSupported without NCCL.
pub fn ncclVersion() DcError!i32 {
    var v: i32 = 0;
    try check(c.dc_nccl_library_version(&v));
    return v;
}

/// A new unique id for Comm.initRank, to hand to every rank by your own means.
pub fn uniqueId() DcError![unique_id_bytes]u8 {
    var id: [unique_id_bytes]u8 = undefined;
    try check(c.dc_nccl_unique_id(&id, id.len));
    return id;
}

pub fn groupStart() DcError!void {
    try check(c.dc_nccl_group_start());
}

pub fn groupEnd() DcError!void {
    try check(c.dc_nccl_group_end());
}

pub const Comm = opaque {
    /// Join communicator `id` as `rank` of `nranks` on `device`.
    pub fn initRank(device: *Device, nranks: i32, id: []const u8, my_rank: i32) DcError!*Comm {
        var comm: ?*Comm = null;
        try check(c.dc_comm_init_rank(device, nranks, id.ptr, id.len, my_rank, &comm));
        return errors.handle(Comm, comm);
    }

    /// One communicator over devices `ordinals`: out[i] is rank i (out.len == ordinals.len).
    pub fn initAll(ordinals: []const i32, out: []?*Comm) DcError!void {
        if (out.len != ordinals.len) return error.InvalidArgument;
        try check(c.dc_comm_init_all(ordinals.ptr, @intCast(ordinals.len), @ptrCast(out.ptr)));
    }

    /// Release (finalised and destroyed unless aborted).
    pub fn deinit(self: *Comm) void {
        c.dc_comm_release(self);
    }

    /// Split by color (ordered by key); null for a negative color.
    pub fn split(self: *Comm, color: i32, key: i32) DcError!?*Comm {
        var comm: ?*Comm = null;
        try check(c.dc_comm_split(self, color, key, &comm));
        return comm;
    }

    pub fn abort(self: *Comm) DcError!void {
        try check(c.dc_comm_abort(self));
    }

    pub fn asyncError(self: *Comm) DcError!i32 {
        var v: i32 = 0;
        try check(c.dc_comm_async_error(self, &v));
        return v;
    }

    pub fn rank(self: *Comm) DcError!i32 {
        var v: i32 = 0;
        try check(c.dc_comm_rank(self, &v));
        return v;
    }

    pub fn count(self: *Comm) DcError!i32 {
        var v: i32 = 0;
        try check(c.dc_comm_count(self, &v));
        return v;
    }

    pub fn allReduce(self: *Comm, src: *Buffer, send_offset: u64, dst: *Buffer, recv_offset: u64, n: u64, dtype: DataType, op: ReduceOp, stream: *Stream) DcError!void {
        try check(c.dc_comm_all_reduce(self, src, send_offset, dst, recv_offset, n, @intFromEnum(dtype), @intFromEnum(op), stream));
    }

    /// `src` may be null off the root.
    pub fn broadcast(self: *Comm, src: ?*Buffer, send_offset: u64, dst: *Buffer, recv_offset: u64, n: u64, dtype: DataType, root: i32, stream: *Stream) DcError!void {
        try check(c.dc_comm_broadcast(self, src, send_offset, dst, recv_offset, n, @intFromEnum(dtype), root, stream));
    }

    /// `dst` may be null off the root.
    pub fn reduce(self: *Comm, src: *Buffer, send_offset: u64, dst: ?*Buffer, recv_offset: u64, n: u64, dtype: DataType, op: ReduceOp, root: i32, stream: *Stream) DcError!void {
        try check(c.dc_comm_reduce(self, src, send_offset, dst, recv_offset, n, @intFromEnum(dtype), @intFromEnum(op), root, stream));
    }

    pub fn allGather(self: *Comm, src: *Buffer, send_offset: u64, dst: *Buffer, recv_offset: u64, send_count: u64, dtype: DataType, stream: *Stream) DcError!void {
        try check(c.dc_comm_all_gather(self, src, send_offset, dst, recv_offset, send_count, @intFromEnum(dtype), stream));
    }

    pub fn reduceScatter(self: *Comm, src: *Buffer, send_offset: u64, dst: *Buffer, recv_offset: u64, recv_count: u64, dtype: DataType, op: ReduceOp, stream: *Stream) DcError!void {
        try check(c.dc_comm_reduce_scatter(self, src, send_offset, dst, recv_offset, recv_count, @intFromEnum(dtype), @intFromEnum(op), stream));
    }

    pub fn send(self: *Comm, buffer: *Buffer, offset: u64, n: u64, dtype: DataType, peer: i32, stream: *Stream) DcError!void {
        try check(c.dc_comm_send(self, buffer, offset, n, @intFromEnum(dtype), peer, stream));
    }

    pub fn recv(self: *Comm, buffer: *Buffer, offset: u64, n: u64, dtype: DataType, peer: i32, stream: *Stream) DcError!void {
        try check(c.dc_comm_recv(self, buffer, offset, n, @intFromEnum(dtype), peer, stream));
    }
};
