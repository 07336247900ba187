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
        /// <summary>DC_SUCCESS</summary>
        Success = C.DC_SUCCESS,
        /// <summary>DC_NOT_READY: Not an error: the queried work (stream, event) has not finished yet.</summary>
        NotReady = C.DC_NOT_READY,
        /// <summary>DC_ERROR_INVALID_ARGUMENT: An argument is invalid: NULL where a value is required, a bad flag, a wrong struct_size, a kernel argument that does not match the kernel.</summary>
        InvalidArgument = C.DC_ERROR_INVALID_ARGUMENT,
        /// <summary>DC_ERROR_INVALID_HANDLE: A handle is NULL, released, of another type, or was never issued.</summary>
        InvalidHandle = C.DC_ERROR_INVALID_HANDLE,
        /// <summary>DC_ERROR_NO_DRIVER: No usable CUDA driver was found (none installed, the toolkit's stub library, or DCCUDA_DRIVER_LIBRARY names a file that cannot be loaded).</summary>
        NoDriver = C.DC_ERROR_NO_DRIVER,
        /// <summary>DC_ERROR_NOT_SUPPORTED: The installed driver is too old for this call, or the device lacks the feature. The message names the driver version the call needs.</summary>
        NotSupported = C.DC_ERROR_NOT_SUPPORTED,
        /// <summary>DC_ERROR_NO_DEVICE: The driver works but reports no CUDA device, or the ordinal is too big.</summary>
        NoDevice = C.DC_ERROR_NO_DEVICE,
        /// <summary>DC_ERROR_OUT_OF_MEMORY: Device or host memory is exhausted. The library stays usable.</summary>
        OutOfMemory = C.DC_ERROR_OUT_OF_MEMORY,
        /// <summary>DC_ERROR_OUT_OF_RANGE: An offset, size or index lies outside the object it refers to.</summary>
        OutOfRange = C.DC_ERROR_OUT_OF_RANGE,
        /// <summary>DC_ERROR_COMPILE: NVRTC rejected the source. dc_last_error_detail() holds the full log.</summary>
        Compile = C.DC_ERROR_COMPILE,
        /// <summary>DC_ERROR_LAUNCH_FAILED: A launch was refused (too many resources, cooperative grid too large, invalid cluster) or failed without harming the context.</summary>
        LaunchFailed = C.DC_ERROR_LAUNCH_FAILED,
        /// <summary>DC_ERROR_CONTEXT_LOST: The device's context was destroyed by a fault (illegal address, trap, misaligned access...). Sticky: see dc_device_reset(), and restart the process where the driver refuses recovery.</summary>
        ContextLost = C.DC_ERROR_CONTEXT_LOST,
        /// <summary>DC_ERROR_INTERNAL: A bug in dccuda, or an exception that should never happen.</summary>
        Internal = C.DC_ERROR_INTERNAL,
        /// <summary>DC_ERROR_DRIVER: The driver returned an error that has no more specific status; dc_last_error_cuda() gives the raw CUresult.</summary>
        Driver = C.DC_ERROR_DRIVER,
        /// <summary>DC_ERROR_NO_COMPILER: NVRTC is not available (not installed, or DCCUDA_NVRTC_LIBRARY is wrong).</summary>
        NoCompiler = C.DC_ERROR_NO_COMPILER,
        /// <summary>DC_ERROR_NOT_FOUND: A name was not found (a kernel or global in a module, a file).</summary>
        NotFound = C.DC_ERROR_NOT_FOUND,
        /// <summary>DC_ERROR_INVALID_IMAGE: A module image is not valid for this device or driver (bad PTX, PTX newer than the driver, no code for this GPU's architecture).</summary>
        InvalidImage = C.DC_ERROR_INVALID_IMAGE,
        /// <summary>DC_ERROR_INVALID_STATE: The call is not valid in the object's current state (ending a capture that never began, dc_init after the library was already initialised).</summary>
        InvalidState = C.DC_ERROR_INVALID_STATE,
        /// <summary>DC_ERROR_IO: A file could not be read or written.</summary>
        Io = C.DC_ERROR_IO,
        /// <summary>DC_ERROR_TIMEOUT: A wait with a time limit ran out; nothing was changed.</summary>
        Timeout = C.DC_ERROR_TIMEOUT,
    }

    /// <summary>DC_INIT_* flags.</summary>
    [Flags]
    public enum InitFlags : uint
    {
        /// <summary>No flag.</summary>
        None = 0,
        /// <summary>DC_INIT_NO_NVRTC: dc_init_options.flags: do not load NVRTC (compile calls report DC_ERROR_NO_COMPILER).</summary>
        NoNvrtc = C.DC_INIT_NO_NVRTC,
        /// <summary>DC_INIT_NO_DISK_CACHE: dc_init_options.flags: never read or write the on-disk kernel cache.</summary>
        NoDiskCache = C.DC_INIT_NO_DISK_CACHE,
        /// <summary>DC_INIT_NO_MEMORY_CACHE: dc_init_options.flags: do not keep compiled kernels in memory.</summary>
        NoMemoryCache = C.DC_INIT_NO_MEMORY_CACHE,
        /// <summary>DC_INIT_REPORT_LEAKS: dc_init_options.flags: when the process exits, write the handles never released to stderr.</summary>
        ReportLeaks = C.DC_INIT_REPORT_LEAKS,
    }

    /// <summary>DC_HANDLE_*: the handle types dc_handle_count counts.</summary>
    public enum HandleType
    {
        /// <summary>DC_HANDLE_DEVICE</summary>
        Device = C.DC_HANDLE_DEVICE,
        /// <summary>DC_HANDLE_BUFFER</summary>
        Buffer = C.DC_HANDLE_BUFFER,
        /// <summary>DC_HANDLE_STREAM</summary>
        Stream = C.DC_HANDLE_STREAM,
        /// <summary>DC_HANDLE_EVENT</summary>
        Event = C.DC_HANDLE_EVENT,
        /// <summary>DC_HANDLE_PROGRAM</summary>
        Program = C.DC_HANDLE_PROGRAM,
        /// <summary>DC_HANDLE_MODULE</summary>
        Module = C.DC_HANDLE_MODULE,
        /// <summary>DC_HANDLE_FUNCTION</summary>
        Function = C.DC_HANDLE_FUNCTION,
        /// <summary>DC_HANDLE_LAUNCH</summary>
        Launch = C.DC_HANDLE_LAUNCH,
        /// <summary>DC_HANDLE_GRAPH</summary>
        Graph = C.DC_HANDLE_GRAPH,
        /// <summary>DC_HANDLE_POOL</summary>
        Pool = C.DC_HANDLE_POOL,
        /// <summary>DC_HANDLE_LIBRARY</summary>
        Library = C.DC_HANDLE_LIBRARY,
        /// <summary>DC_HANDLE_COMM</summary>
        Comm = C.DC_HANDLE_COMM,
    }

    /// <summary>DC_PEER_ATTRIBUTE_*.</summary>
    public enum PeerAttribute
    {
        /// <summary>DC_PEER_ATTRIBUTE_PERFORMANCE_RANK: P2P attribute for a device pair: peer access</summary>
        PerformanceRank = C.DC_PEER_ATTRIBUTE_PERFORMANCE_RANK,
        /// <summary>DC_PEER_ATTRIBUTE_ACCESS_SUPPORTED</summary>
        AccessSupported = C.DC_PEER_ATTRIBUTE_ACCESS_SUPPORTED,
        /// <summary>DC_PEER_ATTRIBUTE_NATIVE_ATOMIC_SUPPORTED</summary>
        NativeAtomicSupported = C.DC_PEER_ATTRIBUTE_NATIVE_ATOMIC_SUPPORTED,
    }

    /// <summary>DC_BUFFER_*: what a buffer's memory is.</summary>
    public enum BufferKind
    {
        /// <summary>DC_BUFFER_DEVICE: device memory owned by the buffer</summary>
        Device = C.DC_BUFFER_DEVICE,
        /// <summary>DC_BUFFER_PINNED: page-locked host memory owned by the buffer</summary>
        Pinned = C.DC_BUFFER_PINNED,
        /// <summary>DC_BUFFER_MANAGED: unified (managed) memory owned by the buffer</summary>
        Managed = C.DC_BUFFER_MANAGED,
        /// <summary>DC_BUFFER_WRAPPED_DEVICE: device memory owned by someone else</summary>
        WrappedDevice = C.DC_BUFFER_WRAPPED_DEVICE,
        /// <summary>DC_BUFFER_REGISTERED_HOST: caller's host memory, registered (page-locked)</summary>
        RegisteredHost = C.DC_BUFFER_REGISTERED_HOST,
        /// <summary>DC_BUFFER_MODULE_GLOBAL: a __device__ variable of a module</summary>
        ModuleGlobal = C.DC_BUFFER_MODULE_GLOBAL,
    }

    /// <summary>DC_ALLOC_* flags.</summary>
    [Flags]
    public enum AllocFlags : uint
    {
        /// <summary>No flag.</summary>
        None = 0,
        /// <summary>DC_ALLOC_NO_POOL: Device memory: use cuMemAlloc instead of the device's stream-ordered pool.</summary>
        NoPool = C.DC_ALLOC_NO_POOL,
        /// <summary>DC_ALLOC_PORTABLE: Pinned / registered host memory: usable by every device's context.</summary>
        Portable = C.DC_ALLOC_PORTABLE,
        /// <summary>DC_ALLOC_DEVICE_MAPPED: Pinned / registered host memory: mapped into the device address space (dc_buffer_device_pointer gives its device address).</summary>
        DeviceMapped = C.DC_ALLOC_DEVICE_MAPPED,
        /// <summary>DC_ALLOC_WRITE_COMBINED: Pinned host memory: write-combined (fast for the GPU to read, very slow for the CPU to read). Off unless asked for.</summary>
        WriteCombined = C.DC_ALLOC_WRITE_COMBINED,
        /// <summary>DC_ALLOC_ATTACH_HOST: Managed memory: attach to the host first (CU_MEM_ATTACH_HOST) instead of being accessible from every stream (CU_MEM_ATTACH_GLOBAL).</summary>
        AttachHost = C.DC_ALLOC_ATTACH_HOST,
        /// <summary>DC_ALLOC_READ_ONLY: Registered host memory: the device only reads it.</summary>
        ReadOnly = C.DC_ALLOC_READ_ONLY,
    }

    /// <summary>DC_ADVISE_*: advice for managed memory.</summary>
    public enum MemoryAdvice
    {
        /// <summary>DC_ADVISE_SET_READ_MOSTLY</summary>
        SetReadMostly = C.DC_ADVISE_SET_READ_MOSTLY,
        /// <summary>DC_ADVISE_UNSET_READ_MOSTLY</summary>
        UnsetReadMostly = C.DC_ADVISE_UNSET_READ_MOSTLY,
        /// <summary>DC_ADVISE_SET_PREFERRED_LOCATION</summary>
        SetPreferredLocation = C.DC_ADVISE_SET_PREFERRED_LOCATION,
        /// <summary>DC_ADVISE_UNSET_PREFERRED_LOCATION</summary>
        UnsetPreferredLocation = C.DC_ADVISE_UNSET_PREFERRED_LOCATION,
        /// <summary>DC_ADVISE_SET_ACCESSED_BY</summary>
        SetAccessedBy = C.DC_ADVISE_SET_ACCESSED_BY,
        /// <summary>DC_ADVISE_UNSET_ACCESSED_BY</summary>
        UnsetAccessedBy = C.DC_ADVISE_UNSET_ACCESSED_BY,
    }

    /// <summary>DC_COPY_PATH_*: how a buffer-to-buffer copy travels.</summary>
    public enum CopyPath
    {
        /// <summary>DC_COPY_PATH_SAME_DEVICE: both buffers on one device</summary>
        SameDevice = C.DC_COPY_PATH_SAME_DEVICE,
        /// <summary>DC_COPY_PATH_PEER: device to device over NVLink/PCIe, peer access enabled</summary>
        Peer = C.DC_COPY_PATH_PEER,
        /// <summary>DC_COPY_PATH_STAGED: two devices without peer access: the driver stages through host memory</summary>
        Staged = C.DC_COPY_PATH_STAGED,
        /// <summary>DC_COPY_PATH_HOST: at least one side is host memory (pinned or registered)</summary>
        Host = C.DC_COPY_PATH_HOST,
    }

    /// <summary>dc_stream_create flags: non-blocking unless Blocking.</summary>
    [Flags]
    public enum StreamFlags : uint
    {
        /// <summary>The default: the stream does not synchronise with the legacy default stream.</summary>
        NonBlocking = 0,
        /// <summary>DC_STREAM_BLOCKING: dc_stream_create flags: synchronise with the legacy default stream (CU_STREAM_DEFAULT). Without it streams are non-blocking.</summary>
        Blocking = C.DC_STREAM_BLOCKING,
    }

    /// <summary>DC_STREAM_LEGACY / DC_STREAM_PER_THREAD: a device's default streams.</summary>
    public enum DefaultStream
    {
        /// <summary>DC_STREAM_LEGACY: CU_STREAM_LEGACY: synchronises with blocking streams</summary>
        Legacy = C.DC_STREAM_LEGACY,
        /// <summary>DC_STREAM_PER_THREAD: CU_STREAM_PER_THREAD: the calling thread's default stream</summary>
        PerThread = C.DC_STREAM_PER_THREAD,
    }

    /// <summary>DC_EVENT_* flags.</summary>
    [Flags]
    public enum EventFlags : uint
    {
        /// <summary>No flag.</summary>
        None = 0,
        /// <summary>DC_EVENT_DISABLE_TIMING: cheaper; dc_event_elapsed_ms is refused</summary>
        DisableTiming = C.DC_EVENT_DISABLE_TIMING,
        /// <summary>DC_EVENT_BLOCKING_SYNC: dc_event_synchronize sleeps instead of spinning</summary>
        BlockingSync = C.DC_EVENT_BLOCKING_SYNC,
        /// <summary>DC_EVENT_INTERPROCESS: shareable with other processes (Event.ExportIpc); needs DisableTiming too</summary>
        Interprocess = C.DC_EVENT_INTERPROCESS,
    }

    /// <summary>DC_OUTPUT_*: what a compile produces.</summary>
    public enum OutputKind
    {
        /// <summary>DC_OUTPUT_CUBIN: machine code for one architecture (the default)</summary>
        Cubin = C.DC_OUTPUT_CUBIN,
        /// <summary>DC_OUTPUT_PTX: PTX, JIT-compiled by the driver at load</summary>
        Ptx = C.DC_OUTPUT_PTX,
        /// <summary>DC_OUTPUT_LTOIR: LTO-IR for link-time optimisation (-dlto)</summary>
        LtoIr = C.DC_OUTPUT_LTOIR,
    }

    /// <summary>DC_COMPILE_* flags.</summary>
    [Flags]
    public enum CompileFlags : uint
    {
        /// <summary>No flag.</summary>
        None = 0,
        /// <summary>DC_COMPILE_FAST_MATH: --use_fast_math</summary>
        FastMath = C.DC_COMPILE_FAST_MATH,
        /// <summary>DC_COMPILE_LINE_INFO: --generate-line-info</summary>
        LineInfo = C.DC_COMPILE_LINE_INFO,
        /// <summary>DC_COMPILE_DEVICE_DEBUG: --device-debug (-G)</summary>
        DeviceDebug = C.DC_COMPILE_DEVICE_DEBUG,
        /// <summary>DC_COMPILE_RELOCATABLE: --relocatable-device-code=true</summary>
        Relocatable = C.DC_COMPILE_RELOCATABLE,
        /// <summary>DC_COMPILE_ARCH_SPECIFIC: sm_XYa: architecture-specific features (Hopper wgmma...)</summary>
        ArchSpecific = C.DC_COMPILE_ARCH_SPECIFIC,
        /// <summary>DC_COMPILE_NO_CACHE: neither read nor write the kernel cache</summary>
        NoCache = C.DC_COMPILE_NO_CACHE,
        /// <summary>DC_COMPILE_TOOLKIT_HEADERS: the installed toolkit's include directories (CCCL, cooperative groups)</summary>
        ToolkitHeaders = C.DC_COMPILE_TOOLKIT_HEADERS,
    }

    /// <summary>DC_LINK_INPUT_*: what a link input's bytes are.</summary>
    public enum LinkInputKind
    {
        /// <summary>DC_LINK_INPUT_CUBIN: machine code (relocatable, -rdc)</summary>
        Cubin = C.DC_LINK_INPUT_CUBIN,
        /// <summary>DC_LINK_INPUT_PTX: PTX text</summary>
        Ptx = C.DC_LINK_INPUT_PTX,
        /// <summary>DC_LINK_INPUT_LTOIR: LTO-IR (needs nvJitLink)</summary>
        LtoIr = C.DC_LINK_INPUT_LTOIR,
        /// <summary>DC_LINK_INPUT_FATBIN: a fatbin</summary>
        Fatbin = C.DC_LINK_INPUT_FATBIN,
        /// <summary>DC_LINK_INPUT_OBJECT: a host object file holding device code</summary>
        Object = C.DC_LINK_INPUT_OBJECT,
        /// <summary>DC_LINK_INPUT_LIBRARY: an archive of such objects</summary>
        Library = C.DC_LINK_INPUT_LIBRARY,
        /// <summary>DC_LINK_INPUT_PROGRAM: a DcProgram's output</summary>
        Program = C.DC_LINK_INPUT_PROGRAM,
        /// <summary>DC_LINK_INPUT_DEVICE_RUNTIME: the toolkit's libcudadevrt (dynamic parallelism)</summary>
        DeviceRuntime = C.DC_LINK_INPUT_DEVICE_RUNTIME,
    }

    /// <summary>DC_LINK_* flags.</summary>
    [Flags]
    public enum LinkFlags : uint
    {
        /// <summary>No flag.</summary>
        None = 0,
        /// <summary>DC_LINK_LTO: link-time optimisation (implied by an LTO-IR input)</summary>
        Lto = C.DC_LINK_LTO,
        /// <summary>DC_LINK_DEBUG: debug information (-g)</summary>
        Debug = C.DC_LINK_DEBUG,
        /// <summary>DC_LINK_LINE_INFO: line information (-lineinfo)</summary>
        LineInfo = C.DC_LINK_LINE_INFO,
        /// <summary>DC_LINK_USE_DRIVER: the driver's cuLink even when nvJitLink is there</summary>
        UseDriver = C.DC_LINK_USE_DRIVER,
        /// <summary>DC_LINK_NO_CACHE: neither read nor write the kernel cache</summary>
        NoCache = C.DC_LINK_NO_CACHE,
    }

    /// <summary>DC_CACHE_MISS / MEMORY / DISK: where a program's output came from.</summary>
    public enum CacheSource
    {
        /// <summary>DC_CACHE_MISS: compiled by NVRTC in this call</summary>
        Miss = C.DC_CACHE_MISS,
        /// <summary>DC_CACHE_MEMORY: found in the in-process cache</summary>
        Memory = C.DC_CACHE_MEMORY,
        /// <summary>DC_CACHE_DISK: found in the on-disk cache</summary>
        Disk = C.DC_CACHE_DISK,
    }

    /// <summary>DC_CACHE_CLEAR_* flags.</summary>
    [Flags]
    public enum CacheClearFlags : uint
    {
        /// <summary>DC_CACHE_CLEAR_MEMORY</summary>
        Memory = C.DC_CACHE_CLEAR_MEMORY,
        /// <summary>DC_CACHE_CLEAR_DISK</summary>
        Disk = C.DC_CACHE_CLEAR_DISK,
        /// <summary>Both caches.</summary>
        All = Memory | Disk,
    }

    /// <summary>DC_JIT_* flags for loading PTX.</summary>
    [Flags]
    public enum JitFlags : uint
    {
        /// <summary>No flag.</summary>
        None = 0,
        /// <summary>DC_JIT_LINE_INFO: CU_JIT_GENERATE_LINE_INFO</summary>
        LineInfo = C.DC_JIT_LINE_INFO,
        /// <summary>DC_JIT_DEBUG: CU_JIT_GENERATE_DEBUG_INFO</summary>
        Debug = C.DC_JIT_DEBUG,
    }

    /// <summary>DC_CACHE_PREFER_*: a kernel's L1/shared memory preference.</summary>
    public enum CachePreference
    {
        /// <summary>DC_CACHE_PREFER_NONE</summary>
        None = C.DC_CACHE_PREFER_NONE,
        /// <summary>DC_CACHE_PREFER_SHARED</summary>
        Shared = C.DC_CACHE_PREFER_SHARED,
        /// <summary>DC_CACHE_PREFER_L1</summary>
        L1 = C.DC_CACHE_PREFER_L1,
        /// <summary>DC_CACHE_PREFER_EQUAL</summary>
        Equal = C.DC_CACHE_PREFER_EQUAL,
    }

    /// <summary>DC_LAUNCH_* flags.</summary>
    [Flags]
    public enum LaunchFlags : uint
    {
        /// <summary>No flag.</summary>
        None = 0,
        /// <summary>DC_LAUNCH_COOPERATIVE: A cooperative launch (grid-wide sync allowed): every block of the grid must be resident at once (at most dc_occupancy_max_active_blocks x multiprocessors blocks).</summary>
        Cooperative = C.DC_LAUNCH_COOPERATIVE,
        /// <summary>DC_LAUNCH_PROGRAMMATIC_SERIALIZATION: Let the next kernel on the stream start early (programmatic dependent launch, CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION; compute capability 9.0+).</summary>
        ProgrammaticSerialization = C.DC_LAUNCH_PROGRAMMATIC_SERIALIZATION,
        /// <summary>DC_LAUNCH_PERSISTENT: A resident kernel, launched once on a created stream and stopped through its Control block (see MessageQueue).</summary>
        Persistent = C.DC_LAUNCH_PERSISTENT,
    }

    /// <summary>DC_LIMIT_*: the limits of the device's (primary) context (cuda.h's CUlimit).</summary>
    public enum DeviceLimit
    {
        /// <summary>DC_LIMIT_STACK_SIZE: bytes of stack per GPU thread.</summary>
        StackSize = C.DC_LIMIT_STACK_SIZE,
        /// <summary>DC_LIMIT_PRINTF_FIFO_SIZE: bytes of the FIFO device printf writes into.</summary>
        PrintfFifoSize = C.DC_LIMIT_PRINTF_FIFO_SIZE,
        /// <summary>DC_LIMIT_MALLOC_HEAP_SIZE: bytes of the heap device malloc/new allocate from.</summary>
        MallocHeapSize = C.DC_LIMIT_MALLOC_HEAP_SIZE,
        /// <summary>DC_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT: launches device code may have pending.</summary>
        DevRuntimePendingLaunchCount = C.DC_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT,
        /// <summary>DC_LIMIT_PERSISTING_L2_CACHE_SIZE: bytes of L2 set aside for persisting accesses.</summary>
        PersistingL2CacheSize = C.DC_LIMIT_PERSISTING_L2_CACHE_SIZE,
    }

    /// <summary>DC_COMPARE_*: how a stream wait compares the value in memory with its operand.</summary>
    public enum WaitCompare
    {
        /// <summary>DC_COMPARE_GEQ: until (int)(*p - value) &gt;= 0 (greater or equal, wrapping).</summary>
        GreaterOrEqual = C.DC_COMPARE_GEQ,
        /// <summary>DC_COMPARE_EQ: until *p == value.</summary>
        Equal = C.DC_COMPARE_EQ,
        /// <summary>DC_COMPARE_AND: until (*p &amp; value) != 0.</summary>
        And = C.DC_COMPARE_AND,
        /// <summary>DC_COMPARE_NOR: until ~(*p | value) != 0.</summary>
        Nor = C.DC_COMPARE_NOR,
    }

    /// <summary>DC_VALUE_* flags of the stream memory operations.</summary>
    [Flags]
    public enum ValueFlags : uint
    {
        /// <summary>No flag.</summary>
        None = 0,
        /// <summary>DC_VALUE_FLUSH: a wait flushes the device's outstanding remote writes after it.</summary>
        Flush = C.DC_VALUE_FLUSH,
        /// <summary>DC_VALUE_NO_MEMORY_BARRIER: a write may pass earlier writes. A permission only:
        /// current drivers refuse the flag, so the library keeps the barrier.</summary>
        NoMemoryBarrier = C.DC_VALUE_NO_MEMORY_BARRIER,
    }

    /// <summary>DC_QUEUE_*: which side of a MessageQueue enqueues.</summary>
    public enum QueueDirection
    {
        /// <summary>DC_QUEUE_TO_DEVICE: the host enqueues, a kernel dequeues.</summary>
        ToDevice = C.DC_QUEUE_TO_DEVICE,
        /// <summary>DC_QUEUE_TO_HOST: a kernel enqueues, the host dequeues.</summary>
        ToHost = C.DC_QUEUE_TO_HOST,
        /// <summary>DC_QUEUE_BETWEEN_KERNELS: a kernel enqueues, another kernel dequeues; the ring is in
        /// device memory and the host's Enqueue/Dequeue calls refuse the queue.</summary>
        BetweenKernels = C.DC_QUEUE_BETWEEN_KERNELS,
        /// <summary>DC_QUEUE_BETWEEN_DEVICES: as BetweenKernels, for kernels on two devices (the ring in the
        /// queue's device's memory, the other side through peer access; system-scoped fences). Make it on
        /// the device whose kernel dequeues.</summary>
        BetweenDevices = C.DC_QUEUE_BETWEEN_DEVICES,
    }

    /// <summary>DC_WAIT_*: what a host thread does between polls while it waits on a queue or a control block.</summary>
    public enum WaitStrategy
    {
        /// <summary>DC_WAIT_SPIN: poll without pause (lowest latency, one core busy).</summary>
        Spin = C.DC_WAIT_SPIN,
        /// <summary>DC_WAIT_SPIN_YIELD: poll a while, then yield the CPU between polls.</summary>
        SpinYield = C.DC_WAIT_SPIN_YIELD,
        /// <summary>DC_WAIT_BLOCK: poll a little, then sleep between polls (1 us doubling up to 200 us).</summary>
        Block = C.DC_WAIT_BLOCK,
    }

    /// <summary>DC_CONTROL_*: a resident kernel's state as its control block holds it.</summary>
    public enum ControlState
    {
        /// <summary>DC_CONTROL_IDLE: not started since the block was made or reset.</summary>
        Idle = C.DC_CONTROL_IDLE,
        /// <summary>DC_CONTROL_RUNNING: the kernel called dc_control_enter.</summary>
        Running = C.DC_CONTROL_RUNNING,
        /// <summary>DC_CONTROL_STOPPED: the kernel called dc_control_exit.</summary>
        Stopped = C.DC_CONTROL_STOPPED,
    }

    /// <summary>DC_CAPTURE_*: stream capture modes.</summary>
    public enum CaptureMode
    {
        /// <summary>DC_CAPTURE_GLOBAL</summary>
        Global = C.DC_CAPTURE_GLOBAL,
        /// <summary>DC_CAPTURE_THREAD_LOCAL</summary>
        ThreadLocal = C.DC_CAPTURE_THREAD_LOCAL,
        /// <summary>DC_CAPTURE_RELAXED</summary>
        Relaxed = C.DC_CAPTURE_RELAXED,
    }
}
