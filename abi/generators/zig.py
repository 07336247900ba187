"""Zig: bindings/zig/src/c.zig (the raw layer: every constant, struct, callback type and extern fn
of the header, in header order) and bindings/zig/src/status.zig (the status <-> error map).

Names follow the header (dc_device_info, DC_ALLOC_NO_POOL, dc_buffer_write) so that its
documentation applies word for word. Handles are `?*Device` and friends: opaque types whose
idiomatic methods live in the other files of the folder. Structs are `extern struct`s whose
field defaults are the DC_*_INIT macros' values (zero for a struct without one); the idiomatic
helpers a struct carries (dc_arg.of, dc_launch_config.linear...) are hand-written in
bindings/zig/src/c_members/<struct>.zig and copied into it."""

from __future__ import annotations

import os
from typing import List

from .common import Ctx, GenError, constants, items_in_order, pascal, status_suffix, struct_defaults

ZIG = "bindings/zig/src"
MEMBERS = "bindings/zig/src/c_members"

# dc_* handle -> (Zig type, the file that defines it with its methods). A handle not listed is
# an `opaque {}` declared in c.zig itself (until its wrapper file exists).
HANDLES = {"dc_device": ("Device", "device.zig"), "dc_buffer": ("Buffer", "buffer.zig"),
           "dc_stream": ("Stream", "stream.zig"), "dc_event": ("Event", "event.zig"),
           "dc_program": ("Program", "compile.zig"), "dc_module": ("Module", "module.zig"),
           "dc_function": ("Function", "function.zig"), "dc_launch": ("Launch", "launch.zig"),
           "dc_graph": ("Graph", "graph.zig"), "dc_queue": ("Queue", "queue.zig"),
           "dc_control": ("Control", "queue.zig"), "dc_pool": ("Pool", "pool.zig"),
           "dc_blas": ("Blas", "blas.zig"),
           "dc_library": ("KernelLibrary", "kernel_library.zig"), "dc_fft_plan": ("FftPlan", "fft.zig"),
           "dc_comm": ("Comm", "comm.zig")}
SCALARS = {"int8_t": "i8", "uint8_t": "u8", "char": "u8", "int16_t": "i16", "uint16_t": "u16", "int32_t": "i32",
           "uint32_t": "u32", "int64_t": "i64", "uint64_t": "u64", "float": "f32", "double": "f64",
           "dc_status": "dc_status"}
FAMILY_TYPES = {"int32_t": "i32", "uint32_t": "u32", "int64_t": "i64", "uint64_t": "u64"}
RESERVED = {"addrspace", "align", "allowzero", "and", "anyframe", "anytype", "asm", "async", "await", "break",
            "callconv", "catch", "comptime", "const", "continue", "defer", "else", "enum", "errdefer", "error",
            "export", "extern", "fn", "for", "if", "inline", "linksection", "noalias", "noinline", "nosuspend",
            "opaque", "or", "orelse", "packed", "pub", "resume", "return", "struct", "suspend", "switch", "test",
            "threadlocal", "try", "union", "unreachable", "usingnamespace", "var", "volatile", "while",
            "type", "bool", "void", "anyopaque", "noreturn", "u8", "i8", "u16", "i16", "u32", "i32", "u64", "i64",
            "f32", "f64", "usize", "isize", "null", "undefined", "true", "false"}


def ident(name: str) -> str:
    return f'@"{name}"' if name in RESERVED else name


def handle_type(name: str) -> str:
    return HANDLES[name][0] if name in HANDLES else pascal(name)


def param_type(api, p, where: str) -> str:
    m, t = p.model, p.type
    k = m.kind
    const = t.c.lstrip().startswith("const ")
    if k == "handle":
        return f"?*{handle_type(t.base)}"
    if k == "callback":
        return f"?{t.base}"
    if k in ("int", "float"):
        return SCALARS[t.base]
    if k == "out_handle":
        return f"?*?*{handle_type(t.base)}"
    if k == "handles":
        return f"?[*]const ?*{handle_type(t.base)}"
    if k == "out_scalar":
        return f"?*{SCALARS[t.base]}"
    if k == "string":
        return "?[*:0]const u8"
    if k == "out_string":
        return "?*?[*:0]const u8"
    if k == "out_pointer":
        return "?*?*const anyopaque" if const else "?*?*anyopaque"
    if k in ("memory", "native", "user_data"):
        return "?*const anyopaque" if const else "?*anyopaque"
    if k == "struct":
        if m.array is not None:
            return f"?[*]{'const ' if const else ''}{t.base}"
        return f"?*{'const ' if const else ''}{t.base}"
    raise GenError(f"{where}: no Zig type for a parameter of kind {k} (`{t.c}`)")


def return_type(f) -> str:
    t = f.ret
    if t.c == "void":
        return "void"
    if t.pointer_depth == 1 and t.base == "char":
        return "[*:0]const u8"     # library-owned, never NULL
    if t.pointer_depth == 0 and t.base in SCALARS:
        return SCALARS[t.base]
    raise GenError(f"{f.name}: no Zig type for the return type `{t.c}`")


def field_type(api, f) -> str:
    t = f.type
    if t.array:
        return "".join(f"[{n}]" for n in t.array) + SCALARS[t.base]
    if t.base in api.handles and t.pointer_depth == 0:
        return f"?*{handle_type(t.base)}"
    if any(c.name == t.base for c in api.callbacks):
        return f"?{t.base}"
    if t.pointer_depth == 0:
        return SCALARS[t.base]
    const = t.c.lstrip().startswith("const ")
    if t.base == "char" and t.pointer_depth == 1:
        return "?[*:0]const u8"
    if t.base == "char" and t.pointer_depth == 2:
        return "?[*]const [*:0]const u8"
    if t.base == "void" and t.pointer_depth == 1:
        return "?*const anyopaque" if const else "?*anyopaque"
    raise GenError(f"field {f.name}: no Zig type for `{t.c}`")


def default_value(api, s, f, d) -> str:
    if d is None:   # a struct without _INIT: zero
        if f.type.array:
            n = f.type.array[0]
            return f"[_]{SCALARS[f.type.base]}{{0}} ** {n}"
        if f.type.pointer_depth or f.type.base in api.handles or any(c.name == f.type.base for c in api.callbacks):
            return "null"
        return "0"
    if isinstance(d, list):
        if all(x == ("int", 0) for x in d) and len(d) > 3:
            return f"[_]{SCALARS[f.type.base]}{{0}} ** {len(d)}"
        return ".{ " + ", ".join(default_value(api, s, f, x) for x in d) + " }"
    kind = d[0]
    if kind == "sizeof":
        return f"@sizeOf({d[1]})"
    if kind == "null":
        return "null"
    if kind == "const":
        return d[1]
    return str(d[1])


def members(ctx: Ctx, struct_name: str) -> List[str]:
    path = os.path.join(ctx.root, MEMBERS, struct_name + ".zig")
    if not os.path.isfile(path):
        return []
    with open(path, encoding="utf-8") as f:
        lines = f.read().rstrip("\n").split("\n")
    # The file's own //! comment says what it is; the members start after it.
    while lines and (lines[0].startswith("//!") or not lines[0].strip()):
        lines.pop(0)
    return ["", *["    " + ln if ln.strip() else "" for ln in lines]]


def c_zig(ctx: Ctx) -> str:
    api = ctx.api
    out = ctx.banner("//!", "the raw layer").rstrip("\n").split("\n")
    out += ["//!",
            "//! include/dccuda.h as Zig declarations: names as in the header (its documentation applies",
            "//! word for word), handles as `?*Device` and friends (opaque types whose methods live in the",
            "//! other files of this folder), sizes as u64 (uint64_t), never usize. Struct fields default to",
            "//! the header's DC_*_INIT values. abi/check_abi.py measures the structs' layout and the",
            "//! constants' values (layout.zig) against the C compiler's.",
            "",
            'const std = @import("std");', ""]
    for name in api.handles:
        if name in HANDLES:
            t, f = HANDLES[name]
            out.append(f'pub const {t} = @import("{f}").{t};')
        else:
            out.append(f"pub const {handle_type(name)} = opaque {{}};")
    last_kind = None
    for kind, obj in items_in_order(api):
        if kind == "section":
            out += ["", "// " + "-" * 75, f"// {obj}", ""]
            last_kind = None
        elif kind == "family":
            if last_kind is not None:
                out.append("")
            if obj.name == "dc_status":
                out += status_enum(api, obj) + [""]
            last_kind = "family"
        elif kind == "constant":
            fam = api.family(obj.family)
            out.append(f"pub const {obj.name}: {FAMILY_TYPES[fam.ctype]} = {zig_literal(obj, fam)};")
            last_kind = "constant"
        elif kind == "callback":
            params = ", ".join(f"{ident(p.name)}: {param_type(api, _as_param(api, p), obj.name)}" for p in obj.params)
            ret = return_type(obj)
            if last_kind is not None:
                out.append("")
            out.append(f"pub const {obj.name} = *const fn ({params}) callconv(.C) {ret};")
            last_kind = "callback"
        elif kind == "struct":
            if last_kind is not None:
                out.append("")
            out += struct_decl(ctx, obj)
            last_kind = "struct"
        elif kind == "function":
            if last_kind in ("constant", "struct", "callback", "family"):
                out.append("")
            params = ", ".join(f"{ident(p.name)}: {param_type(api, p, f'{obj.name} parameter {p.name}')}"
                               for p in obj.params)
            out.append(f'pub extern "dccuda" fn {obj.name}({params}) {return_type(obj)};')
            last_kind = "function"
    out += ["", "/// The structs of the header, in header order: layout.zig prints these and the",
            "/// tests check that each `struct_size` default is the struct's own size.",
            "pub const structs = .{"]
    for s in api.structs:
        out.append(f'    .{{ "{s.name}", {s.name} }},')
    out += ["};", ""]
    return "\n".join(out)


def _as_param(api, p):
    """A callback's parameter has no annotations: read it as an input, a `const char*` as
    a string and a pointer to a struct as that struct (borrowed for the call)."""
    if p.model is None:
        from api_model import ParamModel
        t = p.type
        if t.base == "void" and t.pointer_depth == 1:
            kind = "user_data"
        elif t.base == "char" and t.pointer_depth == 1:
            kind = "string"
        elif t.pointer_depth == 1 and any(st.name == t.base for st in api.structs):
            kind = "struct"
        else:
            kind = "float" if t.base in ("float", "double") else "int"
        p.model = ParamModel(kind=kind)
    return p


def zig_literal(m, fam) -> str:
    v = m.value
    if FAMILY_TYPES[fam.ctype].startswith("u") and "0x" in m.body.lower():
        return f"0x{v:x}"
    return str(v)


def status_enum(api, fam) -> List[str]:
    out = ["/// dc_status. Non-exhaustive: values are append-only, so a newer library may",
           "/// answer a status this file does not name yet; `_` keeps that well defined.",
           "pub const dc_status = enum(i32) {"]
    for name in fam.members:
        out.append(f"    {status_suffix(name).lower()} = {fam.values[name]},")
    out += ["    _,", "};"]
    return out


def struct_decl(ctx: Ctx, s) -> List[str]:
    api = ctx.api
    defaults = struct_defaults(api, s)
    out = []
    if defaults is not None:
        out.append(f"/// The defaults are DC_{s.name[3:].upper()}_INIT.")
    else:
        out.append(f"/// {s.name} (fields default to zero).")
    out.append(f"pub const {s.name} = extern struct {{")
    for i, f in enumerate(s.fields):
        d = defaults[i] if defaults is not None else None
        out.append(f"    {ident(f.name)}: {field_type(api, f)} = {default_value(api, s, f, d)},")
    out += members(ctx, s.name)
    out.append("};")
    return out


# Error names that would collide with the standard library's: DC_ERROR_OUT_OF_MEMORY
# is device (or pinned host) memory running out, which a caller must be able to tell
# from an allocator's error.OutOfMemory in a merged error set.
ERROR_RENAMES = {"OutOfMemory": "DeviceOutOfMemory"}


def error_name(status: str) -> str:
    e = pascal(status_suffix(status).lower())
    return ERROR_RENAMES.get(e, e)


def status_zig(ctx: Ctx) -> str:
    api = ctx.api
    fam = api.family("dc_status")
    if fam is None:
        raise GenError("no DC_CONSTANTS(dc_status, ...) family in the header")
    errs = [n for n in fam.members if n != "DC_SUCCESS"]
    if "DC_ERROR_INTERNAL" not in errs:
        raise GenError("the dc_status family has no DC_ERROR_INTERNAL (an unknown status maps to it)")
    out = ctx.banner("//!", "statuses as Zig errors").rstrip("\n").split("\n")
    out += ["//! errors.zig re-exports these; every wrapper turns a failing dc_status into a DcError.", "",
            'const c = @import("c.zig");', "",
            "pub const Status = c.dc_status;", "",
            "/// One error per status besides DC_SUCCESS. NotReady is DC_NOT_READY where a call that",
            "/// is not a query answers it; UnknownStatus is a status newer than this file.",
            "/// DeviceOutOfMemory is DC_ERROR_OUT_OF_MEMORY (named apart from an allocator's OutOfMemory).",
            "pub const DcError = error{"]
    out += [f"    {error_name(n)}," for n in errs]
    out += ["    UnknownStatus,", "};", "",
            "/// The error for a status that is not success (DC_SUCCESS gives UnknownStatus:",
            "/// call it only for failures).",
            "pub fn errorFromStatus(status: Status) DcError {", "    return switch (status) {"]
    out += [f"        .{status_suffix(n).lower()} => error.{error_name(n)}," for n in errs]
    out += ["        else => error.UnknownStatus,", "    };", "}", "",
            "/// The status an error stands for (UnknownStatus gives DC_ERROR_INTERNAL).",
            "pub fn statusFromError(err: DcError) Status {", "    return switch (err) {"]
    for n in errs:
        e = error_name(n)
        s = status_suffix(n).lower()
        if n == "DC_ERROR_INTERNAL":
            out.append(f"        error.{e}, error.UnknownStatus => .{s},")
        else:
            out.append(f"        error.{e} => .{s},")
    out += ["    };", "}", ""]
    return "\n".join(out)


def generate(ctx: Ctx) -> None:
    ctx.add(f"{ZIG}/c.zig", c_zig(ctx))
    ctx.add(f"{ZIG}/status.zig", status_zig(ctx))
