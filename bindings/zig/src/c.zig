//! The raw layer: include/dccuda.h as Zig declarations, written by hand.
//!
//! Names follow the header (dc_device_info, DC_ALLOC_NO_POOL, dc_buffer_write)
//! so that the header's documentation applies word for word. Handles are
//! `?*Device` and friends: opaque types whose idiomatic methods live in the
//! other files of this folder; the library never dereferences them and
//! neither may a caller. Sizes are u64 (uint64_t), never usize.
//!
//! abi/check_abi.py holds every `extern "dccuda" fn` here against the header
//! (parameter count and size classes) and layout.zig's output against the C
//! compiler's struct layouts. The type names used by value in the extern
//! declarations (dc_status, the callback types) are defined exactly once in
//! this folder: the check resolves them by name.

const std = @import("std");

pub const Device = @import("device.zig").Device;
pub const Buffer = @import("buffer.zig").Buffer;
pub const Stream = @import("stream.zig").Stream;
pub const Event = @import("event.zig").Event;
pub const Program = @import("compile.zig").Program;
pub const Module = @import("module.zig").Module;
pub const Function = @import("function.zig").Function;
pub const Launch = @import("launch.zig").Launch;
pub const Graph = @import("graph.zig").Graph;

// ---------------------------------------------------------------------------
// Version

pub const DCCUDA_VERSION_MAJOR: u32 = 1;
pub const DCCUDA_VERSION_MINOR: u32 = 0;
pub const DCCUDA_VERSION_PATCH: u32 = 0;
pub const DCCUDA_VERSION: u32 = DCCUDA_VERSION_MAJOR * 1000000 + DCCUDA_VERSION_MINOR * 1000 + DCCUDA_VERSION_PATCH;

pub extern "dccuda" fn dc_version() u32;

// ---------------------------------------------------------------------------
// Status codes and the last error

/// dc_status. Non-exhaustive: values are append-only, so a newer library may
/// answer a status this file does not name yet; `_` keeps that well defined.
pub const dc_status = enum(i32) {
    success = 0,
    not_ready = 1,
    invalid_argument = -1,
    invalid_handle = -2,
    no_driver = -3,
    not_supported = -4,
    no_device = -5,
    out_of_memory = -6,
    out_of_range = -7,
    compile = -8,
    launch_failed = -9,
    context_lost = -10,
    internal = -11,
    driver = -12,
    no_compiler = -13,
    not_found = -14,
    invalid_image = -15,
    invalid_state = -16,
    io = -17,
    _,
};

pub const DC_SUCCESS: i32 = 0;
pub const DC_NOT_READY: i32 = 1;
pub const DC_ERROR_INVALID_ARGUMENT: i32 = -1;
pub const DC_ERROR_INVALID_HANDLE: i32 = -2;
pub const DC_ERROR_NO_DRIVER: i32 = -3;
pub const DC_ERROR_NOT_SUPPORTED: i32 = -4;
pub const DC_ERROR_NO_DEVICE: i32 = -5;
pub const DC_ERROR_OUT_OF_MEMORY: i32 = -6;
pub const DC_ERROR_OUT_OF_RANGE: i32 = -7;
pub const DC_ERROR_COMPILE: i32 = -8;
pub const DC_ERROR_LAUNCH_FAILED: i32 = -9;
pub const DC_ERROR_CONTEXT_LOST: i32 = -10;
pub const DC_ERROR_INTERNAL: i32 = -11;
pub const DC_ERROR_DRIVER: i32 = -12;
pub const DC_ERROR_NO_COMPILER: i32 = -13;
pub const DC_ERROR_NOT_FOUND: i32 = -14;
pub const DC_ERROR_INVALID_IMAGE: i32 = -15;
pub const DC_ERROR_INVALID_STATE: i32 = -16;
pub const DC_ERROR_IO: i32 = -17;

pub extern "dccuda" fn dc_status_name(status: dc_status) [*:0]const u8;
pub extern "dccuda" fn dc_last_error_message() [*:0]const u8;
pub extern "dccuda" fn dc_last_error_status() dc_status;
pub extern "dccuda" fn dc_last_error_cuda() i32;
pub extern "dccuda" fn dc_last_error_nvrtc() i32;
pub extern "dccuda" fn dc_last_error_detail() [*:0]const u8;

// ---------------------------------------------------------------------------
// Initialisation and the libraries underneath

pub const DC_INIT_NO_NVRTC: u32 = 0x1;
pub const DC_INIT_NO_DISK_CACHE: u32 = 0x2;
pub const DC_INIT_NO_MEMORY_CACHE: u32 = 0x4;

/// The defaults are DC_INIT_OPTIONS_INIT.
pub const dc_init_options = extern struct {
    struct_size: u32 = @sizeOf(dc_init_options),
    flags: u32 = 0,
    driver_library: ?[*:0]const u8 = null,
    nvrtc_library: ?[*:0]const u8 = null,
    cache_dir: ?[*:0]const u8 = null,
    cache_max_bytes: u64 = 0,
};

pub extern "dccuda" fn dc_init(options: ?*const dc_init_options) dc_status;
pub extern "dccuda" fn dc_driver_version(version: ?*i32) dc_status;
pub extern "dccuda" fn dc_driver_library(path: ?*?[*:0]const u8) dc_status;
pub extern "dccuda" fn dc_nvrtc_version(major: ?*i32, minor: ?*i32) dc_status;
pub extern "dccuda" fn dc_config_warnings(warnings: ?*?[*:0]const u8) dc_status;

pub const DC_HANDLE_DEVICE: i32 = 1;
pub const DC_HANDLE_BUFFER: i32 = 2;
pub const DC_HANDLE_STREAM: i32 = 3;
pub const DC_HANDLE_EVENT: i32 = 4;
pub const DC_HANDLE_PROGRAM: i32 = 5;
pub const DC_HANDLE_MODULE: i32 = 6;
pub const DC_HANDLE_FUNCTION: i32 = 7;
pub const DC_HANDLE_LAUNCH: i32 = 8;
pub const DC_HANDLE_GRAPH: i32 = 9;

pub extern "dccuda" fn dc_handle_count(handle_type: i32, count: ?*u64) dc_status;

// ---------------------------------------------------------------------------
// Devices

pub extern "dccuda" fn dc_device_count(count: ?*i32) dc_status;
pub extern "dccuda" fn dc_device_open(ordinal: i32, device: ?*?*Device) dc_status;
pub extern "dccuda" fn dc_device_release(device: ?*Device) void;

/// The defaults are DC_DEVICE_INFO_INIT.
pub const dc_device_info = extern struct {
    struct_size: u32 = @sizeOf(dc_device_info),
    ordinal: i32 = 0,
    name: [256]u8 = [_]u8{0} ** 256,
    uuid: [16]u8 = [_]u8{0} ** 16,
    pci_domain_id: i32 = 0,
    pci_bus_id: i32 = 0,
    pci_device_id: i32 = 0,
    compute_capability_major: i32 = 0,
    compute_capability_minor: i32 = 0,
    multiprocessor_count: i32 = 0,
    total_memory: u64 = 0,
    free_memory: u64 = 0,
    clock_rate_khz: i32 = 0,
    memory_clock_rate_khz: i32 = 0,
    memory_bus_width_bits: i32 = 0,
    warp_size: i32 = 0,
    max_threads_per_block: i32 = 0,
    max_threads_per_multiprocessor: i32 = 0,
    max_block_dim: [3]i32 = .{ 0, 0, 0 },
    max_grid_dim: [3]i32 = .{ 0, 0, 0 },
    max_shared_memory_per_block: i32 = 0,
    max_shared_memory_per_block_optin: i32 = 0,
    max_shared_memory_per_multiprocessor: i32 = 0,
    max_registers_per_block: i32 = 0,
    l2_cache_size: i32 = 0,
    async_engine_count: i32 = 0,
    unified_addressing: i32 = 0,
    managed_memory: i32 = 0,
    concurrent_managed_access: i32 = 0,
    pageable_memory_access: i32 = 0,
    cooperative_launch: i32 = 0,
    cluster_launch: i32 = 0,
    memory_pools_supported: i32 = 0,
    host_native_atomics: i32 = 0,
    ecc_enabled: i32 = 0,
    kernel_exec_timeout: i32 = 0,
    integrated: i32 = 0,
    tcc_driver: i32 = 0,

    /// The name as a slice, without the NUL padding.
    pub fn nameSlice(self: *const dc_device_info) []const u8 {
        return std.mem.sliceTo(&self.name, 0);
    }
};

pub extern "dccuda" fn dc_device_get_info(device: ?*Device, info: ?*dc_device_info) dc_status;
pub extern "dccuda" fn dc_device_attribute(device: ?*Device, attribute: i32, value: ?*i32) dc_status;
pub extern "dccuda" fn dc_device_memory_info(device: ?*Device, free_bytes: ?*u64, total_bytes: ?*u64) dc_status;
pub extern "dccuda" fn dc_device_synchronize(device: ?*Device) dc_status;
pub extern "dccuda" fn dc_device_reset(device: ?*Device) dc_status;
pub extern "dccuda" fn dc_device_trim_memory(device: ?*Device, keep_bytes: u64) dc_status;
pub extern "dccuda" fn dc_device_native(device: ?*Device, cu_device: ?*i32, cu_context: ?*?*anyopaque) dc_status;

pub extern "dccuda" fn dc_device_can_access_peer(device: ?*Device, peer: ?*Device, can_access: ?*i32) dc_status;
pub extern "dccuda" fn dc_device_enable_peer_access(device: ?*Device, peer: ?*Device) dc_status;
pub extern "dccuda" fn dc_device_disable_peer_access(device: ?*Device, peer: ?*Device) dc_status;

pub const DC_PEER_ATTRIBUTE_PERFORMANCE_RANK: i32 = 1;
pub const DC_PEER_ATTRIBUTE_ACCESS_SUPPORTED: i32 = 2;
pub const DC_PEER_ATTRIBUTE_NATIVE_ATOMIC_SUPPORTED: i32 = 3;

pub extern "dccuda" fn dc_device_peer_attribute(device: ?*Device, peer: ?*Device, attribute: i32, value: ?*i32) dc_status;

// ---------------------------------------------------------------------------
// Buffers

pub const DC_BUFFER_DEVICE: i32 = 1;
pub const DC_BUFFER_PINNED: i32 = 2;
pub const DC_BUFFER_MANAGED: i32 = 3;
pub const DC_BUFFER_WRAPPED_DEVICE: i32 = 4;
pub const DC_BUFFER_REGISTERED_HOST: i32 = 5;
pub const DC_BUFFER_MODULE_GLOBAL: i32 = 6;

pub const DC_ALLOC_NO_POOL: u32 = 0x01;
pub const DC_ALLOC_PORTABLE: u32 = 0x02;
pub const DC_ALLOC_DEVICE_MAPPED: u32 = 0x04;
pub const DC_ALLOC_WRITE_COMBINED: u32 = 0x08;
pub const DC_ALLOC_ATTACH_HOST: u32 = 0x10;
pub const DC_ALLOC_READ_ONLY: u32 = 0x20;

pub extern "dccuda" fn dc_buffer_alloc(device: ?*Device, size: u64, flags: u32, buffer: ?*?*Buffer) dc_status;
pub extern "dccuda" fn dc_buffer_alloc_async(stream: ?*Stream, size: u64, flags: u32, buffer: ?*?*Buffer) dc_status;
pub extern "dccuda" fn dc_buffer_alloc_pinned(device: ?*Device, size: u64, flags: u32, buffer: ?*?*Buffer) dc_status;
pub extern "dccuda" fn dc_buffer_alloc_managed(device: ?*Device, size: u64, flags: u32, buffer: ?*?*Buffer) dc_status;
pub extern "dccuda" fn dc_buffer_wrap_device(device: ?*Device, device_pointer: u64, size: u64, buffer: ?*?*Buffer) dc_status;
pub extern "dccuda" fn dc_buffer_register_host(device: ?*Device, host: ?*anyopaque, size: u64, flags: u32, buffer: ?*?*Buffer) dc_status;
pub extern "dccuda" fn dc_buffer_release(buffer: ?*Buffer) void;
pub extern "dccuda" fn dc_buffer_size(buffer: ?*Buffer, size: ?*u64) dc_status;
pub extern "dccuda" fn dc_buffer_kind(buffer: ?*Buffer, kind: ?*i32) dc_status;
pub extern "dccuda" fn dc_buffer_device(buffer: ?*Buffer, device: ?*?*Device) dc_status;
pub extern "dccuda" fn dc_buffer_device_pointer(buffer: ?*Buffer, device_pointer: ?*u64) dc_status;
pub extern "dccuda" fn dc_buffer_host_pointer(buffer: ?*Buffer, host_pointer: ?*?*anyopaque) dc_status;

pub const DC_LOCATION_HOST: i32 = -1;

pub extern "dccuda" fn dc_buffer_prefetch(buffer: ?*Buffer, offset: u64, size: u64, location: i32, stream: ?*Stream) dc_status;

pub const DC_ADVISE_SET_READ_MOSTLY: i32 = 1;
pub const DC_ADVISE_UNSET_READ_MOSTLY: i32 = 2;
pub const DC_ADVISE_SET_PREFERRED_LOCATION: i32 = 3;
pub const DC_ADVISE_UNSET_PREFERRED_LOCATION: i32 = 4;
pub const DC_ADVISE_SET_ACCESSED_BY: i32 = 5;
pub const DC_ADVISE_UNSET_ACCESSED_BY: i32 = 6;

pub extern "dccuda" fn dc_buffer_advise(buffer: ?*Buffer, offset: u64, size: u64, advice: i32, location: i32) dc_status;

pub extern "dccuda" fn dc_buffer_write(dst: ?*Buffer, dst_offset: u64, src: ?*const anyopaque, size: u64) dc_status;
pub extern "dccuda" fn dc_buffer_read(src: ?*Buffer, src_offset: u64, dst: ?*anyopaque, size: u64) dc_status;
pub extern "dccuda" fn dc_buffer_copy(dst: ?*Buffer, dst_offset: u64, src: ?*Buffer, src_offset: u64, size: u64) dc_status;
pub extern "dccuda" fn dc_buffer_write_async(dst: ?*Buffer, dst_offset: u64, src: ?*const anyopaque, size: u64, stream: ?*Stream) dc_status;
pub extern "dccuda" fn dc_buffer_read_async(src: ?*Buffer, src_offset: u64, dst: ?*anyopaque, size: u64, stream: ?*Stream) dc_status;
pub extern "dccuda" fn dc_buffer_copy_async(dst: ?*Buffer, dst_offset: u64, src: ?*Buffer, src_offset: u64, size: u64, stream: ?*Stream) dc_status;
pub extern "dccuda" fn dc_buffer_fill(buffer: ?*Buffer, offset: u64, size: u64, value: u32, element_size: u32) dc_status;
pub extern "dccuda" fn dc_buffer_fill_async(buffer: ?*Buffer, offset: u64, size: u64, value: u32, element_size: u32, stream: ?*Stream) dc_status;

pub const DC_COPY_PATH_SAME_DEVICE: i32 = 1;
pub const DC_COPY_PATH_PEER: i32 = 2;
pub const DC_COPY_PATH_STAGED: i32 = 3;
pub const DC_COPY_PATH_HOST: i32 = 4;

pub extern "dccuda" fn dc_buffer_copy_path(dst: ?*Buffer, src: ?*Buffer, path: ?*i32) dc_status;

// ---------------------------------------------------------------------------
// Streams and events

pub const DC_STREAM_BLOCKING: u32 = 0x1;

pub extern "dccuda" fn dc_stream_create(device: ?*Device, flags: u32, priority: i32, stream: ?*?*Stream) dc_status;
pub extern "dccuda" fn dc_stream_priority_range(device: ?*Device, least: ?*i32, greatest: ?*i32) dc_status;

pub const DC_STREAM_LEGACY: i32 = 1;
pub const DC_STREAM_PER_THREAD: i32 = 2;

pub extern "dccuda" fn dc_stream_get_default(device: ?*Device, which: i32, stream: ?*?*Stream) dc_status;
pub extern "dccuda" fn dc_stream_wrap(device: ?*Device, cu_stream: ?*anyopaque, stream: ?*?*Stream) dc_status;
pub extern "dccuda" fn dc_stream_release(stream: ?*Stream) void;
pub extern "dccuda" fn dc_stream_synchronize(stream: ?*Stream) dc_status;
pub extern "dccuda" fn dc_stream_query(stream: ?*Stream) dc_status;
pub extern "dccuda" fn dc_stream_wait_event(stream: ?*Stream, event: ?*Event) dc_status;

/// dc_host_fn: runs on a driver thread (see dc_stream_add_callback).
pub const dc_host_fn = *const fn (user_data: ?*anyopaque) callconv(.C) void;

pub extern "dccuda" fn dc_stream_add_callback(stream: ?*Stream, @"fn": ?dc_host_fn, user_data: ?*anyopaque) dc_status;
pub extern "dccuda" fn dc_stream_native(stream: ?*Stream, cu_stream: ?*?*anyopaque) dc_status;
pub extern "dccuda" fn dc_stream_device(stream: ?*Stream, device: ?*?*Device) dc_status;

pub const DC_EVENT_DISABLE_TIMING: u32 = 0x1;
pub const DC_EVENT_BLOCKING_SYNC: u32 = 0x2;

pub extern "dccuda" fn dc_event_create(device: ?*Device, flags: u32, event: ?*?*Event) dc_status;
pub extern "dccuda" fn dc_event_release(event: ?*Event) void;
pub extern "dccuda" fn dc_event_record(event: ?*Event, stream: ?*Stream) dc_status;
pub extern "dccuda" fn dc_event_synchronize(event: ?*Event) dc_status;
pub extern "dccuda" fn dc_event_query(event: ?*Event) dc_status;
pub extern "dccuda" fn dc_event_elapsed_ms(start: ?*Event, end: ?*Event, milliseconds: ?*f32) dc_status;
pub extern "dccuda" fn dc_event_native(event: ?*Event, cu_event: ?*?*anyopaque) dc_status;

// ---------------------------------------------------------------------------
// Runtime compilation (NVRTC) and the kernel cache

pub const DC_OUTPUT_CUBIN: i32 = 0;
pub const DC_OUTPUT_PTX: i32 = 1;
pub const DC_OUTPUT_LTOIR: i32 = 2;

pub const DC_COMPILE_FAST_MATH: u32 = 0x01;
pub const DC_COMPILE_LINE_INFO: u32 = 0x02;
pub const DC_COMPILE_DEVICE_DEBUG: u32 = 0x04;
pub const DC_COMPILE_RELOCATABLE: u32 = 0x08;
pub const DC_COMPILE_ARCH_SPECIFIC: u32 = 0x10;
pub const DC_COMPILE_NO_CACHE: u32 = 0x20;

/// The defaults are DC_COMPILE_OPTIONS_INIT.
pub const dc_compile_options = extern struct {
    struct_size: u32 = @sizeOf(dc_compile_options),
    output: i32 = DC_OUTPUT_CUBIN,
    arch: i32 = 0,
    flags: u32 = 0,
    max_registers: i32 = 0,
    num_options: u32 = 0,
    num_defines: u32 = 0,
    num_include_paths: u32 = 0,
    num_headers: u32 = 0,
    num_name_expressions: u32 = 0,
    std: ?[*:0]const u8 = null,
    options: ?[*]const [*:0]const u8 = null,
    defines: ?[*]const [*:0]const u8 = null,
    include_paths: ?[*]const [*:0]const u8 = null,
    header_names: ?[*]const [*:0]const u8 = null,
    header_sources: ?[*]const [*:0]const u8 = null,
    name_expressions: ?[*]const [*:0]const u8 = null,
};

pub extern "dccuda" fn dc_compile(source: ?[*:0]const u8, program_name: ?[*:0]const u8, options: ?*const dc_compile_options, device: ?*Device, program: ?*?*Program) dc_status;
pub extern "dccuda" fn dc_program_release(program: ?*Program) void;
pub extern "dccuda" fn dc_program_output(program: ?*Program, kind: ?*i32, data: ?*?*const anyopaque, size: ?*u64) dc_status;
pub extern "dccuda" fn dc_program_log(program: ?*Program, log: ?*?[*:0]const u8) dc_status;
pub extern "dccuda" fn dc_program_lowered_name(program: ?*Program, name_expression: ?[*:0]const u8, lowered_name: ?*?[*:0]const u8) dc_status;

pub const DC_CACHE_MISS: i32 = 0;
pub const DC_CACHE_MEMORY: i32 = 1;
pub const DC_CACHE_DISK: i32 = 2;

pub extern "dccuda" fn dc_program_cache_source(program: ?*Program, source: ?*i32) dc_status;

pub const DC_CACHE_CLEAR_MEMORY: u32 = 0x1;
pub const DC_CACHE_CLEAR_DISK: u32 = 0x2;

pub extern "dccuda" fn dc_cache_clear(flags: u32) dc_status;
pub extern "dccuda" fn dc_cache_directory(path: ?*?[*:0]const u8) dc_status;

// ---------------------------------------------------------------------------
// Modules and functions

pub const DC_JIT_LINE_INFO: u32 = 0x1;
pub const DC_JIT_DEBUG: u32 = 0x2;

/// The defaults are DC_MODULE_OPTIONS_INIT.
pub const dc_module_options = extern struct {
    struct_size: u32 = @sizeOf(dc_module_options),
    flags: u32 = 0,
    optimization_level: i32 = -1,
    max_registers: i32 = 0,
    log_size: u32 = 0,
    reserved: u32 = 0,
};

pub extern "dccuda" fn dc_module_load(device: ?*Device, image: ?*const anyopaque, size: u64, options: ?*const dc_module_options, module: ?*?*Module) dc_status;
pub extern "dccuda" fn dc_module_load_file(device: ?*Device, path: ?[*:0]const u8, options: ?*const dc_module_options, module: ?*?*Module) dc_status;
pub extern "dccuda" fn dc_module_load_program(device: ?*Device, program: ?*Program, options: ?*const dc_module_options, module: ?*?*Module) dc_status;
pub extern "dccuda" fn dc_module_compile_and_load(device: ?*Device, source: ?[*:0]const u8, program_name: ?[*:0]const u8, options: ?*const dc_compile_options, module: ?*?*Module) dc_status;
pub extern "dccuda" fn dc_module_release(module: ?*Module) void;
pub extern "dccuda" fn dc_module_jit_log(module: ?*Module, log: ?*?[*:0]const u8) dc_status;
pub extern "dccuda" fn dc_module_get_function(module: ?*Module, name: ?[*:0]const u8, function: ?*?*Function) dc_status;
pub extern "dccuda" fn dc_module_function_count(module: ?*Module, count: ?*u32) dc_status;
pub extern "dccuda" fn dc_module_function_name(module: ?*Module, index: u32, name: ?*?[*:0]const u8) dc_status;
pub extern "dccuda" fn dc_module_get_global(module: ?*Module, name: ?[*:0]const u8, buffer: ?*?*Buffer) dc_status;

pub extern "dccuda" fn dc_function_release(function: ?*Function) void;
pub extern "dccuda" fn dc_function_name(function: ?*Function, name: ?*?[*:0]const u8) dc_status;

/// The defaults are DC_FUNCTION_INFO_INIT.
pub const dc_function_info = extern struct {
    struct_size: u32 = @sizeOf(dc_function_info),
    num_registers: i32 = 0,
    max_threads_per_block: i32 = 0,
    static_shared_bytes: i32 = 0,
    max_dynamic_shared_bytes: i32 = 0,
    local_bytes: i32 = 0,
    const_bytes: i32 = 0,
    ptx_version: i32 = 0,
    binary_version: i32 = 0,
    num_params: i32 = 0,
    params_bytes: u32 = 0,
};

pub extern "dccuda" fn dc_function_get_info(function: ?*Function, info: ?*dc_function_info) dc_status;
pub extern "dccuda" fn dc_function_attribute(function: ?*Function, attribute: i32, value: ?*i32) dc_status;
pub extern "dccuda" fn dc_function_set_attribute(function: ?*Function, attribute: i32, value: i32) dc_status;

pub const DC_CACHE_PREFER_NONE: i32 = 0;
pub const DC_CACHE_PREFER_SHARED: i32 = 1;
pub const DC_CACHE_PREFER_L1: i32 = 2;
pub const DC_CACHE_PREFER_EQUAL: i32 = 3;

pub extern "dccuda" fn dc_function_set_cache_config(function: ?*Function, preference: i32) dc_status;
pub extern "dccuda" fn dc_function_param_count(function: ?*Function, count: ?*u32) dc_status;
pub extern "dccuda" fn dc_function_param_info(function: ?*Function, index: u32, offset: ?*u64, size: ?*u64) dc_status;
pub extern "dccuda" fn dc_function_native(function: ?*Function, cu_function: ?*?*anyopaque) dc_status;

// ---------------------------------------------------------------------------
// Launching kernels

pub const DC_LAUNCH_COOPERATIVE: u32 = 0x1;
pub const DC_LAUNCH_PROGRAMMATIC_SERIALIZATION: u32 = 0x2;

/// The defaults are DC_LAUNCH_CONFIG_INIT. `grid` counts blocks, also with clusters.
pub const dc_launch_config = extern struct {
    struct_size: u32 = @sizeOf(dc_launch_config),
    grid: [3]u32 = .{ 1, 1, 1 },
    block: [3]u32 = .{ 1, 1, 1 },
    shared_memory_bytes: u32 = 0,
    flags: u32 = 0,
    cluster: [3]u32 = .{ 0, 0, 0 },
    priority: i32 = 0,

    /// A 1-D launch of `blocks` blocks of `threads` threads.
    pub fn linear(blocks: u32, threads: u32) dc_launch_config {
        return .{ .grid = .{ blocks, 1, 1 }, .block = .{ threads, 1, 1 } };
    }
};

pub const DC_ARG_VALUE: u32 = 1;
pub const DC_ARG_BUFFER: u32 = 2;

/// One kernel argument (no unions: the fields a kind does not use are ignored).
pub const dc_arg = extern struct {
    kind: u32,
    size: u32,
    value: ?*const anyopaque = null,
    buffer: ?*Buffer = null,
    offset: u64 = 0,

    /// DC_ARG_VALUE_OF(ptr): the bytes of `*ptr`, copied when the launch is
    /// made (or the argument bound); `ptr` only has to live until then.
    pub fn of(ptr: anytype) dc_arg {
        const T = @typeInfo(@TypeOf(ptr)).Pointer.child;
        return .{ .kind = DC_ARG_VALUE, .size = @sizeOf(T), .value = @ptrCast(ptr) };
    }
    /// DC_ARG_BUFFER_OF(buf): the buffer's device address.
    pub fn buf(buffer: *Buffer) dc_arg {
        return .{ .kind = DC_ARG_BUFFER, .size = 8, .buffer = buffer };
    }
    /// DC_ARG_BUFFER_AT(buf, off): the buffer's device address + `offset` bytes.
    pub fn bufAt(buffer: *Buffer, offset: u64) dc_arg {
        return .{ .kind = DC_ARG_BUFFER, .size = 8, .buffer = buffer, .offset = offset };
    }
};

pub extern "dccuda" fn dc_launch_config_1d(function: ?*Function, n: u64, shared_memory_bytes: u32, config: ?*dc_launch_config) dc_status;
pub extern "dccuda" fn dc_launch_kernel(function: ?*Function, config: ?*const dc_launch_config, args: ?[*]const dc_arg, num_args: u32, stream: ?*Stream) dc_status;
pub extern "dccuda" fn dc_launch_kernel_packed(function: ?*Function, config: ?*const dc_launch_config, params: ?*const anyopaque, size: u64, stream: ?*Stream) dc_status;
pub extern "dccuda" fn dc_launch_create(function: ?*Function, config: ?*const dc_launch_config, launch: ?*?*Launch) dc_status;
pub extern "dccuda" fn dc_launch_set_config(launch: ?*Launch, config: ?*const dc_launch_config) dc_status;
pub extern "dccuda" fn dc_launch_set_arg(launch: ?*Launch, index: u32, arg: ?*const dc_arg) dc_status;
pub extern "dccuda" fn dc_launch_set_args(launch: ?*Launch, args: ?[*]const dc_arg, num_args: u32) dc_status;
pub extern "dccuda" fn dc_launch_enqueue(launch: ?*Launch, stream: ?*Stream) dc_status;
pub extern "dccuda" fn dc_launch_release(launch: ?*Launch) void;

// ---------------------------------------------------------------------------
// Occupancy

/// dc_block_shared_memory_fn: called on the calling thread, before the call returns.
pub const dc_block_shared_memory_fn = *const fn (block_size: i32, user_data: ?*anyopaque) callconv(.C) u64;

pub extern "dccuda" fn dc_occupancy_max_active_blocks(function: ?*Function, block_size: i32, dynamic_shared_bytes: u64, blocks_per_multiprocessor: ?*i32) dc_status;
pub extern "dccuda" fn dc_occupancy_max_potential_block_size(function: ?*Function, @"fn": ?dc_block_shared_memory_fn, user_data: ?*anyopaque, dynamic_shared_bytes: u64, block_size_limit: i32, min_grid_size: ?*i32, block_size: ?*i32) dc_status;
pub extern "dccuda" fn dc_occupancy_max_active_clusters(function: ?*Function, config: ?*const dc_launch_config, clusters: ?*i32) dc_status;
pub extern "dccuda" fn dc_occupancy_available_dynamic_shared(function: ?*Function, num_blocks: i32, block_size: i32, bytes: ?*u64) dc_status;

// ---------------------------------------------------------------------------
// Graphs

pub const DC_CAPTURE_GLOBAL: i32 = 0;
pub const DC_CAPTURE_THREAD_LOCAL: i32 = 1;
pub const DC_CAPTURE_RELAXED: i32 = 2;

pub extern "dccuda" fn dc_stream_begin_capture(stream: ?*Stream, mode: i32) dc_status;
pub extern "dccuda" fn dc_stream_end_capture(stream: ?*Stream, graph: ?*?*Graph) dc_status;
pub extern "dccuda" fn dc_stream_is_capturing(stream: ?*Stream, capturing: ?*i32) dc_status;
pub extern "dccuda" fn dc_graph_instantiate(graph: ?*Graph) dc_status;
pub extern "dccuda" fn dc_graph_upload(graph: ?*Graph, stream: ?*Stream) dc_status;
pub extern "dccuda" fn dc_graph_launch(graph: ?*Graph, stream: ?*Stream) dc_status;
pub extern "dccuda" fn dc_graph_update(graph: ?*Graph, source: ?*Graph) dc_status;
pub extern "dccuda" fn dc_graph_node_count(graph: ?*Graph, count: ?*u64) dc_status;
pub extern "dccuda" fn dc_graph_release(graph: ?*Graph) void;

/// The structs of the header, in header order: layout.zig prints these and the
/// tests check that each `struct_size` default is the struct's own size.
pub const structs = .{
    .{ "dc_init_options", dc_init_options },
    .{ "dc_device_info", dc_device_info },
    .{ "dc_compile_options", dc_compile_options },
    .{ "dc_module_options", dc_module_options },
    .{ "dc_function_info", dc_function_info },
    .{ "dc_launch_config", dc_launch_config },
    .{ "dc_arg", dc_arg },
};
