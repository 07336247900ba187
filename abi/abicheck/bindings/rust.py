"""The Rust binding (bindings/rust): `extern "C" { pub fn dc_...(...) -> ...; }` blocks.

Every .rs file under bindings/rust (build output excluded) is read; the -sys crate is where
the declarations belong, but a declaration anywhere is checked. The effective name is
`#[link_name = "..."]` if given, else the fn's name. A block marked
`#[link(name = "other")]` for another library is skipped. Type aliases (`pub type X = ...;`),
`#[repr(transparent)]` wrappers and `#[repr(i32)]` enums of the crate are resolved."""

from __future__ import annotations

import os
import re
from typing import Dict, List, Optional, Tuple

from ..context import Context
from ..util import files_under, read
from .common import BParam, Decl, Parsed, line_of, matching, split_top, strip_c_like_comments

PRIMITIVES = {
    "i8": "i8", "u8": "i8", "c_char": "i8", "c_schar": "i8", "c_uchar": "i8",
    "i16": "i16", "u16": "i16", "c_short": "i16", "c_ushort": "i16",
    "i32": "i32", "u32": "i32", "c_int": "i32", "c_uint": "i32",
    "i64": "i64", "u64": "i64", "c_longlong": "i64", "c_ulonglong": "i64",
    "usize": "ptr", "isize": "ptr",
    "c_long": "long", "c_ulong": "long",
    "f32": "f32", "c_float": "f32", "f64": "f64", "c_double": "f64",
    "()": "void", "!": "void", "bool": "bool", "c_void": "void",
}


class Types:
    def __init__(self) -> None:
        self.aliases: Dict[str, str] = {}
        self.transparent: Dict[str, str] = {}   # repr(transparent) struct -> field type
        self.enums: Dict[str, str] = {}          # repr(int) enum -> class
        self.structs: set = set()                # repr(C) structs (by value: class struct)

    def collect(self, text: str) -> None:
        for m in re.finditer(r"\btype\s+(\w+)\s*(?:<[^>]*>)?\s*=\s*([^;]+);", text):
            self.aliases[m.group(1)] = " ".join(m.group(2).split())
        for m in re.finditer(r"#\[repr\(([^)]*)\)\]\s*(?:#\[[^\]]*\]\s*)*(?:pub(?:\([^)]*\))?\s+)?(struct|enum)\s+(\w+)", text):
            reprs = [r.strip() for r in m.group(1).split(",")]
            kind, name = m.group(2), m.group(3)
            if kind == "enum":
                ints = [r for r in reprs if r in PRIMITIVES]
                self.enums[name] = PRIMITIVES[ints[0]] if ints else "?"
                continue
            rest = text[m.end():]
            if "transparent" in reprs:
                field_type = _single_field(rest)
                if field_type:
                    self.transparent[name] = field_type
            else:
                self.structs.add(name)

    def cls(self, t: str, depth: int = 0) -> str:
        t = " ".join(t.split())
        if depth > 10:
            return "?"
        if t.startswith(("*mut", "*const", "&")):
            return "ptr"
        if re.match(r"^(unsafe\s+)?(extern\s+\"[^\"]*\"\s+)?fn\s*\(", t):
            return "ptr"
        m = re.match(r"^(?:(?:std|core)::option::)?Option\s*<(.*)>$", t)
        if m:
            inner = m.group(1).strip()
            c = self.cls(inner, depth + 1)
            # Option<fn>, Option<&T>, Option<NonNull<T>> have the null-pointer niche.
            return "ptr" if c == "ptr" else "?"
        if re.match(r"^(?:(?:std|core)::ptr::)?NonNull\s*<", t):
            return "ptr"
        if t in ("()", "!"):
            return "void"
        base = re.sub(r"<.*>$", "", t).split("::")[-1].strip()
        if base in PRIMITIVES:
            return PRIMITIVES[base]
        if base in self.aliases:
            return self.cls(self.aliases[base], depth + 1)
        if base in self.transparent:
            return self.cls(self.transparent[base], depth + 1)
        if base in self.enums:
            return self.enums[base]
        if base in self.structs:
            return "struct"
        return "?"


def _single_field(rest: str) -> Optional[str]:
    """The one non-PhantomData field of a struct body that starts `rest`."""
    rest = rest.lstrip()
    if rest.startswith("<"):           # generic parameters
        rest = rest[matching(rest, 0) + 1:].lstrip()
    rest = re.sub(r"^where\b[^{(]*", "", rest).lstrip()
    if rest.startswith("("):
        body = rest[1:matching(rest, 0)]
        fields = [re.sub(r"^pub(\([^)]*\))?\s+", "", f) for f in split_top(body) if f]
    elif rest.startswith("{"):
        body = rest[1:matching(rest, 0)]
        fields = []
        for f in split_top(body):
            f = re.sub(r"#\[[^\]]*\]", "", f).strip()
            if ":" in f:
                fields.append(f.split(":", 1)[1].strip())
    else:
        return None
    fields = [f for f in fields if "PhantomData" not in f]
    return fields[0] if len(fields) == 1 else None


_BLOCK = re.compile(r'((?:#\[[^\]]*\]\s*)*)(?:unsafe\s+)?extern\s*(?:"([^"]*)")?\s*\{')


def parse_file(text: str, rel: str, types: Types) -> Tuple[List[Decl], List[str], List[str]]:
    decls, skipped, errors = [], [], []
    for m in _BLOCK.finditer(text):
        attrs, abi = m.group(1), m.group(2) or "C"
        brace = m.end() - 1
        end = matching(text, brace)
        link = re.search(r'#\[link\s*\(\s*name\s*=\s*"([^"]+)"', attrs)
        block_line = line_of(text, m.start())
        if link and "dccuda" not in link.group(1):
            skipped.append(f"{rel}:{block_line}: extern block for library `{link.group(1)}`: not checked")
            continue
        body = text[brace + 1:end]
        offset = brace + 1
        for item in re.finditer(r"((?:#\[[^\]]*\]\s*)*)(?:pub(?:\([^)]*\))?\s+)?(?:(?:safe|unsafe)\s+)?"
                                r"fn\s+(\w+)\s*(?:<[^>]*>)?\s*\(", body):
            iattrs, fname = item.group(1), item.group(2)
            line = line_of(text, offset + item.start(2))
            popen = item.end() - 1
            pclose = matching(body, popen)
            semi = body.find(";", pclose)
            tail = body[pclose + 1:semi].strip()
            ret_t = "()"
            if tail.startswith("->"):
                ret_t = " ".join(tail[2:].split())
            elif tail:
                errors.append(f"{rel}:{line}: fn {fname}: unexpected `{tail}` after the parameters")
            ln = re.search(r'#\[link_name\s*=\s*"([^"]+)"\]', iattrs)
            name, how = (ln.group(1), "link_name") if ln else (fname, "fn name")
            d = Decl(name=name, file=rel, line=line, params=[], ret=BParam("return", ret_t, types.cls(ret_t)),
                     method=fname, how=how)
            if abi not in ("C", "system"):
                d.problems.append(f"fn {fname} is in an extern \"{abi}\" block: use extern \"C\"")
            for k, ptext in enumerate(split_top(body[popen + 1:pclose])):
                if not ptext:
                    continue
                if ptext.strip() == "...":
                    d.problems.append(f"fn {fname}: variadic")
                    continue
                ptext = re.sub(r"#\[[^\]]*\]", "", ptext).strip()
                if ":" not in ptext:
                    errors.append(f"{rel}:{line}: fn {fname}: cannot read parameter {k + 1} `{ptext}`")
                    continue
                pname, ptype = ptext.split(":", 1)
                ptype = " ".join(ptype.split())
                cls = types.cls(ptype)
                d.params.append(BParam(pname.strip(), ptype, cls))
                if cls in ("?", "long"):
                    d.problems.append(f"fn {fname} parameter {k + 1}: `{ptype}` "
                                      + ("is not the same size on every platform" if cls == "long"
                                         else "is a type this check cannot size (declare it in the crate)"))
            if d.ret.cls in ("?", "long"):
                d.problems.append(f"fn {fname}: return type `{ret_t}` cannot be sized")
            decls.append(d)
        for st in re.finditer(r"\bstatic\s+(?:mut\s+)?(\w+)\s*:", body):
            errors.append(f"{rel}:{line_of(text, offset + st.start())}: extern static {st.group(1)}: "
                          "dccuda exports no variables")
    return decls, skipped, errors


def parse(ctx: Context) -> Optional[List[Parsed]]:
    base = os.path.join(ctx.bindings_root, "rust")
    if not os.path.isdir(base):
        return None
    files = files_under(base, [".rs"])
    texts = {f: strip_c_like_comments(read(f), nested=True) for f in files}
    types = Types()
    for t in texts.values():
        types.collect(t)
    p = Parsed("rust", "rust", [])
    for f, t in texts.items():
        d, s, e = parse_file(t, ctx.rel(f), types)
        p.decls += d
        p.skipped += s
        p.errors += e
    if not os.path.isdir(os.path.join(base, "dccuda-sys")):
        p.errors.append(f"{ctx.rel(base)}/dccuda-sys does not exist")
    if not p.decls:
        p.errors.append(f"no extern \"C\" declaration found under {ctx.rel(base)}")
    p.notes.append(f"{len(files)} .rs files read")
    return [p]
