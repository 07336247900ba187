"""Rust: dccuda-sys's raw declarations, the C side of its layout test, and dccuda's named statuses.

  bindings/rust/dccuda-sys/src/generated.rs   constants (typed as their family), handle types,
                                              callback types, #[repr(C)] structs (Default from the
                                              DC_*_INIT macros), every function in one extern "C"
                                              block, and the struct and constant lists the layout
                                              and constant reports are made from
  bindings/rust/dccuda-sys/layout/layout_fields.inc   the struct/field list for abi/layout_c.c
  bindings/rust/dccuda/src/status_codes.rs    dccuda::Status's associated constants, one per status
"""

from __future__ import annotations

import re
from typing import Dict, List

from .common import Ctx, GenError, HeaderText, constants, init_macro, split_init, status_suffix

SCALARS = {
    "int8_t": "i8", "uint8_t": "u8", "char": "c_char",
    "int16_t": "i16", "uint16_t": "u16",
    "int32_t": "i32", "uint32_t": "u32",
    "int64_t": "i64", "uint64_t": "u64",
    "float": "f32", "double": "f64",
    "void": "c_void", "dc_status": "dc_status",
}
FAMILY_TYPES = {"int32_t": "i32", "uint32_t": "u32", "int64_t": "i64", "uint64_t": "u64"}

RUST_KEYWORDS = {"as", "break", "const", "continue", "crate", "else", "enum", "extern", "false", "fn", "for",
                 "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut", "pub", "ref", "return",
                 "self", "Self", "static", "struct", "super", "trait", "true", "type", "unsafe", "use",
                 "where", "while", "async", "await", "dyn", "abstract", "become", "box", "do", "final",
                 "macro", "override", "priv", "typeof", "unsized", "virtual", "yield", "try", "gen"}

SYS = "bindings/rust/dccuda-sys"
GENERATED_RS = f"{SYS}/src/generated.rs"
FIELDS_INC = f"{SYS}/layout/layout_fields.inc"
STATUS_RS = "bindings/rust/dccuda/src/status_codes.rs"


def ident(name: str) -> str:
    return name + "_" if name in RUST_KEYWORDS else name


def doc_lines(text: str, indent: str = "") -> List[str]:
    """/// lines. Each line is stripped so that rustdoc never sees an indented code block, and
    `<` is escaped so that `scale<float>` is not read as an HTML tag, and `[` `]` so that
    `grid[0]` is not read as an intra-doc link (cargo doc warns on those)."""
    out = []
    for ln in text.strip().split("\n"):
        ln = ln.strip().replace("<", "\\<").replace("[", "\\[").replace("]", "\\]")
        out.append(f"{indent}///" + (f" {ln}" if ln else ""))
    return out


def rust_type(t, handles: Dict[str, str], callbacks: set, structs: set) -> str:
    """The Rust spelling of a C type as api.py wrote it (`const char* const*`...)."""
    c = " ".join(t.c.replace("*", " * ").split())
    c = re.sub(r"\[\d+\]$", "", c).strip()
    base_words = []
    base_const = False       # `const T ...`
    quals = []               # per '*', left to right: a `const` written just before it
    pending_const = False
    for w in c.split():
        if w == "const":
            pending_const = True
        elif w == "*":
            quals.append(pending_const)
            pending_const = False
        else:
            base_words.append(w)
            base_const = base_const or pending_const
            pending_const = False
    base = " ".join(base_words)
    if base in SCALARS:
        r = SCALARS[base]
    elif base in handles or base in callbacks or base in structs:
        r = base
    else:
        raise GenError(f"no Rust type for C type `{t.c}`")
    # Star k points to something const when a `const` stood just before it, or, for the
    # first star, before the base type (`const char*`).
    for k in range(len(quals)):
        pointee_const = quals[k] or (k == 0 and base_const)
        r = ("*const " if pointee_const else "*mut ") + r
    if t.array:
        for n in reversed(t.array):
            r = f"[{r}; {n}]"
    if r == "c_void":
        r = "()"
    return r


def rust_value(api, v, t, struct_name: str, constants_: Dict[str, int]) -> str:
    if isinstance(v, list):
        n = t.array[0] if t.array else len(v)
        elem = type(t)(c=re.sub(r"\[\d+\]$", "", t.c), cls=t.cls, base=t.base)
        vals = [rust_value(api, x, elem, struct_name, constants_) for x in v]
        if len(vals) < n:
            if all(x == "0" for x in vals):
                return f"[0; {n}]"
            raise GenError(f"partial initialiser {v} for {t.c}")
        return "[" + ", ".join(vals) + "]"
    v = v.strip()
    m = re.fullmatch(r"\(uint32_t\)\s*sizeof\((\w+)\)", v)
    if m:
        return f"core::mem::size_of::<{m.group(1)}>() as u32"
    if v == "NULL":
        return "core::ptr::null()" if "const" in t.c else "core::ptr::null_mut()"
    if v in constants_:
        return v
    m = re.fullmatch(r"(-?\d+)[uU]?", v)
    if m:
        # A whole number for a float or double field (DC_BLAS_GEMM_DESC_INIT's
        # alpha 1): Rust takes no integer literal there.
        return m.group(1) + (".0" if t.base in ("float", "double") else "")
    raise GenError(f"cannot translate initialiser `{v}` of {struct_name}")


def constant_type(api, m) -> str:
    fam = api.family(m.family)
    if fam.name == "dc_status":
        return "dc_status"
    return FAMILY_TYPES[fam.ctype]


def field_lines(text: HeaderText, s) -> Dict[str, int]:
    return {f.name: f.line for f in s.fields if f.line}


def generated_rs(ctx: Ctx) -> str:
    a = ctx.api
    hdr = HeaderText(a.text)
    handles = dict(a.handles)
    callbacks = {c.name for c in a.callbacks}
    structs = {s.name for s in a.structs}
    consts = a.constants
    ty = lambda t: rust_type(t, handles, callbacks, structs)  # noqa: E731

    out: List[str] = ctx.banner("//").rstrip("\n").split("\n")
    w = out.append
    w("")
    w("use core::ffi::{c_char, c_void};")
    w("")
    w("/// A status code: `DC_SUCCESS`, `DC_NOT_READY` or a negative `DC_ERROR_*`.")
    w("pub type dc_status = i32;")
    w("")
    w("// ---------------------------------------------------------------------------")
    w("// Constants (plain `pub const`s: the library may append values this crate does not know)")
    w("")
    for m in constants(a):
        doc = hdr.doc_at(m.line)
        out += doc_lines(doc) if doc else []
        t = constant_type(a, m)
        value = consts[m.name]
        lit = f"0x{value:x}" if t == "u32" and re.search(r"0x", m.body) else str(value)
        w(f"pub const {m.name}: {t} = {lit};")
    w("")
    w("// ---------------------------------------------------------------------------")
    w("// Handles: opaque, only ever behind a pointer; not Send or Sync by themselves.")
    w("")
    for name, tag in handles.items():
        w("#[repr(C)]")
        w(f"pub struct {tag} {{")
        w("    _private: [u8; 0],")
        w("    _not_send_sync_or_unpin: core::marker::PhantomData<(*mut u8, core::marker::PhantomPinned)>,")
        w("}")
        w(f"/// The `{name}` handle (NULL = no handle).")
        w(f"pub type {name} = *mut {tag};")
    w("")
    w("// ---------------------------------------------------------------------------")
    w("// Callbacks")
    w("")
    for cb in a.callbacks:
        params = ", ".join(f"{ident(p.name)}: {ty(p.type)}" for p in cb.params)
        ret = "" if cb.ret.c == "void" else f" -> {ty(cb.ret)}"
        doc = hdr.block_before(cb.line)
        out += doc_lines(doc) if doc else []
        w(f"pub type {cb.name} = Option<unsafe extern \"C\" fn({params}){ret}>;")
    w("")
    w("// ---------------------------------------------------------------------------")
    w("// Structs")
    for s in a.structs:
        w("")
        doc = hdr.block_before(s.line)
        out += doc_lines(doc) if doc else []
        lines = field_lines(hdr, s)
        w("#[repr(C)]")
        w("#[derive(Clone, Copy, Debug)]")
        w(f"pub struct {s.name} {{")
        for f in s.fields:
            fdoc = hdr.doc_at(lines[f.name]) if f.name in lines else ""
            out += doc_lines(fdoc, "    ") if fdoc else []
            w(f"    pub {f.name}: {ty(f.type)},")
        w("}")
        if s.growable:
            macro = init_macro(a, s)
            if macro is None:
                raise GenError(f"{s.name} has no {s.name.upper()}_INIT macro")
            values = split_init(macro.body)
            if len(values) != len(s.fields):
                raise GenError(f"{macro.name} has {len(values)} values for {len(s.fields)} fields")
            w("")
            w(f"impl Default for {s.name} {{")
            w(f"    /// `{macro.name}`: `struct_size` set, every other field as the macro sets it.")
            w("    fn default() -> Self {")
            w("        Self {")
            for f, v in zip(s.fields, values):
                w(f"            {f.name}: {rust_value(a, v, f.type, s.name, consts)},")
            w("        }")
            w("    }")
            w("}")
    w("")
    w("// ---------------------------------------------------------------------------")
    w("// Functions, in header order. Every one is exported by libdccuda.so.1 (DCCUDA_1.0).")
    w("")
    w("extern \"C\" {")
    for k, f in enumerate(a.functions):
        if k:
            w("")
        out += doc_lines(f.doc, "    ") if f.doc else []
        params = ", ".join(f"{ident(p.name)}: {ty(p.type)}" for p in f.params)
        ret = "" if f.ret.c == "void" else f" -> {ty(f.ret)}"
        w(f"    pub fn {f.name}({params}){ret};")
    w("}")
    w("")
    w("/// Every public struct with its fields, in declaration order: what the layout report")
    w("/// (`crate::layout`) prints for the Rust side.")
    w("#[doc(hidden)]")
    w("#[macro_export]")
    w("macro_rules! __dccuda_for_each_struct {")
    w("    ($m:ident) => {")
    for s in a.structs:
        w(f"        $m!({s.name} {{ {', '.join(f.name for f in s.fields)} }});")
    w("    };")
    w("}")
    w("")
    w("/// Every constant, in header order: what the constant report (`crate::layout::constants`)")
    w("/// prints for the Rust side.")
    w("#[doc(hidden)]")
    w("#[macro_export]")
    w("macro_rules! __dccuda_for_each_constant {")
    w("    ($m:ident) => {")
    for m in constants(a):
        w(f"        $m!({m.name});")
    w("    };")
    w("}")
    return "\n".join(out) + "\n"


def fields_inc(ctx: Ctx) -> str:
    from .common import GENERATED_MARK
    inc = [f"/* {GENERATED_MARK} from {ctx.header_rel}: the C side of dccuda-sys's layout test",
           "   (abi/layout_c.c includes it). Do not edit: run abi/gen.py. */"]
    for s in ctx.api.structs:
        inc.append(f"DC_LAYOUT_STRUCT({s.name})")
        for f in s.fields:
            inc.append(f"DC_LAYOUT_FIELD({s.name}, {f.name})")
    return "\n".join(inc) + "\n"


def status_codes(ctx: Ctx) -> str:
    a = ctx.api
    fam = a.family("dc_status")
    if fam is None:
        raise GenError("no DC_CONSTANTS(dc_status, ...) family in the header")
    out = [ctx.banner("//", "dccuda::Status's named values").rstrip("\n"),
           "// (included by error.rs).", "", "impl Status {"]
    for name in fam.members:
        out.append(f"    pub const {status_suffix(name)}: Status = Status(sys::{name});")
    out += ["}", ""]
    return "\n".join(out)


def generate(ctx: Ctx) -> None:
    ctx.add(GENERATED_RS, generated_rs(ctx))
    ctx.add(FIELDS_INC, fields_inc(ctx))
    ctx.add(STATUS_RS, status_codes(ctx))
