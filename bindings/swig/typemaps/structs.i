/*
 * structs.i - the header's structs as C# classes over C memory.
 *
 * `new DcLaunchConfig()` (and every other struct's constructor) allocates the struct
 * with its DC_*_INIT value: struct_size is set (and read-only), defaults are the
 * header's. Fields are properties. Fixed arrays (grid[3], uuid[16]) are C# arrays: the
 * getter returns a copy, the setter takes an array of exactly the C length (so
 * `cfg.grid[0] = 4` changes a copy only: assign `cfg.grid = new uint[] {4, 1, 1}`).
 * String fields hold copies owned by the struct (strings.i); string lists
 * (dc_compile_options.defines...) are string[] properties that also set their num_*
 * count, which is read-only; header_names and header_sources are set together with
 * DcCompileOptions.SetHeaders, since they share num_headers.
 */

/* ---- Allocation with the header's initial value ------------------------------------ */

%define DC_STRUCT(TYPE, CLASS, INIT)
%rename(CLASS) TYPE;
%immutable TYPE::struct_size;
%exception TYPE::TYPE %{
  $action
  if (!result) {
    SWIG_CSharpSetPendingException(SWIG_CSharpOutOfMemoryException, "no memory for a " #TYPE);
    return 0;
  }
%}
%extend TYPE {
  TYPE() {
    TYPE init = INIT;
    TYPE* self = (TYPE*)malloc(sizeof(TYPE));
    if (self) *self = init;
    return self;
  }
}
%enddef

DC_STRUCT(dc_init_options, DcInitOptions, DC_INIT_OPTIONS_INIT)
DC_STRUCT(dc_device_info, DcDeviceInfo, DC_DEVICE_INFO_INIT)
DC_STRUCT(dc_compile_options, DcCompileOptions, DC_COMPILE_OPTIONS_INIT)
DC_STRUCT(dc_module_options, DcModuleOptions, DC_MODULE_OPTIONS_INIT)
DC_STRUCT(dc_function_info, DcFunctionInfo, DC_FUNCTION_INFO_INIT)
DC_STRUCT(dc_launch_config, DcLaunchConfig, DC_LAUNCH_CONFIG_INIT)
DC_STRUCT(dc_queue_stats, DcQueueStats, DC_QUEUE_STATS_INIT)
DC_STRUCT(dc_control_info, DcControlInfo, DC_CONTROL_INFO_INIT)
DC_STRUCT(dc_device_telemetry, DcDeviceTelemetry, DC_DEVICE_TELEMETRY_INIT)
DC_STRUCT(dc_handle_info, DcHandleInfo, DC_HANDLE_INFO_INIT)
DC_STRUCT(dc_launch_trace, DcLaunchTrace, DC_LAUNCH_TRACE_INIT)
DC_STRUCT(dc_blas_gemm_desc, DcBlasGemmDesc, DC_BLAS_GEMM_DESC_INIT)
DC_STRUCT(dc_fft_desc, DcFftDesc, DC_FFT_DESC_INIT)
DC_STRUCT(dc_fft_plan_info, DcFftPlanInfo, DC_FFT_PLAN_INFO_INIT)

%immutable dc_device_info::name;
%immutable dc_handle_info::created_by;
%immutable dc_launch_trace::kernel_name;

/* Setters that copy a string can run out of memory: their C# checks for the exception. */
%exception dc_init_options::driver_library %{ $action %}
%exception dc_init_options::nvrtc_library %{ $action %}
%exception dc_init_options::cache_dir %{ $action %}
%exception dc_compile_options::std %{ $action %}

/* Structs that own strings free them with themselves. */
%extend dc_init_options {
  ~dc_init_options() {
    free((void*)$self->driver_library);
    free((void*)$self->nvrtc_library);
    free((void*)$self->cache_dir);
    free($self);
  }
}
%extend dc_compile_options {
  ~dc_compile_options() {
    free((void*)$self->std);
    free((void*)$self->options);
    free((void*)$self->defines);
    free((void*)$self->include_paths);
    free((void*)$self->header_names);
    free((void*)$self->header_sources);
    free((void*)$self->name_expressions);
    free($self);
  }
}

/* ---- Fixed-size arrays -------------------------------------------------------------- */

%define DCSWIG_FIXED_ARRAY(CTYPE, CSTYPE, READ)
%typemap(ctype, out="void *") CTYPE [ANY] "CTYPE *"
%typemap(imtype, out="global::System.IntPtr") CTYPE [ANY] "CSTYPE[]"
%typemap(cstype) CTYPE [ANY] "CSTYPE[]"
%typemap(csin) CTYPE [ANY] "DcArrays.Exactly($csinput, $1_dim0, \"$1_name\")"
%typemap(in) CTYPE [ANY] %{ $1 = ($1_ltype)$input; %}
%typemap(memberin) CTYPE [ANY] %{ memcpy($1, $input, sizeof($1)); %}
%typemap(out) CTYPE [ANY] %{ $result = (void *)$1; %}
%typemap(csout, excode=SWIGEXCODE) CTYPE [ANY] {
    CSTYPE[] ret = DcArrays.READ($imcall, $1_dim0);$excode
    return ret;
  }
%typemap(csvarin, excode=SWIGEXCODE2) CTYPE [ANY] %{
    set {
      $imcall;$excode
    } %}
%typemap(csvarout, excode=SWIGEXCODE2) CTYPE [ANY] %{
    get {
      CSTYPE[] ret = DcArrays.READ($imcall, $1_dim0);$excode
      global::System.GC.KeepAlive(this);
      return ret;
    } %}
%enddef

DCSWIG_FIXED_ARRAY(int32_t, int, ReadInt32)
DCSWIG_FIXED_ARRAY(uint32_t, uint, ReadUInt32)
DCSWIG_FIXED_ARRAY(uint8_t, byte, ReadByte)
DCSWIG_FIXED_ARRAY(uint64_t, ulong, ReadUInt64)

/* ---- String lists of dc_compile_options ---------------------------------------------- */

%{
typedef const unsigned char* dcswig_packed;

/* Replace a string-list field with a copy of `packed` (DcUtf8.EncodeList: uint32 count,
   uint32 byte count, then the strings, each NUL-terminated): one allocation holds the
   pointer array and the strings, owned by the struct and freed with it. Returns 0 when
   out of memory or when the block is malformed; the field is then unchanged. */
static int dcswig_set_list(const char* const** field, uint32_t* count, dcswig_packed packed) {
  uint32_t n = 0, bytes = 0, i;
  const char** block = NULL;
  if (packed) {
    memcpy(&n, packed, sizeof n);
    memcpy(&bytes, packed + 4, sizeof bytes);
  }
  if (n > 0) {
    char* text;
    size_t at = 0;
    block = (const char**)malloc(n * sizeof(char*) + bytes);
    if (!block) return 0;
    text = (char*)(block + n);
    memcpy(text, packed + 8, bytes);
    for (i = 0; i < n; ++i) {
      const char* end = at < bytes ? (const char*)memchr(text + at, 0, bytes - at) : NULL;
      if (!end) {
        free(block);
        return 0;
      }
      block[i] = text + at;
      at = (size_t)(end - text) + 1;
    }
  }
  free((void*)*field);
  *field = block;
  *count = n;
  return 1;
}
%}

typedef const unsigned char* dcswig_packed;
%typemap(ctype) dcswig_packed "const unsigned char *"
%typemap(imtype) dcswig_packed "byte[]"
%typemap(cstype) dcswig_packed "string[]"
%typemap(csin) dcswig_packed "DcUtf8.EncodeList($csinput, \"$1_name\")"
%typemap(in) dcswig_packed %{ $1 = $input; %}

%define DC_STRING_LIST(FIELD, COUNT)
%immutable dc_compile_options::COUNT;
%exception dc_compile_options::FIELD %{ $action %}
%typemap(ctype, out="void *") const char *const *FIELD "const unsigned char *"
%typemap(imtype, out="global::System.IntPtr") const char *const *FIELD "byte[]"
%typemap(cstype) const char *const *FIELD "string[]"
%typemap(csin) const char *const *FIELD "DcUtf8.EncodeList($csinput, \"$1_name\")"
/* The setter's argument is the packed block, carried in the field's type to memberin. */
%typemap(in) const char *const *FIELD %{ $1 = ($1_ltype)$input; %}
%typemap(memberin) const char *const *FIELD %{
  if (!dcswig_set_list(&$1, &arg1->COUNT, (dcswig_packed)$input)) {
    SWIG_CSharpSetPendingException(SWIG_CSharpOutOfMemoryException, "no memory to copy " #FIELD);
    return;
  }
%}
%typemap(out) const char *const *FIELD %{ $result = (void *)$1; %}
%typemap(csout, excode=SWIGEXCODE) const char *const *FIELD {
    string[] ret = DcUtf8.DecodeList($imcall, (int)COUNT);$excode
    return ret;
  }
%typemap(csvarin, excode=SWIGEXCODE2) const char *const *FIELD %{
    set {
      $imcall;$excode
    } %}
%typemap(csvarout, excode=SWIGEXCODE2) const char *const *FIELD %{
    get {
      string[] ret = DcUtf8.DecodeList($imcall, (int)COUNT);$excode
      global::System.GC.KeepAlive(this);
      return ret;
    } %}
%enddef

DC_STRING_LIST(options, num_options)
DC_STRING_LIST(defines, num_defines)
DC_STRING_LIST(include_paths, num_include_paths)
DC_STRING_LIST(name_expressions, num_name_expressions)
DC_STRING_LIST(header_names, num_headers)
DC_STRING_LIST(header_sources, num_headers)
%immutable dc_compile_options::header_names;
%immutable dc_compile_options::header_sources;

%exception dc_compile_options::SetHeaders %{
  $action
%}
%extend dc_compile_options {
  /* In-memory headers: names[i] is the name used in #include, sources[i] its text. */
  void SetHeaders(dcswig_packed names, dcswig_packed sources) {
    uint32_t n_names = 0, n_sources = 0;
    if (names) memcpy(&n_names, names, sizeof n_names);
    if (sources) memcpy(&n_sources, sources, sizeof n_sources);
    if (n_names != n_sources) {
      SWIG_CSharpSetPendingExceptionArgument(SWIG_CSharpArgumentException,
          "SetHeaders: names and sources need the same number of entries", "sources");
      return;
    }
    /* No headers while the two lists are replaced: a failure half way leaves none, never
       a count larger than one of the lists. */
    $self->num_headers = 0;
    if (!dcswig_set_list(&$self->header_names, &n_names, names) ||
        !dcswig_set_list(&$self->header_sources, &n_sources, sources)) {
      SWIG_CSharpSetPendingException(SWIG_CSharpOutOfMemoryException, "no memory to copy the headers");
      return;
    }
    $self->num_headers = n_names;
  }
}
