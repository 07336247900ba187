//! Devices (dc_device) and peer access between them.

const c = @import("c.zig");
const errors = @import("errors.zig");
const DcError = errors.DcError;
const check = errors.check;
const CachePreference = @import("function.zig").CachePreference;

pub const DeviceInfo = c.dc_device_info;

/// DC_PEER_ATTRIBUTE_*.
pub const PeerAttribute = enum(i32) {
    performance_rank = c.DC_PEER_ATTRIBUTE_PERFORMANCE_RANK,
    access_supported = c.DC_PEER_ATTRIBUTE_ACCESS_SUPPORTED,
    native_atomic_supported = c.DC_PEER_ATTRIBUTE_NATIVE_ATOMIC_SUPPORTED,
    _,
};

/// DC_LIMIT_*: the context limits (cuda.h's CUlimit).
pub const Limit = enum(i32) {
    stack_size = c.DC_LIMIT_STACK_SIZE,
    printf_fifo_size = c.DC_LIMIT_PRINTF_FIFO_SIZE,
    malloc_heap_size = c.DC_LIMIT_MALLOC_HEAP_SIZE,
    dev_runtime_pending_launch_count = c.DC_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT,
    persisting_l2_cache_size = c.DC_LIMIT_PERSISTING_L2_CACHE_SIZE,
    _,
};

pub const MemoryInfo = struct { free: u64, total: u64 };

/// The raw CUdevice ordinal and the primary CUcontext (owned by the handle).
pub const NativeDevice = struct { cu_device: i32, cu_context: ?*anyopaque };

/// A device handle: `const dev = try Device.open(0); defer dev.deinit();`.
/// The value is a handle, not an address: it is never dereferenced, and a
/// released one is answered with error.InvalidHandle.
pub const Device = opaque {
    /// The number of devices the driver reports (0 is a valid answer).
    pub fn count() DcError!i32 {
        var n: i32 = 0;
        try check(c.dc_device_count(&n));
        return n;
    }

    /// Open device `ordinal` and retain its primary context. Each call gives a
    /// new handle; deinit each.
    pub fn open(ordinal: i32) DcError!*Device {
        var d: ?*Device = null;
        try check(c.dc_device_open(ordinal, &d));
        return errors.handle(Device, d);
    }

    /// Release the handle (dc_device_release). Objects made on the device keep
    /// it alive until they are released too.
    pub fn deinit(self: *Device) void {
        c.dc_device_release(self);
    }

    pub fn info(self: *Device) DcError!DeviceInfo {
        var i = DeviceInfo{};
        try check(c.dc_device_get_info(self, &i));
        return i;
    }

    /// Any CU_DEVICE_ATTRIBUTE_* (its numeric value in cuda.h).
    pub fn attribute(self: *Device, attr: i32) DcError!i32 {
        var v: i32 = 0;
        try check(c.dc_device_attribute(self, attr, &v));
        return v;
    }

    pub fn memoryInfo(self: *Device) DcError!MemoryInfo {
        var m = MemoryInfo{ .free = 0, .total = 0 };
        try check(c.dc_device_memory_info(self, &m.free, &m.total));
        return m;
    }

    /// The statistics of dccuda's own stream-ordered pool on the device (the
    /// one Buffer.alloc uses); all zero without pools.
    pub fn poolStats(self: *Device) DcError!c.dc_pool_stats {
        var s: c.dc_pool_stats = .{};
        try check(c.dc_device_pool_statistics(self, &s));
        return s;
    }

    /// The allocation granularity in bytes (recommended, or the minimum that
    /// growable buffers round to).
    pub fn allocationGranularity(self: *Device, recommended: bool) DcError!u64 {
        var g: u64 = 0;
        const which = if (recommended) c.DC_GRANULARITY_RECOMMENDED else c.DC_GRANULARITY_MINIMUM;
        try check(c.dc_device_allocation_granularity(self, which, &g));
        return g;
    }

    /// Reserve `size` bytes of device address space (a multiple of the
    /// granularity; `alignment` 0 or a power of two); free it with vmmFree.
    pub fn vmmReserve(self: *Device, size: u64, alignment: u64) DcError!u64 {
        var address: u64 = 0;
        try check(c.dc_vmm_reserve(self, size, alignment, &address));
        return address;
    }

    /// Free a reservation whole, once nothing is mapped in it.
    pub fn vmmFree(self: *Device, address: u64, size: u64) DcError!void {
        try check(c.dc_vmm_free(self, address, size));
    }

    /// Create `size` bytes of physical memory; release it with vmmRelease.
    pub fn vmmCreate(self: *Device, size: u64) DcError!u64 {
        var handle: u64 = 0;
        try check(c.dc_vmm_create(self, size, &handle));
        return handle;
    }

    /// Release physical memory (freed at its last unmap if mapped).
    pub fn vmmRelease(self: *Device, handle: u64) DcError!void {
        try check(c.dc_vmm_release(self, handle));
    }

    /// Map the first `size` bytes of `handle` at `address` inside a reservation.
    pub fn vmmMap(self: *Device, address: u64, size: u64, handle: u64) DcError!void {
        try check(c.dc_vmm_map(self, address, size, handle));
    }

    /// Unmap whole mappings covering [address, address + size).
    pub fn vmmUnmap(self: *Device, address: u64, size: u64) DcError!void {
        try check(c.dc_vmm_unmap(self, address, size));
    }

    /// Set `accessor`'s access (DC_VMM_ACCESS_*) to a mapped range.
    pub fn vmmSetAccess(self: *Device, address: u64, size: u64, accessor: *Device, access: i32) DcError!void {
        try check(c.dc_vmm_set_access(self, address, size, accessor, access));
    }

    /// Wait for all work on the device; a fault in it is error.ContextLost.
    pub fn synchronize(self: *Device) DcError!void {
        try check(c.dc_device_synchronize(self));
    }

    /// Recover after error.ContextLost: every object made on the device before
    /// is dead afterwards (release them as usual). See dc_device_reset.
    pub fn reset(self: *Device) DcError!void {
        try check(c.dc_device_reset(self));
    }

    /// Give cached pool memory back to the driver, keeping `keep_bytes`.
    pub fn trimMemory(self: *Device, keep_bytes: u64) DcError!void {
        try check(c.dc_device_trim_memory(self, keep_bytes));
    }

    pub fn native(self: *Device) DcError!NativeDevice {
        var n = NativeDevice{ .cu_device = 0, .cu_context = null };
        try check(c.dc_device_native(self, &n.cu_device, &n.cu_context));
        return n;
    }

    /// Set one of the limits of dccuda's (primary) context on the device;
    /// the driver may round it up (read it back with limit). Call it while no
    /// work runs; some limits cannot change once a kernel depended on them.
    pub fn setLimit(self: *Device, which: Limit, value: u64) DcError!void {
        try check(c.dc_device_set_limit(self, @intFromEnum(which), value));
    }

    /// The current value of one of the context's limits.
    pub fn limit(self: *Device, which: Limit) DcError!u64 {
        var v: u64 = 0;
        try check(c.dc_device_limit(self, @intFromEnum(which), &v));
        return v;
    }

    /// The device-wide L1/shared memory preference (a hint; a kernel's own
    /// Function.setCacheConfig wins). reset restores .none.
    pub fn setCacheConfig(self: *Device, preference: CachePreference) DcError!void {
        try check(c.dc_device_set_cache_config(self, @intFromEnum(preference)));
    }

    pub fn cacheConfig(self: *Device) DcError!CachePreference {
        var p: i32 = 0;
        try check(c.dc_device_cache_config(self, &p));
        return @enumFromInt(p);
    }

    pub fn canAccessPeer(self: *Device, peer: *Device) DcError!bool {
        var v: i32 = 0;
        try check(c.dc_device_can_access_peer(self, peer, &v));
        return v != 0;
    }

    pub fn enablePeerAccess(self: *Device, peer: *Device) DcError!void {
        try check(c.dc_device_enable_peer_access(self, peer));
    }

    pub fn disablePeerAccess(self: *Device, peer: *Device) DcError!void {
        try check(c.dc_device_disable_peer_access(self, peer));
    }

    pub fn peerAttribute(self: *Device, peer: *Device, attr: PeerAttribute) DcError!i32 {
        var v: i32 = 0;
        try check(c.dc_device_peer_attribute(self, peer, @intFromEnum(attr), &v));
        return v;
    }
};
