/*
 * dccuda.h - a stable C ABI over the CUDA driver API and NVRTC.
 *
 * One header, C99 and C++. Every function is documented where it is declared:
 * what it does, who owns what, which thread may call it, and every error it can
 * return. A caller should never need to read the implementation.
 *
 * ---------------------------------------------------------------------------
 * Conventions that hold for the whole API (read these once)
 * ---------------------------------------------------------------------------
 *
 * Status. Every call that can fail returns a dc_status: DC_SUCCESS (0), the
 *   non-error result DC_NOT_READY (1) where a query is asked, or a negative
 *   DC_ERROR_* value. Values are append-only and never renumbered.
 *
 * Out-pointers. Results are written through out-pointers, which come last.
 *   On failure every out-pointer is set to NULL / zero before returning.
 *
 * Last error. On every failure the calling thread's last error is set:
 *   dc_last_error_message() names the call, the argument and what to do;
 *   dc_last_error_status() gives the status; dc_last_error_cuda() and
 *   dc_last_error_nvrtc() give the raw CUresult / nvrtcResult behind it (0 if
 *   none); dc_last_error_detail() holds a long log where one exists (the full
 *   compiler log, the JIT error log). Every fallible call clears the last error
 *   when it starts, so a message is never stale. The strings are owned by the
 *   library and stay valid until the next dc_ call on the same thread.
 *
 * Handles. dc_device, dc_buffer, dc_stream, dc_event, dc_program, dc_module,
 *   dc_function, dc_launch, dc_graph, dc_queue, dc_control, dc_library and dc_blas are opaque handles. Each handle a call
 *   gives you is owned by you and released exactly once with its *_release
 *   function. A handle that was released, never existed, or is of another type
 *   is answered with DC_ERROR_INVALID_HANDLE: never a crash. Handle values are
 *   not addresses and must not be dereferenced. Releasing NULL or an already
 *   released handle does nothing. Release functions never touch the last error.
 *
 * Lifetimes. Children keep their parents alive: a buffer, stream, event,
 *   module or graph keeps its device alive; a function keeps its module (or
 *   library) alive;
 *   a launch keeps its function and its bound buffers alive. Releasing a parent
 *   handle while children exist is allowed: the parent object lives on until
 *   the last child is released, although the parent's handle is gone.
 *
 * Threads. Every function may be called from any thread, concurrently, unless
 *   its documentation says otherwise. The library binds the right CUDA context
 *   on every call itself: a caller never needs cuCtxSetCurrent and never sees
 *   CUDA_ERROR_INVALID_CONTEXT. If the calling thread has no current context,
 *   the device's primary context is left current after the call; if another
 *   context was current, it is restored before the call returns. One
 *   exception: dc_graph_launch does not ask the driver which context is
 *   current where an earlier dccuda call left the device's context current on
 *   the thread (the driver launches a graph in its stream's context whatever is
 *   current): a context the caller changed with the driver since then, or
 *   unbound, is left as the caller set it.
 *
 * Configuration. Settings come from dc_init() or from environment variables,
 *   listed in one table before dc_init_options. While a variable holds a
 *   malformed value, every call that needs the settings fails with
 *   DC_ERROR_INVALID_ARGUMENT naming the variable.
 *
 * Fork. CUDA contexts do not survive fork(). In a child forked (and not
 *   exec'd) from a process that initialised dccuda, every fallible call fails
 *   at once with DC_ERROR_INVALID_STATE ("CUDA cannot be used after fork:
 *   initialise in the child or use spawn/exec"), out-pointers cleared, and the
 *   release functions do nothing (the objects are the parent's); dc_version,
 *   dc_status_name and dc_last_error_* still answer. To use CUDA in another
 *   process, fork before the first dc_ call, or exec, or posix_spawn.
 *
 * Devices after a fault. A kernel fault (illegal address, trap, ...) makes a
 *   CUDA context unusable. dccuda then answers every call that uses that device
 *   with DC_ERROR_CONTEXT_LOST, clearly and without crashing, until
 *   dc_device_reset() recovers it, where the driver allows that (NVIDIA drivers
 *   usually keep such a fault for the whole process: see dc_device_reset).
 *
 * Structs. Structs that may grow start with `uint32_t struct_size`; set it to
 *   sizeof(the struct) (the DC_*_INIT macros do). Structs only grow at the end,
 *   and the library accepts every size that has ever been published.
 *
 * Strings. Input strings are borrowed, UTF-8 and NUL-terminated. Output
 *   strings are owned by the library; each getter states how long they stay
 *   valid. Nothing allocated by one side is ever freed by the other.
 *
 * ABI. Only fixed-width integers, size_t-free 64-bit sizes, float, double,
 *   pointers and opaque handles cross the boundary. Enumerations are int32_t
 *   with #define'd constants. Exported symbols live in the version node
 *   DCCUDA_1.0 of libdccuda.so.1.
 *
 * Errors. The comment of every function that returns a dc_status ends with a
 *   paragraph "Errors: ..." that names every status besides DC_SUCCESS it can
 *   return ("as dc_x" there: the errors of dc_x), in words a caller can act on.
 *   Three are not repeated there, as any fallible call may return them:
 *   DC_ERROR_OUT_OF_MEMORY when host memory runs out, DC_ERROR_INTERNAL (a bug
 *   in dccuda), and, for a call that takes a handle, DC_ERROR_CONTEXT_LOST when
 *   the object's device was lost or reset (see "Devices after a fault").
 *   Nor are the refusals that come from where a call is made, not from its
 *   arguments: DC_ERROR_INVALID_STATE in a forked child (see "Fork") and,
 *   for the calls dc_stream_add_callback lists, inside a host function, and
 *   for every call, inside the log callback (see dc_set_log_callback); and
 *   DC_ERROR_INVALID_ARGUMENT naming a malformed environment variable (see
 *   "Configuration").
 *
 * Annotations. Prototypes, structs and constants carry DC_* annotations that
 *   expand to nothing (the compiler and the ABI never see them). They state
 *   what a C declaration cannot, in one place, for the tools that generate the
 *   bindings from this header (abi/gen.py):
 *   DC_IN, DC_OUT, DC_INOUT  every pointer parameter: the call reads what it
 *                   points to, writes it, or both (a struct whose struct_size
 *                   the caller sets). By-value parameters are inputs.
 *   DC_NULLABLE     NULL is accepted (the comment says what it means); without
 *                   it, NULL is an error.
 *   DC_ARRAY(n)     points to `n` elements (bytes for void*), `n` being another
 *                   parameter or field; NULL is accepted when n is 0.
 *   DC_OWNED        an out handle the caller must release, or an in handle the
 *                   call releases (the *_release functions). Other in handles
 *                   are borrowed for the call. DC_BORROWED: an out handle the
 *                   caller must not release.
 *   DC_LIFETIME(x)  how long a returned string or pointer stays valid (for an
 *                   input: how long the caller keeps it valid): static (the
 *                   process), thread (until the next dc_ call on the calling
 *                   thread), or as long as the handle parameter `x` lives.
 *                   Input strings without it are read during the call only.
 *   DC_FAMILY(f)    an integer that takes the constants of family `f`.
 *   DC_CONSTANTS(f, kind, type)  the #defines right after it (comments may sit
 *                   between them; a blank line ends the run) form family `f`
 *                   of C type `type`: an enumeration (one of the values),
 *                   flags (bits to OR) or values (named numbers).
 *   DC_NATIVE       a raw CUDA value (CUstream, CUcontext, CUdeviceptr, an
 *                   attribute number) passed through and not checked by dccuda.
 *   DC_USER_DATA    a pointer handed back to a callback, never dereferenced.
 *   DC_INFALLIBLE   a dc_status that is the answer of a getter, not a result.
 */
#ifndef DCCUDA_H
#define DCCUDA_H

#include <stddef.h> /* NULL, used by the DC_*_INIT and DC_ARG_* initialiser macros */
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(_WIN32)
#  if defined(DCCUDA_BUILDING)
#    define DC_API __declspec(dllexport)
#  else
#    define DC_API __declspec(dllimport)
#  endif
#elif defined(__GNUC__)
#  define DC_API __attribute__((visibility("default")))
#else
#  define DC_API
#endif

/* The annotations (see "Annotations" above): nothing for the compiler. */
#define DC_IN
#define DC_OUT
#define DC_INOUT
#define DC_NULLABLE
#define DC_ARRAY(count)
#define DC_OWNED
#define DC_BORROWED
#define DC_LIFETIME(owner)
#define DC_FAMILY(family)
#define DC_CONSTANTS(family, kind, type)
#define DC_NATIVE
#define DC_USER_DATA
#define DC_INFALLIBLE

/* =========================================================================
 * Version
 * ========================================================================= */

DC_CONSTANTS(dccuda_version, values, uint32_t)
#define DCCUDA_VERSION_MAJOR 1
#define DCCUDA_VERSION_MINOR 0
#define DCCUDA_VERSION_PATCH 0
/** MAJOR * 1000000 + MINOR * 1000 + PATCH, the same encoding dc_version() uses. */
#define DCCUDA_VERSION \
  (DCCUDA_VERSION_MAJOR * 1000000 + DCCUDA_VERSION_MINOR * 1000 + DCCUDA_VERSION_PATCH)

/**
 * The version of the loaded library, encoded as DCCUDA_VERSION is.
 * Compare it with DCCUDA_VERSION to detect a header/library mismatch.
 * Cannot fail; any thread.
 */
DC_API uint32_t dc_version(void);

/* =========================================================================
 * Status codes and the last error
 * ========================================================================= */

typedef int32_t dc_status;

DC_CONSTANTS(dc_status, enumeration, int32_t)
#define DC_SUCCESS                  0
/** Not an error: the queried work (stream, event) has not finished yet. */
#define DC_NOT_READY                1
/** An argument is invalid: NULL where a value is required, a bad flag, a
 *  wrong struct_size, a kernel argument that does not match the kernel. */
#define DC_ERROR_INVALID_ARGUMENT  (-1)
/** A handle is NULL, released, of another type, or was never issued. */
#define DC_ERROR_INVALID_HANDLE    (-2)
/** No usable CUDA driver was found (none installed, the toolkit's stub
 *  library, or DCCUDA_DRIVER_LIBRARY names a file that cannot be loaded). */
#define DC_ERROR_NO_DRIVER         (-3)
/** The installed driver is too old for this call, or the device lacks the
 *  feature. The message names the driver version the call needs. */
#define DC_ERROR_NOT_SUPPORTED     (-4)
/** The driver works but reports no CUDA device, or the ordinal is too big. */
#define DC_ERROR_NO_DEVICE         (-5)
/** Device or host memory is exhausted. The library stays usable. */
#define DC_ERROR_OUT_OF_MEMORY     (-6)
/** An offset, size or index lies outside the object it refers to. */
#define DC_ERROR_OUT_OF_RANGE      (-7)
/** NVRTC rejected the source. dc_last_error_detail() holds the full log. */
#define DC_ERROR_COMPILE           (-8)
/** A launch was refused (too many resources, cooperative grid too large,
 *  invalid cluster) or failed without harming the context. */
#define DC_ERROR_LAUNCH_FAILED     (-9)
/** The device's context was destroyed by a fault (illegal address, trap,
 *  misaligned access...). Sticky: see dc_device_reset(), and restart the process
 *  where the driver refuses recovery. */
#define DC_ERROR_CONTEXT_LOST      (-10)
/** A bug in dccuda, or an exception that should never happen. */
#define DC_ERROR_INTERNAL          (-11)
/** The driver returned an error that has no more specific status;
 *  dc_last_error_cuda() gives the raw CUresult. */
#define DC_ERROR_DRIVER            (-12)
/** NVRTC is not available (not installed, or DCCUDA_NVRTC_LIBRARY is wrong). */
#define DC_ERROR_NO_COMPILER       (-13)
/** A name was not found (a kernel or global in a module, a file). */
#define DC_ERROR_NOT_FOUND         (-14)
/** A module image is not valid for this device or driver (bad PTX, PTX
 *  newer than the driver, no code for this GPU's architecture). */
#define DC_ERROR_INVALID_IMAGE     (-15)
/** The call is not valid in the object's current state (ending a capture
 *  that never began, dc_init after the library was already initialised). */
#define DC_ERROR_INVALID_STATE     (-16)
/** A file could not be read or written. */
#define DC_ERROR_IO                (-17)
/** A wait with a time limit ran out (a queue that stayed full or empty, a
 *  resident kernel that did not stop). Nothing was changed; the call may be
 *  repeated. */
#define DC_ERROR_TIMEOUT           (-18)

/**
 * The name of a status ("DC_ERROR_OUT_OF_RANGE"), or "DC_STATUS_UNKNOWN" for a
 * value this library does not know. Static storage; never NULL; any thread.
 */
DC_API DC_LIFETIME(static) const char* dc_status_name(dc_status status);

/**
 * The calling thread's last error message: "<function>: <what was wrong>; <what
 * to do>". Empty ("") when the last fallible call succeeded. UTF-8, owned by
 * the library, never NULL, valid until the next dc_ call on this thread.
 */
DC_API DC_LIFETIME(thread) const char* dc_last_error_message(void);

/** The status of the calling thread's last failed call, DC_SUCCESS if none. */
DC_API DC_INFALLIBLE dc_status dc_last_error_status(void);

/** The raw CUresult behind the calling thread's last failure, 0 if the failure
 *  did not come from the driver. */
DC_API int32_t dc_last_error_cuda(void);

/** The raw nvrtcResult behind the calling thread's last failure, 0 if the
 *  failure did not come from NVRTC. */
DC_API int32_t dc_last_error_nvrtc(void);

/**
 * The name of a CUresult as cuda.h spells it: "CUDA_ERROR_ILLEGAL_ADDRESS" for
 * 700, "CUDA_SUCCESS" for 0, for every value of the CUDA 13.0 driver API (the
 * table is dccuda's own: no driver is needed, and every driver gets the same
 * answer). 1023, which dc_last_error_cuda() gives when the installed driver
 * lacks an entry point dccuda needed, is "DCCUDA_ERROR_MISSING_ENTRY_POINT".
 * Any other value gives "CUDA_RESULT_UNKNOWN" (a code newer than this dccuda,
 * or not a CUresult). Static storage; never NULL; any thread; cannot fail and
 * does not touch the last error.
 */
DC_API DC_LIFETIME(static) const char* dc_cuda_error_name(int32_t cuda_result);

/**
 * A long log that belongs to the calling thread's last failure: the full NVRTC
 * log after DC_ERROR_COMPILE, the JIT error log after DC_ERROR_INVALID_IMAGE.
 * "" when there is none. Owned by the library, never NULL, valid until the next
 * dc_ call on this thread.
 */
DC_API DC_LIFETIME(thread) const char* dc_last_error_detail(void);

/* =========================================================================
 * Initialisation and the libraries underneath
 * ========================================================================= */

DC_CONSTANTS(dc_init_flags, flags, uint32_t)
/** dc_init_options.flags: do not load NVRTC (compile calls report
 *  DC_ERROR_NO_COMPILER). */
#define DC_INIT_NO_NVRTC           0x1u
/** dc_init_options.flags: never read or write the on-disk kernel cache. */
#define DC_INIT_NO_DISK_CACHE      0x2u
/** dc_init_options.flags: do not keep compiled kernels in memory. */
#define DC_INIT_NO_MEMORY_CACHE    0x4u
/** dc_init_options.flags: when the process exits, write the handles never
 *  released to stderr (see dc_handle_report). */
#define DC_INIT_REPORT_LEAKS       0x8u

/*
 * Configuration: every setting, its dc_init option and its environment variable
 *
 * The settings are fixed once per process: by dc_init(), else by the first call
 * that needs them. A dc_init option replaces its variable, which is then not
 * read at all; otherwise the variable is read, else the default applies.
 *
 * | dc_init option          | environment variable           | accepted values                   | default                          |
 * |-------------------------|--------------------------------|-----------------------------------|----------------------------------|
 * | driver_library          | DCCUDA_DRIVER_LIBRARY          | a library name or path            | libcuda.so.1 (nvcuda.dll)        |
 * | nvrtc_library           | DCCUDA_NVRTC_LIBRARY           | a library name or path (the only  | libnvrtc.so.13, then .12, each   |
 * |                         |                                | one tried)                        | first in the folder of libdccuda |
 * |                         |                                |                                   | (a package puts NVRTC beside it),|
 * |                         |                                |                                   | then by the system's search,     |
 * |                         |                                |                                   | then in $CUDA_HOME/lib64,        |
 * |                         |                                |                                   | $CUDA_PATH/lib64,                |
 * |                         |                                |                                   | /usr/local/cuda/lib64            |
 * | (none)                  | DCCUDA_NVJITLINK_LIBRARY       | a library name or path (the only  | libnvJitLink.so.13, then .12,    |
 * |                         |                                | one tried)                        | looked for as NVRTC is (dc_link) |
 * | (none)                  | DCCUDA_NVML_LIBRARY            | a library name or path (NVML, for | libnvidia-ml.so.1 (nvml.dll),    |
 * |                         |                                | dc_device_telemetry_get)          | loaded at the first telemetry    |
 * |                         |                                |                                   | call                             |
 * | (none)                  | DCCUDA_CUBLAS_LIBRARY          | a library name or path (cuBLAS,   | libcublas.so.13, then .12        |
 * |                         |                                | the only one tried)               | (cublas64_13.dll, _12.dll),      |
 * |                         |                                |                                   | looked for as NVRTC is, at the   |
 * |                         |                                |                                   | first dc_blas call               |
 * | (none)                  | DCCUDA_CUFFT_LIBRARY           | a library name or path (the only  | libcufft.so.12, then .11         |
 * |                         |                                | one tried)                        | (cufft64_12.dll, cufft64_11.dll),|
 * |                         |                                |                                   | looked for as NVRTC is, at the   |
 * |                         |                                |                                   | first dc_fft_ call               |
 * | (none)                  | DCCUDA_FFT_PLAN_CACHE          | integer 0 .. 4096 (0: no cache)   | 16 idle FFT plans kept per device|
 * | (none)                  | DCCUDA_NCCL_LIBRARY            | a library name or path (NCCL, for | libnccl.so.2 beside libdccuda,   |
 * |                         |                                | dc_comm_*; Linux only)            | then the system's search, then   |
 * |                         |                                |                                   | the toolkit's lib64 and lib      |
 * | cache_dir               | DCCUDA_CACHE_DIR               | a directory path                  | $XDG_CACHE_HOME/dccuda (if it is |
 * |                         |                                |                                   | absolute), else                  |
 * |                         |                                |                                   | $HOME/.cache/dccuda, else none   |
 * | cache_max_bytes         | DCCUDA_CACHE_MAX_BYTES         | integer 1 .. 2^63                 | 1073741824 (1 GiB)               |
 * | flags                   | DCCUDA_CACHE_DISABLE           | yes/no (below); yes = the flags   | no                               |
 * |  DC_INIT_NO_DISK_CACHE  |                                | DC_INIT_NO_DISK_CACHE and         |                                  |
 * |  DC_INIT_NO_MEMORY_CACHE|                                | DC_INIT_NO_MEMORY_CACHE together  |                                  |
 * | flags DC_INIT_NO_NVRTC  | (none)                         |                                   | NVRTC is loaded                  |
 * | flags                   | DCCUDA_LEAK_REPORT             | yes/no (below); yes = the flag    | no: nothing is written at exit   |
 * |  DC_INIT_REPORT_LEAKS   |                                | DC_INIT_REPORT_LEAKS              |                                  |
 * | (none)                  | DCCUDA_CACHE_KEY_FILE          | the path of a file of the user's, | none: a private cache            |
 * |                         |                                | mode 0600, holding a key of 32 to |                                  |
 * |                         |                                | 4096 bytes: a shared cache (below)|                                  |
 * | (none: tuning for       | DCCUDA_STAGING_MIN_BYTES       | integer 1 .. 2^40                 | 262144: device-to-host copies    |
 * |  measurements; see      |                                |                                   | from pageable memory this large  |
 * |  dc_buffer_read)        |                                |                                   | are staged through pinned memory |
 * |                         | DCCUDA_STAGING_MIN_BYTES_H2D   | integer 1 .. 2^40                 | 4194304: the same, host to device|
 * |                         | DCCUDA_STAGING_CHUNK_BYTES     | integer 65536 .. 2^30             | 16777216 (pinned buffer size)    |
 * |                         | DCCUDA_STAGING_MIN_CHUNK_BYTES | integer 65536 .. 2^30, at most    | 1048576                          |
 * |                         |                                | the chunk size                    |                                  |
 * |                         | DCCUDA_STAGING_BUFFERS         | integer 1 .. 16                   | 4 (pinned buffers per device)    |
 * |                         | DCCUDA_COPY_THREADS            | integer 1 .. 64 (1: no pool)      | 16 (at most the CPUs there are)  |
 * |                         | DCCUDA_STAGING_SMALL_BYTES     | integer 1 .. 2^40                 | 4194304: synchronous copies this |
 * |                         |                                |                                   | small (below the thresholds      |
 * |                         |                                |                                   | above) go through one pinned     |
 * |                         |                                |                                   | buffer and a synchronous driver  |
 * |                         |                                |                                   | copy; 1: practically never       |
 * |                         | DCCUDA_COPY_STREAMING          | yes/no (below)                    | yes: staged copies' host side    |
 * |                         |                                |                                   | uses non-temporal stores (x86-64)|
 * | (none: other programs'  | XDG_CACHE_HOME, HOME           | see cache_dir; empty = unset      |                                  |
 * |  variables)             | CUDA_HOME, CUDA_PATH           | see nvrtc_library; empty = unset  |                                  |
 * |                         | NVTX_INJECTION64_PATH          | a profiler's NVTX library (see    | none: ranges and marks go nowhere|
 * |                         |                                | dc_range_push)                    |                                  |
 *
 * On Windows (dccuda.dll) the defaults are: driver_library nvcuda.dll, loaded
 * from System32 only; nvrtc_library nvrtc64_130_0.dll, then nvrtc64_120_0.dll,
 * each first in the folder of dccuda.dll, then in the application's folder and
 * System32, then in %CUDA_PATH%\bin\x64 and %CUDA_PATH%\bin (and the same in
 * %CUDA_HOME%); nvJitLink nvJitLink_130_0.dll, then nvJitLink_120_0.dll,
 * looked for as NVRTC is; cache_dir %LOCALAPPDATA%\dccuda\kernels. The current directory
 * and PATH are never searched. Paths are UTF-8 there too.
 *
 * Integers are decimal digits only: no sign, spaces, hexadecimal, exponent or
 * unit. Yes/no values are 1, true, yes, on or 0, false, no, off, in any letter
 * case. Every other value, an empty one included, is malformed: it is refused
 * with DC_ERROR_INVALID_ARGUMENT and a message naming the variable, its value
 * and what is accepted, by dc_init or by the first call that needs the
 * settings (and every later one, until the environment is corrected); it is
 * never half-accepted. Calls that need no settings (dc_version,
 * dc_status_name, dc_last_error_*) work regardless.
 *
 * Trust. Whoever can write the kernel cache chooses the code dc_compile
 * returns. So the cache directory is used only if it is owned by the
 * process's effective user and neither its group nor others may write it;
 * the directories dccuda creates are 0700 and its files 0600. Another
 * directory is refused: the disk cache is off, dc_cache_directory gives ""
 * and dc_config_warnings says why. To share a cache on purpose, give every
 * user the same key (DCCUDA_CACHE_KEY_FILE): the directory may then belong
 * to anyone and be writable by its group (not by others), and only entries
 * authenticated with HMAC-SHA256 under that key are used (written 0640).
 * In a privileged process (set-user-ID, set-group-ID or file capabilities)
 * no variable is read at all: the environment is the caller's; give settings
 * through dc_init (dc_config_warnings names what was ignored).
 */

typedef struct dc_init_options {
  uint32_t struct_size;        /**< sizeof(dc_init_options) */
  DC_FAMILY(dc_init_flags) uint32_t flags;   /**< DC_INIT_* */
  /** The driver library to load; NULL: see the configuration table in dccuda.h. */
  DC_NULLABLE const char* driver_library;
  /** The NVRTC library to load; NULL: see the configuration table in dccuda.h. */
  DC_NULLABLE const char* nvrtc_library;
  /** The on-disk kernel cache directory; NULL: see the configuration table in dccuda.h. */
  DC_NULLABLE const char* cache_dir;
  /** Size limit of the disk cache in bytes (least recently used entries are
   *  evicted); 0: see the configuration table in dccuda.h. */
  uint64_t cache_max_bytes;
} dc_init_options;

#define DC_INIT_OPTIONS_INIT { (uint32_t)sizeof(dc_init_options), 0u, NULL, NULL, NULL, 0u }

/**
 * Initialise the library with explicit options. Optional: without it the first
 * call initialises with the defaults and environment variables of the table above.
 * Call it at most once, before any other fallible dc_ call.
 *
 * `options` may be NULL (defaults). Loading the driver and NVRTC happens here;
 * each may fail independently and the library keeps what works: without a
 * driver, compilation still works; without NVRTC, precompiled images do.
 *
 * Thread-safe.
 * Errors: DC_ERROR_NO_DRIVER when no driver could be loaded (NVRTC and the
 * cache are still set up), DC_ERROR_INVALID_ARGUMENT for a bad struct_size,
 * an unknown flag or a malformed environment variable (the message names it;
 * nothing is initialised), DC_ERROR_INVALID_STATE if the library was already
 * initialised.
 */
DC_API dc_status dc_init(DC_IN DC_NULLABLE const dc_init_options* options);

/**
 * The CUDA version the driver supports (cuDriverGetVersion: 12040 = 12.4).
 * Errors: DC_ERROR_INVALID_ARGUMENT (NULL out), DC_ERROR_NO_DRIVER.
 */
DC_API dc_status dc_driver_version(DC_OUT int32_t* version);

/**
 * The path or name the driver was loaded from, e.g. "libcuda.so.1". Static for
 * the life of the process. Errors: DC_ERROR_INVALID_ARGUMENT, DC_ERROR_NO_DRIVER.
 */
DC_API dc_status dc_driver_library(DC_OUT DC_LIFETIME(static) const char** path);

/**
 * The version of the loaded NVRTC (13, 0 for NVRTC 13.0).
 * Errors: DC_ERROR_INVALID_ARGUMENT (NULL out), DC_ERROR_NO_COMPILER.
 */
DC_API dc_status dc_nvrtc_version(DC_OUT int32_t* major, DC_OUT int32_t* minor);

/**
 * What dccuda could not honour in its settings, "" when nothing: one sentence
 * per line, each naming the setting, why it is not used and what to do. They
 * are: a kernel cache directory refused as unsafe (owned by another user, or
 * writable by its group or by others: whoever can write the cache chooses the
 * code dc_compile returns; the disk cache is then off and dc_cache_directory
 * gives ""), a shared cache's key file refused, and environment variables
 * ignored in a privileged process (set-user-ID, set-group-ID or file
 * capabilities). dccuda-info prints them. Settles the settings and the cache
 * directory, as the first call that needs them does. UTF-8, owned by the
 * library, static for the life of the process; any thread.
 * Errors: DC_ERROR_INVALID_ARGUMENT (NULL out, a malformed environment variable).
 */
DC_API dc_status dc_config_warnings(DC_OUT DC_LIFETIME(static) const char** warnings);

/* Handle types, as dc_handle_count() names them. */
DC_CONSTANTS(dc_handle_type, enumeration, int32_t)
#define DC_HANDLE_DEVICE    1
#define DC_HANDLE_BUFFER    2
#define DC_HANDLE_STREAM    3
#define DC_HANDLE_EVENT     4
#define DC_HANDLE_PROGRAM   5
#define DC_HANDLE_MODULE    6
#define DC_HANDLE_FUNCTION  7
#define DC_HANDLE_LAUNCH    8
#define DC_HANDLE_GRAPH     9
#define DC_HANDLE_QUEUE    10
#define DC_HANDLE_CONTROL  11
#define DC_HANDLE_POOL     12
#define DC_HANDLE_LIBRARY  13
#define DC_HANDLE_BLAS     14
#define DC_HANDLE_FFT_PLAN 15
#define DC_HANDLE_COMM     16

/**
 * How many handles of a type (DC_HANDLE_*) are live in this process: a leak
 * check for tests and finalizer debugging. Errors: DC_ERROR_INVALID_ARGUMENT
 * (unknown type or NULL out).
 */
DC_API dc_status dc_handle_count(DC_FAMILY(dc_handle_type) int32_t handle_type, DC_OUT uint64_t* count);

/* =========================================================================
 * Handles
 * ========================================================================= */

typedef struct dc_device_s*   dc_device;
typedef struct dc_buffer_s*   dc_buffer;
typedef struct dc_stream_s*   dc_stream;
typedef struct dc_event_s*    dc_event;
typedef struct dc_program_s*  dc_program;
typedef struct dc_module_s*   dc_module;
typedef struct dc_function_s* dc_function;
typedef struct dc_library_s*  dc_library;
typedef struct dc_launch_s*   dc_launch;
typedef struct dc_graph_s*    dc_graph;
typedef struct dc_queue_s*    dc_queue;
typedef struct dc_control_s*  dc_control;
typedef struct dc_pool_s*     dc_pool;
typedef struct dc_comm_s*     dc_comm;

/* =========================================================================
 * Devices
 * ========================================================================= */

/**
 * The number of CUDA devices the driver reports (0 is a valid answer when the
 * driver works but sees no GPU: DC_SUCCESS with *count = 0).
 * Errors: DC_ERROR_INVALID_ARGUMENT (NULL out), DC_ERROR_NO_DRIVER.
 */
DC_API dc_status dc_device_count(DC_OUT int32_t* count);

/**
 * Open device `ordinal` (0-based) and retain its primary context (the one the
 * CUDA runtime and other libraries share; it is never destroyed by dccuda).
 * Each call returns a new handle; release each with dc_device_release().
 *
 * Errors: DC_ERROR_INVALID_ARGUMENT (NULL out), DC_ERROR_NO_DRIVER,
 * DC_ERROR_NO_DEVICE (ordinal < 0 or >= dc_device_count), DC_ERROR_OUT_OF_MEMORY
 * (the context could not be created), DC_ERROR_DRIVER.
 */
DC_API dc_status dc_device_open(int32_t ordinal, DC_OUT DC_OWNED dc_device* device);

/**
 * Release a device handle. The primary context is released when the last
 * handle and the last object on the device are gone. NULL is ignored.
 */
DC_API void dc_device_release(DC_OWNED DC_NULLABLE dc_device device);

typedef struct dc_device_info {
  uint32_t struct_size;              /**< sizeof(dc_device_info) */
  int32_t  ordinal;
  char     name[256];                /**< UTF-8, NUL-terminated */
  uint8_t  uuid[16];
  int32_t  pci_domain_id;
  int32_t  pci_bus_id;
  int32_t  pci_device_id;
  int32_t  compute_capability_major;
  int32_t  compute_capability_minor;
  int32_t  multiprocessor_count;
  uint64_t total_memory;             /**< bytes */
  uint64_t free_memory;              /**< bytes, when the info was taken */
  int32_t  clock_rate_khz;
  int32_t  memory_clock_rate_khz;
  int32_t  memory_bus_width_bits;
  int32_t  warp_size;
  int32_t  max_threads_per_block;
  int32_t  max_threads_per_multiprocessor;
  int32_t  max_block_dim[3];
  int32_t  max_grid_dim[3];
  int32_t  max_shared_memory_per_block;        /**< bytes, without opt-in */
  int32_t  max_shared_memory_per_block_optin;  /**< bytes, with opt-in */
  int32_t  max_shared_memory_per_multiprocessor;
  int32_t  max_registers_per_block;
  int32_t  l2_cache_size;                      /**< bytes */
  int32_t  async_engine_count;
  /* Capabilities: 1 = yes, 0 = no. */
  int32_t  unified_addressing;
  int32_t  managed_memory;
  int32_t  concurrent_managed_access;
  int32_t  pageable_memory_access;
  int32_t  cooperative_launch;
  int32_t  cluster_launch;
  int32_t  memory_pools_supported;
  int32_t  host_native_atomics;
  int32_t  ecc_enabled;
  int32_t  kernel_exec_timeout;
  int32_t  integrated;
  int32_t  tcc_driver;
} dc_device_info;

#define DC_DEVICE_INFO_INIT { (uint32_t)sizeof(dc_device_info), 0, {0}, {0}, 0, 0, 0, 0, 0, 0, 0u, 0u, \
  0, 0, 0, 0, 0, 0, {0, 0, 0}, {0, 0, 0}, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 }

/**
 * Fill `info` (the caller sets info->struct_size; every published size is
 * accepted and only that many bytes are written).
 * Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT (NULL info or a
 * struct_size smaller than the first published struct), DC_ERROR_CONTEXT_LOST,
 * DC_ERROR_DRIVER.
 */
DC_API dc_status dc_device_get_info(dc_device device, DC_INOUT dc_device_info* info);

/**
 * Any CUdevice_attribute, passed through: `attribute` is the numeric value of
 * the CU_DEVICE_ATTRIBUTE_* constant in cuda.h.
 * Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT (NULL out or an
 * attribute the driver does not know), DC_ERROR_DRIVER.
 */
DC_API dc_status dc_device_attribute(dc_device device, DC_NATIVE int32_t attribute, DC_OUT int32_t* value);

/* Context limits (cuCtxSetLimit): the values of cuda.h's CUlimit. */
DC_CONSTANTS(dc_limit, enumeration, int32_t)
/** Bytes of stack per GPU thread (deep recursion, large local arrays). */
#define DC_LIMIT_STACK_SIZE                   0
/** Bytes of the FIFO device printf writes into (output past it is lost). */
#define DC_LIMIT_PRINTF_FIFO_SIZE             1
/** Bytes of the heap device malloc/new allocate from (default 8 MiB; malloc
 *  returns NULL when it is exhausted). */
#define DC_LIMIT_MALLOC_HEAP_SIZE             2
/** Launches device code may have pending (dynamic parallelism). */
#define DC_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT 4
/** Bytes of L2 set aside for persisting accesses (compute capability 8.0+). */
#define DC_LIMIT_PERSISTING_L2_CACHE_SIZE     6

/**
 * Set one of the device's limits (DC_LIMIT_*) for dccuda's context on it (the
 * primary context: every user of the device in this process shares it).
 * The driver may round the value up (read it back with dc_device_limit), and
 * some limits cannot change once a kernel that depends on them ran: the heap
 * size after a kernel used malloc, for instance (DC_ERROR_INVALID_ARGUMENT
 * then; dc_device_reset gives a fresh context with the defaults). Limits are
 * per context: dc_device_reset restores the defaults. Call it while no work
 * runs on the device (the driver may wait for it). Thread-safe.
 * Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT (an unknown limit, a
 * printf FIFO or heap larger than the device's memory, a value the driver
 * refuses), DC_ERROR_NOT_SUPPORTED (the device lacks the
 * limit), DC_ERROR_OUT_OF_MEMORY, DC_ERROR_CONTEXT_LOST, DC_ERROR_DRIVER.
 */
DC_API dc_status dc_device_set_limit(dc_device device, DC_FAMILY(dc_limit) int32_t limit, uint64_t value);

/** The current value of one of the device's limits (DC_LIMIT_*).
 *  Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT (an unknown limit,
 *  NULL out), DC_ERROR_NOT_SUPPORTED, DC_ERROR_CONTEXT_LOST, DC_ERROR_DRIVER. */
DC_API dc_status dc_device_limit(dc_device device, DC_FAMILY(dc_limit) int32_t limit, DC_OUT uint64_t* value);

/**
 * Set the device-wide L1/shared memory preference (DC_CACHE_PREFER_*, see
 * dc_function_set_cache_config, whose per-kernel preference wins) for
 * dccuda's context on the device (cuCtxSetCacheConfig). A hint: devices with
 * a fixed split ignore it. dc_device_reset restores DC_CACHE_PREFER_NONE.
 * Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT (an unknown
 * preference), DC_ERROR_CONTEXT_LOST, DC_ERROR_DRIVER.
 */
DC_API dc_status dc_device_set_cache_config(dc_device device, DC_FAMILY(dc_cache_preference) int32_t preference);

/** The device-wide cache preference (DC_CACHE_PREFER_*).
 *  Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT (NULL out),
 *  DC_ERROR_CONTEXT_LOST, DC_ERROR_DRIVER. */
DC_API dc_status dc_device_cache_config(dc_device device, DC_OUT DC_FAMILY(dc_cache_preference) int32_t* preference);

/**
 * Free and total device memory in bytes, now.
 * Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT, DC_ERROR_CONTEXT_LOST.
 */
DC_API dc_status dc_device_memory_info(dc_device device, DC_OUT uint64_t* free_bytes,
                                       DC_OUT uint64_t* total_bytes);

/**
 * Wait until all work on the device (every stream of its primary context) has
 * finished. A fault in earlier work is reported here as DC_ERROR_CONTEXT_LOST.
 * Refused while a stream of the device captures a graph (begun with
 * dc_stream_begin_capture on any thread): the driver would fail the wait and
 * invalidate the capture; dccuda answers DC_ERROR_INVALID_STATE instead and
 * the capture goes on. Wait for single streams meanwhile. (A capture begun by
 * another library on a wrapped stream is not known to dccuda.)
 * Thread-safety: any thread.
 * Refused too while a kernel launched with DC_LAUNCH_PERSISTENT runs on the
 * device (it ends only when told to, so the wait would never return): the
 * message names the kernel.
 * Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_STATE (a capture in
 * progress, a persistent kernel running), DC_ERROR_CONTEXT_LOST, DC_ERROR_DRIVER.
 */
DC_API dc_status dc_device_synchronize(dc_device device);

/**
 * Try to recover a device after DC_ERROR_CONTEXT_LOST without restarting the
 * process: resets the device's primary context (cuDevicePrimaryCtxReset) and
 * retains a fresh one. Whether the driver allows that depends on the fault and
 * the driver: NVIDIA drivers keep a fault such as an illegal address for the
 * whole process (seen with driver 580 / CUDA 13.0 on an H200: every new context
 * is refused with the fault's error); dc_device_reset then returns
 * DC_ERROR_CONTEXT_LOST saying the process must be restarted, and the device
 * stays lost (calls keep answering DC_ERROR_CONTEXT_LOST; releases still work).
 * Work that must survive kernel faults belongs in a process that can be
 * restarted. When the reset succeeds: every buffer, stream, event, module, function, launch and graph
 * created on the device before the reset becomes dead: using it returns
 * DC_ERROR_CONTEXT_LOST; release those handles as usual (their release frees
 * nothing on the new context). Device handles stay valid. Other libraries
 * sharing the primary context lose their objects too (the driver's rule).
 * Valid at any time, not only after a fault. Do not call it while other
 * threads use the device.
 * Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_CONTEXT_LOST (the driver refuses a
 * new context after the fault: restart the process), DC_ERROR_DRIVER.
 */
DC_API dc_status dc_device_reset(dc_device device);

/**
 * Give cached pool memory back to the driver. dccuda keeps freed device memory
 * in its stream-ordered pool so that the next allocation is cheap; this trims
 * the pool to `keep_bytes`. It first waits until all work on the device has
 * finished (dc_device_synchronize), so that memory freed in stream order is
 * counted as free; while a stream of the device captures a graph it does not
 * wait (that would invalidate the capture) and trims only what is free
 * already. Nothing to do (DC_SUCCESS) on devices without pools. Refused while
 * a kernel launched with DC_LAUNCH_PERSISTENT runs on the device.
 * Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_STATE (a persistent kernel
 * running), DC_ERROR_CONTEXT_LOST.
 */
DC_API dc_status dc_device_trim_memory(dc_device device, uint64_t keep_bytes);

/**
 * The raw CUdevice ordinal and primary CUcontext, for interoperating with other
 * CUDA libraries. The context belongs to the device handle: do not destroy it.
 * Either out-pointer may be NULL. Errors: DC_ERROR_INVALID_HANDLE.
 */
DC_API dc_status dc_device_native(dc_device device, DC_OUT DC_NULLABLE DC_NATIVE int32_t* cu_device,
                                  DC_OUT DC_NULLABLE DC_NATIVE DC_LIFETIME(device) void** cu_context);

/* -- Several devices -------------------------------------------------------- */

/**
 * Whether `device` can access memory on `peer` directly (cuDeviceCanAccessPeer).
 * A device can always access itself (1).
 * Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT.
 */
DC_API dc_status dc_device_can_access_peer(dc_device device, dc_device peer, DC_OUT int32_t* can_access);

/**
 * Let kernels and copies on `device` access memory on `peer`. Idempotent:
 * enabling twice is DC_SUCCESS. Enabling a device for itself is DC_SUCCESS.
 * Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_NOT_SUPPORTED (the topology does not
 * allow peer access between these two devices), DC_ERROR_OUT_OF_RANGE (too many
 * peer mappings), DC_ERROR_CONTEXT_LOST.
 */
DC_API dc_status dc_device_enable_peer_access(dc_device device, dc_device peer);

/** Undo dc_device_enable_peer_access. Idempotent.
 *  Errors: as dc_device_enable_peer_access. */
DC_API dc_status dc_device_disable_peer_access(dc_device device, dc_device peer);

DC_CONSTANTS(dc_peer_attribute, enumeration, int32_t)
/** P2P attribute for a device pair: peer access */
#define DC_PEER_ATTRIBUTE_PERFORMANCE_RANK         1
#define DC_PEER_ATTRIBUTE_ACCESS_SUPPORTED         2
#define DC_PEER_ATTRIBUTE_NATIVE_ATOMIC_SUPPORTED  3

/**
 * A CUdevice_P2PAttribute of the pair (device -> peer), `attribute` being one of
 * DC_PEER_ATTRIBUTE_* (the same values as cuda.h's CU_DEVICE_P2P_ATTRIBUTE_*).
 * Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT (same device, bad
 * attribute, NULL out).
 */
DC_API dc_status dc_device_peer_attribute(dc_device device, dc_device peer,
                                          DC_FAMILY(dc_peer_attribute) int32_t attribute,
                                          DC_OUT int32_t* value);

/* =========================================================================
 * Buffers: memory on the device, pinned host memory, managed memory
 * ========================================================================= */

/* dc_buffer_kind() answers one of these. */
DC_CONSTANTS(dc_buffer_kind, enumeration, int32_t)
#define DC_BUFFER_DEVICE            1  /**< device memory owned by the buffer */
#define DC_BUFFER_PINNED            2  /**< page-locked host memory owned by the buffer */
#define DC_BUFFER_MANAGED           3  /**< unified (managed) memory owned by the buffer */
#define DC_BUFFER_WRAPPED_DEVICE    4  /**< device memory owned by someone else */
#define DC_BUFFER_REGISTERED_HOST   5  /**< caller's host memory, registered (page-locked) */
#define DC_BUFFER_MODULE_GLOBAL     6  /**< a __device__ variable of a module */

/* Allocation flags. */
DC_CONSTANTS(dc_alloc_flags, flags, uint32_t)
/** Device memory: use cuMemAlloc instead of the device's stream-ordered pool. */
#define DC_ALLOC_NO_POOL            0x01u
/** Pinned / registered host memory: usable by every device's context. */
#define DC_ALLOC_PORTABLE           0x02u
/** Pinned / registered host memory: mapped into the device address space
 *  (dc_buffer_device_pointer gives its device address). */
#define DC_ALLOC_DEVICE_MAPPED      0x04u
/** Pinned host memory: write-combined (fast for the GPU to read, very slow for
 *  the CPU to read). Off unless asked for. */
#define DC_ALLOC_WRITE_COMBINED     0x08u
/** Managed memory: attach to the host first (CU_MEM_ATTACH_HOST) instead of
 *  being accessible from every stream (CU_MEM_ATTACH_GLOBAL). */
#define DC_ALLOC_ATTACH_HOST        0x10u
/** Registered host memory: the device only reads it. */
#define DC_ALLOC_READ_ONLY          0x20u

/**
 * Allocate `size` bytes of device memory (size > 0). By default the memory
 * comes from dccuda's stream-ordered pool on the device (fast: no driver
 * allocation once the pool is warm); DC_ALLOC_NO_POOL, devices without memory
 * pool support and drivers that lack pools use cuMemAlloc. The memory is
 * usable from every stream when the call returns; it is not initialised.
 * Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT (size 0, unknown
 * flag, NULL out), DC_ERROR_OUT_OF_MEMORY, DC_ERROR_CONTEXT_LOST.
 */
DC_API dc_status dc_buffer_alloc(dc_device device, uint64_t size, DC_FAMILY(dc_alloc_flags) uint32_t flags,
                                 DC_OUT DC_OWNED dc_buffer* buffer);

/**
 * Allocate device memory in stream order on `stream` (cuMemAllocFromPoolAsync):
 * the memory may be used by work enqueued on `stream` after this call; other
 * streams must first wait for `stream` (dc_stream_wait_event). Falls back to a
 * synchronous allocation where pools are not supported. Flags as for
 * dc_buffer_alloc. Errors: as dc_buffer_alloc.
 */
DC_API dc_status dc_buffer_alloc_async(dc_stream stream, uint64_t size,
                                       DC_FAMILY(dc_alloc_flags) uint32_t flags,
                                       DC_OUT DC_OWNED dc_buffer* buffer);

/**
 * Allocate `size` bytes of page-locked host memory (cuMemHostAlloc) for fast,
 * truly asynchronous copies. Flags: DC_ALLOC_PORTABLE, DC_ALLOC_DEVICE_MAPPED,
 * DC_ALLOC_WRITE_COMBINED. dc_buffer_host_pointer() gives the CPU address.
 * Errors: as dc_buffer_alloc.
 */
DC_API dc_status dc_buffer_alloc_pinned(dc_device device, uint64_t size,
                                        DC_FAMILY(dc_alloc_flags) uint32_t flags,
                                        DC_OUT DC_OWNED dc_buffer* buffer);

/**
 * Allocate `size` bytes of managed (unified) memory (cuMemAllocManaged),
 * accessible from the CPU and the GPU. Flags: DC_ALLOC_ATTACH_HOST.
 * Errors: as dc_buffer_alloc, and DC_ERROR_NOT_SUPPORTED if the device has no
 * managed memory.
 */
DC_API dc_status dc_buffer_alloc_managed(dc_device device, uint64_t size,
                                         DC_FAMILY(dc_alloc_flags) uint32_t flags,
                                         DC_OUT DC_OWNED dc_buffer* buffer);

/**
 * Wrap device memory that someone else owns (a CUdeviceptr from another
 * library) without taking ownership: releasing the buffer frees nothing. The
 * memory must stay valid while the buffer is used. Bounds checks use `size`;
 * where the driver knows the allocation the pointer lies in, a size that runs
 * past it is refused (in a range built with dc_vmm_*: past the memory mapped
 * there back to back).
 * Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT (0 pointer or size,
 * NULL out), DC_ERROR_OUT_OF_RANGE (size runs past the allocation).
 */
DC_API dc_status dc_buffer_wrap_device(dc_device device,
                                       DC_NATIVE DC_LIFETIME(buffer) uint64_t device_pointer, uint64_t size,
                                       DC_OUT DC_OWNED dc_buffer* buffer);

/**
 * Register the caller's host memory [host, host + size) with the driver
 * (cuMemHostRegister) so that copies to and from it run at pinned speed.
 * The caller keeps ownership of the memory and must keep it allocated until
 * the buffer is released, which unregisters it. Flags: DC_ALLOC_PORTABLE,
 * DC_ALLOC_DEVICE_MAPPED, DC_ALLOC_READ_ONLY. Registration is slow (tens of
 * ms for hundreds of MiB): register once, copy many times.
 * Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT (NULL host, size 0,
 * a range past the end of the user address space (2^57), memory already
 * registered), DC_ERROR_OUT_OF_MEMORY.
 */
DC_API dc_status dc_buffer_register_host(dc_device device,
                                         DC_INOUT DC_ARRAY(size) DC_LIFETIME(buffer) void* host,
                                         uint64_t size, DC_FAMILY(dc_alloc_flags) uint32_t flags,
                                         DC_OUT DC_OWNED dc_buffer* buffer);

/**
 * Release a buffer. Memory the buffer owns is freed in stream order on the
 * stream that last used it asynchronously (so work already enqueued that uses
 * it completes first: never a use-after-free on the GPU), or at once if it was
 * only used synchronously. If a buffer is used on several streams, the caller
 * must order those streams (events) before releasing it, as with any shared
 * data. Buffers referenced by a captured graph must outlive the graph's
 * launches; a buffer released while its last stream is capturing is freed
 * outside the capture, so work enqueued on that stream before the capture
 * began must have completed. NULL is ignored.
 */
DC_API void dc_buffer_release(DC_OWNED DC_NULLABLE dc_buffer buffer);

/** The buffer's size in bytes. Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT. */
DC_API dc_status dc_buffer_size(dc_buffer buffer, DC_OUT uint64_t* size);

/** The buffer's kind (DC_BUFFER_*). Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT. */
DC_API dc_status dc_buffer_kind(dc_buffer buffer, DC_OUT DC_FAMILY(dc_buffer_kind) int32_t* kind);

/** A new handle to the buffer's device; release it with dc_device_release().
 *  Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT. */
DC_API dc_status dc_buffer_device(dc_buffer buffer, DC_OUT DC_OWNED dc_device* device);

/**
 * The buffer's device address (CUdeviceptr), for passing to other CUDA
 * libraries. Valid while the buffer lives. Pinned and registered host memory
 * has one only with DC_ALLOC_DEVICE_MAPPED (else DC_ERROR_NOT_SUPPORTED): under
 * unified addressing the driver may map such memory anyway, but only the flag
 * makes it so on every system and for registered memory, and dccuda holds
 * kernels (dc_arg) to the same rule.
 * Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT, DC_ERROR_NOT_SUPPORTED,
 * DC_ERROR_CONTEXT_LOST (the buffer died with dc_device_reset).
 */
DC_API dc_status dc_buffer_device_pointer(dc_buffer buffer, DC_OUT DC_NATIVE uint64_t* device_pointer);

/**
 * The buffer's CPU address: pinned, registered and managed buffers have one;
 * device memory does not (DC_ERROR_NOT_SUPPORTED). Valid while the buffer lives.
 * Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT, DC_ERROR_NOT_SUPPORTED,
 * DC_ERROR_CONTEXT_LOST (the buffer died with dc_device_reset).
 */
DC_API dc_status dc_buffer_host_pointer(dc_buffer buffer, DC_OUT DC_LIFETIME(buffer) void** host_pointer);

/**
 * A view: a new buffer handle over bytes [offset, offset + size) of `parent`,
 * usable wherever a buffer is (copies, fills, 2D and 3D copies, kernel
 * arguments, prefetch and advice, dc_buffer_device_pointer and
 * dc_buffer_host_pointer, which answer the view's first byte), and checked
 * against its own range: offset 0 of the view is byte `offset` of the parent,
 * and nothing past `size` is reachable through it. A view of a view is a view
 * of the same memory. The view keeps its parent's memory alive (releasing the
 * parent's handle first is allowed) and never frees it itself; dc_buffer_kind
 * answers the parent's kind, and the parent's flags apply. Stream order: when
 * the last view of a buffer and the buffer itself are released, the memory is
 * freed in order on the stream the buffer or a view last used; a caller that
 * uses the memory on several streams orders them (as dc_buffer_release says).
 * Thread-safe; release the view with dc_buffer_release.
 * Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT (size 0, NULL out),
 * DC_ERROR_OUT_OF_RANGE (the range runs past the parent's end),
 * DC_ERROR_CONTEXT_LOST.
 */
DC_API dc_status dc_buffer_view(dc_buffer parent, uint64_t offset, uint64_t size,
                                DC_OUT DC_OWNED dc_buffer* view);

/* Locations for prefetch and advice. */
DC_CONSTANTS(dc_location, values, int32_t)
#define DC_LOCATION_HOST  (-1)   /**< the CPU; a value >= 0 is a device ordinal */

/**
 * Prefetch [offset, offset + size) of a managed buffer to `location`
 * (DC_LOCATION_HOST or a device ordinal) in stream order on `stream`. Uses the
 * location-based cuMemPrefetchAsync of CUDA 12.2+, and the device-ordinal one on
 * older drivers. Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT (not a
 * managed buffer, bad location), DC_ERROR_OUT_OF_RANGE, DC_ERROR_NOT_SUPPORTED
 * (the device lacks concurrent managed access), DC_ERROR_CONTEXT_LOST.
 */
DC_API dc_status dc_buffer_prefetch(dc_buffer buffer, uint64_t offset, uint64_t size,
                                    DC_FAMILY(dc_location) int32_t location, dc_stream stream);

/* Advice for managed memory: the values of cuda.h's CUmem_advise. */
DC_CONSTANTS(dc_advice, enumeration, int32_t)
#define DC_ADVISE_SET_READ_MOSTLY           1
#define DC_ADVISE_UNSET_READ_MOSTLY         2
#define DC_ADVISE_SET_PREFERRED_LOCATION    3
#define DC_ADVISE_UNSET_PREFERRED_LOCATION  4
#define DC_ADVISE_SET_ACCESSED_BY           5
#define DC_ADVISE_UNSET_ACCESSED_BY         6

/**
 * Give the driver advice (DC_ADVISE_*) about [offset, offset + size) of a
 * managed buffer for `location` (DC_LOCATION_HOST or a device ordinal).
 * Errors: as dc_buffer_prefetch.
 */
DC_API dc_status dc_buffer_advise(dc_buffer buffer, uint64_t offset, uint64_t size,
                                  DC_FAMILY(dc_advice) int32_t advice,
                                  DC_FAMILY(dc_location) int32_t location);

/* -- Copies and fills ----------------------------------------------------------
 * Every copy checks offset + size against the buffer it names, and answers
 * DC_ERROR_OUT_OF_RANGE with the numbers in the message: never a GPU fault.
 * A size of 0 is a valid copy that does nothing (the handles are still checked).
 * Host pointers may be ordinary (pageable) memory: large copies from and to
 * pageable memory are staged through dccuda's own pinned buffers, which is much
 * faster than the driver's pageable path, and small synchronous ones go through
 * one of those buffers too (a pinned copy is complete when the driver returns;
 * the first such copy on a device makes the buffers, 64 MiB of pinned memory
 * by default). Host memory the driver already knows (pinned, registered,
 * managed) is copied directly at full speed.
 * Synchronous copies and fills run in order with the legacy default stream, as
 * the driver's own synchronous copies do, and return when complete. Between two
 * host buffers (pinned, registered) synchronous copies and fills are done by
 * the CPU.
 */

/**
 * Copy `size` bytes from host memory `src` into `dst` at `dst_offset`, and
 * return when the copy is complete. Errors: DC_ERROR_INVALID_HANDLE,
 * DC_ERROR_INVALID_ARGUMENT (NULL src with size > 0; src overlapping dst's own
 * memory, as a second pointer into registered, pinned or managed memory can),
 * DC_ERROR_OUT_OF_RANGE,
 * DC_ERROR_CONTEXT_LOST, DC_ERROR_DRIVER.
 */
DC_API dc_status dc_buffer_write(dc_buffer dst, uint64_t dst_offset, DC_IN DC_ARRAY(size) const void* src,
                                 uint64_t size);

/** Copy `size` bytes from `src` at `src_offset` into host memory `dst`, and
 *  return when complete. Errors: as dc_buffer_write. */
DC_API dc_status dc_buffer_read(dc_buffer src, uint64_t src_offset, DC_OUT DC_ARRAY(size) void* dst,
                                uint64_t size);

/**
 * Copy `size` bytes between two buffers (device, pinned, managed; on one device
 * or on two: see dc_buffer_copy_path), and return when complete. Overlapping
 * ranges within one buffer are DC_ERROR_INVALID_ARGUMENT.
 * Errors: as dc_buffer_write.
 */
DC_API dc_status dc_buffer_copy(dc_buffer dst, uint64_t dst_offset, dc_buffer src, uint64_t src_offset,
                                uint64_t size);

/**
 * As dc_buffer_write, in stream order on `stream`. With pinned `src` the call
 * returns at once and `src` must stay untouched until the stream reaches the
 * copy. With pageable `src` the call returns once `src` has been read (it may be
 * reused then), like the driver's own pageable path. A failure of the copy on the
 * GPU is reported by a later synchronisation.
 * Errors: as dc_buffer_write, and DC_ERROR_INVALID_ARGUMENT if the stream is on
 * another device.
 */
DC_API dc_status dc_buffer_write_async(dc_buffer dst, uint64_t dst_offset,
                                       DC_IN DC_ARRAY(size) const void* src, uint64_t size, dc_stream stream);

/**
 * As dc_buffer_read, in stream order on `stream`. With pinned `dst` the call
 * returns at once and the data is there once the stream reaches the copy; with
 * pageable `dst` the call returns when the data is in `dst`.
 * Errors: as dc_buffer_write_async.
 */
DC_API dc_status dc_buffer_read_async(dc_buffer src, uint64_t src_offset, DC_OUT DC_ARRAY(size) void* dst,
                                      uint64_t size, dc_stream stream);

/** As dc_buffer_copy, in stream order on `stream` (a stream of either buffer's device).
 *  Errors: as dc_buffer_write_async. */
DC_API dc_status dc_buffer_copy_async(dc_buffer dst, uint64_t dst_offset, dc_buffer src, uint64_t src_offset,
                                      uint64_t size, dc_stream stream);

/* dc_copy_op.kind */
DC_CONSTANTS(dc_copy_kind, enumeration, uint32_t)
#define DC_COPY_BUFFER_TO_BUFFER  1  /**< `dst` from `src`, as dc_buffer_copy_async */
#define DC_COPY_HOST_TO_BUFFER    2  /**< `dst` from host memory `host`, as dc_buffer_write_async */
#define DC_COPY_BUFFER_TO_HOST    3  /**< host memory `host` from `src`, as dc_buffer_read_async */

/**
 * One copy of dc_buffer_copy_batch_async. No unions: the fields a kind does
 * not use are ignored (`src` and `src_offset` for a host-to-buffer copy, `dst`
 * and `dst_offset` for a buffer-to-host copy, `host` for a buffer-to-buffer copy).
 */
typedef struct dc_copy_op {
  DC_FAMILY(dc_copy_kind) uint32_t kind;  /**< DC_COPY_* */
  uint32_t reserved;                      /**< 0 */
  dc_buffer dst;                          /**< BUFFER_TO_BUFFER, HOST_TO_BUFFER: the buffer written */
  uint64_t dst_offset;
  dc_buffer src;                          /**< BUFFER_TO_BUFFER, BUFFER_TO_HOST: the buffer read */
  uint64_t src_offset;
  /** HOST_TO_BUFFER: read from; BUFFER_TO_HOST: written to (pageable or pinned host memory). */
  DC_ARRAY(size) void* host;
  uint64_t size;                          /**< bytes; 0 is a valid copy that does nothing */
} dc_copy_op;

/**
 * Enqueue `count` asynchronous copies on `stream` in one call: a caller from
 * another language pays one transition and one validation pass for all of
 * them. Each copy is checked as the single call of its kind checks it (handles,
 * the stream on the buffer's device, or on either buffer's device for
 * buffer-to-buffer; ranges; NULL host memory with size > 0; overlap of a copy's
 * source and destination), and every copy is checked before anything is
 * enqueued: on any error nothing is enqueued and the message names the copy's
 * index ("ops[3]").
 * Order: the batch runs in stream order after earlier work, and later work
 * waits for all of it; the copies of one batch are NOT ordered among
 * themselves (on a driver with cuMemcpyBatchAsync, CUDA 12.8+, they may run
 * concurrently, as it runs them). So no copy may write memory that another
 * copy of the batch reads or writes: that is refused too
 * (DC_ERROR_INVALID_ARGUMENT naming both indices); put dependent copies in
 * two batches. Host memory: each host-to-buffer and buffer-to-host copy keeps
 * its single call's contract (dc_buffer_write_async, dc_buffer_read_async):
 * pageable host memory is staged and read (or written) before the call
 * returns; pinned memory must stay untouched until the stream reaches the copy.
 * Copies between two buffers that are neither managed nor on two devices go to
 * the driver in one cuMemcpyBatchAsync where the driver has it (CUDA 12.8+) and
 * the stream is neither a default stream nor capturing; every other copy, and
 * every copy on other drivers, is enqueued as its single call would be.
 * `count` 0 is a valid batch that does nothing (the stream is still checked);
 * `ops` may then be NULL. The array is read during the call only.
 * If the driver refuses a copy half way, the copies already enqueued stay
 * enqueued: the message names the copy that failed ("ops[k]:"); which others
 * were enqueued is not defined, and the stream should be synchronised and the
 * batch redone.
 * Errors: as dc_buffer_copy_async; DC_ERROR_INVALID_HANDLE (the stream, or a
 * buffer of a copy, named by its index), DC_ERROR_INVALID_ARGUMENT (NULL ops
 * with count > 0, kind not DC_COPY_*, reserved not 0, copies of the batch that
 * overlap), DC_ERROR_OUT_OF_RANGE.
 */
DC_API dc_status dc_buffer_copy_batch_async(DC_IN DC_ARRAY(count) const dc_copy_op* ops, uint32_t count,
                                            dc_stream stream);

/**
 * Fill [offset, offset + size) of `buffer` with `value` repeated as elements of
 * `element_size` bytes (1, 2 or 4: cuMemsetD8/D16/D32). offset and size must be
 * multiples of element_size. Returns when complete.
 * Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT (bad element size,
 * misaligned offset or size, a value too wide for the element), DC_ERROR_OUT_OF_RANGE.
 */
DC_API dc_status dc_buffer_fill(dc_buffer buffer, uint64_t offset, uint64_t size, uint32_t value,
                                uint32_t element_size);

/** As dc_buffer_fill, in stream order on `stream`: the device fills the memory,
 *  also host memory (pinned, registered), which must be mapped for the device
 *  (registered memory the driver did not map: DC_ERROR_NOT_SUPPORTED) and not
 *  registered with DC_ALLOC_READ_ONLY (DC_ERROR_INVALID_ARGUMENT).
 *  Errors: as dc_buffer_fill, and DC_ERROR_NOT_SUPPORTED, DC_ERROR_CONTEXT_LOST,
 *  DC_ERROR_INVALID_ARGUMENT (a stream of another device). */
DC_API dc_status dc_buffer_fill_async(dc_buffer buffer, uint64_t offset, uint64_t size, uint32_t value,
                                      uint32_t element_size, dc_stream stream);

/* dc_buffer_copy_path() answers one of these. */
DC_CONSTANTS(dc_copy_path, enumeration, int32_t)
#define DC_COPY_PATH_SAME_DEVICE   1  /**< both buffers on one device */
#define DC_COPY_PATH_PEER          2  /**< device to device over NVLink/PCIe, peer access enabled */
#define DC_COPY_PATH_STAGED        3  /**< two devices without peer access: the driver stages through host memory */
#define DC_COPY_PATH_HOST          4  /**< at least one side is host memory (pinned or registered) */

/**
 * Which path dc_buffer_copy(dst, ..., src, ...) takes between these buffers
 * (DC_COPY_PATH_*). Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT.
 */
DC_API dc_status dc_buffer_copy_path(dc_buffer dst, dc_buffer src,
                                     DC_OUT DC_FAMILY(dc_copy_path) int32_t* path);

/* -- 2D and 3D (pitched) memory -----------------------------------------------
 * A 2D region is `height` rows of `width` bytes; row r starts at byte
 * offset + r * pitch of the memory it lies in (a buffer, or host memory of a
 * given size). A 3D region is `depth` planes of such rows, plane p starting
 * `rows_per_plane` rows after plane p - 1: row r of plane p starts at
 * offset + (p * rows_per_plane + r) * pitch. A pitch smaller than `width` (with
 * more than one row) or a rows_per_plane smaller than `height` (with more than
 * one plane) is DC_ERROR_INVALID_ARGUMENT. A tile of a matrix is the region at
 * offset = row0 * pitch + column0 * element size, with the matrix's pitch.
 * Every region is checked against the memory it lies in before the driver sees
 * it: DC_ERROR_OUT_OF_RANGE names the first row (and plane) that runs past the
 * end, with its byte range. A width, height or depth of 0 is a copy that does
 * nothing (the handles are still checked). Copies work between any two kinds
 * of memory (device, pinned, registered, managed, a peer device's); pageable
 * host memory is staged as in the 1D copies, and the ordering and completion
 * rules are those of the 1D calls of the same name. The source and destination
 * regions must not share bytes (DC_ERROR_INVALID_ARGUMENT).
 */

/**
 * Allocate device memory for `height` rows of `width` bytes each, with rows
 * padded to the pitch the device copies and accesses fastest
 * (cuMemAllocPitch), written to `*pitch`; the buffer's size is
 * pitch * height. For a 3D block of `depth` planes, pass height * depth rows.
 * `element_size` (4, 8 or 16) is the size of the elements the kernels access
 * (the pitch suits it). The memory does not come from the stream-ordered pool.
 * `flags` must be 0. Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT
 * (width or height 0, bad element_size, nonzero flags, NULL out),
 * DC_ERROR_OUT_OF_MEMORY, DC_ERROR_CONTEXT_LOST.
 */
DC_API dc_status dc_buffer_alloc_pitched(dc_device device, uint64_t width, uint64_t height, uint32_t element_size,
                                         uint32_t flags, DC_OUT uint64_t* pitch,
                                         DC_OUT DC_OWNED dc_buffer* buffer);

/**
 * Copy a 2D region of `height` rows of `width` bytes from `src` (rows at
 * src_offset, src_pitch apart) to `dst` (rows at dst_offset, dst_pitch apart),
 * between any two buffers, and return when complete.
 * Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT (a pitch below
 * width, the regions sharing bytes), DC_ERROR_OUT_OF_RANGE (a row past the end of
 * its buffer), DC_ERROR_CONTEXT_LOST, DC_ERROR_DRIVER.
 */
DC_API dc_status dc_buffer_copy_2d(dc_buffer dst, uint64_t dst_offset, uint64_t dst_pitch, dc_buffer src,
                                   uint64_t src_offset, uint64_t src_pitch, uint64_t width, uint64_t height);

/** As dc_buffer_copy_2d, in stream order on `stream` (a stream of either buffer's
 *  device). Errors: as dc_buffer_copy_2d, and DC_ERROR_INVALID_ARGUMENT (a stream
 *  of a third device). */
DC_API dc_status dc_buffer_copy_2d_async(dc_buffer dst, uint64_t dst_offset, uint64_t dst_pitch, dc_buffer src,
                                         uint64_t src_offset, uint64_t src_pitch, uint64_t width, uint64_t height,
                                         dc_stream stream);

/**
 * Copy a 2D region from host memory `src` (`src_size` bytes there, rows
 * src_pitch apart from its start) into `dst`, and return when complete. Both
 * regions are checked: against dst's size and against src_size.
 * Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT (NULL src with a
 * nonempty region, a pitch below width, src overlapping dst's own memory),
 * DC_ERROR_OUT_OF_RANGE, DC_ERROR_CONTEXT_LOST, DC_ERROR_DRIVER.
 */
DC_API dc_status dc_buffer_write_2d(dc_buffer dst, uint64_t dst_offset, uint64_t dst_pitch,
                                    DC_IN DC_ARRAY(src_size) const void* src, uint64_t src_size, uint64_t src_pitch,
                                    uint64_t width, uint64_t height);

/** As dc_buffer_write_2d, in stream order on `stream` (when `src` may be reused:
 *  as dc_buffer_write_async). Errors: as dc_buffer_write_2d, and
 *  DC_ERROR_INVALID_ARGUMENT (a stream of another device). */
DC_API dc_status dc_buffer_write_2d_async(dc_buffer dst, uint64_t dst_offset, uint64_t dst_pitch,
                                          DC_IN DC_ARRAY(src_size) const void* src, uint64_t src_size,
                                          uint64_t src_pitch, uint64_t width, uint64_t height, dc_stream stream);

/** Copy a 2D region of `src` into host memory `dst` (`dst_size` bytes there,
 *  rows dst_pitch apart), and return when complete. Errors: as dc_buffer_write_2d. */
DC_API dc_status dc_buffer_read_2d(dc_buffer src, uint64_t src_offset, uint64_t src_pitch,
                                   DC_OUT DC_ARRAY(dst_size) void* dst, uint64_t dst_size, uint64_t dst_pitch,
                                   uint64_t width, uint64_t height);

/** As dc_buffer_read_2d, in stream order on `stream` (when the data is in `dst`:
 *  as dc_buffer_read_async). Errors: as dc_buffer_write_2d_async. */
DC_API dc_status dc_buffer_read_2d_async(dc_buffer src, uint64_t src_offset, uint64_t src_pitch,
                                         DC_OUT DC_ARRAY(dst_size) void* dst, uint64_t dst_size, uint64_t dst_pitch,
                                         uint64_t width, uint64_t height, dc_stream stream);

/**
 * Copy a 3D region of `depth` planes of `height` rows of `width` bytes from
 * `src` to `dst` (see "2D and 3D" above for the layout), between any two
 * buffers, and return when complete.
 * Errors: as dc_buffer_copy_2d, and DC_ERROR_INVALID_ARGUMENT (a rows_per_plane
 * below height).
 */
DC_API dc_status dc_buffer_copy_3d(dc_buffer dst, uint64_t dst_offset, uint64_t dst_pitch,
                                   uint64_t dst_rows_per_plane, dc_buffer src, uint64_t src_offset,
                                   uint64_t src_pitch, uint64_t src_rows_per_plane, uint64_t width, uint64_t height,
                                   uint64_t depth);

/** As dc_buffer_copy_3d, in stream order on `stream` (a stream of either buffer's
 *  device). Errors: as dc_buffer_copy_3d, and DC_ERROR_INVALID_ARGUMENT (a stream
 *  of a third device). */
DC_API dc_status dc_buffer_copy_3d_async(dc_buffer dst, uint64_t dst_offset, uint64_t dst_pitch,
                                         uint64_t dst_rows_per_plane, dc_buffer src, uint64_t src_offset,
                                         uint64_t src_pitch, uint64_t src_rows_per_plane, uint64_t width,
                                         uint64_t height, uint64_t depth, dc_stream stream);

/**
 * Fill a 2D region of `buffer` (`height` rows of `width` bytes, `pitch` apart)
 * with `value` repeated as elements of `element_size` bytes (1, 2 or 4:
 * cuMemsetD2D8/16/32); offset, width and pitch must be multiples of
 * element_size. Returns when complete; pinned and registered buffers are
 * filled by the CPU. Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT
 * (bad element size, misaligned offset, width or pitch, a pitch below width, a
 * value too wide for the element), DC_ERROR_OUT_OF_RANGE, DC_ERROR_CONTEXT_LOST,
 * DC_ERROR_DRIVER.
 */
DC_API dc_status dc_buffer_fill_2d(dc_buffer buffer, uint64_t offset, uint64_t pitch, uint64_t width,
                                   uint64_t height, uint32_t value, uint32_t element_size);

/** As dc_buffer_fill_2d, in stream order on `stream`: the device fills the
 *  memory, host memory included (as dc_buffer_fill_async).
 *  Errors: as dc_buffer_fill_2d, and DC_ERROR_NOT_SUPPORTED (host memory without a
 *  device mapping), DC_ERROR_INVALID_ARGUMENT (a stream of another device, memory
 *  registered with DC_ALLOC_READ_ONLY). */
DC_API dc_status dc_buffer_fill_2d_async(dc_buffer buffer, uint64_t offset, uint64_t pitch, uint64_t width,
                                         uint64_t height, uint32_t value, uint32_t element_size, dc_stream stream);

/* -- Memory pools you control ------------------------------------------------
 *
 * dccuda allocates device memory from one private stream-ordered pool per device
 * (dc_buffer_alloc). A dc_pool is a pool of your own (cuMemPoolCreate) on one
 * device, with its own size limit, release threshold, reuse rules, statistics
 * and peer access; dc_buffer_alloc_from_pool takes memory from it. Buffers from
 * a pool are ordinary DC_BUFFER_DEVICE buffers, usable everywhere a buffer is,
 * and freed in stream order back to their pool when released.
 *
 * Lifetime: every buffer allocated from a pool keeps the pool alive.
 * dc_pool_release drops the caller's handle only; the driver's pool is
 * destroyed when the last of its buffers has been released (and their frees
 * have been enqueued). Buffers therefore never outlive their pool's memory.
 * A dc_device_reset kills pools made before it (DC_ERROR_CONTEXT_LOST).
 * Threads: every call may come from any thread; calls on one pool are
 * serialised by the driver.
 */

/* Flags of dc_pool_create. */
DC_CONSTANTS(dc_pool_flags, flags, uint32_t)
/** The pool's memory may be exported to other processes (POSIX file
 *  descriptor handles; Linux only). */
#define DC_POOL_EXPORTABLE          0x01u

/* Attributes of a pool (dc_pool_set_attribute, dc_pool_attribute): the values
 * of cuda.h's CU_MEMPOOL_ATTR_*. */
DC_CONSTANTS(dc_pool_attribute, enumeration, int32_t)
/** 0 or 1: reuse memory freed on another stream once an event dependency
 *  orders the two (on by default). */
#define DC_POOL_REUSE_FOLLOW_EVENT_DEPENDENCIES    1
/** 0 or 1: reuse memory whose free has completed, without a dependency (on by
 *  default). */
#define DC_POOL_REUSE_ALLOW_OPPORTUNISTIC          2
/** 0 or 1: let the driver insert dependencies to reuse memory (on by default). */
#define DC_POOL_REUSE_ALLOW_INTERNAL_DEPENDENCIES  3
/** Bytes of freed memory the pool keeps cached at a synchronisation instead of
 *  giving it back to the system (0 by default; UINT64_MAX: keep everything). */
#define DC_POOL_RELEASE_THRESHOLD                  4

/**
 * Create a memory pool on `device`. `max_size` bounds the memory the pool
 * reserves (0: the driver's default, the device's memory; needs a CUDA 12.2
 * driver otherwise). Flags: DC_POOL_EXPORTABLE. The caller owns the handle.
 * Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT (unknown flag, NULL
 * out, max_size above the device's memory), DC_ERROR_NOT_SUPPORTED (the device
 * or driver has no memory pools, a max_size on a driver before 12.2,
 * DC_POOL_EXPORTABLE outside Linux), DC_ERROR_DRIVER.
 */
DC_API dc_status dc_pool_create(dc_device device, uint64_t max_size, DC_FAMILY(dc_pool_flags) uint32_t flags,
                                DC_OUT DC_OWNED dc_pool* pool);

/** Release the caller's reference to a pool; buffers allocated from it keep
 *  it alive until they are released (see "Lifetime" above). NULL is ignored. */
DC_API void dc_pool_release(DC_OWNED DC_NULLABLE dc_pool pool);

/**
 * Set an attribute (DC_POOL_*) of the pool: the reuse ones take 0 or 1,
 * DC_POOL_RELEASE_THRESHOLD any number of bytes.
 * Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT (unknown attribute,
 * a reuse value other than 0 or 1), DC_ERROR_DRIVER.
 */
DC_API dc_status dc_pool_set_attribute(dc_pool pool, DC_FAMILY(dc_pool_attribute) int32_t attribute,
                                       uint64_t value);

/** The value of an attribute (DC_POOL_*) of the pool.
 *  Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT (unknown attribute,
 *  NULL out), DC_ERROR_DRIVER. */
DC_API dc_status dc_pool_attribute(dc_pool pool, DC_FAMILY(dc_pool_attribute) int32_t attribute,
                                   DC_OUT uint64_t* value);

/** A pool's statistics (dc_pool_statistics, dc_device_pool_statistics): bytes
 *  the pool has reserved from the device (in use or cached) and bytes in use
 *  by allocations, now and at their high-water marks. */
typedef struct dc_pool_stats {
  uint32_t struct_size;     /**< sizeof(dc_pool_stats) */
  int32_t device_ordinal;   /**< the pool's device */
  uint64_t reserved_current;  /**< bytes reserved now */
  uint64_t reserved_high;     /**< the most bytes reserved since creation or the last reset */
  uint64_t used_current;      /**< bytes in use by allocations now */
  uint64_t used_high;         /**< the most bytes in use since creation or the last reset */
} dc_pool_stats;

#define DC_POOL_STATS_INIT { (uint32_t)sizeof(dc_pool_stats), 0, 0u, 0u, 0u, 0u }

/**
 * Fill `stats` (the caller sets struct_size) with the pool's statistics.
 * Memory freed in stream order counts as used until the free has run on its
 * stream. Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT (NULL stats,
 * bad struct_size), DC_ERROR_DRIVER.
 */
DC_API dc_status dc_pool_statistics(dc_pool pool, DC_INOUT dc_pool_stats* stats);

/**
 * Fill `stats` with the statistics of dccuda's own pool on `device` (the one
 * dc_buffer_alloc uses). All zero on a device without pools, or before the
 * device's first allocation. Errors: DC_ERROR_INVALID_HANDLE,
 * DC_ERROR_INVALID_ARGUMENT (NULL stats, bad struct_size), DC_ERROR_DRIVER.
 */
DC_API dc_status dc_device_pool_statistics(dc_device device, DC_INOUT dc_pool_stats* stats);

/** Reset the pool's high-water marks (reserved_high, used_high) to the current
 *  values. Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_DRIVER. */
DC_API dc_status dc_pool_reset_high_water(dc_pool pool);

/**
 * Give the pool's cached memory back to the system until it reserves at most
 * `keep_bytes` (cuMemPoolTrimTo). Memory freed in stream order is trimmed once
 * its free has run: synchronise the streams first to trim everything.
 * Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_DRIVER.
 */
DC_API dc_status dc_pool_trim(dc_pool pool, uint64_t keep_bytes);

/**
 * Let kernels and copies on `accessor` use the pool's memory (enable 1), or
 * take that back (enable 0), for memory allocated before and after the call
 * (cuMemPoolSetAccess). The pool's own device always has access: enabling it is
 * DC_SUCCESS, disabling it is refused. Needs peer capability between the two
 * devices (dc_device_can_access_peer).
 * Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT (enable not 0 or 1,
 * disabling the pool's own device), DC_ERROR_NOT_SUPPORTED (the devices cannot
 * access each other), DC_ERROR_DRIVER.
 */
DC_API dc_status dc_pool_set_access(dc_pool pool, dc_device accessor, int32_t enable);

/**
 * Allocate `size` bytes (size > 0) of device memory from `pool`. With a
 * `stream` (of the pool's device) the allocation is in stream order, as
 * dc_buffer_alloc_async: work enqueued on `stream` after the call may use it,
 * other streams must first wait for `stream`. With a NULL stream it is usable
 * from every stream when the call returns, as dc_buffer_alloc. The buffer
 * keeps the pool alive and its memory goes back to the pool when released.
 * Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT (size 0, NULL out,
 * a stream of another device), DC_ERROR_OUT_OF_MEMORY (the device, or the
 * pool's max_size, has no room), DC_ERROR_CONTEXT_LOST.
 */
DC_API dc_status dc_buffer_alloc_from_pool(dc_pool pool, DC_NULLABLE dc_stream stream, uint64_t size,
                                           DC_OUT DC_OWNED dc_buffer* buffer);

/* -- Growable buffers (virtual memory) ----------------------------------------
 *
 * A growable buffer reserves a range of device addresses once and maps
 * physical memory into it as it grows (cuMemAddressReserve, cuMemCreate,
 * cuMemMap, cuMemSetAccess): its device address never changes and growing
 * never copies, so a growing array keeps the pointers kernels hold. It is a
 * DC_BUFFER_DEVICE buffer, usable everywhere a buffer is (copies, fills,
 * views, kernel arguments) over its current size, which is the mapped size:
 * sizes are rounded up to the device's allocation granularity
 * (dc_device_allocation_granularity, 2 MiB on current GPUs). Its memory is
 * accessible from its own device (not through peer access). Needs a device
 * with virtual memory management (CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED).
 */

/* Which granularity dc_device_allocation_granularity gives. */
DC_CONSTANTS(dc_granularity, enumeration, int32_t)
#define DC_GRANULARITY_MINIMUM      0  /**< what sizes and addresses must be multiples of */
#define DC_GRANULARITY_RECOMMENDED  1  /**< what is best for performance */

/**
 * The device's allocation granularity for device memory in bytes
 * (cuMemGetAllocationGranularity): growable buffers round their sizes up to
 * the minimum one. Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT
 * (unknown `which`, NULL out), DC_ERROR_NOT_SUPPORTED (no virtual memory
 * management on the device), DC_ERROR_DRIVER.
 */
DC_API dc_status dc_device_allocation_granularity(dc_device device, DC_FAMILY(dc_granularity) int32_t which,
                                                  DC_OUT uint64_t* granularity);

/**
 * Allocate a growable buffer on `device`: reserve `max_size` bytes of device
 * address space (cheap: no memory behind it) and map `initial_size` bytes of
 * memory (both rounded up to the minimum granularity; 0 < initial_size <=
 * max_size). dc_buffer_grow maps more; dc_buffer_reserved_size gives the
 * reservation; dc_buffer_size the current size. The memory is not
 * initialised. Release with dc_buffer_release, which frees it in stream order
 * as any buffer's.
 * Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT (a size of 0,
 * initial_size above max_size, NULL out), DC_ERROR_NOT_SUPPORTED (no virtual
 * memory management on the device), DC_ERROR_OUT_OF_MEMORY (no room for
 * initial_size, or no address space for max_size), DC_ERROR_DRIVER.
 */
DC_API dc_status dc_buffer_alloc_growable(dc_device device, uint64_t max_size, uint64_t initial_size,
                                          DC_OUT DC_OWNED dc_buffer* buffer);

/**
 * Grow a growable buffer to at least `size` bytes (rounded up to the
 * granularity), mapping new memory after what it has: its address and its
 * contents stay; the new bytes are not initialised. A size at or below the
 * current one changes nothing (buffers never shrink). The new bytes are usable
 * from every stream when the call returns. Other threads may use the buffer
 * while it grows (over the size they saw); grows are serialised.
 * Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT (not a growable
 * buffer, or a view of one), DC_ERROR_OUT_OF_RANGE (size above the
 * reservation), DC_ERROR_OUT_OF_MEMORY, DC_ERROR_CONTEXT_LOST, DC_ERROR_DRIVER.
 */
DC_API dc_status dc_buffer_grow(dc_buffer buffer, uint64_t size);

/** The bytes a growable buffer may grow to (its reservation); for any other
 *  buffer, its size. Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT. */
DC_API dc_status dc_buffer_reserved_size(dc_buffer buffer, DC_OUT uint64_t* size);

/* -- Virtual memory pieces ----------------------------------------------------
 *
 * For users who build their own growable or sparse structures: the driver's
 * virtual memory calls, each checked by dccuda first (sizes and addresses
 * multiples of dc_device_allocation_granularity's minimum, ranges inside one
 * reservation, mappings that do not overlap, whole mappings unmapped) with a
 * message naming the value and the rule. Addresses are device addresses
 * (CUdeviceptr) in `device`'s address space; physical allocations are
 * uint64_t handles (CUmemGenericAllocationHandle) that only these calls take.
 * The caller owns what these calls make and frees it (dc_vmm_free,
 * dc_vmm_release): dccuda frees nothing of it, not even at exit. To copy or
 * launch on mapped memory, wrap it: dc_buffer_wrap_device. After
 * dc_device_reset everything made before it is gone (DC_ERROR_CONTEXT_LOST).
 * Threads: any; calls on overlapping ranges must be ordered by the caller.
 */

/* Access of dc_vmm_set_access: the values of cuda.h's CUmemAccess_flags. */
DC_CONSTANTS(dc_vmm_access, enumeration, int32_t)
#define DC_VMM_ACCESS_NONE       0  /**< no access (faults) */
#define DC_VMM_ACCESS_READ       1  /**< read only */
#define DC_VMM_ACCESS_READWRITE  3  /**< read and write */

/**
 * Reserve `size` bytes of device address space (cuMemAddressReserve; no
 * memory behind it): `size` a multiple of the granularity, `alignment` 0 (the
 * granularity) or a power of two. Writes the range's first address.
 * Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT (a size that is 0
 * or not a multiple of the granularity, an alignment that is not a power of
 * two, NULL out), DC_ERROR_NOT_SUPPORTED (no virtual memory management),
 * DC_ERROR_OUT_OF_MEMORY (no address space that large), DC_ERROR_DRIVER.
 */
DC_API dc_status dc_vmm_reserve(dc_device device, uint64_t size, uint64_t alignment,
                                DC_OUT DC_NATIVE uint64_t* address);

/**
 * Free a reservation (cuMemAddressFree): `address` and `size` exactly as
 * dc_vmm_reserve gave them, with nothing mapped in it any more.
 * Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT (not a reservation
 * of this device, another size), DC_ERROR_INVALID_STATE (memory still mapped
 * in it: dc_vmm_unmap first), DC_ERROR_CONTEXT_LOST, DC_ERROR_DRIVER.
 */
DC_API dc_status dc_vmm_free(dc_device device, DC_NATIVE uint64_t address, uint64_t size);

/**
 * Create `size` bytes of physical device memory (cuMemCreate; `size` a multiple
 * of the granularity), to be mapped with dc_vmm_map. Writes its handle.
 * Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT (a size that is 0
 * or not a multiple of the granularity, NULL out), DC_ERROR_NOT_SUPPORTED,
 * DC_ERROR_OUT_OF_MEMORY, DC_ERROR_DRIVER.
 */
DC_API dc_status dc_vmm_create(dc_device device, uint64_t size, DC_OUT DC_NATIVE uint64_t* handle);

/**
 * Release physical memory made by dc_vmm_create (cuMemRelease). Memory still
 * mapped stays usable and is freed when its last mapping is unmapped.
 * Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT (not a live
 * handle of this device, or released already), DC_ERROR_CONTEXT_LOST,
 * DC_ERROR_DRIVER.
 */
DC_API dc_status dc_vmm_release(dc_device device, DC_NATIVE uint64_t handle);

/**
 * Map the first `size` bytes of physical memory `handle` at `address`
 * (cuMemMap): `address` and `size` multiples of the granularity, the range
 * inside one reservation and over no other mapping, `size` at most the
 * handle's. Nothing may touch the range until dc_vmm_set_access grants access.
 * Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT (misaligned address
 * or size, a range outside every reservation or over a mapping, an unknown or
 * released handle, a size above the handle's), DC_ERROR_CONTEXT_LOST,
 * DC_ERROR_DRIVER.
 */
DC_API dc_status dc_vmm_map(dc_device device, DC_NATIVE uint64_t address, uint64_t size,
                            DC_NATIVE uint64_t handle);

/**
 * Unmap [address, address + size) (cuMemUnmap): whole mappings made by
 * dc_vmm_map, back to back. Work using the range must have completed.
 * Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT (a range that is
 * not whole mappings), DC_ERROR_CONTEXT_LOST, DC_ERROR_DRIVER.
 */
DC_API dc_status dc_vmm_unmap(dc_device device, DC_NATIVE uint64_t address, uint64_t size);

/**
 * Set what `accessor` may do with the mapped range [address, address + size)
 * (cuMemSetAccess): DC_VMM_ACCESS_*. The range must be mapped throughout;
 * another device needs peer capability.
 * Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT (unknown access, a
 * range not mapped throughout), DC_ERROR_NOT_SUPPORTED (the accessor cannot
 * reach the device's memory), DC_ERROR_CONTEXT_LOST, DC_ERROR_DRIVER.
 */
DC_API dc_status dc_vmm_set_access(dc_device device, DC_NATIVE uint64_t address, uint64_t size,
                                   dc_device accessor, DC_FAMILY(dc_vmm_access) int32_t access);

/* -- Sharing memory and events with other processes (IPC) -------------------
 *
 * A process exports a buffer or an event as DC_IPC_HANDLE_SIZE opaque bytes
 * (cuIpcGetMemHandle, cuIpcGetEventHandle), hands them to another process on
 * the same machine by any means (a pipe, a file, shared memory), and that
 * process imports them (cuIpcOpenMemHandle, cuIpcOpenEventHandle) as a
 * dc_buffer or dc_event of its own. Linux only (the driver's legacy IPC).
 *
 * What can be exported: device memory from cuMemAlloc (DC_ALLOC_NO_POOL,
 * dc_buffer_alloc_pitched) and views of it; memory allocated from a dc_pool
 * created with DC_POOL_EXPORTABLE and views of it (see "Pools across
 * processes" below); events created with DC_EVENT_INTERPROCESS |
 * DC_EVENT_DISABLE_TIMING. Pinned host memory, registered host memory, managed
 * memory, memory of dccuda's own pool or of a dc_pool made without
 * DC_POOL_EXPORTABLE, growable buffers and memory dccuda does not own are
 * refused (DC_ERROR_NOT_SUPPORTED, naming what to use instead).
 *
 * Lifetimes: an imported buffer does not own the memory: the exporter must
 * keep its buffer alive until every importer has finished using the memory
 * and released its import (releasing the import unmaps it in that process:
 * closing is the importer's job). An imported event is the importer's own
 * event object on the shared event: waiting on it waits for the exporter's
 * last record. A process cannot import what it exported itself (the driver's
 * rule). Copies and kernels in the two processes are ordered only by what the
 * processes do: record an event after writing, wait for it before reading.
 *
 * Pools across processes: the exporter creates a dc_pool with
 * DC_POOL_EXPORTABLE, allocates from it and exports the pool once
 * (dc_pool_export_ipc) and each buffer (dc_buffer_export_ipc). The importer
 * imports the pool (dc_pool_import_ipc), then each buffer into it
 * (dc_buffer_import_ipc_from_pool). The pool travels as a file descriptor of
 * the exporter, which the importer takes with pidfd_getfd (Linux 5.6 and
 * later; the same user, and Yama's ptrace_scope permitting: 0, or the
 * importer an ancestor of the exporter, or named by the exporter with
 * prctl(PR_SET_PTRACER)). Where the system refuses that, send
 * the descriptor yourself over a Unix socket (SCM_RIGHTS): dc_pool_export_fd
 * gives it, dc_pool_import_fd takes it. An imported pool holds only imported
 * buffers: allocating from it is refused. Lifetimes: an imported buffer keeps
 * its imported pool alive and is freed (cuMemFree) when released; the
 * importer must release every imported buffer before the exporter releases
 * the buffer it exported (the driver's rule: the importer frees first), and
 * the exporter must keep its pool until every import of it is done. Memory
 * allocated in stream order may be used by the importer only after the
 * allocation's stream reached it: record an event after allocating.
 */

/* Sizes of the IPC functions. */
DC_CONSTANTS(dc_ipc_sizes, values, int32_t)
/** The bytes of an exported buffer or event. */
#define DC_IPC_HANDLE_SIZE 128

/**
 * Export `buffer` for another process: writes DC_IPC_HANDLE_SIZE bytes to
 * `handle` (`size` >= DC_IPC_HANDLE_SIZE). The buffer must be device memory
 * from cuMemAlloc or from a DC_POOL_EXPORTABLE dc_pool (see above; the latter
 * is imported with dc_buffer_import_ipc_from_pool); a view exports its own
 * range. Threads: any thread.
 * Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT (NULL handle, size
 * below DC_IPC_HANDLE_SIZE), DC_ERROR_NOT_SUPPORTED (memory that cannot be
 * exported, named with what to use instead; not Linux), DC_ERROR_CONTEXT_LOST,
 * DC_ERROR_DRIVER.
 */
DC_API dc_status dc_buffer_export_ipc(dc_buffer buffer, DC_OUT DC_ARRAY(size) void* handle, uint64_t size);

/**
 * Import memory another process exported (dc_buffer_export_ipc) into
 * `device`'s context: a DC_BUFFER_WRAPPED_DEVICE buffer over the exported
 * range, usable in copies and as a kernel argument. It does not own the
 * memory (see "Lifetimes" above); releasing it unmaps it. A device other than
 * the exporter's reaches it through peer access, enabled as needed.
 * Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT (NULL handle or
 * out, size below DC_IPC_HANDLE_SIZE, bytes that are not an exported buffer,
 * a handle this process exported, memory the exporter has freed, the bytes of
 * a buffer of an exportable pool: import the pool and use
 * dc_buffer_import_ipc_from_pool),
 * DC_ERROR_NOT_SUPPORTED (not Linux), DC_ERROR_CONTEXT_LOST, DC_ERROR_DRIVER.
 */
DC_API dc_status dc_buffer_import_ipc(dc_device device, DC_IN DC_ARRAY(size) const void* handle, uint64_t size,
                                      DC_OUT DC_OWNED dc_buffer* buffer);

/**
 * Export `event` (created with DC_EVENT_INTERPROCESS | DC_EVENT_DISABLE_TIMING)
 * for another process: writes DC_IPC_HANDLE_SIZE bytes to `handle`.
 * Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT (NULL handle, size
 * below DC_IPC_HANDLE_SIZE, an event without DC_EVENT_INTERPROCESS),
 * DC_ERROR_NOT_SUPPORTED (not Linux), DC_ERROR_CONTEXT_LOST, DC_ERROR_DRIVER.
 */
DC_API dc_status dc_event_export_ipc(dc_event event, DC_OUT DC_ARRAY(size) void* handle, uint64_t size);

/**
 * Import an event another process exported (dc_event_export_ipc) on `device`:
 * an event of this process (release it as any event) that dc_stream_wait_event,
 * dc_event_synchronize and dc_event_query see as the exporter's; it may be
 * recorded here too. It cannot time (dc_event_elapsed_ms).
 * Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT (NULL handle or
 * out, size below DC_IPC_HANDLE_SIZE, bytes that are not an exported event, a
 * handle this process exported), DC_ERROR_NOT_SUPPORTED (not Linux),
 * DC_ERROR_CONTEXT_LOST, DC_ERROR_DRIVER.
 */
DC_API dc_status dc_event_import_ipc(dc_device device, DC_IN DC_ARRAY(size) const void* handle, uint64_t size,
                                     DC_OUT DC_OWNED dc_event* event);

/**
 * Export `pool` (created with DC_POOL_EXPORTABLE) for another process: writes
 * DC_IPC_HANDLE_SIZE bytes to `handle`, naming this process and the pool's
 * file descriptor (cuMemPoolExportToShareableHandle, made at the first export
 * and closed when the pool is destroyed). The bytes stay valid while the pool
 * lives here. Threads: any thread.
 * Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT (NULL handle, size
 * below DC_IPC_HANDLE_SIZE), DC_ERROR_NOT_SUPPORTED (a pool made without
 * DC_POOL_EXPORTABLE, an imported pool; not Linux), DC_ERROR_CONTEXT_LOST,
 * DC_ERROR_DRIVER.
 */
DC_API dc_status dc_pool_export_ipc(dc_pool pool, DC_OUT DC_ARRAY(size) void* handle, uint64_t size);

/**
 * Import a pool another process exported (dc_pool_export_ipc) on `device`:
 * takes a copy of the exporter's descriptor (pidfd_open, pidfd_getfd), imports
 * the pool (cuMemPoolImportFromShareableHandle) and closes the copy. The
 * caller owns the new handle; buffers imported into it keep it alive. The
 * pool only holds imported buffers (dc_buffer_import_ipc_from_pool):
 * dc_buffer_alloc_from_pool refuses it, and it cannot be exported again.
 * Threads: any thread.
 * Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT (NULL handle or
 * out, size below DC_IPC_HANDLE_SIZE, bytes that are not an exported pool, an
 * exporter that no longer runs or no longer has the pool, a pool the device's
 * driver refuses), DC_ERROR_NOT_SUPPORTED (the system refuses to hand over the
 * descriptor: another user, Yama's ptrace_scope, a kernel before 5.6; use
 * dc_pool_export_fd and dc_pool_import_fd over a Unix socket instead; a device
 * without pools; not Linux), DC_ERROR_IO (another failure to take the
 * descriptor), DC_ERROR_CONTEXT_LOST, DC_ERROR_DRIVER.
 */
DC_API dc_status dc_pool_import_ipc(dc_device device, DC_IN DC_ARRAY(size) const void* handle, uint64_t size,
                                    DC_OUT DC_OWNED dc_pool* pool);

/**
 * The file descriptor that shares `pool` (created with DC_POOL_EXPORTABLE),
 * for sending to another process yourself (a Unix socket with SCM_RIGHTS)
 * where dc_pool_import_ipc cannot take it. The descriptor is the pool's: it
 * stays open while the pool lives and is closed when the pool is destroyed;
 * do not close it (send it, or dup it). On failure *fd is 0, as every out
 * value (a failed call gives no descriptor: check the status). Threads: any
 * thread.
 * Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT (NULL fd),
 * DC_ERROR_NOT_SUPPORTED (a pool made without DC_POOL_EXPORTABLE, an imported
 * pool; not Linux), DC_ERROR_CONTEXT_LOST, DC_ERROR_DRIVER.
 */
DC_API dc_status dc_pool_export_fd(dc_pool pool, DC_OUT int32_t* fd);

/**
 * Import a pool from `fd`, a descriptor of this process for another process's
 * exported pool (received over a Unix socket from dc_pool_export_fd), on
 * `device`; as dc_pool_import_ipc otherwise. The call does not take `fd`: the
 * caller closes it (at once is fine: the driver keeps the pool).
 * Threads: any thread.
 * Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT (NULL out, a
 * negative fd, a descriptor the driver does not take for a pool),
 * DC_ERROR_NOT_SUPPORTED (a device without pools; not Linux),
 * DC_ERROR_CONTEXT_LOST, DC_ERROR_DRIVER.
 */
DC_API dc_status dc_pool_import_fd(dc_device device, int32_t fd, DC_OUT DC_OWNED dc_pool* pool);

/**
 * Import a buffer another process allocated from an exportable pool and
 * exported (dc_buffer_export_ipc) into `pool`, that pool as imported here
 * (dc_pool_import_ipc or dc_pool_import_fd): a DC_BUFFER_WRAPPED_DEVICE buffer
 * over the exported range (cuMemPoolImportPointer), on the pool's device,
 * usable in copies and as a kernel argument. The caller owns it; it keeps the
 * pool alive, and releasing it frees the import (cuMemFree), which must happen
 * before the exporter releases its buffer (see "Pools across processes").
 * Threads: any thread.
 * Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT (NULL handle or
 * out, size below DC_IPC_HANDLE_SIZE, bytes that are not an exported buffer of
 * an exportable pool, a pool not imported, memory the driver does not find in
 * that pool), DC_ERROR_NOT_SUPPORTED (not Linux), DC_ERROR_CONTEXT_LOST,
 * DC_ERROR_DRIVER.
 */
DC_API dc_status dc_buffer_import_ipc_from_pool(dc_pool pool, DC_IN DC_ARRAY(size) const void* handle,
                                                uint64_t size, DC_OUT DC_OWNED dc_buffer* buffer);

/* =========================================================================
 * Streams and events
 * ========================================================================= */

DC_CONSTANTS(dc_stream_flags, flags, uint32_t)
/** dc_stream_create flags: synchronise with the legacy default stream
 *  (CU_STREAM_DEFAULT). Without it streams are non-blocking. */
#define DC_STREAM_BLOCKING   0x1u

/**
 * Create a stream on `device`: non-blocking unless DC_STREAM_BLOCKING is given.
 * `priority`: 0 is the default; lower numbers are higher priority, clamped to
 * the range dc_stream_priority_range() gives.
 * Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT, DC_ERROR_OUT_OF_MEMORY,
 * DC_ERROR_CONTEXT_LOST.
 */
DC_API dc_status dc_stream_create(dc_device device, DC_FAMILY(dc_stream_flags) uint32_t flags,
                                  int32_t priority, DC_OUT DC_OWNED dc_stream* stream);

/** The device's range of stream priorities (greatest is numerically lowest).
 *  Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT. */
DC_API dc_status dc_stream_priority_range(dc_device device, DC_OUT int32_t* least, DC_OUT int32_t* greatest);

DC_CONSTANTS(dc_default_stream, enumeration, int32_t)
#define DC_STREAM_LEGACY      1  /**< CU_STREAM_LEGACY: synchronises with blocking streams */
#define DC_STREAM_PER_THREAD  2  /**< CU_STREAM_PER_THREAD: the calling thread's default stream */

/**
 * A handle for one of the device's default streams (DC_STREAM_LEGACY or
 * DC_STREAM_PER_THREAD). Release it as any stream; the stream itself is never
 * destroyed. Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT.
 */
DC_API dc_status dc_stream_get_default(dc_device device, DC_FAMILY(dc_default_stream) int32_t which,
                                       DC_OUT DC_OWNED dc_stream* stream);

/**
 * Wrap a CUstream created by another library on `device`'s primary context,
 * without owning it: releasing the handle does not destroy the stream, which
 * must outlive the handle and every buffer last used on it (such a buffer's
 * release frees its memory in order on that stream). CU_STREAM_LEGACY (0x1)
 * and CU_STREAM_PER_THREAD (0x2) give the default streams.
 * Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT (NULL cu_stream:
 * use dc_stream_get_default).
 */
DC_API dc_status dc_stream_wrap(dc_device device, DC_NATIVE DC_LIFETIME(stream) void* cu_stream,
                                DC_OUT DC_OWNED dc_stream* stream);

/**
 * Release a stream. Work already enqueued still completes; the CUstream is
 * destroyed once it has (cuStreamDestroy semantics) and once no buffer still
 * needs it for a stream-ordered free. NULL is ignored.
 */
DC_API void dc_stream_release(DC_OWNED DC_NULLABLE dc_stream stream);

/** Wait until all work enqueued on the stream has completed. A fault in that
 *  work is reported here. Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_CONTEXT_LOST,
 *  DC_ERROR_LAUNCH_FAILED, DC_ERROR_DRIVER. */
DC_API dc_status dc_stream_synchronize(dc_stream stream);

/** DC_SUCCESS if all work on the stream has completed, DC_NOT_READY if not.
 *  Errors: as dc_stream_synchronize; DC_NOT_READY is the answer "not yet", not a failure. */
DC_API dc_status dc_stream_query(dc_stream stream);

/** Make future work on `stream` wait until `event` has completed (the event may
 *  belong to another device). Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_CONTEXT_LOST. */
DC_API dc_status dc_stream_wait_event(dc_stream stream, dc_event event);

/** A host function enqueued on a stream. */
typedef void (*dc_host_fn)(void* user_data);

/**
 * Enqueue `fn(user_data)` on `stream` (cuLaunchHostFunc): it runs on a thread of
 * the driver once earlier work on the stream completes, and later work waits for
 * it to return, so it should return quickly. The driver forbids CUDA calls
 * there, and a call that waits, loads, unloads or resets could deadlock or
 * destroy the context `fn` runs in. So every dc_ call that enqueues work,
 * waits, loads or unloads code, changes or resets a context, or asks the
 * driver about a kernel (which may load it lazily, and loading may
 * synchronise) is refused there, before it does anything.
 * Refused inside `fn` with DC_ERROR_INVALID_STATE:
 *   dc_buffer_alloc, dc_buffer_alloc_async, dc_buffer_alloc_pinned,
 *   dc_buffer_alloc_managed, dc_buffer_wrap_device, dc_buffer_register_host,
 *   dc_buffer_prefetch, dc_buffer_advise, dc_buffer_write, dc_buffer_read,
 *   dc_buffer_copy, dc_buffer_write_async, dc_buffer_read_async,
 *   dc_buffer_copy_async, dc_buffer_copy_batch_async, dc_buffer_fill, dc_buffer_fill_async,
 *   dc_buffer_alloc_pitched, dc_buffer_copy_2d, dc_buffer_copy_2d_async,
 *   dc_buffer_copy_3d, dc_buffer_copy_3d_async, dc_buffer_write_2d,
 *   dc_buffer_write_2d_async, dc_buffer_read_2d, dc_buffer_read_2d_async,
 *   dc_buffer_fill_2d, dc_buffer_fill_2d_async,
 *   dc_device_synchronize, dc_device_reset, dc_device_trim_memory,
 *   dc_device_set_limit, dc_device_limit, dc_device_set_cache_config,
 *   dc_device_cache_config,
 *   dc_device_enable_peer_access, dc_device_disable_peer_access,
 *   dc_pool_create, dc_pool_set_access, dc_buffer_alloc_from_pool,
 *   dc_buffer_alloc_growable, dc_buffer_grow, dc_buffer_import_ipc,
 *   dc_event_import_ipc, dc_pool_import_ipc, dc_pool_import_fd,
 *   dc_buffer_import_ipc_from_pool, dc_vmm_reserve, dc_vmm_free, dc_vmm_create,
 *   dc_vmm_release, dc_vmm_map, dc_vmm_unmap, dc_vmm_set_access,
 *   dc_stream_create, dc_stream_synchronize, dc_stream_query,
 *   dc_stream_wait_event, dc_stream_add_callback, dc_stream_begin_capture,
 *   dc_stream_end_capture, dc_event_create, dc_event_record,
 *   dc_event_synchronize, dc_event_query, dc_event_elapsed_ms,
 *   dc_module_load, dc_module_load_file, dc_module_load_program,
 *   dc_module_compile_and_load, dc_module_get_function, dc_module_get_global,
 *   dc_module_function_count, dc_module_function_name, dc_library_load,
 *   dc_library_load_file, dc_library_function_count, dc_library_function_name,
 *   dc_library_get_function, dc_function_attribute,
 *   dc_function_get_info, dc_function_set_attribute,
 *   dc_function_set_cache_config, dc_occupancy_max_active_blocks,
 *   dc_occupancy_max_potential_block_size, dc_occupancy_max_active_clusters,
 *   dc_occupancy_available_dynamic_shared, dc_launch_config_1d,
 *   dc_launch_kernel, dc_launch_kernel_packed, dc_launch_create,
 *   dc_launch_set_config, dc_launch_enqueue, dc_launch_enqueue_batch, dc_graph_instantiate,
 *   dc_graph_upload, dc_graph_launch, dc_graph_update, dc_graph_create,
 *   dc_graph_add_kernel_node, dc_graph_add_copy_node, dc_graph_add_fill_node,
 *   dc_graph_add_host_node, dc_graph_add_event_record_node,
 *   dc_graph_add_event_wait_node, dc_graph_add_child_graph_node,
 *   dc_graph_add_alloc_node, dc_graph_add_free_node, dc_graph_add_copy_2d_node,
 *   dc_graph_add_copy_3d_node, dc_graph_set_copy_2d_node,
 *   dc_graph_add_dependency, dc_graph_clone, dc_graph_remove_node,
 *   dc_graph_write_dot, dc_graph_dot, dc_graph_set_kernel_node, dc_graph_set_copy_node,
 *   dc_graph_set_fill_node, dc_graph_set_host_node,
 *   dc_graph_add_conditional_node, dc_graph_conditional_body, dc_queue_create,
 *   dc_queue_enqueue, dc_queue_dequeue, dc_control_create,
 *   dc_control_wait_stopped, dc_stream_wait_value32, dc_stream_wait_value64,
 *   dc_stream_write_value32, dc_stream_write_value64, dc_stream_batch_mem_ops.
 *
 * Release functions cannot report a refusal: `fn` must not release the last
 * handle of a buffer, module, stream, event, graph or device (their driver
 * objects cannot be freed there). Calls not listed (getters, dc_compile,
 * dc_last_error_*) work inside `fn`.
 * Captured into a graph (dc_stream_begin_capture), `fn` runs at every launch
 * of the graph under the same rules. The driver's thread is left as `fn`
 * found it: where `fn` ran managed code under Mono, which attached the thread,
 * the library detaches it again, or Mono would wait for the thread at exit.
 * Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT (NULL fn),
 * DC_ERROR_CONTEXT_LOST.
 */
DC_API dc_status dc_stream_add_callback(dc_stream stream, dc_host_fn fn,
                                        DC_USER_DATA DC_NULLABLE void* user_data);

/** The raw CUstream (NULL-equivalent values for the default streams: CU_STREAM_LEGACY
 *  is 0x1, CU_STREAM_PER_THREAD 0x2). Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT,
 *  DC_ERROR_CONTEXT_LOST (the stream died with dc_device_reset). */
DC_API dc_status dc_stream_native(dc_stream stream, DC_OUT DC_NATIVE DC_LIFETIME(stream) void** cu_stream);

/** A new handle to the stream's device. Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT. */
DC_API dc_status dc_stream_device(dc_stream stream, DC_OUT DC_OWNED dc_device* device);

/* Stream memory operations: a stream waits for a value in memory, or writes
 * one, in stream order, without the host (cuStreamWaitValue32/64,
 * cuStreamWriteValue32/64, cuStreamBatchMemOp). The memory is a buffer's:
 * device memory allocated with DC_ALLOC_NO_POOL (cuMemAlloc), or pinned /
 * registered host memory mapped into the device (DC_ALLOC_DEVICE_MAPPED), so
 * that the host or a resident kernel can release a stream by writing a flag.
 * The driver refuses memory of the stream-ordered pool (dc_buffer_alloc's
 * default) and managed memory: dccuda refuses them first, with
 * DC_ERROR_NOT_SUPPORTED naming the buffer. The value lies at `offset`,
 * which must be a multiple of its size (4 or 8 bytes) and inside the buffer.
 * Recorded into a graph when the stream captures. */

/* How a wait compares the value in memory with `value`. */
DC_CONSTANTS(dc_wait_compare, enumeration, int32_t)
/** Until (int32_t)(*p - value) >= 0 (int64_t for 64 bits): greater or equal, wrapping. */
#define DC_COMPARE_GEQ  1
/** Until *p == value. */
#define DC_COMPARE_EQ   2
/** Until (*p & value) != 0. */
#define DC_COMPARE_AND  3
/** Until ~(*p | value) != 0. */
#define DC_COMPARE_NOR  4

/* Flags of the stream memory operations. */
DC_CONSTANTS(dc_value_flags, flags, uint32_t)
/** A wait: flush the device's outstanding remote writes after it (CU_STREAM_WAIT_VALUE_FLUSH;
 *  the device must support it, else DC_ERROR_NOT_SUPPORTED from the driver). */
#define DC_VALUE_FLUSH              0x1u
/** A write: earlier writes may land after it (CU_STREAM_WRITE_VALUE_NO_MEMORY_BARRIER). A
 *  permission, not a promise: the driver's current entry points refuse the flag, so dccuda
 *  keeps the barrier (the write is then ordered after earlier writes, as without the flag). */
#define DC_VALUE_NO_MEMORY_BARRIER  0x2u

/**
 * Make later work on `stream` wait until the 32-bit value at `offset` in
 * `buffer` compares with `value` as `compare` says (DC_COMPARE_*). Returns at
 * once; the stream waits. Flags: DC_VALUE_FLUSH.
 * Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT (compare not
 * DC_COMPARE_*, unknown flags, offset not a multiple of 4, a buffer of another
 * device that the stream's device cannot reach), DC_ERROR_OUT_OF_RANGE (the
 * value, offset + 4, past the buffer), DC_ERROR_NOT_SUPPORTED (host memory without a device
 * mapping, memory of the stream-ordered pool, managed memory: the driver refuses these),
 * DC_ERROR_INVALID_STATE (called
 * from a host function), DC_ERROR_CONTEXT_LOST.
 */
DC_API dc_status dc_stream_wait_value32(dc_stream stream, dc_buffer buffer, uint64_t offset, uint32_t value,
                                        DC_FAMILY(dc_wait_compare) int32_t compare,
                                        DC_FAMILY(dc_value_flags) uint32_t flags);

/** As dc_stream_wait_value32, for the 64-bit value at `offset` (a multiple of 8).
 *  Errors: as dc_stream_wait_value32. */
DC_API dc_status dc_stream_wait_value64(dc_stream stream, dc_buffer buffer, uint64_t offset, uint64_t value,
                                        DC_FAMILY(dc_wait_compare) int32_t compare,
                                        DC_FAMILY(dc_value_flags) uint32_t flags);

/**
 * Write the 32-bit `value` at `offset` in `buffer` in stream order (after
 * earlier work on `stream`, with a memory barrier before it).
 * Flags: DC_VALUE_NO_MEMORY_BARRIER (see there).
 * Errors: as dc_stream_wait_value32 (no compare).
 */
DC_API dc_status dc_stream_write_value32(dc_stream stream, dc_buffer buffer, uint64_t offset, uint32_t value,
                                         DC_FAMILY(dc_value_flags) uint32_t flags);

/** As dc_stream_write_value32, for a 64-bit value at `offset` (a multiple of 8).
 *  Errors: as dc_stream_wait_value32. */
DC_API dc_status dc_stream_write_value64(dc_stream stream, dc_buffer buffer, uint64_t offset, uint64_t value,
                                         DC_FAMILY(dc_value_flags) uint32_t flags);

/* dc_stream_mem_op.kind */
DC_CONSTANTS(dc_mem_op_kind, enumeration, uint32_t)
#define DC_MEM_OP_WAIT32   1
#define DC_MEM_OP_WAIT64   2
#define DC_MEM_OP_WRITE32  3
#define DC_MEM_OP_WRITE64  4

/** One operation of dc_stream_batch_mem_ops: as the single calls take it. */
typedef struct dc_stream_mem_op {
  DC_FAMILY(dc_mem_op_kind) uint32_t kind;      /**< DC_MEM_OP_* */
  DC_FAMILY(dc_wait_compare) int32_t compare;   /**< waits: DC_COMPARE_*; writes: 0 */
  DC_FAMILY(dc_value_flags) uint32_t flags;     /**< as the single call takes */
  uint32_t reserved;                            /**< 0 */
  dc_buffer buffer;
  uint64_t offset;
  uint64_t value;                               /**< 32-bit kinds: the low 32 bits (the rest must be 0) */
} dc_stream_mem_op;

/**
 * Enqueue `count` (1 to 256) memory operations on `stream` in one driver call
 * (cuStreamBatchMemOp), in order. Every operation is checked first (as the
 * single calls check theirs); on any error nothing is enqueued and the message
 * names the operation's index.
 * Errors: as dc_stream_wait_value32, DC_ERROR_INVALID_ARGUMENT (NULL ops, count
 * 0 or above 256, kind not DC_MEM_OP_*, reserved not 0, a 32-bit value above
 * 2^32 - 1).
 */
DC_API dc_status dc_stream_batch_mem_ops(dc_stream stream, DC_IN DC_ARRAY(count) const dc_stream_mem_op* ops,
                                         uint32_t count);

DC_CONSTANTS(dc_event_flags, flags, uint32_t)
/** dc_event_create flags. */
#define DC_EVENT_DISABLE_TIMING  0x1u  /**< cheaper; dc_event_elapsed_ms is refused */
#define DC_EVENT_BLOCKING_SYNC   0x2u  /**< dc_event_synchronize sleeps instead of spinning */
/** Shareable with other processes (dc_event_export_ipc); needs DC_EVENT_DISABLE_TIMING too. */
#define DC_EVENT_INTERPROCESS    0x4u

/** Create an event on `device` (DC_EVENT_INTERPROCESS only with DC_EVENT_DISABLE_TIMING).
 *  Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT,
 *  DC_ERROR_OUT_OF_MEMORY, DC_ERROR_CONTEXT_LOST. */
DC_API dc_status dc_event_create(dc_device device, DC_FAMILY(dc_event_flags) uint32_t flags,
                                 DC_OUT DC_OWNED dc_event* event);

/** Release an event. NULL is ignored. */
DC_API void dc_event_release(DC_OWNED DC_NULLABLE dc_event event);

/** Record the event at the current end of `stream` (a stream of the event's device).
 *  Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT (other device), DC_ERROR_CONTEXT_LOST. */
DC_API dc_status dc_event_record(dc_event event, dc_stream stream);

/** Wait until the work before the event's last record has completed (returns at
 *  once for an event never recorded). Errors: as dc_stream_synchronize. */
DC_API dc_status dc_event_synchronize(dc_event event);

/** DC_SUCCESS if the recorded work has completed, DC_NOT_READY if not.
 *  Errors: as dc_stream_synchronize; DC_NOT_READY is the answer "not yet", not a failure. */
DC_API dc_status dc_event_query(dc_event event);

/**
 * Milliseconds between two recorded, completed events of one device
 * (resolution about 0.5 us). DC_NOT_READY is never returned: an event that was
 * not recorded or has not completed is DC_ERROR_INVALID_STATE.
 * Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT (NULL out, an event
 * created with DC_EVENT_DISABLE_TIMING, events of two devices),
 * DC_ERROR_INVALID_STATE, DC_ERROR_CONTEXT_LOST.
 */
DC_API dc_status dc_event_elapsed_ms(dc_event start, dc_event end, DC_OUT float* milliseconds);

/** The raw CUevent. Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT,
 *  DC_ERROR_CONTEXT_LOST (the event died with dc_device_reset). */
DC_API dc_status dc_event_native(dc_event event, DC_OUT DC_NATIVE DC_LIFETIME(event) void** cu_event);

/* =========================================================================
 * Runtime compilation (NVRTC) and the kernel cache
 * ========================================================================= */

/* dc_compile_options.output */
DC_CONSTANTS(dc_output_kind, enumeration, int32_t)
#define DC_OUTPUT_CUBIN   0   /**< machine code for one architecture (the default) */
#define DC_OUTPUT_PTX     1   /**< PTX, JIT-compiled by the driver at load */
#define DC_OUTPUT_LTOIR   2   /**< LTO-IR for link-time optimisation (-dlto) */

/* dc_compile_options.flags */
DC_CONSTANTS(dc_compile_flags, flags, uint32_t)
#define DC_COMPILE_FAST_MATH       0x01u  /**< --use_fast_math */
#define DC_COMPILE_LINE_INFO       0x02u  /**< --generate-line-info */
#define DC_COMPILE_DEVICE_DEBUG    0x04u  /**< --device-debug (-G) */
#define DC_COMPILE_RELOCATABLE     0x08u  /**< --relocatable-device-code=true */
#define DC_COMPILE_ARCH_SPECIFIC   0x10u  /**< sm_XYa: architecture-specific features (Hopper wgmma...) */
#define DC_COMPILE_NO_CACHE        0x20u  /**< neither read nor write the kernel cache */
/** Add the installed CUDA toolkit's include directories (<root>/include and,
 *  where it exists, <root>/include/cccl), so that <cuda/std/...>,
 *  <cuda/atomic> and <cooperative_groups.h> resolve. The toolkit is looked for
 *  as NVRTC is: $CUDA_PATH, $CUDA_HOME, the toolkit of the NVRTC named by
 *  DCCUDA_NVRTC_LIBRARY (or already loaded), /usr/local/cuda; the first with
 *  cooperative_groups.h wins. Not found: DC_ERROR_NOT_FOUND naming every
 *  place tried. The cache key holds these folders (and NVRTC's version), not
 *  the toolkit headers' contents. */
#define DC_COMPILE_TOOLKIT_HEADERS 0x40u

typedef struct dc_compile_options {
  uint32_t struct_size;          /**< sizeof(dc_compile_options) */
  DC_FAMILY(dc_output_kind) int32_t output;   /**< DC_OUTPUT_* */
  /** Target architecture as 10 * major + minor (90 = sm_90). 0: the device's own
   *  when a device is given, else an error for CUBIN and NVRTC's default for PTX. */
  int32_t  arch;
  DC_FAMILY(dc_compile_flags) uint32_t flags; /**< DC_COMPILE_* */
  int32_t  max_registers;        /**< --maxrregcount; 0 = no limit */
  uint32_t num_options;
  uint32_t num_defines;
  uint32_t num_include_paths;
  uint32_t num_headers;
  uint32_t num_name_expressions;
  DC_NULLABLE const char* std;   /**< "c++17", "c++20"...; NULL = NVRTC's default */
  DC_ARRAY(num_options) const char* const* options;    /**< raw NVRTC options, passed as they are */
  DC_ARRAY(num_defines) const char* const* defines;    /**< "NAME" or "NAME=VALUE" */
  DC_ARRAY(num_include_paths) const char* const* include_paths;
  DC_ARRAY(num_headers) const char* const* header_names;    /**< in-memory headers: the name used in #include... */
  DC_ARRAY(num_headers) const char* const* header_sources;  /**< ...and its text */
  /** Expressions whose lowered (mangled) names you need, such as
   *  "scale<float>" or "&scale<double>": see dc_program_lowered_name(). */
  DC_ARRAY(num_name_expressions) const char* const* name_expressions;
} dc_compile_options;

#define DC_COMPILE_OPTIONS_INIT { (uint32_t)sizeof(dc_compile_options), DC_OUTPUT_CUBIN, 0, 0u, 0, \
  0u, 0u, 0u, 0u, 0u, NULL, NULL, NULL, NULL, NULL, NULL, NULL }

/**
 * The GPU architectures the loaded NVRTC can target (nvrtcGetSupportedArchs),
 * as 10 * major + minor, ascending (e.g. 75, 80, 86, 87, 89, 90, ... for NVRTC
 * 13), written to `archs` (`capacity` entries); `*count` receives how many
 * there are. Ask for the count first with archs NULL and capacity 0
 * (DC_SUCCESS, nothing written), then pass an array of *count entries. When
 * `capacity` is too small nothing is written to `archs` or `*count` (0) and
 * the status is DC_ERROR_OUT_OF_RANGE, its message giving the count needed.
 * Loads NVRTC if needed. Any thread.
 * Errors: DC_ERROR_INVALID_ARGUMENT (NULL count, NULL archs with a nonzero
 * capacity), DC_ERROR_OUT_OF_RANGE (capacity too small), DC_ERROR_NO_COMPILER
 * (no NVRTC), DC_ERROR_NOT_SUPPORTED (an NVRTC without the query, before 11.2).
 */
DC_API dc_status dc_nvrtc_supported_archs(DC_OUT DC_NULLABLE DC_ARRAY(capacity) int32_t* archs, uint32_t capacity,
                                          DC_OUT uint32_t* count);

/**
 * Compile CUDA C++ `source` with NVRTC. `program_name` names the source in
 * diagnostics (NULL: "dccuda.cu"). `options` may be NULL (CUBIN for `device`).
 * `device` may be NULL; it supplies the architecture when options->arch is 0.
 * No GPU and no driver are needed when the architecture is given. A device
 * newer than the loaded NVRTC can target gets the newest code it can run (a
 * CUBIN of its major version, else PTX the driver JIT-compiles).
 *
 * Results are cached in memory and on disk, keyed by SHA-256 of the source,
 * headers, options, name expressions, architecture, NVRTC and driver versions,
 * and the contents of the header files the source includes from its include
 * paths (followed recursively; an #include named by a macro is not): an
 * identical compile returns the cached output (dc_program_cache_source) and
 * editing an included header compiles again. A cache hit does not load NVRTC
 * when an earlier process recorded which NVRTC it uses. Entries that are
 * damaged or truncated on disk are ignored and replaced; failing to write the
 * disk cache never fails a compile.
 *
 * When `device` is given and the output is PTX, the PTX must be loadable by
 * the installed driver: PTX of a newer ISA than the driver accepts (NVRTC
 * newer than the driver) is refused here, with both versions in the message,
 * instead of failing at load. Without a device the PTX is returned as it is
 * (it may be meant for another machine).
 *
 * Returns a new program handle holding the output, the log and the lowered
 * names. On DC_ERROR_COMPILE the first error line is in the last-error message
 * and the whole log in dc_last_error_detail().
 * Errors: DC_ERROR_INVALID_ARGUMENT (NULL source or out, bad options, CUBIN with
 * no architecture, an option NVRTC rejects: its log is in dc_last_error_detail),
 * DC_ERROR_NO_COMPILER, DC_ERROR_COMPILE, DC_ERROR_NOT_SUPPORTED (PTX newer than
 * the installed driver can load; an architecture NVRTC does not know),
 * DC_ERROR_INVALID_HANDLE (a non-NULL device that is not valid),
 * DC_ERROR_NOT_FOUND (DC_COMPILE_TOOLKIT_HEADERS and no toolkit headers).
 */
DC_API dc_status dc_compile(DC_IN const char* source, DC_IN DC_NULLABLE const char* program_name,
                            DC_IN DC_NULLABLE const dc_compile_options* options, DC_NULLABLE dc_device device,
                            DC_OUT DC_OWNED dc_program* program);

/** Release a program. NULL is ignored. */
DC_API void dc_program_release(DC_OWNED DC_NULLABLE dc_program program);

/**
 * The compiled image: `kind` gets DC_OUTPUT_*, `data` a pointer to the bytes
 * (PTX is NUL-terminated; `size` counts the NUL), valid while the program lives.
 * Any out-pointer may be NULL. Errors: DC_ERROR_INVALID_HANDLE.
 */
DC_API dc_status dc_program_output(dc_program program,
                                   DC_OUT DC_NULLABLE DC_FAMILY(dc_output_kind) int32_t* kind,
                                   DC_OUT DC_NULLABLE DC_ARRAY(size) DC_LIFETIME(program) const void** data,
                                   DC_OUT DC_NULLABLE uint64_t* size);

/** The compiler log (warnings), "" if empty; valid while the program lives. For a
 *  cached program it is the log of the original compile.
 *  Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT. */
DC_API dc_status dc_program_log(dc_program program, DC_OUT DC_LIFETIME(program) const char** log);

/**
 * The lowered (mangled) name of a name expression given at compile time, e.g.
 * "_Z5scaleIfEvPT_S0_i" for "scale<float>"; pass it to dc_module_get_function.
 * Valid while the program lives. Errors: DC_ERROR_INVALID_HANDLE,
 * DC_ERROR_INVALID_ARGUMENT, DC_ERROR_NOT_FOUND (not one of the expressions).
 */
DC_API dc_status dc_program_lowered_name(dc_program program, DC_IN const char* name_expression,
                                         DC_OUT DC_LIFETIME(program) const char** lowered_name);

/* dc_program_cache_source() answers one of these. */
DC_CONSTANTS(dc_cache_source, enumeration, int32_t)
#define DC_CACHE_MISS    0   /**< compiled by NVRTC in this call */
#define DC_CACHE_MEMORY  1   /**< found in the in-process cache */
#define DC_CACHE_DISK    2   /**< found in the on-disk cache */

/** Where the program's output came from (DC_CACHE_*). Errors: DC_ERROR_INVALID_HANDLE,
 *  DC_ERROR_INVALID_ARGUMENT. */
DC_API dc_status dc_program_cache_source(dc_program program,
                                         DC_OUT DC_FAMILY(dc_cache_source) int32_t* source);

DC_CONSTANTS(dc_cache_clear_flags, flags, uint32_t)
#define DC_CACHE_CLEAR_MEMORY  0x1u
#define DC_CACHE_CLEAR_DISK    0x2u

/** Empty the in-process cache and/or delete the on-disk cache's entries (only
 *  the cache's own files: other files in the directory are left alone).
 *  Errors: DC_ERROR_INVALID_ARGUMENT (no or unknown flags), DC_ERROR_IO. */
DC_API dc_status dc_cache_clear(DC_FAMILY(dc_cache_clear_flags) uint32_t flags);

/** The on-disk cache directory in use, or "" when the disk cache is disabled or
 *  its directory was refused as unsafe (dc_config_warnings says why; see
 *  "Trust" in the configuration table). Static for the life of the process.
 *  Errors: DC_ERROR_INVALID_ARGUMENT. */
DC_API dc_status dc_cache_directory(DC_OUT DC_LIFETIME(static) const char** path);

/* =========================================================================
 * Linking device code (nvJitLink, else the driver's cuLink)
 * ========================================================================= */

/* dc_link_input.kind */
DC_CONSTANTS(dc_link_input_kind, enumeration, int32_t)
#define DC_LINK_INPUT_CUBIN           0  /**< machine code (relocatable, -rdc, to be linked with others) */
#define DC_LINK_INPUT_PTX             1  /**< PTX text */
#define DC_LINK_INPUT_LTOIR           2  /**< LTO-IR (DC_OUTPUT_LTOIR): needs nvJitLink */
#define DC_LINK_INPUT_FATBIN          3  /**< a fatbin */
#define DC_LINK_INPUT_OBJECT          4  /**< a host object file holding device code (nvcc -rdc -c) */
#define DC_LINK_INPUT_LIBRARY         5  /**< an archive of such objects (libcudadevrt.a) */
#define DC_LINK_INPUT_PROGRAM         6  /**< a dc_program's output (CUBIN, PTX or LTO-IR) */
#define DC_LINK_INPUT_DEVICE_RUNTIME  7  /**< the toolkit's device runtime, libcudadevrt.a (dynamic parallelism) */

/**
 * One input of dc_link. Exactly one source of bytes: `program` (kind
 * DC_LINK_INPUT_PROGRAM), `data` and `size` (bytes in memory), or `path` (a
 * regular file of at most 2 GiB, read during the call). For
 * DC_LINK_INPUT_DEVICE_RUNTIME `path` may name the archive; NULL looks for it
 * in the CUDA toolkit: $CUDA_PATH, $CUDA_HOME, the toolkit NVRTC was loaded
 * from, /usr/local/cuda (lib64/libcudadevrt.a; lib\x64\cudadevrt.lib on
 * Windows). All of it is borrowed for the call only.
 */
typedef struct dc_link_input {
  DC_FAMILY(dc_link_input_kind) int32_t kind;  /**< DC_LINK_INPUT_* */
  uint32_t reserved;                           /**< must be 0 */
  DC_NULLABLE dc_program program;              /**< DC_LINK_INPUT_PROGRAM: the program; else NULL */
  DC_NULLABLE DC_ARRAY(size) const void* data; /**< the input's bytes, or NULL (program or path) */
  uint64_t size;                               /**< bytes at `data`; 0 without data */
  DC_NULLABLE const char* path;                /**< a file holding the input, or NULL */
  DC_NULLABLE const char* name;                /**< names the input in logs; NULL: the path, else "input <i>" */
} dc_link_input;

/* dc_link_options.flags */
DC_CONSTANTS(dc_link_flags, flags, uint32_t)
#define DC_LINK_LTO         0x01u  /**< link-time optimisation (-lto); implied by an LTO-IR input */
#define DC_LINK_DEBUG       0x02u  /**< debug information (-g) */
#define DC_LINK_LINE_INFO   0x04u  /**< line information (-lineinfo) */
#define DC_LINK_USE_DRIVER  0x08u  /**< link with the driver's cuLink even when nvJitLink is there */
#define DC_LINK_NO_CACHE    0x10u  /**< neither read nor write the kernel cache */

typedef struct dc_link_options {
  uint32_t struct_size;          /**< sizeof(dc_link_options) */
  /** Target architecture as 10 * major + minor (90 = sm_90). 0: the device's own
   *  (then a device is needed). */
  int32_t  arch;
  DC_FAMILY(dc_link_flags) uint32_t flags;   /**< DC_LINK_* */
  /** -O: 0..3 (nvJitLink 13 takes only 0 and 3, and says so); -1 = the linker's default (3). */
  int32_t  optimization_level;
  int32_t  max_registers;        /**< -maxrregcount; 0 = no limit */
  uint32_t num_options;
  /** Raw nvJitLink options ("-ftz=true"...), passed as they are; refused by
   *  the driver's cuLink (DC_ERROR_NOT_SUPPORTED). */
  DC_ARRAY(num_options) const char* const* options;
} dc_link_options;

#define DC_LINK_OPTIONS_INIT { (uint32_t)sizeof(dc_link_options), 0, 0u, -1, 0, 0u, NULL }

/**
 * Link device code into one CUBIN that dc_module_load_program (or
 * dc_module_load) takes: relocatable CUBINs and PTX of several programs
 * compiled with DC_COMPILE_RELOCATABLE, LTO-IR (DC_OUTPUT_LTOIR), fatbins,
 * host objects and archives such as the device runtime (dynamic
 * parallelism), in the order given. `options` may be NULL (the defaults);
 * `device` may be NULL when options->arch is given and nvJitLink is present.
 *
 * The linker is nvJitLink, loaded at the first link (DCCUDA_NVJITLINK_LIBRARY,
 * else libnvJitLink.so.13, then .12 (nvJitLink_130_0.dll, nvJitLink_120_0.dll),
 * looked for where NVRTC is: beside libdccuda first, then the system's search,
 * then the toolkit's folders; see the configuration table). Without it, or
 * with DC_LINK_USE_DRIVER, the driver's cuLink links in `device`'s context,
 * for the device's own architecture, every input but LTO-IR.
 *
 * Returns a new program (see dc_program_output: kind DC_OUTPUT_CUBIN) whose
 * log (dc_program_log) is the linker's info log. Linked results are cached in
 * memory and on disk as compiled ones are (dc_program_cache_source), keyed by
 * the bytes of every input, every option, the architecture, the linker and its
 * version (nvJitLink's, or the driver's for cuLink). On DC_ERROR_COMPILE the
 * first error line is in the last-error message and the linker's whole error
 * log in dc_last_error_detail().
 *
 * Thread-safe.
 * Errors: DC_ERROR_INVALID_ARGUMENT (NULL inputs or out, count 0, a kind not
 * DC_LINK_INPUT_*, reserved not 0, not exactly one source of bytes, size 0,
 * bad options, no architecture and no device, an architecture other than the
 * device's for cuLink, an option the linker rejects), DC_ERROR_INVALID_HANDLE
 * (a device or an input's program that is not valid), DC_ERROR_INVALID_IMAGE
 * (bytes that are not of the kind given, an empty file), DC_ERROR_NOT_FOUND (no
 * such file; no device runtime in the toolkit: the message names the places
 * tried), DC_ERROR_IO (a file that cannot be read), DC_ERROR_NOT_SUPPORTED (no
 * nvJitLink and an input or option only it takes, LTO-IR above all, or no
 * device to link with the driver: the message names the library and how to
 * provide it), DC_ERROR_COMPILE (the link failed: an undefined symbol...),
 * DC_ERROR_DRIVER (the driver's cuLink failed otherwise).
 */
DC_API dc_status dc_link(DC_IN DC_ARRAY(count) const dc_link_input* inputs, uint32_t count,
                         DC_IN DC_NULLABLE const dc_link_options* options, DC_NULLABLE dc_device device,
                         DC_OUT DC_OWNED dc_program* linked);

/**
 * The version of the nvJitLink dc_link uses (13, 0), loading it if needed;
 * 0, 0 for one that cannot say (before CUDA 12.3).
 * Errors: DC_ERROR_INVALID_ARGUMENT (NULL out), DC_ERROR_NOT_SUPPORTED (no
 * nvJitLink: the message says what was tried and how to provide it).
 */
DC_API dc_status dc_nvjitlink_version(DC_OUT int32_t* major, DC_OUT int32_t* minor);

/* =========================================================================
 * Modules and functions
 * ========================================================================= */

/* dc_module_options.flags */
DC_CONSTANTS(dc_jit_flags, flags, uint32_t)
#define DC_JIT_LINE_INFO   0x1u   /**< CU_JIT_GENERATE_LINE_INFO */
#define DC_JIT_DEBUG       0x2u   /**< CU_JIT_GENERATE_DEBUG_INFO */

typedef struct dc_module_options {
  uint32_t struct_size;          /**< sizeof(dc_module_options) */
  DC_FAMILY(dc_jit_flags) uint32_t flags;     /**< DC_JIT_* */
  int32_t  optimization_level;   /**< PTX JIT: 0..4; -1 = the driver's default (4) */
  int32_t  max_registers;        /**< PTX JIT: 0 = no limit */
  uint32_t log_size;             /**< bytes of JIT info/error log kept; 0 = 16 KiB */
  uint32_t reserved;             /**< must be 0 */
} dc_module_options;

#define DC_MODULE_OPTIONS_INIT { (uint32_t)sizeof(dc_module_options), 0u, -1, 0, 0u, 0u }

/**
 * Load a module from an image in memory: PTX (text; NUL-terminated or not),
 * CUBIN (ELF) or fatbin. PTX is JIT-compiled by the driver. `options` may be
 * NULL. The image is copied; the caller keeps ownership. A CUBIN or fatbin is
 * checked against `size` before the driver sees it (the driver is never told
 * the size), so a truncated image is an error, never a read past its end.
 * Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT (NULL image, size 0),
 * DC_ERROR_INVALID_IMAGE (the JIT error log is in dc_last_error_detail(); PTX
 * too new for the driver is named as such), DC_ERROR_OUT_OF_MEMORY, DC_ERROR_CONTEXT_LOST.
 */
DC_API dc_status dc_module_load(dc_device device, DC_IN DC_ARRAY(size) const void* image, uint64_t size,
                                DC_IN DC_NULLABLE const dc_module_options* options,
                                DC_OUT DC_OWNED dc_module* module);

/** As dc_module_load, from a file (PTX, CUBIN or fatbin): a regular file (a
 *  symbolic link to one is followed) of at most 2 GiB. Errors: as
 *  dc_module_load, DC_ERROR_NOT_FOUND (no such file), DC_ERROR_IO (a
 *  directory, device, pipe or socket: refused without reading it; unreadable),
 *  DC_ERROR_INVALID_IMAGE (empty, or "file too large": refused unread). */
DC_API dc_status dc_module_load_file(dc_device device, DC_IN const char* path,
                                     DC_IN DC_NULLABLE const dc_module_options* options,
                                     DC_OUT DC_OWNED dc_module* module);

/** As dc_module_load, from a compiled program's output (not LTO-IR).
 *  Errors: as dc_module_load (DC_ERROR_INVALID_ARGUMENT for LTO-IR). */
DC_API dc_status dc_module_load_program(dc_device device, dc_program program,
                                        DC_IN DC_NULLABLE const dc_module_options* options,
                                        DC_OUT DC_OWNED dc_module* module);

/**
 * Compile `source` for `device` (through the kernel cache) and load it: the one
 * call from CUDA C++ to a module. Arguments as dc_compile and dc_module_load;
 * options->output must be CUBIN or PTX.
 * Errors: as dc_compile, as dc_module_load.
 */
DC_API dc_status dc_module_compile_and_load(dc_device device, DC_IN const char* source,
                                            DC_IN DC_NULLABLE const char* program_name,
                                            DC_IN DC_NULLABLE const dc_compile_options* options,
                                            DC_OUT DC_OWNED dc_module* module);

/** Release a module. Its functions keep it loaded until they are released. NULL is ignored. */
DC_API void dc_module_release(DC_OWNED DC_NULLABLE dc_module module);

/** The JIT info log of the load (for PTX, ptxas's report: registers, shared
 *  and local memory of each kernel; "" for CUBIN or an empty log); valid while
 *  the module lives. Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT. */
DC_API dc_status dc_module_jit_log(dc_module module, DC_OUT DC_LIFETIME(module) const char** log);

/**
 * Look up a kernel by its (mangled, for C++) name. A name that is not there is
 * DC_ERROR_NOT_FOUND, and the message lists the kernels the module has.
 * Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT, DC_ERROR_NOT_FOUND,
 * DC_ERROR_CONTEXT_LOST.
 */
DC_API dc_status dc_module_get_function(dc_module module, DC_IN const char* name,
                                        DC_OUT DC_OWNED dc_function* function);

/** The number of kernels in the module. Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT. */
DC_API dc_status dc_module_function_count(dc_module module, DC_OUT uint32_t* count);

/** The name of kernel `index` (0 .. count-1), valid while the module lives.
 *  Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT, DC_ERROR_OUT_OF_RANGE. */
DC_API dc_status dc_module_function_name(dc_module module, uint32_t index,
                                         DC_OUT DC_LIFETIME(module) const char** name);

/**
 * A module's __device__ / __constant__ variable as a non-owning buffer
 * (DC_BUFFER_MODULE_GLOBAL) of the variable's size; it keeps the module alive and
 * can be read, written and passed to kernels like any device buffer.
 * Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT, DC_ERROR_NOT_FOUND.
 */
DC_API dc_status dc_module_get_global(dc_module module, DC_IN const char* name,
                                      DC_OUT DC_OWNED dc_buffer* buffer);

/* -------------------------------------------------------------------------
 * Context-independent libraries: one image loaded once, kernels on every device
 * ------------------------------------------------------------------------- */

/**
 * A dc_library is code loaded once for the whole process (the driver's
 * cuLibrary, CUDA 12.0+) rather than into one device's context as a dc_module
 * is: dc_library_get_function hands out a dc_function for any device, and the
 * driver loads the code into that device's context on first use. Multi-GPU
 * code loads an image once and asks for the function per device; every launch
 * path (dc_launch_kernel, dc_launch_create, graphs, occupancy) takes that
 * function as it takes one of a module. A dc_module keeps its meaning (code
 * in one device's context) and is unaffected.
 *
 * Load from an image in memory: PTX, CUBIN or fatbin, checked as dc_module_load
 * checks it (kind, bounds) before the driver sees it; the image is copied and
 * the caller keeps ownership. `options` may be NULL; its JIT settings apply to
 * PTX as in dc_module_load. Needs no device: the driver is initialised if it
 * was not. Any thread.
 * Errors: DC_ERROR_INVALID_ARGUMENT (NULL image or out, size 0, bad options),
 * DC_ERROR_INVALID_IMAGE (the JIT error log, if any, is in dc_last_error_detail()),
 * DC_ERROR_NOT_SUPPORTED (a driver older than CUDA 12.0 has no cuLibrary;
 * use dc_module_load per device), DC_ERROR_NO_DRIVER, DC_ERROR_OUT_OF_MEMORY.
 */
DC_API dc_status dc_library_load(DC_IN DC_ARRAY(size) const void* image, uint64_t size,
                                 DC_IN DC_NULLABLE const dc_module_options* options,
                                 DC_OUT DC_OWNED dc_library* library);

/** As dc_library_load, from a file (PTX, CUBIN or fatbin) read as
 *  dc_module_load_file reads it. Errors: as dc_library_load, DC_ERROR_NOT_FOUND
 *  (no such file), DC_ERROR_IO (a file that cannot be read). */
DC_API dc_status dc_library_load_file(DC_IN const char* path, DC_IN DC_NULLABLE const dc_module_options* options,
                                      DC_OUT DC_OWNED dc_library* library);

/** Release a library. Functions got from it keep it loaded (on every device
 *  they were got for) until they are released. NULL is ignored. */
DC_API void dc_library_release(DC_OWNED DC_NULLABLE dc_library library);

/** The number of kernels in the library: from the driver (CUDA 12.4+), else
 *  read from the image at load. Any thread.
 *  Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT. */
DC_API dc_status dc_library_function_count(dc_library library, DC_OUT uint32_t* count);

/** The name of kernel `index` (0 .. count-1), valid while the library lives.
 *  Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT, DC_ERROR_OUT_OF_RANGE. */
DC_API dc_status dc_library_function_name(dc_library library, uint32_t index,
                                          DC_OUT DC_LIFETIME(library) const char** name);

/**
 * The kernel `name` (mangled, for C++) of the library as a dc_function on
 * `device` (cuLibraryGetKernel, then cuKernelGetFunction in the device's
 * context, which loads the code there if it was not yet). The function keeps
 * the library and the device alive; it is used exactly as a function of a
 * module. Asking again for the same device and name gives another handle to
 * the same kernel. Any thread.
 * Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT (NULL or empty
 * name), DC_ERROR_NOT_FOUND (the message lists the kernels the library has),
 * DC_ERROR_INVALID_IMAGE (no code in the library the device can run), DC_ERROR_CONTEXT_LOST.
 */
DC_API dc_status dc_library_get_function(dc_library library, dc_device device, DC_IN const char* name,
                                         DC_OUT DC_OWNED dc_function* function);

/** Release a function handle. NULL is ignored. */
DC_API void dc_function_release(DC_OWNED DC_NULLABLE dc_function function);

/** The kernel's name as the module knows it; valid while the function lives.
 *  Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT. */
DC_API dc_status dc_function_name(dc_function function, DC_OUT DC_LIFETIME(function) const char** name);

typedef struct dc_function_info {
  uint32_t struct_size;                 /**< sizeof(dc_function_info) */
  int32_t  num_registers;
  int32_t  max_threads_per_block;
  int32_t  static_shared_bytes;
  int32_t  max_dynamic_shared_bytes;
  int32_t  local_bytes;                 /**< per thread */
  int32_t  const_bytes;
  int32_t  ptx_version;                 /**< 10 * major + minor */
  int32_t  binary_version;              /**< 10 * major + minor */
  /** Number of kernel parameters, or -1 when unknown (cuFuncGetParamInfo needs
   *  driver 12.4; older drivers get the count from the image where it says). */
  int32_t  num_params;
  uint32_t params_bytes;                /**< size of the packed parameter block; 0 if unknown */
} dc_function_info;

#define DC_FUNCTION_INFO_INIT { (uint32_t)sizeof(dc_function_info), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0u }

/** The kernel's attributes. Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT,
 *  DC_ERROR_CONTEXT_LOST. */
DC_API dc_status dc_function_get_info(dc_function function, DC_INOUT dc_function_info* info);

/** Any CUfunction_attribute, passed through (the numeric value of cuda.h's
 *  CU_FUNC_ATTRIBUTE_*). Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT. */
DC_API dc_status dc_function_attribute(dc_function function, DC_NATIVE int32_t attribute,
                                       DC_OUT int32_t* value);

/**
 * Set a CUfunction_attribute (e.g. CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8
 * to opt in to more than 48 KiB of dynamic shared memory,
 * CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT = 9). Prepared launches made
 * afterwards see the new limits. Errors: DC_ERROR_INVALID_HANDLE,
 * DC_ERROR_INVALID_ARGUMENT (a value the device does not allow, with the limit).
 */
DC_API dc_status dc_function_set_attribute(dc_function function, DC_NATIVE int32_t attribute, int32_t value);

/* Cache preference: the values of cuda.h's CUfunc_cache. */
DC_CONSTANTS(dc_cache_preference, enumeration, int32_t)
#define DC_CACHE_PREFER_NONE    0
#define DC_CACHE_PREFER_SHARED  1
#define DC_CACHE_PREFER_L1      2
#define DC_CACHE_PREFER_EQUAL   3

/** Set the kernel's L1/shared memory preference (DC_CACHE_PREFER_*).
 *  Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT. */
DC_API dc_status dc_function_set_cache_config(dc_function function,
                                              DC_FAMILY(dc_cache_preference) int32_t preference);

/** The number of the kernel's parameters: from cuFuncGetParamInfo (driver
 *  12.4+), else read from the module's image (PTX parameter lists, CUBIN
 *  parameter records). Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT,
 *  DC_ERROR_NOT_SUPPORTED (neither the driver nor the image tells). */
DC_API dc_status dc_function_param_count(dc_function function, DC_OUT uint32_t* count);

/** Byte offset and size of parameter `index` in the packed parameter block.
 *  Errors: as dc_function_param_count, and DC_ERROR_OUT_OF_RANGE. */
DC_API dc_status dc_function_param_info(dc_function function, uint32_t index, DC_OUT uint64_t* offset,
                                        DC_OUT uint64_t* size);

/** The raw CUfunction, valid while the handle lives. Errors: DC_ERROR_INVALID_HANDLE,
 *  DC_ERROR_INVALID_ARGUMENT. */
DC_API dc_status dc_function_native(dc_function function,
                                    DC_OUT DC_NATIVE DC_LIFETIME(function) void** cu_function);

/* =========================================================================
 * Launching kernels
 *
 * Two ways: a one-shot launch (dc_launch_kernel, dc_launch_kernel_packed),
 * which checks everything on every call, and a prepared launch (dc_launch),
 * which checks when it is made or bound and is then enqueued at the cost of
 * the raw driver call.
 *
 * What is checked before the driver is asked: the configuration against the
 * device (dimensions, threads per block, clusters, flags) and the kernel's
 * dynamic shared memory limit as it is now; the arguments against the
 * kernel's parameters (count and every size, where the layout is known: see
 * dc_function_param_count); each buffer argument (alive, reachable from the
 * kernel's device, offset inside it). Limits only the kernel's resources set
 * (threads per block for its registers or __launch_bounds__, how many
 * cooperative blocks fit at once) are checked when a prepared launch is made,
 * and for a one-shot launch are left to the driver, whose refusal is
 * explained with the same numbers. Parameters are counted from 0 in messages,
 * as in dc_launch_set_arg and dc_function_param_info.
 *
 * Launches are asynchronous. A launch the driver refuses without harm (too
 * many resources, a cooperative grid that does not fit, a bad cluster) is
 * DC_ERROR_LAUNCH_FAILED and the device stays usable. A kernel that faults
 * (illegal address, trap) destroys the context: the next synchronisation
 * reports DC_ERROR_CONTEXT_LOST, and so does every later call on the device
 * until dc_device_reset() (see there for the recovery).
 *
 * Buffers passed to a launch are noted on its stream: releasing such a buffer
 * frees its memory in stream order, after the kernel (see dc_buffer_release).
 * ========================================================================= */

/* dc_launch_config.flags */
DC_CONSTANTS(dc_launch_flags, flags, uint32_t)
/** A cooperative launch (grid-wide sync allowed): every block of the grid must be
 *  resident at once (at most dc_occupancy_max_active_blocks x multiprocessors blocks). */
#define DC_LAUNCH_COOPERATIVE                 0x1u
/** Let the next kernel on the stream start early (programmatic dependent launch,
 *  CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION; compute capability 9.0+). */
#define DC_LAUNCH_PROGRAMMATIC_SERIALIZATION  0x2u
/** A persistent (resident) kernel: one that runs until it is told to stop
 *  (through a dc_control block, see "Queues"). dccuda then never waits for it:
 *  while it runs, dc_device_synchronize and dc_device_trim_memory refuse with
 *  DC_ERROR_INVALID_STATE naming it, an allocation that ran out of memory does
 *  not wait for the device before its retry, and releasing a pinned,
 *  registered, managed or non-pool buffer last used on its stream does not
 *  wait for the stream: the memory is freed once the kernel has ended (seen at
 *  a later dccuda call on the device). The kernel's code is loaded before the
 *  launch (no lazy load, which may synchronise the context, while it runs).
 *  Only for dc_launch_kernel and dc_launch_kernel_packed, on a stream made with
 *  dc_stream_create or wrapped (not a default stream, which would serialise
 *  other work behind the kernel), never while the stream captures a graph.
 *  dc_stream_synchronize on its stream still waits for it: stop it first. */
#define DC_LAUNCH_PERSISTENT                  0x4u

/**
 * How a kernel is launched. grid counts BLOCKS, not clusters, in every
 * dimension, also when cluster dimensions are given; each grid dimension must then
 * be a multiple of the cluster dimension. Flags, clusters and a priority other
 * than 0 make the launch go through cuLaunchKernelEx (a driver without it:
 * DC_ERROR_NOT_SUPPORTED); otherwise it is a plain cuLaunchKernel.
 */
typedef struct dc_launch_config {
  uint32_t struct_size;          /**< sizeof(dc_launch_config) */
  uint32_t grid[3];              /**< blocks in x, y, z (each >= 1) */
  uint32_t block[3];             /**< threads in x, y, z (each >= 1) */
  uint32_t shared_memory_bytes;  /**< dynamic shared memory per block */
  DC_FAMILY(dc_launch_flags) uint32_t flags;  /**< DC_LAUNCH_* */
  /** Thread-block cluster size in x, y, z (compute capability 9.0+); all 0 = no clusters. */
  uint32_t cluster[3];
  /** Launch priority (CU_LAUNCH_ATTRIBUTE_PRIORITY); 0 = the stream's priority. */
  int32_t  priority;
} dc_launch_config;

#define DC_LAUNCH_CONFIG_INIT { (uint32_t)sizeof(dc_launch_config), {1u, 1u, 1u}, {1u, 1u, 1u}, 0u, 0u, {0u, 0u, 0u}, 0 }

/* dc_arg.kind */
DC_CONSTANTS(dc_arg_kind, enumeration, uint32_t)
#define DC_ARG_VALUE   1  /**< `value` points to `size` bytes, copied at launch (or bind) time */
#define DC_ARG_BUFFER  2  /**< the device address of `buffer` + `offset` (an 8-byte pointer parameter) */

/**
 * One kernel argument. No unions: the fields a kind does not use are ignored.
 * DC_ARG_VALUE: `size` must equal the parameter's size (where the layout is
 * known); the bytes are read during the call (a prepared launch copies them
 * when bound), so the caller may reuse the memory as soon as the call returns.
 * DC_ARG_BUFFER: the parameter must be 8 bytes (a pointer); the kernel gets the
 * buffer's device address + `offset`, which must lie inside the buffer
 * (DC_ERROR_OUT_OF_RANGE). The buffer must be memory the kernel's device can
 * address: its own, a peer's after dc_device_enable_peer_access(kernel's
 * device, buffer's device), managed memory, or pinned / registered host memory
 * with a device mapping (DC_ALLOC_DEVICE_MAPPED; of another device: also
 * DC_ALLOC_PORTABLE). Host memory without DC_ALLOC_DEVICE_MAPPED is refused
 * (DC_ERROR_INVALID_ARGUMENT) even on systems with unified addressing, where
 * the driver happens to map pinned memory at its host address: the rule is the
 * one dc_buffer_device_pointer follows, and holds on every system. A device
 * pointer obtained elsewhere can be passed as an 8-byte DC_ARG_VALUE; it is
 * not checked.
 */
typedef struct dc_arg {
  DC_FAMILY(dc_arg_kind) uint32_t kind;       /**< DC_ARG_* */
  uint32_t size;          /**< DC_ARG_VALUE: bytes at `value` */
  DC_ARRAY(size) const void* value;      /**< DC_ARG_VALUE */
  dc_buffer buffer;       /**< DC_ARG_BUFFER */
  uint64_t offset;        /**< DC_ARG_BUFFER: byte offset into the buffer */
} dc_arg;

/** Convenience initialisers (C99 compound literals work with them too). */
#define DC_ARG_VALUE_OF(ptr)          { DC_ARG_VALUE, (uint32_t)sizeof(*(ptr)), (ptr), NULL, 0u }
#define DC_ARG_BUFFER_OF(buf)         { DC_ARG_BUFFER, 8u, NULL, (buf), 0u }
#define DC_ARG_BUFFER_AT(buf, off)    { DC_ARG_BUFFER, 8u, NULL, (buf), (off) }

/**
 * Fill `config` with a 1-D launch of at least `n` threads: the block size that
 * gives the kernel the highest occupancy with `shared_memory_bytes` of dynamic
 * shared memory per block (cuOccupancyMaxPotentialBlockSize), and enough
 * blocks to cover n (grid[0] * block[0] >= n; the kernel guards i < n). The
 * other dimensions are 1, flags, clusters and priority 0. The caller sets
 * config->struct_size; `config` is written only on success.
 * Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT (n = 0, NULL config,
 * bad struct_size, more shared memory than the kernel may use), DC_ERROR_OUT_OF_RANGE
 * (n needs more blocks than the grid allows in x: use a grid-stride loop),
 * DC_ERROR_CONTEXT_LOST.
 */
DC_API dc_status dc_launch_config_1d(dc_function function, uint64_t n, uint32_t shared_memory_bytes,
                                     DC_INOUT dc_launch_config* config);

/**
 * Launch `function` once on `stream` (a stream of the function's device) with
 * `num_args` arguments. The configuration is checked against the device (block
 * size, grid, shared memory, clusters) and the arguments against the kernel's
 * parameters (count and every size, where the layout is known; buffers alive and
 * reachable from the function's device; see dc_arg). A mismatch is
 * DC_ERROR_INVALID_ARGUMENT with a message such as
 * "dc_launch_kernel: saxpy: parameter 3 is 4 bytes, argument is 8 bytes".
 * Up to 16 arguments the call allocates nothing.
 * The launch is asynchronous: a fault during the kernel is reported by a later
 * synchronisation (DC_ERROR_CONTEXT_LOST).
 * Errors: DC_ERROR_INVALID_HANDLE (function, stream or a buffer argument),
 * DC_ERROR_INVALID_ARGUMENT (configuration, arguments, stream of another device),
 * DC_ERROR_OUT_OF_RANGE (a buffer argument's offset), DC_ERROR_LAUNCH_FAILED
 * (refused by the driver: more threads per block than the kernel can run,
 * cooperative grid too large, cluster too large), DC_ERROR_NOT_SUPPORTED
 * (clusters, cooperative launch or programmatic serialisation on a device or
 * driver without them), DC_ERROR_INVALID_STATE (called from a host function;
 * DC_LAUNCH_PERSISTENT on a capturing stream), DC_ERROR_CONTEXT_LOST.
 * DC_LAUNCH_PERSISTENT on a default stream is DC_ERROR_INVALID_ARGUMENT.
 */
DC_API dc_status dc_launch_kernel(dc_function function, DC_IN const dc_launch_config* config,
                                  DC_IN DC_ARRAY(num_args) const dc_arg* args, uint32_t num_args,
                                  dc_stream stream);

/**
 * Launch with every parameter packed in one block `params` of `size` bytes, laid
 * out as the kernel's parameters are (each at its offset, C alignment rules: a C
 * struct of the parameters in order). Where the layout is known, `size` must be
 * the parameter block's size (dc_function_info.params_bytes), or that rounded up
 * to a multiple of 16 (a struct's trailing padding, which is not passed). A
 * kernel without parameters takes params NULL and size 0. Device pointers
 * inside the block cannot be checked, nor do their buffers get noted on the
 * stream. Errors: as dc_launch_kernel.
 */
DC_API dc_status dc_launch_kernel_packed(dc_function function, DC_IN const dc_launch_config* config,
                                         DC_IN DC_ARRAY(size) const void* params, uint64_t size,
                                         dc_stream stream);

/**
 * A prepared launch: a function, a configuration and bound arguments, checked
 * when they are set, then enqueued as often as needed at the cost of the raw
 * driver call (SQLite's prepared statements, for kernels). The new launch has no
 * arguments bound; bind them with dc_launch_set_arg or dc_launch_set_args. The
 * launch keeps its function and its bound buffers alive.
 * Threads: dc_launch_enqueue may be called from several threads concurrently. A
 * change (set_config, set_arg, set_args) may run while other threads enqueue:
 * it waits for the enqueues in flight, and each enqueue sees the launch before
 * or after the change, never half of it. Changes from several threads at once
 * are serialised, but their order is the caller's to arrange.
 * Besides the configuration checks of dc_launch_kernel, the kernel's own limits
 * are checked here: more threads per block than its registers or
 * __launch_bounds__ allow, or a cooperative grid larger than fits at once, is
 * DC_ERROR_LAUNCH_FAILED.
 * Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT (config, NULL out),
 * DC_ERROR_LAUNCH_FAILED, DC_ERROR_NOT_SUPPORTED, DC_ERROR_CONTEXT_LOST.
 */
DC_API dc_status dc_launch_create(dc_function function, DC_IN const dc_launch_config* config,
                                  DC_OUT DC_OWNED dc_launch* launch);

/** Replace the launch's configuration (checked as in dc_launch_create); on failure
 *  the old one stays. Errors: as dc_launch_create. */
DC_API dc_status dc_launch_set_config(dc_launch launch, DC_IN const dc_launch_config* config);

/**
 * Bind argument `index` (counted from 0): its kind and size are checked against
 * parameter `index` as in dc_launch_kernel; a buffer must be alive and reachable
 * from the function's device (checked now: peer access disabled later is not
 * noticed), and it stays alive while the launch holds it, also after its handle
 * is released. Values are copied. Where the layout is unknown any index below
 * 4096 is accepted and the kernel takes arguments 0 .. highest bound index.
 * Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT (NULL arg, kind, size,
 * buffer not reachable), DC_ERROR_OUT_OF_RANGE (index, buffer offset).
 */
DC_API dc_status dc_launch_set_arg(dc_launch launch, uint32_t index, DC_IN const dc_arg* arg);

/** Bind all arguments at once; num_args must equal the kernel's parameter count
 *  where it is known (where it is not, it becomes the count). Everything is
 *  checked before anything changes: on failure the launch is unchanged.
 *  Errors: as dc_launch_set_arg. */
DC_API dc_status dc_launch_set_args(dc_launch launch, DC_IN DC_ARRAY(num_args) const dc_arg* args,
                                    uint32_t num_args);

/**
 * Enqueue the prepared launch on `stream` (a stream of the function's device).
 * Every argument must have been bound. Nothing is allocated, looked up or asked
 * of the driver besides the launch itself; the kernel's dynamic shared memory
 * limit is compared again (dc_function_set_attribute may have lowered it).
 * Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_STATE (an argument not bound;
 * called from a host function), DC_ERROR_INVALID_ARGUMENT (stream on another
 * device; the kernel's shared memory limit lowered below the configuration),
 * DC_ERROR_LAUNCH_FAILED, DC_ERROR_NOT_SUPPORTED, DC_ERROR_CONTEXT_LOST.
 */
DC_API dc_status dc_launch_enqueue(dc_launch launch, dc_stream stream);

/**
 * Enqueue `count` prepared launches on `stream`, in order, in one call: a
 * caller from another language (C#, Rust, Zig) pays one transition and one
 * validation pass for all of them. The same launch may appear more than once.
 * Every handle is checked before anything is enqueued: each must be a live
 * dc_launch, of a function on the stream's device, with every argument bound
 * and its shared memory within the kernel's limit; a bad one refuses the whole
 * batch, nothing enqueued, and the message names its index ("launches[3]").
 * Each launch is then enqueued as dc_launch_enqueue enqueues it (the same
 * thread-safety with set_config / set_arg: each launch is seen before or after
 * a change, never half of it; the same notes on its buffers and on a capture),
 * with the context bound once for the batch. `count` 0 is a valid batch that
 * does nothing (the stream is still checked); `launches` may then be NULL.
 * The array is read during the call only; the handles stay the caller's.
 * If the driver refuses a launch half way (or a concurrent change made one
 * invalid after the check), the launches before it stay enqueued and the rest
 * are not: the error's message begins "launches[k]:" and says that k launches
 * (0 .. k-1) were enqueued.
 * Errors: as dc_launch_enqueue; DC_ERROR_INVALID_HANDLE (the stream, or a
 * launch, named by its index), DC_ERROR_INVALID_ARGUMENT (NULL launches with
 * count > 0).
 */
DC_API dc_status dc_launch_enqueue_batch(DC_IN DC_ARRAY(count) const dc_launch* launches, uint32_t count,
                                         dc_stream stream);

/** Release a prepared launch and the references it holds. NULL is ignored. */
DC_API void dc_launch_release(DC_OWNED DC_NULLABLE dc_launch launch);

/* =========================================================================
 * Occupancy
 * ========================================================================= */

/** Dynamic shared memory a kernel needs for a given block size. */
typedef uint64_t (*dc_block_shared_memory_fn)(int32_t block_size, void* user_data);

/** How many blocks of `block_size` threads with `dynamic_shared_bytes` can be
 *  resident on one multiprocessor (0 if such a block cannot run at all).
 *  Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT (block_size < 1 or
 *  above the device's limit, NULL out), DC_ERROR_CONTEXT_LOST. */
DC_API dc_status dc_occupancy_max_active_blocks(dc_function function, int32_t block_size,
                                                uint64_t dynamic_shared_bytes,
                                                DC_OUT int32_t* blocks_per_multiprocessor);

/**
 * The block size that maximises occupancy, and the minimum grid size that fills
 * the device with it (blocks per multiprocessor x multiprocessors). Dynamic
 * shared memory per block is `fn(block_size, user_data)` when `fn` is given
 * (called on the calling thread, possibly many times, before this returns; it
 * may call dccuda), else `dynamic_shared_bytes`. `block_size_limit` 0 = no limit.
 * Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT (NULL outs, negative
 * limit), DC_ERROR_CONTEXT_LOST.
 */
DC_API dc_status dc_occupancy_max_potential_block_size(dc_function function,
                                                       DC_NULLABLE dc_block_shared_memory_fn fn,
                                                       DC_USER_DATA DC_NULLABLE void* user_data,
                                                       uint64_t dynamic_shared_bytes,
                                                       int32_t block_size_limit,
                                                       DC_OUT int32_t* min_grid_size,
                                                       DC_OUT int32_t* block_size);

/** How many clusters of config->cluster can be co-resident (cuOccupancyMaxActiveClusters),
 *  for config's block size and shared memory. config is checked as for a launch and
 *  must give a cluster size. Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT
 *  (no cluster, a cluster size the device does not allow), DC_ERROR_NOT_SUPPORTED
 *  (no clusters on this device or driver), DC_ERROR_CONTEXT_LOST. */
DC_API dc_status dc_occupancy_max_active_clusters(dc_function function, DC_IN const dc_launch_config* config,
                                                  DC_OUT int32_t* clusters);

/** Dynamic shared memory available per block when `num_blocks` blocks of `block_size`
 *  threads share a multiprocessor (0 when that many blocks cannot share one).
 *  Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT (num_blocks < 1, bad
 *  block_size, NULL out), DC_ERROR_CONTEXT_LOST. */
DC_API dc_status dc_occupancy_available_dynamic_shared(dc_function function, int32_t num_blocks,
                                                       int32_t block_size, DC_OUT uint64_t* bytes);

/* =========================================================================
 * Graphs
 * ========================================================================= */

/* Capture modes: the values of cuda.h's CUstreamCaptureMode. */
DC_CONSTANTS(dc_capture_mode, enumeration, int32_t)
#define DC_CAPTURE_GLOBAL        0
#define DC_CAPTURE_THREAD_LOCAL  1
#define DC_CAPTURE_RELAXED       2

/**
 * Begin capturing `stream` (a stream made with dc_stream_create or wrapped; not a
 * default stream): work enqueued on it (launches, copies, fills, host functions,
 * event records and waits) is recorded into a graph instead of running, until
 * dc_stream_end_capture. Arguments are taken as they are when enqueued: a kernel
 * argument's value, a buffer's address, a host pointer of a copy. Buffers used by
 * the graph must outlive its launches (see dc_buffer_release). Copies with
 * pageable host memory are staged by dccuda and should not be captured: use
 * pinned buffers' memory. Synchronising the capturing stream invalidates the
 * capture. The mode is the driver's (CUstreamCaptureMode): in DC_CAPTURE_GLOBAL,
 * calls the driver deems unsafe during a capture (synchronous copies and
 * allocations, dc_buffer_alloc among them) are refused on every thread and
 * invalidate the capture; DC_CAPTURE_THREAD_LOCAL restricts only this thread;
 * DC_CAPTURE_RELAXED restricts nothing. The capture must be ended on the thread
 * that began it, except in DC_CAPTURE_RELAXED. While a capture is in progress,
 * dc_device_synchronize on its device is refused (on any thread) instead of
 * invalidating it; a capture does not begin in the middle of such a wait (this
 * call waits for a dc_device_synchronize running on another thread to end).
 * The driver may also synchronise the context by itself for work of another
 * thread, which can invalidate a capture: CUDA
 * documents that loading a kernel may need a context synchronisation, and
 * kernels are loaded lazily by default (at dc_module_get_function). Where
 * other threads capture, load modules and get their functions beforehand.
 * Thread-safety: any thread; one capture per stream at a time.
 * Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT (bad mode, a default
 * stream), DC_ERROR_INVALID_STATE (already capturing; called from a host
 * function), DC_ERROR_CONTEXT_LOST.
 */
DC_API dc_status dc_stream_begin_capture(dc_stream stream, DC_FAMILY(dc_capture_mode) int32_t mode);

/**
 * End the capture and return the recorded graph (a new handle; release it with
 * dc_graph_release). An invalidated capture ends too: the stream stops
 * capturing and no graph is returned.
 * Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT (NULL out),
 * DC_ERROR_INVALID_STATE (the stream was not capturing; the capture was
 * invalidated by an illegal call during it; ended on another thread than the one
 * that began it in GLOBAL or THREAD_LOCAL mode), DC_ERROR_CONTEXT_LOST.
 */
DC_API dc_status dc_stream_end_capture(dc_stream stream, DC_OUT DC_OWNED dc_graph* graph);

/** 1 if the stream is capturing (also a capture invalidated but not yet ended), else 0.
 *  Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT, DC_ERROR_CONTEXT_LOST. */
DC_API dc_status dc_stream_is_capturing(dc_stream stream, DC_OUT int32_t* capturing);

/** Instantiate the graph now (else the first launch does). Idempotent; a failed
 *  instantiation is tried again by the next call that needs it.
 *  Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT (the body of a
 *  conditional node: see dc_graph_conditional_body), DC_ERROR_INVALID_STATE
 *  (an alloc node without its free node: see dc_graph_add_alloc_node; also from
 *  dc_graph_launch), DC_ERROR_OUT_OF_MEMORY, DC_ERROR_DRIVER, DC_ERROR_CONTEXT_LOST. */
DC_API dc_status dc_graph_instantiate(dc_graph graph);

/** Upload the instantiated graph to the device ahead of its first launch.
 *  Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT, DC_ERROR_CONTEXT_LOST. */
DC_API dc_status dc_graph_upload(dc_graph graph, dc_stream stream);

/** Launch the graph on `stream` (instantiating it first if needed, or again
 *  after its nodes or edges changed). Launches of one graph from several threads
 *  are serialised (the driver does not allow them at once) by one atomic flag,
 *  without a lock or a system call, and are safe against a concurrent node
 *  update, change, update from another graph or release of the handle (a launch
 *  after the release is DC_ERROR_INVALID_HANDLE); the work of each launch is
 *  ordered after the previous launch of the graph. Where an earlier dccuda call
 *  left the device's context current on the calling thread, the launch does not
 *  ask the driver which context is current (see "Threads" at the top: a context
 *  the caller changed with the driver since is left as it is). Host functions recorded in the graph run at every launch; they must not
 *  call dccuda functions that enqueue work or synchronise (unlike those of
 *  dc_stream_add_callback, such calls are not detected there).
 *  Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT (stream on another
 *  device), DC_ERROR_INVALID_STATE (called from a host function),
 *  DC_ERROR_LAUNCH_FAILED, DC_ERROR_CONTEXT_LOST. */
DC_API dc_status dc_graph_launch(dc_graph graph, dc_stream stream);

/**
 * Update the instantiated `graph` in place with the parameters of `source` (a new
 * capture of the same work with other arguments, sizes or buffers), which must
 * have the same topology (cuGraphExecUpdate; `graph` is instantiated first if it
 * was not). Cheaper than instantiating again. `source` is unchanged and stays
 * usable. On failure `graph` is unchanged.
 * Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT (the topology or a
 * node differs: the message names the driver's CUgraphExecUpdateResult and says
 * how; graphs of two devices), DC_ERROR_CONTEXT_LOST.
 */
DC_API dc_status dc_graph_update(dc_graph graph, dc_graph source);

/** The number of nodes in the graph (each launch, copy, fill and host function
 *  captured is one). Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT. */
DC_API dc_status dc_graph_node_count(dc_graph graph, DC_OUT uint64_t* count);

/** Release a graph (and its instantiation). Launches already enqueued complete.
 *  NULL is ignored. */
DC_API void dc_graph_release(DC_OWNED DC_NULLABLE dc_graph graph);

/* -------------------------------------------------------------------------
 * Graphs built node by node
 *
 * A graph is a set of nodes (kernel launches, copies, fills, host functions,
 * event records and waits, child graphs, memory allocs and frees) and of edges "from must complete
 * before to starts". dc_graph_create makes an empty one; each dc_graph_add_*
 * call adds a node after the nodes it names as dependencies; a captured
 * graph (dc_stream_end_capture) is the same kind of object and can be
 * inspected and extended the same way.
 *
 * Nodes are named by a 64-bit id, never 0, unique in the process: the id a
 * dc_graph_add_* call returns, or one dc_graph_node_at gives for a node the
 * graph already had. A clone's nodes have the ids of the original's nodes
 * they copy (dc_graph_clone). An id that is not a node of the graph given (a
 * node of another graph, a removed node, a made-up value) is refused with
 * DC_ERROR_INVALID_ARGUMENT naming it.
 *
 * What a node uses is checked when it is added, as strictly as the
 * stream-ordered call that does the same work (dc_launch_kernel,
 * dc_buffer_copy_async, dc_buffer_fill_async), and kept alive by the graph:
 * the function (and so its module), the buffers, events and host-function
 * records, until the graph is released; releasing their handles meanwhile is
 * allowed. The values of DC_ARG_VALUE arguments are copied when the node is
 * added.
 *
 * Changing a graph's nodes or edges after it was instantiated takes effect
 * at its next dc_graph_instantiate or dc_graph_launch, which instantiates it
 * again (launches already enqueued run the old form).
 *
 * Thread-safety: any thread; calls on one graph are serialised by the graph.
 * ------------------------------------------------------------------------- */

/* dc_graph_node_type: the values of cuda.h's CUgraphNodeType. */
DC_CONSTANTS(dc_graph_node_type, enumeration, int32_t)
#define DC_GRAPH_NODE_KERNEL        0   /**< a kernel launch */
#define DC_GRAPH_NODE_COPY          1   /**< a memory copy */
#define DC_GRAPH_NODE_FILL          2   /**< a memory fill (memset) */
#define DC_GRAPH_NODE_HOST          3   /**< a host function */
#define DC_GRAPH_NODE_CHILD_GRAPH   4   /**< a child graph */
#define DC_GRAPH_NODE_EMPTY         5   /**< a node that does nothing (orders others) */
#define DC_GRAPH_NODE_EVENT_WAIT    6   /**< waits for an event */
#define DC_GRAPH_NODE_EVENT_RECORD  7   /**< records an event */
#define DC_GRAPH_NODE_SEMAPHORE_SIGNAL 8  /**< signals external semaphores (captured only) */
#define DC_GRAPH_NODE_SEMAPHORE_WAIT 9  /**< waits on external semaphores (captured only) */
#define DC_GRAPH_NODE_MEM_ALLOC     10  /**< allocates memory (dc_graph_add_alloc_node) */
#define DC_GRAPH_NODE_MEM_FREE      11  /**< frees memory (dc_graph_add_free_node) */
#define DC_GRAPH_NODE_BATCH_MEM_OP  12  /**< a batch of memory operations (captured only) */
#define DC_GRAPH_NODE_CONDITIONAL   13  /**< a conditional node (if, while, switch) */

/* dc_graph_write_dot flags */
DC_CONSTANTS(dc_graph_dot_flags, flags, uint32_t)
#define DC_GRAPH_DOT_VERBOSE  0x1u  /**< every parameter of every node */

/**
 * A new, empty graph on `device`; add nodes with the dc_graph_add_* calls, then
 * launch it as a captured one (dc_graph_launch). Release it with dc_graph_release.
 * Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT (NULL out),
 * DC_ERROR_CONTEXT_LOST.
 */
DC_API dc_status dc_graph_create(dc_device device, DC_OUT DC_OWNED dc_graph* graph);

/**
 * Add a kernel launch of `function` (a function of the graph's device) with
 * `config` and `args`, checked as dc_launch_kernel checks them: the
 * configuration against the device and the kernel, each argument's kind and
 * size against the kernel's parameters, each buffer usable, reachable from the
 * device, its offset inside it. It runs after the `num_dependencies` nodes in
 * `dependencies` (none: a root). `*node` receives the new node's id. The
 * graph keeps the function and the buffers alive.
 * Errors: DC_ERROR_INVALID_HANDLE (graph, function, a buffer argument),
 * DC_ERROR_INVALID_ARGUMENT (a function of another device, a bad
 * configuration or argument, a dependency that is not a node of the graph or
 * is named twice, NULL out), DC_ERROR_OUT_OF_RANGE (a buffer offset),
 * DC_ERROR_NOT_SUPPORTED (clusters on a device without them),
 * DC_ERROR_CONTEXT_LOST.
 */
DC_API dc_status dc_graph_add_kernel_node(dc_graph graph, dc_function function, DC_IN const dc_launch_config* config,
                                          DC_IN DC_ARRAY(num_args) const dc_arg* args, uint32_t num_args,
                                          DC_IN DC_ARRAY(num_dependencies) const uint64_t* dependencies,
                                          uint32_t num_dependencies, DC_OUT uint64_t* node);

/**
 * Add a copy of `size` bytes from `src` at `src_offset` to `dst` at
 * `dst_offset` (device, pinned, registered or managed buffers of the graph's
 * device; the ranges must not overlap), after `dependencies`.
 * Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT (size 0,
 * overlapping ranges, a buffer of another device, a bad dependency, NULL
 * out), DC_ERROR_OUT_OF_RANGE, DC_ERROR_CONTEXT_LOST.
 */
DC_API dc_status dc_graph_add_copy_node(dc_graph graph, dc_buffer dst, uint64_t dst_offset, dc_buffer src,
                                        uint64_t src_offset, uint64_t size,
                                        DC_IN DC_ARRAY(num_dependencies) const uint64_t* dependencies,
                                        uint32_t num_dependencies, DC_OUT uint64_t* node);

/**
 * Add a 2D copy (see "2D and 3D (pitched) memory"): `height` rows of `width`
 * bytes from `src` (rows at src_offset, src_pitch apart) to `dst` (rows at
 * dst_offset, dst_pitch apart), buffers of the graph's device, checked as
 * dc_buffer_copy_2d checks them (by the same code), after `dependencies`. An
 * empty region is refused: a node copies at least one byte.
 * Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT (a pitch below
 * width, the regions sharing bytes, an empty region, a buffer of another
 * device, a bad dependency, NULL out), DC_ERROR_OUT_OF_RANGE (a row past the end
 * of its buffer), DC_ERROR_CONTEXT_LOST.
 */
DC_API dc_status dc_graph_add_copy_2d_node(dc_graph graph, dc_buffer dst, uint64_t dst_offset, uint64_t dst_pitch,
                                           dc_buffer src, uint64_t src_offset, uint64_t src_pitch, uint64_t width,
                                           uint64_t height, DC_IN DC_ARRAY(num_dependencies) const uint64_t* dependencies,
                                           uint32_t num_dependencies, DC_OUT uint64_t* node);

/**
 * Add a 3D copy: `depth` planes of `height` rows of `width` bytes, laid out as
 * dc_buffer_copy_3d's (rows_per_plane rows from one plane to the next), checked
 * as dc_buffer_copy_3d checks them, after `dependencies`.
 * Errors: as dc_graph_add_copy_2d_node, and DC_ERROR_INVALID_ARGUMENT (a
 * rows_per_plane below height with more than one plane).
 */
DC_API dc_status dc_graph_add_copy_3d_node(dc_graph graph, dc_buffer dst, uint64_t dst_offset, uint64_t dst_pitch,
                                           uint64_t dst_rows_per_plane, dc_buffer src, uint64_t src_offset,
                                           uint64_t src_pitch, uint64_t src_rows_per_plane, uint64_t width,
                                           uint64_t height, uint64_t depth,
                                           DC_IN DC_ARRAY(num_dependencies) const uint64_t* dependencies,
                                           uint32_t num_dependencies, DC_OUT uint64_t* node);

/**
 * Add a fill of `size` bytes of `buffer` from `offset` with `value`, as
 * dc_buffer_fill_async fills (element_size 1, 2 or 4; offset and size aligned
 * to it; host memory must be mapped for the device), after `dependencies`.
 * Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT (as
 * dc_buffer_fill; size 0; a buffer of another device; a bad dependency; NULL
 * out), DC_ERROR_OUT_OF_RANGE, DC_ERROR_NOT_SUPPORTED (host memory without a
 * device mapping), DC_ERROR_CONTEXT_LOST.
 */
DC_API dc_status dc_graph_add_fill_node(dc_graph graph, dc_buffer buffer, uint64_t offset, uint64_t size,
                                        uint32_t value, uint32_t element_size,
                                        DC_IN DC_ARRAY(num_dependencies) const uint64_t* dependencies,
                                        uint32_t num_dependencies, DC_OUT uint64_t* node);

/**
 * Add a host function: `fn(user_data)` runs at every launch of the graph,
 * after `dependencies`, on a thread of the driver (not the caller's). There,
 * as in a function of dc_stream_add_callback, the calls that list names are
 * refused with DC_ERROR_INVALID_STATE. `user_data` must stay valid while the
 * graph (or a graph it was added to as a child, or a clone) may be launched.
 * Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT (NULL fn, a bad
 * dependency, NULL out), DC_ERROR_CONTEXT_LOST.
 */
DC_API dc_status dc_graph_add_host_node(dc_graph graph, dc_host_fn fn, DC_USER_DATA DC_NULLABLE void* user_data,
                                        DC_IN DC_ARRAY(num_dependencies) const uint64_t* dependencies,
                                        uint32_t num_dependencies, DC_OUT uint64_t* node);

/**
 * Add a record of `event` (an event of the graph's device), after
 * `dependencies`: at each launch, the event completes when they have.
 * Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT (an event of
 * another device, a bad dependency, NULL out), DC_ERROR_CONTEXT_LOST.
 */
DC_API dc_status dc_graph_add_event_record_node(dc_graph graph, dc_event event,
                                                DC_IN DC_ARRAY(num_dependencies) const uint64_t* dependencies,
                                                uint32_t num_dependencies, DC_OUT uint64_t* node);

/**
 * Add a wait for `event` (an event of the graph's device): the nodes after it
 * start once the event's last record (made before the graph's launch, on any
 * stream) has completed.
 * Errors: as dc_graph_add_event_record_node.
 */
DC_API dc_status dc_graph_add_event_wait_node(dc_graph graph, dc_event event,
                                              DC_IN DC_ARRAY(num_dependencies) const uint64_t* dependencies,
                                              uint32_t num_dependencies, DC_OUT uint64_t* node);

/**
 * Add a memory alloc node: at each launch it allocates `size` bytes of device
 * memory on the graph's device (cuGraphAddMemAllocNode), after `dependencies`.
 * `*buffer` receives a buffer (DC_BUFFER_WRAPPED_DEVICE; release it with
 * dc_buffer_release) for that memory, to pass to the nodes of this graph that
 * use it. Its address is fixed for the graph's life, but memory is there ONLY
 * during a launch, for the nodes ordered after the alloc node and before the
 * free node of the same graph (dc_graph_add_free_node). Any other use (a
 * dc_buffer_* call, work on a stream, a node not ordered between the two, a
 * launch of another graph) touches memory that is not there: on a GPU that is
 * a fault that loses the context (DC_ERROR_CONTEXT_LOST) or silently wrong
 * data; dccuda cannot detect it. Every alloc node needs its free node before
 * the graph is instantiated or launched (else DC_ERROR_INVALID_STATE), so each
 * launch frees what it allocates. A graph with memory nodes cannot be cloned,
 * have nodes removed or be added as a child graph (DC_ERROR_INVALID_ARGUMENT,
 * as the driver refuses them); a conditional node's body cannot hold memory
 * nodes. Needs a device with memory pools (else DC_ERROR_NOT_SUPPORTED).
 * Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT (size 0, a
 * conditional node's body, a bad dependency, NULL out), DC_ERROR_OUT_OF_MEMORY,
 * DC_ERROR_NOT_SUPPORTED, DC_ERROR_CONTEXT_LOST.
 */
DC_API dc_status dc_graph_add_alloc_node(dc_graph graph, uint64_t size,
                                         DC_IN DC_ARRAY(num_dependencies) const uint64_t* dependencies,
                                         uint32_t num_dependencies, DC_OUT uint64_t* node,
                                         DC_OUT DC_OWNED dc_buffer* buffer);

/**
 * Add a memory free node for `buffer` (the buffer an alloc node of this graph
 * gave, whole), after `dependencies`, which must include the alloc node or a
 * node that runs after it: name the last nodes that use the memory. Each
 * alloc node's memory is freed once.
 * Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT (a buffer no alloc
 * node of this graph gave, or a part of one; freed already; dependencies not
 * after the alloc node; a bad dependency; NULL out), DC_ERROR_CONTEXT_LOST.
 */
DC_API dc_status dc_graph_add_free_node(dc_graph graph, dc_buffer buffer,
                                        DC_IN DC_ARRAY(num_dependencies) const uint64_t* dependencies,
                                        uint32_t num_dependencies, DC_OUT uint64_t* node);

/**
 * Add `child` (a graph of the same device, not `graph` itself) as one node:
 * a copy of it as it is now is embedded; later changes to `child` do not
 * reach `graph`. What the child keeps alive, `graph` keeps too.
 * Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT (child is graph,
 * a graph of another device, a child with memory nodes, a bad dependency, NULL
 * out), DC_ERROR_CONTEXT_LOST.
 */
DC_API dc_status dc_graph_add_child_graph_node(dc_graph graph, dc_graph child,
                                               DC_IN DC_ARRAY(num_dependencies) const uint64_t* dependencies,
                                               uint32_t num_dependencies, DC_OUT uint64_t* node);

/**
 * Add the edge `from` -> `to`: `to` starts after `from` completes. Refused if
 * the edge exists, if from == to, or if it would close a cycle (the message
 * names the path from `to` back to `from`).
 * Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT (a node that is
 * not in the graph, an existing edge, a cycle), DC_ERROR_CONTEXT_LOST.
 */
DC_API dc_status dc_graph_add_dependency(dc_graph graph, uint64_t from, uint64_t to);

/**
 * The id of node `index` (0 .. dc_graph_node_count - 1) in a topological order:
 * every node comes after the nodes it depends on; nodes the order leaves free
 * come in the order they were added (or captured).
 * Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT (NULL out),
 * DC_ERROR_OUT_OF_RANGE (index), DC_ERROR_CONTEXT_LOST.
 */
DC_API dc_status dc_graph_node_at(dc_graph graph, uint64_t index, DC_OUT uint64_t* node);

/** The type of `node` (DC_GRAPH_NODE_*). Errors: DC_ERROR_INVALID_HANDLE,
 *  DC_ERROR_INVALID_ARGUMENT (not a node of the graph, NULL out), DC_ERROR_CONTEXT_LOST. */
DC_API dc_status dc_graph_node_type(dc_graph graph, uint64_t node,
                                    DC_OUT DC_FAMILY(dc_graph_node_type) int32_t* type);

/** The number of edges in the graph. Errors: DC_ERROR_INVALID_HANDLE,
 *  DC_ERROR_INVALID_ARGUMENT (NULL out), DC_ERROR_CONTEXT_LOST. */
DC_API dc_status dc_graph_edge_count(dc_graph graph, DC_OUT uint64_t* count);

/** Edge `index` (0 .. dc_graph_edge_count - 1): `from` completes before `to`
 *  starts. Edges come ordered by `to`'s place in dc_graph_node_at's order,
 *  then by `from`'s. Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT
 *  (NULL out), DC_ERROR_OUT_OF_RANGE (index), DC_ERROR_CONTEXT_LOST. */
DC_API dc_status dc_graph_edge_at(dc_graph graph, uint64_t index, DC_OUT uint64_t* from, DC_OUT uint64_t* to);

/**
 * A copy of `graph`'s nodes and edges as a new graph (a new handle; release it
 * with dc_graph_release): its nodes have the ids of the nodes they copy, so an
 * id names the corresponding node in either graph. Not its instantiation.
 * Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT (a graph with
 * memory nodes, NULL out),
 * DC_ERROR_CONTEXT_LOST.
 */
DC_API dc_status dc_graph_clone(dc_graph graph, DC_OUT DC_OWNED dc_graph* clone);

/**
 * Remove `node` and its edges from the graph (the nodes before and after it
 * are no longer ordered through it). What it used stays alive until the graph
 * is released (an instantiation made before may still run it).
 * Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT (not a node of
 * the graph, a graph with memory nodes), DC_ERROR_CONTEXT_LOST.
 */
DC_API dc_status dc_graph_remove_node(dc_graph graph, uint64_t node);

/**
 * Write the graph in Graphviz DOT form to the file `path` (created or
 * replaced), as the driver describes it (cuGraphDebugDotPrint): one DOT node
 * per node with its type and parameters (all of them with
 * DC_GRAPH_DOT_VERBOSE), one DOT edge per edge. The driver's names for nodes
 * are not dccuda's ids.
 * Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT (NULL or empty
 * path, unknown flags), DC_ERROR_IO (the file cannot be written),
 * DC_ERROR_CONTEXT_LOST.
 */
DC_API dc_status dc_graph_write_dot(dc_graph graph, DC_IN const char* path,
                                    DC_FAMILY(dc_graph_dot_flags) uint32_t flags);

/**
 * The graph's DOT text, as dc_graph_write_dot would write it, into `text`
 * (`capacity` bytes): the text and a terminating NUL; `*length` receives the
 * text's length in bytes (without the NUL). Ask for the length first with
 * text NULL and capacity 0 (DC_SUCCESS, nothing written), then pass a buffer of
 * *length + 1 bytes. When `capacity` is too small nothing is written to `text`
 * or `*length` (0) and the status is DC_ERROR_OUT_OF_RANGE, its message giving
 * the size needed. The
 * text goes through a file the driver writes in a private directory under the
 * system's temporary directory (TMPDIR; TEMP on Windows), removed before the
 * call returns. The graph may change between two calls: size the second
 * call's buffer with some room, or call again on DC_ERROR_OUT_OF_RANGE.
 * Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT (unknown flags,
 * NULL text with a nonzero capacity, NULL length), DC_ERROR_OUT_OF_RANGE
 * (capacity too small), DC_ERROR_IO (no usable temporary directory, the file
 * could not be written or read), DC_ERROR_CONTEXT_LOST.
 */
DC_API dc_status dc_graph_dot(dc_graph graph, DC_FAMILY(dc_graph_dot_flags) uint32_t flags,
                              DC_OUT DC_NULLABLE DC_ARRAY(capacity) char* text, uint64_t capacity,
                              DC_OUT uint64_t* length);

/* dc_graph_add_conditional_node types: the values of cuda.h's CUgraphConditionalNodeType. */
DC_CONSTANTS(dc_graph_conditional_type, enumeration, int32_t)
#define DC_GRAPH_CONDITIONAL_IF      0  /**< body 0 runs once if the condition is not 0; a second body (else) if it is 0 */
#define DC_GRAPH_CONDITIONAL_WHILE   1  /**< body 0 runs again and again while the condition is not 0 */
#define DC_GRAPH_CONDITIONAL_SWITCH  2  /**< body n runs once, n being the condition; none if n >= num_bodies */

/**
 * Add a conditional node: which of its body graphs run, and how often, is
 * decided on the device, without the host, by a condition that kernels set
 * (include "dccuda_device_graph.h" in the kernel's source and call
 * dc_graph_set_condition(condition, value); pass `*condition` to the kernel as
 * an 8-byte DC_ARG_VALUE). At the start of each launch of the graph the
 * condition is `default_value`. Fill each body with the dc_graph_add_* calls on
 * the graph dc_graph_conditional_body gives (bodies may hold kernels, copies,
 * fills, child graphs and conditional nodes; a kernel that sets the condition of
 * a WHILE node from inside its body ends the loop). `num_bodies`: 1 for WHILE, 1
 * or 2 (if/else) for IF, 1 to 1024 for SWITCH.
 * Needs a CUDA 12.4 driver (IF with one body, WHILE) or 12.8 (if/else, SWITCH):
 * older ones are DC_ERROR_NOT_SUPPORTED naming the version. Conditional nodes
 * cannot be removed (dc_graph_remove_node refuses them), and a clone's copies of
 * them cannot give their bodies.
 * Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT (bad type or
 * num_bodies, a bad dependency, NULL out), DC_ERROR_NOT_SUPPORTED (the driver is
 * older), DC_ERROR_CONTEXT_LOST.
 */
DC_API dc_status dc_graph_add_conditional_node(dc_graph graph, DC_FAMILY(dc_graph_conditional_type) int32_t type,
                                               uint32_t num_bodies, uint32_t default_value,
                                               DC_IN DC_ARRAY(num_dependencies) const uint64_t* dependencies,
                                               uint32_t num_dependencies, DC_OUT uint64_t* condition,
                                               DC_OUT uint64_t* node);

/**
 * Body `index` (0 .. num_bodies - 1) of conditional node `node` as a graph (a
 * new handle; release it with dc_graph_release) to add nodes to. It belongs to
 * `graph`, which it keeps alive; it cannot be launched, instantiated or updated
 * by itself (DC_ERROR_INVALID_ARGUMENT): launch `graph`. What its nodes use,
 * `graph` keeps.
 * Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT (not a node of the
 * graph, not a conditional node, NULL out), DC_ERROR_OUT_OF_RANGE (index),
 * DC_ERROR_CONTEXT_LOST.
 */
DC_API dc_status dc_graph_conditional_body(dc_graph graph, uint64_t node, uint32_t index,
                                           DC_OUT DC_OWNED dc_graph* body);

/* -------------------------------------------------------------------------
 * Changing nodes in place
 *
 * The dc_graph_set_* calls change one node's parameters, checked as strictly
 * as the dc_graph_add_* call of its type checks them, in the graph and, when
 * the graph is instantiated, in its executable form in place (the driver's
 * cuGraphExec*NodeSetParams): no new instantiation, far cheaper than one.
 * Launches already enqueued run with the old parameters; the next launch
 * with the new. The executable form is changed first: when the driver
 * refuses the change there (a copy between other kinds of memory, another
 * element size...), DC_ERROR_INVALID_ARGUMENT says so and nothing changed.
 * The topology never changes here: to change it, add or remove nodes (the
 * graph is then instantiated again at its next launch), or update a whole
 * graph from another of the same topology (dc_graph_update).
 * ------------------------------------------------------------------------- */

/**
 * Change kernel node `node`'s configuration and arguments (its function
 * stays), checked as dc_graph_add_kernel_node checks them. Only kernel nodes
 * added with dc_graph_add_kernel_node can be changed (dccuda knows their
 * kernel's parameters); a captured kernel node is DC_ERROR_NOT_SUPPORTED.
 * Errors: DC_ERROR_INVALID_HANDLE (graph, a buffer argument),
 * DC_ERROR_INVALID_ARGUMENT (not a node of the graph, not a kernel node, a bad
 * configuration or argument, a change the driver refuses), DC_ERROR_OUT_OF_RANGE,
 * DC_ERROR_NOT_SUPPORTED (a captured kernel node; launch attributes),
 * DC_ERROR_CONTEXT_LOST.
 */
DC_API dc_status dc_graph_set_kernel_node(dc_graph graph, uint64_t node, DC_IN const dc_launch_config* config,
                                          DC_IN DC_ARRAY(num_args) const dc_arg* args, uint32_t num_args);

/** Change copy node `node`'s buffers, offsets and size, checked as
 *  dc_graph_add_copy_node checks them (see "Changing nodes in place").
 *  Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT (not a node of
 *  the graph, not a copy node, as dc_graph_add_copy_node, a change the driver
 *  refuses), DC_ERROR_OUT_OF_RANGE, DC_ERROR_CONTEXT_LOST. */
DC_API dc_status dc_graph_set_copy_node(dc_graph graph, uint64_t node, dc_buffer dst, uint64_t dst_offset,
                                        dc_buffer src, uint64_t src_offset, uint64_t size);

/** Change copy node `node` to the 2D copy dc_graph_add_copy_2d_node would add
 *  with these arguments (a 1D, 2D or 3D copy node of the graph; see "Changing
 *  nodes in place"). The driver changes only 1D copies of an instantiated
 *  graph in place: this call changes the definition, and the next launch (or
 *  dc_graph_instantiate) instantiates the graph again, once. Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT
 *  (not a node of the graph, not a copy node, as dc_graph_add_copy_2d_node, a
 *  change the driver refuses), DC_ERROR_OUT_OF_RANGE, DC_ERROR_CONTEXT_LOST. */
DC_API dc_status dc_graph_set_copy_2d_node(dc_graph graph, uint64_t node, dc_buffer dst, uint64_t dst_offset,
                                           uint64_t dst_pitch, dc_buffer src, uint64_t src_offset, uint64_t src_pitch,
                                           uint64_t width, uint64_t height);

/** Change fill node `node`'s buffer, range and value, checked as
 *  dc_graph_add_fill_node checks them (see "Changing nodes in place").
 *  Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT (not a node of
 *  the graph, not a fill node, as dc_graph_add_fill_node, a change the driver
 *  refuses), DC_ERROR_OUT_OF_RANGE, DC_ERROR_NOT_SUPPORTED, DC_ERROR_CONTEXT_LOST. */
DC_API dc_status dc_graph_set_fill_node(dc_graph graph, uint64_t node, dc_buffer buffer, uint64_t offset,
                                        uint64_t size, uint32_t value, uint32_t element_size);

/** Change host node `node`'s function and user data (as dc_graph_add_host_node;
 *  see "Changing nodes in place"). Errors: DC_ERROR_INVALID_HANDLE,
 *  DC_ERROR_INVALID_ARGUMENT (not a node of the graph, not a host node, NULL
 *  fn), DC_ERROR_CONTEXT_LOST. */
DC_API dc_status dc_graph_set_host_node(dc_graph graph, uint64_t node, dc_host_fn fn,
                                        DC_USER_DATA DC_NULLABLE void* user_data);

/* =========================================================================
 * Queues: message queues and resident kernels
 * =========================================================================
 *
 * A resident (persistent) kernel is launched once and stays on the GPU,
 * taking messages from the host and answering through queues, until it is
 * told to stop. dc_queue is a single-producer / single-consumer ring of
 * fixed-size slots in page-locked host memory mapped into the device's
 * address space: the host side uses the dc_queue_* calls below, the kernel
 * the matching functions of include/dccuda_device.h (plain CUDA C++ for
 * NVRTC and nvcc). A queue has a direction: the host enqueues and a kernel
 * dequeues (DC_QUEUE_TO_DEVICE), or a kernel enqueues and the host dequeues
 * (DC_QUEUE_TO_HOST). A kernel finds the ring at the device address of
 * dc_queue_buffer()'s buffer (pass it as a DC_ARG_BUFFER argument).
 *
 * Only ordered loads and stores are used between the two sides: each 8-byte
 * word of a slot carries its message's flag, so a message is found and read
 * with the same loads and written without a fence, and each counter has one
 * writer (dccuda_device.h, "queues: flagged slots"). No host-native atomics
 * are needed, so queues work on every PCIe host. A slot takes
 * 2 * slot_size + 16 bytes.
 *
 * dc_control is the control block of a resident kernel (running, stop
 * requested, stopped, errors, heartbeat), also in mapped host memory: the
 * kernel reports through dccuda_device.h's dc_control_* functions, the host
 * asks it to stop, waits with a time limit, and watches its heartbeat.
 *
 * Launch a resident kernel on a stream created with dc_stream_create (never a
 * default stream, which would serialise other work behind it), and stop it
 * through its control block before synchronising that stream: a stream or
 * device synchronisation waits for the kernel to end.
 */

/* dc_queue_create's direction. */
DC_CONSTANTS(dc_queue_direction, enumeration, int32_t)
#define DC_QUEUE_TO_DEVICE  1  /**< the host enqueues, a kernel dequeues */
#define DC_QUEUE_TO_HOST    2  /**< a kernel enqueues, the host dequeues */
/** A kernel enqueues and another kernel (or another block) dequeues; the ring
 *  is in device memory, which only kernels reach: the host's enqueue and
 *  dequeue calls refuse such a queue (dc_queue_counters reads its counters
 *  with a copy). */
#define DC_QUEUE_BETWEEN_KERNELS 3
/** As DC_QUEUE_BETWEEN_KERNELS, for two kernels on different devices: the ring
 *  is in the memory of the queue's device, the kernel on the other device
 *  reaches it through peer access (dc_device_enable_peer_access from that
 *  device to the queue's; a launch passing the ring's buffer to a kernel on a
 *  device without it is refused), and both sides fence and store at system
 *  scope. Make it on the device whose kernel dequeues: its polling then stays
 *  in its own memory and only the producer's stores cross the link. Works
 *  between kernels of one device too, at the cost of system-scoped fences. */
#define DC_QUEUE_BETWEEN_DEVICES 4

/* How a host call waits (dc_queue_enqueue, dc_queue_dequeue,
 * dc_control_wait_stopped). The GPU cannot wake a host thread cheaply, so
 * every strategy polls the memory the device writes; they differ in what the
 * thread does between polls. */
DC_CONSTANTS(dc_wait_strategy, enumeration, int32_t)
/** Poll without pause: the lowest latency, one CPU core busy while waiting. */
#define DC_WAIT_SPIN        1
/** Poll about 4000 times, then yield the CPU between polls. */
#define DC_WAIT_SPIN_YIELD  2
/** Poll a little, then sleep between polls, from 1 us doubling up to 200 us:
 *  little CPU, latency up to the last sleep. */
#define DC_WAIT_BLOCK       3

/**
 * Create a queue of `capacity` slots of `slot_size` bytes on `device`, in
 * page-locked host memory mapped into the device (cuMemHostAlloc, DEVICEMAP),
 * or, for DC_QUEUE_BETWEEN_KERNELS and DC_QUEUE_BETWEEN_DEVICES, in device
 * memory (cuMemAlloc: a kernel's loads of it stay on the GPU instead of
 * crossing PCIe). Each slot takes
 * 2 * slot_size + 16 bytes (flagged slots, see dccuda_device.h).
 * slot_size is a power of two from 8 to 65536; capacity a power of two from 2
 * to 16777216; slot_size * capacity at most 1 GiB. A message is 0 to
 * slot_size bytes. The queue starts empty, its counters at zero.
 * Thread-safety: host calls on one queue may come from any threads; they are
 * serialised by the queue (a lock), so several host threads may enqueue into
 * one DC_QUEUE_TO_DEVICE queue. On the device side one thread at a time may
 * use the queue (see dccuda_device.h).
 * Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT (direction not
 * DC_QUEUE_*, slot_size or capacity not a power of two or out of range, NULL
 * out), DC_ERROR_OUT_OF_MEMORY, DC_ERROR_NOT_SUPPORTED (the device cannot map
 * host memory), DC_ERROR_CONTEXT_LOST.
 */
DC_API dc_status dc_queue_create(dc_device device, DC_FAMILY(dc_queue_direction) int32_t direction,
                                 uint32_t slot_size, uint32_t capacity, DC_OUT DC_OWNED dc_queue* queue);

/**
 * Release a queue. The ring's memory lives on while a handle from
 * dc_queue_buffer() lives (a kernel launched with that buffer keeps it alive
 * as any buffer argument is kept). NULL is ignored.
 */
DC_API void dc_queue_release(DC_OWNED DC_NULLABLE dc_queue queue);

/**
 * A new handle to the buffer holding the queue's ring, to pass to a kernel as
 * a DC_ARG_BUFFER argument (the kernel's parameter is a dc_queue_ring*);
 * release it with dc_buffer_release(). Writing to the buffer with dc_buffer_*
 * calls corrupts the queue.
 * Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT (NULL out).
 */
DC_API dc_status dc_queue_buffer(dc_queue queue, DC_OUT DC_OWNED dc_buffer* buffer);

/**
 * Enqueue one message of `size` bytes (0 to the slot size) if a slot is free.
 * DC_SUCCESS: the message is in the queue, visible to the kernel. DC_NOT_READY:
 * the queue was full; nothing was enqueued (counted as a drop). The call never
 * waits. Only for a DC_QUEUE_TO_DEVICE queue.
 * Errors: DC_NOT_READY (full: the answer, not a failure), DC_ERROR_INVALID_HANDLE,
 * DC_ERROR_INVALID_ARGUMENT (NULL message with size > 0, a DC_QUEUE_TO_HOST
 * queue), DC_ERROR_OUT_OF_RANGE (size larger than the slot size).
 */
DC_API dc_status dc_queue_try_enqueue(dc_queue queue, DC_IN DC_ARRAY(size) const void* message, uint32_t size);

/**
 * Enqueue one message, waiting up to `timeout_us` microseconds (UINT64_MAX: no
 * limit) for a free slot, as `wait` says (DC_WAIT_*). DC_ERROR_TIMEOUT: the
 * queue stayed full; nothing was enqueued (counted as a drop). Refused inside a
 * host function (a kernel on the same stream could never drain the queue).
 * Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT (NULL message with
 * size > 0, a DC_QUEUE_TO_HOST queue, wait not DC_WAIT_*), DC_ERROR_OUT_OF_RANGE
 * (size larger than the slot size), DC_ERROR_TIMEOUT.
 */
DC_API dc_status dc_queue_enqueue(dc_queue queue, DC_IN DC_ARRAY(size) const void* message, uint32_t size,
                                  DC_FAMILY(dc_wait_strategy) int32_t wait, uint64_t timeout_us);

/**
 * Enqueue as many whole messages of `message_size` bytes from `messages`
 * (`size` bytes: size / message_size messages, back to back) as there are
 * free slots, in order, made visible to the kernel together (one counter
 * update: cheaper than one call per message). *enqueued gets how many;
 * DC_NOT_READY when the queue was full (none enqueued). Never waits. Only for
 * a DC_QUEUE_TO_DEVICE queue.
 * Errors: DC_NOT_READY (full: the answer, not a failure), DC_ERROR_INVALID_HANDLE,
 * DC_ERROR_INVALID_ARGUMENT (NULL pointer, message_size 0, size not a multiple
 * of message_size, a DC_QUEUE_TO_HOST queue), DC_ERROR_OUT_OF_RANGE
 * (message_size larger than the slot size).
 */
DC_API dc_status dc_queue_enqueue_batch(dc_queue queue, DC_IN DC_ARRAY(size) const void* messages, uint64_t size,
                                        uint32_t message_size, DC_OUT uint32_t* enqueued);

/**
 * Dequeue the oldest message into `message` (`max_size` bytes available) if
 * there is one; *size gets its length. DC_NOT_READY: the queue was empty
 * (*size 0). Never waits. Only for a DC_QUEUE_TO_HOST queue.
 * Errors: DC_NOT_READY (empty: the answer, not a failure), DC_ERROR_INVALID_HANDLE,
 * DC_ERROR_INVALID_ARGUMENT (NULL pointer, a DC_QUEUE_TO_DEVICE queue),
 * DC_ERROR_OUT_OF_RANGE (the message is longer than
 * max_size: it stays in the queue and the error message gives its length; a
 * buffer of the slot size always fits).
 */
DC_API dc_status dc_queue_try_dequeue(dc_queue queue, DC_OUT DC_ARRAY(max_size) void* message, uint32_t max_size,
                                      DC_OUT uint32_t* size);

/**
 * Dequeue the oldest message, waiting up to `timeout_us` microseconds
 * (UINT64_MAX: no limit) for one, as `wait` says (DC_WAIT_*).
 * DC_ERROR_TIMEOUT: the queue stayed empty. Refused inside a host function.
 * Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT (NULL pointer, a
 * DC_QUEUE_TO_DEVICE queue, wait not DC_WAIT_*), DC_ERROR_OUT_OF_RANGE (the
 * message is longer than max_size: it stays queued), DC_ERROR_TIMEOUT.
 */
DC_API dc_status dc_queue_dequeue(dc_queue queue, DC_OUT DC_ARRAY(max_size) void* message, uint32_t max_size,
                                  DC_OUT uint32_t* size, DC_FAMILY(dc_wait_strategy) int32_t wait,
                                  uint64_t timeout_us);

/**
 * Dequeue up to size / stride messages that are already in the queue into
 * `messages`, message i at messages + i * stride (the bytes after a shorter
 * message are left as they were); one counter update for all. stride must be
 * at least the slot size. *count gets how many; DC_NOT_READY when the queue
 * was empty. Never waits. Only for a DC_QUEUE_TO_HOST queue.
 * Errors: DC_NOT_READY (empty: the answer, not a failure), DC_ERROR_INVALID_HANDLE,
 * DC_ERROR_INVALID_ARGUMENT (NULL pointer, stride smaller than the slot size,
 * size smaller than stride, a DC_QUEUE_TO_DEVICE queue).
 */
DC_API dc_status dc_queue_dequeue_batch(dc_queue queue, DC_OUT DC_ARRAY(size) void* messages, uint64_t size,
                                        uint32_t stride, DC_OUT uint32_t* count);

/** A queue's shape and counters (dc_queue_counters). The counters count the
 *  host side's calls since the queue was created. */
typedef struct dc_queue_stats {
  uint32_t struct_size;       /**< sizeof(dc_queue_stats) */
  DC_FAMILY(dc_queue_direction) int32_t direction;  /**< DC_QUEUE_* */
  uint32_t slot_size;         /**< bytes per slot */
  uint32_t capacity;          /**< slots */
  uint64_t length;            /**< messages in the queue when asked */
  uint64_t enqueued;          /**< messages enqueued (by the host or, TO_HOST, by the kernel) */
  uint64_t dequeued;          /**< messages dequeued (by the kernel or, TO_HOST, by the host) */
  uint64_t full_waits;        /**< host enqueue calls that found the queue full and waited */
  uint64_t empty_waits;       /**< host dequeue calls that found the queue empty and waited */
  uint64_t drops;             /**< host messages not enqueued: full on a try, or a timeout */
} dc_queue_stats;

#define DC_QUEUE_STATS_INIT { (uint32_t)sizeof(dc_queue_stats), 0, 0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u }

/**
 * Fill `stats` (the caller sets struct_size) with the queue's shape and
 * counters. enqueued and dequeued are read from the ring's counters, so they
 * include the kernel's side; for a queue between kernels (DC_QUEUE_BETWEEN_KERNELS,
 * DC_QUEUE_BETWEEN_DEVICES) they are a snapshot copied from device memory (full_waits, empty_waits and drops, the
 * host's counts, stay 0). dequeued counts the slots the consumer has given
 * back, which a kernel's cursor does in groups (dccuda_device.h), so while a
 * kernel runs it may trail the messages the kernel has taken. Errors: DC_ERROR_INVALID_HANDLE,
 * DC_ERROR_INVALID_ARGUMENT (NULL stats, bad struct_size), and for a queue
 * between kernels DC_ERROR_INVALID_STATE (called from a host function: the
 * copy would wait for the stream it runs on), DC_ERROR_CONTEXT_LOST.
 */
DC_API dc_status dc_queue_counters(dc_queue queue, DC_INOUT dc_queue_stats* stats);

/* A resident kernel's state, as its control block holds it. */
DC_CONSTANTS(dc_control_state, enumeration, int32_t)
#define DC_CONTROL_IDLE     0  /**< not started since the block was made or reset */
#define DC_CONTROL_RUNNING  1  /**< the kernel called dc_control_enter */
#define DC_CONTROL_STOPPED  2  /**< the kernel called dc_control_exit */

/**
 * Create a control block for a resident kernel on `device`, in page-locked
 * host memory mapped into the device; state DC_CONTROL_IDLE. Pass
 * dc_control_buffer()'s buffer to the kernel (its parameter is a
 * dc_control_block*). One kernel at a time uses a control block; reset it
 * (dc_control_reset) before launching the next.
 * Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT (NULL out),
 * DC_ERROR_OUT_OF_MEMORY, DC_ERROR_NOT_SUPPORTED (the device cannot map host
 * memory), DC_ERROR_CONTEXT_LOST.
 */
DC_API dc_status dc_control_create(dc_device device, DC_OUT DC_OWNED dc_control* control);

/** Release a control block (its memory lives on while a handle from
 *  dc_control_buffer() lives). NULL is ignored. */
DC_API void dc_control_release(DC_OWNED DC_NULLABLE dc_control control);

/** A new handle to the buffer holding the control block, for a DC_ARG_BUFFER
 *  argument; release it with dc_buffer_release().
 *  Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT (NULL out). */
DC_API dc_status dc_control_buffer(dc_control control, DC_OUT DC_OWNED dc_buffer* buffer);

/**
 * Ask the kernel to stop: sets the stop request the kernel polls with
 * dc_control_stop_requested(). Returns at once; wait with
 * dc_control_wait_stopped(). A kernel launched but not yet started
 * (DC_CONTROL_IDLE) stops when it first polls. Any thread.
 * Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_STATE (the kernel has
 * already stopped: nothing to ask).
 */
DC_API dc_status dc_control_request_stop(dc_control control);

/**
 * Wait up to `timeout_us` microseconds (UINT64_MAX: no limit) for the kernel
 * to report DC_CONTROL_STOPPED, as `wait` says (DC_WAIT_*). The kernel's
 * threads may still be finishing its last instructions: synchronise its
 * stream before reusing what it wrote. DC_ERROR_TIMEOUT: it did not stop in
 * time (the message gives its state and heartbeat). Refused inside a host
 * function. Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT (wait not
 * DC_WAIT_*), DC_ERROR_TIMEOUT.
 */
DC_API dc_status dc_control_wait_stopped(dc_control control, DC_FAMILY(dc_wait_strategy) int32_t wait,
                                         uint64_t timeout_us);

/** What a control block says (dc_control_status). */
typedef struct dc_control_info {
  uint32_t struct_size;       /**< sizeof(dc_control_info) */
  DC_FAMILY(dc_control_state) int32_t state;  /**< DC_CONTROL_* */
  uint32_t stop_requested;    /**< 1 once dc_control_request_stop was called (until reset) */
  uint32_t last_error;        /**< the code of the kernel's last dc_control_report_error, 0 if none */
  uint64_t heartbeat;         /**< the kernel's dc_control_beat count */
  uint64_t errors;            /**< how many errors the kernel reported */
  /** Microseconds since the host last saw the heartbeat change (or, before
   *  the first change, since the block was made or reset). The host sees
   *  changes only when it asks (this call, dc_control_check_progress). */
  uint64_t idle_us;
} dc_control_info;

#define DC_CONTROL_INFO_INIT { (uint32_t)sizeof(dc_control_info), 0, 0u, 0u, 0u, 0u, 0u }

/**
 * Fill `info` (the caller sets struct_size) with the control block's state.
 * Any thread. Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT (NULL
 * info, bad struct_size).
 */
DC_API dc_status dc_control_status(dc_control control, DC_INOUT dc_control_info* info);

/**
 * The watchdog: DC_SUCCESS if the kernel is running and its heartbeat changed
 * within the last `stall_us` microseconds (as far as the host has seen: call
 * this more often than stall_us); DC_ERROR_TIMEOUT if it is running and has not
 * beaten for longer (the message names the heartbeat and how long). A kernel
 * that beats once per message handled and waits for messages between them
 * should beat while it waits too. Any thread.
 * Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT (stall_us 0),
 * DC_ERROR_INVALID_STATE (the kernel is not running: idle or stopped),
 * DC_ERROR_TIMEOUT.
 */
DC_API dc_status dc_control_check_progress(dc_control control, uint64_t stall_us);

/**
 * Make the block ready for the next launch: state DC_CONTROL_IDLE, stop
 * request, heartbeat and errors cleared. Refused while a kernel runs.
 * Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_STATE (DC_CONTROL_RUNNING:
 * stop the kernel first).
 */
DC_API dc_status dc_control_reset(dc_control control);

/* =========================================================================
 * Diagnostics: the log hook
 * ========================================================================= */

/* Log levels: the values of Microsoft.Extensions.Logging's LogLevel (Trace 0 to
 * Error 4), so that a binding passes them on unchanged. */
DC_CONSTANTS(dc_log_level, enumeration, int32_t)
/** Every step of a decision (each cache lookup). */
#define DC_LOG_TRACE    0
/** A decision worth knowing when tuning: a copy staged through pinned
 *  memory, a kernel-cache miss and why, an older entry point used. */
#define DC_LOG_DEBUG    1
/** A decision that changes what the process holds: the driver loaded, pool
 *  memory given back. */
#define DC_LOG_INFO     2
/** Something the caller may want to act on: an entry point the driver lacks
 *  (the call that needs it answers DC_ERROR_NOT_SUPPORTED). */
#define DC_LOG_WARNING  3
/** Reserved for failures no call reports (none today: failures are the calls'
 *  statuses and last errors). */
#define DC_LOG_ERROR    4

/**
 * A log callback: `level` a DC_LOG_* value, `category` one of "staging",
 * "cache", "pool", "fallback", "driver" (static strings; more may come), and
 * `message` one line of UTF-8 without a newline, valid during the call only.
 */
typedef void (*dc_log_fn)(void* user_data, int32_t level, const char* category, const char* message);

/**
 * Receive dccuda's decisions at `min_level` (a DC_LOG_* level) and above, in
 * `fn(user_data, level, category, message)`; `fn` NULL stops them (then
 * `min_level` must still be a level and `user_data` is ignored). One callback
 * per process: a later call replaces the earlier one. No callback is set at
 * start; while none is, each place that could report costs one relaxed atomic
 * load. May be called before dc_init, to hear the driver being loaded.
 *
 * Threads. The callback runs on the thread that made the decision, inside the
 * dc_ call that made it, and possibly while dccuda holds its own locks; several
 * threads may run it at once. So it must be quick and must not call dccuda:
 * every fallible dc_ call made from inside it fails at once with
 * DC_ERROR_INVALID_STATE (the calling dc_ call's own last error is kept), a
 * release function must not be called, and messages arising on that thread
 * while it runs are dropped. dc_last_error_*, dc_status_name and dc_version
 * may be called. When dc_set_log_callback returns, the previous callback runs
 * on no thread and is never called again: its user_data may be freed. An
 * exception or longjmp must not leave the callback.
 * Errors: DC_ERROR_INVALID_ARGUMENT (min_level not a DC_LOG_* level),
 * DC_ERROR_INVALID_STATE (called from inside the log callback).
 */
DC_API dc_status dc_set_log_callback(DC_FAMILY(dc_log_level) int32_t min_level, DC_NULLABLE dc_log_fn fn,
                                     DC_USER_DATA DC_NULLABLE void* user_data);

/* =========================================================================
 * Diagnostics: live handles
 * ========================================================================= */

/** One live handle, as dc_handle_visit gives it. */
typedef struct dc_handle_info {
  uint32_t struct_size;          /**< sizeof(dc_handle_info) of the library that filled it */
  DC_FAMILY(dc_handle_type) int32_t handle_type;   /**< DC_HANDLE_* */
  /** The handle's value: compare it with (uint64_t)(uintptr_t)your_handle. */
  uint64_t handle;
  uint64_t age_ns;               /**< nanoseconds since the handle was made (steady clock) */
  /** The operating system's id of the thread that made it (Linux: as gettid,
   *  top and gdb show it; Windows: GetCurrentThreadId). */
  uint64_t thread_id;
  char     created_by[64];       /**< the dc_ call that made it ("dc_buffer_alloc"), NUL-terminated */
  int32_t  device_ordinal;       /**< the device it lives on; -1 for none (a program) */
  /** Buffers: DC_BUFFER_*; 0 for other handles. */
  DC_FAMILY(dc_buffer_kind) int32_t buffer_kind;
  uint64_t buffer_size;          /**< buffers: bytes; 0 for other handles */
  uint32_t buffer_view;          /**< buffers: 1 for a view (dc_buffer_view), else 0 */
  uint32_t reserved;             /**< 0 */
} dc_handle_info;

#define DC_HANDLE_INFO_INIT { (uint32_t)sizeof(dc_handle_info), 0, 0u, 0u, 0u, {0}, -1, 0, 0u, 0u, 0u }

/**
 * A handle-report callback: `info` (library-owned, valid during the call
 * only) describes one live handle; read no further than info->struct_size.
 */
typedef void (*dc_handle_fn)(void* user_data, const dc_handle_info* info);

/**
 * Every handle of this process that is live now (made and not yet released),
 * as text into `text` (`capacity` bytes): a summary line ("3 live handles: 1
 * dc_device, 2 dc_buffer"), then one line per handle with its type and value,
 * age, the call and thread that made it, its device, and for a buffer its size
 * and kind; "" when no handle is live. A terminating NUL follows;
 * `*length` receives the text's length in bytes (without the NUL). Ask for the
 * length first with text NULL and capacity 0 (DC_SUCCESS, nothing written),
 * then pass a buffer of *length + 1 bytes. When `capacity` is too small
 * nothing is written to `text` or `*length` (0) and the status is
 * DC_ERROR_OUT_OF_RANGE, its message giving the size needed. Handles come and
 * go between two calls: size the second call's buffer with some room, or call
 * again on DC_ERROR_OUT_OF_RANGE. For finding leaks in tests and finalizers:
 * it visits every slot of the handle table (the cost grows with the number of
 * handles ever live at once); creating a handle records its few facts, and
 * nothing else pays for the report. Any thread.
 * Errors: DC_ERROR_INVALID_ARGUMENT (NULL text with a nonzero capacity, NULL
 * length), DC_ERROR_OUT_OF_RANGE (capacity too small).
 */
DC_API dc_status dc_handle_report(DC_OUT DC_NULLABLE DC_ARRAY(capacity) char* text, uint64_t capacity,
                                  DC_OUT uint64_t* length);

/**
 * Call `fn(user_data, info)` once for every handle live when the call began,
 * on the calling thread, in no particular order, before returning. The
 * handles are gathered first and nothing of dccuda is locked while `fn` runs:
 * it may call dccuda, release the handle it is told about (the report is of
 * the moment the call began) or make new ones (not reported this time).
 * Errors: DC_ERROR_INVALID_ARGUMENT (NULL fn).
 */
DC_API dc_status dc_handle_visit(dc_handle_fn fn, DC_USER_DATA DC_NULLABLE void* user_data);

/* =========================================================================
 * Diagnostics: telemetry (NVML)
 * ========================================================================= */

/* The fields of dc_device_telemetry, by their index in field_status and
 * field_nvml_result. */
DC_CONSTANTS(dc_telemetry_field, enumeration, int32_t)
#define DC_TELEMETRY_FIELD_TEMPERATURE         0   /**< temperature_c */
#define DC_TELEMETRY_FIELD_POWER               1   /**< power_mw */
#define DC_TELEMETRY_FIELD_POWER_LIMIT         2   /**< power_limit_mw */
#define DC_TELEMETRY_FIELD_SM_CLOCK            3   /**< sm_clock_mhz */
#define DC_TELEMETRY_FIELD_MEMORY_CLOCK        4   /**< memory_clock_mhz */
#define DC_TELEMETRY_FIELD_UTILIZATION         5   /**< gpu_utilization_percent, memory_utilization_percent */
#define DC_TELEMETRY_FIELD_MEMORY              6   /**< memory_used_bytes, memory_total_bytes */
#define DC_TELEMETRY_FIELD_PCIE_THROUGHPUT     7   /**< pcie_tx_kib_per_s, pcie_rx_kib_per_s */
#define DC_TELEMETRY_FIELD_NVLINK_LINKS        8   /**< nvlink_active_links */
#define DC_TELEMETRY_FIELD_THROTTLE_REASONS    9   /**< throttle_reasons */
#define DC_TELEMETRY_FIELD_ECC_ERRORS          10  /**< ecc_corrected, ecc_uncorrected */
#define DC_TELEMETRY_FIELD_PROCESSES           11  /**< running_processes */
#define DC_TELEMETRY_FIELD_FAN_SPEED           12  /**< fan_speed_percent */
#define DC_TELEMETRY_FIELD_NVLINK_TRAFFIC      13  /**< nvlink_tx_kib, nvlink_rx_kib */

/* Why a telemetry field is unavailable (field_status); 0 when it is there. */
DC_CONSTANTS(dc_telemetry_reason, enumeration, int32_t)
/** The value was read. */
#define DC_TELEMETRY_AVAILABLE      0
/** NVML could not be loaded or initialised: dc_telemetry_library says why. */
#define DC_TELEMETRY_NO_NVML        1
/** No NVML device has this CUDA device's UUID (a MIG instance, a device
 *  hidden from NVML, or NVML from another driver). */
#define DC_TELEMETRY_NOT_MAPPED     2
/** The device or its driver does not offer it (NVML_ERROR_NOT_SUPPORTED:
 *  a fan on a passively cooled board, ECC on a GPU without it). */
#define DC_TELEMETRY_NOT_SUPPORTED  3
/** The process may not read it (NVML_ERROR_NO_PERMISSION). */
#define DC_TELEMETRY_NO_PERMISSION  4
/** The GPU fell off the bus (NVML_ERROR_GPU_IS_LOST). */
#define DC_TELEMETRY_GPU_LOST       5
/** NVML failed otherwise: field_nvml_result holds its nvmlReturn_t. */
#define DC_TELEMETRY_FAILED         6
/** The loaded NVML lacks the function (an older driver). */
#define DC_TELEMETRY_MISSING_ENTRY  7

/**
 * One snapshot of a device's telemetry (dc_device_telemetry). A field is valid
 * only where field_status[its DC_TELEMETRY_FIELD_*] is DC_TELEMETRY_AVAILABLE;
 * otherwise it reads 0 and the status says why.
 */
typedef struct dc_device_telemetry {
  uint32_t struct_size;              /**< sizeof(dc_device_telemetry) */
  int32_t  nvml_index;               /**< NVML's index of the device (nvidia-smi's), -1 when not mapped */
  uint64_t timestamp_us;             /**< when it was taken: microseconds since the Unix epoch */
  int64_t  temperature_c;            /**< GPU core, degrees Celsius */
  uint64_t power_mw;                 /**< power draw, milliwatts */
  uint64_t power_limit_mw;           /**< enforced power limit, milliwatts */
  uint64_t sm_clock_mhz;             /**< current SM clock */
  uint64_t memory_clock_mhz;         /**< current memory clock */
  uint64_t gpu_utilization_percent;  /**< share of the last sample period a kernel ran */
  uint64_t memory_utilization_percent; /**< share of it device memory was read or written */
  uint64_t memory_used_bytes;        /**< device memory in use, every process */
  uint64_t memory_total_bytes;
  uint64_t pcie_tx_kib_per_s;        /**< PCIe throughput out of the GPU (a 20 ms sample) */
  uint64_t pcie_rx_kib_per_s;        /**< PCIe throughput into the GPU */
  uint64_t nvlink_active_links;      /**< NVLink links up (0 on a GPU without NVLink support: NOT_SUPPORTED) */
  uint64_t throttle_reasons;         /**< NVML's clocks event reason bits (nvmlClocksEventReason*); 0: none */
  uint64_t ecc_corrected;            /**< corrected ECC errors since the driver loaded */
  uint64_t ecc_uncorrected;          /**< uncorrected ECC errors since the driver loaded */
  uint64_t running_processes;        /**< compute processes on the device, this one included */
  uint64_t fan_speed_percent;        /**< the fan's intended speed */
  /** Data sent over every NVLink link of the device since the driver loaded,
   *  KiB: a counter (the throughput is the difference of two snapshots over
   *  the difference of their timestamp_us). NOT_SUPPORTED without NVLink. */
  uint64_t nvlink_tx_kib;
  uint64_t nvlink_rx_kib;            /**< data received over every NVLink link, KiB (a counter) */
  /** DC_TELEMETRY_* reason per field, indexed by DC_TELEMETRY_FIELD_* (room for growth; unused slots 0). */
  DC_FAMILY(dc_telemetry_reason) int32_t field_status[32];
  /** NVML's nvmlReturn_t behind each reason (0 when none), by the same index. */
  int32_t  field_nvml_result[32];
} dc_device_telemetry;

#define DC_DEVICE_TELEMETRY_INIT { (uint32_t)sizeof(dc_device_telemetry), -1, 0u, 0, 0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u, \
  0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u, {0}, {0} }

/**
 * Fill `telemetry` (the caller sets struct_size; every published size is
 * accepted and only that many bytes are written) with the device's telemetry
 * now, read from NVML, the NVIDIA driver's management library, which dccuda
 * loads at the first call (DCCUDA_NVML_LIBRARY, else libnvidia-ml.so.1 /
 * nvml.dll). The NVML device is found by the CUDA device's UUID, never by
 * ordinal (CUDA_VISIBLE_DEVICES and CUDA's ordering differ from NVML's). The
 * call succeeds whenever the arguments are good: each field the device, the
 * driver or the process's permissions do not give is marked in field_status
 * (and reads 0); without NVML every field is DC_TELEMETRY_NO_NVML, and
 * dc_telemetry_library says why. It takes some tens of milliseconds on a real
 * GPU (about fifteen NVML queries; NVML samples each PCIe counter over 20 ms):
 * poll it at human rates, not per kernel. Any thread.
 * Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT (NULL telemetry,
 * a struct_size smaller than the first published one).
 */
DC_API dc_status dc_device_telemetry_get(dc_device device, DC_INOUT dc_device_telemetry* telemetry);

/**
 * Where NVML was loaded from ("libnvidia-ml.so.1"), loading it if that was
 * not tried yet. Static for the life of the process. When NVML cannot be used,
 * DC_ERROR_NOT_SUPPORTED with a message saying what was tried, why it failed
 * and what to do; telemetry is then all DC_TELEMETRY_NO_NVML.
 * Errors: DC_ERROR_INVALID_ARGUMENT (NULL out), DC_ERROR_NOT_SUPPORTED.
 */
DC_API dc_status dc_telemetry_library(DC_OUT DC_LIFETIME(static) const char** path);

/* =========================================================================
 * Diagnostics: profiler ranges (NVTX)
 * ========================================================================= */

/*
 * Named ranges and marks for a profiler's timeline (Nsight Systems), sent
 * through NVTX v3's injection protocol: a profiler names its library in the
 * environment variable NVTX_INJECTION64_PATH, which dccuda loads at its first
 * range, mark or stream name, and the library receives them. Without a
 * profiler nothing is loaded and each of these calls costs about what an
 * empty dc_ call does (bench_launch measures it). Under a profiler dccuda also
 * names each stream it creates ("dccuda stream 3 (device 0)"), and
 * dc_stream_set_name names one yourself. Ranges are per thread, as NVTX's are:
 * pop on the thread that pushed.
 */

/**
 * Open a range named `name` (UTF-8, copied by the profiler) on the calling
 * thread, nested in the thread's open ranges. Any thread.
 * Errors: DC_ERROR_INVALID_ARGUMENT (NULL name).
 */
DC_API dc_status dc_range_push(DC_IN const char* name);

/**
 * Close the calling thread's innermost open range. Cannot fail: without a
 * profiler, when the thread has no range open, or in a forked child nothing
 * happens; it never touches the last error. Any thread.
 */
DC_API void dc_range_pop(void);

/**
 * An instant event named `name` on the timeline. Any thread.
 * Errors: DC_ERROR_INVALID_ARGUMENT (NULL name).
 */
DC_API dc_status dc_mark(DC_IN const char* name);

/**
 * Name `stream` `name` in the profiler's timeline (nvtxNameCuStreamA); does
 * nothing without a profiler. Any thread.
 * Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT (NULL name).
 */
DC_API dc_status dc_stream_set_name(dc_stream stream, DC_IN const char* name);

/**
 * Start and stop the profiler's collection (cuProfilerStart/Stop), for a
 * profiler started with collection off (nsys --capture-range=cudaProfilerApi):
 * the region between them is what it records. Without a profiler they do
 * nothing. `device`'s context is the one bound for the call. Any thread.
 * Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_NOT_SUPPORTED (the driver lacks
 * the entry point).
 */
DC_API dc_status dc_profiler_start(dc_device device);
/** See dc_profiler_start. Errors: as dc_profiler_start. */
DC_API dc_status dc_profiler_stop(dc_device device);

/* =========================================================================
 * Diagnostics: the launch-trace hook
 * ========================================================================= */

/** One kernel launch, as the launch-trace callbacks are told it. */
typedef struct dc_launch_trace {
  uint32_t struct_size;            /**< sizeof(dc_launch_trace) of the library that filled it */
  int32_t  device_ordinal;
  /** The kernel's name as the module has it (mangled for C++ kernels); valid
   *  during the callback only. */
  DC_LIFETIME(thread) const char* kernel_name;
  uint32_t grid[3];
  uint32_t block[3];
  uint32_t shared_memory_bytes;
  DC_FAMILY(dc_launch_flags) uint32_t flags;   /**< the launch's DC_LAUNCH_* flags */
  /** The CUstream it went to (what dc_stream_native gives). */
  DC_NATIVE void* stream;
  /** A number per traced launch in this process, from 1: matches a
   *  completion to its launch. */
  uint64_t sequence;
  /** In a completion: the kernel's GPU time in nanoseconds (between events
   *  recorded around it, about 0.5 us resolution); 0 in a launch. */
  uint64_t gpu_time_ns;
} dc_launch_trace;

#define DC_LAUNCH_TRACE_INIT { (uint32_t)sizeof(dc_launch_trace), -1, NULL, {0u, 0u, 0u}, {0u, 0u, 0u}, 0u, 0u, NULL, \
  0u, 0u }

/** A launch-trace callback: `trace` is library-owned, valid during the call only. */
typedef void (*dc_launch_trace_fn)(void* user_data, const dc_launch_trace* trace);

/**
 * Trace kernel launches: `on_launch(user_data, trace)` after each launch the
 * driver accepted (dc_launch_kernel, dc_launch_enqueue; launches captured into
 * a graph included, graph replays not), on the launching thread; and, when
 * `on_complete` is not NULL, `on_complete(user_data, trace)` once the kernel
 * has run, with its GPU time: dccuda then records an event before and after
 * each launch (not while the stream captures a graph: such launches get no
 * completion) and a thread of dccuda's waits for them and calls on_complete,
 * in launch order per device. Either function may be NULL; both NULL stops
 * tracing (completions still pending are dropped). One tracer per process: a
 * later call replaces the earlier one. While no tracer is set, a launch pays
 * one relaxed atomic load (bench_launch measures it); with on_complete, each
 * launch also pays two event records.
 *
 * The callbacks may run while dccuda holds its own locks, so they must be
 * quick and must not call dccuda: a fallible dc_ call from inside them fails
 * with DC_ERROR_INVALID_STATE, as inside the log callback (see
 * dc_set_log_callback), and a release function must not be called. When this
 * call returns, the previous callbacks run on no thread and are never called
 * again: their user_data may be freed.
 * Errors: DC_ERROR_INVALID_STATE (called from inside a dccuda callback).
 */
DC_API dc_status dc_set_launch_trace(DC_NULLABLE dc_launch_trace_fn on_launch,
                                     DC_NULLABLE dc_launch_trace_fn on_complete,
                                     DC_USER_DATA DC_NULLABLE void* user_data);

/* ---- cuBLAS ---- */

/*
 * cuBLAS through dccuda handles: a dc_blas is a cuBLAS handle bound to one
 * device and one dc_stream, with a workspace dccuda owns. Every matrix and
 * vector is a dc_buffer + a byte offset + a leading dimension or increment,
 * checked against the buffer before cuBLAS sees it: a call that would read or
 * write past a buffer is DC_ERROR_OUT_OF_RANGE naming the argument, never a
 * GPU fault. Matrices are column-major, as cuBLAS has them.
 *
 * Loading. cuBLAS is loaded at the first call that needs it:
 * DCCUDA_CUBLAS_LIBRARY alone if set; else libcublas.so.13, then .12
 * (cublas64_13.dll, cublas64_12.dll), first beside libdccuda, then by the
 * system's search, then in the toolkit's folders ($CUDA_HOME/lib64,
 * $CUDA_PATH/lib64, /usr/local/cuda/lib64). Without it every dc_blas call
 * fails with DC_ERROR_NOT_SUPPORTED saying what was tried and how to provide
 * it; a library that lacks an entry point a call needs fails that call with
 * DC_ERROR_NOT_SUPPORTED naming the function and the cuBLAS version that has it.
 *
 * Threads. A dc_blas may be used from any thread; dccuda serialises the calls
 * on one handle (a cuBLAS handle's stream, pointer mode and workspace are state
 * that two threads must not change under each other), so calls on one handle
 * are enqueued one after the other. For work in parallel, use one handle per
 * thread (and stream). Calls on different handles run concurrently.
 *
 * Ordering. Every call enqueues its work on the handle's stream and returns
 * (cuBLAS's semantics), except a level-1 result returned to host memory
 * (dc_blas_dot / dc_blas_nrm2 in host pointer mode), which waits for it. The
 * buffers used are noted as used on that stream (their release is ordered
 * after the work, see dc_buffer_release).
 *
 * Lifetimes. A dc_blas keeps its device, its stream and its workspace alive;
 * releasing the stream's handle first is allowed.
 */
typedef struct dc_blas_s* dc_blas;

/* Data types of matrices and vectors. */
DC_CONSTANTS(dc_blas_type, enumeration, int32_t)
#define DC_BLAS_F32   1  /**< float */
#define DC_BLAS_F64   2  /**< double */
#define DC_BLAS_F16   3  /**< IEEE half (GEMM only) */
#define DC_BLAS_BF16  4  /**< bfloat16 (GEMM only) */

/* Whether a matrix is used as stored or transposed (op(A)). */
DC_CONSTANTS(dc_blas_op, enumeration, int32_t)
#define DC_BLAS_OP_N  0  /**< as stored */
#define DC_BLAS_OP_T  1  /**< transposed */

/* Where scalars (alpha, beta) come from and level-1 results go. */
DC_CONSTANTS(dc_blas_pointer_mode, enumeration, int32_t)
/** alpha and beta are host values passed in the call; dot and nrm2 return
 *  their result to host memory (and wait for it). The default. */
#define DC_BLAS_POINTER_HOST    0
/** alpha and beta are read from device memory (a dc_buffer) when the work
 *  runs; dot and nrm2 write their result to device memory without waiting. */
#define DC_BLAS_POINTER_DEVICE  1

/* cuBLAS's math mode (cublasSetMathMode). */
DC_CONSTANTS(dc_blas_math_mode, enumeration, int32_t)
#define DC_BLAS_MATH_DEFAULT         0  /**< cuBLAS's default: tensor cores where the compute type allows */
#define DC_BLAS_MATH_PEDANTIC        2  /**< the reference order of operations, no tensor cores */
#define DC_BLAS_MATH_TF32_TENSOR_OP  3  /**< FP32 GEMMs may use TF32 tensor cores */

/* A GEMM's compute type: the precision of the products and sums. */
DC_CONSTANTS(dc_blas_compute, enumeration, int32_t)
#define DC_BLAS_COMPUTE_DEFAULT        0  /**< the data's own: 64F for F64, else 32F */
#define DC_BLAS_COMPUTE_32F            1  /**< float (with the handle's math mode) */
#define DC_BLAS_COMPUTE_32F_PEDANTIC   2  /**< float, the reference order, no tensor cores */
#define DC_BLAS_COMPUTE_32F_FAST_16F   3  /**< float; F32 inputs may be rounded to half (tensor cores) */
#define DC_BLAS_COMPUTE_32F_FAST_16BF  4  /**< float; F32 inputs may be rounded to bfloat16 (tensor cores) */
#define DC_BLAS_COMPUTE_32F_FAST_TF32  5  /**< float; F32 inputs may be rounded to TF32 (tensor cores) */
#define DC_BLAS_COMPUTE_64F            6  /**< double */
#define DC_BLAS_COMPUTE_64F_PEDANTIC   7  /**< double, the reference order */

/**
 * The loaded cuBLAS's version, major * 10000 + minor * 100 + patch (130100
 * for 13.1.0), loading it if needed. Errors: DC_ERROR_INVALID_ARGUMENT (NULL
 * out), DC_ERROR_NOT_SUPPORTED (no cuBLAS: the message says what was tried and
 * how to provide it).
 */
DC_API dc_status dc_blas_library_version(DC_OUT int32_t* version);

/**
 * Create a cuBLAS handle on `device`, bound to `stream` (NULL: the device's
 * legacy default stream, DC_STREAM_LEGACY, which dccuda's synchronous copies
 * use), in host pointer mode, the default math mode, with a workspace of
 * 32 MiB of the device's memory owned by the handle (dc_blas_set_workspace_size
 * changes it). The handle keeps the device and the stream alive.
 * Release it with dc_blas_release. Thread-safe.
 * Errors: DC_ERROR_INVALID_HANDLE (device or stream), DC_ERROR_INVALID_ARGUMENT
 * (NULL out; a stream of another device), DC_ERROR_NOT_SUPPORTED (no cuBLAS),
 * DC_ERROR_OUT_OF_MEMORY (the workspace, or cuBLAS's own allocation),
 * DC_ERROR_DRIVER (cuBLAS failed otherwise: the message names its status).
 */
DC_API dc_status dc_blas_create(dc_device device, DC_NULLABLE dc_stream stream, DC_OUT DC_OWNED dc_blas* blas);

/**
 * Release a handle. Work already enqueued completes; the cuBLAS handle is
 * destroyed now (cublasDestroy, which waits for the device), the workspace
 * is freed in order on the handle's stream, and the stream and device are
 * released if nothing else holds them. NULL or a released handle does nothing.
 */
DC_API void dc_blas_release(DC_OWNED DC_NULLABLE dc_blas blas);

/**
 * Bind the handle to another stream of its device (NULL: the legacy default
 * stream). Later calls enqueue there; the handle takes a new workspace of the
 * same size (work still running on the old stream keeps the old one, freed in
 * order after it). Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT
 * (a stream of another device), DC_ERROR_OUT_OF_MEMORY (the workspace),
 * DC_ERROR_DRIVER.
 */
DC_API dc_status dc_blas_set_stream(dc_blas blas, DC_NULLABLE dc_stream stream);

/** A new handle for the stream the handle is bound to. Errors: DC_ERROR_INVALID_HANDLE,
 *  DC_ERROR_INVALID_ARGUMENT (NULL out). */
DC_API dc_status dc_blas_stream(dc_blas blas, DC_OUT DC_OWNED dc_stream* stream);

/**
 * Set where scalars come from (DC_BLAS_POINTER_HOST, the default, or
 * DC_BLAS_POINTER_DEVICE); see each call for what it then takes.
 * Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT (another value),
 * DC_ERROR_DRIVER.
 */
DC_API dc_status dc_blas_set_pointer_mode(dc_blas blas, DC_FAMILY(dc_blas_pointer_mode) int32_t mode);

/**
 * Set cuBLAS's math mode (DC_BLAS_MATH_*). A GEMM's compute type, when not
 * DC_BLAS_COMPUTE_DEFAULT or _32F, overrides it for that GEMM.
 * Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT (another value),
 * DC_ERROR_DRIVER.
 */
DC_API dc_status dc_blas_set_math_mode(dc_blas blas, DC_FAMILY(dc_blas_math_mode) int32_t mode);

/**
 * Give the handle a workspace of `bytes` of the device's memory (0: none;
 * cuBLAS then uses slower algorithms for some GEMMs). The old one is freed in
 * order after the work already enqueued. Errors: DC_ERROR_INVALID_HANDLE,
 * DC_ERROR_OUT_OF_MEMORY, DC_ERROR_DRIVER.
 */
DC_API dc_status dc_blas_set_workspace_size(dc_blas blas, uint64_t bytes);

/** A GEMM: C = alpha * op(A) * op(B) + beta * C, op(A) m x k, op(B) k x n,
 *  C m x n, repeated batch_count times (strided-batched). Each matrix is
 *  column-major: element (i, j) of batch b of A at byte a_offset +
 *  (b * a_stride + j * lda + i) * element size of a_buffer (B, C likewise). */
typedef struct dc_blas_gemm_desc {
  uint32_t struct_size;             /**< sizeof(dc_blas_gemm_desc) */
  DC_FAMILY(dc_blas_op) int32_t transa;
  DC_FAMILY(dc_blas_op) int32_t transb;
  /** The type of A and B (DC_BLAS_*); C's is c_type. Combinations: F64 x F64
   *  -> F64 (compute 64F); F32 -> F32, F16 -> F16 or F32, BF16 -> BF16 or F32
   *  (compute 32F kinds; the _FAST_ ones with F32 data only). */
  DC_FAMILY(dc_blas_type) int32_t ab_type;
  DC_FAMILY(dc_blas_type) int32_t c_type;
  DC_FAMILY(dc_blas_compute) int32_t compute;
  int32_t reserved;                 /**< 0 */
  int64_t m;                        /**< rows of op(A) and C; >= 0 (0: nothing to do) */
  int64_t n;                        /**< columns of op(B) and C; >= 0 (0: nothing to do) */
  int64_t k;                        /**< columns of op(A), rows of op(B); >= 0 (0: C = beta * C, A and B unread) */
  int64_t batch_count;              /**< >= 1 (1: one GEMM, the strides unused) */
  dc_buffer a_buffer;               /**< A; may be NULL when k == 0 */
  uint64_t  a_offset;               /**< bytes from a_buffer's start to A's element (0, 0) of batch 0 */
  int64_t   lda;                    /**< >= max(1, stored rows): m for DC_BLAS_OP_N, k for DC_BLAS_OP_T */
  int64_t   a_stride;               /**< elements between A's batches (>= 0; 0 reuses one A) */
  dc_buffer b_buffer;               /**< B; may be NULL when k == 0 */
  uint64_t  b_offset;
  int64_t   ldb;                    /**< >= max(1, stored rows): k for DC_BLAS_OP_N, n for DC_BLAS_OP_T */
  int64_t   b_stride;
  dc_buffer c_buffer;               /**< C, read (beta != 0) and written */
  uint64_t  c_offset;
  int64_t   ldc;                    /**< >= max(1, m) */
  int64_t   c_stride;               /**< batches of C must not overlap: >= (n - 1) * ldc + m */
  /** Host pointer mode: the scalars, converted to the compute precision
   *  (float for the 32F kinds, double for 64F). */
  double alpha;
  double beta;
  /** Device pointer mode: where alpha and beta are (one scalar each of the
   *  compute precision: 4 bytes for 32F kinds, 8 for 64F); NULL in host mode. */
  DC_NULLABLE dc_buffer alpha_buffer;
  uint64_t  alpha_offset;
  DC_NULLABLE dc_buffer beta_buffer;
  uint64_t  beta_offset;
} dc_blas_gemm_desc;

#define DC_BLAS_GEMM_DESC_INIT { (uint32_t)sizeof(dc_blas_gemm_desc), DC_BLAS_OP_N, DC_BLAS_OP_N, DC_BLAS_F32, \
  DC_BLAS_F32, DC_BLAS_COMPUTE_DEFAULT, 0, 0, 0, 0, 1, NULL, 0u, 1, 0, NULL, 0u, 1, 0, NULL, 0u, 1, 0, \
  1, 0, NULL, 0u, NULL, 0u }

/**
 * Enqueue a GEMM (cublasGemmEx, or cublasGemmStridedBatchedEx when
 * batch_count > 1) on the handle's stream. Checked before cuBLAS sees it: the
 * enums and their combination, sizes >= 0, ld >= the stored rows (A: m for
 * N, k for T; B: k for N, n for T; C: m), and each matrix's last element of
 * the last batch, computed in 64 bits without overflow, inside its buffer;
 * C's batches must not overlap (stride >= its extent) when batch_count > 1.
 * Every buffer must be on the handle's device and device-accessible.
 * Errors: DC_ERROR_INVALID_HANDLE (the handle or a buffer), DC_ERROR_INVALID_ARGUMENT
 * (NULL desc, a bad struct_size, enum, combination, size, ld or stride: the
 * message names the field; a buffer of another device or one the device cannot
 * read; scalars given in the wrong pointer mode), DC_ERROR_OUT_OF_RANGE (a
 * matrix or scalar past its buffer: the message names it, the bytes needed
 * and the buffer's size), DC_ERROR_NOT_SUPPORTED (no cuBLAS, or it lacks the
 * entry point), DC_ERROR_DRIVER (cuBLAS refused it: the message names its status).
 */
DC_API dc_status dc_blas_gemm(dc_blas blas, DC_IN const dc_blas_gemm_desc* desc);

/*
 * Level 1 and 2 (F32 or F64). Vectors are a buffer, a byte offset and an
 * increment (inc > 0: element i at offset + i * inc * element size). Scalars:
 * in host pointer mode `alpha` and `beta` are the values and `scalars` must be
 * NULL; in device pointer mode `alpha`/`beta` are ignored and the scalars are
 * read from `scalars` at `scalars_offset` (alpha, then beta right after it,
 * each of the data type). Errors of each: DC_ERROR_INVALID_HANDLE,
 * DC_ERROR_INVALID_ARGUMENT (a type other than F32/F64, n < 0, inc < 1, a bad
 * ld or trans, scalars in the wrong mode, a buffer of another device),
 * DC_ERROR_OUT_OF_RANGE (a vector, matrix or scalar past its buffer, named),
 * DC_ERROR_NOT_SUPPORTED (no cuBLAS), DC_ERROR_DRIVER.
 */

/** y = alpha * x + y over n elements (cublas?axpy). Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT,
 *  DC_ERROR_OUT_OF_RANGE, DC_ERROR_NOT_SUPPORTED, DC_ERROR_DRIVER (see above). */
DC_API dc_status dc_blas_axpy(dc_blas blas, DC_FAMILY(dc_blas_type) int32_t type, int64_t n, double alpha,
                              dc_buffer x, uint64_t x_offset, int64_t incx, dc_buffer y, uint64_t y_offset,
                              int64_t incy, DC_NULLABLE dc_buffer scalars, uint64_t scalars_offset);

/** x = alpha * x over n elements (cublas?scal). Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT,
 *  DC_ERROR_OUT_OF_RANGE, DC_ERROR_NOT_SUPPORTED, DC_ERROR_DRIVER (see above). */
DC_API dc_status dc_blas_scal(dc_blas blas, DC_FAMILY(dc_blas_type) int32_t type, int64_t n, double alpha,
                              dc_buffer x, uint64_t x_offset, int64_t incx, DC_NULLABLE dc_buffer scalars,
                              uint64_t scalars_offset);

/**
 * The dot product of x and y over n elements (cublas?dot). Host pointer mode:
 * written to *result (waits for it); `scalars` NULL. Device pointer mode: written
 * to `scalars` at `scalars_offset` (one element of the type), *result untouched
 * and may be NULL.
 * Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT (also a NULL result
 * in host mode), DC_ERROR_OUT_OF_RANGE, DC_ERROR_NOT_SUPPORTED, DC_ERROR_DRIVER.
 */
DC_API dc_status dc_blas_dot(dc_blas blas, DC_FAMILY(dc_blas_type) int32_t type, int64_t n, dc_buffer x,
                             uint64_t x_offset, int64_t incx, dc_buffer y, uint64_t y_offset, int64_t incy,
                             DC_OUT DC_NULLABLE double* result, DC_NULLABLE dc_buffer scalars, uint64_t scalars_offset);

/** The Euclidean norm of x over n elements (cublas?nrm2); the result as dc_blas_dot's.
 *  Errors: as dc_blas_dot. */
DC_API dc_status dc_blas_nrm2(dc_blas blas, DC_FAMILY(dc_blas_type) int32_t type, int64_t n, dc_buffer x,
                              uint64_t x_offset, int64_t incx, DC_OUT DC_NULLABLE double* result,
                              DC_NULLABLE dc_buffer scalars, uint64_t scalars_offset);

/**
 * y = alpha * op(A) * x + beta * y (cublas?gemv): A is m x n column-major with
 * leading dimension lda >= max(1, m); x has n elements (m for DC_BLAS_OP_T),
 * y m (n for DC_BLAS_OP_T); in device pointer mode alpha and beta are read from
 * `scalars` (two elements). Errors: DC_ERROR_INVALID_HANDLE,
 * DC_ERROR_INVALID_ARGUMENT, DC_ERROR_OUT_OF_RANGE, DC_ERROR_NOT_SUPPORTED,
 * DC_ERROR_DRIVER.
 */
DC_API dc_status dc_blas_gemv(dc_blas blas, DC_FAMILY(dc_blas_type) int32_t type, DC_FAMILY(dc_blas_op) int32_t trans,
                              int64_t m, int64_t n, double alpha, dc_buffer a, uint64_t a_offset, int64_t lda,
                              dc_buffer x, uint64_t x_offset, int64_t incx, double beta, dc_buffer y,
                              uint64_t y_offset, int64_t incy, DC_NULLABLE dc_buffer scalars, uint64_t scalars_offset);
/* ---- cuFFT ---- */

/*
 * Fast Fourier transforms through NVIDIA's cuFFT, on dc_buffers and
 * dc_streams. cuFFT is loaded at run time at the first dc_fft_ call that needs
 * it (DCCUDA_CUFFT_LIBRARY, else libcufft.so.12 then .11, cufft64_12.dll then
 * cufft64_11.dll, looked for as NVRTC is: beside libdccuda, the system's
 * search, the toolkit's folders); without it every such call fails with
 * DC_ERROR_NOT_SUPPORTED naming the library, what was tried and how to provide
 * it. dccuda itself never needs cuFFT to build or to load.
 *
 * A plan (dc_fft_plan) is one transform shape on one device: rank 1 to 3,
 * sizes, a batch, a type (complex to complex, real to complex, complex to
 * real: the descriptor's kind) and a precision, in cuFFT's basic layout or the advanced one
 * (cufftPlanMany's embed, stride and distance). dccuda allocates the plan's
 * work area itself (as device memory of the device, freed with the plan), runs
 * the plan on a stream of yours, and checks every buffer against the bytes the
 * plan reads or writes before cuFFT sees it.
 *
 * Plan cache. Making a cuFFT plan costs milliseconds; a released plan is kept
 * idle, per device, and a dc_fft_plan_create with the same descriptor (every
 * field) takes it again instead of planning anew. At most
 * DCCUDA_FFT_PLAN_CACHE idle plans are kept per device (default 16; 0: none,
 * every release destroys its plan), the least recently released going first.
 * A plan is never shared between two live handles (cuFFT plans may not run on
 * two streams at once): a second create of the same shape while the first
 * lives plans anew. An idle plan keeps its device's context and its work area
 * until it is reused, pushed out, or the process ends; dc_fft_plan_cache_trim
 * gives them back earlier.
 *
 * Numbers. cuFFT's transforms are unnormalised: a forward transform followed
 * by an inverse one multiplies the data by the product of the sizes.
 * Single-precision results are typically within ~1e-6 * log2(n) of the exact
 * transform, relative to the data's norm; double precision ~1e-15 * log2(n).
 */

typedef struct dc_fft_plan_s* dc_fft_plan;

/* dc_fft_desc.kind */
DC_CONSTANTS(dc_fft_type, enumeration, int32_t)
#define DC_FFT_C2C 1  /**< complex to complex, forward or inverse */
#define DC_FFT_R2C 2  /**< real to complex (the non-redundant half), forward only */
#define DC_FFT_C2R 3  /**< complex (the half) to real, inverse only */

/* dc_fft_desc.precision */
DC_CONSTANTS(dc_fft_precision, enumeration, int32_t)
#define DC_FFT_SINGLE 1  /**< float; complex = two floats (8 bytes, aligned to 8) */
#define DC_FFT_DOUBLE 2  /**< double; complex = two doubles (16 bytes, aligned to 16) */

/* dc_fft_execute's direction */
DC_CONSTANTS(dc_fft_direction, enumeration, int32_t)
#define DC_FFT_FORWARD (-1)  /**< exp(-2 pi i jk/n): C2C and R2C */
#define DC_FFT_INVERSE 1     /**< exp(+2 pi i jk/n): C2C and C2R */

/*
 * A transform's shape. sizes[0..rank-1] are the logical sizes, the slowest
 * varying first (as cuFFT's n; C order): a 2D transform of rows x columns has
 * sizes {rows, columns}. For R2C and C2R the complex side holds
 * sizes[rank-1]/2 + 1 elements in its last dimension.
 *
 * Basic layout (advanced_layout 0): transforms lie one after another, packed;
 * for an in-place R2C or C2R (the same buffer and offset on both sides) the
 * real side's rows are padded to 2 * (sizes[rank-1]/2 + 1) reals, as cuFFT
 * (and FFTW) require.
 *
 * Advanced layout (advanced_layout 1): as cufftPlanMany takes it. Element
 * (b, x[0..rank-1]) of the input is at element index
 *   b * idist + ((x[0] * inembed[1] + x[1]) * inembed[2] + x[2]) * istride
 * (for rank 3; fewer terms for less), and the output likewise with onembed,
 * ostride and odist; inembed[0] and onembed[0] are not used by the address and
 * may be 0. Element: a real or a complex of the precision, by the side's type.
 * Every value must be at most 2^62 (cuFFT's 64-bit interface takes signed values).
 */
typedef struct dc_fft_desc {
  uint32_t struct_size;                           /**< sizeof(dc_fft_desc) */
  int32_t  rank;                                  /**< 1, 2 or 3 */
  DC_FAMILY(dc_fft_type) int32_t kind;            /**< DC_FFT_C2C, DC_FFT_R2C, DC_FFT_C2R */
  DC_FAMILY(dc_fft_precision) int32_t precision;  /**< DC_FFT_SINGLE, DC_FFT_DOUBLE */
  uint64_t sizes[3];                              /**< the first `rank` used, each >= 1 */
  uint64_t batch;                                 /**< transforms in one execute, >= 1 */
  int32_t  advanced_layout;                       /**< 0: basic layout; 1: the fields below */
  int32_t  reserved;                              /**< 0 */
  uint64_t inembed[3];                            /**< input storage sizes (advanced layout) */
  uint64_t istride;                               /**< input element stride, >= 1 (advanced layout) */
  uint64_t idist;                                 /**< input elements between transforms (advanced layout) */
  uint64_t onembed[3];                            /**< output storage sizes (advanced layout) */
  uint64_t ostride;                               /**< output element stride, >= 1 (advanced layout) */
  uint64_t odist;                                 /**< output elements between transforms (advanced layout) */
} dc_fft_desc;

#define DC_FFT_DESC_INIT { (uint32_t)sizeof(dc_fft_desc), 1, DC_FFT_C2C, DC_FFT_SINGLE, {0u, 0u, 0u}, 1u, 0, 0, \
  {0u, 0u, 0u}, 1u, 0u, {0u, 0u, 0u}, 1u, 0u }

/* What a plan needs, as dc_fft_plan_info reports it. */
typedef struct dc_fft_plan_info {
  uint32_t struct_size;        /**< sizeof(dc_fft_plan_info) */
  int32_t  reused;             /**< 1: the plan came from the plan cache; 0: planned anew */
  uint64_t work_area_bytes;    /**< the work area dccuda allocated for it */
  uint64_t input_bytes;        /**< bytes the input must hold from its offset (out of place) */
  uint64_t output_bytes;       /**< bytes the output must hold from its offset (out of place) */
  uint64_t in_place_bytes;     /**< bytes one buffer must hold from its offset in place */
  int32_t  cufft_version;      /**< cufftGetVersion of the loaded cuFFT (12000: 12.0.0) */
  int32_t  device_ordinal;
} dc_fft_plan_info;

#define DC_FFT_PLAN_INFO_INIT { (uint32_t)sizeof(dc_fft_plan_info), 0, 0u, 0u, 0u, 0u, 0, -1 }

/**
 * The loaded cuFFT's version as cufftGetVersion gives it (major * 1000 +
 * minor * 100 + patch: 11206 is 11.2.6), loading cuFFT if it is not loaded.
 * Any thread.
 * Errors: DC_ERROR_INVALID_ARGUMENT (NULL version), DC_ERROR_NOT_SUPPORTED
 * (cuFFT is not there: the message says what was tried and how to provide it).
 */
DC_API dc_status dc_fft_library_version(DC_OUT int32_t* version);

/**
 * Make a plan for the transform `desc` describes on `device`: from the plan
 * cache when an idle plan of the same descriptor is there, else with
 * cufftCreate, cufftSetAutoAllocation(0), cufftMakePlanMany64 and a work area
 * dccuda allocates. The plan runs on the device's legacy default stream until
 * dc_fft_plan_set_stream. `desc` is read during the call only. Release it
 * with dc_fft_plan_release; it keeps its device, its stream and its work area
 * alive. Any thread; one plan must not be executed from two threads at once.
 * Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT (NULL desc or
 * out, a wrong struct_size, a rank other than 1-3, an unknown kind or
 * precision, a size or batch of 0, a value above 2^62, an advanced layout
 * with a stride of 0, an embed (past the first) smaller than its extent, or a
 * distance of 0 with a batch above 1; reserved not 0; a transform larger than
 * 2^64 bytes; cuFFT refusing the shape:
 * CUFFT_INVALID_SIZE, CUFFT_INVALID_VALUE), DC_ERROR_NOT_SUPPORTED (no cuFFT,
 * or CUFFT_NOT_SUPPORTED), DC_ERROR_OUT_OF_MEMORY (the work area or cuFFT's
 * own memory), DC_ERROR_DRIVER (another cuFFT failure, named in the message).
 */
DC_API dc_status dc_fft_plan_create(dc_device device, DC_IN const dc_fft_desc* desc, DC_OUT DC_OWNED dc_fft_plan* plan);

/**
 * Release `plan`: it goes to the device's plan cache (see "Plan cache"), or,
 * when the cache is full or off, its cuFFT plan is destroyed and its work area
 * freed in order behind the work enqueued with it. Work already enqueued
 * completes. Any thread.
 */
DC_API void dc_fft_plan_release(DC_OWNED dc_fft_plan plan);

/**
 * Run `plan`'s later executes on `stream` (a stream of the plan's device;
 * NULL: the device's legacy default stream). The plan keeps the stream alive.
 * Work the plan enqueued on its previous stream is waited for by the new one
 * before the first execute there (the work area is shared). Any thread, not
 * concurrently with an execute of the same plan.
 * Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT (a stream of
 * another device), DC_ERROR_DRIVER (cufftSetStream failed).
 */
DC_API dc_status dc_fft_plan_set_stream(dc_fft_plan plan, DC_NULLABLE dc_stream stream);

/**
 * What `plan` needs: its work area and the bytes its input and output must
 * hold (see dc_fft_plan_info), and whether it came from the cache. Any thread.
 * Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT (NULL info or a
 * wrong struct_size).
 */
DC_API dc_status dc_fft_plan_info_get(dc_fft_plan plan, DC_INOUT dc_fft_plan_info* info);

/**
 * Run `plan` on its stream: read the input from `in` at byte `in_offset`,
 * write the output to `out` at byte `out_offset`. `direction` is
 * DC_FFT_FORWARD or DC_FFT_INVERSE for C2C, DC_FFT_FORWARD for R2C,
 * DC_FFT_INVERSE for C2R. In place when `in` and `out` are the same buffer and
 * the offsets are equal (the basic layout's real side then padded: see
 * dc_fft_desc); two ranges that overlap otherwise are refused. Both buffers
 * must be device-accessible memory of the plan's device (device, managed or
 * pinned), each holding the bytes the plan reads or writes from its offset,
 * and each offset a multiple of the side's element size (8 or 16 bytes for
 * complex, 4 or 8 for real). Asynchronous: returns once enqueued; the plan
 * keeps nothing of the buffers, which are freed in order after the transform
 * if released meanwhile. C2R overwrites its input (cuFFT may use it as
 * scratch), as cuFFT documents. Any thread, one execute of a plan at a time.
 * Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT (a direction the
 * type does not take, an offset not a multiple of the element size, buffers of
 * another device, overlapping ranges that are not in place),
 * DC_ERROR_OUT_OF_RANGE (a buffer smaller than what the plan reads or writes:
 * the message names "input" or "output", the bytes needed and the buffer's
 * size), DC_ERROR_DRIVER (cuFFT failed, named in the message).
 */
DC_API dc_status dc_fft_execute(dc_fft_plan plan, dc_buffer in, uint64_t in_offset, dc_buffer out, uint64_t out_offset,
                                DC_FAMILY(dc_fft_direction) int32_t direction);

/**
 * Destroy idle plans of `device` in its plan cache until at most `keep` are
 * left (0: all), the least recently released first, freeing their cuFFT plans
 * and work areas. Live plans are not touched. Any thread.
 * Errors: DC_ERROR_INVALID_HANDLE.
 */
DC_API dc_status dc_fft_plan_cache_trim(dc_device device, uint32_t keep);
/* ---- NCCL ---- */
/* -------------------------------------------------------------------------
 * NCCL: communicators and collectives over several GPUs (Linux only)
 * ------------------------------------------------------------------------- */

/*
 * NVIDIA's NCCL (libnccl.so.2) runs the collectives: dccuda loads it at the
 * first call that needs it (DCCUDA_NCCL_LIBRARY, else libnccl.so.2 beside
 * libdccuda, then the system's search, then the toolkit's lib64 and lib
 * folders), has no build-time dependency on it, and checks every argument
 * before NCCL sees it. Without NCCL (and always on Windows, where NVIDIA ships
 * none) every call here fails with DC_ERROR_NOT_SUPPORTED naming what was
 * tried and how to provide the library; a call that needs a newer NCCL than
 * the one loaded (dc_comm_split: 2.18) names the version it needs.
 *
 * A dc_comm is one rank of a communicator: one GPU (its dc_device, kept alive
 * by the comm) taking part in collectives with the other ranks. Several GPUs
 * of one process: dc_comm_init_all. One GPU per process (or per machine):
 * rank 0 makes an id with dc_nccl_unique_id, hands its bytes to the others by
 * any transport (MPI, a socket, a file), and every process calls
 * dc_comm_init_rank with it.
 *
 * Threads (NCCL's rules, which dccuda keeps): one dc_comm is used by one
 * thread at a time (calls on different comms may run on different threads at
 * once); dc_comm_abort is the exception, callable from any thread at any time.
 * When one thread drives several ranks, their collectives must be issued
 * between dc_nccl_group_start and dc_nccl_group_end (else the first rank
 * waits for the others forever). Collectives are enqueued on the given stream
 * and return before they run; they complete only when every rank has issued
 * the same collective, in the same order. A rank whose peers never come (a
 * crashed process, a mismatched order) hangs its stream: that is what a hang
 * means here, and dc_comm_abort from another thread is the way out (the comm
 * is then unusable: release it and build another).
 *
 * Buffers are dc_buffers of device memory on the comm's device, with byte
 * offsets; counts are in elements of `datatype` (DC_NCCL_*); the stream must
 * be on the comm's device. Every call checks, before NCCL sees anything, that
 * count x element size (times the rank count where the collective says so)
 * fits each buffer from its offset (DC_ERROR_OUT_OF_RANGE naming the buffer),
 * that root and peer ranks are in range, and that buffer, stream and comm share
 * the device (DC_ERROR_INVALID_ARGUMENT).
 */

/* The size of an NCCL unique id (dc_nccl_unique_id, dc_comm_init_rank). */
DC_CONSTANTS(dc_nccl_sizes, values, int32_t)
#define DC_NCCL_UNIQUE_ID_BYTES 128

/* Element types of NCCL's collectives (mapped to ncclDataType_t). */
DC_CONSTANTS(dc_nccl_datatype, enumeration, int32_t)
#define DC_NCCL_INT8     1
#define DC_NCCL_UINT8    2
#define DC_NCCL_INT32    3
#define DC_NCCL_UINT32   4
#define DC_NCCL_INT64    5
#define DC_NCCL_UINT64   6
/** IEEE half precision. */
#define DC_NCCL_FLOAT16  7
#define DC_NCCL_FLOAT32  8
#define DC_NCCL_FLOAT64  9
/** bfloat16 (NCCL 2.10 and newer). */
#define DC_NCCL_BFLOAT16 10

/* Reductions (mapped to ncclRedOp_t). */
DC_CONSTANTS(dc_nccl_op, enumeration, int32_t)
#define DC_NCCL_SUM  1
#define DC_NCCL_PROD 2
#define DC_NCCL_MIN  3
#define DC_NCCL_MAX  4
/** The sum divided by the rank count (NCCL 2.10 and newer; integer types
 *  divide as integers). */
#define DC_NCCL_AVG  5

/* The color of dc_comm_split for a rank that joins no new communicator. */
DC_CONSTANTS(dc_comm_split_color, values, int32_t)
#define DC_COMM_SPLIT_NO_COLOR (-1)

/**
 * The NCCL version, major*10000 + minor*100 + patch (22809 for 2.28.9),
 * loading NCCL if it was not. Any thread.
 * Errors: DC_ERROR_INVALID_ARGUMENT (NULL out), DC_ERROR_NOT_SUPPORTED (no
 * usable NCCL: the message names what was tried and how to provide it).
 */
DC_API dc_status dc_nccl_library_version(DC_OUT int32_t* version);

/**
 * A new unique id for dc_comm_init_rank (ncclGetUniqueId), written as
 * DC_NCCL_UNIQUE_ID_BYTES bytes to `bytes` for the caller to hand to every
 * rank by its own means. Made once per communicator, by one process (rank 0 by
 * custom); it also starts NCCL's bootstrap listener in that process. Any thread.
 * Errors: DC_ERROR_INVALID_ARGUMENT (NULL bytes, size not
 * DC_NCCL_UNIQUE_ID_BYTES), DC_ERROR_NOT_SUPPORTED (no NCCL), DC_ERROR_DRIVER
 * (NCCL failed: its message is quoted).
 */
DC_API dc_status dc_nccl_unique_id(DC_OUT DC_ARRAY(size) uint8_t* bytes, uint64_t size);

/**
 * Join communicator `id` (dc_nccl_unique_id's bytes, the same in every rank)
 * as rank `rank` of `nranks`, on `device` (ncclCommInitRank). Blocks until all
 * nranks ranks have joined: each rank calls it from its own process or
 * thread, or, for several ranks from one thread, between dc_nccl_group_start
 * and dc_nccl_group_end (the comms are then usable after group end). The comm
 * keeps the device alive; release it with dc_comm_release.
 * Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT (NULL id or out,
 * id_size not DC_NCCL_UNIQUE_ID_BYTES, nranks < 1, rank outside 0..nranks-1),
 * DC_ERROR_NOT_SUPPORTED (no NCCL), DC_ERROR_INVALID_STATE (NCCL refused the
 * use: a rank joined twice), DC_ERROR_DRIVER (NCCL failed: its message is
 * quoted), DC_ERROR_CONTEXT_LOST.
 */
DC_API dc_status dc_comm_init_rank(dc_device device, int32_t nranks, DC_IN DC_ARRAY(id_size) const uint8_t* id,
                                   uint64_t id_size, int32_t rank, DC_OUT DC_OWNED dc_comm* comm);

/**
 * One communicator over `count` devices of this process (ncclCommInitAll):
 * comms[i] is rank i, on the device of ordinal ordinals[i] (as dc_device_open
 * takes it; the comm opens the device and keeps it alive); each a handle of
 * its own, released with dc_comm_release. A device may not appear twice. Any
 * thread; blocks until the communicator is built. On failure every comms[i]
 * is NULL (only comms[0] when count is not a device count).
 * Errors: DC_ERROR_INVALID_ARGUMENT (NULL array, count outside 1 .. the
 * number of devices, a device twice; nothing is written to comms then),
 * DC_ERROR_NO_DEVICE (an ordinal the driver does not have), DC_ERROR_NO_DRIVER,
 * DC_ERROR_NOT_SUPPORTED (no NCCL), DC_ERROR_INVALID_STATE, DC_ERROR_DRIVER
 * (NCCL failed), DC_ERROR_CONTEXT_LOST.
 */
DC_API dc_status dc_comm_init_all(DC_IN DC_ARRAY(count) const int32_t* ordinals, int32_t count,
                                  DC_OUT DC_OWNED DC_ARRAY(count) dc_comm* comms);

/**
 * Split a communicator (ncclCommSplit, NCCL 2.18+): every rank of `comm`
 * calls it (from its own thread, or grouped from one thread); the ranks that
 * pass the same `color` form a new communicator, ordered by `key` (ties by
 * their old rank). A rank passing DC_COMM_SPLIT_NO_COLOR joins none: *out is
 * then NULL and the call succeeds. The new comm is on the same device.
 * Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT (NULL out, a
 * color below -1), DC_ERROR_NOT_SUPPORTED (NCCL older than 2.18: the message
 * names the version), DC_ERROR_INVALID_STATE (the comm was aborted),
 * DC_ERROR_DRIVER (NCCL failed), DC_ERROR_CONTEXT_LOST.
 */
DC_API dc_status dc_comm_split(dc_comm comm, int32_t color, int32_t key, DC_OUT DC_OWNED dc_comm* out);

/**
 * Abort the communicator (ncclCommAbort): its pending collectives stop, and a
 * thread waiting in one of them returns. The only call allowed while another
 * thread uses the comm: the way out of a hang (a peer that died). The comm is
 * unusable afterwards (every collective fails with DC_ERROR_INVALID_STATE);
 * release the handle as usual. Aborting again does nothing.
 * Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_DRIVER (NCCL failed).
 */
DC_API dc_status dc_comm_abort(dc_comm comm);

/** Release a communicator handle: unless it was aborted, the comm is finalised
 *  (ncclCommFinalize, which waits for its pending work, where NCCL has it) and
 *  destroyed (ncclCommDestroy) when no call holds it any more. NULL is
 *  ignored. Not while another thread uses the same comm. */
DC_API void dc_comm_release(DC_OWNED DC_NULLABLE dc_comm comm);

/**
 * The communicator's asynchronous error (ncclCommGetAsyncError): 0 when it is
 * healthy, else NCCL's ncclResult_t (e.g. 6, a remote error: a peer failed);
 * such a comm should be aborted. Any thread.
 * Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT (NULL out),
 * DC_ERROR_INVALID_STATE (the comm was aborted), DC_ERROR_DRIVER (NCCL failed).
 */
DC_API dc_status dc_comm_async_error(dc_comm comm, DC_OUT DC_NATIVE int32_t* nccl_result);

/** This comm's rank (0 .. count-1). Any thread.
 *  Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT (NULL out),
 *  DC_ERROR_INVALID_STATE (a comm split inside a group that has not ended, or
 *  aborted before its rank was known), DC_ERROR_DRIVER (NCCL failed). */
DC_API dc_status dc_comm_rank(dc_comm comm, DC_OUT int32_t* rank);

/** The number of ranks of the communicator. Any thread.
 *  Errors: as dc_comm_rank. */
DC_API dc_status dc_comm_count(dc_comm comm, DC_OUT int32_t* count);

/** The ordinal of the device this comm runs on (as dc_device_open takes it).
 *  Any thread. Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT (NULL out). */
DC_API dc_status dc_comm_device_ordinal(dc_comm comm, DC_OUT int32_t* ordinal);

/**
 * All-reduce (ncclAllReduce): every rank's `count` elements at send+send_offset
 * reduced with `op`, the result in every rank's recv+recv_offset. send and recv
 * may be the same buffer (in place when the offsets are equal too). Enqueued
 * on `stream`; returns before it runs (see the section's threads paragraph).
 * Errors: DC_ERROR_INVALID_HANDLE, DC_ERROR_INVALID_ARGUMENT (unknown
 * datatype or op, an op the NCCL loaded lacks, a buffer or stream on another
 * device than the comm's, host memory), DC_ERROR_OUT_OF_RANGE (count x element
 * size past a buffer's end, or overflowing), DC_ERROR_INVALID_STATE (the comm
 * was aborted), DC_ERROR_NOT_SUPPORTED (no NCCL, bfloat16 or avg before NCCL
 * 2.10), DC_ERROR_DRIVER (NCCL failed: its message is quoted), DC_ERROR_CONTEXT_LOST.
 */
DC_API dc_status dc_comm_all_reduce(dc_comm comm, dc_buffer send, uint64_t send_offset, dc_buffer recv,
                                    uint64_t recv_offset, uint64_t count, DC_FAMILY(dc_nccl_datatype) int32_t datatype,
                                    DC_FAMILY(dc_nccl_op) int32_t op, dc_stream stream);

/**
 * Broadcast (ncclBroadcast): rank `root`'s `count` elements at send+send_offset
 * copied to every rank's recv+recv_offset. `send` is read on the root only:
 * other ranks may pass NULL. Errors: as dc_comm_all_reduce, and
 * DC_ERROR_INVALID_ARGUMENT (root outside 0..count-1, NULL send on the root).
 */
DC_API dc_status dc_comm_broadcast(dc_comm comm, DC_NULLABLE dc_buffer send, uint64_t send_offset, dc_buffer recv,
                                   uint64_t recv_offset, uint64_t count, DC_FAMILY(dc_nccl_datatype) int32_t datatype,
                                   int32_t root, dc_stream stream);

/**
 * Reduce (ncclReduce): every rank's `count` elements reduced with `op` into
 * rank `root`'s recv+recv_offset. `recv` is written on the root only: other
 * ranks may pass NULL. Errors: as dc_comm_all_reduce, and
 * DC_ERROR_INVALID_ARGUMENT (root outside the ranks, NULL recv on the root).
 */
DC_API dc_status dc_comm_reduce(dc_comm comm, dc_buffer send, uint64_t send_offset, DC_NULLABLE dc_buffer recv,
                                uint64_t recv_offset, uint64_t count, DC_FAMILY(dc_nccl_datatype) int32_t datatype,
                                DC_FAMILY(dc_nccl_op) int32_t op, int32_t root, dc_stream stream);

/**
 * All-gather (ncclAllGather): every rank's `send_count` elements at
 * send+send_offset, rank i's placed at element i*send_count of every rank's
 * recv+recv_offset, which must hold nranks*send_count elements.
 * Errors: as dc_comm_all_reduce.
 */
DC_API dc_status dc_comm_all_gather(dc_comm comm, dc_buffer send, uint64_t send_offset, dc_buffer recv,
                                    uint64_t recv_offset, uint64_t send_count,
                                    DC_FAMILY(dc_nccl_datatype) int32_t datatype, dc_stream stream);

/**
 * Reduce-scatter (ncclReduceScatter): the ranks' nranks*recv_count elements at
 * send+send_offset reduced with `op`; rank i receives block i (recv_count
 * elements) at recv+recv_offset. Errors: as dc_comm_all_reduce.
 */
DC_API dc_status dc_comm_reduce_scatter(dc_comm comm, dc_buffer send, uint64_t send_offset, dc_buffer recv,
                                        uint64_t recv_offset, uint64_t recv_count,
                                        DC_FAMILY(dc_nccl_datatype) int32_t datatype,
                                        DC_FAMILY(dc_nccl_op) int32_t op, dc_stream stream);

/**
 * Send `count` elements at send+send_offset to rank `peer` (ncclSend, NCCL
 * 2.7+), which receives them with dc_comm_recv of the same count and datatype.
 * Sends and receives that must progress together (an exchange) go in one
 * group. Errors: as dc_comm_all_reduce, and DC_ERROR_INVALID_ARGUMENT (peer
 * outside the ranks).
 */
DC_API dc_status dc_comm_send(dc_comm comm, dc_buffer send, uint64_t send_offset, uint64_t count,
                              DC_FAMILY(dc_nccl_datatype) int32_t datatype, int32_t peer, dc_stream stream);

/** Receive `count` elements from rank `peer` into recv+recv_offset (ncclRecv,
 *  NCCL 2.7+). Errors: as dc_comm_send. */
DC_API dc_status dc_comm_recv(dc_comm comm, dc_buffer recv, uint64_t recv_offset, uint64_t count,
                              DC_FAMILY(dc_nccl_datatype) int32_t datatype, int32_t peer, dc_stream stream);

/**
 * Start a group (ncclGroupStart): the collectives, sends, receives, inits and
 * splits of the calling thread up to the matching dc_nccl_group_end are
 * issued together (several ranks from one thread; exchanges). Groups nest;
 * per thread. A call refused by dccuda's checks inside a group adds nothing
 * to it. Errors: DC_ERROR_NOT_SUPPORTED (no NCCL), DC_ERROR_DRIVER.
 */
DC_API dc_status dc_nccl_group_start(void);

/**
 * End the group (ncclGroupEnd): issues what it holds (the outermost end) and
 * returns once it is enqueued (inits and splits: once they are done).
 * Errors: DC_ERROR_NOT_SUPPORTED (no NCCL), DC_ERROR_INVALID_STATE (no group
 * was started, or NCCL found the group's calls mismatched), DC_ERROR_DRIVER
 * (NCCL failed: its message is quoted).
 */
DC_API dc_status dc_nccl_group_end(void);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* DCCUDA_H */
