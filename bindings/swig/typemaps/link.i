/*
 * link.i - linking: DcLinkInput is dc_link_input (zeroed by its constructor; set kind and
 * one of program, data and size, or path, as the header says; path and name hold copies
 * owned by the input), DcLinkOptions is dc_link_options with DC_LINK_OPTIONS_INIT (its
 * options list a string[] that also sets num_options), and dc_link takes a DcLinkInput[]:
 * the C wrapper copies the structs into one array for the call, as mem_ops.i does. The
 * programs the inputs name are handles the library checks.
 */

%rename(DcLinkInput) dc_link_input;
%extend dc_link_input {
  dc_link_input() { return (dc_link_input*)calloc(1, sizeof(dc_link_input)); }
  ~dc_link_input() {
    free((void*)$self->path);
    free((void*)$self->name);
    free($self);
  }
}
%exception dc_link_input::dc_link_input %{
  $action
  if (!result) {
    SWIG_CSharpSetPendingException(SWIG_CSharpOutOfMemoryException, "no memory for a dc_link_input");
    return 0;
  }
%}
/* Setters that copy a string can run out of memory: their C# checks for the exception. */
%exception dc_link_input::path %{ $action %}
%exception dc_link_input::name %{ $action %}

DC_STRUCT(dc_link_options, DcLinkOptions, DC_LINK_OPTIONS_INIT)
%immutable dc_link_options::num_options;
%exception dc_link_options::options %{ $action %}
%extend dc_link_options {
  ~dc_link_options() {
    free((void*)$self->options);
    free($self);
  }
}

%typemap(cscode) struct dc_link_input %{
  // The NULL-terminated list of dc_link_input pointers that dc_link's typemap takes.
  internal static global::System.IntPtr[] PointerList(DcLinkInput[] inputs) {
    if (inputs == null) return null;
    global::System.IntPtr[] list = new global::System.IntPtr[inputs.Length + 1];
    for (int i = 0; i < inputs.Length; i++) {
      if (inputs[i] == null) throw new global::System.ArgumentNullException("inputs", "inputs[" + i + "] is null");
      list[i] = getCPtr(inputs[i]).Handle;
      if (list[i] == global::System.IntPtr.Zero)
        throw new global::System.ObjectDisposedException("inputs[" + i + "]");
    }
    return list;
  }
%}

%typemap(ctype) (const dc_link_input *inputs, uint32_t count) "void **"
%typemap(imtype) (const dc_link_input *inputs, uint32_t count) "global::System.IntPtr[]"
%typemap(cstype) (const dc_link_input *inputs, uint32_t count) "DcLinkInput[]"
%typemap(csin, post="      global::System.GC.KeepAlive($csinput);") (const dc_link_input *inputs, uint32_t count) "DcLinkInput.PointerList($csinput)"
%typemap(in, canthrow=1) (const dc_link_input *inputs, uint32_t count) %{
  {
    void** items = $input;
    uint32_t n = 0, i;
    dc_link_input* packed = NULL;
    if (items) {
      while (items[n]) ++n;
    }
    if (n > 0) {
      packed = (dc_link_input*)malloc(n * sizeof(dc_link_input));
      if (!packed) {
        SWIG_CSharpSetPendingException(SWIG_CSharpOutOfMemoryException, "no memory for the inputs");
        return $null;
      }
      for (i = 0; i < n; ++i) packed[i] = *(const dc_link_input*)items[i];
    }
    $1 = packed;
    $2 = n;
  }
%}
%typemap(freearg) (const dc_link_input *inputs, uint32_t count) %{ free((void*)$1); %}
