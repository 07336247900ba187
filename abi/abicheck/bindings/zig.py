"""The Zig binding (bindings/zig): `extern "dccuda" fn` / `pub extern fn` declarations.

Every .zig file under bindings/zig is read (layout.zig too; it declares no externs). The
effective name is the fn's name (`@"..."` identifiers included). Declarations for another
library (`extern "c" fn ...`) are skipped. `const X = ...;` aliases, `opaque {}` handles,
`enum(i32)` and `packed struct(u32)` types of the module are resolved."""

from __future__ import annotations

import os
import re
from typing import Dict, List, Optional, Tuple

from ..context import Context
from ..util import files_under, read
from .common import BParam, Decl, Parsed, line_of, matching, split_top

PRIMITIVES = {
    "i8": "i8", "u8": "i8", "c_char": "i8",
    "i16": "i16", "u16": "i16", "c_short": "i16", "c_ushort": "i16",
    "i32": "i32", "u32": "i32", "c_int": "i32", "c_uint": "i32",
    "i64": "i64", "u64": "i64", "c_longlong": "i64", "c_ulonglong": "i64",
    "usize": "ptr", "isize": "ptr", "c_long": "long", "c_ulong": "long",
    "f32": "f32", "f64": "f64", "void": "void", "noreturn": "void", "bool": "bool",
    "anyopaque": "opaque",
}


def strip_zig(text: str) -> str:
    """Blanks // comments and \\\\ multi-line strings (Zig has no block comments)."""
    out = []
    for line in text.split("\n"):
        s = line.lstrip()
        if s.startswith("\\\\"):
            out.append("")
            continue
        i, res, in_str = 0, [], False
        while i < len(line):
            c = line[i]
            if in_str:
                res.append(c)
                if c == "\\":
                    res.append(line[i + 1:i + 2])
                    i += 2
                    continue
                if c == '"':
                    in_str = False
            elif c == '"':
                in_str = True
                res.append(c)
            elif line.startswith("//", i):
                break
            else:
                res.append(c)
            i += 1
        out.append("".join(res))
    return "\n".join(out)


class Types:
    def __init__(self) -> None:
        self.consts: Dict[str, str] = {}

    def collect(self, text: str) -> None:
        for m in re.finditer(r"\bconst\s+(@\"[^\"]+\"|\w+)\s*(?::\s*type\s*)?=\s*", text):
            name = m.group(1).strip('@"')
            start = m.end()
            # The value: up to the ';' at depth 0 (opaque {}, enum(i32) { ... }).
            depth, j = 0, start
            while j < len(text):
                ch = text[j]
                if ch in "({[":
                    depth += 1
                elif ch in ")}]":
                    depth -= 1
                elif ch == ";" and depth == 0:
                    break
                j += 1
            self.consts[name] = " ".join(text[start:j].split())

    def cls(self, t: str, depth: int = 0) -> str:
        t = " ".join(t.split())
        t = re.sub(r"\bcallconv\s*\([^)]*\)", "", t).strip()
        if depth > 10:
            return "?"
        if re.match(r"^\??\s*(\*|\[\s*\*)", t):
            return "ptr"
        if t.startswith("?"):
            # ?T is C-compatible only where T is a pointer (null is its niche).
            return "ptr" if self.cls(t[1:], depth + 1) == "ptr" else "?"
        if re.match(r"^(extern\s+|packed\s+)?struct\b", t):
            m = re.match(r"^packed\s+struct\s*\(\s*(\w+)\s*\)", t)
            return PRIMITIVES.get(m.group(1), "?") if m else "struct"
        m = re.match(r"^enum\s*\(\s*(\w+)\s*\)", t)
        if m:
            return PRIMITIVES.get(m.group(1), self.cls(m.group(1), depth + 1))
        if t.startswith("opaque"):
            return "opaque"
        if t.startswith("fn"):
            return "?"     # a bare fn type is comptime-only: a parameter needs *const fn
        base = t.split(".")[-1].strip('@"')
        if base in PRIMITIVES:
            return PRIMITIVES[base]
        if base in self.consts:
            return self.cls(self.consts[base], depth + 1)
        return "?"


_EXTERN = re.compile(r'\b(?:pub\s+)?extern\s*(?:"([^"]*)"\s*)?fn\s+(@"[^"]+"|\w+)\s*\(')


def parse_file(text: str, rel: str, types: Types) -> Tuple[List[Decl], List[str], List[str]]:
    decls, skipped, errors = [], [], []
    for m in _EXTERN.finditer(text):
        lib, fname = m.group(1), m.group(2).strip('@"')
        line = line_of(text, m.start())
        if lib is not None and "dccuda" not in lib:
            skipped.append(f"{rel}:{line}: extern \"{lib}\" fn {fname} is for another library: not checked")
            continue
        popen = m.end() - 1
        pclose = matching(text, popen)
        semi = text.find(";", pclose)
        ret_t = " ".join(re.sub(r"\b(callconv|align|linksection|addrspace)\s*\([^)]*\)", "",
                                text[pclose + 1:semi]).split())
        d = Decl(name=fname, file=rel, line=line, params=[], ret=BParam("return", ret_t, types.cls(ret_t)),
                 method=fname, how="fn name")
        cc = re.search(r"callconv\s*\(\s*\.(\w+)\s*\)", text[pclose + 1:semi])
        if cc and cc.group(1) not in ("C", "c"):
            d.problems.append(f"fn {fname}: callconv(.{cc.group(1)}): extern functions use the C convention")
        for k, ptext in enumerate(split_top(text[popen + 1:pclose])):
            if not ptext:
                continue
            ptext = re.sub(r"^(noalias|comptime)\s+", "", ptext.strip())
            if ptext == "...":
                d.problems.append(f"fn {fname}: variadic")
                continue
            if ":" not in ptext:
                errors.append(f"{rel}:{line}: fn {fname}: cannot read parameter {k + 1} `{ptext}`")
                continue
            pname, ptype = ptext.split(":", 1)
            ptype = " ".join(ptype.split())
            cls = types.cls(ptype)
            d.params.append(BParam(pname.strip(), ptype, cls))
            if cls in ("?", "long", "opaque"):
                d.problems.append(f"fn {fname} parameter {k + 1}: `{ptype}` "
                                  + ("is not the same size on every platform" if cls == "long" else
                                     "cannot be passed by value" if cls == "opaque" else
                                     "is a type this check cannot size (declare it in the module)"))
        if d.ret.cls in ("?", "long", "opaque"):
            d.problems.append(f"fn {fname}: return type `{ret_t}` cannot be sized")
        decls.append(d)
    return decls, skipped, errors


def parse(ctx: Context) -> Optional[List[Parsed]]:
    base = os.path.join(ctx.bindings_root, "zig")
    if not os.path.isdir(base):
        return None
    files = files_under(base, [".zig"])
    texts = {f: strip_zig(read(f)) for f in files}
    types = Types()
    for t in texts.values():
        types.collect(t)
    p = Parsed("zig", "zig", [])
    for f, t in texts.items():
        d, s, e = parse_file(t, ctx.rel(f), types)
        p.decls += d
        p.skipped += s
        p.errors += e
    if not os.path.isfile(os.path.join(base, "dccuda.zig")):
        p.errors.append(f"{ctx.rel(base)}/dccuda.zig does not exist")
    if not p.decls:
        p.errors.append(f"no extern fn declaration found under {ctx.rel(base)}")
    p.notes.append(f"{len(files)} .zig files read")
    return [p]
