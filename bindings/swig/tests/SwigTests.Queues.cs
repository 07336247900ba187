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

  // A batch of copies: two buffer-to-buffer copies (the host field unused), then a
  // dependent pair refused naming both indices.
  static void Case_copies_in_a_batch() {
    using (DcDevice device = OpenDevice()) {
      DcBuffer a, b;
      DcStream stream;
      Dc.dc_buffer_alloc(device, 4096, 0, out a);
      Dc.dc_buffer_alloc(device, 4096, 0, out b);
      Dc.dc_stream_create(device, 0, 0, out stream);
      using (a)
      using (b)
      using (stream) {
        byte[] data = new byte[4096];
        new Random(7).NextBytes(data);
        Dc.dc_buffer_write(a, 0, data);
        DcCopyOp first = CopyOp(b, 0, a, 1024, 1000), second = CopyOp(b, 2000, a, 0, 500);
        Dc.dc_buffer_copy_batch_async(new[] { first, second }, stream);
        Dc.dc_stream_synchronize(stream);
        byte[] got = new byte[4096];
        Dc.dc_buffer_read(b, 0, got);
        for (int i = 0; i < 1000; i++) Check.True(got[i] == data[1024 + i], "ops[0] byte " + i);
        for (int i = 0; i < 500; i++) Check.True(got[2000 + i] == data[i], "ops[1] byte " + i);
        DcException e = Check.Fails(Dc.DC_ERROR_INVALID_ARGUMENT, "dc_buffer_copy_batch_async",
            () => Dc.dc_buffer_copy_batch_async(new[] { CopyOp(b, 0, a, 0, 100), CopyOp(a, 2000, b, 50, 100) }, stream));
        Check.Contains(e.Message, "ops[0] and ops[1] overlap", "the dependent copies are named");
        Dc.dc_buffer_copy_batch_async(new DcCopyOp[0], stream);
      }
    }
  }

  static DcCopyOp CopyOp(DcBuffer dst, ulong dstOffset, DcBuffer src, ulong srcOffset, ulong size) {
    DcCopyOp op = new DcCopyOp();
    op.kind = Dc.DC_COPY_BUFFER_TO_BUFFER;
    op.dst = dst;
    op.dst_offset = dstOffset;
    op.src = src;
    op.src_offset = srcOffset;
    op.size = size;
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
