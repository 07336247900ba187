/*
 * batches.i - the batch calls: dc_launch_enqueue_batch takes a DcLaunch[], and
 * dc_buffer_copy_batch_async a DcCopyOp[] (dc_copy_op, zeroed by its constructor; set
 * kind, dst, dst_offset, src, src_offset, host and size as the header says).
 *
 * Launches: the C# side passes one IntPtr[]: the count first, then each launch's handle.
 * A disposed DcLaunch passes NULL in its place, which the library refuses with
 * DC_ERROR_INVALID_HANDLE naming its index (launches[i]): never a crash, and a count that
 * does not depend on NULLs. Copies: as mem_ops.i, a NULL-terminated list of the structs,
 * copied into one array for the call.
 */

%typemap(ctype) (const dc_launch *launches, uint32_t count) "void **"
%typemap(imtype) (const dc_launch *launches, uint32_t count) "global::System.IntPtr[]"
%typemap(cstype) (const dc_launch *launches, uint32_t count) "DcLaunch[]"
%typemap(csin, post="      global::System.GC.KeepAlive($csinput);") (const dc_launch *launches, uint32_t count)
  "Dc.CountedLaunchList($csinput)"
%typemap(in) (const dc_launch *launches, uint32_t count) %{
  {
    void** items = $input;
    $2 = items ? (uint32_t)(uintptr_t)items[0] : 0;
    $1 = ($2 > 0) ? ($1_ltype)(items + 1) : NULL;
  }
%}

%pragma(csharp) modulecode=%{
  // The count, then each launch's handle (zero for a disposed one), for the batch typemap.
  internal static global::System.IntPtr[] CountedLaunchList(DcLaunch[] launches) {
    if (launches == null) return null;
    global::System.IntPtr[] list = new global::System.IntPtr[launches.Length + 1];
    list[0] = new global::System.IntPtr(launches.Length);
    for (int i = 0; i < launches.Length; i++) {
      if (launches[i] == null) throw new global::System.ArgumentNullException("launches", "launches[" + i + "] is null");
      list[i + 1] = DcLaunch.getCPtr(launches[i]).Handle;
    }
    return list;
  }
%}

%rename(DcCopyOp) dc_copy_op;
%extend dc_copy_op {
  dc_copy_op() { return (dc_copy_op*)calloc(1, sizeof(dc_copy_op)); }
}
%exception dc_copy_op::dc_copy_op %{
  $action
  if (!result) {
    SWIG_CSharpSetPendingException(SWIG_CSharpOutOfMemoryException, "no memory for a dc_copy_op");
    return 0;
  }
%}

%typemap(cscode) struct dc_copy_op %{
  // The NULL-terminated list of dc_copy_op pointers that the batch typemap takes.
  internal static global::System.IntPtr[] PointerList(DcCopyOp[] ops) {
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

%typemap(ctype) (const dc_copy_op *ops, uint32_t count) "void **"
%typemap(imtype) (const dc_copy_op *ops, uint32_t count) "global::System.IntPtr[]"
%typemap(cstype) (const dc_copy_op *ops, uint32_t count) "DcCopyOp[]"
%typemap(csin, post="      global::System.GC.KeepAlive($csinput);") (const dc_copy_op *ops, uint32_t count) "DcCopyOp.PointerList($csinput)"
%typemap(in, canthrow=1) (const dc_copy_op *ops, uint32_t count) %{
  {
    void** items = $input;
    uint32_t n = 0, i;
    dc_copy_op* packed = NULL;
    if (items) {
      while (items[n]) ++n;
    }
    if (n > 0) {
      packed = (dc_copy_op*)malloc(n * sizeof(dc_copy_op));
      if (!packed) {
        SWIG_CSharpSetPendingException(SWIG_CSharpOutOfMemoryException, "no memory for the copies");
        return $null;
      }
      for (i = 0; i < n; ++i) packed[i] = *(const dc_copy_op*)items[i];
    }
    $1 = packed;
    $2 = n;
  }
%}
%typemap(freearg) (const dc_copy_op *ops, uint32_t count) %{ free((void*)$1); %}
