/*
 * handles.i - dc_device, dc_buffer, ... as C# classes that own their handle.
 *
 * Each opaque handle `typedef struct dc_x_s* dc_x` becomes a class (DcDevice, DcBuffer,
 * ...) made only by the library: an out-parameter `dc_x*` is `out DcX`, null when the
 * call failed. The object owns its handle: Dispose() (or the finalizer, on the
 * finalizer thread: dccuda releases from any thread) calls dc_x_release once. The
 * release functions themselves are internal, so that a handle cannot be released behind
 * its object's back. A disposed object passes NULL, which the library answers with
 * DC_ERROR_INVALID_HANDLE: a DcException, never a crash. Parents are kept alive by the
 * library (a buffer keeps its device), so an object may be disposed before its children.
 */

%define DC_HANDLE(TYPEDEF, STRUCT, CLASS, RELEASE)
%nodefaultctor STRUCT;
%nodefaultdtor STRUCT;
%rename(CLASS) STRUCT;
%csmethodmodifiers RELEASE "internal";

%typemap(ctype) TYPEDEF * "struct STRUCT **"
%typemap(imtype) TYPEDEF * "out global::System.IntPtr"
%typemap(cstype) TYPEDEF * "out CLASS"
%typemap(csin, pre="    global::System.IntPtr handle_$csinput = global::System.IntPtr.Zero;",
               post="      $csinput = handle_$csinput == global::System.IntPtr.Zero ? null : new CLASS(handle_$csinput, true);",
               cshin="out $csinput") TYPEDEF * "out handle_$csinput"
%typemap(in) TYPEDEF * %{ $1 = ($1_ltype)$input; %}

%typemap(csdisposing, methodname="Dispose", methodmodifiers="protected", parameters="bool disposing") struct STRUCT {
    lock(this) {
      if (swigCPtr.Handle != global::System.IntPtr.Zero) {
        if (swigCMemOwn) {
          swigCMemOwn = false;
          $imclassname.RELEASE(swigCPtr);
        }
        swigCPtr = new global::System.Runtime.InteropServices.HandleRef(null, global::System.IntPtr.Zero);
      }
    }
  }

%typemap(cscode) struct STRUCT %{
  /// <summary>True once Dispose has released the handle.</summary>
  public bool IsDisposed { get { return swigCPtr.Handle == global::System.IntPtr.Zero; } }
%}

struct STRUCT {};
%enddef

DC_HANDLE(dc_device, dc_device_s, DcDevice, dc_device_release)
DC_HANDLE(dc_buffer, dc_buffer_s, DcBuffer, dc_buffer_release)
DC_HANDLE(dc_stream, dc_stream_s, DcStream, dc_stream_release)
DC_HANDLE(dc_event, dc_event_s, DcEvent, dc_event_release)
DC_HANDLE(dc_program, dc_program_s, DcProgram, dc_program_release)
DC_HANDLE(dc_module, dc_module_s, DcModule, dc_module_release)
DC_HANDLE(dc_function, dc_function_s, DcFunction, dc_function_release)
DC_HANDLE(dc_launch, dc_launch_s, DcLaunch, dc_launch_release)
DC_HANDLE(dc_graph, dc_graph_s, DcGraph, dc_graph_release)
DC_HANDLE(dc_queue, dc_queue_s, DcQueue, dc_queue_release)
DC_HANDLE(dc_control, dc_control_s, DcControl, dc_control_release)
DC_HANDLE(dc_pool, dc_pool_s, DcPool, dc_pool_release)
DC_HANDLE(dc_library, dc_library_s, DcLibrary, dc_library_release)
DC_HANDLE(dc_blas, dc_blas_s, DcBlas, dc_blas_release)
DC_HANDLE(dc_fft_plan, dc_fft_plan_s, DcFftPlan, dc_fft_plan_release)
DC_HANDLE(dc_comm, dc_comm_s, DcComm, dc_comm_release)
