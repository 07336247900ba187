// The header's constant groups as C# enums for the safe layer. Every value is taken from
// NativeConstants (never retyped), so the two cannot disagree. Casting any other int to
// these enums is allowed: the library may answer values newer than this binding.
using System;
using C = Dccuda.Interop.NativeConstants;

namespace Dccuda
{
    /// <summary>dc_status: 0 success, 1 not ready, negative errors (append-only).</summary>
    public enum DcStatus
    {
        Success = C.DC_SUCCESS,
        NotReady = C.DC_NOT_READY,
        InvalidArgument = C.DC_ERROR_INVALID_ARGUMENT,
        InvalidHandle = C.DC_ERROR_INVALID_HANDLE,
        NoDriver = C.DC_ERROR_NO_DRIVER,
        NotSupported = C.DC_ERROR_NOT_SUPPORTED,
        NoDevice = C.DC_ERROR_NO_DEVICE,
        OutOfMemory = C.DC_ERROR_OUT_OF_MEMORY,
        OutOfRange = C.DC_ERROR_OUT_OF_RANGE,
        Compile = C.DC_ERROR_COMPILE,
        LaunchFailed = C.DC_ERROR_LAUNCH_FAILED,
        ContextLost = C.DC_ERROR_CONTEXT_LOST,
        Internal = C.DC_ERROR_INTERNAL,
        Driver = C.DC_ERROR_DRIVER,
        NoCompiler = C.DC_ERROR_NO_COMPILER,
        NotFound = C.DC_ERROR_NOT_FOUND,
        InvalidImage = C.DC_ERROR_INVALID_IMAGE,
        InvalidState = C.DC_ERROR_INVALID_STATE,
        Io = C.DC_ERROR_IO,
    }

    /// <summary>DC_INIT_* flags.</summary>
    [Flags]
    public enum InitFlags : uint
    {
        None = 0,
        NoNvrtc = C.DC_INIT_NO_NVRTC,
        NoDiskCache = C.DC_INIT_NO_DISK_CACHE,
        NoMemoryCache = C.DC_INIT_NO_MEMORY_CACHE,
    }

    /// <summary>DC_HANDLE_*: the handle types dc_handle_count counts.</summary>
    public enum HandleType
    {
        Device = C.DC_HANDLE_DEVICE,
        Buffer = C.DC_HANDLE_BUFFER,
        Stream = C.DC_HANDLE_STREAM,
        Event = C.DC_HANDLE_EVENT,
        Program = C.DC_HANDLE_PROGRAM,
        Module = C.DC_HANDLE_MODULE,
        Function = C.DC_HANDLE_FUNCTION,
        Launch = C.DC_HANDLE_LAUNCH,
        Graph = C.DC_HANDLE_GRAPH,
    }

    /// <summary>DC_PEER_ATTRIBUTE_*.</summary>
    public enum PeerAttribute
    {
        PerformanceRank = C.DC_PEER_ATTRIBUTE_PERFORMANCE_RANK,
        AccessSupported = C.DC_PEER_ATTRIBUTE_ACCESS_SUPPORTED,
        NativeAtomicSupported = C.DC_PEER_ATTRIBUTE_NATIVE_ATOMIC_SUPPORTED,
    }

    /// <summary>DC_BUFFER_*: what a buffer's memory is.</summary>
    public enum BufferKind
    {
        Device = C.DC_BUFFER_DEVICE,
        Pinned = C.DC_BUFFER_PINNED,
        Managed = C.DC_BUFFER_MANAGED,
        WrappedDevice = C.DC_BUFFER_WRAPPED_DEVICE,
        RegisteredHost = C.DC_BUFFER_REGISTERED_HOST,
        ModuleGlobal = C.DC_BUFFER_MODULE_GLOBAL,
    }

    /// <summary>DC_ALLOC_* flags.</summary>
    [Flags]
    public enum AllocFlags : uint
    {
        None = 0,
        NoPool = C.DC_ALLOC_NO_POOL,
        Portable = C.DC_ALLOC_PORTABLE,
        DeviceMapped = C.DC_ALLOC_DEVICE_MAPPED,
        WriteCombined = C.DC_ALLOC_WRITE_COMBINED,
        AttachHost = C.DC_ALLOC_ATTACH_HOST,
        ReadOnly = C.DC_ALLOC_READ_ONLY,
    }

    /// <summary>DC_ADVISE_*: advice for managed memory.</summary>
    public enum MemoryAdvice
    {
        SetReadMostly = C.DC_ADVISE_SET_READ_MOSTLY,
        UnsetReadMostly = C.DC_ADVISE_UNSET_READ_MOSTLY,
        SetPreferredLocation = C.DC_ADVISE_SET_PREFERRED_LOCATION,
        UnsetPreferredLocation = C.DC_ADVISE_UNSET_PREFERRED_LOCATION,
        SetAccessedBy = C.DC_ADVISE_SET_ACCESSED_BY,
        UnsetAccessedBy = C.DC_ADVISE_UNSET_ACCESSED_BY,
    }

    /// <summary>DC_COPY_PATH_*: how a buffer-to-buffer copy travels.</summary>
    public enum CopyPath
    {
        SameDevice = C.DC_COPY_PATH_SAME_DEVICE,
        Peer = C.DC_COPY_PATH_PEER,
        Staged = C.DC_COPY_PATH_STAGED,
        Host = C.DC_COPY_PATH_HOST,
    }

    /// <summary>dc_stream_create flags: non-blocking unless Blocking.</summary>
    [Flags]
    public enum StreamFlags : uint
    {
        NonBlocking = 0,
        Blocking = C.DC_STREAM_BLOCKING,
    }

    /// <summary>DC_STREAM_LEGACY / DC_STREAM_PER_THREAD: a device's default streams.</summary>
    public enum DefaultStream
    {
        Legacy = C.DC_STREAM_LEGACY,
        PerThread = C.DC_STREAM_PER_THREAD,
    }

    /// <summary>DC_EVENT_* flags.</summary>
    [Flags]
    public enum EventFlags : uint
    {
        None = 0,
        DisableTiming = C.DC_EVENT_DISABLE_TIMING,
        BlockingSync = C.DC_EVENT_BLOCKING_SYNC,
    }

    /// <summary>DC_OUTPUT_*: what a compile produces.</summary>
    public enum OutputKind
    {
        Cubin = C.DC_OUTPUT_CUBIN,
        Ptx = C.DC_OUTPUT_PTX,
        LtoIr = C.DC_OUTPUT_LTOIR,
    }

    /// <summary>DC_COMPILE_* flags.</summary>
    [Flags]
    public enum CompileFlags : uint
    {
        None = 0,
        FastMath = C.DC_COMPILE_FAST_MATH,
        LineInfo = C.DC_COMPILE_LINE_INFO,
        DeviceDebug = C.DC_COMPILE_DEVICE_DEBUG,
        Relocatable = C.DC_COMPILE_RELOCATABLE,
        ArchSpecific = C.DC_COMPILE_ARCH_SPECIFIC,
        NoCache = C.DC_COMPILE_NO_CACHE,
    }

    /// <summary>DC_CACHE_MISS / MEMORY / DISK: where a program's output came from.</summary>
    public enum CacheSource
    {
        Miss = C.DC_CACHE_MISS,
        Memory = C.DC_CACHE_MEMORY,
        Disk = C.DC_CACHE_DISK,
    }

    /// <summary>DC_CACHE_CLEAR_* flags.</summary>
    [Flags]
    public enum CacheClearFlags : uint
    {
        Memory = C.DC_CACHE_CLEAR_MEMORY,
        Disk = C.DC_CACHE_CLEAR_DISK,
        All = Memory | Disk,
    }

    /// <summary>DC_JIT_* flags for loading PTX.</summary>
    [Flags]
    public enum JitFlags : uint
    {
        None = 0,
        LineInfo = C.DC_JIT_LINE_INFO,
        Debug = C.DC_JIT_DEBUG,
    }

    /// <summary>DC_CACHE_PREFER_*: a kernel's L1/shared memory preference.</summary>
    public enum CachePreference
    {
        None = C.DC_CACHE_PREFER_NONE,
        Shared = C.DC_CACHE_PREFER_SHARED,
        L1 = C.DC_CACHE_PREFER_L1,
        Equal = C.DC_CACHE_PREFER_EQUAL,
    }

    /// <summary>DC_LAUNCH_* flags.</summary>
    [Flags]
    public enum LaunchFlags : uint
    {
        None = 0,
        Cooperative = C.DC_LAUNCH_COOPERATIVE,
        ProgrammaticSerialization = C.DC_LAUNCH_PROGRAMMATIC_SERIALIZATION,
    }

    /// <summary>DC_CAPTURE_*: stream capture modes.</summary>
    public enum CaptureMode
    {
        Global = C.DC_CAPTURE_GLOBAL,
        ThreadLocal = C.DC_CAPTURE_THREAD_LOCAL,
        Relaxed = C.DC_CAPTURE_RELAXED,
    }
}
