#!/usr/bin/env python3
"""Generates the bad-input matrix (C++) from the header's model and bad_input_facts.py.

    gen_bad_inputs.py <header> <output.inc>

For every function of the header, one C++ function per case: the valid call with one
argument changed. The model (abi/api.py with abi/api_model.py: the header's declarations
and annotations) gives most cases:
  - a handle argument: NULL (allowed where it is DC_NULLABLE), a released handle, a handle
    of another type, and three made-up values;
  - an out-pointer, an input pointer (memory, string, struct, callback): NULL, refused unless
    DC_NULLABLE;
  - a struct with struct_size: 0 and one byte short of the first published size;
  - an integer of a flags family (DC_CONSTANTS(..., flags, ...)): an unknown bit and all
    bits; of an enumeration family: values next to and far from the family's;
  - a function that cannot fail (no dc_status result, or DC_INFALLIBLE) is exempt.
bad_input_facts.FACTS adds the test's own knowledge: valid values the fixture provides,
integers the model cannot judge (sizes, offsets, indexes), further cases with the text the
message must contain. Every status a case expects must be named by the function's
"Errors:" paragraph in the header (a case that expects another is an error here).
Release functions get the handle cases only (they must ignore them quietly).
"""

from __future__ import annotations

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "abi"))
sys.path.insert(0, HERE)

import api  # noqa: E402
import bad_input_facts as facts_module  # noqa: E402

SCALARS = {"int8_t", "uint8_t", "int16_t", "uint16_t", "int32_t", "uint32_t", "int64_t", "uint64_t",
           "float", "double", "dc_status"}
TYPE_MAX = {"uint32_t": "UINT32_MAX", "int32_t": "INT32_MAX", "uint64_t": "UINT64_MAX", "int64_t": "INT64_MAX",
            "dc_status": "INT32_MAX"}
TYPE_MIN = {"uint32_t": "0", "int32_t": "INT32_MIN", "uint64_t": "0", "int64_t": "INT64_MIN", "dc_status": "INT32_MIN"}
HANDLE_CONST = {"dc_device": "DC_HANDLE_DEVICE", "dc_buffer": "DC_HANDLE_BUFFER", "dc_stream": "DC_HANDLE_STREAM",
                "dc_event": "DC_HANDLE_EVENT", "dc_program": "DC_HANDLE_PROGRAM", "dc_module": "DC_HANDLE_MODULE",
                "dc_function": "DC_HANDLE_FUNCTION", "dc_launch": "DC_HANDLE_LAUNCH", "dc_graph": "DC_HANDLE_GRAPH",
                "dc_queue": "DC_HANDLE_QUEUE", "dc_control": "DC_HANDLE_CONTROL",
                "dc_pool": "DC_HANDLE_POOL",
                "dc_library": "DC_HANDLE_LIBRARY", "dc_blas": "DC_HANDLE_BLAS", "dc_fft_plan": "DC_HANDLE_FFT_PLAN",
                "dc_comm": "DC_HANDLE_COMM"}

# The fixture's valid input structs, where the name is not fx.<struct without dc_>.
IN_STRUCT_VALID = {"dc_launch_config": "&fx.config", "dc_arg": "fx.args"}


class GenError(Exception):
    pass


# The model's parameter kinds (abi/api_model.py) as this generator treats them.
KINDS = {"handle": "handle", "out_handle": "out_handle", "callback": "callback", "int": "int", "float": "int",
         "string": "string", "memory": "memory", "native": "memory", "user_data": "memory",
         "handles": "memory",
         "out_scalar": "out_scalar", "out_string": "out_ptr", "out_pointer": "out_ptr"}


def classify(p, a) -> str:
    m = p.model
    if m.kind == "struct":
        return "in_struct" if m.direction == "in" else "inout_struct"
    if m.kind not in KINDS:
        raise GenError(f"{p.name}: no bad-input cases for a parameter of kind {m.kind} ({p.type.c})")
    return KINDS[m.kind]


def enumeration_bad_values(fam) -> list:
    """Values of an enumeration family's type that are not members: next to the lowest and the
    highest, -1 and the type's extremes."""
    values = set(fam.values.values())
    lo, hi = min(values), max(values)
    ty_min, ty_max = {"int32_t": (-2**31, 2**31 - 1), "uint32_t": (0, 2**32 - 1),
                      "int64_t": (-2**63, 2**63 - 1), "uint64_t": (0, 2**64 - 1)}[fam.ctype]
    names = {-2**31: "INT32_MIN", 2**31 - 1: "INT32_MAX", 2**32 - 1: "UINT32_MAX"}
    out = []
    for v in (lo - 1, hi + 1, -1, ty_min, ty_max):
        if ty_min <= v <= ty_max and v not in values and names.get(v, str(v)) not in out:
            out.append(names.get(v, str(v)))
    return out


def model_facts(f, facts: dict, a) -> dict:
    """The facts of one function: what bad_input_facts.py says, completed from the model
    (nullable pointers and handles, flags and enumeration families)."""
    facts = dict(facts)
    null_ok = dict(facts.get("null_ok", {}))
    ints = dict(facts.get("ints", {}))
    for p in f.params:
        m = p.model
        if m.nullable and p.name not in null_ok and not m.owned:
            null_ok[p.name] = None
        if m.kind == "int" and p.name not in ints and m.family:
            fam = a.family(m.family)
            if fam.kind == "flags":
                ints[p.name] = ("flags", "DC_ERROR_INVALID_ARGUMENT")
            elif fam.kind == "enumeration":
                ints[p.name] = ("bad", enumeration_bad_values(fam), "DC_ERROR_INVALID_ARGUMENT")
        if m.kind == "handle" and m.nullable and not m.owned and p.name not in null_ok:
            null_ok[p.name] = None
    facts["null_ok"] = null_ok
    facts["ints"] = ints
    return facts


def out_storage_type(c: str) -> str:
    assert c.endswith("*")
    return c[:-1].rstrip()


def short(handle_type: str) -> str:
    return handle_type[len("dc_"):]


def init_macro(struct_name: str) -> str:
    return "DC_" + struct_name[len("dc_"):].upper() + "_INIT"


def as_list(status) -> list:
    return status if isinstance(status, list) else [status]


def cxx_str(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


class Generator:
    def __init__(self, header: str):
        self.a = api.parse_header(header)
        if self.a.problems:
            raise GenError("the header parser reports problems: " + "; ".join(map(str, self.a.problems)))
        self.cases = []   # (function, argument, what, body)
        self.exempt = []  # (function, why)
        self.notes = []   # (function, note)

    def valid_values(self, f, facts) -> dict:
        values = {}
        given = facts.get("valid", {})
        for name in given:
            if name not in [p.name for p in f.params]:
                raise GenError(f"{f.name}: facts give a valid value for unknown parameter {name}")
        for p in f.params:
            kind = classify(p, self.a)
            if p.name in given:
                values[p.name] = given[p.name]
            elif kind == "handle":
                values[p.name] = "fx." + short(p.type.base)
            elif kind == "in_struct":
                values[p.name] = IN_STRUCT_VALID.get(p.type.base, "&fx." + short(p.type.base))
            elif kind in ("out_handle", "out_scalar", "out_ptr", "inout_struct"):
                values[p.name] = None  # storage
            elif kind == "int":
                values[p.name] = "0"
            else:
                raise GenError(f"{f.name}: no valid value for {p.name} ({p.type.c}); add it to the facts")
        return values

    def emit(self, f, facts, label_arg, what, overrides, expected, text, word, struct_size=None):
        """One case: the valid call with `overrides` ({param: expr}); `struct_size`
        ({param: expr}) changes the struct_size of a struct argument."""
        valid = self.valid_values(f, facts)
        lines = []
        skip = facts.get("skip_if")
        if skip:
            lines.append(f"  if ({skip[0]}) {{ r.skip = {cxx_str(skip[1])}; return; }}")
        is_void = f.ret.c == "void"
        if not is_void:
            lines.append("  r.expected = {" + ", ".join(as_list(expected)) + "};")
            lines.append(f"  r.text = {cxx_str(text)};")
            lines.append(f"  r.word = {'true' if word else 'false'};")
        else:
            lines.append("  r.is_void = true;")
        call_args, checks, releases = [], [], []
        # An `after` may name the out storage (o_<param>); a case that replaces an out
        # pointer has none, and its call cannot have made anything to undo.
        out_replaced = False
        for p in f.params:
            kind = classify(p, self.a)
            if p.name in overrides:
                out_replaced = out_replaced or kind in ("out_handle", "out_scalar", "out_ptr")
                expr = overrides[p.name]
                if kind == "int":
                    expr = f"static_cast<{p.type.c}>({expr})"
                call_args.append(expr)
                continue
            v = valid[p.name]
            if kind in ("out_handle", "out_scalar", "out_ptr"):
                t = out_storage_type(p.type.c)
                lines.append(f"  {t} o_{p.name};")
                lines.append(f"  badinput::fill_sentinel(o_{p.name});")
                call_args.append(f"&o_{p.name}")
                checks.append(f"  r.outs_cleared = r.outs_cleared && badinput::is_zero(o_{p.name});")
                if kind == "out_handle":
                    releases.append(f"    {p.type.base}_release(o_{p.name});")
            elif kind == "inout_struct":
                lines.append(f"  {p.type.base} s_{p.name} = {init_macro(p.type.base)};")
                if struct_size and p.name in struct_size:
                    lines.append(f"  s_{p.name}.struct_size = {struct_size[p.name]};")
                call_args.append(f"&s_{p.name}")
            elif kind == "in_struct" and struct_size and p.name in struct_size:
                lines.append(f"  {p.type.base} s_{p.name} = *({v});")
                lines.append(f"  s_{p.name}.struct_size = {struct_size[p.name]};")
                call_args.append(f"&s_{p.name}")
            elif kind == "int":
                call_args.append(f"static_cast<{p.type.c}>({v})")
            else:
                call_args.append(v)
        call = f"{f.name}({', '.join(call_args)})"
        if is_void:
            lines.append(f"  {call};")
        else:
            lines.append(f"  r.status = {call};")
            lines.extend(checks)
            after = "" if out_replaced else facts.get("after", "")
            if releases or after:
                lines.append("  if (r.status == DC_SUCCESS) {")
                lines.extend(releases)
                if after:
                    lines.append(f"    {after}")
                lines.append("  }")
        self.cases.append((f.name, label_arg, what, "\n".join(lines)))

    def function_cases(self, f, facts):
        names = [p.name for p in f.params]
        for key in ("null_ok", "null", "ints", "msg"):
            for name in facts.get(key, {}):
                if name not in names:
                    raise GenError(f"{f.name}: facts[{key}] names unknown parameter {name}")
        baseline = facts.get("baseline", "DC_SUCCESS")
        is_void = f.ret.c == "void"
        if is_void and not f.name.endswith("_release"):
            raise GenError(f"{f.name}: returns void but is not a release function")
        if not is_void and f.ret.c != "dc_status":
            raise GenError(f"{f.name}: returns {f.ret.c}: exempt it with a reason")
        msg = facts.get("msg", {})
        null_ok = facts.get("null_ok", {})
        null = facts.get("null", {})
        ints = facts.get("ints", {})

        if is_void:
            # Release: every bad handle is ignored quietly.
            p = f.params[0]
            self.handle_cases(f, facts, p, None)
            return
        if baseline is None:
            self.notes.append((f.name, "valid call not made: " + facts.get("why", "")))
        else:
            self.emit(f, facts, "", "valid call", {}, baseline, "", False)
        for p in f.params:
            kind = classify(p, self.a)
            text = msg.get(p.name, p.name)
            word = p.name not in msg
            if kind == "handle":
                self.handle_cases(f, facts, p, baseline, null_ok.get(p.name, "unset"))
            elif kind in ("out_handle", "out_scalar", "out_ptr", "inout_struct", "in_struct", "memory", "string",
                          "callback"):
                if p.name in null_ok:
                    st = null_ok[p.name] or baseline
                    if st is not None:
                        self.emit(f, facts, p.name, "NULL (allowed)", {p.name: "nullptr"}, st, "", False)
                else:
                    st = null.get(p.name, "DC_ERROR_INVALID_ARGUMENT")
                    self.emit(f, facts, p.name, "NULL", {p.name: "nullptr"}, st, text, word)
                if kind in ("in_struct", "inout_struct"):
                    s = self.a.struct(p.type.base)
                    if s.fields and s.fields[0].name == "struct_size":
                        for label, value in (("struct_size 0", "0"),
                                             ("struct_size one byte short", f"sizeof({p.type.base}) - 1")):
                            self.emit(f, facts, p.name, label, {}, "DC_ERROR_INVALID_ARGUMENT",
                                      msg.get(p.name, "struct_size"), p.name not in msg, struct_size={p.name: value})
            elif kind == "int":
                if p.name not in ints:
                    raise GenError(f"{f.name}: no facts for integer parameter {p.name} "
                                   "(add ints={...: (\"any\", why)} if every value is valid)")
                self.int_cases(f, facts, p, ints[p.name], baseline, text, word)
        for label, overrides, status, text in facts.get("extra", []):
            for name in overrides:
                if name not in names:
                    raise GenError(f"{f.name}: extra case {label!r} names unknown parameter {name}")
            self.emit(f, facts, ",".join(overrides), label, overrides, status, text, False)

    def handle_cases(self, f, facts, p, baseline, null_rule="unset"):
        t = p.type.base
        other = "buffer" if t != "dc_buffer" else "device"
        code = HANDLE_CONST[t]
        bad = [
            ("NULL handle", "nullptr"),
            ("released handle", f"fx.dead_{short(t)}"),
            (f"a dc_{other} passed as {t}", f"reinterpret_cast<{t}>(fx.{other})"),
            ("made-up value 0x1234", f"reinterpret_cast<{t}>(uintptr_t(0x1234))"),
            ("made-up value of no handle type", f"reinterpret_cast<{t}>(uintptr_t(0xDEADBEEFDEADBEEFull))"),
            ("made-up value of the right type, never issued",
             f"reinterpret_cast<{t}>(uintptr_t((uint64_t({code}) << 56) | (uint64_t(0xABCDEF) << 32)))"),
            ("made-up value past the handle table",
             f"reinterpret_cast<{t}>(uintptr_t((uint64_t({code}) << 56) | (uint64_t(1) << 32) | 0xFFFFFFF0u))"),
        ]
        for what, expr in bad:
            if what == "NULL handle" and null_rule != "unset":
                st = null_rule or baseline
                if st is not None:
                    self.emit(f, facts, p.name, "NULL handle (allowed)", {p.name: expr}, st, "", False)
                continue
            self.emit(f, facts, p.name, what, {p.name: expr}, "DC_ERROR_INVALID_HANDLE", p.name, True)

    def int_cases(self, f, facts, p, spec, baseline, text, word):
        kind = spec[0]
        t = p.type.c
        if kind == "any":
            if baseline is not None:
                for v in (TYPE_MIN.get(t, "0"), TYPE_MAX.get(t, "0")):
                    self.emit(f, facts, p.name, f"{p.name} = {v} (any value is valid)", {p.name: v}, baseline, "",
                              False)
        elif kind == "size":
            _, zero, biggest = spec
            for label, v, st in (("0", "0", zero), ("maximal", TYPE_MAX[t], biggest)):
                ok = "DC_SUCCESS" in as_list(st) and len(as_list(st)) == 1
                self.emit(f, facts, p.name, f"{p.name} {label}", {p.name: v}, st, "" if ok else text,
                          word and not ok)
        elif kind == "offset":
            _, values, st = spec
            for v in values:
                self.emit(f, facts, p.name, f"{p.name} = {v}", {p.name: v}, st, text, word)
        elif kind == "flags":
            _, st = spec
            for v in ("0x80000000u", "0xFFFFFFFFu"):
                self.emit(f, facts, p.name, f"{p.name} = {v}", {p.name: v}, st, text, word)
        elif kind == "bad":
            _, values, st = spec
            for v in values:
                self.emit(f, facts, p.name, f"{p.name} = {v}", {p.name: v}, st, text, word)
        else:
            raise GenError(f"{f.name}: unknown integer spec {spec!r} for {p.name}")

    def run(self):
        facts = facts_module.FACTS
        header_names = [f.name for f in self.a.functions]
        for name in facts:
            if name not in header_names:
                raise GenError(f"facts for {name}, which the header does not declare: remove them")
        for f in self.a.functions:
            entry = facts.get(f.name, {})
            if "exempt" in entry:
                self.exempt.append((f.name, entry["exempt"]))
                continue
            if not f.model.fallible and f.ret.c != "void":
                why = ("its dc_status is an answer, not a result (DC_INFALLIBLE)" if f.ret.base == "dc_status"
                       else f"returns {f.ret.c}, not a dc_status: it cannot fail")
                self.exempt.append((f.name, why))
                continue
            self.function_cases(f, model_facts(f, entry, self.a))
        self.check_documented()

    def check_documented(self):
        """Every status a case expects must be one the function's Errors paragraph names."""
        for fn, arg, what, body in self.cases:
            f = self.a.function(fn)
            if not f.model.fallible:
                continue
            allowed = set(f.model.errors) | {"DC_SUCCESS"}
            for line in body.split("\n"):
                if line.startswith("  r.expected = {"):
                    for st in line[len("  r.expected = {"):-2].split(", "):
                        if st not in allowed:
                            raise GenError(f"{fn}: the case `{arg}: {what}` expects {st}, which the Errors paragraph "
                                           f"of {fn} in the header does not name: document it there (if the library "
                                           "is right) or fix the case")

    def write(self, path):
        out = ["// Generated by tests/reliability/gen_bad_inputs.py from include/dccuda.h and",
               "// tests/reliability/bad_input_facts.py. Do not edit: change the facts.",
               "namespace badinput::generated {",
               "constexpr uint64_t U64_MAX_ALIGNED = UINT64_MAX & ~uint64_t(15);",
               ""]
        for i, (fn, arg, what, body) in enumerate(self.cases):
            out.append(f"// {fn}: {arg + ': ' if arg else ''}{what}")
            out.append(f"static void case_{i}(Fixture& fx, Result& r) {{")
            out.append("  (void)fx;")
            out.append(body)
            out.append("}")
        out.append("")
        out.append("const Case kCases[] = {")
        for i, (fn, arg, what, _) in enumerate(self.cases):
            out.append(f"    {{{cxx_str(fn)}, {cxx_str(arg)}, {cxx_str(what)}, case_{i}}},")
        out.append("};")
        out.append("const Exemption kExempt[] = {")
        for fn, why in self.exempt:
            out.append(f"    {{{cxx_str(fn)}, {cxx_str(why)}}},")
        out.append("};")
        out.append("const Exemption kNotes[] = {")
        for fn, why in self.notes or [("", "")]:
            out.append(f"    {{{cxx_str(fn)}, {cxx_str(why)}}},")
        out.append("};")
        out.append("// Every handle type (DC_HANDLE_*), for the leak counts.")
        fam = self.a.family("dc_handle_type")
        out.append("constexpr int32_t kHandleTypes[] = {" + ", ".join(fam.members if fam else []) + "};")
        out.append("// Every function the header declares (the fallback list where abi/dccuda.symbols is absent).")
        out.append("const char* const kHeaderFunctions[] = {")
        for f in self.a.functions:
            out.append(f"    {cxx_str(f.name)},")
        out.append("};")
        out.append("}  // namespace badinput::generated")
        text = "\n".join(out) + "\n"
        old = open(path).read() if os.path.exists(path) else None
        if old != text:
            with open(path, "w") as fh:
                fh.write(text)


def main(argv):
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    try:
        g = Generator(argv[1])
        g.run()
        g.write(argv[2])
    except GenError as e:
        print(f"gen_bad_inputs.py: {e}", file=sys.stderr)
        return 1
    print(f"gen_bad_inputs.py: {len(g.cases)} cases for {len({c[0] for c in g.cases})} functions, "
          f"{len(g.exempt)} exempt")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
