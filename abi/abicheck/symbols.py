"""Check a: the exported symbols.

abi/dccuda.symbols (the committed list) must equal the header's DC_API functions, and the
dynamic symbol table of the built library (`nm -D --defined-only`) must export exactly that
list, every name a function in the version node DCCUDA_1.0 (`name@@DCCUDA_1.0`)."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from typing import List, Optional, Tuple

from .context import Context
from .report import Result
from .util import read, run, which


@dataclass
class Symbol:
    name: str          # without the version
    kind: str          # nm's letter: T text, W weak, D/B/R data, A absolute, i ifunc...
    version: str       # "" when unversioned
    default: bool      # @@ (default version) rather than @ (hidden)
    raw: str


_NM_LINE = re.compile(r"^\s*(?:[0-9A-Fa-f]+\s+)?([A-Za-z?])\s+(\S+)\s*$")


def parse_nm(text: str) -> Tuple[List[Symbol], List[str]]:
    """Symbols from `nm -D --defined-only` output, and the lines that were not understood."""
    syms, bad = [], []
    for line in text.splitlines():
        if not line.strip():
            continue
        m = _NM_LINE.match(line)
        if not m:
            bad.append(line)
            continue
        kind, full = m.group(1), m.group(2)
        if "@@" in full:
            name, version = full.split("@@", 1)
            default = True
        elif "@" in full:
            name, version = full.split("@", 1)
            default = False
        else:
            name, version, default = full, "", False
        syms.append(Symbol(name, kind, version, default, full))
    return syms, bad


def demangle(names: List[str]) -> dict:
    tool = which("c++filt")
    if not tool or not names:
        return {}
    r = run([tool] + names)
    out = r.out.splitlines()
    return dict(zip(names, out)) if r.rc == 0 and len(out) == len(names) else {}


def check_list(ctx: Context) -> Result:
    """The committed list is well-formed and equals the header's functions."""
    r = Result("symbols.list")
    rel = ctx.rel(ctx.symbols_file)
    listed = ctx.exported_list()
    if listed is None:
        r.fail(f"{rel} does not exist: run abi/gen.py and commit it")
        return r.finish("no list")
    for i, name in enumerate(listed):
        if not re.fullmatch(r"dc_[a-z0-9_]+", name):
            r.fail(f"{rel}:{i + 1}: `{name}` is not a dc_ function name (one name per line, nothing else)")
    if listed != sorted(listed):
        r.fail(f"{rel} is not sorted (LC_ALL=C order): run abi/gen.py")
    dupes = sorted({n for n in listed if listed.count(n) > 1})
    for d in dupes:
        r.fail(f"{rel}: `{d}` is listed twice")
    declared = {f.name: f for f in ctx.api.functions}
    hdr = ctx.rel(ctx.header)
    for name in sorted(set(listed) - set(declared)):
        r.fail(f"`{name}` is in {rel} but not declared with DC_API in {hdr}: removing an exported "
               "function breaks the ABI; if that is intended, bump the major version, then "
               "run abi/gen.py")
    for name in sorted(set(declared) - set(listed)):
        r.fail(f"`{name}` is declared in {hdr}:{declared[name].line} but missing from {rel}: a new "
               "function? run abi/gen.py and commit what it writes")
    return r.finish(f"{len(listed)} listed in {rel}, {len(declared)} declared in {hdr}")


def nm_listing(ctx: Context) -> Tuple[Optional[str], str]:
    """The nm text and where it came from, or (None, why not)."""
    if ctx.nm_file:
        return read(ctx.nm_file), ctx.rel(ctx.nm_file)
    if not ctx.library:
        return None, "no built library (build first, or pass --library / --build-dir)"
    if not os.path.isfile(ctx.library):
        return None, f"{ctx.rel(ctx.library)} does not exist (build first)"
    nm = which("nm", "NM")
    if not nm:
        return None, "nm is not installed (binutils)"
    res = run([nm, "-D", "--defined-only", ctx.library])
    if res.rc != 0:
        return "", f"nm failed on {ctx.rel(ctx.library)}: {res.tail(5)}"
    return res.out, ctx.rel(ctx.library)


def check_library(ctx: Context) -> Result:
    """The library exports exactly the list, all functions, all in the version node."""
    r = Result("symbols.library")
    text, source = nm_listing(ctx)
    if text is None:
        return r.not_present(source)
    if text == "" and source.startswith("nm failed"):
        r.fail(source)
        return r.finish("nm failed")
    syms, bad = parse_nm(text)
    for line in bad:
        r.fail(f"nm line not understood: `{line}`")
    node = ctx.version_node
    listed = ctx.exported_list()
    expected = set(listed) if listed is not None else {f.name for f in ctx.api.functions}
    list_name = ctx.rel(ctx.symbols_file) if listed is not None else ctx.rel(ctx.header)
    # Version definitions show up as absolute symbols named after the node.
    nodes = {s.name for s in syms if s.kind == "A" and (not s.version or s.version == s.name)}
    functions = [s for s in syms if s.name not in nodes]
    exported = {}
    leaked = [s.name for s in functions if s.name.startswith("_Z")]
    pretty = demangle(leaked)
    for s in functions:
        exported[s.name] = s
        if s.name.startswith("_Z"):
            r.fail(f"leaked C++ symbol `{s.raw}` ({pretty.get(s.name, 'not demangled')}): internal "
                   "code must stay hidden (-fvisibility=hidden and the version script's `local: *;`)")
            continue
        if s.name not in expected:
            r.fail(f"extra exported symbol `{s.raw}` (nm type {s.kind}): not in {list_name}; only "
                   "the DC_API functions of the header may be exported")
            continue
        if s.kind not in ("T", "i"):
            r.fail(f"`{s.raw}` is exported as nm type {s.kind}, not as a function (T)")
        if s.version != node:
            where = f"in version node {s.version}" if s.version else "unversioned"
            r.fail(f"`{s.raw}` is {where}, not in version node {node}: the linker version script "
                   f"(abi/dccuda.map) must put every dc_ function in {node}")
        elif not s.default:
            r.fail(f"`{s.raw}` is a hidden (non-default) version: it must be `{s.name}@@{node}`")
    missing = sorted(expected - set(exported))
    if missing:
        lines = []
        for name in missing:
            fn = ctx.api.function(name)
            lines.append(f"  {name}" + (f" ({ctx.rel(ctx.header)}:{fn.line})" if fn else ""))
        r.fail(f"{len(missing)} functions in {list_name} are not exported by {source} (not implemented, "
               "or not marked DC_API):\n" + "\n".join(lines))
    extra = len([s for s in functions if s.name not in expected])
    if node not in nodes and functions:
        r.note(f"{source} defines no version node {node}")
    return r.finish(f"{len(functions)} exported by {source}, {len(expected)} expected: "
                    f"{len(missing)} missing, {extra} extra")
