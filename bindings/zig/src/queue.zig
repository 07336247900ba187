//! Message queues (dc_queue) and the control blocks of resident kernels
//! (dc_control): the host's side. A kernel launched with `.persistent = true`
//! takes messages from a `.to_device` queue and answers through a `.to_host`
//! one (include/dccuda_device.h is its side), and is stopped through its
//! control block. Pass `try q.buffer()` / `try ctl.buffer()` to the kernel
//! as buffer arguments.

const std = @import("std");
const c = @import("c.zig");
const errors = @import("errors.zig");
const buffer_mod = @import("buffer.zig");
const DcError = errors.DcError;
const check = errors.check;
const Device = @import("device.zig").Device;
const Buffer = buffer_mod.Buffer;

/// DC_QUEUE_*: which side enqueues.
pub const Direction = enum(i32) {
    /// The host enqueues, a kernel dequeues.
    to_device = c.DC_QUEUE_TO_DEVICE,
    /// A kernel enqueues, the host dequeues.
    to_host = c.DC_QUEUE_TO_HOST,
    /// A kernel enqueues, another kernel dequeues (the ring in device memory; the host's
    /// enqueue and dequeue refuse the queue).
    between_kernels = c.DC_QUEUE_BETWEEN_KERNELS,
    /// As between_kernels, for kernels on two devices: the ring in the queue's device's memory,
    /// the other side through peer access, system-scoped fences. Make it on the consumer's device.
    between_devices = c.DC_QUEUE_BETWEEN_DEVICES,
};

/// DC_WAIT_*: what a waiting host thread does between polls of the memory the device writes.
pub const Wait = enum(i32) {
    /// Poll without pause: the lowest latency, one core busy.
    spin = c.DC_WAIT_SPIN,
    /// Poll a while, then yield between polls.
    spin_yield = c.DC_WAIT_SPIN_YIELD,
    /// Poll a little, then sleep between polls (1 us doubling up to 200 us).
    block = c.DC_WAIT_BLOCK,
};

/// A time limit in microseconds; null waits without limit (UINT64_MAX).
fn timeoutUs(timeout_us: ?u64) u64 {
    return timeout_us orelse std.math.maxInt(u64);
}

/// A queue's shape and host-side counters (dc_queue_stats).
pub const QueueStats = c.dc_queue_stats;

/// A single-producer / single-consumer ring of fixed-size slots in mapped
/// host memory. Host calls on one queue may come from any threads (the queue
/// serialises them).
pub const Queue = opaque {
    /// `capacity` slots (a power of two, 2 .. 2^24) of `slot_size` bytes (a
    /// power of two, 8 .. 65536), at most 1 GiB in all.
    pub fn create(dev: *Device, direction: Direction, slot_size: u32, capacity: u32) DcError!*Queue {
        var q: ?*Queue = null;
        try check(c.dc_queue_create(dev, @intFromEnum(direction), slot_size, capacity, &q));
        return errors.handle(Queue, q);
    }

    /// Release the queue (its ring lives on while a buffer from buffer() does).
    pub fn deinit(self: *Queue) void {
        c.dc_queue_release(self);
    }

    /// A new handle to the buffer holding the ring, for the kernel's
    /// `dc_queue_ring*` parameter (deinit it). Never write to it yourself.
    pub fn buffer(self: *Queue) DcError!*Buffer {
        var b: ?*Buffer = null;
        try check(c.dc_queue_buffer(self, &b));
        return errors.handle(Buffer, b);
    }

    /// Enqueue one message (the bytes of a slice or of what a pointer points
    /// to) if a slot is free: false when the queue was full (a drop). Never waits.
    pub fn tryEnqueue(self: *Queue, message: anytype) DcError!bool {
        const bytes = buffer_mod.constBytes(message);
        const n = std.math.cast(u32, bytes.len) orelse return error.OutOfRange;
        return errors.checkReady(c.dc_queue_try_enqueue(self, bytes.ptr, n));
    }

    /// Enqueue one message, waiting up to `timeout_us` (null: no limit) for a
    /// free slot: error.Timeout when the queue stayed full.
    pub fn enqueue(self: *Queue, message: anytype, wait: Wait, timeout_us: ?u64) DcError!void {
        const bytes = buffer_mod.constBytes(message);
        const n = std.math.cast(u32, bytes.len) orelse return error.OutOfRange;
        try check(c.dc_queue_enqueue(self, bytes.ptr, n, @intFromEnum(wait), timeoutUs(timeout_us)));
    }

    /// Enqueue as many of `messages` (one per element) as there are free slots,
    /// in order, made visible together; returns how many (0: full). Never waits.
    pub fn enqueueBatch(self: *Queue, comptime T: type, messages: []const T) DcError!u32 {
        var done: u32 = 0;
        const ready = try errors.checkReady(c.dc_queue_enqueue_batch(self, messages.ptr, messages.len * @sizeOf(T), @sizeOf(T), &done));
        return if (ready) done else 0;
    }

    /// Dequeue the oldest message into `out` if there is one: the part of
    /// `out` it filled, or null when the queue was empty. Never waits.
    pub fn tryDequeue(self: *Queue, out: []u8) DcError!?[]u8 {
        var size: u32 = 0;
        const max = std.math.cast(u32, out.len) orelse std.math.maxInt(u32);
        if (!try errors.checkReady(c.dc_queue_try_dequeue(self, out.ptr, max, &size))) return null;
        return out[0..size];
    }

    /// Dequeue the oldest message into `out`, waiting up to `timeout_us`
    /// (null: no limit): the part of `out` it filled; error.Timeout when none came.
    pub fn dequeue(self: *Queue, out: []u8, wait: Wait, timeout_us: ?u64) DcError![]u8 {
        var size: u32 = 0;
        const max = std.math.cast(u32, out.len) orelse std.math.maxInt(u32);
        try check(c.dc_queue_dequeue(self, out.ptr, max, &size, @intFromEnum(wait), timeoutUs(timeout_us)));
        return out[0..size];
    }

    /// Dequeue the messages already queued, up to out.len / stride, message i
    /// at out[i * stride ..] (stride at least the slot size); returns how many
    /// (0: empty). Never waits.
    pub fn dequeueBatch(self: *Queue, out: []u8, stride: u32) DcError!u32 {
        var count: u32 = 0;
        const ready = try errors.checkReady(c.dc_queue_dequeue_batch(self, out.ptr, out.len, stride, &count));
        return if (ready) count else 0;
    }

    /// The queue's shape and counters (the kernel's side included in enqueued/dequeued).
    pub fn counters(self: *Queue) DcError!QueueStats {
        var s = QueueStats{};
        try check(c.dc_queue_counters(self, &s));
        return s;
    }
};

/// DC_CONTROL_*: a resident kernel's state as its control block holds it.
pub const ControlState = enum(i32) {
    idle = c.DC_CONTROL_IDLE,
    running = c.DC_CONTROL_RUNNING,
    stopped = c.DC_CONTROL_STOPPED,
    _,
};

/// What a control block says (dc_control_info).
pub const ControlInfo = c.dc_control_info;

/// The control block of one resident kernel at a time (reset it before the next).
pub const Control = opaque {
    pub fn create(dev: *Device) DcError!*Control {
        var ctl: ?*Control = null;
        try check(c.dc_control_create(dev, &ctl));
        return errors.handle(Control, ctl);
    }

    /// Release the block (its memory lives on while a buffer from buffer() does).
    pub fn deinit(self: *Control) void {
        c.dc_control_release(self);
    }

    /// A new handle to the buffer holding the block, for the kernel's
    /// `dc_control_block*` parameter (deinit it).
    pub fn buffer(self: *Control) DcError!*Buffer {
        var b: ?*Buffer = null;
        try check(c.dc_control_buffer(self, &b));
        return errors.handle(Buffer, b);
    }

    /// Ask the kernel to stop (returns at once; error.InvalidState once it has stopped).
    pub fn requestStop(self: *Control) DcError!void {
        try check(c.dc_control_request_stop(self));
    }

    /// Wait up to `timeout_us` (null: no limit) for the kernel to report it
    /// stopped: error.Timeout when it did not. Synchronise its stream before
    /// reusing what it wrote.
    pub fn waitStopped(self: *Control, wait: Wait, timeout_us: ?u64) DcError!void {
        try check(c.dc_control_wait_stopped(self, @intFromEnum(wait), timeoutUs(timeout_us)));
    }

    pub fn status(self: *Control) DcError!ControlInfo {
        var info = ControlInfo{};
        try check(c.dc_control_status(self, &info));
        return info;
    }

    pub fn state(self: *Control) DcError!ControlState {
        return @enumFromInt((try self.status()).state);
    }

    /// The watchdog: error.Timeout when the running kernel's heartbeat has
    /// not changed for more than `stall_us`; error.InvalidState when it is not running.
    pub fn checkProgress(self: *Control, stall_us: u64) DcError!void {
        try check(c.dc_control_check_progress(self, stall_us));
    }

    /// Ready for the next launch (idle, counters cleared); refused while the kernel runs.
    pub fn reset(self: *Control) DcError!void {
        try check(c.dc_control_reset(self));
    }
};
