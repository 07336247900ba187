// This wave's functions through the generated binding: queue and control-block structs,
// stream memory operations in a batch (DcStreamMemOp[]), device limits.
using System;
using Dccuda.Swig;

static partial class SwigTests {
  static DcStreamMemOp MemOp(uint kind, DcBuffer buffer, ulong offset, ulong value, int compare) {
    DcStreamMemOp op = new DcStreamMemOp();
    op.kind = kind;
    op.buffer = buffer;
    op.offset = offset;
    op.value = value;
    op.compare = compare;
    return op;
  }

  static void Case_stream_memory_operations_in_a_batch() {
    using (DcDevice device = OpenDevice()) {
      DcStream stream;
      Dc.dc_stream_create(device, 0, 0, out stream);
      DcBuffer buffer;
      // cuMemAlloc memory: the driver's stream memory operations refuse pool memory.
      Dc.dc_buffer_alloc(device, 64, Dc.DC_ALLOC_NO_POOL, out buffer);
      using (stream)
      using (buffer) {
        Dc.dc_buffer_write(buffer, 0, new byte[64]);
        Dc.dc_stream_write_value32(stream, buffer, 0, 5, 0);
        DcStreamMemOp[] ops = {
          MemOp(Dc.DC_MEM_OP_WAIT32, buffer, 0, 5, Dc.DC_COMPARE_EQ),
          MemOp(Dc.DC_MEM_OP_WRITE32, buffer, 8, 77, 0),
          MemOp(Dc.DC_MEM_OP_WRITE64, buffer, 16, 0x1122334455667788ul, 0),
        };
        Dc.dc_stream_batch_mem_ops(stream, ops);
        Dc.dc_stream_synchronize(stream);
        ulong[] got = new ulong[8];
        Dc.dc_buffer_read(buffer, 0, got);
        Check.Equal(5ul, got[0], "the single write");
        Check.Equal(77ul, got[1], "the batch's 32-bit write");
        Check.Equal(0x1122334455667788ul, got[2], "the batch's 64-bit write (all three operations reached the library)");
        DcException e = Check.Fails(Dc.DC_ERROR_INVALID_ARGUMENT, "dc_stream_batch_mem_ops",
            () => Dc.dc_stream_batch_mem_ops(stream, new[] { MemOp(Dc.DC_MEM_OP_WRITE32, buffer, 24, 1, 0), MemOp(Dc.DC_MEM_OP_WRITE32, buffer, 26, 1, 0) }));
        Check.Contains(e.Message, "1", "the message names the bad operation");
        Check.Fails(Dc.DC_ERROR_INVALID_ARGUMENT, "dc_stream_batch_mem_ops", () => Dc.dc_stream_batch_mem_ops(stream, new DcStreamMemOp[0]));
        foreach (DcStreamMemOp op in ops) op.Dispose();
      }
    }
  }

  static void Case_queue_and_control_structs_and_limits() {
    using (DcDevice device = OpenDevice()) {
      DcQueue queue;
      Dc.dc_queue_create(device, Dc.DC_QUEUE_TO_DEVICE, 16, 4, out queue);
      using (queue)
      using (DcQueueStats stats = new DcQueueStats()) {
        Check.True(stats.struct_size > 0, "struct_size is set by the constructor");
        Dc.dc_queue_try_enqueue(queue, IntPtr.Zero, 0);
        Dc.dc_queue_counters(queue, stats);
        Check.Equal(16u, stats.slot_size, "slot size");
        Check.Equal(4u, stats.capacity, "capacity");
        Check.Equal(1ul, stats.length, "one message");
      }
      DcControl control;
      Dc.dc_control_create(device, out control);
      using (control)
      using (DcControlInfo info = new DcControlInfo()) {
        Dc.dc_control_request_stop(control);
        Dc.dc_control_status(control, info);
        Check.Equal(Dc.DC_CONTROL_IDLE, info.state, "idle");
        Check.Equal(1u, info.stop_requested, "stop requested");
      }
      Dc.dc_device_set_limit(device, Dc.DC_LIMIT_MALLOC_HEAP_SIZE, 32ul << 20);
      ulong heap;
      Dc.dc_device_limit(device, Dc.DC_LIMIT_MALLOC_HEAP_SIZE, out heap);
      Check.True(heap >= 32ul << 20, "the heap limit reads back (" + heap + ")");
    }
  }
}
