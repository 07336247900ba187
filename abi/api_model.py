"""What the annotations of include/dccuda.h say: the API model the generators work from.

abi/api.py reads the header's declarations and keeps every DC_* annotation as written; this
module gives them their meaning (the header's conventions block, "Annotations" and "Errors")
and says, for everything a binding needs that the model cannot tell, where and what to write.
`api.parse_header()` calls `read()`; afterwards:

    api.families            Family: name, kind (enumeration | flags | values), ctype, members
    macro.family            the family of every numeric #define
    fn.model                FunctionModel: fallible, errors (every status besides DC_SUCCESS),
                            lifetime of a returned string, section of the header
    param.model, field.model   ParamModel: kind, direction, nullable, array, owned/borrowed,
                            lifetime, family, native, user_data
    api.model_problems      what is missing or contradictory: each names the line and the fix

Parameter kinds (ParamModel.kind):
    int, float      a number by value (`family` when it takes a family's constants)
    handle          a dc_* handle by value: borrowed for the call, or `owned` (the call releases it)
    callback        a typedef'd function pointer
    user_data       void* handed back to a callback (DC_USER_DATA)
    native          void* that is a raw CUDA object (DC_NATIVE)
    string          const char*, UTF-8, NUL-terminated, read during the call
    strings         const char* const*: an array of strings (DC_ARRAY)
    memory          void* / const void* / char* with DC_ARRAY(n): n bytes; also a number
                    type with DC_OUT DC_ARRAY(n): n numbers the call writes
    struct          a pointer to a public struct (in, out or inout; DC_ARRAY for several)
    out_handle      dc_x*: a handle written by the call (DC_OWNED or DC_BORROWED)
    handles         const dc_x* with DC_IN DC_ARRAY(n): n handles, borrowed for the call
    out_scalar      int32_t*, uint64_t*, float*...: a number written by the call
    out_string      const char**: a library-owned string written by the call (DC_LIFETIME)
    out_pointer     void** / const void**: an address written by the call (DC_LIFETIME)
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Dict, List, Optional

FAMILY_KINDS = ("enumeration", "flags", "values")
FAMILY_TYPES = ("int32_t", "uint32_t", "int64_t", "uint64_t")
SCALAR_TYPES = {"int8_t", "uint8_t", "int16_t", "uint16_t", "int32_t", "uint32_t", "int64_t", "uint64_t"}
FLOAT_TYPES = {"float", "double"}
LIFETIMES = ("static", "thread")
SEE = "(include/dccuda.h, conventions block, \"Annotations\")"


@dataclass
class Family:
    name: str
    kind: str
    ctype: str
    line: int
    members: List[str] = field(default_factory=list)   # constant names, in header order
    values: Dict[str, int] = field(default_factory=dict)

    def to_json(self) -> dict:
        return {"name": self.name, "kind": self.kind, "type": self.ctype, "line": self.line,
                "members": {m: self.values[m] for m in self.members}}


@dataclass
class ParamModel:
    kind: str
    direction: str = "in"               # in | out | inout
    nullable: bool = False
    array: Optional[str] = None         # the count parameter or field
    owned: bool = False
    borrowed: bool = False
    lifetime: Optional[str] = None      # static | thread | a handle parameter's name
    family: Optional[str] = None
    native: bool = False
    user_data: bool = False

    def to_json(self) -> dict:
        d = {"kind": self.kind, "direction": self.direction}
        for k in ("nullable", "owned", "borrowed", "native", "user_data"):
            if getattr(self, k):
                d[k] = True
        for k in ("array", "lifetime", "family"):
            if getattr(self, k) is not None:
                d[k] = getattr(self, k)
        return d


@dataclass
class FunctionModel:
    fallible: bool
    errors: List[str] = field(default_factory=list)   # statuses besides DC_SUCCESS, resolved, with the implicit ones
    error_refs: List[str] = field(default_factory=list)   # "as dc_x" references, as written
    implicit_errors: List[str] = field(default_factory=list)   # what any call may return (conventions, "Errors")
    lifetime: Optional[str] = None      # of a returned string
    section: str = ""

    def to_json(self) -> dict:
        d = {"fallible": self.fallible, "section": self.section}
        if self.fallible:
            d["errors"] = self.errors
        if self.lifetime:
            d["lifetime"] = self.lifetime
        return d


def read(api) -> None:
    """Reads the families, then every function's and struct's annotations."""
    from api import Problem  # noqa: E402  (api imports this module: no import at the top)

    def problem(line: int, msg: str) -> None:
        api.model_problems.append(Problem(line, msg))

    _read_families(api, problem)
    handles = set(api.handles)
    callbacks = {c.name for c in api.callbacks}
    sections = _sections(api)
    api.sections = sections
    for f in api.functions:
        ctx = f"{f.name}"
        for p in f.params:
            p.model = _param_model(api, p.annotations, p.type, p.name, f"{ctx} parameter `{p.name}`",
                                   f.line, problem, handles, callbacks, is_field=False)
        for p in f.params:
            _check_references(p.model, p.name, [q.name for q in f.params], f, f"{ctx} parameter `{p.name}`",
                              problem, handles, api)
        f.model = _function_model(api, f, problem, sections)
    for s in api.structs:
        for fl in s.fields:
            fl.model = _param_model(api, fl.annotations, fl.type, fl.name, f"struct {s.name} field `{fl.name}`",
                                    fl.line or s.line, problem, handles, callbacks, is_field=True)
            if fl.model.array and not s.field(fl.model.array):
                problem(fl.line or s.line, f"struct {s.name} field `{fl.name}`: DC_ARRAY({fl.model.array}) names "
                        "no field of the struct")
    _resolve_errors(api, problem)


# ---------------------------------------------------------------------------
# Constants and their families

def _read_families(api, problem) -> None:
    lines = api.text.split("\n")
    macros_by_line = {m.line: m for m in api.macros}
    owner: Dict[str, str] = {}
    for line, args in api.markers:
        if len(args) != 3:
            problem(line, f"DC_CONSTANTS({', '.join(args)}): write DC_CONSTANTS(family, kind, type) "
                          f"with kind one of {', '.join(FAMILY_KINDS)} {SEE}")
            continue
        name, kind, ctype = args
        if kind not in FAMILY_KINDS:
            problem(line, f"DC_CONSTANTS({name}, ...): kind `{kind}` is not one of {', '.join(FAMILY_KINDS)}")
        if ctype not in FAMILY_TYPES:
            problem(line, f"DC_CONSTANTS({name}, ...): type `{ctype}` is not one of {', '.join(FAMILY_TYPES)}")
        if api.family(name):
            problem(line, f"DC_CONSTANTS({name}, ...): family `{name}` is declared twice "
                          f"(first at line {api.family(name).line})")
            continue
        fam = Family(name, kind, ctype, line)
        api.families.append(fam)
        for ln in _run_after(lines, line):
            m = macros_by_line.get(ln)
            if m is None or m.params is not None:
                continue
            if m.value is None:
                problem(ln, f"#define {m.name} follows DC_CONSTANTS({name}, ...) but is not a number: "
                            "end the family's run with a blank line")
                continue
            fam.members.append(m.name)
            fam.values[m.name] = m.value
            owner[m.name] = name
        if not fam.members:
            problem(line, f"DC_CONSTANTS({name}, ...) is followed by no #define (the run ends at a blank line)")
        _check_family_values(fam, problem)
    for m in api.macros:
        if m.params is None and m.value is not None:
            m.family = owner.get(m.name)
            if m.family is None and m.name != "DCCUDA_H":
                problem(m.line, f"#define {m.name} belongs to no family: put DC_CONSTANTS(family, kind, type) "
                                f"right before its group, or before it {SEE}")


def _run_after(lines: List[str], marker_line: int) -> List[int]:
    """Line numbers (1-based) of the #defines in the run after a marker: #define lines (with
    their continuations) and comment lines, up to a blank line or anything else."""
    out = []
    i = marker_line          # 0-based index of the line after the marker
    in_comment = False
    while i < len(lines):
        s = lines[i].strip()
        if in_comment:
            if "*/" in s:
                in_comment = False
            i += 1
            continue
        if not s:
            break
        if s.startswith("/*"):
            in_comment = "*/" not in s[2:]
            i += 1
            continue
        if s.startswith("//"):
            i += 1
            continue
        if re.match(r"#\s*define\b", s):
            out.append(i + 1)
            while lines[i].rstrip().endswith("\\") and i + 1 < len(lines):
                i += 1
            i += 1
            continue
        break
    return out


def _check_family_values(fam: Family, problem) -> None:
    lo, hi = {"int32_t": (-2**31, 2**31 - 1), "uint32_t": (0, 2**32 - 1),
              "int64_t": (-2**63, 2**63 - 1), "uint64_t": (0, 2**64 - 1)}.get(fam.ctype, (None, None))
    seen: Dict[int, str] = {}
    for name in fam.members:
        v = fam.values[name]
        if lo is not None and not lo <= v <= hi:
            problem(fam.line, f"{name} = {v} does not fit family {fam.name}'s type {fam.ctype}")
        if fam.kind == "flags" and (v <= 0 or v & (v - 1)):
            problem(fam.line, f"{name} = {v:#x} is not a single bit, but family {fam.name} is flags")
        if fam.kind == "enumeration" and v in seen:
            problem(fam.line, f"{name} = {v} repeats {seen[v]} in enumeration {fam.name}")
        seen.setdefault(v, name)


# ---------------------------------------------------------------------------
# Parameters and fields

def _param_model(api, anns, ty, name: str, ctx: str, line: int, problem, handles, callbacks,
                 is_field: bool) -> ParamModel:
    a: Dict[str, Optional[List[str]]] = {}
    for n, args in anns:
        if n in a:
            problem(line, f"{ctx}: {n} is written twice")
        a[n] = args
    one = lambda n: (a.get(n) or [None])[0]  # noqa: E731
    directions = [d for d in ("DC_IN", "DC_OUT", "DC_INOUT") if d in a]
    m = ParamModel(kind="?", nullable="DC_NULLABLE" in a, array=one("DC_ARRAY"), owned="DC_OWNED" in a,
                   borrowed="DC_BORROWED" in a, lifetime=one("DC_LIFETIME"), family=one("DC_FAMILY"),
                   native="DC_NATIVE" in a, user_data="DC_USER_DATA" in a)
    if "DC_INFALLIBLE" in a:
        problem(line, f"{ctx}: DC_INFALLIBLE belongs before a function's return type")
    if len(directions) > 1:
        problem(line, f"{ctx}: {' and '.join(directions)}: write one direction")
    if directions:
        m.direction = {"DC_IN": "in", "DC_OUT": "out", "DC_INOUT": "inout"}[directions[0]]
    base, depth, const = ty.base, ty.pointer_depth, ty.c.lstrip().startswith("const ")
    told = False     # a specific message already said what direction to write
    if ty.array:   # char name[256] in a struct: a fixed array, a value
        m.kind = "int"
        return m
    c_words = ty.c.replace("*", " * ").split()
    # `const` right before the second star (const char* const*): the strings themselves are const
    if depth == 0:
        if base in handles:
            m.kind = "handle"
        elif base in callbacks:
            m.kind = "callback"
        elif base in SCALAR_TYPES or api.typedefs.get(base) is not None and base not in handles:
            m.kind = "int"
            if base == "dc_status" and m.family is None and api.family("dc_status"):
                m.family = "dc_status"
        elif base in FLOAT_TYPES:
            m.kind = "float"
        else:
            m.kind = "?"
            problem(line, f"{ctx}: `{ty.c}` by value is not a type the bindings can pass")
        if directions and not is_field:
            problem(line, f"{ctx}: {directions[0]} on a parameter passed by value (it is an input): remove it")
        if m.nullable and m.kind not in ("handle", "callback"):
            problem(line, f"{ctx}: DC_NULLABLE on `{ty.c}`, which is not a pointer or a handle")
    elif depth == 1:
        if base == "char" and m.array is None:
            m.kind = "string"
            if not const:
                problem(line, f"{ctx}: `char*` without DC_ARRAY: an input string is `const char*`; a buffer "
                              "the call writes needs DC_OUT DC_ARRAY(size)")
        elif base in ("void", "char"):
            if m.user_data:
                m.kind = "user_data"
            elif m.array is not None:
                m.kind = "memory"
            elif m.native:
                m.kind = "native"
            else:
                m.kind = "?"
                problem(line, f"{ctx}: `{ty.c}` says nothing of what it points to: write DC_ARRAY(count) for "
                              "memory of `count` bytes, DC_NATIVE for a raw CUDA object or DC_USER_DATA for "
                              f"a pointer handed back to a callback {SEE}")
        elif base in handles and m.direction == "in" and m.array is not None:
            m.kind = "handles"
            if not const:
                problem(line, f"{ctx}: an input array of handles is `const {base}*`")
        elif base in handles:
            m.kind = "out_handle"
            if m.direction != "out":
                problem(line, f"{ctx}: `{ty.c}`: a pointer to a handle is an out handle: write DC_OUT and "
                              "DC_OWNED (the caller releases it) or DC_BORROWED (it must not)")
                told = True
        elif api.struct(base) is not None:
            m.kind = "struct"
        elif base in SCALAR_TYPES or base in FLOAT_TYPES or base in api.typedefs:
            m.kind = "out_scalar"
            if is_field or (m.direction == "out" and m.array is None):
                pass
            elif m.direction == "out":
                m.kind = "memory"  # an array of numbers the call writes (DC_OUT DC_ARRAY(count))
            elif m.array is None:
                problem(line, f"{ctx}: `{ty.c}`: a pointer to a number is an out-parameter (DC_OUT); an "
                              "input array needs DC_IN DC_ARRAY(count)")
            else:
                m.kind = "memory"
            if base == "dc_status" and m.family is None and api.family("dc_status"):
                m.family = "dc_status"
        else:
            m.kind = "?"
            problem(line, f"{ctx}: a pointer to `{base}` is not something the model knows")
    elif depth == 2:
        if base == "char" and m.array is not None:
            m.kind = "strings"
        elif base == "char":
            m.kind = "out_string"
        elif base == "void":
            m.kind = "out_pointer"
        else:
            m.kind = "?"
            problem(line, f"{ctx}: `{ty.c}` (a pointer to a pointer) is not something the model knows")
        if m.kind in ("out_string", "out_pointer"):
            if m.direction != "out" and not is_field:
                problem(line, f"{ctx}: `{ty.c}` is written by the call: write DC_OUT")
                told = True
            if m.lifetime is None and not is_field:
                problem(line, f"{ctx}: `{ty.c}`: say how long what it receives stays valid: "
                              "DC_LIFETIME(static), DC_LIFETIME(thread) or DC_LIFETIME(<handle parameter>)")
        if m.kind == "strings" and not const:
            problem(line, f"{ctx}: an array of input strings is `const char* const*`")
    else:
        m.kind = "?"
        problem(line, f"{ctx}: `{ty.c}` has too many levels of pointers for the bindings")
    if depth >= 1 and not directions and not is_field and not told and m.kind not in ("user_data", "native", "?"):
        problem(line, f"{ctx}: `{ty.c}` is a pointer: write DC_IN (the call reads it), DC_OUT (writes it) "
                      f"or DC_INOUT (both) {SEE}")
    if (m.owned or m.borrowed) and m.kind not in ("handle", "out_handle"):
        problem(line, f"{ctx}: DC_OWNED / DC_BORROWED are for handles, not `{ty.c}`")
    if m.owned and m.borrowed:
        problem(line, f"{ctx}: DC_OWNED and DC_BORROWED: write one")
    if m.kind == "out_handle" and not (m.owned or m.borrowed) and not told:
        problem(line, f"{ctx}: out handle `{ty.c}`: write DC_OWNED (the caller must release it) or "
                      "DC_BORROWED (the caller must not)")
    if m.kind == "handle" and m.borrowed:
        problem(line, f"{ctx}: DC_BORROWED on an in handle (they are borrowed unless DC_OWNED): remove it")
    if m.family is not None:
        fam = api.family(m.family)
        target = base if m.kind in ("int", "out_scalar") else None
        if fam is None:
            problem(line, f"{ctx}: DC_FAMILY({m.family}): no DC_CONSTANTS({m.family}, ...) in the header")
        elif target is None:
            problem(line, f"{ctx}: DC_FAMILY on `{ty.c}`, which is not an integer")
        elif api.typedefs.get(target) is not None and target != fam.ctype:
            if api.typedefs[target].base != fam.ctype:
                problem(line, f"{ctx}: `{ty.c}` takes family {m.family}, whose type is {fam.ctype}")
        elif target != fam.ctype and api.typedefs.get(target) is None:
            problem(line, f"{ctx}: `{ty.c}` takes family {m.family}, whose type is {fam.ctype}")
    if m.user_data and not (base == "void" and depth == 1):
        problem(line, f"{ctx}: DC_USER_DATA is for a `void*`")
    if m.lifetime is not None and m.kind not in ("out_string", "out_pointer", "memory", "native", "int") \
            and not is_field:
        problem(line, f"{ctx}: DC_LIFETIME on `{ty.c}`: it is for strings and pointers the call returns, "
                      "and for inputs the library keeps using")
    return m


def _check_references(m: ParamModel, name: str, names: List[str], f, ctx: str, problem, handles, api) -> None:
    if m.array is not None:
        q = f.param(m.array)
        if q is None or q.name == name:
            problem(f.line, f"{ctx}: DC_ARRAY({m.array}) names no other parameter of {f.name}")
        elif q.model is not None and q.model.kind not in ("int", "out_scalar"):
            problem(f.line, f"{ctx}: DC_ARRAY({m.array}): `{m.array}` is not a count")
    if m.lifetime is not None and m.lifetime not in LIFETIMES:
        q = f.param(m.lifetime)
        if q is None or q.type.base not in handles:
            problem(f.line, f"{ctx}: DC_LIFETIME({m.lifetime}): write static, thread or the name of a handle "
                            f"parameter of {f.name}")


# ---------------------------------------------------------------------------
# Functions: returns, errors, sections

def _sections(api) -> List[tuple]:
    """(line, title) of each banner comment (/* ====\\n * Title\\n * ==== */)."""
    out = []
    starts = [0]
    for i, ch in enumerate(api.text):
        if ch == "\n":
            starts.append(i + 1)
    import bisect
    for start, _end, text in api.comments:
        if "=====" not in text:
            continue
        for ln in text.split("\n"):
            s = ln.strip().lstrip("/*").strip()
            if s and not set(s) <= set("=*/ "):
                out.append((bisect.bisect_right(starts, start), s.rstrip(".")))
                break
    return out


def _function_model(api, f, problem, sections) -> FunctionModel:
    anns = dict(f.ret_annotations)
    infallible = "DC_INFALLIBLE" in anns
    for n in anns:
        if n not in ("DC_INFALLIBLE", "DC_LIFETIME"):
            problem(f.line, f"{f.name}: {n} before the return type: only DC_LIFETIME and DC_INFALLIBLE go there")
    fallible = f.ret.base == "dc_status" and f.ret.pointer_depth == 0 and not infallible
    if infallible and f.ret.base != "dc_status":
        problem(f.line, f"{f.name}: DC_INFALLIBLE on a function that does not return a dc_status")
    lifetime = (anns.get("DC_LIFETIME") or [None])[0]
    section = ""
    for line, title in sections:
        if line <= f.line:
            section = title
    m = FunctionModel(fallible=fallible, lifetime=lifetime, section=section)
    if f.ret.pointer_depth:
        if f.ret.base == "char" and f.ret.pointer_depth == 1 and f.ret.c.startswith("const"):
            if lifetime not in LIFETIMES:
                problem(f.line, f"{f.name} returns `{f.ret.c}`: write DC_LIFETIME(static) or DC_LIFETIME(thread) "
                                "before the return type (how long the string stays valid)")
        else:
            problem(f.line, f"{f.name} returns `{f.ret.c}`: return a dc_status and write the pointer through an "
                            "out-parameter (DC_OUT DC_LIFETIME(...))")
    elif lifetime is not None:
        problem(f.line, f"{f.name}: DC_LIFETIME on a return that is not a string")
    para = _errors_paragraph(f.doc)
    if fallible:
        if para is None:
            problem(f.line, f"{f.name} returns a dc_status but its comment has no \"Errors: ...\" paragraph "
                            "naming what it can return (DC_ERROR_*; \"as dc_x\" for dc_x's errors); a getter "
                            "whose dc_status is its answer is DC_INFALLIBLE")
        else:
            m.errors = _dedup(re.findall(r"\bDC_(?:ERROR_[A-Z0-9_]+|NOT_READY)\b", para))
            m.error_refs = _dedup(re.findall(r"\bas\s+(dc_[a-z0-9_]+)", para))
            status = api.family("dc_status")
            known = set(status.members) if status else set()
            for e in m.errors:
                if e not in known:
                    problem(f.line, f"{f.name}: its Errors paragraph names {e}, which is not a status of the header")
            if not m.errors and not m.error_refs:
                problem(f.line, f"{f.name}: its Errors paragraph names no DC_ERROR_* status")
    return m


def _errors_paragraph(doc: str) -> Optional[str]:
    m = re.search(r"\bErrors:", doc)
    if not m:
        return None
    para = doc[m.end():]
    blank = re.search(r"\n\s*\n", para)
    return para[:blank.start()] if blank else para


def _resolve_errors(api, problem) -> None:
    resolved: Dict[str, List[str]] = {}

    def resolve(f, stack):
        if f.name in resolved:
            return resolved[f.name]
        if f.name in stack:
            problem(f.line, f"{f.name}: its Errors paragraph refers back to itself through "
                            f"{' -> '.join(stack + [f.name])}")
            return f.model.errors
        errs = list(f.model.errors)
        for ref in f.model.error_refs:
            g = api.function(ref)
            if g is None or g.model is None:
                problem(f.line, f"{f.name}: its Errors paragraph says \"as {ref}\", which the header does not declare")
                continue
            if not g.model.fallible:
                problem(f.line, f"{f.name}: its Errors paragraph says \"as {ref}\", which cannot fail")
                continue
            errs += [e for e in resolve(g, stack + [f.name]) if e not in errs]
        resolved[f.name] = errs
        return errs

    for f in api.functions:
        if f.model is not None and f.model.fallible:
            f.model.errors = resolve(f, [])
    # What any fallible call may return without its paragraph saying so (the header's
    # conventions block, "Errors").
    status = api.family("dc_status")
    known = set(status.members) if status else set()
    for f in api.functions:
        if f.model is None or not f.model.fallible:
            continue
        implicit = ["DC_ERROR_OUT_OF_MEMORY", "DC_ERROR_INTERNAL"]
        if any(p.model is not None and p.model.kind == "handle" for p in f.params):
            implicit.append("DC_ERROR_CONTEXT_LOST")
        f.model.implicit_errors = [e for e in implicit if e in known and e not in f.model.errors]
        f.model.errors = f.model.errors + f.model.implicit_errors


def _dedup(xs: List[str]) -> List[str]:
    out = []
    for x in xs:
        if x not in out:
            out.append(x)
    return out
