/*
 * args.i - kernel arguments.
 *
 * DcArg is dc_arg. Made with its factories it owns what it points to:
 *   DcArg.Value(2.0f), DcArg.Value(n), DcArg.Value(myBlittableStruct)  a copy of the bytes
 *   DcArg.Bytes(byte[])                                                 a copy of the bytes
 *   DcArg.Buffer(buffer[, offset])                                      a buffer's device address
 * (a buffer argument also keeps the DcBuffer object from being finalized while the
 * DcArg lives; the library itself holds the buffer once it is bound to a prepared launch).
 * `new DcArg()` gives a zeroed dc_arg whose fields are set by hand, `value` as an IntPtr
 * to memory the caller keeps alive.
 *
 * An argument list (`const dc_arg* args, uint32_t num_args`) is a DcArg[]: the C wrapper
 * copies the structs into one array for the call (the values they point to stay where
 * they are, alive for the call).
 */

%rename(DcArg) dc_arg;
%extend dc_arg {
  dc_arg() { return (dc_arg*)calloc(1, sizeof(dc_arg)); }
}
%exception dc_arg::dc_arg %{
  $action
  if (!result) {
    SWIG_CSharpSetPendingException(SWIG_CSharpOutOfMemoryException, "no memory for a dc_arg");
    return 0;
  }
%}

%newobject dcswig_arg_value;
%newobject dcswig_arg_buffer;
%csmethodmodifiers dcswig_arg_value "internal";
%csmethodmodifiers dcswig_arg_buffer "internal";
%exception dcswig_arg_value %{
  $action
  if (!result) {
    SWIG_CSharpSetPendingException(SWIG_CSharpOutOfMemoryException, "no memory for a kernel argument");
    return 0;
  }
%}
%inline %{
/* A DC_ARG_VALUE argument holding a copy of `size` bytes right after the struct: one
   allocation, freed by DcArg's destructor (free). */
static dc_arg* dcswig_arg_value(const void* bytes, uint32_t size) {
  dc_arg* arg = (dc_arg*)calloc(1, sizeof(dc_arg) + size);
  if (!arg) return NULL;
  arg->kind = DC_ARG_VALUE;
  arg->size = size;
  arg->value = arg + 1;
  if (size > 0) memcpy(arg + 1, bytes, size);
  return arg;
}

static dc_arg* dcswig_arg_buffer(dc_buffer buffer, uint64_t offset) {
  dc_arg init = DC_ARG_BUFFER_AT(buffer, offset);
  dc_arg* arg = (dc_arg*)malloc(sizeof(dc_arg));
  if (arg) *arg = init;
  return arg;
}
%}
%exception dcswig_arg_buffer %{
  $action
  if (!result) {
    SWIG_CSharpSetPendingException(SWIG_CSharpOutOfMemoryException, "no memory for a kernel argument");
    return 0;
  }
%}

%typemap(cscode) struct dc_arg %{
  // The buffer a DcArg.Buffer argument points to, so that its object is not finalized
  // (and the handle released) while the argument may still be passed to a launch.
  internal DcBuffer bufferKeptAlive;

  /// <summary>A value argument: a copy of the bytes of `value`, any blittable type
  /// laid out as the kernel's parameter (float, int, ulong, a [StructLayout] struct).</summary>
  public static DcArg Value<T>(T value) where T : struct {
    T[] one = new T[] { value };
    global::System.Runtime.InteropServices.GCHandle pin =
        global::System.Runtime.InteropServices.GCHandle.Alloc(one, global::System.Runtime.InteropServices.GCHandleType.Pinned);
    try {
      return Dc.dcswig_arg_value(pin.AddrOfPinnedObject(),
                                 (uint)global::System.Runtime.InteropServices.Marshal.SizeOf(typeof(T)));
    } finally {
      pin.Free();
    }
  }

  /// <summary>A value argument: a copy of `bytes`.</summary>
  public static DcArg Bytes(byte[] bytes) {
    if (bytes == null) throw new global::System.ArgumentNullException("bytes");
    global::System.Runtime.InteropServices.GCHandle pin =
        global::System.Runtime.InteropServices.GCHandle.Alloc(bytes, global::System.Runtime.InteropServices.GCHandleType.Pinned);
    try {
      return Dc.dcswig_arg_value(pin.AddrOfPinnedObject(), (uint)bytes.Length);
    } finally {
      pin.Free();
    }
  }

  /// <summary>A buffer argument: the device address of `buffer` plus `offset` bytes.</summary>
  public static DcArg Buffer(DcBuffer buffer, ulong offset = 0) {
    DcArg arg = Dc.dcswig_arg_buffer(buffer, offset);
    arg.bufferKeptAlive = buffer;
    return arg;
  }

  // The NULL-terminated list of dc_arg pointers that the args typemap takes.
  internal static global::System.IntPtr[] PointerList(DcArg[] args) {
    if (args == null) return null;
    global::System.IntPtr[] list = new global::System.IntPtr[args.Length + 1];
    for (int i = 0; i < args.Length; i++) {
      if (args[i] == null) throw new global::System.ArgumentNullException("args", "args[" + i + "] is null");
      list[i] = getCPtr(args[i]).Handle;
      if (list[i] == global::System.IntPtr.Zero)
        throw new global::System.ObjectDisposedException("args[" + i + "]");
    }
    return list;
  }
%}

%typemap(ctype) (const dc_arg *args, uint32_t num_args) "void **"
%typemap(imtype) (const dc_arg *args, uint32_t num_args) "global::System.IntPtr[]"
%typemap(cstype) (const dc_arg *args, uint32_t num_args) "DcArg[]"
%typemap(csin, post="      global::System.GC.KeepAlive($csinput);") (const dc_arg *args, uint32_t num_args) "DcArg.PointerList($csinput)"
%typemap(in, canthrow=1) (const dc_arg *args, uint32_t num_args) %{
  {
    void** items = $input;
    uint32_t n = 0, i;
    dc_arg* packed = NULL;
    if (items) {
      while (items[n]) ++n;
    }
    if (n > 0) {
      packed = (dc_arg*)malloc(n * sizeof(dc_arg));
      if (!packed) {
        SWIG_CSharpSetPendingException(SWIG_CSharpOutOfMemoryException, "no memory for the argument list");
        return $null;
      }
      for (i = 0; i < n; ++i) packed[i] = *(const dc_arg*)items[i];
    }
    $1 = packed;
    $2 = n;
  }
%}
%typemap(freearg) (const dc_arg *args, uint32_t num_args) %{ free((void*)$1); %}
