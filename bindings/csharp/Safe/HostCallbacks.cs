// Host functions on streams (dc_stream_add_callback), the binding's side.
//
// The library calls one static thunk with a `void* user_data`. That value is not an object
// handle but a number: a key into a table of callbacks, taken from a 64-bit counter and never
// given out twice. A GCHandle would not do: a callback recorded into a graph runs at every
// launch of the graph, and once a GCHandle is freed its slot is handed to the next
// GCHandle.Alloc, so a late or repeated run would invoke another object (CoreCLR), or crash
// (Mono). With keys, a run that finds no entry does nothing.
//
// Entries are either one-shot (removed by their run: a callback on a stream that is not
// capturing, an await's completion, an unpin after a copy) or repeating (a host node of a
// graph: removed by GraphResources when the graph can no longer run).
using System;
using System.Collections.Generic;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace Dccuda
{
    /// <summary>What runs when the driver reaches a host function. Runs on a driver thread,
    /// where dc_ calls that enqueue work, synchronise or free memory are forbidden: anything
    /// that may lead to one (a buffer's last release) goes to the thread pool.</summary>
    internal abstract class HostCallback
    {
        internal abstract void Run();
    }

    internal sealed class ActionCallback : HostCallback
    {
        private readonly Action action;

        internal ActionCallback(Action action)
        {
            this.action = action;
        }

        internal override void Run()
        {
            action();
        }
    }

    internal static unsafe class HostCallbacks
    {
        private struct Slot
        {
            public HostCallback Callback;
            public bool Repeat;
        }

        private static readonly object Gate = new object();
        private static readonly Dictionary<long, Slot> Table = new Dictionary<long, Slot>();
        private static long next;

#if NET7_0_OR_GREATER
        // .NET: a function pointer to an [UnmanagedCallersOnly] method, no delegate at all
        // (nothing to keep alive, nothing for trimming or NativeAOT to miss).
        [UnmanagedCallersOnly(CallConvs = new[] { typeof(CallConvCdecl) })]
        private static void InvokeFromNative(IntPtr userData)
        {
            Invoke(userData);
        }

        /// <summary>The dc_host_fn every callback of the binding goes through.</summary>
        internal static readonly IntPtr Thunk = (IntPtr)(delegate* unmanaged[Cdecl]<IntPtr, void>)&InvokeFromNative;
#else
        [UnmanagedFunctionPointer(CallingConvention.Cdecl)]
        private delegate void HostFn(IntPtr userData);

        // Static: the delegate the driver calls through is never collected.
        private static readonly HostFn Callback = Invoke;

        /// <summary>The dc_host_fn every callback of the binding goes through.</summary>
        internal static readonly IntPtr Thunk = Marshal.GetFunctionPointerForDelegate(Callback);
#endif

        /// <summary>A new entry; pass (IntPtr)key as user_data. A repeating entry stays until
        /// Remove.</summary>
        internal static long Add(HostCallback callback, bool repeat)
        {
            lock (Gate)
            {
                long key = ++next;
                Table.Add(key, new Slot { Callback = callback, Repeat = repeat });
                return key;
            }
        }

        /// <summary>Remove an entry (true if it was still there: a one-shot entry then never
        /// runs). Pure managed code: never touches the library's last error.</summary>
        internal static bool Remove(long key)
        {
            lock (Gate)
                return Table.Remove(key);
        }

        /// <summary>Live entries (a leak check for the tests).</summary>
        internal static int Count
        {
            get
            {
                lock (Gate)
                    return Table.Count;
            }
        }

        internal static IntPtr UserData(long key)
        {
            return new IntPtr(key);
        }

        /// <summary>What the thunk calls (internal: the tests run an entry as the driver would).</summary>
        internal static void Invoke(IntPtr userData)
        {
            long key = userData.ToInt64();
            Slot slot;
            lock (Gate)
            {
                if (!Table.TryGetValue(key, out slot))
                    return;   // removed: cancelled, or its graph is gone
                if (!slot.Repeat)
                    Table.Remove(key);
            }
            // No exception may cross back into the driver's thread.
            try
            {
                slot.Callback.Run();
            }
            catch (Exception e)
            {
                Dc.ReportCallbackException(e);
            }
        }
    }
}
