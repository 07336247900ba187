// Graphs built node by node through the binding (Graph.Create, AddKernel, AddCopy, AddFill,
// AddHost, inspection, SetKernel and SetHost in place, Clone) and refused input (a cycle, an unknown
// node). Results are checked against a CPU reference (on the fake driver the kernel is
// emulated by name; on a GPU it runs).
using System;
using Dccuda.Interop;
using Xunit;

namespace Dccuda.Tests
{
    public sealed class GraphBuildTests
    {
        [Fact]
        public void ABuiltGraphRunsItsNodesAndChangesInPlace()
        {
            TestEnv.RequireNvrtc();
            using (Device device = TestEnv.OpenDevice())
            using (DcModule module = device.CompileAndLoad(Kernels.Source, null, "kernels.cu"))
            using (Function saxpy = module.GetFunction("saxpy"))
            using (DcStream stream = device.CreateStream())
            {
                const int n = 1500;
                var input = new float[n];
                for (int i = 0; i < n; i++)
                    input[i] = i * 0.5f;
                using (DeviceBuffer<float> src = device.Allocate<float>(n))
                using (DeviceBuffer<float> x = device.Allocate<float>(n))
                using (DeviceBuffer<float> y = device.Allocate<float>(n))
                using (Graph g = Graph.Create(device))
                {
                    src.CopyFrom(input);
                    int calls = 0;
                    GraphNode copy = g.AddCopy(x, 0, src, 0, n * 4);
                    GraphNode fill = g.AddFill(y, 0, n * 4, BitConverter.ToUInt32(BitConverter.GetBytes(1.0f), 0), 4);
                    LaunchConfig c = LaunchConfig.Cover(n, 256);
                    GraphNode k = g.AddKernel(saxpy, c, new KernelArgs().Value(2f).Buffer(x).Buffer(y).Value(n), copy, fill);
                    GraphNode host = g.AddHost(() => System.Threading.Interlocked.Increment(ref calls), k);

                    GraphNode[] order = g.Nodes();
                    Expect.Equal(4, order.Length, "four nodes");
                    Expect.True(Array.IndexOf(order, k) > Array.IndexOf(order, copy), "the kernel after the copy");
                    Expect.True(Array.IndexOf(order, host) > Array.IndexOf(order, k), "the host node after the kernel");
                    Expect.Equal(3, g.Edges().Length, "three edges");
                    Expect.Equal((int)NativeConstants.DC_GRAPH_NODE_KERNEL, g.NodeType(k), "a kernel node");

                    g.Launch(stream);
                    stream.Synchronize();
                    float[] got = y.ToArray();
                    for (int i = 0; i < n; i++)
                        if (got[i] != 2f * input[i] + 1f)
                            throw new ExpectationException("y[" + i + "] is " + got[i] + ", expected " + (2f * input[i] + 1f));
                    Expect.Equal(1, calls, "the host node ran once");

                    g.SetKernel(k, c, new KernelArgs().Value(3f).Buffer(x).Buffer(y).Value(n));
                    g.Launch(stream);
                    stream.Synchronize();
                    got = y.ToArray();
                    Expect.True(got[n - 1] == 3f * input[n - 1] + 1f, "the kernel node changed in place");

                    g.SetHost(host, () => System.Threading.Interlocked.Add(ref calls, 10));
                    g.Launch(stream);
                    stream.Synchronize();
                    Expect.Equal(12, calls, "the host node's new callback ran (1 + 1 + 10)");
                    Expect.Throws(DcStatus.InvalidArgument, () => g.SetHost(k, () => { }), "a kernel node as a host node",
                                  "not a host node");

                    using (Graph clone = g.Clone())
                        Expect.Equal(g.Nodes().Length, clone.Nodes().Length, "the clone has the same nodes");
                    Expect.Throws(DcStatus.InvalidArgument, () => g.AddDependency(host, copy), "a cycle",
                                  "would close a cycle");
                    Expect.Throws(DcStatus.InvalidArgument, () => g.NodeType(new GraphNode(0)), "node 0",
                                  "dc_graph_node_type");
                }
            }
        }

        [Fact]
        public void AllocAndFreeNodesGiveATemporaryAtEachLaunch()
        {
            using (Device device = TestEnv.OpenDevice())
            using (DcStream stream = device.CreateStream())
            {
                const int n = 700;
                var input = new uint[n];
                for (int i = 0; i < n; i++)
                    input[i] = (uint)i * 2654435761u;
                using (DeviceBuffer<uint> src = device.Allocate<uint>(n))
                using (DeviceBuffer<uint> dst = device.Allocate<uint>(n))
                using (Graph g = Graph.Create(device))
                {
                    src.CopyFrom(input);
                    DeviceBuffer t;
                    GraphNode alloc = g.AddAlloc(n * 4, out t, new GraphNode[0]);
                    using (t)
                    {
                        Expect.Throws(DcStatus.InvalidState, () => g.Launch(stream), "an alloc node without its free node",
                                      "has no free node");
                        GraphNode into = g.AddCopy(t, 0, src, 0, n * 4, alloc);
                        GraphNode back = g.AddCopy(dst, 0, t, 0, n * 4, into);
                        Expect.Throws(DcStatus.InvalidArgument, () => g.AddFree(src, back), "a buffer of no alloc node",
                                      "is not the buffer of an alloc node");
                        GraphNode free = g.AddFree(t, back);
                        Expect.Equal((int)NativeConstants.DC_GRAPH_NODE_MEM_ALLOC, g.NodeType(alloc), "an alloc node");
                        Expect.Equal((int)NativeConstants.DC_GRAPH_NODE_MEM_FREE, g.NodeType(free), "a free node");
                        Expect.Throws(DcStatus.InvalidArgument, () => g.AddFree(t, free), "a second free", "is freed already");
                    }
                    for (int round = 0; round < 2; round++)
                    {
                        g.Launch(stream);
                        stream.Synchronize();
                        uint[] got = dst.ToArray();
                        for (int i = 0; i < n; i++)
                            if (got[i] != input[i])
                                throw new ExpectationException("dst[" + i + "] is " + got[i] + ", expected " + input[i]);
                    }
                }
            }
        }

        [Fact]
        public void A2DCopyNodeMovesTheTileAStreamCopyMoves()
        {
            using (Device device = TestEnv.OpenDevice())
            using (DcStream stream = device.CreateStream())
            {
                const int n = 1024;
                var data = new uint[n];
                for (int i = 0; i < n; i++)
                    data[i] = (uint)i * 2246822519u;
                using (DeviceBuffer<uint> src = device.Allocate<uint>(n))
                using (DeviceBuffer<uint> byGraph = device.Allocate<uint>(n))
                using (DeviceBuffer<uint> byCopy = device.Allocate<uint>(n))
                using (Graph g = Graph.Create(device))
                {
                    src.CopyFrom(data);
                    byGraph.CopyFrom(new uint[n]);
                    byCopy.CopyFrom(new uint[n]);
                    // 7 rows of 40 bytes: src rows 128 bytes apart from 12, dst rows 64 apart from 4.
                    GraphNode copy = g.AddCopy2D(byGraph, 4, 64, src, 12, 128, 40, 7);
                    g.Launch(stream);
                    stream.Synchronize();
                    byCopy.CopyBytesFrom2D(src, 12, 128, 4, 64, 40, 7);
                    uint[] a = byGraph.ToArray(), b = byCopy.ToArray();
                    for (int i = 0; i < n; i++)
                        if (a[i] != b[i])
                            throw new ExpectationException("element " + i + " is " + a[i] + " by the graph, " + b[i] + " by the copy");
                    Expect.Equal(data[3 + 32 * 6 + 9], a[1 + 16 * 6 + 9], "the tile's last element");
                    g.SetCopy2D(copy, byGraph, 4, 64, src, 400, 128, 40, 7);
                    g.Launch(stream);
                    stream.Synchronize();
                    Expect.Equal(data[100 + 32 * 6 + 9], byGraph.ToArray()[1 + 16 * 6 + 9], "the changed node's last element");
                    Expect.Throws(DcStatus.InvalidArgument, () => g.AddCopy2D(byGraph, 0, 32, src, 0, 128, 40, 2),
                                  "a pitch below the width", "is less than width");
                }
            }
        }

        [Fact]
        public void TheDotTextIsWhatTheFileHolds()
        {
            using (Device device = TestEnv.OpenDevice())
            using (DeviceBuffer<uint> a = device.Allocate<uint>(16))
            using (DeviceBuffer<uint> b = device.Allocate<uint>(16))
            using (Graph g = Graph.Create(device))
            {
                GraphNode fill = g.AddFill(a, 0, 64, 7, 4);
                g.AddCopy(b, 0, a, 0, 64, fill);
                string text = g.Dot(true);
                Expect.True(text.StartsWith("digraph"), "DOT text: " + text);
                Expect.True(text.Contains("->"), "the edge is in the text: " + text);
                string path = System.IO.Path.Combine(System.IO.Path.GetTempPath(),
                                                     "dccuda_cs_dot_" + System.Diagnostics.Process.GetCurrentProcess().Id + ".dot");
                g.WriteDot(path, true);
                string file = System.IO.File.ReadAllText(path);
                System.IO.File.Delete(path);
                Expect.Equal(file, text, "the text and the file");
            }
        }
    }
}
