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

%apply void *VOID_INT_PTR { void *, const void * };

%typemap(ctype) void **, const void ** "void **"
%typemap(imtype) void **, const void ** "out global::System.IntPtr"
%typemap(cstype) void **, const void ** "out global::System.IntPtr"
%typemap(csin) void **, const void ** "out $csinput"
%typemap(in) void **, const void ** %{ $1 = ($1_ltype)$input; %}
