/*
 * strings.i - strings cross as UTF-8 bytes on every platform.
 *
 * SWIG's default char* typemaps marshal with the platform's ANSI encoding (not UTF-8 on
 * Windows/.NET Framework) and return strings through the marshaller. Here:
 * - a `const char*` argument is a C# string encoded to NUL-terminated UTF-8 (a string
 *   holding a NUL is refused: it would silently cut the C string short); null stays NULL;
 * - a returned `const char*` (dc_status_name, dc_last_error_message...) comes back as an
 *   IntPtr and is decoded into a new string: the library keeps ownership, nothing is
 *   freed by the runtime;
 * - a `const char**` out-parameter is an `out string`, decoded right after the call,
 *   while the library's pointer is still valid;
 * - a `const char*` struct field (dc_init_options.cache_dir...) holds a copy that the
 *   struct owns: it is freed when the field is set again and when the struct is disposed
 *   (every such struct is made by the constructors of structs.i, which start zeroed).
 */

%typemap(ctype, out="const char *") const char * "const char *"
%typemap(imtype, out="global::System.IntPtr") const char * "byte[]"
%typemap(cstype, out="string") const char * "string"
%typemap(csin) const char * "DcUtf8.Encode($csinput, \"$1_name\")"
%typemap(in) const char * %{ $1 = ($1_ltype)$input; %}
%typemap(out) const char * %{ $result = $1; %}
%typemap(csout, excode=SWIGEXCODE) const char * {
    string ret = DcUtf8.Decode($imcall);$excode
    return ret;
  }

%typemap(memberin) const char * %{
  free((void*)$1);
  $1 = NULL;
  if ($input) {
    char* copy = (char*)malloc(strlen($input) + 1);
    if (!copy) {
      SWIG_CSharpSetPendingException(SWIG_CSharpOutOfMemoryException, "no memory to copy the string");
      return;
    }
    strcpy(copy, $input);
    $1 = copy;
  }
%}
%typemap(csvarin, excode=SWIGEXCODE2) const char * %{
    set {
      $imcall;$excode
    } %}
%typemap(csvarout, excode=SWIGEXCODE2) const char * %{
    get {
      string ret = DcUtf8.Decode($imcall);$excode
      global::System.GC.KeepAlive(this);
      return ret;
    } %}

%typemap(ctype) const char ** "const char **"
%typemap(imtype) const char ** "out global::System.IntPtr"
%typemap(cstype) const char ** "out string"
%typemap(csin, pre="    global::System.IntPtr utf8_$csinput = global::System.IntPtr.Zero;",
               post="      $csinput = DcUtf8.Decode(utf8_$csinput);",
               cshin="out $csinput") const char ** "out utf8_$csinput"
%typemap(in) const char ** %{ $1 = ($1_ltype)$input; %}

/* A fixed char array in a struct (dc_device_info.name): read-only, UTF-8, never read past
   the array even if the NUL were missing. */
%typemap(ctype, out="const char *") char [ANY] "const char *"
%typemap(imtype, out="global::System.IntPtr") char [ANY] "byte[]"
%typemap(cstype, out="string") char [ANY] "string"
%typemap(out) char [ANY] %{ $result = $1; %}
%typemap(csout, excode=SWIGEXCODE) char [ANY] {
    string ret = DcUtf8.Decode($imcall, $1_dim0);$excode
    return ret;
  }
%typemap(csvarout, excode=SWIGEXCODE2) char [ANY] %{
    get {
      string ret = DcUtf8.Decode($imcall, $1_dim0);$excode
      global::System.GC.KeepAlive(this);
      return ret;
    } %}
