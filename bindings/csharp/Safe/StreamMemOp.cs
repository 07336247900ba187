// One operation of DcStream.BatchMemOps: a wait on, or a write of, a 32- or 64-bit value in a
// buffer, as the single calls (DcStream.WaitValue32...) take it. It holds the DeviceBuffer, not
// its raw handle, so that the batch pins every buffer for the length of the call.
using System;
using Dccuda.Interop;

namespace Dccuda
{
    /// <summary>One stream memory operation for DcStream.BatchMemOps (dc_stream_mem_op): made by Wait32, Wait64, Write32 or Write64.</summary>
    public struct StreamMemOp
    {
        internal uint Kind;
        internal WaitCompare Compare;
        internal ValueFlags Flags;
        internal DeviceBuffer Buffer;
        internal ulong Offset;
        internal ulong Value;

        private static StreamMemOp Make(uint kind, DeviceBuffer buffer, ulong offset, ulong value, WaitCompare compare, ValueFlags flags)
        {
            if (buffer == null)
                throw new ArgumentNullException("buffer");
            return new StreamMemOp { Kind = kind, Compare = compare, Flags = flags, Buffer = buffer, Offset = offset, Value = value };
        }

        /// <summary>Wait until the 32-bit value at `offset` (a multiple of 4) compares with `value` as `compare` says.</summary>
        public static StreamMemOp Wait32(DeviceBuffer buffer, ulong offset, uint value, WaitCompare compare, ValueFlags flags = ValueFlags.None)
        {
            return Make(NativeConstants.DC_MEM_OP_WAIT32, buffer, offset, value, compare, flags);
        }

        /// <summary>Wait until the 64-bit value at `offset` (a multiple of 8) compares with `value` as `compare` says.</summary>
        public static StreamMemOp Wait64(DeviceBuffer buffer, ulong offset, ulong value, WaitCompare compare, ValueFlags flags = ValueFlags.None)
        {
            return Make(NativeConstants.DC_MEM_OP_WAIT64, buffer, offset, value, compare, flags);
        }

        /// <summary>Write the 32-bit `value` at `offset` (a multiple of 4).</summary>
        public static StreamMemOp Write32(DeviceBuffer buffer, ulong offset, uint value, ValueFlags flags = ValueFlags.None)
        {
            return Make(NativeConstants.DC_MEM_OP_WRITE32, buffer, offset, value, 0, flags);
        }

        /// <summary>Write the 64-bit `value` at `offset` (a multiple of 8).</summary>
        public static StreamMemOp Write64(DeviceBuffer buffer, ulong offset, ulong value, ValueFlags flags = ValueFlags.None)
        {
            return Make(NativeConstants.DC_MEM_OP_WRITE64, buffer, offset, value, 0, flags);
        }
    }
}
