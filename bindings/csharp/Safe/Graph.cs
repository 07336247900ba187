// A dc_graph: work captured from a stream (Stream.BeginCapture / EndCapture), replayed
// with one launch. Buffers it uses must outlive its launches.
using System;
using Dccuda.Interop;

namespace Dccuda
{
    public sealed unsafe class Graph : IDisposable
    {
        internal Graph(GraphHandle handle)
        {
            Handle = handle;
        }

        /// <summary>The SafeHandle owning the dc_graph (for NativeMethods calls).</summary>
        public GraphHandle Handle { get; private set; }

        internal Pin Use() { return new Pin(Handle, "Graph"); }

        /// <summary>Instantiate now (else the first launch does). Idempotent.</summary>
        public void Instantiate()
        {
            using (var g = Use())
                DcException.Check(NativeMethods.dc_graph_instantiate(g.Raw));
        }

        /// <summary>Upload the instantiated graph ahead of its first launch.</summary>
        public void Upload(Stream stream)
        {
            using (var g = Use())
            using (var s = new Pin(stream == null ? null : stream.Handle, "stream"))
                DcException.Check(NativeMethods.dc_graph_upload(g.Raw, s.Raw));
        }

        /// <summary>Launch the whole graph on `stream`.</summary>
        public void Launch(Stream stream)
        {
            using (var g = Use())
            using (var s = new Pin(stream == null ? null : stream.Handle, "stream"))
                DcException.Check(NativeMethods.dc_graph_launch(g.Raw, s.Raw));
        }

        /// <summary>Take the parameters of `source` (a new capture of the same work) into this
        /// instantiated graph; the topology must be the same. On failure nothing changes.</summary>
        public void Update(Graph source)
        {
            using (var g = Use())
            using (var s = new Pin(source == null ? null : source.Handle, "source"))
                DcException.Check(NativeMethods.dc_graph_update(g.Raw, s.Raw));
        }

        public ulong NodeCount
        {
            get
            {
                ulong n;
                using (var g = Use())
                    DcException.Check(NativeMethods.dc_graph_node_count(g.Raw, &n));
                return n;
            }
        }

        public bool IsDisposed { get { return Handle.IsClosed; } }

        public void Dispose()
        {
            Handle.Dispose();
        }
    }
}
