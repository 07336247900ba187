// Launches, prepared launches, graphs, host callbacks and occupancy through the
// generated binding. The results are computed by the kernel (saxpy): checked against
// the same arithmetic done here on values that float represents exactly.
using System;
using System.Threading;
using Dccuda.Swig;

static partial class SwigTests {
  const int N = 1000;
  const float A = 2.0f;

  static DcArg[] SaxpyArgs(DcBuffer x, DcBuffer y) {
    return new[] { DcArg.Value(A), DcArg.Buffer(x), DcArg.Buffer(y), DcArg.Value(N) };
  }

  // y after `times` saxpy launches from y = 2i, x = i.
  static void CheckSaxpy(DcBuffer y, int times, string what) {
    float[] got = new float[N];
    Dc.dc_buffer_read(y, 0, got);
    for (int i = 0; i < N; i++) {
      float expected = 2.0f * i + times * A * i;
      if (got[i] != expected) Check.Equal(expected, got[i], what + ": y[" + i + "]");
    }
    Check.True(true, what + ": all " + N + " results");
  }

  static void Case_launch_saxpy() {
    using (DcDevice device = OpenDevice())
    using (DcFunction function = CompileSaxpy(device)) {
      uint count;
      Dc.dc_function_param_count(function, out count);
      Check.Equal(4u, count, "saxpy has four parameters");
      DcBuffer x, y;
      DcStream stream;
      Dc.dc_buffer_alloc(device, N * 4, 0, out x);
      Dc.dc_buffer_alloc(device, N * 4, 0, out y);
      Dc.dc_stream_create(device, 0, 0, out stream);
      using (x)
      using (y)
      using (stream)
      using (DcLaunchConfig config = new DcLaunchConfig()) {
        Dc.dc_buffer_write(x, 0, Iota(N, 1.0f));
        Dc.dc_buffer_write(y, 0, Iota(N, 2.0f));
        Dc.dc_launch_config_1d(function, N, 0, config);
        Check.True((ulong)config.grid[0] * config.block[0] >= N, "dc_launch_config_1d covers n threads");

        // One-shot launch with a DcArg[].
        Dc.dc_launch_kernel(function, config, SaxpyArgs(x, y), stream);
        Dc.dc_stream_synchronize(stream);
        CheckSaxpy(y, 1, "dc_launch_kernel");

        // A wrong argument is refused with a message, and nothing runs.
        DcArg[] wrong = { DcArg.Value(2.0), DcArg.Buffer(x), DcArg.Buffer(y), DcArg.Value(N) };
        Check.Fails(Dc.DC_ERROR_INVALID_ARGUMENT, "dc_launch_kernel", () => Dc.dc_launch_kernel(function, config, wrong, stream));
        Check.Fails(Dc.DC_ERROR_INVALID_ARGUMENT, "dc_launch_kernel",
                    () => Dc.dc_launch_kernel(function, config, new[] { DcArg.Value(A) }, stream));

        // A prepared launch: bound once, enqueued twice.
        DcLaunch launch;
        Dc.dc_launch_create(function, config, out launch);
        using (launch) {
          Check.Equal(1UL, Live(Dc.DC_HANDLE_LAUNCH), "one launch handle");
          Check.Fails(Dc.DC_ERROR_INVALID_STATE, "dc_launch_enqueue", () => Dc.dc_launch_enqueue(launch, stream));
          Dc.dc_launch_set_args(launch, SaxpyArgs(x, y));
          using (DcArg a = DcArg.Value(A)) Dc.dc_launch_set_arg(launch, 0, a);
          Check.Fails(Dc.DC_ERROR_OUT_OF_RANGE, "dc_launch_set_arg", () => Dc.dc_launch_set_arg(launch, 9, DcArg.Value(N)));
          Dc.dc_launch_enqueue(launch, stream);
          Dc.dc_launch_enqueue(launch, stream);
          Dc.dc_stream_synchronize(stream);
          CheckSaxpy(y, 3, "a prepared launch enqueued twice");
        }
        Check.Equal(0UL, Live(Dc.DC_HANDLE_LAUNCH), "the launch handle released");

        // A batch of prepared launches: an unbound one at index 1 refuses the batch (nothing
        // runs), then the same launch twice in one batch.
        DcLaunch bound, unbound;
        Dc.dc_launch_create(function, config, out bound);
        Dc.dc_launch_create(function, config, out unbound);
        using (bound)
        using (unbound) {
          Dc.dc_launch_set_args(bound, SaxpyArgs(x, y));
          Check.Fails(Dc.DC_ERROR_INVALID_STATE, "launches[1]", () => Dc.dc_launch_enqueue_batch(new[] { bound, unbound }, stream));
          Dc.dc_stream_synchronize(stream);
          CheckSaxpy(y, 3, "a refused batch ran nothing");
          Dc.dc_launch_enqueue_batch(new[] { bound, bound }, stream);
          Dc.dc_launch_enqueue_batch(new DcLaunch[0], stream);
          Dc.dc_stream_synchronize(stream);
          CheckSaxpy(y, 5, "a batch of two");
          unbound.Dispose();
          Check.Fails(Dc.DC_ERROR_INVALID_HANDLE, "launches[1]", () => Dc.dc_launch_enqueue_batch(new[] { bound, unbound }, stream));
        }
        // The packed form below adds one more saxpy: undo the two of the batch first.
        Dc.dc_buffer_write(y, 0, Iota(N, 2.0f));
        Dc.dc_launch_kernel(function, config, SaxpyArgs(x, y), stream);
        Dc.dc_launch_kernel(function, config, SaxpyArgs(x, y), stream);
        Dc.dc_launch_kernel(function, config, SaxpyArgs(x, y), stream);
        Dc.dc_stream_synchronize(stream);
        CheckSaxpy(y, 3, "back to three");

        // The packed form, laid out by C's rules: float a at 0, the pointers at 8 and 16
        // (aligned), int n at 24: 28 bytes.
        ulong px, py;
        Dc.dc_buffer_device_pointer(x, out px);
        Dc.dc_buffer_device_pointer(y, out py);
        byte[] block = new byte[28];
        BitConverter.GetBytes(A).CopyTo(block, 0);
        BitConverter.GetBytes(px).CopyTo(block, 8);
        BitConverter.GetBytes(py).CopyTo(block, 16);
        BitConverter.GetBytes(N).CopyTo(block, 24);
        Dc.dc_launch_kernel_packed(function, config, block, stream);
        Dc.dc_stream_synchronize(stream);
        CheckSaxpy(y, 4, "dc_launch_kernel_packed");
      }
    }
  }

  static void Case_graph_capture_and_replay() {
    using (DcDevice device = OpenDevice())
    using (DcFunction function = CompileSaxpy(device)) {
      DcBuffer x, y;
      DcStream stream;
      Dc.dc_buffer_alloc(device, N * 4, 0, out x);
      Dc.dc_buffer_alloc(device, N * 4, 0, out y);
      Dc.dc_stream_create(device, 0, 0, out stream);
      using (x)
      using (y)
      using (stream)
      using (DcLaunchConfig config = new DcLaunchConfig()) {
        Dc.dc_buffer_write(x, 0, Iota(N, 1.0f));
        Dc.dc_buffer_write(y, 0, Iota(N, 2.0f));
        Dc.dc_launch_config_1d(function, N, 0, config);

        Dc.dc_stream_begin_capture(stream, Dc.DC_CAPTURE_THREAD_LOCAL);
        int capturing;
        Dc.dc_stream_is_capturing(stream, out capturing);
        Check.Equal(1, capturing, "the stream is capturing");
        Dc.dc_launch_kernel(function, config, SaxpyArgs(x, y), stream);
        DcGraph graph;
        Dc.dc_stream_end_capture(stream, out graph);
        using (graph) {
          Check.Equal(1UL, Live(Dc.DC_HANDLE_GRAPH), "one graph handle");
          ulong nodes;
          Dc.dc_graph_node_count(graph, out nodes);
          Check.Equal(1UL, nodes, "the graph holds the one launch");
          CheckSaxpy(y, 0, "capturing ran nothing");
          Dc.dc_graph_instantiate(graph);
          Dc.dc_graph_launch(graph, stream);
          Dc.dc_graph_launch(graph, stream);
          Dc.dc_stream_synchronize(stream);
          CheckSaxpy(y, 2, "the graph launched twice");
          Check.Fails(Dc.DC_ERROR_INVALID_STATE, "dc_stream_end_capture", () => {
            DcGraph none;
            Dc.dc_stream_end_capture(stream, out none);
          });
        }
        Check.Equal(0UL, Live(Dc.DC_HANDLE_GRAPH), "the graph handle released");
      }
    }
  }

  // Asynchronous copies with managed arrays are refused while the stream captures: the graph
  // would copy into or from the array at every launch, after its pin ended. The capture goes
  // on, and nothing was recorded.
  static void Case_array_copies_refused_while_capturing() {
    using (DcDevice device = OpenDevice()) {
      DcBuffer b;
      DcStream stream;
      Dc.dc_buffer_alloc(device, N * 4, 0, out b);
      Dc.dc_stream_create(device, 0, 0, out stream);
      using (b)
      using (stream) {
        float[] host = new float[N];
        Dc.dc_stream_begin_capture(stream, Dc.DC_CAPTURE_THREAD_LOCAL);
        DcException e = Check.Fails(Dc.DC_ERROR_INVALID_STATE, "dc_buffer_read_async",
                                    () => Dc.dc_buffer_read_async(b, 0, host, stream));
        Check.Contains(e.Message, "capturing", "the message says why");
        Check.Fails(Dc.DC_ERROR_INVALID_STATE, "dc_buffer_write_async", () => Dc.dc_buffer_write_async(b, 0, host, 0, 16, stream));
        DcGraph graph;
        Dc.dc_stream_end_capture(stream, out graph);
        using (graph) {
          ulong nodes;
          Dc.dc_graph_node_count(graph, out nodes);
          Check.Equal(0UL, nodes, "nothing was recorded");
        }
        Dc.dc_buffer_write_async(b, 0, Iota(N, 1.0f), stream);   // not capturing: allowed
        Dc.dc_buffer_read_async(b, 0, host, stream);
        Dc.dc_stream_synchronize(stream);
        Check.Equal((float)(N - 1), host[N - 1], "an uncaptured round trip through the stream");
      }
    }
  }

  static void Case_host_callback_and_occupancy() {
    using (DcDevice device = OpenDevice()) {
      DcStream stream;
      Dc.dc_stream_create(device, 0, 0, out stream);
      using (stream) {
        int ran = 0, callbackThread = -1;
        Dc.dc_stream_add_callback(stream, () => {
          callbackThread = Thread.CurrentThread.ManagedThreadId;
          Interlocked.Increment(ref ran);
        });
        Dc.dc_stream_synchronize(stream);
        Check.Equal(1, Volatile.Read(ref ran), "the host callback ran once before the stream finished");
        Check.True(callbackThread != -1, "on a thread of the driver (" + callbackThread + ")");

        // An exception in a callback cannot reach the driver: it is reported.
        Exception reported = null;
        Action<Exception> handler = e => reported = e;
        Dc.HostCallbackFailed += handler;
        try {
          Dc.dc_stream_add_callback(stream, () => { throw new InvalidOperationException("thrown in a host callback"); });
          Dc.dc_stream_synchronize(stream);
        } finally {
          Dc.HostCallbackFailed -= handler;
        }
        Check.True(reported is InvalidOperationException, "Dc.HostCallbackFailed got the exception");
        Check.Throws<ArgumentNullException>(() => Dc.dc_stream_add_callback(stream, (Action)null), "a null callback");
      }

      using (DcFunction function = CompileSaxpy(device)) {
        int blocks;
        Dc.dc_occupancy_max_active_blocks(function, 128, 0, out blocks);
        Check.True(blocks >= 1, "at least one block of 128 threads fits (" + blocks + ")");
        int minGrid, blockSize;
        Dc.dc_occupancy_max_potential_block_size(function, null, 0, 0, out minGrid, out blockSize);
        Check.True(blockSize >= 1 && minGrid >= 1, "a block size and a grid (" + blockSize + ", " + minGrid + ")");
        int limitedGrid, limited;
        Dc.dc_occupancy_max_potential_block_size(function, null, 0, 64, out limitedGrid, out limited);
        Check.True(limited >= 1 && limited <= 64, "the block size limit holds (" + limited + ")");

        int calls = 0;
        int viaCallback, gridViaCallback;
        Dc.dc_occupancy_max_potential_block_size(function, size => { calls++; return 0; }, 0, 0,
                                                 out gridViaCallback, out viaCallback);
        Check.True(calls > 0, "the driver asked the callback (" + calls + " calls)");
        Check.Equal(blockSize, viaCallback, "no shared memory per block from the callback: the same answer");
        calls = 0;
        InvalidOperationException thrown = Check.Throws<InvalidOperationException>(() =>
            Dc.dc_occupancy_max_potential_block_size(function, size => { calls++; throw new InvalidOperationException("in sharedBytes"); },
                                                     0, 0, out gridViaCallback, out viaCallback),
            "an exception in the callback is rethrown after the call");
        Check.Equal("in sharedBytes", thrown.Message, "the callback's own exception");
        Check.Equal(1, calls, "the callback is not called again once it has thrown");
      }
    }
  }
}
