/*
 * mem_ops.i - stream memory operations: DcStreamMemOp is dc_stream_mem_op (zeroed by its
 * constructor; set kind, compare, flags, buffer, offset and value as the header says), and
 * dc_stream_batch_mem_ops takes a DcStreamMemOp[]: the C wrapper copies the structs into one
 * array for the call, as args.i does for kernel arguments. The buffers the operations name
 * are handles the library checks: a disposed DcBuffer is DC_ERROR_INVALID_HANDLE, never a crash.
 */

%rename(DcStreamMemOp) dc_stream_mem_op;
%extend dc_stream_mem_op {
  dc_stream_mem_op() { return (dc_stream_mem_op*)calloc(1, sizeof(dc_stream_mem_op)); }
}
%exception dc_stream_mem_op::dc_stream_mem_op %{
  $action
  if (!result) {
    SWIG_CSharpSetPendingException(SWIG_CSharpOutOfMemoryException, "no memory for a dc_stream_mem_op");
    return 0;
  }
%}

%typemap(cscode) struct dc_stream_mem_op %{
  // The NULL-terminated list of dc_stream_mem_op pointers that the batch typemap takes.
  internal static global::System.IntPtr[] PointerList(DcStreamMemOp[] ops) {
    if (ops == null) return null;
    global::System.IntPtr[] list = new global::System.IntPtr[ops.Length + 1];
    for (int i = 0; i < ops.Length; i++) {
      if (ops[i] == null) throw new global::System.ArgumentNullException("ops", "ops[" + i + "] is null");
      list[i] = getCPtr(ops[i]).Handle;
      if (list[i] == global::System.IntPtr.Zero)
        throw new global::System.ObjectDisposedException("ops[" + i + "]");
    }
    return list;
  }
%}

%typemap(ctype) (const dc_stream_mem_op *ops, uint32_t count) "void **"
%typemap(imtype) (const dc_stream_mem_op *ops, uint32_t count) "global::System.IntPtr[]"
%typemap(cstype) (const dc_stream_mem_op *ops, uint32_t count) "DcStreamMemOp[]"
%typemap(csin, post="      global::System.GC.KeepAlive($csinput);") (const dc_stream_mem_op *ops, uint32_t count) "DcStreamMemOp.PointerList($csinput)"
%typemap(in, canthrow=1) (const dc_stream_mem_op *ops, uint32_t count) %{
  {
    void** items = $input;
    uint32_t n = 0, i;
    dc_stream_mem_op* packed = NULL;
    if (items) {
      while (items[n]) ++n;
    }
    if (n > 0) {
      packed = (dc_stream_mem_op*)malloc(n * sizeof(dc_stream_mem_op));
      if (!packed) {
        SWIG_CSharpSetPendingException(SWIG_CSharpOutOfMemoryException, "no memory for the operations");
        return $null;
      }
      for (i = 0; i < n; ++i) packed[i] = *(const dc_stream_mem_op*)items[i];
    }
    $1 = packed;
    $2 = n;
  }
%}
%typemap(freearg) (const dc_stream_mem_op *ops, uint32_t count) %{ free((void*)$1); %}
