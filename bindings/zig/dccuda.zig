//! dccuda for Zig: the C ABI of libdccuda.so.1 (include/dccuda.h) with thin,
//! idiomatic wrappers. Written for Zig 0.14 (tested with 0.14.0-dev.2456).
//!
//!     const dc = @import("dccuda");
//!     const dev = try dc.Device.open(0);
//!     defer dev.deinit();
//!     const buf = try dc.Buffer.alloc(dev, 4096, .{});
//!     defer buf.deinit();
//!     buf.write(0, data) catch |err| {
//!         std.log.err("{s}: {}", .{ @errorName(err), dc.lastError() });
//!         return err;
//!     };
//!
//! Handles (`*Device`, `*Buffer`, ...) are opaque pointers whose methods call
//! the library; `deinit` releases them, so `defer x.deinit()` right after the
//! creating call is the pattern. A failing call returns a `DcError`; the
//! library's message, log and raw CUDA error are in `lastError()` until the
//! next dccuda call on the same thread. `c` is the raw layer: the header's
//! declarations one to one (src/c.zig), for what the wrappers do not cover.
//!
//! Linking: every declaration is `extern "dccuda"`, so building anything that
//! uses them links libdccuda (`-ldccuda`, `linkSystemLibrary("dccuda")`, and a
//! library path where libdccuda.so is); see build.zig.

const std = @import("std");

/// The raw declarations of include/dccuda.h.
pub const c = @import("src/c.zig");

const errors = @import("src/errors.zig");
const library = @import("src/library.zig");
const device = @import("src/device.zig");
const buffer = @import("src/buffer.zig");
const stream = @import("src/stream.zig");
const event = @import("src/event.zig");
const compile = @import("src/compile.zig");
const linking = @import("src/link.zig");
const module = @import("src/module.zig");
const kernel_library = @import("src/kernel_library.zig");
const comm = @import("src/comm.zig");
const function = @import("src/function.zig");
const launch = @import("src/launch.zig");
const graph = @import("src/graph.zig");
const queue = @import("src/queue.zig");
const pool = @import("src/pool.zig");
const blas = @import("src/blas.zig");
const fft = @import("src/fft.zig");
const args = @import("src/args.zig");
const diagnostics = @import("src/diagnostics.zig");

// Status and errors.
pub const Status = errors.Status;
pub const DcError = errors.DcError;
pub const Error = errors.DcError;
pub const LastError = errors.LastError;
pub const lastError = errors.lastError;
pub const lastErrorMessage = errors.lastErrorMessage;
pub const OwnedLastError = errors.OwnedLastError;
pub const lastErrorAlloc = errors.lastErrorAlloc;
pub const AllocError = errors.AllocError;
pub const statusName = errors.statusName;
pub const errorFromStatus = errors.errorFromStatus;
pub const statusFromError = errors.statusFromError;
pub const check = errors.check;

// The library.
pub const version = library.version;
pub const binding_version = library.binding_version;
pub const InitFlags = library.InitFlags;
pub const InitOptions = library.InitOptions;
pub const init = library.init;
pub const driverVersion = library.driverVersion;
pub const driverLibrary = library.driverLibrary;
pub const NvrtcVersion = library.NvrtcVersion;
pub const nvrtcVersion = library.nvrtcVersion;
pub const nvrtcSupportedArchs = library.nvrtcSupportedArchs;
pub const HandleType = library.HandleType;
pub const handleCount = library.handleCount;
pub const liveHandles = library.liveHandles;
pub const CacheClear = library.CacheClear;
pub const cacheClear = library.cacheClear;
pub const cacheDirectory = library.cacheDirectory;
pub const cacheDirectoryAlloc = library.cacheDirectoryAlloc;
pub const driverLibraryAlloc = library.driverLibraryAlloc;

// Seeing inside: the log, live handles, telemetry.
pub const LogLevel = diagnostics.LogLevel;
pub const LogHandler = diagnostics.LogHandler;
pub const setLogHandler = diagnostics.setLogHandler;
pub const logToStd = diagnostics.logToStd;
pub const stopLog = diagnostics.stopLog;
pub const handleReportAlloc = diagnostics.handleReportAlloc;
pub const telemetryLibrary = diagnostics.telemetryLibrary;
pub const Telemetry = diagnostics.Telemetry;
pub const telemetry = diagnostics.telemetry;

// Devices.
pub const Device = device.Device;
pub const DeviceInfo = device.DeviceInfo;
pub const PeerAttribute = device.PeerAttribute;
pub const Limit = device.Limit;
pub const MemoryInfo = device.MemoryInfo;
pub const NativeDevice = device.NativeDevice;

// Buffers.
pub const Buffer = buffer.Buffer;
pub const IpcHandle = buffer.IpcHandle;
pub const Pool = pool.Pool;
pub const PoolAttribute = pool.PoolAttribute;
pub const PoolStats = pool.PoolStats;
pub const PoolFlags = pool.PoolFlags;

// cuFFT.
pub const FftPlan = fft.FftPlan;
pub const FftKind = fft.FftKind;
pub const FftPrecision = fft.FftPrecision;
pub const FftDirection = fft.FftDirection;
pub const FftPlanInfo = fft.FftPlanInfo;
pub const FftDesc = fft.FftDesc;
pub const ComplexF32 = fft.ComplexF32;
pub const ComplexF64 = fft.ComplexF64;
pub const cufftVersion = fft.cufftVersion;
pub const BufferKind = buffer.BufferKind;
pub const AllocFlags = buffer.AllocFlags;
pub const CopyPath = buffer.CopyPath;
pub const Advice = buffer.Advice;
pub const Location = buffer.Location;

// Streams, events, graphs.
pub const Stream = stream.Stream;
pub const StreamFlags = stream.StreamFlags;
pub const DefaultStream = stream.DefaultStream;
pub const CaptureMode = stream.CaptureMode;
pub const PriorityRange = stream.PriorityRange;
pub const Compare = stream.Compare;
pub const ValueFlags = stream.ValueFlags;
pub const MemOp = stream.MemOp;
pub const Event = event.Event;
pub const EventFlags = event.EventFlags;
pub const Graph = graph.Graph;
pub const Node = graph.Node;
pub const NodeType = graph.NodeType;
pub const ConditionalType = graph.ConditionalType;
pub const Conditional = graph.Conditional;
pub const DotFlags = graph.DotFlags;
pub const Edge = graph.Edge;

// Message queues and resident kernels.
pub const Queue = queue.Queue;
pub const QueueDirection = queue.Direction;
pub const Wait = queue.Wait;
pub const QueueStats = queue.QueueStats;
pub const Control = queue.Control;
pub const ControlState = queue.ControlState;
pub const ControlInfo = queue.ControlInfo;

// Compilation and modules.
pub const Program = compile.Program;
pub const CompileOptions = compile.CompileOptions;
pub const CompileFlags = compile.CompileFlags;
pub const Output = compile.Output;
pub const ProgramOutput = compile.ProgramOutput;
pub const CacheSource = compile.CacheSource;

// Linking device code.
pub const link = linking.link;
pub const LinkInput = linking.LinkInput;
pub const LinkInputKind = linking.LinkInputKind;
pub const LinkFlags = linking.LinkFlags;
pub const LinkOptions = linking.LinkOptions;
pub const NvJitLinkVersion = linking.NvJitLinkVersion;
pub const nvjitlinkVersion = linking.nvjitlinkVersion;
pub const Module = module.Module;
pub const KernelLibrary = kernel_library.KernelLibrary;
pub const Comm = comm.Comm;
pub const NcclDataType = comm.DataType;
pub const NcclReduceOp = comm.ReduceOp;
pub const ncclVersion = comm.ncclVersion;
pub const ncclUniqueId = comm.uniqueId;
pub const ncclGroupStart = comm.groupStart;
pub const ncclGroupEnd = comm.groupEnd;
pub const ModuleOptions = module.ModuleOptions;
pub const JitFlags = module.JitFlags;

// Kernels and launches.
pub const Function = function.Function;
pub const FunctionInfo = function.FunctionInfo;
pub const CachePreference = function.CachePreference;
pub const LaunchFlags = function.LaunchFlags;
pub const ParamInfo = function.ParamInfo;
pub const BlockSize = function.BlockSize;
pub const LaunchConfig = c.dc_launch_config;
pub const Arg = c.dc_arg;
pub const BufferAt = args.BufferAt;
/// A buffer argument at a byte offset: `.{ dc.at(buf, 256), n }`.
pub const at = args.at;
/// Kernel arguments as dc_args (what Function.launch does), for launchArgs and
/// Launch.setArgsSlice: `var v = dc.argValues(.{ a, x, y, n }); const args = dc.packArgs(&v);`
/// Keep `v` alive while the dc_args are used.
pub const argValues = args.values;
pub const packArgs = args.pack;
pub const Launch = launch.Launch;

// cuBLAS (dc_blas).
pub const Blas = blas.Blas;
pub const BlasType = blas.BlasType;
pub const BlasOp = blas.BlasOp;
pub const GemmDesc = blas.GemmDesc;
pub const blasLibraryVersion = blas.libraryVersion;
