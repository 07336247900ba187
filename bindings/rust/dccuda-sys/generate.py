#!/usr/bin/env python3
"""Generates dccuda-sys's raw declarations from include/dccuda.h.

The header is the one source of truth for the ABI; abi/api.py reads it. This script turns
what api.py reads into

  src/generated.rs           constants, handle types, callback types, #[repr(C)] structs
                             (with Default from the header's DC_*_INIT macros), every
                             function in one extern "C" block, and the struct/field list the
                             Rust layout report is made from;
  layout/layout_fields.inc   the same struct/field list for abi/layout_c.c, the C side of the
                             layout test (build.rs compiles it with the header).

Both files are committed. Run it after changing the header:

    python3 bindings/rust/dccuda-sys/generate.py            # rewrite both files
    python3 bindings/rust/dccuda-sys/generate.py --check    # exit 1 if they are stale

`cargo test` runs the --check (tests/generated_current.rs), so a stale file fails CI.
Python 3 standard library only.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from typing import Dict, List, Optional

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
GENERATED_RS = os.path.join(HERE, "src", "generated.rs")
FIELDS_INC = os.path.join(HERE, "layout", "layout_fields.inc")

sys.path.insert(0, os.path.join(ROOT, "abi"))
import api  # noqa: E402  (abi/api.py, the header parser)

SCALARS = {
    "int8_t": "i8", "uint8_t": "u8", "char": "c_char",
    "int16_t": "i16", "uint16_t": "u16",
    "int32_t": "i32", "uint32_t": "u32",
    "int64_t": "i64", "uint64_t": "u64",
    "float": "f32", "double": "f64",
    "void": "c_void", "dc_status": "dc_status",
}

# Constants whose C type is not what their spelling suggests: the field or parameter they
# are used with is unsigned although the literal has no `u` (dc_arg.kind, dc_version()).
CONSTANT_TYPES = {
    "DC_ARG_VALUE": "u32",
    "DC_ARG_BUFFER": "u32",
    "DCCUDA_VERSION": "u32",
    "DCCUDA_VERSION_MAJOR": "u32",
    "DCCUDA_VERSION_MINOR": "u32",
    "DCCUDA_VERSION_PATCH": "u32",
}

# C parameter names that are Rust keywords get a trailing underscore.
RUST_KEYWORDS = {"as", "break", "const", "continue", "crate", "else", "enum", "extern", "false", "fn", "for",
                 "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut", "pub", "ref", "return",
                 "self", "Self", "static", "struct", "super", "trait", "true", "type", "unsafe", "use",
                 "where", "while", "async", "await", "dyn", "abstract", "become", "box", "do", "final",
                 "macro", "override", "priv", "typeof", "unsized", "virtual", "yield", "try", "gen"}


def ident(name: str) -> str:
    return name + "_" if name in RUST_KEYWORDS else name


STATUS_RE = re.compile(r"^DC_(SUCCESS|NOT_READY|ERROR_\w+)$")


class Header:
    """The header's text, for the comments api.py does not keep (constants, fields)."""

    def __init__(self, path: str):
        with open(path, encoding="utf-8") as f:
            self.lines = f.read().split("\n")

    def trailing(self, line: int) -> str:
        m = re.search(r"/\*\*<(.*?)\*/", self.lines[line - 1])
        return m.group(1).strip() if m else ""

    def block_before(self, line: int) -> str:
        """A /** ... */ comment of its own lines that ends just before `line` (1-based)."""
        i = line - 2
        if i < 0 or not self.lines[i].rstrip().endswith("*/"):
            return ""
        end = i
        while i >= 0:
            s = self.lines[i].strip()
            if s.startswith("/**") and not s.startswith("/**<"):
                break
            if not s.startswith("*") or (i != end and s.endswith("*/")):
                return ""          # code, a trailing comment, or another comment's end
            i -= 1
        if i < 0:
            return ""
        text = "\n".join(self.lines[i:end + 1])
        text = re.sub(r"^\s*/\*\*", "", text)
        text = re.sub(r"\*/\s*$", "", text)
        return "\n".join(re.sub(r"^\s*\*(?!/)\s?", "", ln) for ln in text.split("\n")).strip()

    def doc_at(self, line: int) -> str:
        return self.trailing(line) or self.block_before(line)

    def field_lines(self, struct: "api.Struct") -> Dict[str, int]:
        """Field name -> header line, read from the struct's body."""
        found: Dict[str, int] = {}
        i = struct.line - 1
        while i < len(self.lines) and "{" not in self.lines[i]:
            i += 1
        depth = 0
        for j in range(i, len(self.lines)):
            code = re.sub(r"/\*.*?\*/", "", self.lines[j])
            for f in struct.fields:
                if f.name not in found and re.search(r"\b%s\s*(\[[^\]]*\])?\s*;" % re.escape(f.name), code):
                    found[f.name] = j + 1
            depth += code.count("{") - code.count("}")
            if depth <= 0 and j > i:
                break
        return found


def doc_lines(text: str, indent: str = "") -> List[str]:
    """/// lines. Each line is stripped so that rustdoc never sees an indented code block, and
    `<` is escaped so that `scale<float>` is not read as an HTML tag."""
    out = []
    for ln in text.strip().split("\n"):
        ln = ln.strip().replace("<", "\\<")
        out.append(f"{indent}///" + (f" {ln}" if ln else ""))
    return out


def rust_type(t: "api.Type", handles: Dict[str, str], callbacks: set, structs: set) -> str:
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
        raise SystemExit(f"generate.py: no Rust type for C type `{t.c}`")
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


def split_init(body: str) -> List:
    """`{ a, {b, c}, d }` -> ['a', ['b', 'c'], 'd'] (the DC_*_INIT macros)."""
    s = body.strip()
    pos = 0

    def parse_list():
        nonlocal pos
        assert s[pos] == "{"
        pos += 1
        items, cur = [], ""
        while True:
            ch = s[pos]
            if ch == "{":
                items.append(parse_list())
                cur = ""
                continue
            if ch in ",}":
                if cur.strip():
                    items.append(cur.strip())
                cur = ""
                pos += 1
                if ch == "}":
                    return items
                continue
            cur += ch
            pos += 1

    return parse_list()


def rust_value(v, t: "api.Type", struct_name: str, constants: Dict[str, int]) -> str:
    if isinstance(v, list):
        n = t.array[0] if t.array else len(v)
        elem = api.Type(c=re.sub(r"\[\d+\]$", "", t.c), cls=t.cls, base=t.base)
        vals = [rust_value(x, elem, struct_name, constants) for x in v]
        if len(vals) < n:
            if all(x == "0" for x in vals):
                return f"[0; {n}]"
            raise SystemExit(f"generate.py: partial initialiser {v} for {t.c}")
        return "[" + ", ".join(vals) + "]"
    v = v.strip()
    m = re.fullmatch(r"\(uint32_t\)\s*sizeof\((\w+)\)", v)
    if m:
        return f"core::mem::size_of::<{m.group(1)}>() as u32"
    if v == "NULL":
        return "core::ptr::null()" if "const" in t.c else "core::ptr::null_mut()"
    if v in constants:
        return v
    m = re.fullmatch(r"(-?\d+)[uU]?", v)
    if m:
        return m.group(1)
    raise SystemExit(f"generate.py: cannot translate initialiser `{v}` of {struct_name}")


def constant_type(name: str, body: str) -> str:
    if name in CONSTANT_TYPES:
        return CONSTANT_TYPES[name]
    if STATUS_RE.match(name):
        return "dc_status"
    if re.search(r"\b(0x[0-9a-fA-F]+|\d+)[uU]\b", body):
        return "u32"
    return "i32"


def generate(header_path: str) -> Dict[str, str]:
    a = api.parse_header(header_path)
    if a.problems:
        raise SystemExit("generate.py: api.py reports problems in the header:\n" +
                         "\n".join(str(p) for p in a.problems))
    hdr = Header(header_path)
    rel_header = os.path.relpath(header_path, ROOT)
    handles = dict(a.handles)
    callbacks = {c.name for c in a.callbacks}
    structs = {s.name for s in a.structs}
    constants = a.constants
    ty = lambda t: rust_type(t, handles, callbacks, structs)  # noqa: E731

    out: List[str] = []
    w = out.append
    w(f"// @generated by bindings/rust/dccuda-sys/generate.py from {rel_header} (dccuda {a.version_string}).")
    w("// Do not edit: change the header and run the script (a test checks this file is current).")
    w("")
    w("use core::ffi::{c_char, c_void};")
    w("")
    w("/// A status code: `DC_SUCCESS`, `DC_NOT_READY` or a negative `DC_ERROR_*`.")
    w("pub type dc_status = i32;")
    w("")
    w("// ---------------------------------------------------------------------------")
    w("// Constants (plain `pub const`s: the library may append values this crate does not know)")
    w("")
    for m in a.macros:
        if m.params is not None or m.value is None or m.name not in constants:
            continue
        if m.name == "DCCUDA_H":
            continue
        doc = hdr.doc_at(m.line)
        out += doc_lines(doc) if doc else []
        t = constant_type(m.name, m.body)
        value = constants[m.name]
        lit = f"0x{value:x}" if t == "u32" and re.search(r"0x", m.body) else str(value)
        w(f"pub const {m.name}: {t} = {lit};")
    w("")
    w("// ---------------------------------------------------------------------------")
    w("// Handles: opaque, only ever behind a pointer; not Send or Sync by themselves.")
    w("")
    for name, tag in handles.items():
        w(f"#[repr(C)]")
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
        lines = hdr.field_lines(s)
        w("#[repr(C)]")
        w("#[derive(Clone, Copy, Debug)]")
        w(f"pub struct {s.name} {{")
        for f in s.fields:
            fdoc = hdr.doc_at(lines[f.name]) if f.name in lines else ""
            out += doc_lines(fdoc, "    ") if fdoc else []
            w(f"    pub {f.name}: {ty(f.type)},")
        w("}")
        if s.growable:
            macro = a.macro(s.name.upper() + "_INIT")
            if macro is None:
                raise SystemExit(f"generate.py: {s.name} has no {s.name.upper()}_INIT macro")
            values = split_init(macro.body)
            if len(values) != len(s.fields):
                raise SystemExit(f"generate.py: {macro.name} has {len(values)} values for {len(s.fields)} fields")
            w("")
            w(f"impl Default for {s.name} {{")
            w(f"    /// `{macro.name}`: `struct_size` set, every other field as the macro sets it.")
            w("    fn default() -> Self {")
            w("        Self {")
            for f, v in zip(s.fields, values):
                w(f"            {f.name}: {rust_value(v, f.type, s.name, constants)},")
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
    rs = "\n".join(out) + "\n"

    inc = [f"/* @generated by bindings/rust/dccuda-sys/generate.py from {rel_header}: the C side of",
           "   dccuda-sys's layout test (abi/layout_c.c includes it). Do not edit. */"]
    for s in a.structs:
        inc.append(f"DC_LAYOUT_STRUCT({s.name})")
        for f in s.fields:
            inc.append(f"DC_LAYOUT_FIELD({s.name}, {f.name})")
    return {GENERATED_RS: rs, FIELDS_INC: "\n".join(inc) + "\n"}


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--header", default=os.path.join(ROOT, "include", "dccuda.h"))
    p.add_argument("--check", action="store_true", help="compare instead of writing; exit 1 when stale")
    args = p.parse_args()
    files = generate(args.header)
    stale = []
    for path, text in files.items():
        old = open(path, encoding="utf-8").read() if os.path.exists(path) else None
        if old == text:
            continue
        if args.check:
            stale.append(os.path.relpath(path, ROOT))
        else:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
            print(f"wrote {os.path.relpath(path, ROOT)}")
    if stale:
        print("stale (run python3 bindings/rust/dccuda-sys/generate.py and commit): " + ", ".join(stale))
        return 1
    if args.check:
        print("generated files are current")
    return 0


if __name__ == "__main__":
    sys.exit(main())
