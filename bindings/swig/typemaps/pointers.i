/*
 * pointers.i - out-parameters and raw pointers.
 *
 * Every pointer to an integer or float in dccuda.h's functions is an out-parameter
 * (results come through out-pointers, last): it becomes a C# `out` value, passed by
 * address without copying. void* (host memory, raw CUDA objects, user data) is IntPtr;
 * a void** out-parameter is `out IntPtr`. Handles, strings and structs have their own
 * files.
 */

%apply int *OUTPUT { int32_t * };
%apply unsigned int *OUTPUT { uint32_t * };
%apply unsigned long long *OUTPUT { uint64_t * };
%apply float *OUTPUT { float * };
%apply double *OUTPUT { double * };

%apply void *VOID_INT_PTR { void *, const void * };

%typemap(ctype) void **, const void ** "void **"
%typemap(imtype) void **, const void ** "out global::System.IntPtr"
%typemap(cstype) void **, const void ** "out global::System.IntPtr"
%typemap(csin) void **, const void ** "out $csinput"
%typemap(in) void **, const void ** %{ $1 = ($1_ltype)$input; %}

/* The one input array of integers: a graph node's dependencies (node ids), a C#
   ulong[] pinned for the call (null with num_dependencies 0). */
%typemap(ctype) const uint64_t *dependencies "const uint64_t *"
%typemap(imtype, inattributes="[global::System.Runtime.InteropServices.In]") const uint64_t *dependencies "ulong[]"
%typemap(cstype) const uint64_t *dependencies "ulong[]"
%typemap(csin) const uint64_t *dependencies "$csinput"
%typemap(in) const uint64_t *dependencies %{ $1 = ($1_ltype)$input; %}
/* SWIG would cast the array to its own uint64_t (unsigned long long), which C refuses
   where uint64_t is unsigned long: these calls pass it as the header's type. */
%feature("action") dc_graph_add_kernel_node %{ result = dc_graph_add_kernel_node(arg1, arg2, arg3, arg4, arg5, (const uint64_t *)arg6, arg7, arg8); %}
%feature("action") dc_graph_add_copy_node %{ result = dc_graph_add_copy_node(arg1, arg2, arg3, arg4, arg5, arg6, (const uint64_t *)arg7, arg8, arg9); %}
%feature("action") dc_graph_add_fill_node %{ result = dc_graph_add_fill_node(arg1, arg2, arg3, arg4, arg5, arg6, (const uint64_t *)arg7, arg8, arg9); %}
%feature("action") dc_graph_add_host_node %{ result = dc_graph_add_host_node(arg1, arg2, arg3, (const uint64_t *)arg4, arg5, arg6); %}
%feature("action") dc_graph_add_event_record_node %{ result = dc_graph_add_event_record_node(arg1, arg2, (const uint64_t *)arg3, arg4, arg5); %}
%feature("action") dc_graph_add_event_wait_node %{ result = dc_graph_add_event_wait_node(arg1, arg2, (const uint64_t *)arg3, arg4, arg5); %}
%feature("action") dc_graph_add_child_graph_node %{ result = dc_graph_add_child_graph_node(arg1, arg2, (const uint64_t *)arg3, arg4, arg5); %}
%feature("action") dc_graph_add_alloc_node %{ result = dc_graph_add_alloc_node(arg1, arg2, (const uint64_t *)arg3, arg4, arg5, arg6); %}
%feature("action") dc_graph_add_free_node %{ result = dc_graph_add_free_node(arg1, arg2, (const uint64_t *)arg3, arg4, arg5); %}
%feature("action") dc_graph_add_copy_2d_node %{ result = dc_graph_add_copy_2d_node(arg1, arg2, arg3, arg4, arg5, arg6, arg7, arg8, arg9, (const uint64_t *)arg10, arg11, arg12); %}
%feature("action") dc_graph_add_copy_3d_node %{ result = dc_graph_add_copy_3d_node(arg1, arg2, arg3, arg4, arg5, arg6, arg7, arg8, arg9, arg10, arg11, arg12, (const uint64_t *)arg13, arg14, arg15); %}
%feature("action") dc_graph_add_conditional_node %{ result = dc_graph_add_conditional_node(arg1, arg2, arg3, arg4, (const uint64_t *)arg5, arg6, arg7, arg8); %}

/* The one output array of integers: dc_nvrtc_supported_archs's architectures, a C# int[]
   pinned for the call and written by it (null with capacity 0: the count query). */
%typemap(ctype) int32_t *archs "int32_t *"
%typemap(imtype, inattributes="[global::System.Runtime.InteropServices.Out]") int32_t *archs "int[]"
%typemap(cstype) int32_t *archs "int[]"
%typemap(csin) int32_t *archs "$csinput"
%typemap(in) int32_t *archs %{ $1 = ($1_ltype)$input; %}

/* NCCL's unique id (DC_NCCL_UNIQUE_ID_BYTES bytes): a C# byte[] pinned for the call,
   written by dc_nccl_unique_id and read by dc_comm_init_rank. */
%typemap(ctype) uint8_t *bytes "uint8_t *"
%typemap(imtype, inattributes="[global::System.Runtime.InteropServices.Out]") uint8_t *bytes "byte[]"
%typemap(cstype) uint8_t *bytes "byte[]"
%typemap(csin) uint8_t *bytes "$csinput"
%typemap(in) uint8_t *bytes %{ $1 = ($1_ltype)$input; %}
%typemap(ctype) const uint8_t *id "const uint8_t *"
%typemap(imtype, inattributes="[global::System.Runtime.InteropServices.In]") const uint8_t *id "byte[]"
%typemap(cstype) const uint8_t *id "byte[]"
%typemap(csin) const uint8_t *id "$csinput"
%typemap(in) const uint8_t *id %{ $1 = ($1_ltype)$input; %}
