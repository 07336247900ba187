// Awaiting the GPU without blocking a thread: DcStream.SynchronizeAsync and Event.WaitAsync.
//
// A one-shot host callback (HostCallbacks) is enqueued on the stream; when the driver reaches
// it, it completes a ValueTask source whose continuations are queued (RunContinuationsAsync-
// hronously), never run inline on the driver's thread, where dc_ calls that enqueue work or
// synchronise are forbidden. The awaiting code then asks the stream (or event) once for an
// error, as Synchronize would report it.
//
// Cancellation removes the callback's table entry (whichever of the callback and the
// cancellation removes it first wins) and completes the wait as cancelled: the GPU work goes
// on, and the callback, when the driver reaches it, finds no entry and does nothing.
//
// After a kernel fault the driver never calls host functions enqueued before it was noticed,
// so a wait could hang: waits pending for longer than PollMs are checked by a timer
// (dc_stream_query / dc_event_query on the thread pool) and fail with the fault's DcException.
using System;
using System.Collections.Generic;
using System.Threading;
using System.Threading.Tasks;
using System.Threading.Tasks.Sources;
using Dccuda.Interop;

namespace Dccuda
{
    internal sealed unsafe class AsyncCompletion : HostCallback, IValueTaskSource
    {
        private const int PollMs = 100;

        private ManualResetValueTaskSourceCore<bool> core;
        private readonly IntPtr stream;   // the raw dc_stream to ask for errors, or zero
        private readonly IntPtr evt;      // the raw dc_event to ask instead, or zero
        private readonly string what;
        private long key;
        private CancellationToken token;
        private CancellationTokenRegistration registration;
        private int state;                // 0 pending, 1 done (callback, fault, cancel)
        private bool ranCallback;
        private readonly long started = Environment.TickCount;

        private AsyncCompletion(IntPtr stream, IntPtr evt, string what)
        {
            core.RunContinuationsAsynchronously = true;
            this.stream = stream;
            this.evt = evt;
            this.what = what;
        }

        /// <summary>Enqueue the completion callback on `raw` (the caller holds the stream) and
        /// return the ValueTask. Errors while enqueueing are thrown here.</summary>
        internal static ValueTask Start(IntPtr raw, IntPtr evt, string what, CancellationToken cancellationToken)
        {
            var c = new AsyncCompletion(raw, evt, what);
            c.key = HostCallbacks.Add(c, false);
            int status = NativeMethods.dc_stream_add_callback(raw, HostCallbacks.Thunk, HostCallbacks.UserData(c.key));
            if (status < 0)
            {
                HostCallbacks.Remove(c.key);
                throw DcException.FromLastError(status);
            }
            c.Watch(cancellationToken);
            return new ValueTask(c, c.core.Version);
        }

        /// <summary>A wait that only cancellation or an explicit run of its entry completes
        /// (HostCallbacks.Invoke(key)): the tests' way to hold a wait pending where the fake
        /// driver runs host functions at once.</summary>
        internal static ValueTask StartDetached(CancellationToken cancellationToken, out long key)
        {
            return StartDetached(IntPtr.Zero, cancellationToken, out key);
        }

        /// <summary>As above, watching `stream` for a fault (the poller's path).</summary>
        internal static ValueTask StartDetached(IntPtr stream, CancellationToken cancellationToken, out long key)
        {
            var c = new AsyncCompletion(stream, IntPtr.Zero, "AsyncCompletion");
            c.key = key = HostCallbacks.Add(c, false);
            c.Watch(cancellationToken);
            return new ValueTask(c, c.core.Version);
        }

        private void Watch(CancellationToken cancellationToken)
        {
            token = cancellationToken;
            if (cancellationToken.CanBeCanceled)
            {
                registration = cancellationToken.Register(s => ((AsyncCompletion)s).Cancel(), this);
                if (Volatile.Read(ref state) != 0)
                    registration.Dispose();   // completed before the registration existed
            }
            if (Volatile.Read(ref state) == 0 && (stream != IntPtr.Zero || evt != IntPtr.Zero))
                Poller.Add(this);
        }

        // ---- the three ways a wait ends ------------------------------------------------------

        /// <summary>The driver reached the callback (a driver thread).</summary>
        internal override void Run()
        {
            ranCallback = true;
            Finish(null);
        }

        private void Cancel()
        {
            if (HostCallbacks.Remove(key))
                Finish(new OperationCanceledException(what + ": the wait was cancelled (the GPU work goes on)", token));
        }

        /// <summary>The poller found the stream or event failed.</summary>
        private void Fail(DcException e)
        {
            if (HostCallbacks.Remove(key))
                Finish(e);
        }

        private void Finish(Exception e)
        {
            if (Interlocked.Exchange(ref state, 1) != 0)
                return;
            Poller.Remove(this);
            registration.Dispose();
            if (e == null)
                core.SetResult(true);
            else
                core.SetException(e);
        }

        // ---- IValueTaskSource ------------------------------------------------------------------

        public ValueTaskSourceStatus GetStatus(short version)
        {
            return core.GetStatus(version);
        }

        public void OnCompleted(Action<object> continuation, object s, short version, ValueTaskSourceOnCompletedFlags flags)
        {
            core.OnCompleted(continuation, s, version, flags);
        }

        /// <summary>On the awaiting side (never the driver's thread): rethrows a cancellation or
        /// fault, and after the callback ran reports an error of the work, as Synchronize does.</summary>
        public void GetResult(short version)
        {
            core.GetResult(version);
            if (ranCallback)
                ThrowIfFailed(Query());
        }

        private int Query()
        {
            if (evt != IntPtr.Zero)
                return NativeMethods.dc_event_query(evt);
            if (stream != IntPtr.Zero)
                return NativeMethods.dc_stream_query(stream);
            return NativeConstants.DC_SUCCESS;
        }

        private static void ThrowIfFailed(int status)
        {
            // Not ready: later work was enqueued behind the wait. Invalid handle: the stream or
            // event was released since; its work before the wait has completed.
            if (status < 0 && status != NativeConstants.DC_ERROR_INVALID_HANDLE)
                throw DcException.FromLastError(status);
        }

        // ---- the fault poller ---------------------------------------------------------------

        private static class Poller
        {
            private static readonly object Gate = new object();
            private static readonly HashSet<AsyncCompletion> Waits = new HashSet<AsyncCompletion>();
            private static Timer timer;

            internal static void Add(AsyncCompletion c)
            {
                lock (Gate)
                {
                    Waits.Add(c);
                    if (timer == null)
                        timer = new Timer(_ => Tick(), null, PollMs, PollMs);
                }
            }

            internal static void Remove(AsyncCompletion c)
            {
                lock (Gate)
                {
                    Waits.Remove(c);
                    if (Waits.Count == 0 && timer != null)
                    {
                        timer.Dispose();
                        timer = null;
                    }
                }
            }

            private static void Tick()
            {
                AsyncCompletion[] due;
                int now = Environment.TickCount;
                lock (Gate)
                {
                    due = new AsyncCompletion[Waits.Count];
                    Waits.CopyTo(due);
                }
                foreach (AsyncCompletion c in due)
                {
                    if (unchecked(now - (int)c.started) < PollMs || Volatile.Read(ref c.state) != 0)
                        continue;
                    int status = c.Query();
                    if (status < 0 && status != NativeConstants.DC_ERROR_INVALID_HANDLE)
                        c.Fail(DcException.FromLastError(status));
                }
            }
        }
    }
}
