// Every numeric #define of include/dccuda.h, with its C name and value. Flags the C API
// takes as uint32_t are uint here (the header writes them with a `u`); the rest are int.
// The C# tests compare this class with the header's #defines, so a new constant cannot be
// forgotten.
namespace Dccuda.Interop
{
    public static class NativeConstants
    {
        public const int DCCUDA_VERSION_MAJOR = 1;
        public const int DCCUDA_VERSION_MINOR = 0;
        public const int DCCUDA_VERSION_PATCH = 0;
        public const uint DCCUDA_VERSION = 1000000u;

        public const int DC_SUCCESS = 0;
        public const int DC_NOT_READY = 1;
        public const int DC_ERROR_INVALID_ARGUMENT = -1;
        public const int DC_ERROR_INVALID_HANDLE = -2;
        public const int DC_ERROR_NO_DRIVER = -3;
        public const int DC_ERROR_NOT_SUPPORTED = -4;
        public const int DC_ERROR_NO_DEVICE = -5;
        public const int DC_ERROR_OUT_OF_MEMORY = -6;
        public const int DC_ERROR_OUT_OF_RANGE = -7;
        public const int DC_ERROR_COMPILE = -8;
        public const int DC_ERROR_LAUNCH_FAILED = -9;
        public const int DC_ERROR_CONTEXT_LOST = -10;
        public const int DC_ERROR_INTERNAL = -11;
        public const int DC_ERROR_DRIVER = -12;
        public const int DC_ERROR_NO_COMPILER = -13;
        public const int DC_ERROR_NOT_FOUND = -14;
        public const int DC_ERROR_INVALID_IMAGE = -15;
        public const int DC_ERROR_INVALID_STATE = -16;
        public const int DC_ERROR_IO = -17;

        public const uint DC_INIT_NO_NVRTC = 1u;
        public const uint DC_INIT_NO_DISK_CACHE = 2u;
        public const uint DC_INIT_NO_MEMORY_CACHE = 4u;

        public const int DC_HANDLE_DEVICE = 1;
        public const int DC_HANDLE_BUFFER = 2;
        public const int DC_HANDLE_STREAM = 3;
        public const int DC_HANDLE_EVENT = 4;
        public const int DC_HANDLE_PROGRAM = 5;
        public const int DC_HANDLE_MODULE = 6;
        public const int DC_HANDLE_FUNCTION = 7;
        public const int DC_HANDLE_LAUNCH = 8;
        public const int DC_HANDLE_GRAPH = 9;

        public const int DC_PEER_ATTRIBUTE_PERFORMANCE_RANK = 1;
        public const int DC_PEER_ATTRIBUTE_ACCESS_SUPPORTED = 2;
        public const int DC_PEER_ATTRIBUTE_NATIVE_ATOMIC_SUPPORTED = 3;

        public const int DC_BUFFER_DEVICE = 1;
        public const int DC_BUFFER_PINNED = 2;
        public const int DC_BUFFER_MANAGED = 3;
        public const int DC_BUFFER_WRAPPED_DEVICE = 4;
        public const int DC_BUFFER_REGISTERED_HOST = 5;
        public const int DC_BUFFER_MODULE_GLOBAL = 6;

        public const uint DC_ALLOC_NO_POOL = 1u;
        public const uint DC_ALLOC_PORTABLE = 2u;
        public const uint DC_ALLOC_DEVICE_MAPPED = 4u;
        public const uint DC_ALLOC_WRITE_COMBINED = 8u;
        public const uint DC_ALLOC_ATTACH_HOST = 0x10u;
        public const uint DC_ALLOC_READ_ONLY = 0x20u;

        public const int DC_LOCATION_HOST = -1;

        public const int DC_ADVISE_SET_READ_MOSTLY = 1;
        public const int DC_ADVISE_UNSET_READ_MOSTLY = 2;
        public const int DC_ADVISE_SET_PREFERRED_LOCATION = 3;
        public const int DC_ADVISE_UNSET_PREFERRED_LOCATION = 4;
        public const int DC_ADVISE_SET_ACCESSED_BY = 5;
        public const int DC_ADVISE_UNSET_ACCESSED_BY = 6;

        public const int DC_COPY_PATH_SAME_DEVICE = 1;
        public const int DC_COPY_PATH_PEER = 2;
        public const int DC_COPY_PATH_STAGED = 3;
        public const int DC_COPY_PATH_HOST = 4;

        public const uint DC_STREAM_BLOCKING = 1u;

        public const int DC_STREAM_LEGACY = 1;
        public const int DC_STREAM_PER_THREAD = 2;

        public const uint DC_EVENT_DISABLE_TIMING = 1u;
        public const uint DC_EVENT_BLOCKING_SYNC = 2u;

        public const int DC_OUTPUT_CUBIN = 0;
        public const int DC_OUTPUT_PTX = 1;
        public const int DC_OUTPUT_LTOIR = 2;
        public const uint DC_COMPILE_FAST_MATH = 1u;
        public const uint DC_COMPILE_LINE_INFO = 2u;
        public const uint DC_COMPILE_DEVICE_DEBUG = 4u;
        public const uint DC_COMPILE_RELOCATABLE = 8u;
        public const uint DC_COMPILE_ARCH_SPECIFIC = 0x10u;
        public const uint DC_COMPILE_NO_CACHE = 0x20u;

        public const int DC_CACHE_MISS = 0;
        public const int DC_CACHE_MEMORY = 1;
        public const int DC_CACHE_DISK = 2;

        public const uint DC_CACHE_CLEAR_MEMORY = 1u;
        public const uint DC_CACHE_CLEAR_DISK = 2u;

        public const uint DC_JIT_LINE_INFO = 1u;
        public const uint DC_JIT_DEBUG = 2u;

        public const int DC_CACHE_PREFER_NONE = 0;
        public const int DC_CACHE_PREFER_SHARED = 1;
        public const int DC_CACHE_PREFER_L1 = 2;
        public const int DC_CACHE_PREFER_EQUAL = 3;

        public const uint DC_LAUNCH_COOPERATIVE = 1u;
        public const uint DC_LAUNCH_PROGRAMMATIC_SERIALIZATION = 2u;

        public const uint DC_ARG_VALUE = 1u;
        public const uint DC_ARG_BUFFER = 2u;

        public const int DC_CAPTURE_GLOBAL = 0;
        public const int DC_CAPTURE_THREAD_LOCAL = 1;
        public const int DC_CAPTURE_RELAXED = 2;
    }
}
