// A dc_graph: work captured from a stream (DcStream.BeginCapture / EndCapture), replayed
// with one launch. The graph keeps what its nodes use (buffers, callbacks, child graphs) until
// it is disposed and its last launch has run (GraphResources).
using System;
using Dccuda.Interop;

namespace Dccuda
{
    /// <summary>A graph (dc_graph) of work captured from a stream, replayed with one launch. It keeps what its nodes use (buffers, callbacks, child graphs) until it is disposed and its last launch has run.</summary>
    public sealed unsafe partial class Graph : IDisposable
    {
        internal Graph(DcGraphHandle handle)
        {
            Handle = handle;
        }

        /// <summary>The SafeHandle owning the dc_graph (for NativeMethods calls).</summary>
        public DcGraphHandle Handle { get; private set; }

        internal Pin Use() { return new Pin(Handle, "Graph"); }

        /// <summary>Instantiate now (else the first launch does). Idempotent.</summary>
        public void Instantiate()
        {
            using (var g = Use())
                DcException.Check(NativeMethods.dc_graph_instantiate(g.Raw));
        }

        /// <summary>Upload the instantiated graph ahead of its first launch.</summary>
        public void Upload(DcStream stream)
        {
            using (var g = Use())
            using (var s = new Pin(stream == null ? null : stream.Handle, "stream"))
                DcException.Check(NativeMethods.dc_graph_upload(g.Raw, s.Raw));
        }

        /// <summary>Launch the whole graph on `stream`. Launched into a stream that is
        /// capturing, the graph becomes a child graph of that capture, which then keeps what
        /// this graph's nodes use.</summary>
        public void Launch(DcStream stream)
        {
            using (var g = Use())
            using (var s = new Pin(stream == null ? null : stream.Handle, "stream"))
            {
                DcException.Check(NativeMethods.dc_graph_launch(g.Raw, s.Raw));
                Handle.NoteLaunch(stream.Handle);
                GraphResources outer = stream.Capture;
                if (outer != null)
                    outer.AddChild(Handle.Own);
            }
        }

        /// <summary>Take the parameters of `source` (a new capture of the same work) into this
        /// instantiated graph; the topology must be the same. On failure nothing changes.</summary>
        public void Update(Graph source)
        {
            using (var g = Use())
            using (var s = new Pin(source == null ? null : source.Handle, "source"))
            {
                DcException.Check(NativeMethods.dc_graph_update(g.Raw, s.Raw));
                Handle.TakeParametersOf(source.Handle.Own);
            }
        }

        /// <summary>The number of nodes (each captured launch, copy, fill and host function is one).</summary>
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

        /// <summary>True once Dispose released the handle.</summary>
        public bool IsDisposed { get { return Handle.IsClosed; } }

        /// <summary>Release the graph; launches already enqueued complete, and what they use is kept until then.</summary>
        public void Dispose()
        {
            Handle.Dispose();
        }
    }
}
