/*
 * callbacks.i - C callbacks from C# delegates.
 *
 * A delegate handed to C must stay alive as long as C may call it, and an exception must
 * never unwind into C. The native forms (a DcHostFn / DcBlockSharedMemoryFn delegate and
 * a user_data IntPtr) leave both to the caller, so they are internal; the public forms
 * take an Action / Func<int, ulong> and take care of both:
 *
 * dc_stream_add_callback(stream, Action callback)
 *   The Action runs on a driver thread once earlier work on the stream has completed (the
 *   rules of dc_stream_add_callback apply: no dc_ call that enqueues or synchronises).
 *   It is held by a GCHandle until it has run, then freed. On a capturing stream it
 *   becomes a node of the graph and may run once per launch of the graph, or never: its
 *   handle is then kept for the life of the process. An exception thrown by the Action is
 *   caught (it cannot cross into the driver) and passed to Dc.HostCallbackFailed.
 *
 * dc_occupancy_max_potential_block_size(function, Func<int, ulong> sharedBytes, ...)
 *   sharedBytes(blockSize) is called on the calling thread before the call returns; null
 *   means a fixed dynamicSharedBytes. An exception it throws is rethrown after the call.
 */

%typemap(ctype) dc_host_fn "dc_host_fn"
%typemap(imtype) dc_host_fn "DcHostFn"
%typemap(cstype) dc_host_fn "DcHostFn"
%typemap(csin) dc_host_fn "$csinput"
%typemap(in) dc_host_fn %{ $1 = $input; %}
%typemap(csout) dc_host_fn { return $imcall; }

%typemap(ctype) dc_block_shared_memory_fn "dc_block_shared_memory_fn"
%typemap(imtype) dc_block_shared_memory_fn "DcBlockSharedMemoryFn"
%typemap(cstype) dc_block_shared_memory_fn "DcBlockSharedMemoryFn"
%typemap(csin) dc_block_shared_memory_fn "$csinput"
%typemap(in) dc_block_shared_memory_fn %{ $1 = $input; %}
%typemap(csout) dc_block_shared_memory_fn { return $imcall; }

%csmethodmodifiers dc_stream_add_callback "internal";
%csmethodmodifiers dc_occupancy_max_potential_block_size "internal";

%pragma(csharp) modulecode=%{
  // What a host callback's GCHandle holds: the Action, and whether to free the handle
  // after the first run (not when the stream was capturing: a graph may run it again).
  private sealed class DcHostCallback {
    internal readonly global::System.Action Callback;
    internal readonly bool Once;
    internal DcHostCallback(global::System.Action callback, bool once) { Callback = callback; Once = once; }
  }

  // One delegate for every host callback, alive for the life of the process.
  private static readonly DcHostFn dcHostTrampoline = new DcHostFn(RunHostCallback);

  private static void RunHostCallback(global::System.IntPtr userData) {
    global::System.Runtime.InteropServices.GCHandle handle = global::System.Runtime.InteropServices.GCHandle.FromIntPtr(userData);
    DcHostCallback host = (DcHostCallback)handle.Target;
    if (host.Once) handle.Free();
    try {
      host.Callback();
    } catch (global::System.Exception e) {
      global::System.Action<global::System.Exception> report = HostCallbackFailed;
      if (report != null) {
        try { report(e); } catch (global::System.Exception) { /* nothing may reach the driver */ }
      }
    }
  }

  /// <summary>Called with an exception thrown by an Action given to dc_stream_add_callback
  /// (on the driver's thread that ran it); such exceptions are otherwise dropped.</summary>
  public static event global::System.Action<global::System.Exception> HostCallbackFailed;

  /// <summary>dc_stream_add_callback: run `callback` on a driver thread once the work
  /// enqueued on `stream` before it has completed; later work waits for it.</summary>
  public static int dc_stream_add_callback(DcStream stream, global::System.Action callback) {
    if (callback == null) throw new global::System.ArgumentNullException("callback");
    int capturing;
    dc_stream_is_capturing(stream, out capturing);
    global::System.Runtime.InteropServices.GCHandle handle =
        global::System.Runtime.InteropServices.GCHandle.Alloc(new DcHostCallback(callback, capturing == 0));
    try {
      return dc_stream_add_callback(stream, dcHostTrampoline, global::System.Runtime.InteropServices.GCHandle.ToIntPtr(handle));
    } catch {
      handle.Free();  // not enqueued: it will never run
      throw;
    }
  }

  /// <summary>dc_occupancy_max_potential_block_size with the dynamic shared memory given
  /// per block size by `sharedBytes` (null: `dynamicSharedBytes` for every size).</summary>
  public static int dc_occupancy_max_potential_block_size(DcFunction function, global::System.Func<int, ulong> sharedBytes,
                                                          ulong dynamicSharedBytes, int blockSizeLimit,
                                                          out int minGridSize, out int blockSize) {
    if (sharedBytes == null) {
      return dc_occupancy_max_potential_block_size(function, (DcBlockSharedMemoryFn)null, global::System.IntPtr.Zero,
                                                   dynamicSharedBytes, blockSizeLimit, out minGridSize, out blockSize);
    }
    global::System.Exception failure = null;
    DcBlockSharedMemoryFn fn = delegate(int size, global::System.IntPtr userData) {
      if (failure != null) return 0;
      try {
        return sharedBytes(size);
      } catch (global::System.Exception e) {
        failure = e;
        return 0;
      }
    };
    int status = dc_occupancy_max_potential_block_size(function, fn, global::System.IntPtr.Zero, dynamicSharedBytes,
                                                       blockSizeLimit, out minGridSize, out blockSize);
    global::System.GC.KeepAlive(fn);
    if (failure != null) global::System.Runtime.ExceptionServices.ExceptionDispatchInfo.Capture(failure).Throw();
    return status;
  }
%}
