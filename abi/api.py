#!/usr/bin/env python3
"""The public C API of dccuda, read from include/dccuda.h (Python 3 standard library only).

The header is the one source of truth for the ABI. This module turns it into data that the
ABI check (abi/check_abi.py) and the bindings can compare themselves against: every DC_API
function with its return and parameter types, every public struct with its fields and their
layout, the handle and callback typedefs, the numeric #define constants and the version.

Use it as a module:

    import sys; sys.path.insert(0, "abi")
    import api
    a = api.parse_header("include/dccuda.h")
    for f in a.functions:
        print(f.name, f.ret.c, [(p.name, p.type.c, p.type.cls) for p in f.params])
    a.struct("dc_arg").size, [(x.name, x.offset) for x in a.struct("dc_arg").fields]
    a.problems          # what the parser could not place: the header check fails on these

or from the command line:

    python3 abi/api.py                 # a summary
    python3 abi/api.py --json          # everything, as JSON (see to_json() for the shape)
    python3 abi/api.py --symbols       # the exported function names, sorted
    python3 abi/api.py --header other/dccuda.h --json

Size classes (Type.cls) are what a foreign declaration must match, whatever its spelling:
    ptr     a pointer of any kind, a handle, a function pointer
    i8 i16 i32 i64   an integer of that width (signedness is not part of the class)
    f32 f64 float and double
    void    no value (returns only)
    struct  a struct passed by value (the API has none; any binding that needs one is wrong)
    ?       a type this parser does not know (reported in problems)

Layouts (Struct.size / align, Field.offset / size) follow the C rules of the 64-bit targets
dccuda supports (x86_64 and aarch64, LP64 and LLP64 alike for these types: the API has no
`long`). The ABI check compares them with what the C compiler says.
"""

from __future__ import annotations

import argparse
import ast
import bisect
import json
import os
import re
import sys
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Tuple

CLASS_NAMES = {
    "ptr": "pointer",
    "i8": "8-bit int",
    "i16": "16-bit int",
    "i32": "32-bit int",
    "i64": "64-bit int",
    "f32": "float",
    "f64": "double",
    "void": "void",
    "struct": "struct by value",
    "bool": "bool",
    "?": "unknown type",
}

# Sizes of the classes on every 64-bit target dccuda supports.
CLASS_SIZE = {"ptr": 8, "i8": 1, "i16": 2, "i32": 4, "i64": 8, "f32": 4, "f64": 8}

# Fixed-width and floating types the ABI allows. `char` is allowed for strings
# (const char*) and character arrays.
ALLOWED_BASE = {
    "int8_t": "i8", "uint8_t": "i8", "char": "i8",
    "int16_t": "i16", "uint16_t": "i16",
    "int32_t": "i32", "uint32_t": "i32",
    "int64_t": "i64", "uint64_t": "i64",
    "float": "f32", "double": "f64",
    "void": "void",
}

# Types the ABI forbids. They are still classified (as on LP64 Linux) so that the rest of
# the check can go on; the header check reports each use.
FORBIDDEN_BASE = {
    "bool": ("bool", "its size and calling convention differ between C, C++, C# and Zig"),
    "_Bool": ("bool", "its size and calling convention differ between C, C++, C# and Zig"),
    "long": ("i64", "it is 64-bit on Linux and 32-bit on Windows"),
    "size_t": ("i64", "use uint64_t: size_t changes with the platform and has no fixed C# type"),
    "ssize_t": ("i64", "use int64_t"),
    "ptrdiff_t": ("i64", "use int64_t"),
    "intptr_t": ("ptr", "use uint64_t or a pointer"),
    "uintptr_t": ("ptr", "use uint64_t or a pointer"),
    "wchar_t": ("i32", "its size differs between platforms"),
    "int": ("i32", "use int32_t"),
    "short": ("i16", "use int16_t"),
    "unsigned": ("i32", "use uint32_t"),
    "signed": ("i32", "use int32_t"),
}

QUALIFIERS = {"const", "volatile", "restrict", "__restrict", "struct"}

_TOKEN_RE = re.compile(
    r"""(?P<ws>\s+)
      | (?P<id>[A-Za-z_][A-Za-z0-9_]*)
      | (?P<num>(?:0[xX][0-9A-Fa-f]+|\d+)[uUlL]*)
      | (?P<str>"(?:\\.|[^"\\])*")
      | (?P<chr>'(?:\\.|[^'\\])*')
      | (?P<punct>\.\.\.|::|->|[{}()\[\];,*=:<>&|+\-/~!?.^%#])
    """,
    re.VERBOSE,
)


@dataclass
class Type:
    """A C type as written (`c`), its size class (`cls`) and, for structs, the struct name."""

    c: str
    cls: str
    base: str = ""
    pointer_depth: int = 0
    array: List[int] = field(default_factory=list)

    def to_json(self) -> dict:
        d = {"c": self.c, "class": self.cls, "base": self.base, "pointer_depth": self.pointer_depth}
        if self.array:
            d["array"] = self.array
        return d


Annotation = Tuple[str, Optional[List[str]]]   # ("DC_ARRAY", ["size"]), ("DC_OUT", None)


@dataclass
class Param:
    name: str
    type: Type
    annotations: List[Annotation] = field(default_factory=list)   # as written (api_model reads them)
    model: Optional["object"] = None    # api_model.ParamModel once the annotations are read

    def to_json(self) -> dict:
        d = {"name": self.name, **self.type.to_json()}
        if self.model is not None:
            d["model"] = self.model.to_json()
        return d


@dataclass
class Function:
    name: str
    ret: Type
    params: List[Param]
    line: int
    doc: str = ""
    ret_annotations: List[Annotation] = field(default_factory=list)
    model: Optional["object"] = None    # api_model.FunctionModel once the annotations are read

    def param(self, name: str) -> Optional[Param]:
        return next((p for p in self.params if p.name == name), None)

    def to_json(self) -> dict:
        d = {"name": self.name, "return": self.ret.to_json(),
             "params": [p.to_json() for p in self.params], "line": self.line, "doc": self.doc}
        if self.model is not None:
            d["model"] = self.model.to_json()
        return d


@dataclass
class Field:
    name: str
    type: Type
    offset: int = 0
    size: int = 0
    align: int = 0
    bitfield: Optional[str] = None
    annotations: List[Annotation] = field(default_factory=list)
    line: int = 0
    model: Optional["object"] = None    # api_model.ParamModel (fields are read as parameters are)

    def to_json(self) -> dict:
        d = {"name": self.name, **self.type.to_json(), "offset": self.offset,
             "size": self.size, "align": self.align}
        if self.model is not None:
            d["model"] = self.model.to_json()
        return d


@dataclass
class Struct:
    name: str
    fields: List[Field]
    line: int
    size: int = 0
    align: int = 0
    doc: str = ""

    @property
    def growable(self) -> bool:
        """Starts with `uint32_t struct_size` (grows at the end, has a DC_*_INIT macro)."""
        return bool(self.fields) and self.fields[0].name == "struct_size"

    def field(self, name: str) -> Optional[Field]:
        return next((f for f in self.fields if f.name == name), None)

    def to_json(self) -> dict:
        return {"name": self.name, "size": self.size, "align": self.align, "line": self.line,
                "growable": self.growable, "fields": [f.to_json() for f in self.fields]}


@dataclass
class Callback:
    """`typedef R (*name)(params)`: a function pointer type (class ptr)."""

    name: str
    ret: Type
    params: List[Param]
    line: int

    def to_json(self) -> dict:
        return {"name": self.name, "return": self.ret.to_json(),
                "params": [p.to_json() for p in self.params], "line": self.line}


@dataclass
class Macro:
    name: str
    params: Optional[List[str]]  # None: object-like
    body: str
    line: int
    value: Optional[int] = None  # numeric constants only

    def to_json(self) -> dict:
        d = {"name": self.name, "body": self.body, "line": self.line}
        if self.params is not None:
            d["params"] = self.params
        if self.value is not None:
            d["value"] = self.value
        return d


@dataclass
class Problem:
    line: int
    message: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.message}"


@dataclass
class Api:
    header: str
    functions: List[Function] = field(default_factory=list)
    structs: List[Struct] = field(default_factory=list)
    handles: Dict[str, str] = field(default_factory=dict)      # typedef name -> struct tag
    callbacks: List[Callback] = field(default_factory=list)
    typedefs: Dict[str, Type] = field(default_factory=dict)    # scalar typedefs (dc_status)
    macros: List[Macro] = field(default_factory=list)
    problems: List[Problem] = field(default_factory=list)
    forbidden: List[Problem] = field(default_factory=list)     # uses of forbidden types/constructs
    markers: List[Tuple[int, List[str]]] = field(default_factory=list)   # DC_CONSTANTS(...) lines and arguments
    text: str = ""                                              # the header as read
    comments: List[Tuple[int, int, str]] = field(default_factory=list)
    families: List["object"] = field(default_factory=list)     # api_model.Family, in header order
    model_problems: List[Problem] = field(default_factory=list)   # what the annotations leave unsaid
    sections: List[Tuple[int, str]] = field(default_factory=list)  # (line, title) of each banner comment

    def function(self, name: str) -> Optional[Function]:
        return next((f for f in self.functions if f.name == name), None)

    def struct(self, name: str) -> Optional[Struct]:
        return next((s for s in self.structs if s.name == name), None)

    def macro(self, name: str) -> Optional[Macro]:
        return next((m for m in self.macros if m.name == name), None)

    @property
    def constants(self) -> Dict[str, int]:
        return {m.name: m.value for m in self.macros if m.value is not None}

    @property
    def version(self) -> Tuple[int, int, int]:
        c = self.constants
        return (c.get("DCCUDA_VERSION_MAJOR", -1), c.get("DCCUDA_VERSION_MINOR", -1),
                c.get("DCCUDA_VERSION_PATCH", -1))

    @property
    def version_string(self) -> str:
        return "%d.%d.%d" % self.version

    def symbols(self) -> List[str]:
        return sorted(f.name for f in self.functions)

    def to_json(self) -> dict:
        return {
            "header": self.header,
            "version": self.version_string,
            "functions": [f.to_json() for f in self.functions],
            "structs": [s.to_json() for s in self.structs],
            "handles": self.handles,
            "callbacks": [c.to_json() for c in self.callbacks],
            "typedefs": {k: v.to_json() for k, v in self.typedefs.items()},
            "constants": self.constants,
            "macros": [m.to_json() for m in self.macros],
            "problems": [str(p) for p in self.problems],
            "forbidden": [str(p) for p in self.forbidden],
            "families": [f.to_json() for f in self.families],
            "model_problems": [str(p) for p in self.model_problems],
        }

    def family(self, name: str):
        return next((f for f in self.families if f.name == name), None)


# ---------------------------------------------------------------------------
# Text preparation: comments and directives become blanks of the same length, so that
# offsets (and so line numbers and doc comments) stay those of the file.

def _blank(s: str) -> str:
    return re.sub(r"[^\n]", " ", s)


def strip_comments(text: str) -> Tuple[str, List[Tuple[int, int, str]]]:
    """Returns the text with comments blanked out, and the comments (start, end, text)."""
    out = []
    comments = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            comments.append((i, j, text[i:j]))
            out.append(_blank(text[i:j]))
            i = j
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            comments.append((i, j, text[i:j]))
            out.append(_blank(text[i:j]))
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(text[i:j + 1])
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out), comments


def _directives(code: str) -> List[Tuple[int, int, str]]:
    """(start, end, logical text) of each preprocessor directive, continuations joined."""
    result = []
    for m in re.finditer(r"(?m)^[ \t]*#(?:[^\n]*\\\n)*[^\n]*", code):
        result.append((m.start(), m.end(), re.sub(r"\\\n", " ", m.group(0)).strip()))
    return result


def _condition_is_cplusplus(kind: str, expr: str) -> Optional[bool]:
    """Truth of a conditional that tests __cplusplus (we parse the C view), else None."""
    expr = expr.strip()
    if "__cplusplus" not in expr:
        return None
    if kind == "ifdef":
        return False
    if kind == "ifndef":
        return True
    e = re.sub(r"\s+", "", expr)
    if e in ("defined(__cplusplus)", "defined__cplusplus", "__cplusplus"):
        return False
    if e in ("!defined(__cplusplus)", "!defined__cplusplus", "!__cplusplus"):
        return True
    return None


class _Lines:
    def __init__(self, text: str):
        self.starts = [0] + [m.end() for m in re.finditer(r"\n", text)]

    def line(self, offset: int) -> int:
        return bisect.bisect_right(self.starts, offset)


def prepare(text: str, api: Optional[Api] = None) -> Tuple[str, List[Tuple[int, int, str]]]:
    """Blank comments, directives and the C++-only parts (`#ifdef __cplusplus`), so that
    what is left is the C view of the header. Other conditionals keep every branch (public
    declarations must not depend on the platform). Collects #defines into `api`.
    Returns the code and the comments."""
    code, comments = strip_comments(text)
    lines = _Lines(text)
    chars = list(code)
    # One frame per open conditional: [active outside it, tests __cplusplus, branch truth].
    stack: List[list] = []

    def active() -> bool:
        return all(f[0] and (f[2] if f[1] else True) for f in stack)

    prev_end, prev_active = 0, True
    for start, end, d in _directives(code):
        if not prev_active:
            for k in range(prev_end, start):
                if chars[k] != "\n":
                    chars[k] = " "
        m = re.match(r"#\s*(\w+)\s*(.*)", d, re.S)
        kind, rest = (m.group(1), m.group(2)) if m else ("", "")
        if kind in ("if", "ifdef", "ifndef"):
            truth = _condition_is_cplusplus(kind, rest)
            stack.append([active(), truth is not None, bool(truth)])
        elif kind in ("else", "elif") and stack and stack[-1][1]:
            stack[-1][2] = not stack[-1][2]
        elif kind == "endif" and stack:
            stack.pop()
        elif kind == "define" and active() and api is not None:
            _record_macro(api, rest, lines.line(start))
        for k in range(start, end):
            if chars[k] != "\n":
                chars[k] = " "
        prev_end, prev_active = end, active()
    if not prev_active:
        for k in range(prev_end, len(chars)):
            if chars[k] != "\n":
                chars[k] = " "
    return "".join(chars), comments


def _record_macro(api: Api, rest: str, line: int) -> None:
    m = re.match(r"([A-Za-z_]\w*)(\(([^)]*)\))?\s*(.*)", rest, re.S)
    if not m:
        return
    name, params, body = m.group(1), m.group(3), m.group(4).strip()
    mac = Macro(name=name, params=[p.strip() for p in params.split(",") if p.strip()] if m.group(2) else None,
                body=body, line=line)
    if mac.params is None:
        mac.value = _eval_constant(body, api.constants)
    api.macros.append(mac)


class _ConstEval(ast.NodeVisitor):
    def __init__(self, names: Dict[str, int]):
        self.names = names

    def visit(self, node):  # noqa: D401 - restricted evaluator
        if isinstance(node, ast.Expression):
            return self.visit(node.body)
        if isinstance(node, ast.Constant) and isinstance(node.value, int):
            return node.value
        if isinstance(node, ast.Name) and node.id in self.names:
            return self.names[node.id]
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd, ast.Invert)):
            v = self.visit(node.operand)
            return -v if isinstance(node.op, ast.USub) else (v if isinstance(node.op, ast.UAdd) else ~v)
        if isinstance(node, ast.BinOp):
            a, b = self.visit(node.left), self.visit(node.right)
            ops = {ast.Add: lambda: a + b, ast.Sub: lambda: a - b, ast.Mult: lambda: a * b,
                   ast.LShift: lambda: a << b, ast.RShift: lambda: a >> b, ast.BitOr: lambda: a | b,
                   ast.BitAnd: lambda: a & b, ast.FloorDiv: lambda: a // b}
            for k, f in ops.items():
                if isinstance(node.op, k):
                    return f()
        raise ValueError("not a constant")


def _eval_constant(body: str, names: Dict[str, int]) -> Optional[int]:
    """The value of a numeric #define (1, (-3), 0x1u, A * 1000 + B), else None."""
    if not body:
        return None
    expr = re.sub(r"\b(0[xX][0-9A-Fa-f]+|\d+)[uUlL]+\b", r"\1", body)
    expr = expr.replace("/", "//")
    if re.search(r"[^\w\s()+\-*<>|&~/]", expr):
        return None
    try:
        return int(_ConstEval(names).visit(ast.parse(expr, mode="eval")))
    except (ValueError, SyntaxError, TypeError, ZeroDivisionError):
        return None


# ---------------------------------------------------------------------------
# Tokens and declarations

@dataclass
class _Tok:
    kind: str
    text: str
    pos: int


def tokenize(code: str) -> List[_Tok]:
    toks = []
    for m in _TOKEN_RE.finditer(code):
        kind = m.lastgroup
        if kind == "ws":
            continue
        toks.append(_Tok(kind, m.group(0), m.start()))
    return toks


def _statements(toks: List[_Tok]) -> List[List[_Tok]]:
    """Top-level statements, split at ';' outside braces and parentheses; `extern "C" {`
    wrappers (if any survive) are dropped."""
    out, cur, depth = [], [], 0
    for t in toks:
        if t.text in "({[":
            depth += 1
        elif t.text in ")}]":
            depth -= 1
        if t.text == ";" and depth == 0:
            if cur:
                out.append(cur)
            cur = []
            continue
        cur.append(t)
    if cur:
        out.append(cur)
    return out


def _split_commas(toks: List[_Tok]) -> List[List[_Tok]]:
    parts, cur, depth = [], [], 0
    for t in toks:
        if t.text in "([{":
            depth += 1
        elif t.text in ")]}":
            depth -= 1
        if t.text == "," and depth == 0:
            parts.append(cur)
            cur = []
        else:
            cur.append(t)
    if cur or parts:
        parts.append(cur)
    return parts


def _matching(toks: List[_Tok], i: int) -> int:
    """Index of the bracket closing the one at toks[i]."""
    pairs = {"(": ")", "{": "}", "[": "]"}
    open_, close = toks[i].text, pairs[toks[i].text]
    depth = 0
    for j in range(i, len(toks)):
        if toks[j].text == open_:
            depth += 1
        elif toks[j].text == close:
            depth -= 1
            if depth == 0:
                return j
    return len(toks) - 1


# The header's annotations (its conventions block, "Annotations"): macros that expand to
# nothing. The parser takes them out of declarations and keeps them as written; api_model.py
# says what they mean and what is missing.
ANNOTATIONS = {"DC_IN": 0, "DC_OUT": 0, "DC_INOUT": 0, "DC_NULLABLE": 0, "DC_ARRAY": 1, "DC_OWNED": 0,
               "DC_BORROWED": 0, "DC_LIFETIME": 1, "DC_FAMILY": 1, "DC_NATIVE": 0, "DC_USER_DATA": 0,
               "DC_INFALLIBLE": 0}
MARKER = "DC_CONSTANTS"


def take_annotations(toks: List[_Tok]) -> Tuple[List[_Tok], List[Tuple[str, Optional[List[str]]]], List[str]]:
    """The tokens without annotations, the annotations (name, arguments or None), and what was
    malformed (an annotation without its parenthesised argument)."""
    rest, found, bad = [], [], []
    i = 0
    while i < len(toks):
        t = toks[i]
        if t.kind == "id" and t.text in ANNOTATIONS:
            if ANNOTATIONS[t.text]:
                if i + 1 < len(toks) and toks[i + 1].text == "(":
                    j = _matching(toks, i + 1)
                    args = [_join(a) for a in _split_commas(toks[i + 2:j])]
                    found.append((t.text, args))
                    i = j + 1
                    continue
                bad.append(f"{t.text} needs an argument: {t.text}(...)")
                found.append((t.text, []))
            else:
                found.append((t.text, None))
            i += 1
            continue
        rest.append(t)
        i += 1
    return rest, found, bad


def take_markers(toks: List[_Tok]) -> Tuple[List[_Tok], List[Tuple[_Tok, List[str]]]]:
    """Top-level DC_CONSTANTS(...) markers out of the token stream (they end with no `;`)."""
    rest, markers = [], []
    i = 0
    while i < len(toks):
        t = toks[i]
        if t.kind == "id" and t.text == MARKER and i + 1 < len(toks) and toks[i + 1].text == "(":
            j = _matching(toks, i + 1)
            markers.append((t, [_join(a) for a in _split_commas(toks[i + 2:j])]))
            i = j + 1
            continue
        rest.append(t)
        i += 1
    return rest, markers


def _join(toks: List[_Tok]) -> str:
    s = " ".join(t.text for t in toks)
    s = re.sub(r"\s*\*", "*", s)
    s = re.sub(r"\*(?=\w)", "* ", s)
    return s.strip()


class _Parser:
    def __init__(self, api: Api, text: str, code: str, comments: List[Tuple[int, int, str]]):
        self.api = api
        self.text = text
        self.code = code
        self.lines = _Lines(text)
        self.comments = comments
        self.comment_ends = [c[1] for c in comments]

    def line(self, tok: _Tok) -> int:
        return self.lines.line(tok.pos)

    def problem(self, tok: _Tok, msg: str) -> None:
        self.api.problems.append(Problem(self.line(tok), msg))

    def forbidden(self, tok: _Tok, msg: str) -> None:
        self.api.forbidden.append(Problem(self.line(tok), msg))

    def doc_before(self, pos: int) -> str:
        """The comment that ends right before `pos` (only blanks between), cleaned up."""
        k = bisect.bisect_right(self.comment_ends, pos) - 1
        if k < 0:
            return ""
        start, end, text = self.comments[k]
        if self.code[end:pos].strip():
            return ""
        body = re.sub(r"^/\*+|\*+/$|^//", "", text.strip())
        lines = [re.sub(r"^\s*\*?\s?", "", ln).rstrip() for ln in body.splitlines()]
        return "\n".join(lines).strip()

    # -- types --------------------------------------------------------------
    def resolve_base(self, base: str, tok: _Tok, context: str) -> Tuple[str, str]:
        """(class, canonical name) of a base type name."""
        if base in ALLOWED_BASE:
            return ALLOWED_BASE[base], base
        words = base.split()
        bad = [w for w in words if w in FORBIDDEN_BASE]
        if bad:
            for w in bad:
                self.forbidden(tok, f"{context}: `{w}` in `{base}`: {FORBIDDEN_BASE[w][1]}")
            if "long" in words and words.count("long") == 1 and "unsigned" not in words and len(words) == 1:
                return "i64", base
            if words.count("long") >= 1:
                return "i64", base
            if "short" in words:
                return "i16", base
            if "char" in words:
                return "i8", base
            return FORBIDDEN_BASE[bad[0]][0], base
        if base in self.api.handles:
            return "ptr", base
        if any(c.name == base for c in self.api.callbacks):
            return "ptr", base
        if base in self.api.typedefs:
            return self.api.typedefs[base].cls, base
        if self.api.struct(base) is not None:
            return "struct", base
        self.problem(tok, f"{context}: unknown type `{base}` (only fixed-width integers, float, "
                          "double, pointers, handles and the header's own typedefs may cross the ABI)")
        return "?", base

    def parse_type(self, toks: List[_Tok], context: str, want_name: bool) -> Tuple[Type, str]:
        """A declarator: type tokens, optional name, optional array suffix. Function
        pointers written in place are class ptr."""
        if not toks:
            return Type("", "?"), ""
        arrays: List[int] = []
        while toks and toks[-1].text == "]":
            k = len(toks) - 1
            while k >= 0 and toks[k].text != "[":
                k -= 1
            inner = toks[k + 1:-1]
            size = _eval_constant(" ".join(t.text for t in inner), self.api.constants)
            if size is None:
                self.problem(toks[k], f"{context}: array size `{_join(inner)}` is not a constant")
                size = 0
            arrays.insert(0, size)
            toks = toks[:k]
        if any(t.text == "(" for t in toks):
            # In-place function pointer: R (*name)(params)
            name = ""
            for i, t in enumerate(toks):
                if t.text == "(" and i + 2 < len(toks) and toks[i + 1].text == "*":
                    name = toks[i + 2].text if toks[i + 2].kind == "id" else ""
                    break
            return Type(_join(toks), "ptr", base="fn", pointer_depth=1, array=arrays), name
        name = ""
        ids = [t for t in toks if t.kind == "id"]
        if want_name and len(toks) >= 2 and toks[-1].kind == "id" and toks[-1].text not in QUALIFIERS:
            # The last identifier is the name unless it is all there is besides qualifiers.
            type_ids = [t for t in ids[:-1] if t.text not in QUALIFIERS]
            if type_ids:
                name = toks[-1].text
                toks = toks[:-1]
        depth = sum(1 for t in toks if t.text == "*")
        for t in toks:
            if t.kind not in ("id",) and t.text != "*":
                self.problem(t, f"{context}: unexpected `{t.text}` in a type")
        base_words = [t.text for t in toks if t.kind == "id" and t.text not in QUALIFIERS]
        for t in toks:
            if t.text in ("enum", "union"):
                self.forbidden(t, f"{context}: `{t.text}` type: the ABI uses int32_t with #define'd constants"
                               if t.text == "enum" else f"{context}: unions are not allowed in the ABI")
        base = " ".join(w for w in base_words if w not in ("enum", "union"))
        cls, base = self.resolve_base(base, toks[0], context) if base else ("?", "")
        if not base:
            self.problem(toks[0], f"{context}: no type")
        if depth:
            cls = "ptr"
        text = _join(toks) + "".join(f"[{n}]" for n in arrays)
        return Type(text, cls, base=base, pointer_depth=depth, array=arrays), name

    def parse_params(self, toks: List[_Tok], context: str) -> List[Param]:
        if not toks:
            return []   # `()`: the caller reports it
        parts = _split_commas(toks)
        if len(parts) == 1 and [t.text for t in parts[0]] == ["void"]:
            return []
        params = []
        for i, p in enumerate(parts):
            if not p:
                continue
            if p[0].text == "...":
                self.problem(p[0], f"{context}: variadic functions cannot be bound by every language")
                continue
            p, anns, bad = take_annotations(p)
            for b in bad:
                self.problem(p[0] if p else parts[0][0], f"{context} parameter {i + 1}: {b}")
            if not p:
                self.problem(parts[i][0], f"{context} parameter {i + 1}: only annotations, no type")
                continue
            ty, name = self.parse_type(p, f"{context} parameter {i + 1}", want_name=True)
            if ty.array:
                ty = Type(ty.c, "ptr", base=ty.base, pointer_depth=ty.pointer_depth + 1, array=ty.array)
            params.append(Param(name or f"arg{i + 1}", ty, annotations=anns))
        return params

    # -- statements ---------------------------------------------------------
    def statement(self, st: List[_Tok]) -> None:
        words = [t.text for t in st]
        if words[:2] == ["extern", '"C"']:
            return
        if words[0] == "typedef":
            self.typedef(st)
        elif words[0] == "DC_API":
            self.function(st)
        elif words[0] in ("struct", "union", "enum") and "{" in words:
            if words[0] == "union":
                self.forbidden(st[0], "union: unions are not allowed in the ABI")
            elif words[0] == "enum":
                if len(st) > 1 and st[1].text != "{":
                    self.forbidden(st[0], f"enum type `{st[1].text}`: the ABI uses int32_t with "
                                          "#define'd constants (an anonymous enum of constants is fine)")
            else:
                self.struct(st, st[1].text if st[1].kind == "id" else "")
        elif "(" in words:
            self.problem(st[0], f"function `{self._fn_name(st)}` is declared without DC_API: "
                                "it would not be exported")
        else:
            self.problem(st[0], f"unrecognised declaration `{_join(st)[:60]}`")

    @staticmethod
    def _fn_name(st: List[_Tok]) -> str:
        for i, t in enumerate(st):
            if t.text == "(" and i > 0:
                return st[i - 1].text
        return "?"

    def typedef(self, st: List[_Tok]) -> None:
        words = [t.text for t in st]
        if len(words) >= 3 and words[1] in ("struct", "union", "enum") and "{" in words:
            if words[1] == "union":
                self.forbidden(st[1], f"union `{words[-1]}`: unions are not allowed in the ABI")
                return
            if words[1] == "enum":
                self.forbidden(st[1], f"enum type `{words[-1]}`: the ABI uses int32_t with #define'd constants")
                return
            self.struct(st[1:-1], st[-1].text, typedef_tok=st[-1])
            return
        if len(words) == 5 and words[1] == "struct" and words[3] == "*":
            self.api.handles[words[4]] = words[2]
            return
        if "(" in words:
            # typedef R (*name)(params)
            i = words.index("(")
            if i + 2 < len(words) and words[i + 1] == "*":
                name = words[i + 2]
                ret, _ = self.parse_type(st[1:i], f"typedef {name} return", want_name=False)
                j = _matching(st, i)
                if j + 1 < len(st) and st[j + 1].text == "(":
                    k = _matching(st, j + 1)
                    params = self.parse_params(st[j + 2:k], f"typedef {name}")
                    if k == j + 2:
                        self.problem(st[0], f"typedef {name}: `()` means unspecified parameters in C; write `(void)`")
                    self.api.callbacks.append(Callback(name, ret, params, self.line(st[0])))
                    return
            self.problem(st[0], f"unsupported typedef `{_join(st)[:60]}`")
            return
        if words[1] in ("union", "enum"):
            self.forbidden(st[1], f"typedef `{words[-1]}`: {words[1]} types are not allowed in the ABI")
            return
        ty, name = self.parse_type(st[1:], "typedef", want_name=True)
        if not name:
            self.problem(st[0], f"unsupported typedef `{_join(st)[:60]}`")
            return
        self.api.typedefs[name] = ty

    def struct(self, st: List[_Tok], name: str, typedef_tok: Optional[_Tok] = None) -> None:
        i = next(k for k, t in enumerate(st) if t.text == "{")
        j = _matching(st, i)
        tag = st[1].text if i >= 2 and st[1].kind == "id" else ""
        if not name:
            name = tag
        s = Struct(name=name, fields=[], line=self.line(st[0]), doc=self.doc_before(st[0].pos - len("typedef ")))
        if not s.doc:
            s.doc = self.doc_before(_back_to_line_start(self.code, st[0].pos))
        for decl in _statements(st[i + 1:j]):
            words = [t.text for t in decl]
            if words[0] in ("union", "struct", "enum") and "{" in words:
                self.forbidden(decl[0], f"struct {name}: nested {words[0]}: not allowed in the ABI")
                continue
            colon = [k for k, t in enumerate(decl) if t.text == ":"]
            bits = None
            if colon:
                bits = _join(decl[colon[0] + 1:])
                self.forbidden(decl[0], f"struct {name}: bit-field `{_join(decl)}`: bit-fields have "
                                        "no portable layout")
                decl = decl[:colon[0]]
            for k, part in enumerate(_split_commas(decl)):
                if k > 0:
                    self.problem(decl[0], f"struct {name}: declare one field per line")
                part, anns, bad = take_annotations(part)
                for b in bad:
                    self.problem(decl[0], f"struct {name}: {b}")
                if not part:
                    self.problem(decl[0], f"struct {name}: only annotations, no field")
                    continue
                ty, fname = self.parse_type(part, f"struct {name} field", want_name=True)
                if not fname:
                    self.problem(part[0], f"struct {name}: field without a name")
                    continue
                s.fields.append(Field(fname, ty, bitfield=bits, annotations=anns, line=self.line(part[0])))
        _layout(s, self.api)
        self.api.structs.append(s)

    def function(self, st: List[_Tok]) -> None:
        body = st[1:]
        # Annotations of the return value come first: DC_API DC_LIFETIME(static) const char* f(...).
        ret_anns = []
        while body and body[0].kind == "id" and body[0].text in ANNOTATIONS:
            k = 1
            args = None
            if ANNOTATIONS[body[0].text] and len(body) > 1 and body[1].text == "(":
                j = _matching(body, 1)
                args = [_join(a) for a in _split_commas(body[2:j])]
                k = j + 1
            elif ANNOTATIONS[body[0].text]:
                self.problem(body[0], f"{body[0].text} needs an argument: {body[0].text}(...)")
                args = []
            ret_anns.append((body[0].text, args))
            body = body[k:]
        if "(" not in [t.text for t in body]:
            self.problem(st[0], f"DC_API on something that is not a function: `{_join(st)[:60]}`")
            return
        i = next(k for k, t in enumerate(body) if t.text == "(")
        if i == 0 or body[i - 1].kind != "id":
            self.problem(st[0], f"unsupported declaration `{_join(st)[:60]}`")
            return
        name = body[i - 1].text
        j = _matching(body, i)
        if j + 1 < len(body):
            self.problem(body[j + 1], f"{name}: unexpected `{_join(body[j + 1:])}` after the parameters")
        if i - 1 == 0:
            self.problem(st[0], f"{name}: no return type")
            ret = Type("", "?")
        else:
            ret, _ = self.parse_type(body[:i - 1], f"{name} return type", want_name=False)
        if ret.array:
            self.problem(st[0], f"{name}: returns an array")
        params = self.parse_params(body[i + 1:j], name)
        if not body[i + 1:j]:
            self.problem(st[0], f"{name}: `()` means unspecified parameters in C; write `(void)`")
        for p in params:
            if p.type.cls == "struct":
                self.forbidden(st[0], f"{name}: parameter `{p.name}` passes struct {p.type.base} by value: "
                                      "pass a pointer")
        if ret.cls == "struct":
            self.forbidden(st[0], f"{name}: returns struct {ret.base} by value: use an out-pointer")
        if self.api.function(name):
            self.problem(st[0], f"{name}: declared twice")
            return
        self.api.functions.append(Function(name, ret, params, self.line(st[0]),
                                           self.doc_before(st[0].pos), ret_annotations=ret_anns))


def _back_to_line_start(code: str, pos: int) -> int:
    k = code.rfind("\n", 0, pos)
    return k + 1 if k >= 0 else 0


def _type_size_align(ty: Type, api: Api) -> Tuple[int, int]:
    if ty.cls == "struct":
        s = api.struct(ty.base)
        size, align = (s.size, s.align) if s else (0, 1)
    else:
        size = CLASS_SIZE.get(ty.cls, 0)
        align = size or 1
    n = 1
    for a in ty.array:
        n *= a
    return size * n, align


def _layout(s: Struct, api: Api) -> None:
    """C layout rules: each field at the next multiple of its alignment; the struct's size a
    multiple of its largest alignment."""
    offset, align = 0, 1
    for f in s.fields:
        f.size, f.align = _type_size_align(f.type, api)
        offset = (offset + f.align - 1) // f.align * f.align
        f.offset = offset
        offset += f.size
        align = max(align, f.align)
    s.size = (offset + align - 1) // align * align
    s.align = align


def parse_text(text: str, header: str = "<text>") -> Api:
    api = Api(header=header, text=text)
    code, comments = prepare(text, api)
    api.comments = comments
    parser = _Parser(api, text, code, comments)
    toks, markers = take_markers(tokenize(code))
    api.markers = [(parser.line(t), args) for t, args in markers]
    for st in _statements(toks):
        parser.statement(st)
    if api.version[0] < 0:
        api.problems.append(Problem(1, "no DCCUDA_VERSION_MAJOR/MINOR/PATCH macros"))
    here = os.path.dirname(os.path.abspath(__file__))
    if here not in sys.path:
        sys.path.insert(0, here)
    import api_model  # noqa: E402  (abi/api_model.py: what the annotations mean)
    api_model.read(api)
    return api


def parse_header(path: str) -> Api:
    with open(path, encoding="utf-8") as f:
        return parse_text(f.read(), header=path)


def default_header() -> str:
    return os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "include", "dccuda.h")


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(description="Parse dccuda.h into a machine-readable API description.")
    ap.add_argument("--header", default=default_header(), help="the header (default: include/dccuda.h)")
    g = ap.add_mutually_exclusive_group()
    g.add_argument("--json", action="store_true", help="print everything as JSON")
    g.add_argument("--symbols", action="store_true", help="print the function names, sorted")
    args = ap.parse_args(argv)
    a = parse_header(args.header)
    if args.json:
        json.dump(a.to_json(), sys.stdout, indent=2)
        sys.stdout.write("\n")
    elif args.symbols:
        sys.stdout.write("".join(n + "\n" for n in a.symbols()))
    else:
        print(f"{a.header}: version {a.version_string}, {len(a.functions)} functions, "
              f"{len(a.structs)} structs, {len(a.handles)} handles, {len(a.callbacks)} callbacks, "
              f"{len(a.constants)} constants")
        for f in a.functions:
            ps = ", ".join(f"{p.type.c} {p.name} [{p.type.cls}]" for p in f.params) or "void"
            print(f"  {f.ret.c} [{f.ret.cls}] {f.name}({ps})")
        for s in a.structs:
            print(f"  struct {s.name} size {s.size} align {s.align}")
            for fl in s.fields:
                print(f"    {fl.offset:4d} {fl.size:4d} {fl.type.c} {fl.name}")
        for p in a.problems + a.forbidden:
            print(f"  problem: {p}")
    return 1 if (a.problems or a.forbidden) else 0


if __name__ == "__main__":
    sys.exit(main())
