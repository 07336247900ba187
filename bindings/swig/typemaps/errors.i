/*
 * errors.i - a failed call becomes a DcException.
 *
 * Every dc_ function that returns a dc_status is wrapped so that a negative status
 * raises DcException (Status, Message, CudaError, NvrtcError, Detail) in the calling C#
 * thread; DC_SUCCESS and DC_NOT_READY are returned as int. The error is read in the C
 * wrapper right after the call, before anything else can run on the thread (the
 * library's last error lives until the next dc_ call on the same thread), and handed
 * to C# through a callback that C# registers when the binding is first used. The callback
 * stores the exception in SWIG's thread-local pending exception, which the generated C#
 * throws as soon as the native call returns (the SWIGEXCODE check).
 *
 * dc_last_error_status() returns a status too, but reading the last error is not a
 * failure: it is the one status function that never throws.
 */

%{
/* The C# side's DcErrorHelper.SetPending (registered below): builds the exception. */
typedef void (SWIGSTDCALL* dcswig_error_callback)(int32_t status, int32_t cuda, int32_t nvrtc,
                                                  const char* message, const char* detail);
static dcswig_error_callback dcswig_error = NULL;

#ifdef __cplusplus
extern "C"
#endif
SWIGEXPORT void SWIGSTDCALL SWIGRegisterDcErrorCallback_Dc(dcswig_error_callback callback) {
  dcswig_error = callback;
}

/* The last-error getters only read thread-local state: calling them one after the other
   keeps every pointer valid until the callback has copied the strings. */
static void dcswig_raise(dc_status status) {
  if (dcswig_error) {
    dcswig_error(status, dc_last_error_cuda(), dc_last_error_nvrtc(), dc_last_error_message(),
                 dc_last_error_detail());
  } else {
    SWIG_CSharpSetPendingException(SWIG_CSharpApplicationException, dc_last_error_message());
  }
}
%}

%typemap(out, canthrow=1) dc_status %{
  $result = $1;
  if ($1 < 0) dcswig_raise($1);
%}
%typemap(out) dc_status dc_last_error_status %{ $result = $1; %}

%pragma(csharp) imclasscode=%{
  // Registered once, when this class is first used. The delegate is kept in a static
  // field so that the garbage collector never frees it while C holds the pointer.
  protected class DcErrorHelper {
    public delegate void DcErrorDelegate(int status, int cuda, int nvrtc,
                                         global::System.IntPtr message, global::System.IntPtr detail);
    static DcErrorDelegate errorDelegate = new DcErrorDelegate(SetPending);

    [global::System.Runtime.InteropServices.DllImport("$dllimport", EntryPoint="SWIGRegisterDcErrorCallback_Dc")]
    public static extern void SWIGRegisterDcErrorCallback_Dc(DcErrorDelegate callback);

    static void SetPending(int status, int cuda, int nvrtc, global::System.IntPtr message, global::System.IntPtr detail) {
      SWIGPendingException.Set(new DcException(status, cuda, nvrtc, DcUtf8.Decode(message), DcUtf8.Decode(detail)));
    }

    static DcErrorHelper() {
      SWIGRegisterDcErrorCallback_Dc(errorDelegate);
    }
  }
  static protected DcErrorHelper dcErrorHelper = new DcErrorHelper();
%}
