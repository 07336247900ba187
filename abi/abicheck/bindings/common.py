"""What the SWIG check reads from generated C# (Decls: one per declared native entry point, with
the effective symbol name, the parameters' and return's size classes in abi/api.py's classes:
ptr, i8, i16, i32, i64, f32, f64, void, struct), abi/unbound.txt, and text helpers."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Set, Tuple

from ..context import BINDINGS, Context, api_mod
from ..report import Result
from ..util import read

CLASS_NAMES = api_mod.CLASS_NAMES
GENERATED = ("csharp", "rust", "zig")   # bindings whose raw layer abi/gen.py writes


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
        if b in GENERATED and ctx.api.function(name) is not None:
            u.errors.append(f"{rel}:{i}: `{b} {name}`: the {b} binding's declarations are generated from the "
                            "header (abi/gen.py) and bind every function: remove the line")
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
