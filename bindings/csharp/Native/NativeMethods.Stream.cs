// Raw declarations: streams and events. Each mirrors its C prototype in include/dccuda.h
// (section "Streams and events"), where it is documented. See NativeMethods.Core.cs for the rules
// every declaration here follows.
using System;
using System.Runtime.InteropServices;

namespace Dccuda.Interop
{
    public static unsafe partial class NativeMethods
    {
#if NET7_0_OR_GREATER
        [LibraryImport(Lib, EntryPoint = "dc_stream_create")]
        public static partial
#else
        [DllImport(Lib, EntryPoint = "dc_stream_create", ExactSpelling = true, CallingConvention = CallingConvention.Cdecl)]
        public static extern
#endif
            int dc_stream_create(IntPtr device, uint flags, int priority, IntPtr* stream);

#if NET7_0_OR_GREATER
        [LibraryImport(Lib, EntryPoint = "dc_stream_priority_range")]
        public static partial
#else
        [DllImport(Lib, EntryPoint = "dc_stream_priority_range", ExactSpelling = true, CallingConvention = CallingConvention.Cdecl)]
        public static extern
#endif
            int dc_stream_priority_range(IntPtr device, int* least, int* greatest);

#if NET7_0_OR_GREATER
        [LibraryImport(Lib, EntryPoint = "dc_stream_get_default")]
        public static partial
#else
        [DllImport(Lib, EntryPoint = "dc_stream_get_default", ExactSpelling = true, CallingConvention = CallingConvention.Cdecl)]
        public static extern
#endif
            int dc_stream_get_default(IntPtr device, int which, IntPtr* stream);

#if NET7_0_OR_GREATER
        [LibraryImport(Lib, EntryPoint = "dc_stream_wrap")]
        public static partial
#else
        [DllImport(Lib, EntryPoint = "dc_stream_wrap", ExactSpelling = true, CallingConvention = CallingConvention.Cdecl)]
        public static extern
#endif
            int dc_stream_wrap(IntPtr device, void* cu_stream, IntPtr* stream);

#if NET7_0_OR_GREATER
        [LibraryImport(Lib, EntryPoint = "dc_stream_release")]
        public static partial
#else
        [DllImport(Lib, EntryPoint = "dc_stream_release", ExactSpelling = true, CallingConvention = CallingConvention.Cdecl)]
        public static extern
#endif
            void dc_stream_release(IntPtr stream);

#if NET7_0_OR_GREATER
        [LibraryImport(Lib, EntryPoint = "dc_stream_synchronize")]
        public static partial
#else
        [DllImport(Lib, EntryPoint = "dc_stream_synchronize", ExactSpelling = true, CallingConvention = CallingConvention.Cdecl)]
        public static extern
#endif
            int dc_stream_synchronize(IntPtr stream);

#if NET7_0_OR_GREATER
        [LibraryImport(Lib, EntryPoint = "dc_stream_query")]
        public static partial
#else
        [DllImport(Lib, EntryPoint = "dc_stream_query", ExactSpelling = true, CallingConvention = CallingConvention.Cdecl)]
        public static extern
#endif
            int dc_stream_query(IntPtr stream);

#if NET7_0_OR_GREATER
        [LibraryImport(Lib, EntryPoint = "dc_stream_wait_event")]
        public static partial
#else
        [DllImport(Lib, EntryPoint = "dc_stream_wait_event", ExactSpelling = true, CallingConvention = CallingConvention.Cdecl)]
        public static extern
#endif
            int dc_stream_wait_event(IntPtr stream, IntPtr @event);

#if NET7_0_OR_GREATER
        [LibraryImport(Lib, EntryPoint = "dc_stream_add_callback")]
        public static partial
#else
        [DllImport(Lib, EntryPoint = "dc_stream_add_callback", ExactSpelling = true, CallingConvention = CallingConvention.Cdecl)]
        public static extern
#endif
            int dc_stream_add_callback(IntPtr stream, IntPtr fn, IntPtr user_data);

#if NET7_0_OR_GREATER
        [LibraryImport(Lib, EntryPoint = "dc_stream_native")]
        public static partial
#else
        [DllImport(Lib, EntryPoint = "dc_stream_native", ExactSpelling = true, CallingConvention = CallingConvention.Cdecl)]
        public static extern
#endif
            int dc_stream_native(IntPtr stream, IntPtr* cu_stream);

#if NET7_0_OR_GREATER
        [LibraryImport(Lib, EntryPoint = "dc_stream_device")]
        public static partial
#else
        [DllImport(Lib, EntryPoint = "dc_stream_device", ExactSpelling = true, CallingConvention = CallingConvention.Cdecl)]
        public static extern
#endif
            int dc_stream_device(IntPtr stream, IntPtr* device);

#if NET7_0_OR_GREATER
        [LibraryImport(Lib, EntryPoint = "dc_event_create")]
        public static partial
#else
        [DllImport(Lib, EntryPoint = "dc_event_create", ExactSpelling = true, CallingConvention = CallingConvention.Cdecl)]
        public static extern
#endif
            int dc_event_create(IntPtr device, uint flags, IntPtr* @event);

#if NET7_0_OR_GREATER
        [LibraryImport(Lib, EntryPoint = "dc_event_release")]
        public static partial
#else
        [DllImport(Lib, EntryPoint = "dc_event_release", ExactSpelling = true, CallingConvention = CallingConvention.Cdecl)]
        public static extern
#endif
            void dc_event_release(IntPtr @event);

#if NET7_0_OR_GREATER
        [LibraryImport(Lib, EntryPoint = "dc_event_record")]
        public static partial
#else
        [DllImport(Lib, EntryPoint = "dc_event_record", ExactSpelling = true, CallingConvention = CallingConvention.Cdecl)]
        public static extern
#endif
            int dc_event_record(IntPtr @event, IntPtr stream);

#if NET7_0_OR_GREATER
        [LibraryImport(Lib, EntryPoint = "dc_event_synchronize")]
        public static partial
#else
        [DllImport(Lib, EntryPoint = "dc_event_synchronize", ExactSpelling = true, CallingConvention = CallingConvention.Cdecl)]
        public static extern
#endif
            int dc_event_synchronize(IntPtr @event);

#if NET7_0_OR_GREATER
        [LibraryImport(Lib, EntryPoint = "dc_event_query")]
        public static partial
#else
        [DllImport(Lib, EntryPoint = "dc_event_query", ExactSpelling = true, CallingConvention = CallingConvention.Cdecl)]
        public static extern
#endif
            int dc_event_query(IntPtr @event);

#if NET7_0_OR_GREATER
        [LibraryImport(Lib, EntryPoint = "dc_event_elapsed_ms")]
        public static partial
#else
        [DllImport(Lib, EntryPoint = "dc_event_elapsed_ms", ExactSpelling = true, CallingConvention = CallingConvention.Cdecl)]
        public static extern
#endif
            int dc_event_elapsed_ms(IntPtr start, IntPtr end, float* milliseconds);

#if NET7_0_OR_GREATER
        [LibraryImport(Lib, EntryPoint = "dc_event_native")]
        public static partial
#else
        [DllImport(Lib, EntryPoint = "dc_event_native", ExactSpelling = true, CallingConvention = CallingConvention.Cdecl)]
        public static extern
#endif
            int dc_event_native(IntPtr @event, IntPtr* cu_event);
    }
}
