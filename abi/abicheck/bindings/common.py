"""What every binding parser produces, and how it is held against the C API.

A parser turns a binding's source into Decls: one per declared native entry point, with the
effective symbol name, the parameters' and return's size classes (abi/api.py's classes:
ptr, i8, i16, i32, i64, f32, f64, void, struct) and where it was declared."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Set, Tuple

from ..context import BINDINGS, Context, api_mod
from ..report import Result
from ..util import read

CLASS_NAMES = api_mod.CLASS_NAMES


@dataclass
class BParam:
    name: str
    type: str       # as written in the binding
    cls: str


@dataclass
class Decl:
    name: str                   # the effective entry point (the symbol looked up)
    file: str
    line: int
    params: List[BParam]
    ret: BParam
    method: str = ""            # the binding's own name where it differs (C# method name)
    how: str = ""               # how the name was found ("EntryPoint", "method name", ...)
    library: str = ""           # the library named by the declaration, where it names one
    problems: List[str] = field(default_factory=list)   # things wrong whatever the C side says

    @property
    def where(self) -> str:
        return f"{self.file}:{self.line}"


def describe(cls: str) -> str:
    return CLASS_NAMES.get(cls, cls)


def compare(decl: Decl, ctx: Context, binding: str, exported: Set[str]) -> List[str]:
    """Everything wrong with one declaration."""
    out = [f"{binding}: {decl.where}: {p}" for p in decl.problems]
    if decl.method and decl.method != decl.name:
        label = f"`{decl.name}` (method {decl.method}, named by {decl.how})"
    else:
        label = f"`{decl.name}`"
    if decl.name not in exported:
        hint = ""
        if decl.how == "method name":
            label = f"`{decl.name}` (the method's own name: the attribute has no EntryPoint)"
            hint = ": add EntryPoint = \"dc_...\" to the attribute"
        near = [n for n in exported if decl.name.startswith(n) or n.startswith(decl.name)]
        if near:
            hint += f" (did you mean {', '.join(sorted(near)[:3])}?)"
        out.append(f"{binding}: {decl.where}: entry point {label} is not exported by libdccuda "
                   f"(not in {ctx.rel(ctx.symbols_file)}){hint}: the call would fail at run time "
                   "with EntryPointNotFoundException / an undefined symbol")
        return out
    fn = ctx.api.function(decl.name)
    if fn is None:
        out.append(f"{binding}: {decl.where}: {label} is exported but not declared in {ctx.rel(ctx.header)}")
        return out
    cproto = ", ".join(f"{p.type.c} {p.name}" for p in fn.params) or "void"
    if len(decl.params) != len(fn.params):
        out.append(f"{binding}: {decl.where}: {label} has {len(decl.params)} parameters, the C prototype "
                   f"has {len(fn.params)}: {fn.ret.c} {fn.name}({cproto})")
        return out
    for i, (bp, cp) in enumerate(zip(decl.params, fn.params)):
        if bp.cls != cp.type.cls:
            out.append(f"{binding}: {decl.where}: {label} parameter {i + 1} (`{cp.name}`): C `{cp.type.c}` "
                       f"({describe(cp.type.cls)}) but {binding} `{bp.type}` ({describe(bp.cls)})")
    if decl.ret.cls != fn.ret.cls:
        out.append(f"{binding}: {decl.where}: {label} returns {binding} `{decl.ret.type}` "
                   f"({describe(decl.ret.cls)}), C returns `{fn.ret.c}` ({describe(fn.ret.cls)})")
    return out


# ---------------------------------------------------------------------------
# abi/unbound.txt: `binding name reason...`, one per line; `#` starts a comment.

@dataclass
class Unbound:
    entries: Dict[str, Dict[str, str]]          # binding -> name -> reason
    lines: Dict[Tuple[str, str], int]
    errors: List[str]

    def has(self, binding: str, name: str) -> bool:
        return name in self.entries.get(binding, {})


def read_unbound(ctx: Context) -> Unbound:
    u = Unbound({b: {} for b in BINDINGS}, {}, [])
    path = ctx.unbound_file
    if not path or not os.path.isfile(path):
        return u
    rel = ctx.rel(path)
    for i, raw in enumerate(read(path).splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        parts = line.split(None, 2)
        if len(parts) < 3:
            u.errors.append(f"{rel}:{i}: `{line}`: expected `binding function reason`")
            continue
        b, name, reason = parts
        if b not in BINDINGS:
            u.errors.append(f"{rel}:{i}: unknown binding `{b}` (one of {', '.join(BINDINGS)})")
            continue
        if ctx.api.function(name) is None and ctx.api.struct(name) is None:
            u.errors.append(f"{rel}:{i}: `{name}` is neither a function nor a struct of {ctx.rel(ctx.header)}: "
                            "remove the line")
            continue
        u.entries[b][name] = reason
        u.lines[(b, name)] = i
    return u


def strip_c_like_comments(text: str, nested: bool = False) -> str:
    """Blanks // and /* */ comments (nested ones for Rust), keeping strings, offsets and lines."""
    out = list(text)
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            for k in range(i, j):
                out[k] = " "
            i = j
        elif text.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if nested and text.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif text.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            for k in range(i, j):
                if out[k] != "\n":
                    out[k] = " "
            i = j
        elif c == '"':
            verbatim = i > 0 and text[i - 1] == "@"
            j = i + 1
            while j < n:
                if verbatim and text.startswith('""', j):
                    j += 2
                    continue
                if not verbatim and text[j] == "\\":
                    j += 2
                    continue
                if text[j] == '"':
                    break
                j += 1
            i = j + 1
        elif c == "'":
            m = re.match(r"'(\\.|[^\\'\n])'", text[i:i + 12])
            i += len(m.group(0)) if m else 1
        else:
            i += 1
    return "".join(out)


def split_top(s: str, sep: str = ",") -> List[str]:
    """Splits at `sep` outside (), [], {} and <> (generics)."""
    parts, cur, depth = [], [], 0
    for i, ch in enumerate(s):
        if ch in "([{<":
            depth += 1
        elif ch in ")]}>" and not (ch == ">" and i > 0 and s[i - 1] == "-"):
            depth -= 1
        if ch == sep and depth == 0:
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    if "".join(cur).strip() or parts:
        parts.append("".join(cur))
    return [p.strip() for p in parts]


def matching(text: str, i: int) -> int:
    """Index of the bracket closing text[i]."""
    pairs = {"(": ")", "[": "]", "{": "}", "<": ">"}
    o, c = text[i], pairs[text[i]]
    depth = 0
    for j in range(i, len(text)):
        if text[j] == o:
            depth += 1
        elif text[j] == c:
            depth -= 1
            if depth == 0:
                return j
    return len(text) - 1


def line_of(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


@dataclass
class Parsed:
    """One binding (or one view of it, such as C#'s LibraryImport view)."""

    binding: str                # key in abi/unbound.txt
    label: str                  # as shown in the report
    decls: List[Decl]
    skipped: List[str] = field(default_factory=list)   # declarations for other libraries
    errors: List[str] = field(default_factory=list)    # could not parse
    notes: List[str] = field(default_factory=list)


def check_parsed(ctx: Context, p: Parsed, unbound: Unbound, result: Result) -> None:
    """Declarations against the exported list and the prototypes, then coverage."""
    exported = ctx.exported()
    for e in p.errors:
        result.fail(f"{p.label}: {e}")
    bad = 0
    for d in p.decls:
        msgs = compare(d, ctx, p.label, exported)
        bad += bool(msgs)
        for m in msgs:
            result.fail(m)
    bound = {d.name for d in p.decls}
    missing = [n for n in sorted(exported) if n not in bound and not unbound.has(p.binding, n)]
    for n in missing:
        fn = ctx.api.function(n)
        where = f" ({ctx.rel(ctx.header)}:{fn.line})" if fn else ""
        result.fail(f"{p.label}: `{n}`{where} is exported but not bound: declare it, or list "
                    f"`{p.binding} {n} <reason>` in {ctx.rel(ctx.unbound_file)}")
    for name, reason in sorted(unbound.entries.get(p.binding, {}).items()):
        if name in bound:
            line = unbound.lines[(p.binding, name)]
            result.fail(f"{ctx.rel(ctx.unbound_file)}:{line}: `{p.binding} {name}` is listed as not bound, "
                        f"but {p.label} binds it: remove the line")
        elif ctx.api.function(name):
            result.note(f"not bound on purpose: {name} ({reason})")
    for s in p.skipped:
        result.note(s)
    for s in p.notes:
        result.note(s)
    n_unbound = len([n for n in exported if unbound.has(p.binding, n) and n not in bound])
    result.finish(f"{len(p.decls)} declarations ({len(bound)} entry points), {bad} wrong; "
                  f"{len(bound & exported)}/{len(exported)} exported functions bound"
                  + (f", {n_unbound} not bound on purpose" if n_unbound else "")
                  + (f", {len(missing)} missing" if missing else ""))
