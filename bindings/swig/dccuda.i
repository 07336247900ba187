/*
 * dccuda.i - the SWIG interface that generates dccuda's C# binding at build time.
 *
 * The whole of include/dccuda.h is %included: every function, struct and constant is
 * generated from the header itself, so the binding grows with it. The files in
 * typemaps/ turn the C conventions into C# ones (one concern per file):
 *
 *   errors.i     a negative dc_status becomes a DcException (status, message, raw CUDA
 *                and NVRTC results, detail log), raised through SWIG's pending exceptions
 *   support.i    C# helper types the others use (UTF-8, arrays, the exception class)
 *   strings.i    strings in and out as UTF-8 on every platform; never a marshalled
 *                string return, which the runtime would free
 *   pointers.i   out-parameters as `out` values; void* as IntPtr
 *   handles.i    dc_device, dc_buffer, ... as IDisposable classes; out-handles as `out`
 *   structs.i    the header's structs as classes that start initialised (DC_*_INIT),
 *                fixed arrays as C# arrays, owned copies of the strings they point to
 *   args.i       kernel arguments: DcArg values and buffers, DcArg[] for argument lists
 *   callbacks.i  dc_host_fn and dc_block_shared_memory_fn from C# delegates, safely
 *   copies.i     copies and module images from managed arrays (byte[], float[], ...)
 *   mem_ops.i    stream memory operations: DcStreamMemOp, and DcStreamMemOp[] for a batch
 *   batches.i    DcLaunch[] for dc_launch_enqueue_batch, DcCopyOp[] for dc_buffer_copy_batch_async
 *
 * Generated C# lives in the build folder only (bindings/swig/CMakeLists.txt); no
 * SWIGTYPE_p_* class may appear in it (tests/SwigTests.cs checks that). See README.md.
 */
%module Dc

%{
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dccuda.h"
%}

%include <stdint.i>
%include <typemaps.i>

%include "typemaps/support.i"
%include "typemaps/errors.i"
%include "typemaps/strings.i"
%include "typemaps/pointers.i"
%include "typemaps/handles.i"
%include "typemaps/structs.i"
%include "typemaps/args.i"
%include "typemaps/callbacks.i"
%include "typemaps/copies.i"
%include "typemaps/mem_ops.i"
%include "typemaps/batches.i"
%include "typemaps/link.i"

/* Calls that take a callback with a string or struct argument (the log hook, the
   live-handle visitor, the launch-trace hook): SWIG would hand out raw function-pointer
   types; the hand-written C# binding (bindings/csharp) wraps them. abi/unbound.txt lists them. */
%ignore dc_set_log_callback;
%ignore dc_handle_visit;
%ignore dc_set_launch_trace;
/* dc_comm_init_all writes an array of handles, which the out-handle typemap (one
 * handle) cannot carry: SWIG users build communicators with dc_comm_init_rank (one
 * per device, grouped), or use the hand-written binding's Communicator.InitAll. */
%ignore dc_comm_init_all;

/* The header's #define constants as C# `const` values (usable in switch and attributes),
   not properties that call into the wrapper. */
%csconst(1);
%include "dccuda.h"
