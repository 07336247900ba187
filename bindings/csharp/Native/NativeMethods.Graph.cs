// Raw declarations: stream capture and graphs. Each mirrors its C prototype in include/dccuda.h
// (section "Graphs"), where it is documented. See NativeMethods.Core.cs for the rules
// every declaration here follows.
using System;
using System.Runtime.InteropServices;

namespace Dccuda.Interop
{
    public static unsafe partial class NativeMethods
    {
#if NET7_0_OR_GREATER
        [LibraryImport(Lib, EntryPoint = "dc_stream_begin_capture")]
        public static partial
#else
        [DllImport(Lib, EntryPoint = "dc_stream_begin_capture", ExactSpelling = true, CallingConvention = CallingConvention.Cdecl)]
        public static extern
#endif
            int dc_stream_begin_capture(IntPtr stream, int mode);

#if NET7_0_OR_GREATER
        [LibraryImport(Lib, EntryPoint = "dc_stream_end_capture")]
        public static partial
#else
        [DllImport(Lib, EntryPoint = "dc_stream_end_capture", ExactSpelling = true, CallingConvention = CallingConvention.Cdecl)]
        public static extern
#endif
            int dc_stream_end_capture(IntPtr stream, IntPtr* graph);

#if NET7_0_OR_GREATER
        [LibraryImport(Lib, EntryPoint = "dc_stream_is_capturing")]
        public static partial
#else
        [DllImport(Lib, EntryPoint = "dc_stream_is_capturing", ExactSpelling = true, CallingConvention = CallingConvention.Cdecl)]
        public static extern
#endif
            int dc_stream_is_capturing(IntPtr stream, int* capturing);

#if NET7_0_OR_GREATER
        [LibraryImport(Lib, EntryPoint = "dc_graph_instantiate")]
        public static partial
#else
        [DllImport(Lib, EntryPoint = "dc_graph_instantiate", ExactSpelling = true, CallingConvention = CallingConvention.Cdecl)]
        public static extern
#endif
            int dc_graph_instantiate(IntPtr graph);

#if NET7_0_OR_GREATER
        [LibraryImport(Lib, EntryPoint = "dc_graph_upload")]
        public static partial
#else
        [DllImport(Lib, EntryPoint = "dc_graph_upload", ExactSpelling = true, CallingConvention = CallingConvention.Cdecl)]
        public static extern
#endif
            int dc_graph_upload(IntPtr graph, IntPtr stream);

#if NET7_0_OR_GREATER
        [LibraryImport(Lib, EntryPoint = "dc_graph_launch")]
        public static partial
#else
        [DllImport(Lib, EntryPoint = "dc_graph_launch", ExactSpelling = true, CallingConvention = CallingConvention.Cdecl)]
        public static extern
#endif
            int dc_graph_launch(IntPtr graph, IntPtr stream);

#if NET7_0_OR_GREATER
        [LibraryImport(Lib, EntryPoint = "dc_graph_update")]
        public static partial
#else
        [DllImport(Lib, EntryPoint = "dc_graph_update", ExactSpelling = true, CallingConvention = CallingConvention.Cdecl)]
        public static extern
#endif
            int dc_graph_update(IntPtr graph, IntPtr source);

#if NET7_0_OR_GREATER
        [LibraryImport(Lib, EntryPoint = "dc_graph_node_count")]
        public static partial
#else
        [DllImport(Lib, EntryPoint = "dc_graph_node_count", ExactSpelling = true, CallingConvention = CallingConvention.Cdecl)]
        public static extern
#endif
            int dc_graph_node_count(IntPtr graph, ulong* count);

#if NET7_0_OR_GREATER
        [LibraryImport(Lib, EntryPoint = "dc_graph_release")]
        public static partial
#else
        [DllImport(Lib, EntryPoint = "dc_graph_release", ExactSpelling = true, CallingConvention = CallingConvention.Cdecl)]
        public static extern
#endif
            void dc_graph_release(IntPtr graph);
    }
}
