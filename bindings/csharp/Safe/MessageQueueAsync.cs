// Waits on a queue or a control block that do not hold a thread: ValueTask versions of
// Enqueue, Dequeue and WaitStopped. The GPU cannot wake a host thread, so these poll as the
// blocking calls do, but between polls they give the thread back (a yield, then pauses of
// 1 ms), which suits a server with many actors; a latency-critical caller spins with the
// blocking calls (WaitStrategy.Spin). The first attempt is made at once, on the caller's
// thread: a ready queue completes the ValueTask synchronously, without allocating.
using System;
using System.Diagnostics;
using System.Threading;
using System.Threading.Tasks;

namespace Dccuda
{
    internal static class AsyncPoll
    {
        // Yields before the pauses begin: a message usually comes within microseconds.
        private const int Yields = 16;

        /// <summary>Polls `attempt` until it returns true (the thread given back between
        /// polls), `timeout` passes (DcException Timeout naming `what`) or `cancellationToken`
        /// is cancelled (OperationCanceledException).</summary>
        internal static async Task Until(Func<bool> attempt, TimeSpan? timeout, CancellationToken cancellationToken,
                                         string what)
        {
            var watch = Stopwatch.StartNew();
            for (int round = 0; ; ++round)
            {
                cancellationToken.ThrowIfCancellationRequested();
                if (timeout != null && watch.Elapsed >= timeout.Value)
                    throw new DcException(DcStatus.Timeout, what + ": nothing within the time limit of " +
                                          timeout.Value.TotalMilliseconds + " ms; give a longer timeout, or check that the kernel runs (Control.Status)");
                if (round < Yields)
                    await Task.Yield();
                else
                    await Task.Delay(1, cancellationToken).ConfigureAwait(false);
                if (attempt())
                    return;
            }
        }

        internal static async Task EnqueueLater(MessageQueue queue, ReadOnlyMemory<byte> message, TimeSpan? timeout, CancellationToken cancellationToken)
        {
            try
            {
                await AsyncPoll.Until(() => queue.TryEnqueueIfRoom(message.Span), timeout, cancellationToken,
                                      "MessageQueue.EnqueueAsync: the queue stayed full").ConfigureAwait(false);
            }
            catch (DcException e) when (e.Status == DcStatus.Timeout)
            {
                // One last attempt, as the blocking Enqueue makes one: it counts the message as a
                // drop when the queue is still full, as the blocking call does.
                try
                {
                    queue.Enqueue(message.Span, WaitStrategy.Spin, TimeSpan.Zero);
                    return;
                }
                catch (DcException last) when (last.Status == DcStatus.Timeout)
                {
                }
                throw;
            }
        }

        internal static async Task<int> DequeueLater(MessageQueue queue, Memory<byte> destination, TimeSpan? timeout, CancellationToken cancellationToken)
        {
            int n = -1;
            await AsyncPoll.Until(() => (n = queue.TryDequeue(destination.Span)) >= 0, timeout, cancellationToken,
                                  "MessageQueue.DequeueAsync: the queue stayed empty").ConfigureAwait(false);
            return n;
        }
    }

    public sealed unsafe partial class MessageQueue
    {
        /// <summary>Enqueue one message (0 to the slot size bytes), giving the thread back while
        /// the queue is full, up to `timeout` (null: no limit). DcException Timeout when it stayed
        /// full (nothing enqueued, counted as a drop), OperationCanceledException when cancelled.
        /// ToDevice queues only.</summary>
        public ValueTask EnqueueAsync(ReadOnlyMemory<byte> message, TimeSpan? timeout = null,
                                      CancellationToken cancellationToken = default(CancellationToken))
        {
            WaitTime.Microseconds(timeout, "timeout");
            if (TryEnqueueIfRoom(message.Span))
                return default(ValueTask);
            return new ValueTask(AsyncPoll.EnqueueLater(this, message, timeout, cancellationToken));
        }

        // A try that is not counted as a drop when the queue is full (the async wait tries again).
        internal bool TryEnqueueIfRoom(ReadOnlySpan<byte> message)
        {
            QueueStats s = Counters;
            return s.Length < s.Capacity && TryEnqueue(message);
        }

        /// <summary>Dequeue the oldest message into `destination`, giving the thread back while the
        /// queue is empty, up to `timeout` (null: no limit); its length. DcException Timeout when none
        /// came, OutOfRange when it is longer than `destination` (it stays queued),
        /// OperationCanceledException when cancelled. ToHost queues only.</summary>
        public ValueTask<int> DequeueAsync(Memory<byte> destination, TimeSpan? timeout = null,
                                           CancellationToken cancellationToken = default(CancellationToken))
        {
            WaitTime.Microseconds(timeout, "timeout");
            int n = TryDequeue(destination.Span);
            if (n >= 0)
                return new ValueTask<int>(n);
            return new ValueTask<int>(AsyncPoll.DequeueLater(this, destination, timeout, cancellationToken));
        }

    }

    public sealed unsafe partial class Control
    {
        /// <summary>Wait up to `timeout` (null: no limit) for the kernel to report it stopped,
        /// giving the thread back meanwhile. DcException Timeout when it did not,
        /// OperationCanceledException when cancelled. Synchronise its stream before reusing what
        /// it wrote.</summary>
        public ValueTask WaitStoppedAsync(TimeSpan? timeout = null,
                                          CancellationToken cancellationToken = default(CancellationToken))
        {
            WaitTime.Microseconds(timeout, "timeout");
            if (State == ControlState.Stopped)
                return default(ValueTask);
            return new ValueTask(AsyncPoll.Until(() => State == ControlState.Stopped, timeout, cancellationToken,
                                                 "Control.WaitStoppedAsync: the kernel did not stop"));
        }
    }
}
