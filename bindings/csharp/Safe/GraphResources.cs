// What a captured graph needs alive for as long as it can run: the callbacks recorded as its
// host nodes, the buffers its nodes use (the library records their addresses, not the
// buffers), and the resources of graphs launched into the capture as child graphs.
//
// A DcStream collects them while a capture begun through it is in progress; EndCapture hands
// them to the Graph. A graph's launches run after the call that enqueued them returns, and
// after a dc_graph_release ("launches already enqueued complete"), so the resources are given
// up only once the last launch has run: a one-shot host callback enqueued behind it on the
// stream of the last launch (the library orders every launch of a graph after the previous
// one) hands the release to the thread pool. Shared (reference counted): a graph updated from
// another runs the other's parameters, and a parent graph holds its children's.
using System;
using System.Collections.Generic;
using System.Threading;
using Dccuda.Interop;

namespace Dccuda
{
    internal sealed class GraphResources
    {
        private readonly object gate = new object();
        private List<long> callbacks;
        private HashSet<DcBufferHandle> buffers;
        private List<GraphResources> children;
        private int refs = 1;

        /// <summary>A repeating HostCallbacks entry recorded as a host node.</summary>
        internal void AddCallback(long key)
        {
            lock (gate)
            {
                if (callbacks == null)
                    callbacks = new List<long>();
                callbacks.Add(key);
            }
        }

        /// <summary>A buffer a captured node uses: held (its dc_buffer and any pin stay) until
        /// the graph can no longer run. The caller holds the buffer's handle during the call.</summary>
        internal void AddBuffer(DcBufferHandle buffer)
        {
            lock (gate)
            {
                if (buffers == null)
                    buffers = new HashSet<DcBufferHandle>();
                if (buffers.Add(buffer))
                    buffer.Hold();
            }
        }

        /// <summary>A graph launched into the capture: its resources live as long as ours.</summary>
        internal void AddChild(GraphResources child)
        {
            child.Retain();
            lock (gate)
            {
                if (children == null)
                    children = new List<GraphResources>();
                children.Add(child);
            }
        }

        internal void Retain()
        {
            Interlocked.Increment(ref refs);
        }

        /// <summary>Drop one reference; the last frees everything. Never call it on a driver
        /// thread (a buffer's last release may free memory there): see ReleaseAfter.</summary>
        internal void Release()
        {
            if (Interlocked.Decrement(ref refs) != 0)
                return;
            List<long> c;
            HashSet<DcBufferHandle> b;
            List<GraphResources> g;
            lock (gate)
            {
                c = callbacks;
                b = buffers;
                g = children;
                callbacks = null;
                buffers = null;
                children = null;
            }
            if (c != null)
                foreach (long key in c)
                    HostCallbacks.Remove(key);
            if (b != null)
                foreach (DcBufferHandle h in b)
                    h.Unhold();
            if (g != null)
                foreach (GraphResources child in g)
                    child.Release();
        }

        // ---- giving them up after the last launch -------------------------------------------

        /// <summary>Release `a` and `b` (either may be null) once the work already enqueued on
        /// `lastStream` (the stream of the graph's last launch; null if it never ran) has run.
        /// Takes over a hold the caller took on lastStream (DcHandle.Hold). Any thread but a
        /// driver callback thread.</summary>
        internal static void ReleaseAfter(DcStreamHandle lastStream, GraphResources a, GraphResources b)
        {
            Interlocked.Increment(ref pending);
            Retire.RetryParked();
            var retire = new Retire(a, b, lastStream);
            if (lastStream == null || (a == null && b == null))
                retire.ReleaseNow();
            else
                retire.Schedule();
        }

        private static int pending;

        /// <summary>Releases due but not done yet (waiting for a launch, or for the thread
        /// pool): the tests wait for 0 before counting handles.</summary>
        internal static int PendingReleases { get { return Volatile.Read(ref pending); } }

        /// <summary>A one-shot host callback behind a graph's last launch: hands the release to
        /// the thread pool (a driver thread may not free memory).</summary>
        private sealed class Retire : HostCallback
        {
            // Releases whose stream was capturing when they were due (a callback enqueued then
            // would be recorded into that capture instead of running): tried again by the next
            // ReleaseAfter.
            private static readonly List<Retire> Parked = new List<Retire>();
            private readonly GraphResources a, b;
            private DcStreamHandle stream;

            internal Retire(GraphResources a, GraphResources b, DcStreamHandle stream)
            {
                this.a = a;
                this.b = b;
                this.stream = stream;
            }

            internal override void Run()
            {
                ThreadPool.UnsafeQueueUserWorkItem(state => ((Retire)state).ReleaseNow(), this);
            }

            internal void ReleaseNow()
            {
                DropStream();
                if (a != null)
                    a.Release();
                if (b != null)
                    b.Release();
                Interlocked.Decrement(ref pending);
            }

            private void DropStream()
            {
                DcStreamHandle s = stream;
                stream = null;
                if (s != null)
                    s.Unhold();
            }

            internal unsafe void Schedule()
            {
                IntPtr raw = stream.HeldRaw;
                int capturing;
                if (NativeMethods.dc_stream_is_capturing(raw, &capturing) < 0)
                {
                    ReleaseNow();   // the stream is gone with its device: nothing of it runs again
                    return;
                }
                if (capturing != 0)
                {
                    lock (Parked)
                        Parked.Add(this);
                    return;
                }
                long key = HostCallbacks.Add(this, false);
                if (NativeMethods.dc_stream_add_callback(raw, HostCallbacks.Thunk, HostCallbacks.UserData(key)) < 0)
                {
                    HostCallbacks.Remove(key);
                    ReleaseNow();
                    return;
                }
                DropStream();   // enqueued: the stream's work completes even if it is released
            }

            internal static void RetryParked()
            {
                Retire[] due;
                lock (Parked)
                {
                    if (Parked.Count == 0)
                        return;
                    due = Parked.ToArray();
                    Parked.Clear();
                }
                foreach (Retire r in due)
                    r.Schedule();
            }
        }
    }
}
