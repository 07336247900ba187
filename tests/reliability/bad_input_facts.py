"""The test's own facts for the bad-input matrix (gen_bad_inputs.py).

The generator reads every function from the header's model (abi/api.py and its
annotations) and derives most cases from it: NULL, released, wrong-type and garbage
handles; NULL pointers (allowed where DC_NULLABLE); a wrong struct_size; unknown flag
bits and values outside an enumeration family; no cases for a function that cannot
fail. What only the test knows is written here, by function (a function needs an
entry only where the model leaves something open, such as an integer of no family):

  exempt     why the function has no cases although it can fail
  baseline   the status of the valid call (a C++ expression; default DC_SUCCESS);
             None skips the valid call (`why` says why)
  valid      {param: C++ expression} for arguments the generator cannot make up
             (handles default to fx.<type>, in-structs to &fx.<struct>, outs to storage)
  null_ok    {param: status}: the status of a call with NULL where the header allows it
             (DC_NULLABLE) and it is not the baseline's
  null       {param: status}: NULL is refused with this status (default
             DC_ERROR_INVALID_ARGUMENT for pointers, DC_ERROR_INVALID_HANDLE for handles)
  ints       {param: spec} for every integer parameter of no flags or enumeration family
             (and to replace the values the model gives those):
               ("any", why)                     every value is valid
               ("size", zero, max)              0 and the type's maximum, with their statuses
               ("offset", [values], status)     values past the end
               ("flags", status)                an unknown bit (0x80000000) and all bits
               ("bad", [values], status)        invalid values of an enumeration, index, count
  extra      [(label, {param: expr}, status, text)]: further cases; `text` must appear in
             the message ("" for the call name only)
  msg        {param: text}: the message names this instead of the parameter
  after      C++ run after a successful call (undoes what it did)
  skip_if    (C++ condition, why): skip the function's cases where the condition holds

A status may be a list: any of them is accepted (where drivers legitimately differ).
Every status a case expects must be named by the function's "Errors:" paragraph.
"""

OK = "DC_SUCCESS"
ARG = "DC_ERROR_INVALID_ARGUMENT"
HANDLE = "DC_ERROR_INVALID_HANDLE"
RANGE = "DC_ERROR_OUT_OF_RANGE"
OOM = "DC_ERROR_OUT_OF_MEMORY"
STATE = "DC_ERROR_INVALID_STATE"
NOT_FOUND = "DC_ERROR_NOT_FOUND"
NOT_SUPPORTED = "DC_ERROR_NOT_SUPPORTED"
IMAGE = "DC_ERROR_INVALID_IMAGE"
NO_DEVICE = "DC_ERROR_NO_DEVICE"

U64_MAX = "UINT64_MAX"
U32_MAX = "UINT32_MAX"
I32_MIN = "INT32_MIN"
I32_MAX = "INT32_MAX"


# A count of the caller's array (dependencies): dccuda reads that many ids from it, so no
# other value can be tried without reading past the fixture's array.
# (No values: "any" would try UINT32_MAX as a valid count.)
ANY_COUNT = ("bad", [], ARG)

# NCCL: skipped where the library cannot be loaded; offsets and counts past
# the fixture's buffers (kBytes) are DC_ERROR_OUT_OF_RANGE.
NCCL_SKIP = ("fx.nccl_status != DC_SUCCESS", "no NCCL here (test_nccl_missing covers its absence)")
COMM_OFFSET = ("offset", ["badinput::kBytes", U64_MAX], RANGE)
COMM_COUNT = ("bad", ["badinput::kBytes", U64_MAX], RANGE)
COMM_INTS = {"send_offset": COMM_OFFSET, "recv_offset": COMM_OFFSET, "count": COMM_COUNT}
COMM_EXTRA = [("host memory", {"send": "fx.pinned"}, ARG, "send is host memory")]

# Copies: "a size of 0 is a valid copy"; past the end is DC_ERROR_OUT_OF_RANGE.
COPY_SIZE = ("size", OK, RANGE)
COPY_OFFSET = ("offset", ["badinput::kBytes", U64_MAX, "U64_MAX_ALIGNED"], RANGE)

# 2D and 3D regions (dccuda.h, "2D and 3D (pitched) memory"): an empty extent is a
# valid copy; a pitch below the width is DC_ERROR_INVALID_ARGUMENT; a row past the end
# is DC_ERROR_OUT_OF_RANGE.
PITCH = ("offset", ["badinput::kBytes", U64_MAX], RANGE)
REGION_2D = dict(
    valid={"dst": "fx.buffer", "src": "fx.buffer2", "dst_pitch": "32", "src_pitch": "32", "width": "16",
           "height": "4"},
    ints={"dst_offset": COPY_OFFSET, "src_offset": COPY_OFFSET, "dst_pitch": PITCH, "src_pitch": PITCH,
          "width": ("size", OK, [ARG, RANGE]), "height": ("size", OK, RANGE)},
)
COPY_2D = dict(
    extra=[("the regions share bytes", {"src": "fx.buffer", "src_offset": "8"}, ARG, "share bytes"),
           ("a pitch below the width", {"dst_pitch": "8"}, ARG, "dst_pitch 8 is less than width 16")],
)
REGION_3D = dict(
    valid={**REGION_2D["valid"], "dst_rows_per_plane": "4", "src_rows_per_plane": "4", "depth": "2"},
    ints={**REGION_2D["ints"], "dst_rows_per_plane": ("bad", ["0", "3"], ARG),
          "src_rows_per_plane": ("bad", ["0", "3"], ARG), "depth": ("size", OK, RANGE),
          "height": ("size", OK, [ARG, RANGE])},  # a height above rows_per_plane
)
COPY_3D = dict(
    extra=[*COPY_2D["extra"],
           ("rows_per_plane past the end", {"src_rows_per_plane": U64_MAX}, RANGE, "src: row 0 of plane 1")],
)
WRITE_2D = dict(
    valid={"dst": "fx.buffer", "src": "fx.host", "src_size": "badinput::kBytes", "dst_pitch": "32",
           "src_pitch": "32", "width": "16", "height": "4"},
    ints={"dst_offset": COPY_OFFSET, "dst_pitch": PITCH, "src_pitch": PITCH, "src_size": ("size", RANGE, OK),
          "width": ("size", OK, [ARG, RANGE]), "height": ("size", OK, RANGE)},
    extra=[("NULL src with an empty region", {"src": "nullptr", "height": "0"}, OK, "")],
)
READ_2D = dict(
    valid={"src": "fx.buffer", "dst": "fx.host", "dst_size": "badinput::kBytes", "dst_pitch": "32",
           "src_pitch": "32", "width": "16", "height": "4"},
    ints={"src_offset": COPY_OFFSET, "dst_pitch": PITCH, "src_pitch": PITCH, "dst_size": ("size", RANGE, OK),
          "width": ("size", OK, [ARG, RANGE]), "height": ("size", OK, RANGE)},
)
FILL_2D = dict(
    valid={"pitch": "32", "width": "16", "height": "4", "value": "7", "element_size": "4"},
    ints={"offset": ("offset", ["badinput::kBytes + 4", "U64_MAX_ALIGNED"], RANGE),
          "pitch": ("offset", ["badinput::kBytes"], RANGE),
          "width": ("size", OK, [ARG, RANGE]), "height": ("size", OK, RANGE),
          "value": ("any", "every value fits 4-byte elements"),
          "element_size": ("bad", ["0", "3", "8", U32_MAX], ARG)},
    extra=[("a value too wide for 1-byte elements", {"element_size": "1", "value": "256"}, ARG, "value"),
           ("misaligned offset", {"offset": "2"}, ARG, "offset")],
)

# Without cuBLAS (a machine without the toolkit's or the wheel's, the Windows run) the
# fixture has no fx.blas: test_blas_missing covers that case.
BLAS_SKIP = ("!fx.blas", "no cuBLAS here (test_blas_missing covers its absence)")

# cuBLAS's level-1 calls: n F32 elements of fx.buffer (x) and fx.buffer2 (y), host mode.
BLAS_OFFSET = ("offset", ["badinput::kBytes", U64_MAX], RANGE)
BLAS_VECTORS_1 = dict(
    valid={"type": "DC_BLAS_F32", "n": "16", "alpha": "1.0", "x": "fx.buffer", "x_offset": "0", "incx": "1",
           "scalars": "nullptr", "scalars_offset": "0"},
    skip_if=BLAS_SKIP,
    ints={"n": ("bad", ["-1", "INT64_MIN"], ARG), "incx": ("bad", ["0", "-1"], ARG),
          "alpha": ("any", "every alpha is valid"), "x_offset": BLAS_OFFSET,
          "scalars_offset": ("any", "unused in host pointer mode")},
    msg={"x_offset": "x"},
    extra=[("x past its buffer", {"n": "1025"}, RANGE, "x needs 4100 bytes")],
)


def without_alpha(spec, **more):
    """dot and nrm2 take no alpha."""
    out = {k: (dict(v) if isinstance(v, dict) else v) for k, v in spec.items()}
    out["valid"].pop("alpha", None)
    out["ints"].pop("alpha", None)
    out.update(more)
    return out


BLAS_VECTORS_2 = dict(
    valid={**BLAS_VECTORS_1["valid"], "y": "fx.buffer2", "y_offset": "0", "incy": "1"},
    ints={**BLAS_VECTORS_1["ints"], "incy": ("bad", ["0", "-1"], ARG), "y_offset": BLAS_OFFSET},
    msg={"x_offset": "x", "y_offset": "y"},
    extra=[("y past its buffer", {"incy": "300"}, RANGE, "y needs")],
    skip_if=BLAS_SKIP,
)

FACTS = {
    # The version, status and last-error getters cannot fail: the model exempts them.

    # -- initialisation ---------------------------------------------------------------
    "dc_init": dict(
        baseline=STATE,  # the fixture has initialised the library
        null_ok={"options": STATE},
        extra=[("unknown flags", {"options": "&fx.init_options_bad_flags"}, ARG, "options->flags")],
    ),
    "dc_driver_version": dict(),
    "dc_driver_library": dict(),
    "dc_nvrtc_version": dict(),
    "dc_config_warnings": dict(),
    "dc_handle_count": dict(
        valid={"handle_type": "DC_HANDLE_BUFFER"},
    ),

    # -- devices ------------------------------------------------------------------------
    "dc_device_count": dict(),
    "dc_device_set_limit": dict(
        valid={"limit": "DC_LIMIT_PRINTF_FIFO_SIZE", "value": "1 << 20"},
        # Beyond any device's memory: refused by the driver, or unobtainable.
        ints={"value": ("bad", [U64_MAX], [ARG, OOM])},
        msg={"value": "DC_LIMIT_PRINTF_FIFO_SIZE"},
    ),
    "dc_device_limit": dict(),
    "dc_device_set_cache_config": dict(),
    "dc_device_cache_config": dict(),
    "dc_device_open": dict(ints={"ordinal": ("bad", ["-1", "1 << 20", I32_MIN], NO_DEVICE)}),
    "dc_device_release": dict(),
    "dc_device_get_info": dict(),
    "dc_device_attribute": dict(
        valid={"attribute": "1"},
        ints={"attribute": ("bad", ["0", "-1", "100000", I32_MAX], ARG)},
    ),
    "dc_device_memory_info": dict(),
    "dc_device_synchronize": dict(),
    "dc_device_reset": dict(baseline=None, why="a reset kills every object of the fixture; the fault tests reset"),
    "dc_device_trim_memory": dict(ints={"keep_bytes": ("size", OK, OK)}),
    "dc_device_native": dict(),
    "dc_device_can_access_peer": dict(valid={"peer": "fx.peer"}),
    "dc_device_enable_peer_access": dict(
        valid={"peer": "fx.peer"},
        after="dc_device_disable_peer_access(fx.device, fx.peer);",
    ),
    "dc_device_disable_peer_access": dict(valid={"peer": "fx.peer"}),
    "dc_device_peer_attribute": dict(
        skip_if=("!fx.two_devices", "peer attributes need two devices"),
        valid={"peer": "fx.peer", "attribute": "DC_PEER_ATTRIBUTE_ACCESS_SUPPORTED"},
        extra=[("the same device twice", {"peer": "fx.device"}, ARG, "device")],
    ),

    # -- buffers ------------------------------------------------------------------------
    "dc_buffer_alloc": dict(
        valid={"size": "badinput::kBytes"},
        ints={"size": ("size", ARG, OOM)},
        msg={"size": ""},  # an allocation too large for the device names the driver call
    ),
    "dc_buffer_alloc_async": dict(
        valid={"size": "badinput::kBytes"},
        ints={"size": ("size", ARG, OOM)},
        msg={"size": ""},
    ),
    "dc_buffer_alloc_pinned": dict(
        valid={"size": "badinput::kBytes"},
        ints={"size": ("size", ARG, OOM)},
        msg={"size": ""},
    ),
    "dc_buffer_alloc_managed": dict(
        valid={"size": "badinput::kBytes"},
        ints={"size": ("size", ARG, OOM)},
        msg={"size": ""},
    ),
    "dc_buffer_wrap_device": dict(
        valid={"device_pointer": "fx.buffer_address", "size": "badinput::kBytes"},
        ints={"device_pointer": ("bad", ["0"], ARG), "size": ("size", ARG, RANGE)},
        extra=[
            ("pointer + size wraps around", {"device_pointer": U64_MAX}, RANGE, "device_pointer"),
            ("size past the allocation", {"size": "2 * badinput::kBytes"}, RANGE, "size"),
        ],
    ),
    "dc_buffer_register_host": dict(
        valid={"host": "fx.host_register", "size": "badinput::kBytes"},
        ints={"size": ("size", ARG, ARG)},
    ),
    "dc_buffer_release": dict(),
    "dc_buffer_size": dict(),
    "dc_buffer_kind": dict(),
    "dc_buffer_device": dict(),
    "dc_buffer_device_pointer": dict(),
    "dc_buffer_host_pointer": dict(
        valid={"buffer": "fx.pinned"},
        extra=[("device memory", {"buffer": "fx.buffer"}, NOT_SUPPORTED, "device memory has no CPU address")],
    ),
    "dc_buffer_prefetch": dict(
        valid={"buffer": "fx.managed", "size": "badinput::kBytes", "location": "0"},
        ints={"offset": ("offset", ["badinput::kBytes + 1", U64_MAX], RANGE),
              "size": ("size", OK, RANGE),
              "location": ("bad", ["-2", "1000", I32_MIN], ARG)},
        extra=[("not managed memory", {"buffer": "fx.buffer"}, ARG, "buffer is not managed memory")],
    ),
    "dc_buffer_advise": dict(
        valid={"buffer": "fx.managed", "size": "badinput::kBytes", "advice": "DC_ADVISE_SET_READ_MOSTLY",
               "location": "0"},
        ints={"offset": ("offset", ["badinput::kBytes + 1", U64_MAX], RANGE),
              "size": ("size", OK, RANGE),
              "location": ("bad", ["-2", "1000"], ARG)},
        extra=[("not managed memory", {"buffer": "fx.buffer"}, ARG, "buffer is not managed memory")],
    ),

    # -- copies and fills -------------------------------------------------------------------
    "dc_buffer_write": dict(
        valid={"dst": "fx.buffer", "src": "fx.host", "size": "badinput::kBytes"},
        ints={"dst_offset": COPY_OFFSET, "size": COPY_SIZE},
        null={"src": ARG},
        extra=[("NULL src with size 0", {"src": "nullptr", "size": "0"}, OK, "")],
    ),
    "dc_buffer_read": dict(
        valid={"src": "fx.buffer", "dst": "fx.host", "size": "badinput::kBytes"},
        ints={"src_offset": COPY_OFFSET, "size": COPY_SIZE},
    ),
    "dc_buffer_copy": dict(
        valid={"dst": "fx.buffer", "src": "fx.buffer2", "size": "badinput::kBytes"},
        ints={"dst_offset": COPY_OFFSET, "src_offset": COPY_OFFSET, "size": COPY_SIZE},
        extra=[("overlapping ranges in one buffer", {"src": "fx.buffer", "src_offset": "8", "size": "64"}, ARG,
                "overlap")],
    ),
    "dc_buffer_write_async": dict(
        valid={"dst": "fx.buffer", "src": "fx.host", "size": "badinput::kBytes"},
        ints={"dst_offset": COPY_OFFSET, "size": COPY_SIZE},
        after="dc_stream_synchronize(fx.stream);",
    ),
    "dc_buffer_read_async": dict(
        valid={"src": "fx.buffer", "dst": "fx.host", "size": "badinput::kBytes"},
        ints={"src_offset": COPY_OFFSET, "size": COPY_SIZE},
        after="dc_stream_synchronize(fx.stream);",
    ),
    "dc_buffer_copy_async": dict(
        valid={"dst": "fx.buffer", "src": "fx.buffer2", "size": "badinput::kBytes"},
        ints={"dst_offset": COPY_OFFSET, "src_offset": COPY_OFFSET, "size": COPY_SIZE},
        after="dc_stream_synchronize(fx.stream);",
    ),
    "dc_buffer_copy_batch_async": dict(
        valid={"ops": "fx.copy_ops", "count": "2"},
        ints={"count": ANY_COUNT},
        extra=[("a released buffer at index 1", {"ops": "fx.copy_ops_dead_buffer"}, HANDLE, "ops[1].src"),
               ("copies that depend on each other", {"ops": "fx.copy_ops_dependent"}, ARG,
                "ops[0] and ops[1] overlap")],
        after="dc_stream_synchronize(fx.stream);",
    ),
    "dc_buffer_fill": dict(
        valid={"size": "badinput::kBytes", "value": "7", "element_size": "4"},
        ints={"offset": ("offset", ["badinput::kBytes + 4", "U64_MAX_ALIGNED"], RANGE),
              "size": ("size", OK, [RANGE, ARG]),
              "value": ("any", "every value fits 4-byte elements"),
              "element_size": ("bad", ["0", "3", "8", U32_MAX], ARG)},
        extra=[("a value too wide for 1-byte elements", {"element_size": "1", "value": "256"}, ARG, "value"),
               ("misaligned offset", {"offset": "2"}, ARG, "offset")],
    ),
    "dc_buffer_fill_async": dict(
        valid={"size": "badinput::kBytes", "value": "7", "element_size": "4"},
        ints={"offset": ("offset", ["badinput::kBytes + 4", "U64_MAX_ALIGNED"], RANGE),
              "size": ("size", OK, [RANGE, ARG]),
              "value": ("any", "every value fits 4-byte elements"),
              "element_size": ("bad", ["0", "3", "8", U32_MAX], ARG)},
        after="dc_stream_synchronize(fx.stream);",
    ),
    "dc_buffer_copy_path": dict(valid={"dst": "fx.buffer", "src": "fx.buffer2"}),
    "dc_buffer_view": dict(
        valid={"parent": "fx.buffer", "offset": "64", "size": "128"},
        ints={"offset": COPY_OFFSET, "size": ("size", ARG, RANGE)},
    ),

    # 2D and 3D: 4 rows of 16 bytes, 32 apart (2 planes of 4 rows apart in 3D).
    "dc_buffer_alloc_pitched": dict(
        valid={"width": "64", "height": "4", "element_size": "4"},
        ints={"width": ("size", ARG, OOM), "height": ("size", ARG, OOM),
              "element_size": ("bad", ["0", "2", "32", U32_MAX], ARG), "flags": ("flags", ARG)},
        msg={"width": "", "height": ""},  # too large: "rows of ... bytes exceed device 0's total memory"
    ),
    "dc_buffer_copy_2d": dict(**REGION_2D, **COPY_2D),
    "dc_buffer_copy_2d_async": dict(**REGION_2D, **COPY_2D, after="dc_stream_synchronize(fx.stream);"),
    "dc_buffer_copy_3d": dict(**REGION_3D, **COPY_3D),
    "dc_buffer_copy_3d_async": dict(**REGION_3D, **COPY_3D, after="dc_stream_synchronize(fx.stream);"),
    "dc_buffer_write_2d": dict(**WRITE_2D),
    "dc_buffer_write_2d_async": dict(**WRITE_2D, after="dc_stream_synchronize(fx.stream);"),
    "dc_buffer_read_2d": dict(**READ_2D),
    "dc_buffer_read_2d_async": dict(**READ_2D, after="dc_stream_synchronize(fx.stream);"),
    "dc_buffer_fill_2d": dict(**FILL_2D),
    "dc_buffer_fill_2d_async": dict(**FILL_2D, after="dc_stream_synchronize(fx.stream);"),

    # -- streams and events -----------------------------------------------------------------
    "dc_stream_create": dict(ints={"priority": ("any", "priorities are clamped to the device's range")}),
    "dc_stream_priority_range": dict(),
    "dc_stream_get_default": dict(
        valid={"which": "DC_STREAM_LEGACY"},
    ),
    "dc_stream_wrap": dict(valid={"cu_stream": "fx.cu_stream"}),
    "dc_stream_release": dict(),
    "dc_stream_synchronize": dict(),
    "dc_stream_query": dict(),
    "dc_stream_wait_event": dict(valid={"event": "fx.event_end"}),
    "dc_stream_add_callback": dict(
        valid={"fn": "badinput::noop_host_fn", "user_data": "nullptr"},
        after="dc_stream_synchronize(fx.stream);",
    ),
    "dc_stream_native": dict(),
    "dc_stream_device": dict(),
    "dc_event_create": dict(),
    "dc_event_release": dict(),
    "dc_event_record": dict(),
    "dc_event_synchronize": dict(),
    "dc_event_query": dict(valid={"event": "fx.event_end"}),
    "dc_event_elapsed_ms": dict(valid={"start": "fx.event_start", "end": "fx.event_end"}),
    "dc_event_native": dict(),

    # -- compilation and the cache ------------------------------------------------------------
    "dc_compile": dict(
        # NULL options: CUBIN for the device (the fixture's options name scale<float> too)
        valid={"source": "fx.source", "program_name": "\"bad_input.cu\""},
        extra=[("unknown output", {"options": "&fx.compile_options_bad_output"}, ARG, "options->output")],
    ),
    "dc_nvrtc_supported_archs": dict(
        valid={"archs": "fx.archs", "capacity": "64"},
        # NULL archs with a capacity: refused (NULL and 0 is the count query).
        null_ok={"archs": ARG},
        ints={"capacity": ("bad", ["1"], RANGE)},
    ),
    "dc_link": dict(
        valid={"inputs": "fx.link_inputs", "count": "1", "options": "&fx.link_options"},
        # Without a device the architecture must be given.
        null_ok={"device": ARG},
        ints={"count": ("bad", ["0", "4097", U32_MAX], ARG)},
        extra=[("an input of an unknown kind", {"inputs": "fx.link_inputs_bad_kind"}, ARG, "inputs[0].kind is 8"),
               ("a file that does not exist", {"inputs": "fx.link_inputs_missing_file"}, NOT_FOUND,
                "/nonexistent/kernels.cubin")],
    ),
    "dc_nvjitlink_version": dict(
        skip_if=("fx.nvjitlink_status != DC_SUCCESS", "no nvJitLink here (test_link_no_nvjitlink covers its absence)"),
    ),
    "dc_program_release": dict(),
    "dc_program_output": dict(),
    "dc_program_log": dict(),
    "dc_program_lowered_name": dict(
        valid={"name_expression": "\"scale<float>\""},
        extra=[("an expression not given at compile time", {"name_expression": "\"scale<int>\""}, NOT_FOUND,
                "scale<int>")],
    ),
    "dc_program_cache_source": dict(),
    "dc_cache_clear": dict(
        valid={"flags": "DC_CACHE_CLEAR_MEMORY"},
        extra=[("no flags", {"flags": "0"}, ARG, "flags")],
    ),
    "dc_cache_directory": dict(),

    # -- modules and functions ------------------------------------------------------------------
    "dc_module_load": dict(
        valid={"image": "fx.image", "size": "fx.image_size"},
        # A size larger than the memory at `image` is the caller's error, which no library
        # can detect (it may read `size` bytes): only sizes the memory really has are tried.
        ints={"size": ("bad", ["0"], ARG)},
        extra=[("a truncated image", {"size": "fx.image_size / 2"}, IMAGE, ""),
               ("bytes that are no image", {"image": "fx.host", "size": "badinput::kBytes"}, IMAGE, ""),
               ("reserved options", {"options": "&fx.module_options_reserved"}, ARG, "options->reserved")],
    ),
    "dc_module_load_file": dict(
        valid={"path": "fx.module_path.c_str()"},
        extra=[("a file that does not exist", {"path": "\"/nonexistent/kernels.cubin\""}, NOT_FOUND,
                "/nonexistent/kernels.cubin"),
               ("a directory", {"path": "\"/\""}, "DC_ERROR_IO", "directory"),
               ("an empty path", {"path": "\"\""}, NOT_FOUND, "")],
    ),
    "dc_module_load_program": dict(),
    "dc_module_compile_and_load": dict(
        valid={"source": "fx.source", "program_name": "\"bad_input.cu\""},
        extra=[("unknown output", {"options": "&fx.compile_options_bad_output"}, ARG, "options->output")],
    ),
    "dc_module_release": dict(),
    "dc_module_jit_log": dict(),
    "dc_module_get_function": dict(
        valid={"name": "\"saxpy\""},
        extra=[("an empty name", {"name": "\"\""}, ARG, "name"),
               ("a kernel the module lacks", {"name": "\"no_such_kernel\""}, NOT_FOUND, "no_such_kernel")],
    ),
    "dc_module_function_count": dict(),
    "dc_module_function_name": dict(ints={"index": ("bad", ["fx.function_count", U32_MAX], RANGE)}),
    "dc_module_get_global": dict(
        valid={"name": "\"answer\""},
        extra=[("an empty name", {"name": "\"\""}, ARG, "name"),
               ("a variable the module lacks", {"name": "\"no_such_variable\""}, NOT_FOUND, "no_such_variable")],
    ),
    "dc_library_load": dict(
        valid={"image": "fx.image", "size": "fx.image_size"},
        # As dc_module_load: only sizes the memory at `image` really has are tried.
        ints={"size": ("bad", ["0"], ARG)},
        extra=[("a truncated image", {"size": "fx.image_size / 2"}, IMAGE, ""),
               ("bytes that are no image", {"image": "fx.host", "size": "badinput::kBytes"}, IMAGE, ""),
               ("reserved options", {"options": "&fx.module_options_reserved"}, ARG, "options->reserved")],
    ),
    "dc_library_load_file": dict(
        valid={"path": "fx.module_path.c_str()"},
        extra=[("a file that does not exist", {"path": "\"/nonexistent/kernels.cubin\""}, NOT_FOUND,
                "/nonexistent/kernels.cubin"),
               ("a directory", {"path": "\"/\""}, "DC_ERROR_IO", "directory"),
               ("an empty path", {"path": "\"\""}, NOT_FOUND, "")],
    ),
    "dc_library_release": dict(),

    # cuFFT (the fake cuFFT here): fx.fft_plan is C2C single, 16 points, 128 bytes each side.
    "dc_fft_library_version": dict(),
    "dc_fft_plan_create": dict(
        extra=[("rank 0", {"desc": "&fx.fft_desc_rank0"}, ARG, "desc->rank is 0")],
    ),
    "dc_fft_plan_release": dict(),
    "dc_fft_plan_set_stream": dict(valid={"stream": "fx.stream"}),
    "dc_fft_plan_info_get": dict(),
    "dc_fft_execute": dict(
        valid={"plan": "fx.fft_plan", "in": "fx.buffer", "out": "fx.buffer2", "direction": "DC_FFT_FORWARD"},
        ints={"in_offset": COPY_OFFSET, "out_offset": COPY_OFFSET},
        extra=[("a misaligned offset", {"in_offset": "4"}, ARG, "not a multiple of the input element size"),
               ("overlapping ranges that are not in place", {"out": "fx.buffer", "out_offset": "64"}, ARG, "overlap")],
    ),
    "dc_fft_plan_cache_trim": dict(ints={"keep": ("any", "every count is valid")}),
    "dc_library_function_count": dict(),
    "dc_library_function_name": dict(ints={"index": ("bad", ["fx.function_count", U32_MAX], RANGE)}),
    "dc_library_get_function": dict(
        valid={"name": "\"saxpy\""},
        extra=[("an empty name", {"name": "\"\""}, ARG, "name"),
               ("a kernel the library lacks", {"name": "\"no_such_kernel\""}, NOT_FOUND, "no_such_kernel")],
    ),
    "dc_function_release": dict(),
    "dc_function_name": dict(),
    "dc_function_get_info": dict(),
    "dc_function_attribute": dict(
        valid={"attribute": "0"},
        ints={"attribute": ("bad", ["-1", "1000", I32_MIN], ARG)},
    ),
    "dc_function_set_attribute": dict(
        valid={"attribute": "9", "value": "50"},  # CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT
        ints={"attribute": ("bad", ["-1", "1000", I32_MIN], ARG),
              "value": ("bad", ["101", "-2", I32_MIN], ARG)},
        after="dc_function_set_attribute(fx.function, 9, -1);",
    ),
    "dc_function_set_cache_config": dict(
        valid={"preference": "DC_CACHE_PREFER_NONE"},
    ),
    "dc_function_param_count": dict(),
    "dc_function_param_info": dict(ints={"index": ("bad", ["4", U32_MAX], RANGE)}),
    "dc_function_native": dict(),

    # -- launches -------------------------------------------------------------------------------
    "dc_launch_config_1d": dict(
        valid={"n": "1024"},
        ints={"n": ("size", ARG, RANGE), "shared_memory_bytes": ("size", OK, ARG)},
        msg={"shared_memory_bytes": "shared memory"},
    ),
    "dc_launch_kernel": dict(
        valid={"args": "fx.args", "num_args": "4"},
        ints={"num_args": ("bad", ["0", "3", "5", U32_MAX], ARG)},
        msg={"num_args": "argument"},
        extra=[("grid[0] = 0", {"config": "&fx.config_grid0"}, ARG, "config->grid[0]"),
               ("a block larger than the device allows", {"config": "&fx.config_block_big"}, ARG, "config->block"),
               ("unknown launch flags", {"config": "&fx.config_bad_flags"}, ARG, "config->flags"),
               ("an argument of unknown kind", {"args": "fx.args_bad_kind"}, ARG, "kind"),
               ("an argument of the wrong size", {"args": "fx.args_bad_size"}, ARG, "parameter 3"),
               ("a buffer offset past the end", {"args": "fx.args_bad_offset"}, RANGE, "offset"),
               ("a released buffer argument", {"args": "fx.args_dead_buffer"}, HANDLE, "buffer")],
        after="dc_stream_synchronize(fx.stream);",
    ),
    "dc_launch_kernel_packed": dict(
        valid={"params": "&fx.packed", "size": "sizeof(badinput::SaxpyParams)"},
        ints={"size": ("size", ARG, ARG)},
        extra=[("size one byte short", {"size": "sizeof(badinput::SaxpyParams) - 5"}, ARG, "size")],
        after="dc_stream_synchronize(fx.stream);",
    ),
    "dc_launch_create": dict(
        extra=[("grid[0] = 0", {"config": "&fx.config_grid0"}, ARG, "config->grid[0]"),
               ("unknown launch flags", {"config": "&fx.config_bad_flags"}, ARG, "config->flags")],
    ),
    "dc_launch_set_config": dict(
        extra=[("a block larger than the device allows", {"config": "&fx.config_block_big"}, ARG, "config->block")],
    ),
    "dc_launch_set_arg": dict(
        valid={"index": "1", "arg": "&fx.args[1]"},
        ints={"index": ("bad", ["4", "4096", U32_MAX], RANGE)},
        extra=[("a value where a buffer is expected", {"index": "1", "arg": "&fx.args[0]"}, ARG, "parameter 1"),
               ("a released buffer", {"arg": "&fx.args_dead_buffer[1]"}, HANDLE, "buffer")],
    ),
    "dc_launch_set_args": dict(
        valid={"args": "fx.args", "num_args": "4"},
        ints={"num_args": ("bad", ["0", "3", "5", U32_MAX], [ARG, RANGE])},
        msg={"num_args": ""},
        extra=[("an argument of the wrong size", {"args": "fx.args_bad_size"}, ARG, "parameter 3")],
    ),
    "dc_launch_enqueue": dict(after="dc_stream_synchronize(fx.stream);"),
    "dc_launch_enqueue_batch": dict(
        valid={"launches": "&fx.launch", "count": "1"},
        # The count of the caller's array: no other value can be tried without reading past it.
        ints={"count": ANY_COUNT},
        extra=[("a released launch at index 1", {"launches": "fx.launches_with_released", "count": "2"}, HANDLE,
                "launches[1]")],
        after="dc_stream_synchronize(fx.stream);",
    ),
    "dc_launch_release": dict(),

    # -- occupancy ----------------------------------------------------------------------------
    "dc_occupancy_max_active_blocks": dict(
        valid={"block_size": "256"},
        ints={"block_size": ("bad", ["0", "-1", "2048", I32_MIN], ARG),
              "dynamic_shared_bytes": ("size", OK, [OK, ARG])},
        msg={"dynamic_shared_bytes": ""},
    ),
    "dc_occupancy_max_potential_block_size": dict(
        valid={"fn": "badinput::no_shared_memory", "user_data": "nullptr"},
        ints={"dynamic_shared_bytes": ("size", OK, [OK, ARG]),
              "block_size_limit": ("bad", ["-1", I32_MIN], ARG)},
        msg={"dynamic_shared_bytes": ""},
    ),
    "dc_occupancy_max_active_clusters": dict(
        valid={"config": "&fx.cluster_config"},
        extra=[("no cluster size", {"config": "&fx.config"}, ARG, "config->cluster")],
    ),
    "dc_occupancy_available_dynamic_shared": dict(
        valid={"num_blocks": "1", "block_size": "256"},
        ints={"num_blocks": ("bad", ["0", "-1", I32_MIN], ARG),
              "block_size": ("bad", ["0", "-1", "2048"], ARG)},
    ),

    # -- graphs ---------------------------------------------------------------------------------
    "dc_stream_begin_capture": dict(
        valid={"stream": "fx.capture_stream", "mode": "DC_CAPTURE_THREAD_LOCAL"},
        after="{ dc_graph g_ = nullptr; dc_stream_end_capture(fx.capture_stream, &g_); dc_graph_release(g_); }",
    ),
    "dc_stream_end_capture": dict(
        valid={"stream": "fx.capture_stream"},
        baseline=STATE,  # not capturing
    ),
    "dc_stream_is_capturing": dict(),
    "dc_graph_instantiate": dict(),
    "dc_graph_upload": dict(after="dc_stream_synchronize(fx.stream);"),
    "dc_graph_launch": dict(after="dc_stream_synchronize(fx.stream);"),
    "dc_graph_update": dict(valid={"source": "fx.graph2"}),
    "dc_graph_node_count": dict(),
    "dc_graph_release": dict(),

    # -- graphs built node by node (fx.built grows with each valid call) ----------------------
    "dc_graph_create": dict(),
    "dc_graph_add_kernel_node": dict(
        valid={"graph": "fx.built", "config": "&fx.config", "args": "fx.args", "num_args": "4", "dependencies": "&fx.built_node", "num_dependencies": "1"},
        ints={"num_args": ("bad", ["3", "5"], ARG), "num_dependencies": ANY_COUNT},
        msg={"num_args": "", "num_dependencies": ""},
        extra=[("a released buffer argument", {"args": "fx.args_dead_buffer"}, HANDLE, "buffer"),
               ("a dependency of another graph", {"dependencies": "&fx.foreign_node"}, ARG, "dependencies[0]")],
    ),
    "dc_graph_add_copy_node": dict(
        valid={"graph": "fx.built", "dst": "fx.buffer2", "src": "fx.buffer", "dst_offset": "0", "src_offset": "0",
               "size": "64", "dependencies": "&fx.built_node", "num_dependencies": "1"},
        ints={"dst_offset": COPY_OFFSET, "src_offset": COPY_OFFSET, "size": ("size", ARG, RANGE),
              "num_dependencies": ANY_COUNT},
        msg={"num_dependencies": "", "size": ""},
        extra=[("a dependency of another graph", {"dependencies": "&fx.foreign_node"}, ARG, "dependencies[0]")],
    ),
    "dc_graph_add_fill_node": dict(
        valid={"graph": "fx.built", "offset": "0", "size": "64", "value": "7", "element_size": "4", "dependencies": "&fx.built_node", "num_dependencies": "1"},
        ints={"offset": ("offset", ["badinput::kBytes + 4", "U64_MAX_ALIGNED"], RANGE),
              "size": ("size", ARG, [ARG, RANGE]), "value": ("any", "every value fits 4-byte elements"),
              "element_size": ("bad", ["0", "3", "8"], ARG), "num_dependencies": ANY_COUNT},
        msg={"num_dependencies": "", "size": "", "offset": ""},
    ),
    "dc_graph_add_host_node": dict(
        valid={"graph": "fx.built", "fn": "badinput::no_op", "user_data": "nullptr", "dependencies": "&fx.built_node", "num_dependencies": "1"},
        ints={"num_dependencies": ANY_COUNT},
        msg={"num_dependencies": ""},
    ),
    "dc_graph_add_event_record_node": dict(
        valid={"graph": "fx.built", "dependencies": "&fx.built_node", "num_dependencies": "1"},
        ints={"num_dependencies": ANY_COUNT},
        msg={"num_dependencies": ""},
    ),
    "dc_graph_add_event_wait_node": dict(
        valid={"graph": "fx.built", "dependencies": "&fx.built_node", "num_dependencies": "1"},
        ints={"num_dependencies": ANY_COUNT},
        msg={"num_dependencies": ""},
    ),
    "dc_graph_add_child_graph_node": dict(
        valid={"graph": "fx.built", "child": "fx.graph", "dependencies": "&fx.built_node", "num_dependencies": "1"},
        ints={"num_dependencies": ANY_COUNT},
        msg={"num_dependencies": ""},
        extra=[("the graph itself as its child", {"child": "fx.built"}, ARG, "child is graph itself")],
    ),
    # 2D/3D copy nodes: the regions as the stream copies' (REGION_2D/3D), but an empty one is refused.
    "dc_graph_add_copy_2d_node": dict(
        valid={**REGION_2D["valid"], "graph": "fx.built", "dependencies": "&fx.built_node", "num_dependencies": "1"},
        ints={**REGION_2D["ints"], "width": ("size", ARG, [ARG, RANGE]), "height": ("size", ARG, RANGE),
              "num_dependencies": ANY_COUNT},
        msg={"num_dependencies": ""},
        extra=COPY_2D["extra"],
    ),
    "dc_graph_add_copy_3d_node": dict(
        valid={**REGION_3D["valid"], "graph": "fx.built", "dependencies": "&fx.built_node", "num_dependencies": "1"},
        ints={**REGION_3D["ints"], "width": ("size", ARG, [ARG, RANGE]), "height": ("size", ARG, [ARG, RANGE]),
              "depth": ("size", ARG, RANGE), "num_dependencies": ANY_COUNT},
        msg={"num_dependencies": ""},
        extra=COPY_3D["extra"],
    ),
    "dc_graph_set_copy_2d_node": dict(
        valid={**REGION_2D["valid"], "graph": "fx.built", "node": "fx.built_copy"},
        ints={**REGION_2D["ints"], "node": ("bad", ["0", U64_MAX, "fx.built_node"], ARG),
              "width": ("size", ARG, [ARG, RANGE]), "height": ("size", ARG, RANGE)},
        extra=COPY_2D["extra"],
    ),
    "dc_graph_add_alloc_node": dict(
        valid={"graph": "fx.memory_graph", "size": "64", "dependencies": "&fx.memory_alloc", "num_dependencies": "1"},
        ints={"size": ("size", ARG, [OOM, ARG]), "num_dependencies": ANY_COUNT},
        msg={"num_dependencies": "", "size": ""},
        extra=[("a dependency of another graph", {"dependencies": "&fx.foreign_node"}, ARG, "dependencies[0]")],
    ),
    "dc_graph_add_free_node": dict(
        valid={"graph": "fx.memory_graph", "buffer": "fx.memory_buffer", "dependencies": "&fx.memory_alloc",
               "num_dependencies": "1"},
        baseline=None, why="the free stays: a second valid call would free the memory twice",
        ints={"num_dependencies": ANY_COUNT},
        msg={"num_dependencies": ""},
        extra=[("a buffer no alloc node gave", {"buffer": "fx.buffer"}, ARG, "is not the buffer of an alloc node"),
               ("memory of another graph's alloc node", {"graph": "fx.built", "dependencies": "&fx.built_node"}, ARG,
                "is not the buffer of an alloc node"),
               ("a free not after the alloc node", {"dependencies": "nullptr", "num_dependencies": "0"}, ARG,
                "would not run after alloc node")],
    ),
    "dc_graph_add_dependency": dict(
        valid={"graph": "fx.built", "from": "fx.built_node", "to": "fx.built_node2"},
        baseline=None, why="the edge stays: a second valid call would add it twice",
        ints={"from": ("bad", ["0", U64_MAX], ARG), "to": ("bad", ["0", U64_MAX], ARG)},
        extra=[("a node of another graph", {"to": "fx.foreign_node"}, ARG, "to is"),
               ("an edge from a node to itself", {"to": "fx.built_node"}, ARG, "itself")],
    ),
    "dc_graph_node_at": dict(
        ints={"index": ("bad", ["1", U64_MAX], RANGE)},
        valid={"index": "0"},
    ),
    "dc_graph_node_type": dict(
        valid={"graph": "fx.built", "node": "fx.built_node"},
        ints={"node": ("bad", ["0", U64_MAX, "fx.foreign_node"], ARG)},
    ),
    "dc_graph_edge_count": dict(),
    "dc_graph_edge_at": dict(
        valid={"graph": "fx.graph", "index": "0"},
        baseline=RANGE,  # the captured graph has one node and no edge
        ints={"index": ("bad", [U64_MAX], RANGE)},
    ),
    "dc_graph_clone": dict(),
    "dc_graph_remove_node": dict(
        valid={"graph": "fx.built", "node": "fx.foreign_node"},
        baseline=ARG,  # removing a real node would change what the other cases use
        ints={"node": ("bad", ["0", U64_MAX], ARG)},
    ),
    "dc_graph_set_kernel_node": dict(
        valid={"graph": "fx.built", "node": "fx.built_kernel", "config": "&fx.config", "args": "fx.args",
               "num_args": "4"},
        ints={"node": ("bad", ["0", U64_MAX, "fx.foreign_node"], ARG), "num_args": ("bad", ["3", "5"], ARG)},
        msg={"num_args": ""},
        extra=[("a fill node", {"node": "fx.built_node"}, NOT_SUPPORTED, "not a kernel node"),
               ("a released buffer argument", {"args": "fx.args_dead_buffer"}, HANDLE, "buffer")],
    ),
    "dc_graph_set_copy_node": dict(
        valid={"graph": "fx.built", "node": "fx.built_copy", "dst": "fx.buffer2", "src": "fx.buffer",
               "dst_offset": "0", "src_offset": "0", "size": "64"},
        ints={"node": ("bad", ["0", U64_MAX, "fx.built_node"], ARG), "dst_offset": COPY_OFFSET,
              "src_offset": COPY_OFFSET, "size": ("size", ARG, RANGE)},
        msg={"size": ""},
    ),
    "dc_graph_set_fill_node": dict(
        valid={"graph": "fx.built", "node": "fx.built_node", "offset": "0", "size": "64", "value": "0",
               "element_size": "4"},
        ints={"node": ("bad", ["0", U64_MAX, "fx.built_copy"], ARG),
              "offset": ("offset", ["badinput::kBytes + 4", "U64_MAX_ALIGNED"], RANGE),
              "size": ("size", ARG, [ARG, RANGE]), "value": ("any", "every value fits 4-byte elements"),
              "element_size": ("bad", ["0", "3", "8"], ARG)},
        msg={"size": "", "offset": ""},
    ),
    "dc_graph_set_host_node": dict(
        valid={"graph": "fx.built", "node": "fx.built_host", "fn": "badinput::no_op", "user_data": "nullptr"},
        ints={"node": ("bad", ["0", U64_MAX, "fx.built_node"], ARG)},
    ),
    "dc_graph_add_conditional_node": dict(
        valid={"graph": "fx.built", "num_bodies": "1", "default_value": "0", "dependencies": "&fx.built_node",
               "num_dependencies": "1"},
        ints={"num_bodies": ("bad", ["0", "3", U32_MAX], ARG), "default_value": ("any", "any value is a condition"),
              "num_dependencies": ANY_COUNT},
        msg={"num_dependencies": ""},
    ),
    "dc_graph_conditional_body": dict(
        valid={"graph": "fx.built", "node": "fx.built_conditional", "index": "0"},
        ints={"node": ("bad", ["0", U64_MAX, "fx.built_node"], ARG), "index": ("bad", ["1", U32_MAX], RANGE)},
    ),
    "dc_graph_write_dot": dict(
        valid={"path": "\"/dev/null\""},
        extra=[("an empty path", {"path": "\"\""}, ARG, "path is empty"),
               ("a folder that does not exist", {"path": "\"/nonexistent-dccuda-folder/g.dot\""},
                "DC_ERROR_IO", "could not write")],
    ),
    "dc_graph_dot": dict(
        valid={"text": "static_cast<char*>(fx.host)", "capacity": "badinput::kBytes"},
        null_ok={"text": ARG},  # NULL text with a nonzero capacity; NULL and 0 is the length query
        ints={"capacity": ("bad", ["0", "1"], RANGE)},
    ),
    # -- message queues and resident kernels ---------------------------------------------
    "dc_queue_create": dict(
        valid={"direction": "DC_QUEUE_TO_DEVICE", "slot_size": "64", "capacity": "16"},
        ints={"slot_size": ("bad", ["0", "4", "48", "131072", U32_MAX], ARG),
              "capacity": ("bad", ["0", "1", "3", "1u << 25", U32_MAX], ARG)},
    ),
    "dc_queue_release": dict(),
    "dc_queue_buffer": dict(),
    "dc_queue_try_enqueue": dict(
        valid={"message": "fx.host", "size": "8"},
        ints={"size": ("bad", ["65", U32_MAX], RANGE)},
    ),
    "dc_queue_enqueue": dict(
        valid={"message": "fx.host", "size": "8", "wait": "DC_WAIT_SPIN", "timeout_us": "0"},
        ints={"size": ("bad", ["65", U32_MAX], RANGE),
              "timeout_us": ("any", "every limit is valid (UINT64_MAX: none; the queue has room)")},
    ),
    "dc_queue_enqueue_batch": dict(
        valid={"messages": "fx.host", "size": "64", "message_size": "8"},
        ints={"size": ("bad", ["12", U64_MAX], ARG),  # not a multiple of message_size
              "message_size": ("bad", ["0", "3"], ARG)},
        extra=[("message larger than a slot", {"size": "128", "message_size": "128"}, RANGE, "slot size 64")],
    ),
    "dc_queue_try_dequeue": dict(
        valid={"queue": "fx.queue_to_host", "message": "fx.host", "max_size": "64"},
        baseline="DC_NOT_READY",
        ints={"max_size": ("any", "any room is valid: a longer message is refused when one comes")},
        extra=[("a DC_QUEUE_TO_DEVICE queue", {"queue": "fx.queue"}, ARG, "DC_QUEUE_TO_DEVICE")],
    ),
    "dc_queue_dequeue": dict(
        valid={"queue": "fx.queue_from_kernel", "message": "fx.host", "max_size": "64", "wait": "DC_WAIT_SPIN",
               "timeout_us": "0"},
        ints={"max_size": ("bad", ["0", "7"], RANGE),  # the fixture's messages are 8 bytes
              "timeout_us": ("any", "every limit is valid (the queue always has a message)")},
        after="fx.refill_queue();",
        extra=[("an empty queue", {"queue": "fx.queue_to_host"}, "DC_ERROR_TIMEOUT", "stayed empty for 0 us")],
    ),
    "dc_queue_dequeue_batch": dict(
        valid={"queue": "fx.queue_to_host", "messages": "fx.host", "size": "badinput::kBytes", "stride": "64"},
        baseline="DC_NOT_READY",
        ints={"size": ("bad", ["0", "63"], ARG), "stride": ("bad", ["0", "8"], ARG)},
    ),
    "dc_queue_counters": dict(),
    # cuBLAS (the fake cuBLAS in CI): vectors of 16 F32 in fx.buffer / fx.buffer2.
    "dc_blas_library_version": dict(skip_if=BLAS_SKIP),
    "dc_blas_create": dict(valid={"stream": "fx.stream"}, null_ok={"stream": OK}, skip_if=BLAS_SKIP),
    "dc_blas_release": dict(),
    "dc_blas_set_stream": dict(valid={"stream": "fx.stream"}, null_ok={"stream": OK}, skip_if=BLAS_SKIP),
    "dc_blas_stream": dict(skip_if=BLAS_SKIP),
    "dc_blas_set_pointer_mode": dict(valid={"mode": "DC_BLAS_POINTER_HOST"}, skip_if=BLAS_SKIP),
    "dc_blas_set_math_mode": dict(valid={"mode": "DC_BLAS_MATH_DEFAULT"}, skip_if=BLAS_SKIP),
    "dc_blas_set_workspace_size": dict(
        valid={"bytes": "1u << 20"},
        ints={"bytes": ("size", OK, OOM)},
        msg={"bytes": ""},  # an allocation too large for the device names the device
        skip_if=BLAS_SKIP,
    ),
    "dc_blas_gemm": dict(
        skip_if=BLAS_SKIP,
        extra=[("B past its buffer", {"desc": "[&] { static dc_blas_gemm_desc d = fx.blas_gemm_desc; d.ldb = 300; "
                                              "return &d; }()"}, RANGE, "B (desc->b_buffer) needs"),
               ("lda below m", {"desc": "[&] { static dc_blas_gemm_desc d = fx.blas_gemm_desc; d.lda = 15; "
                                        "return &d; }()"}, ARG, "desc->lda is 15")],
    ),
    "dc_blas_axpy": BLAS_VECTORS_2,
    "dc_blas_dot": without_alpha(BLAS_VECTORS_2, null_ok={"result": ARG}),
    "dc_blas_scal": BLAS_VECTORS_1,
    "dc_blas_nrm2": without_alpha(BLAS_VECTORS_1, null_ok={"result": ARG}),
    "dc_blas_gemv": dict(
        valid={"type": "DC_BLAS_F32", "trans": "DC_BLAS_OP_N", "a": "fx.buffer", "x": "fx.buffer2", "y": "fx.no_pool",
               "m": "16", "n": "16", "lda": "16",
               "incx": "1", "incy": "1", "alpha": "1.0", "beta": "0.0", "a_offset": "0", "x_offset": "0",
               "y_offset": "0", "scalars": "nullptr", "scalars_offset": "0"},
        ints={"m": ("bad", ["-1", "INT64_MIN"], ARG), "n": ("bad", ["-1", "INT64_MIN"], ARG),
              "lda": ("bad", ["0", "15"], ARG), "incx": ("bad", ["0", "-1"], ARG), "incy": ("bad", ["0", "-1"], ARG),
              "alpha": ("any", "every alpha is valid"), "beta": ("any", "every beta is valid"),
              "a_offset": BLAS_OFFSET, "x_offset": BLAS_OFFSET, "y_offset": BLAS_OFFSET,
              "scalars_offset": ("any", "unused in host pointer mode")},
        msg={"a": "A", "a_offset": "A", "x_offset": "x", "y_offset": "y"},
        extra=[("A past its buffer", {"n": "65"}, RANGE, "A needs")],
        skip_if=BLAS_SKIP,
    ),
    # NCCL (the fake NCCL in CI, the real one on a GPU): fx.comm is a one-rank
    # communicator on device 0, so that every valid collective completes alone.
    "dc_nccl_library_version": dict(skip_if=NCCL_SKIP),
    "dc_nccl_unique_id": dict(
        skip_if=NCCL_SKIP, valid={"bytes": "fx.nccl_id", "size": "DC_NCCL_UNIQUE_ID_BYTES"},
        ints={"size": ("bad", ["0", "64", "129", U64_MAX], ARG)}),
    "dc_comm_init_rank": dict(
        skip_if=NCCL_SKIP, valid={"nranks": "1", "id": "fx.fresh_nccl_id()", "id_size": "DC_NCCL_UNIQUE_ID_BYTES",
                                  "rank": "0"},
        ints={"nranks": ("bad", ["0", "-1", I32_MIN], ARG), "id_size": ("bad", ["0", "127", U64_MAX], ARG),
              "rank": ("bad", ["1", "-1", I32_MAX], ARG)}),
    "dc_comm_init_all": dict(
        skip_if=NCCL_SKIP, valid={"ordinals": "&fx.ordinal0", "count": "1"},
        # comms holds `count` handles: only the fixture's count can be tried here
        # (test_nccl_checks refuses count 0); as ANY_COUNT.
        ints={"count": ANY_COUNT},
        extra=[("an ordinal the driver does not have", {"ordinals": "&fx.ordinal_missing"}, NO_DEVICE,
                "device ordinal 99")]),
    "dc_comm_split": dict(
        skip_if=NCCL_SKIP, ints={"color": ("bad", ["-2", I32_MIN], ARG), "key": ("any", "every key orders ranks")}),
    "dc_comm_abort": dict(baseline=None, why="an aborted comm stays aborted: test_nccl_comm aborts its own"),
    "dc_comm_release": dict(),
    "dc_comm_async_error": dict(skip_if=NCCL_SKIP),
    "dc_comm_rank": dict(skip_if=NCCL_SKIP),
    "dc_comm_count": dict(skip_if=NCCL_SKIP),
    "dc_comm_device_ordinal": dict(skip_if=NCCL_SKIP),
    "dc_comm_all_reduce": dict(
        skip_if=NCCL_SKIP, valid={"send": "fx.buffer", "recv": "fx.buffer2", "count": "16",
                                  "datatype": "DC_NCCL_FLOAT32", "op": "DC_NCCL_SUM"},
        ints=COMM_INTS, extra=COMM_EXTRA),
    "dc_comm_broadcast": dict(
        skip_if=NCCL_SKIP, valid={"send": "fx.buffer", "recv": "fx.buffer2", "count": "16",
                                  "datatype": "DC_NCCL_FLOAT32", "root": "0"},
        null_ok={"send": ARG}, ints={**COMM_INTS, "root": ("bad", ["1", "-1", I32_MAX], ARG)}, extra=COMM_EXTRA),
    "dc_comm_reduce": dict(
        skip_if=NCCL_SKIP, valid={"send": "fx.buffer", "recv": "fx.buffer2", "count": "16",
                                  "datatype": "DC_NCCL_FLOAT32", "op": "DC_NCCL_MAX", "root": "0"},
        null_ok={"recv": ARG}, ints={**COMM_INTS, "root": ("bad", ["1", "-1", I32_MAX], ARG)}, extra=COMM_EXTRA),
    "dc_comm_all_gather": dict(
        skip_if=NCCL_SKIP, valid={"send": "fx.buffer", "recv": "fx.buffer2", "send_count": "16",
                                  "datatype": "DC_NCCL_INT32"},
        ints={"send_offset": COMM_OFFSET, "recv_offset": COMM_OFFSET, "send_count": COMM_COUNT}, extra=COMM_EXTRA),
    "dc_comm_reduce_scatter": dict(
        skip_if=NCCL_SKIP, valid={"send": "fx.buffer", "recv": "fx.buffer2", "recv_count": "16",
                                  "datatype": "DC_NCCL_INT32", "op": "DC_NCCL_MIN"},
        ints={"send_offset": COMM_OFFSET, "recv_offset": COMM_OFFSET, "recv_count": COMM_COUNT}, extra=COMM_EXTRA),
    "dc_comm_send": dict(
        baseline=None, why="a send completes only with its receive, in one group: test_nccl_*rank runs them",
        skip_if=NCCL_SKIP, valid={"send": "fx.buffer", "count": "16", "datatype": "DC_NCCL_INT32", "peer": "0"},
        ints={"send_offset": COMM_OFFSET, "count": COMM_COUNT, "peer": ("bad", ["1", "-1", I32_MAX], ARG)}),
    "dc_comm_recv": dict(
        baseline=None, why="a receive completes only with its send, in one group: test_nccl_*rank runs them",
        skip_if=NCCL_SKIP, valid={"recv": "fx.buffer", "count": "16", "datatype": "DC_NCCL_INT32", "peer": "0"},
        ints={"recv_offset": COMM_OFFSET, "count": COMM_COUNT, "peer": ("bad", ["1", "-1", I32_MAX], ARG)}),
    "dc_nccl_group_start": dict(
        skip_if=NCCL_SKIP, after="dc_nccl_group_end();"),
    "dc_nccl_group_end": dict(
        skip_if=NCCL_SKIP, baseline="DC_ERROR_INVALID_STATE",
        extra=[]),
    "dc_pool_create": dict(
        ints={"max_size": ("bad", [U64_MAX], ARG)},
        extra=[("an unknown flag", {"flags": "0x2"}, ARG, "flags 0x2 has bits this call does not take")],
    ),
    "dc_pool_release": dict(),
    "dc_pool_set_attribute": dict(
        valid={"attribute": "DC_POOL_RELEASE_THRESHOLD", "value": "0"},
        ints={"value": ("any", "every release threshold is valid")},
        extra=[("a reuse value other than 0 or 1", {"attribute": "DC_POOL_REUSE_ALLOW_OPPORTUNISTIC", "value": "2"},
                ARG, "is not 0 or 1"),
               ("a statistic, which only dc_pool_statistics reads", {"attribute": "5"}, ARG, "dc_pool_statistics")],
    ),
    "dc_pool_attribute": dict(valid={"attribute": "DC_POOL_RELEASE_THRESHOLD"}),
    "dc_pool_statistics": dict(),
    "dc_device_pool_statistics": dict(),
    "dc_pool_reset_high_water": dict(),
    "dc_pool_trim": dict(ints={"keep_bytes": ("size", OK, OK)}),
    "dc_pool_set_access": dict(
        valid={"accessor": "fx.device", "enable": "1"},
        ints={"enable": ("bad", ["2", "-1", I32_MIN], ARG)},
        extra=[("taking the pool's own device's access", {"enable": "0"}, ARG, "cannot be taken away")],
    ),
    "dc_buffer_alloc_from_pool": dict(
        valid={"stream": "fx.stream", "size": "badinput::kBytes"},
        ints={"size": ("size", ARG, OOM)},
        msg={"size": ""},  # an allocation too large for the device names the device
    ),
    "dc_device_allocation_granularity": dict(),
    "dc_buffer_alloc_growable": dict(
        valid={"max_size": "64u << 20", "initial_size": "1"},
        ints={"max_size": ("bad", ["0", U64_MAX], [ARG, OOM]), "initial_size": ("bad", ["0", U64_MAX], ARG)},
    ),
    "dc_buffer_grow": dict(
        valid={"buffer": "fx.growable", "size": "1"},
        ints={"size": ("bad", ["(64u << 20) + 1", U64_MAX], RANGE)},
        extra=[("a buffer that is not growable", {"buffer": "fx.buffer"}, ARG, "not made by dc_buffer_alloc_growable")],
    ),
    "dc_buffer_reserved_size": dict(),
    # A real driver refuses to import in the exporting process; the fake models IPC inside one process.
    "dc_buffer_export_ipc": dict(
        valid={"buffer": "fx.no_pool", "handle": "fx.host", "size": "DC_IPC_HANDLE_SIZE"},
        ints={"size": ("bad", ["0", "DC_IPC_HANDLE_SIZE - 1"], ARG)},
        extra=[("memory of the stream-ordered pool", {"buffer": "fx.buffer"}, NOT_SUPPORTED, "DC_ALLOC_NO_POOL"),
               ("pinned host memory", {"buffer": "fx.pinned"}, NOT_SUPPORTED, "host memory"),
               ("managed memory", {"buffer": "fx.managed"}, NOT_SUPPORTED, "managed memory")],
    ),
    "dc_buffer_import_ipc": dict(
        valid={"handle": "fx.ipc_buffer_bytes", "size": "DC_IPC_HANDLE_SIZE"},
        baseline=[OK, ARG, "DC_ERROR_DRIVER"],
        ints={"size": ("bad", ["0", "DC_IPC_HANDLE_SIZE - 1"], ARG)},
        extra=[("an event's bytes", {"handle": "fx.ipc_event_bytes"}, ARG, "not the bytes of an exported buffer"),
               ("bytes that are no export", {"handle": "fx.host"}, ARG, "not the bytes of an exported buffer"),
               ("a buffer of an exportable pool", {"handle": "fx.ipc_pool_buffer_bytes"}, ARG,
                "dc_buffer_import_ipc_from_pool")],
    ),
    "dc_event_export_ipc": dict(
        valid={"event": "fx.ipc_event", "handle": "fx.host", "size": "DC_IPC_HANDLE_SIZE"},
        ints={"size": ("bad", ["0", "DC_IPC_HANDLE_SIZE - 1"], ARG)},
        extra=[("an event without DC_EVENT_INTERPROCESS", {"event": "fx.event"}, ARG, "without DC_EVENT_INTERPROCESS")],
    ),
    "dc_event_import_ipc": dict(
        valid={"handle": "fx.ipc_event_bytes", "size": "DC_IPC_HANDLE_SIZE"},
        baseline=[OK, ARG, "DC_ERROR_DRIVER"],
        ints={"size": ("bad", ["0", "DC_IPC_HANDLE_SIZE - 1"], ARG)},
        extra=[("a buffer's bytes", {"handle": "fx.ipc_buffer_bytes"}, ARG, "not the bytes of an exported event")],
    ),
    # Pools across processes (Linux): the fixture's exportable pool, its 64-byte buffer, and the
    # pool imported in the fixture's own process (the fake allows it; where a real driver refuses,
    # the import cases are skipped).
    "dc_pool_export_ipc": dict(
        valid={"pool": "fx.export_pool", "handle": "fx.host", "size": "DC_IPC_HANDLE_SIZE"},
        ints={"size": ("bad", ["0", "DC_IPC_HANDLE_SIZE - 1"], ARG)},
        extra=[("a pool made without DC_POOL_EXPORTABLE", {"pool": "fx.pool"}, NOT_SUPPORTED, "DC_POOL_EXPORTABLE")],
        skip_if=("!fx.export_pool", "pools are shared on Linux only"),
    ),
    "dc_pool_import_ipc": dict(
        valid={"handle": "fx.ipc_pool_bytes", "size": "DC_IPC_HANDLE_SIZE"},
        baseline=[OK, ARG, NOT_SUPPORTED, "DC_ERROR_DRIVER"],
        ints={"size": ("bad", ["0", "DC_IPC_HANDLE_SIZE - 1"], ARG)},
        extra=[("a buffer's bytes", {"handle": "fx.ipc_buffer_bytes"}, ARG, "not the bytes of an exported pool"),
               ("bytes that are no export", {"handle": "fx.host"}, ARG, "not the bytes of an exported pool")],
        skip_if=("!fx.export_pool", "pools are shared on Linux only"),
    ),
    "dc_pool_export_fd": dict(
        valid={"pool": "fx.export_pool"},
        extra=[("a pool made without DC_POOL_EXPORTABLE", {"pool": "fx.pool"}, NOT_SUPPORTED, "DC_POOL_EXPORTABLE")],
        skip_if=("!fx.export_pool", "pools are shared on Linux only"),
    ),
    "dc_pool_import_fd": dict(
        valid={"fd": "fx.export_pool_fd"},
        baseline=[OK, ARG, "DC_ERROR_DRIVER"],
        ints={"fd": ("bad", ["-1", I32_MIN], ARG)},
        skip_if=("!fx.export_pool", "pools are shared on Linux only"),
    ),
    "dc_buffer_import_ipc_from_pool": dict(
        valid={"pool": "fx.imported_pool", "handle": "fx.ipc_pool_buffer_bytes", "size": "DC_IPC_HANDLE_SIZE"},
        baseline=[OK, ARG, "DC_ERROR_DRIVER"],
        ints={"size": ("bad", ["0", "DC_IPC_HANDLE_SIZE - 1"], ARG)},
        extra=[("a cuMemAlloc buffer's bytes", {"handle": "fx.ipc_buffer_bytes"}, ARG,
                "not the bytes of an exported buffer of an exportable pool"),
               ("a pool of this process, not the import", {"pool": "fx.export_pool"}, ARG,
                "pass the pool imported from the exporter")],
        skip_if=("!fx.imported_pool", "the driver refused to import the fixture's pool in its own process"),
    ),
    # Virtual memory pieces: the fixture's reservation (4 granules, the first mapped), a spare
    # physical allocation and an empty reservation; each valid call is undone after.
    "dc_vmm_reserve": dict(
        valid={"size": "fx.granularity", "alignment": "0"},
        ints={"size": ("bad", ["0", "1", "fx.granularity + 1"], ARG), "alignment": ("bad", ["3"], ARG)},
        after="dc_vmm_free(fx.device, o_address, fx.granularity);",
    ),
    "dc_vmm_free": dict(
        valid={"address": "fx.vmm_empty", "size": "fx.granularity"},
        ints={"address": ("bad", ["0", "fx.vmm_empty + 1"], ARG), "size": ("bad", ["0", "2 * fx.granularity"], ARG)},
        extra=[("a reservation with memory mapped", {"address": "fx.vmm_reserved", "size": "4 * fx.granularity"},
                STATE, "dc_vmm_unmap them first")],
        after="dc_vmm_reserve(fx.device, fx.granularity, 0, &fx.vmm_empty);",
    ),
    "dc_vmm_create": dict(
        valid={"size": "fx.granularity"},
        ints={"size": ("bad", ["0", "fx.granularity + 1"], ARG)},
        after="dc_vmm_release(fx.device, o_handle);",
    ),
    "dc_vmm_release": dict(
        valid={"handle": "fx.vmm_spare"},
        ints={"handle": ("bad", ["0", "1"], ARG)},
        after="dc_vmm_create(fx.device, fx.granularity, &fx.vmm_spare);",
    ),
    "dc_vmm_map": dict(
        valid={"address": "fx.vmm_reserved + 2 * fx.granularity", "size": "fx.granularity", "handle": "fx.vmm_spare"},
        # Past the end of every reservation: well past it, since reservations made one after the other
        # can be adjacent on a GPU (vmm_reserved + 4 granules was the next reservation there).
        ints={"address": ("bad", ["0", "fx.vmm_reserved + 1", "fx.vmm_reserved + 4096 * fx.granularity"], ARG),
              "size": ("bad", ["0", "fx.granularity + 1", "2 * fx.granularity"], ARG),
              "handle": ("bad", ["0", "1"], ARG)},
        extra=[("over a mapping", {"address": "fx.vmm_reserved"}, ARG, "overlaps the mapping")],
        after="dc_vmm_unmap(fx.device, fx.vmm_reserved + 2 * fx.granularity, fx.granularity);",
    ),
    "dc_vmm_unmap": dict(
        valid={"address": "fx.vmm_reserved", "size": "fx.granularity"},
        ints={"address": ("bad", ["0", "fx.vmm_reserved + fx.granularity"], ARG),
              "size": ("bad", ["0", "fx.granularity / 2", "2 * fx.granularity"], ARG)},
        after=("dc_vmm_map(fx.device, fx.vmm_reserved, fx.granularity, fx.vmm_mapped); "
               "dc_vmm_set_access(fx.device, fx.vmm_reserved, fx.granularity, fx.device, DC_VMM_ACCESS_READWRITE);"),
    ),
    "dc_vmm_set_access": dict(
        valid={"address": "fx.vmm_reserved", "size": "fx.granularity", "accessor": "fx.device",
               "access": "DC_VMM_ACCESS_READWRITE"},
        ints={"address": ("bad", ["0", "fx.vmm_reserved + fx.granularity"], ARG),
              "size": ("bad", ["0", "2 * fx.granularity"], ARG)},
    ),
    "dc_control_create": dict(),
    "dc_control_release": dict(),
    "dc_control_buffer": dict(),
    "dc_control_request_stop": dict(
        after="dc_control_reset(fx.control);",
        extra=[("a kernel that already stopped", {"control": "fx.control_stopped"}, STATE, "already stopped")],
    ),
    "dc_control_wait_stopped": dict(
        valid={"control": "fx.control_stopped", "wait": "DC_WAIT_SPIN", "timeout_us": "0"},
        ints={"timeout_us": ("any", "every limit is valid (the kernel has stopped)")},
        extra=[("a kernel that never started", {"control": "fx.control"}, "DC_ERROR_TIMEOUT", "DC_CONTROL_IDLE")],
    ),
    "dc_control_status": dict(),
    "dc_control_check_progress": dict(
        valid={"stall_us": "1000"},
        baseline=STATE,  # the fixture's block is idle
        ints={"stall_us": ("bad", ["0"], ARG)},
    ),
    "dc_control_reset": dict(),

    # -- stream memory operations ------------------------------------------------------
    "dc_stream_wait_value32": dict(
        # fx.zeros holds 0: GEQ 0 and GEQ UINT32_MAX (0 - 0xFFFFFFFF = 1) are satisfied at once.
        valid={"buffer": "fx.zeros", "offset": "0", "value": "0", "compare": "DC_COMPARE_GEQ"},
        ints={"offset": ("bad", ["2", "64", U64_MAX], [ARG, RANGE]),
              "value": ("any", "every value is valid (0 and the maximum are satisfied by fx.zeros)")},
    ),
    "dc_stream_wait_value64": dict(
        valid={"buffer": "fx.zeros", "offset": "0", "value": "0", "compare": "DC_COMPARE_GEQ"},
        ints={"offset": ("bad", ["4", "64", U64_MAX], [ARG, RANGE]),
              "value": ("any", "every value is valid (0 and the maximum are satisfied by fx.zeros)")},
    ),
    "dc_stream_write_value32": dict(
        valid={"buffer": "fx.no_pool", "offset": "0", "value": "1"},
        ints={"offset": ("bad", ["2", "badinput::kBytes", U64_MAX], [ARG, RANGE]),
              "value": ("any", "every value is valid")},
        extra=[("memory of the stream-ordered pool", {"buffer": "fx.buffer"}, "DC_ERROR_NOT_SUPPORTED",
                "stream-ordered pool"),
               ("managed memory", {"buffer": "fx.managed"}, "DC_ERROR_NOT_SUPPORTED", "managed memory")],
    ),
    "dc_stream_write_value64": dict(
        valid={"buffer": "fx.no_pool", "offset": "0", "value": "1"},
        ints={"offset": ("bad", ["4", "badinput::kBytes", U64_MAX], [ARG, RANGE]),
              "value": ("any", "every value is valid")},
        extra=[("memory of the stream-ordered pool", {"buffer": "fx.buffer"}, "DC_ERROR_NOT_SUPPORTED",
                "stream-ordered pool"),
               ("managed memory", {"buffer": "fx.managed"}, "DC_ERROR_NOT_SUPPORTED", "managed memory")],
    ),
    "dc_stream_batch_mem_ops": dict(
        valid={"ops": "fx.mem_ops", "count": "1"},
        ints={"count": ("bad", ["0", "257", U32_MAX], ARG)},
    ),

    # -- diagnostics ----------------------------------------------------------------------
    "dc_set_log_callback": dict(
        valid={"fn": "badinput::noop_log_fn", "user_data": "nullptr"},
        after="dc_set_log_callback(DC_LOG_TRACE, nullptr, nullptr);",
    ),
    "dc_handle_report": dict(
        valid={"text": "nullptr", "capacity": "0"},
        # The valid call asks for the length (the fixture's report may exceed its host memory).
        ints={"capacity": ("bad", ["1", U64_MAX], ARG)},
    ),
    "dc_handle_visit": dict(
        valid={"fn": "badinput::noop_handle_fn", "user_data": "nullptr"},
    ),
    "dc_device_telemetry_get": dict(),
    # Where NVML is not installed (CI) the valid call answers NOT_SUPPORTED, saying why.
    "dc_telemetry_library": dict(baseline=[OK, NOT_SUPPORTED]),
    "dc_range_push": dict(valid={"name": '"bad-input range"'}, after="dc_range_pop();"),
    "dc_range_pop": dict(exempt="takes nothing and cannot fail (void): there is no bad input to give it"),
    "dc_mark": dict(valid={"name": '"bad-input mark"'}),
    "dc_stream_set_name": dict(valid={"name": '"bad-input stream"'}),
    "dc_profiler_start": dict(after="dc_profiler_stop(fx.device);"),
    "dc_profiler_stop": dict(),
    "dc_set_launch_trace": dict(
        valid={"on_launch": "nullptr", "on_complete": "nullptr", "user_data": "nullptr"},
    ),
}
