"""Reading C# P/Invoke declarations: what the SWIG check needs of SWIG's generated C#
(DcPINVOKE.cs: each [DllImport] with its EntryPoint, parameters and their size classes), and
the C# preprocessor that bindings/csharp/tests/check_net7_view.py uses to see the .NET 7+ view.

The hand-kept C# binding is no longer read here: bindings/csharp/Native is generated from the
header by abi/gen.py, and gen.check (abi/check_abi.py's bindings.generated) fails when it is
stale; its compiled struct layouts and constant values are measured (layouts.csharp,
constants.csharp)."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Set, Tuple



from .common import BParam, Decl, line_of, matching, split_top, strip_c_like_comments  # noqa: F401 (swig.py uses strip_c_like_comments)

NET7_SYMBOLS = {"NET", "NETCOREAPP", "NET7_0", "NET7_0_OR_GREATER", "NET6_0_OR_GREATER",
                "NET5_0_OR_GREATER", "NETCOREAPP3_1_OR_GREATER", "NETCOREAPP3_0_OR_GREATER",
                "NETCOREAPP2_0_OR_GREATER", "NETCOREAPP2_1_OR_GREATER", "NETSTANDARD2_1_OR_GREATER"}
MONO_SYMBOLS = {"NETFRAMEWORK", "NET472", "NET472_OR_GREATER", "NET471_OR_GREATER", "NET47_OR_GREATER",
                "NET462_OR_GREATER", "NET461_OR_GREATER", "NET46_OR_GREATER", "NET45_OR_GREATER",
                "NET40_OR_GREATER", "__MonoCS__"}

PRIMITIVES = {
    "IntPtr": "ptr", "UIntPtr": "ptr", "nint": "ptr", "nuint": "ptr", "HandleRef": "ptr",
    "string": "ptr", "String": "ptr", "StringBuilder": "ptr",
    "sbyte": "i8", "byte": "i8", "SByte": "i8", "Byte": "i8",
    "short": "i16", "ushort": "i16", "char": "i16", "Int16": "i16", "UInt16": "i16", "Char": "i16",
    "int": "i32", "uint": "i32", "Int32": "i32", "UInt32": "i32",
    "long": "i64", "ulong": "i64", "Int64": "i64", "UInt64": "i64",
    "float": "f32", "Single": "f32", "double": "f64", "Double": "f64",
    "void": "void", "bool": "bool", "Boolean": "bool",
}
HANDLE_BASES = {"SafeHandle", "SafeHandleZeroOrMinusOneIsInvalid", "SafeHandleMinusOneIsInvalid",
                "CriticalHandle", "CriticalHandleZeroOrMinusOneIsInvalid", "CriticalHandleMinusOneIsInvalid"}
MODIFIERS = {"public", "internal", "private", "protected", "static", "extern", "partial", "unsafe",
             "new", "readonly", "file", "sealed"}
PARAM_MODIFIERS = {"ref", "out", "in", "scoped", "this", "params", "readonly"}


# ---------------------------------------------------------------------------
# Preprocessor

def _eval_condition(expr: str, defined: Set[str]) -> bool:
    tokens = re.findall(r"\|\||&&|==|!=|!|\(|\)|[A-Za-z_]\w*", expr)
    py = []
    for t in tokens:
        if t == "||":
            py.append(" or ")
        elif t == "&&":
            py.append(" and ")
        elif t == "!":
            py.append(" not ")
        elif t in ("==", "!=", "(", ")"):
            py.append(f" {t} ")
        elif t == "true":
            py.append(" True ")
        elif t == "false":
            py.append(" False ")
        else:
            py.append(" True " if t in defined else " False ")
    try:
        return bool(eval("".join(py) or "False", {"__builtins__": {}}, {}))  # tokens are vetted above
    except SyntaxError:
        return False


def preprocess(text: str, symbols: Set[str]) -> str:
    """The C# text as a compiler with `symbols` defined sees it: inactive lines and every
    directive blanked (line numbers stay)."""
    defined = set(symbols)
    out = []
    stack: List[List[bool]] = []   # [outer active, this branch taken, any branch taken]

    def active() -> bool:
        return all(f[0] and f[1] for f in stack)

    for line in text.split("\n"):
        m = re.match(r"\s*#\s*(\w+)\s*(.*?)\s*(//.*)?$", line)
        if m:
            kind, rest = m.group(1), m.group(2)
            if kind == "if":
                taken = _eval_condition(rest, defined)
                stack.append([active(), taken, taken])
            elif kind == "elif" and stack:
                taken = not stack[-1][2] and _eval_condition(rest, defined)
                stack[-1][1] = taken
                stack[-1][2] = stack[-1][2] or taken
            elif kind == "else" and stack:
                stack[-1][1] = not stack[-1][2]
                stack[-1][2] = True
            elif kind == "endif" and stack:
                stack.pop()
            elif kind == "define" and active():
                defined.add(rest.split()[0] if rest else "")
            elif kind == "undef" and active():
                defined.discard(rest.split()[0] if rest else "")
            out.append("")
            continue
        out.append(line if active() else "")
    return "\n".join(out)


# ---------------------------------------------------------------------------
# Types declared in the binding itself

@dataclass
class Types:
    consts: Dict[str, str] = field(default_factory=dict)       # const string X = "..."
    enums: Dict[str, str] = field(default_factory=dict)        # name -> class
    delegates: Set[str] = field(default_factory=set)
    classes: Dict[str, str] = field(default_factory=dict)      # class name -> base
    structs: Dict[str, List[str]] = field(default_factory=dict)  # struct -> instance field types


def collect_types(texts: List[str]) -> Types:
    t = Types()
    for text in texts:
        for m in re.finditer(r"\bconst\s+string\s+(\w+)\s*=\s*([^;]+);", text):
            t.consts[m.group(1)] = m.group(2).strip()
        for m in re.finditer(r"\benum\s+(\w+)\s*(?::\s*([\w.]+))?\s*\{", text):
            t.enums[m.group(1)] = PRIMITIVES.get((m.group(2) or "int").split(".")[-1], "?")
        for m in re.finditer(r"\bdelegate\s+(?!\*)[\w.<>\[\]*?]+\s+(\w+)\s*(?:<[^>]*>)?\s*\(", text):
            t.delegates.add(m.group(1))
        for m in re.finditer(r"\bclass\s+(\w+)\s*(?:<[^>]*>)?\s*:\s*([\w.]+)", text):
            t.classes[m.group(1)] = m.group(2).split(".")[-1]
        for m in re.finditer(r"\bclass\s+(\w+)\b", text):
            t.classes.setdefault(m.group(1), "")
        for m in re.finditer(r"\bstruct\s+(\w+)\s*(?::[^{]*)?\{", text):
            body_start = m.end() - 1
            body = text[body_start + 1:matching(text, body_start)]
            # Instance fields at the struct's top level: `[mods] Type name [= ...];`
            depth, fields, cur = 0, [], []
            for ch in body:
                if ch == "{":
                    depth += 1
                elif ch == "}":
                    depth -= 1
                    if depth == 0:
                        cur = []
                        continue
                if depth == 0:
                    if ch == ";":
                        stmt = re.sub(r"\[[^\]]*\]", " ", "".join(cur)).strip()
                        cur = []
                        if "(" in stmt or re.search(r"\b(static|const)\b", stmt) or "=>" in stmt:
                            continue
                        words = [w for w in stmt.split("=")[0].split() if w not in MODIFIERS | {"fixed", "volatile"}]
                        if len(words) >= 2:
                            fields.append(words[-2])
                    else:
                        cur.append(ch)
            t.structs[m.group(1)] = fields
    return t


def type_class(tname: str, types: Types, seen: Optional[Set[str]] = None) -> str:
    """The size class of a C# type in a native signature."""
    t = tname.strip()
    t = re.sub(r"^global::", "", t)
    if t.startswith("delegate*") or t.endswith("*") or t.endswith("[]"):
        return "ptr"
    if t.endswith("?"):
        return "?"
    base = re.sub(r"<.*>$", "", t).split(".")[-1]
    if base in PRIMITIVES:
        return PRIMITIVES[base]
    if base in types.enums:
        return types.enums[base]
    if base in types.delegates:
        return "ptr"
    seen = seen or set()
    if base in types.structs and base not in seen:
        fields = types.structs[base]
        if len(fields) == 1:   # a one-field wrapper passes as its field does
            return type_class(fields[0], types, seen | {base})
        return "struct"
    if base in types.classes or base in HANDLE_BASES:
        # Reference types marshal as pointers (SafeHandle subclasses as their handle).
        return "ptr"
    return "?"


# ---------------------------------------------------------------------------
# Declarations

_ATTR = re.compile(r"\b(?:[\w.]*\.)?(LibraryImport|DllImport)(?:Attribute)?\s*\(")


def _resolve_string(expr: str, types: Types, depth: int = 0) -> Optional[str]:
    parts = split_top(expr, "+")
    out = []
    for p in parts:
        p = p.strip()
        m = re.fullmatch(r'@?"((?:[^"\\]|\\.)*)"', p)
        if m:
            out.append(m.group(1))
            continue
        m = re.fullmatch(r"nameof\s*\(\s*([\w.]+)\s*\)", p)
        if m:
            out.append(m.group(1).split(".")[-1])
            continue
        name = p.split(".")[-1]
        if name in types.consts and depth < 5:
            v = _resolve_string(types.consts[name], types, depth + 1)
            if v is None:
                return None
            out.append(v)
            continue
        return None
    return "".join(out)


def _section_bounds(text: str, pos: int) -> Tuple[int, int]:
    """The attribute section `[...]` around pos."""
    depth, i = 0, pos
    while i >= 0:
        if text[i] == "]":
            depth += 1
        elif text[i] == "[":
            if depth == 0:
                break
            depth -= 1
        i -= 1
    return i, matching(text, i) if i >= 0 else pos


def parse_declarations(text: str, path: str, types: Types, root: str,
                       only_dccuda: bool = True) -> Tuple[List[Decl], List[str], List[str]]:
    decls, skipped, errors = [], [], []
    rel = os.path.relpath(path, root) if root else path
    for m in _ATTR.finditer(text):
        kind = m.group(1)
        open_paren = m.end() - 1
        close_paren = matching(text, open_paren)
        args = split_top(text[open_paren + 1:close_paren])
        start, end = _section_bounds(text, m.start())
        line = line_of(text, m.start())
        if start < 0 or not re.fullmatch(r"[\s\w.:,()\"=]*", text[start + 1:m.start()]):
            continue   # not inside an attribute section
        lib_expr = next((a for a in args if "=" not in a.split("(")[0]), "")
        named = {}
        for a in args:
            k, eq, v = a.partition("=")
            if eq and re.fullmatch(r"\s*\w+\s*", k):
                named[k.strip()] = v.strip()
        lib = _resolve_string(lib_expr, types) if lib_expr else None
        if only_dccuda and lib is not None and "dccuda" not in lib.lower():
            skipped.append(f"{rel}:{line}: [{kind}(\"{lib}\")] is for another library: not checked")
            continue
        # Skip further attribute sections, then read the declaration up to ';' or '{'.
        i = end + 1
        while True:
            while i < len(text) and text[i].isspace():
                i += 1
            if i < len(text) and text[i] == "[":
                i = matching(text, i) + 1
                continue
            break
        j = i
        depth = 0
        while j < len(text):
            if text[j] in "(<[":
                depth += 1
            elif text[j] in ")>]":
                depth -= 1
            elif text[j] in ";{" and depth == 0:
                break
            j += 1
        decl_text = " ".join(text[i:j].split())
        if j >= len(text) or text[j] == "{":
            errors.append(f"{rel}:{line}: [{kind}] is not followed by a method declaration ending in `;`")
            continue
        # The parameter list is the last top-level (...) of the declaration.
        pm = re.match(r"(.*?)\b(\w+)\s*\((.*)\)\s*$", decl_text)
        if not pm:
            errors.append(f"{rel}:{line}: cannot read the declaration `{decl_text[:80]}`")
            continue
        head, method, params_text = pm.group(1), pm.group(2), pm.group(3)
        head_words = head.split()
        ret_words = [w for w in head_words if w not in MODIFIERS]
        ret_type = " ".join(ret_words)
        entry = named.get("EntryPoint")
        how = "method name"
        name = method
        if entry is not None:
            resolved = _resolve_string(entry, types)
            if resolved is None:
                errors.append(f"{rel}:{line}: EntryPoint `{entry}` is not a string this check can resolve")
                continue
            name, how = resolved, "EntryPoint"
        d = Decl(name=name, file=rel, line=line, params=[], ret=BParam("return", ret_type, type_class(ret_type, types)),
                 method=method, how=how, library=lib or "")
        if kind == "DllImport" and "extern" not in head_words:
            d.problems.append(f"[DllImport] method {method} must be `static extern`")
        if kind == "LibraryImport" and "partial" not in head_words:
            d.problems.append(f"[LibraryImport] method {method} must be `static partial`")
        if re.fullmatch(r"(global::)?(System\.)?[Ss]tring", ret_type):
            d.problems.append(f"{method} returns string: the marshaller would free the library-owned "
                              "string; return IntPtr or byte* and decode it as UTF-8")
        if ret_type in ("bool", "Boolean"):
            d.problems.append(f"{method} returns bool: not blittable, and no dc_ function returns one")
        if params_text.strip():
            for k, ptext in enumerate(split_top(params_text)):
                ptext = re.sub(r"^\s*(\[[^\]]*\]\s*)+", "", ptext)
                ptext = ptext.split("=")[0].strip()
                words = ptext.split()
                mods = []
                while words and words[0] in PARAM_MODIFIERS:
                    mods.append(words.pop(0))
                if len(words) < 2:
                    errors.append(f"{rel}:{line}: {method}: cannot read parameter {k + 1} `{ptext}`")
                    continue
                pname, ptype = words[-1], " ".join(words[:-1])
                by_ref = bool({"ref", "out", "in"} & set(mods))
                cls = "ptr" if by_ref else type_class(ptype, types)
                d.params.append(BParam(pname, " ".join(mods + [ptype]), cls))
                if cls == "?":
                    d.problems.append(f"{method} parameter {k + 1}: unknown type `{ptype}` (declare it in "
                                      "the binding, or use a blittable type)")
        if d.ret.cls == "?":
            d.problems.append(f"{method}: unknown return type `{ret_type}`")
        decls.append(d)
    return decls, skipped, errors
