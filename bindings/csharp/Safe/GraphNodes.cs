// Building, inspecting and changing a graph node by node (dc_graph_create, dc_graph_add_*,
// dc_graph_node_at..., dc_graph_set_*): the idiomatic layer over them. Nodes are GraphNode
// values (the library's 64-bit ids); every `after` lists the nodes a new node runs after.
// The library checks every node as the stream-ordered call doing the same work and keeps the
// functions, buffers and events the nodes use; this layer keeps the host callbacks (in the
// graph's GraphResources, as for captured host nodes).
using System;
using System.Collections.Generic;
using Dccuda.Interop;

namespace Dccuda
{
    /// <summary>A node of a graph: the id the library gave it (never 0; a clone's nodes keep the ids of the nodes they copy).</summary>
    public struct GraphNode : IEquatable<GraphNode>
    {
        /// <summary>The library's node id.</summary>
        public readonly ulong Id;
        /// <summary>Wraps an id.</summary>
        public GraphNode(ulong id) { Id = id; }
        /// <inheritdoc/>
        public bool Equals(GraphNode other) { return Id == other.Id; }
        /// <inheritdoc/>
        public override bool Equals(object obj) { return obj is GraphNode n && n.Id == Id; }
        /// <inheritdoc/>
        public override int GetHashCode() { return Id.GetHashCode(); }
        /// <inheritdoc/>
        public override string ToString() { return "GraphNode(" + Id + ")"; }
    }

    /// <summary>The kinds of conditional node (Graph.AddConditional).</summary>
    public enum GraphConditional
    {
        /// <summary>Body 0 runs once if the condition is not 0; a second body (else) if it is 0.</summary>
        If = 0,
        /// <summary>Body 0 runs again and again while the condition is not 0.</summary>
        While = 1,
        /// <summary>Body n runs once, n being the condition.</summary>
        Switch = 2,
    }

    public sealed unsafe partial class Graph
    {
        /// <summary>A new, empty graph on `device`, to build node by node.</summary>
        public static Graph Create(Device device)
        {
            var h = new DcGraphHandle();
            IntPtr raw;
            using (var d = new Pin(device == null ? null : device.Handle, "device"))
                DcException.Check(NativeMethods.dc_graph_create(d.Raw, &raw));
            h.SetOwn(new GraphResources());
            h.Adopt(raw);
            return new Graph(h);
        }

        private static ulong[] Ids(GraphNode[] after)
        {
            if (after == null || after.Length == 0)
                return null;
            var ids = new ulong[after.Length];
            for (int i = 0; i < after.Length; ++i)
                ids[i] = after[i].Id;
            return ids;
        }

        /// <summary>Add a launch of `function` with `args` (checked as Function.Launch checks them; values copied now).</summary>
        public GraphNode AddKernel(Function function, LaunchConfig config, KernelArgs args, params GraphNode[] after)
        {
            if (args == null)
                throw new ArgumentNullException("args");
            DcLaunchConfig c = config.ToNative();
            ulong[] deps = Ids(after);
            ulong node;
            using (var g = Use())
            using (var f = new Pin(function == null ? null : function.Handle, "function"))
            {
                int n = args.Bind();
                try
                {
                    int status;
                    fixed (byte* values = args.ValueBytes)
                    fixed (DcArg* a = args.NativeArgs)
                    fixed (ulong* d = deps)
                    {
                        args.FixValues(a, values);
                        status = NativeMethods.dc_graph_add_kernel_node(g.Raw, f.Raw, &c, n == 0 ? null : a, (uint)n, d,
                                                                        deps == null ? 0u : (uint)deps.Length, &node);
                    }
                    DcException.Check(status);
                }
                finally
                {
                    args.Unbind();
                }
            }
            return new GraphNode(node);
        }

        /// <summary>Add a copy of `bytes` bytes from `src` at `srcOffset` to `dst` at `dstOffset`.</summary>
        public GraphNode AddCopy(DeviceBuffer dst, ulong dstOffset, DeviceBuffer src, ulong srcOffset, ulong bytes,
                                 params GraphNode[] after)
        {
            ulong[] deps = Ids(after);
            ulong node;
            using (var g = Use())
            using (var d = new Pin(dst == null ? null : dst.Handle, "dst"))
            using (var s = new Pin(src == null ? null : src.Handle, "src"))
            fixed (ulong* p = deps)
                DcException.Check(NativeMethods.dc_graph_add_copy_node(g.Raw, d.Raw, dstOffset, s.Raw, srcOffset, bytes, p,
                                                                       deps == null ? 0u : (uint)deps.Length, &node));
            return new GraphNode(node);
        }

        /// <summary>Add a 2D copy of `height` rows of `width` bytes from `src` (rows at `srcOffset`,
        /// `srcPitch` bytes apart) to `dst` (rows at `dstOffset`, `dstPitch` apart), every row
        /// checked as DeviceBuffer.CopyBytesFrom2D checks them.</summary>
        public GraphNode AddCopy2D(DeviceBuffer dst, ulong dstOffset, ulong dstPitch, DeviceBuffer src, ulong srcOffset,
                                   ulong srcPitch, ulong width, ulong height, params GraphNode[] after)
        {
            ulong[] deps = Ids(after);
            ulong node;
            using (var g = Use())
            using (var d = new Pin(dst == null ? null : dst.Handle, "dst"))
            using (var s = new Pin(src == null ? null : src.Handle, "src"))
            fixed (ulong* p = deps)
                DcException.Check(NativeMethods.dc_graph_add_copy_2d_node(g.Raw, d.Raw, dstOffset, dstPitch, s.Raw, srcOffset,
                                                                          srcPitch, width, height, p,
                                                                          deps == null ? 0u : (uint)deps.Length, &node));
            return new GraphNode(node);
        }

        /// <summary>Change copy node `node` to the 2D copy AddCopy2D would add with these arguments.</summary>
        public void SetCopy2D(GraphNode node, DeviceBuffer dst, ulong dstOffset, ulong dstPitch, DeviceBuffer src,
                              ulong srcOffset, ulong srcPitch, ulong width, ulong height)
        {
            using (var g = Use())
            using (var d = new Pin(dst == null ? null : dst.Handle, "dst"))
            using (var s = new Pin(src == null ? null : src.Handle, "src"))
                DcException.Check(NativeMethods.dc_graph_set_copy_2d_node(g.Raw, node.Id, d.Raw, dstOffset, dstPitch, s.Raw,
                                                                          srcOffset, srcPitch, width, height));
        }

        /// <summary>Add a fill of `bytes` bytes of `buffer` from `offset` with `value` (elementSize 1, 2 or 4).</summary>
        public GraphNode AddFill(DeviceBuffer buffer, ulong offset, ulong bytes, uint value, uint elementSize,
                                 params GraphNode[] after)
        {
            ulong[] deps = Ids(after);
            ulong node;
            using (var g = Use())
            using (var b = new Pin(buffer == null ? null : buffer.Handle, "buffer"))
            fixed (ulong* p = deps)
                DcException.Check(NativeMethods.dc_graph_add_fill_node(g.Raw, b.Raw, offset, bytes, value, elementSize, p,
                                                                       deps == null ? 0u : (uint)deps.Length, &node));
            return new GraphNode(node);
        }

        /// <summary>Add a memory alloc node: at each launch it allocates `bytes` bytes on the graph's
        /// device. `buffer` names that memory for the nodes of this graph ordered after the alloc node
        /// and before its free node (AddFree), and nowhere else: outside that window (its own methods,
        /// stream work, after the graph is disposed) the memory is not there. Every alloc node needs
        /// its free node before the graph is launched (else DcStatus.InvalidState).</summary>
        public GraphNode AddAlloc(ulong bytes, out DeviceBuffer buffer, params GraphNode[] after)
        {
            ulong[] deps = Ids(after);
            ulong node;
            IntPtr raw;
            var h = new DcBufferHandle();
            using (var g = Use())
            fixed (ulong* p = deps)
                DcException.Check(NativeMethods.dc_graph_add_alloc_node(g.Raw, bytes, p,
                                                                        deps == null ? 0u : (uint)deps.Length, &node, &raw));
            h.Adopt(raw);
            buffer = new DeviceBuffer(h);
            return new GraphNode(node);
        }

        /// <summary>Add the free node of `buffer` (what AddAlloc gave for this graph), after `after`,
        /// which must include the alloc node or a node after it: the last users of the memory.</summary>
        public GraphNode AddFree(DeviceBuffer buffer, params GraphNode[] after)
        {
            ulong[] deps = Ids(after);
            ulong node;
            using (var g = Use())
            using (var b = new Pin(buffer == null ? null : buffer.Handle, "buffer"))
            fixed (ulong* p = deps)
                DcException.Check(NativeMethods.dc_graph_add_free_node(g.Raw, b.Raw, p,
                                                                       deps == null ? 0u : (uint)deps.Length, &node));
            return new GraphNode(node);
        }

        /// <summary>Add a host node calling `callback` at every launch (on a driver thread; the rules of
        /// DcStream.AddCallback apply). The graph keeps the callback until it can no longer run.</summary>
        public GraphNode AddHost(Action callback, params GraphNode[] after)
        {
            if (callback == null)
                throw new ArgumentNullException("callback");
            ulong[] deps = Ids(after);
            ulong node;
            using (var g = Use())
            {
                long key = HostCallbacks.Add(new ActionCallback(callback), true);
                int status;
                fixed (ulong* p = deps)
                    status = NativeMethods.dc_graph_add_host_node(g.Raw, HostCallbacks.Thunk, HostCallbacks.UserData(key), p,
                                                                  deps == null ? 0u : (uint)deps.Length, &node);
                if (status < 0)
                {
                    HostCallbacks.Remove(key);
                    throw DcException.FromLastError(status);
                }
                Handle.Own.AddCallback(key);
            }
            return new GraphNode(node);
        }

        /// <summary>Add a record of `ev` (true) or a wait for it (false).</summary>
        public GraphNode AddEvent(Event ev, bool record, params GraphNode[] after)
        {
            ulong[] deps = Ids(after);
            ulong node;
            using (var g = Use())
            using (var e = new Pin(ev == null ? null : ev.Handle, "event"))
            fixed (ulong* p = deps)
            {
                uint n = deps == null ? 0u : (uint)deps.Length;
                DcException.Check(record ? NativeMethods.dc_graph_add_event_record_node(g.Raw, e.Raw, p, n, &node)
                                         : NativeMethods.dc_graph_add_event_wait_node(g.Raw, e.Raw, p, n, &node));
            }
            return new GraphNode(node);
        }

        /// <summary>Embed a copy of `child` as one node; this graph keeps what the child's nodes use.</summary>
        public GraphNode AddChild(Graph child, params GraphNode[] after)
        {
            ulong[] deps = Ids(after);
            ulong node;
            using (var g = Use())
            using (var c = new Pin(child == null ? null : child.Handle, "child"))
            {
                fixed (ulong* p = deps)
                    DcException.Check(NativeMethods.dc_graph_add_child_graph_node(g.Raw, c.Raw, p,
                                                                                  deps == null ? 0u : (uint)deps.Length, &node));
                Handle.Own.AddChild(child.Handle.Own);
            }
            return new GraphNode(node);
        }

        /// <summary>Add the edge `from` -> `to` (refused if it exists or would close a cycle).</summary>
        public void AddDependency(GraphNode from, GraphNode to)
        {
            using (var g = Use())
                DcException.Check(NativeMethods.dc_graph_add_dependency(g.Raw, from.Id, to.Id));
        }

        /// <summary>The nodes in a topological order.</summary>
        public GraphNode[] Nodes()
        {
            using (var g = Use())
            {
                ulong count;
                DcException.Check(NativeMethods.dc_graph_node_count(g.Raw, &count));
                var nodes = new GraphNode[count];
                for (ulong i = 0; i < count; ++i)
                {
                    ulong id;
                    DcException.Check(NativeMethods.dc_graph_node_at(g.Raw, i, &id));
                    nodes[i] = new GraphNode(id);
                }
                return nodes;
            }
        }

        /// <summary>A node's type (a DC_GRAPH_NODE_* value).</summary>
        public int NodeType(GraphNode node)
        {
            int t;
            using (var g = Use())
                DcException.Check(NativeMethods.dc_graph_node_type(g.Raw, node.Id, &t));
            return t;
        }

        /// <summary>The edges (from, to).</summary>
        public KeyValuePair<GraphNode, GraphNode>[] Edges()
        {
            using (var g = Use())
            {
                ulong count;
                DcException.Check(NativeMethods.dc_graph_edge_count(g.Raw, &count));
                var edges = new KeyValuePair<GraphNode, GraphNode>[count];
                for (ulong i = 0; i < count; ++i)
                {
                    ulong from, to;
                    DcException.Check(NativeMethods.dc_graph_edge_at(g.Raw, i, &from, &to));
                    edges[i] = new KeyValuePair<GraphNode, GraphNode>(new GraphNode(from), new GraphNode(to));
                }
                return edges;
            }
        }

        /// <summary>A copy of the nodes and edges as a new graph (the same node ids).</summary>
        public Graph Clone()
        {
            var h = new DcGraphHandle();
            IntPtr raw;
            using (var g = Use())
            {
                DcException.Check(NativeMethods.dc_graph_clone(g.Raw, &raw));
                var own = new GraphResources();
                own.AddChild(Handle.Own);
                h.SetOwn(own);
            }
            h.Adopt(raw);
            return new Graph(h);
        }

        /// <summary>Remove a node and its edges.</summary>
        public void RemoveNode(GraphNode node)
        {
            using (var g = Use())
                DcException.Check(NativeMethods.dc_graph_remove_node(g.Raw, node.Id));
        }

        /// <summary>Write the graph as Graphviz DOT to `path`.</summary>
        public void WriteDot(string path, bool verbose = false)
        {
            if (path == null)
                throw new ArgumentNullException("path");
            byte[] utf8 = Utf8.Encode(path);
            using (var g = Use())
            fixed (byte* p = utf8)
                DcException.Check(NativeMethods.dc_graph_write_dot(g.Raw, p, verbose ? NativeConstants.DC_GRAPH_DOT_VERBOSE : 0u));
        }

        /// <summary>The graph as Graphviz DOT text, as WriteDot would write it.</summary>
        public string Dot(bool verbose = false)
        {
            uint flags = verbose ? NativeConstants.DC_GRAPH_DOT_VERBOSE : 0u;
            using (var g = Use())
            {
                ulong length;
                DcException.Check(NativeMethods.dc_graph_dot(g.Raw, flags, null, 0, &length));
                // Room to spare: the text is made again by the second call.
                var text = new byte[checked((int)length + 4096)];
                fixed (byte* p = text)
                    DcException.Check(NativeMethods.dc_graph_dot(g.Raw, flags, p, (ulong)text.Length, &length));
                return System.Text.Encoding.UTF8.GetString(text, 0, checked((int)length));
            }
        }

        /// <summary>Change a kernel node's configuration and arguments in place (no new instantiation).</summary>
        public void SetKernel(GraphNode node, LaunchConfig config, KernelArgs args)
        {
            if (args == null)
                throw new ArgumentNullException("args");
            DcLaunchConfig c = config.ToNative();
            using (var g = Use())
            {
                int n = args.Bind();
                try
                {
                    int status;
                    fixed (byte* values = args.ValueBytes)
                    fixed (DcArg* a = args.NativeArgs)
                    {
                        args.FixValues(a, values);
                        status = NativeMethods.dc_graph_set_kernel_node(g.Raw, node.Id, &c, n == 0 ? null : a, (uint)n);
                    }
                    DcException.Check(status);
                }
                finally
                {
                    args.Unbind();
                }
            }
        }

        /// <summary>Change a fill node's buffer, range and value in place.</summary>
        public void SetFill(GraphNode node, DeviceBuffer buffer, ulong offset, ulong bytes, uint value, uint elementSize)
        {
            using (var g = Use())
            using (var b = new Pin(buffer == null ? null : buffer.Handle, "buffer"))
                DcException.Check(NativeMethods.dc_graph_set_fill_node(g.Raw, node.Id, b.Raw, offset, bytes, value, elementSize));
        }

        /// <summary>Change a host node's callback in place (the next launch calls `callback` instead; the rules
        /// of AddHost apply). The graph keeps the former callback as well until it dies: an executable
        /// form made before the change may still call it.</summary>
        public void SetHost(GraphNode node, Action callback)
        {
            if (callback == null)
                throw new ArgumentNullException("callback");
            using (var g = Use())
            {
                long key = HostCallbacks.Add(new ActionCallback(callback), true);
                int status = NativeMethods.dc_graph_set_host_node(g.Raw, node.Id, HostCallbacks.Thunk, HostCallbacks.UserData(key));
                if (status < 0)
                {
                    HostCallbacks.Remove(key);
                    throw DcException.FromLastError(status);
                }
                Handle.Own.AddCallback(key);
            }
        }

        /// <summary>Change a copy node's buffers, offsets and size in place.</summary>
        public void SetCopy(GraphNode node, DeviceBuffer dst, ulong dstOffset, DeviceBuffer src, ulong srcOffset, ulong bytes)
        {
            using (var g = Use())
            using (var d = new Pin(dst == null ? null : dst.Handle, "dst"))
            using (var s = new Pin(src == null ? null : src.Handle, "src"))
                DcException.Check(NativeMethods.dc_graph_set_copy_node(g.Raw, node.Id, d.Raw, dstOffset, s.Raw, srcOffset, bytes));
        }

        /// <summary>Add a conditional node (CUDA 12.4+ drivers) with `bodies` body graphs; `condition`
        /// receives the handle kernels set (dc_graph_set_condition, passed as a ulong).</summary>
        public GraphNode AddConditional(GraphConditional kind, uint bodies, uint defaultValue, out ulong condition,
                                        params GraphNode[] after)
        {
            ulong[] deps = Ids(after);
            ulong node, c;
            using (var g = Use())
            fixed (ulong* p = deps)
                DcException.Check(NativeMethods.dc_graph_add_conditional_node(g.Raw, (int)kind, bodies, defaultValue, p,
                                                                              deps == null ? 0u : (uint)deps.Length, &c, &node));
            condition = c;
            return new GraphNode(node);
        }

        /// <summary>Body `index` of a conditional node, to add nodes to (it keeps this graph alive).</summary>
        public Graph ConditionalBody(GraphNode node, uint index)
        {
            var h = new DcGraphHandle();
            IntPtr raw;
            using (var g = Use())
            {
                DcException.Check(NativeMethods.dc_graph_conditional_body(g.Raw, node.Id, index, &raw));
                var own = new GraphResources();
                own.AddChild(Handle.Own);
                h.SetOwn(own);
            }
            h.Adopt(raw);
            return new Graph(h);
        }
    }
}
