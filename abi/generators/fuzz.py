"""tests/fuzz/fuzz_api_calls.inc: what fuzz_api (tests/fuzz/fuzz_api.cpp) derives from the model.

Included inside fuzz_api's Program class, it defines:
  kHandleTypes                 every DC_HANDLE_* (the leak check at the end of each input)
  is_known_status(st)          a status of the header's dc_status family
  documented(call, st)         whether the function's "Errors:" paragraph names st
  release_one(h, which),       the release functions (DC_OWNED in-handles), one or all
  release_all(h)
  fuzz_fill(T&)                one per public struct: its DC_*_INIT values, then fields changed
                               at random (numbers by family; pointers only to memory the fuzzer
                               owns, handles from the pool)
  generated_call(which)        one call of every function whose arguments the model can make up,
                               each argument by its annotations (handles from the pool, numbers by
                               family, strings, arrays with their counts, out-pointers), with every
                               invariant of fuzz_api's check() and the documented statuses
  kGeneratedCalls              the names, in the order generated_call numbers them

Functions left out of generated_call say why in the file: the release functions (release_one
does them), and those with an input the caller must keep valid for a handle's lifetime
(DC_LIFETIME on a raw CUDA object or on memory), which no made-up value honours; fuzz_api's
hand-written cases make real ones."""

from __future__ import annotations

from typing import List

from .common import GENERATED_MARK, Ctx, GenError, constants, cxx_str, struct_defaults

INTS = {"int8_t", "uint8_t", "int16_t", "uint16_t", "int32_t", "uint32_t", "int64_t", "uint64_t", "dc_status"}


def excluded(f) -> str:
    """Why generated_call leaves f out, or ""."""
    for p in f.params:
        m = p.model
        if m.kind == "handle" and m.owned:
            return "releases its handle (release_one calls it)"
        if m.lifetime is not None and m.direction == "in" and m.kind in ("native", "memory", "int"):
            return (f"`{p.name}` must stay valid while `{m.lifetime}` lives: made-up values break the "
                    "caller's part of the contract")
    return ""


def int_expr(api, ty: str, family) -> str:
    if family:
        fam = api.family(family)
        vals = ", ".join(fam.members)
        kind = "true" if fam.kind == "flags" else "false"
        return f"pick_of<{ty}>({{{vals}}}, {kind})"
    if ty in ("uint64_t",):
        return "fuzz_u64()"
    return f"fuzz_int<{ty}>()"


def fill_struct(api, s) -> List[str]:
    defaults = struct_defaults(api, s)
    init = f"DC_{s.name[3:].upper()}_INIT" if defaults is not None else "{}"
    out = [f"  void fuzz_fill({s.name}& s) {{",
           f"    {s.name} init = {init};",
           "    s = init;"]
    fields = {f.name: f for f in s.fields}
    counts = {}
    for f in s.fields:
        m = f.model
        if m is not None and m.array is not None:
            counts[m.array] = f.name
    for f in s.fields:
        m, t = f.model, f.type
        if f.name == "struct_size":
            out.append("    if (r_.u8() % 4 == 0) s.struct_size = fuzz_struct_size(sizeof s);")
            continue
        if t.array:
            if t.base in INTS:
                out.append(f"    if (r_.u8() & 1)")
                out.append(f"      for (auto& e : s.{f.name}) e = fuzz_int<{t.base}>();")
            continue
        if t.pointer_depth == 0 and t.base in INTS:
            expr = int_expr(api, t.base, m.family if m else None)
            out.append(f"    if (r_.u8() & 1) s.{f.name} = {expr};")
        elif t.pointer_depth == 0 and t.base in api.handles:
            out.append(f"    if (r_.u8() & 1) s.{f.name} = pick<{t.base}>();")
        elif m is not None and m.kind == "memory" and m.array in fields:
            # Memory the struct points to: the fuzzer's scratch, never shorter than its count.
            out.append(f"    if (r_.u8() & 1) s.{f.name} = scratch();")
        # Other pointers (strings, string arrays) stay NULL: a made-up pointer is the caller's
        # error, not the library's.
    for count, field in counts.items():
        fm = fields[field].model
        if fm.kind == "memory":
            out.append(f"    if (s.{field} && s.{count} > kScratch) s.{count} %= kScratch;")
    out.append("  }")
    return out


def call_case(api, f, index: int) -> List[str]:
    pre, args, outs, keeps = [], [], [], []
    arrays = {p.model.array: p for p in f.params
              if p.model.array is not None and p.model.kind in ("memory", "struct", "handles")}
    for p in f.params:
        m, t = p.model, p.type
        v = f"a_{p.name}"
        k = m.kind
        if p.name in arrays:           # a count: set with its array, below
            continue
        if k == "handle":
            pre.append(f"    {t.base} {v} = pick<{t.base}>();")
        elif k in ("int",):
            pre.append(f"    {t.c} {v} = {int_expr(api, t.base, m.family)};")
        elif k == "float":
            pre.append(f"    {t.c} {v} = static_cast<{t.c}>(fuzz_int<int32_t>());")
        elif k == "callback":
            cb = next(c for c in api.callbacks if c.name == t.base)
            params = ", ".join(q.type.c for q in cb.params)
            ret = cb.ret.c
            body = "{}" if ret == "void" else f"{{ return {ret}{{}}; }}"
            pre.append(f"    {t.base} {v} = (r_.u8() & 1) ? nullptr : +[]({params}) -> {ret} {body};")
        elif k == "user_data":
            pre.append(f"    void* {v} = (r_.u8() & 1) ? nullptr : static_cast<void*>(scratch());")
        elif k == "string":
            pre.append(f"    const char* {v} = fuzz_string();")
        elif k == "memory" and t.base not in ("void", "char", "uint8_t"):
            # An array of typed elements (node ids...): a few elements of
            # made-up values, aligned as the type needs.
            count = f.param(m.array)
            ct = count.type.c
            pre.append(f"    {ct} a_{count.name} = static_cast<{ct}>(r_.u8() % 9);")
            pre.append(f"    {t.c} {v} = (r_.u8() == 1) ? nullptr : reinterpret_cast<{t.c}>(scratch_aligned());")
            pre.append(f"    if (!{v}) a_{count.name} = static_cast<{ct}>(r_.u8() ? 0 : r_.u32());")
        elif k == "memory":
            count = f.param(m.array)
            ct = count.type.c
            pre.append(f"    {ct} a_{count.name} = static_cast<{ct}>(host_amount());")
            pre.append(f"    {t.c} {v} = (r_.u8() == 1) ? nullptr : reinterpret_cast<{t.c}>(host(a_{count.name}));")
            pre.append(f"    if (!{v}) a_{count.name} = static_cast<{ct}>(r_.u8() ? 0 : r_.u32());")
        elif k == "handles":
            # A few handles picked as single handle arguments are (live, released, made up).
            count = f.param(m.array)
            ct = count.type.c
            pre.append(f"    {t.base} h_{p.name}[8];")
            pre.append(f"    for (auto& h : h_{p.name}) h = pick<{t.base}>();")
            pre.append(f"    {ct} a_{count.name} = static_cast<{ct}>(r_.u8() % 9);")
            pre.append(f"    const {t.base}* {v} = (r_.u8() == 1) ? nullptr : h_{p.name};")
            pre.append(f"    if (!{v}) a_{count.name} = static_cast<{ct}>(r_.u8() ? 0 : r_.u32());")
        elif k == "struct" and m.array is not None:
            count = f.param(m.array)
            ct = count.type.c
            pre.append(f"    std::vector<{t.base}> s_{p.name}(r_.u8() % 7);")
            pre.append(f"    for (auto& e : s_{p.name}) fuzz_fill(e);")
            pre.append(f"    const {t.base}* {v} = s_{p.name}.empty() ? nullptr : s_{p.name}.data();")
            pre.append(f"    {ct} a_{count.name} = static_cast<{ct}>(s_{p.name}.size());")
            pre.append(f"    if (r_.u8() == 3) {{ {v} = nullptr; a_{count.name} = static_cast<{ct}>(r_.u32()); }}")
        elif k == "struct":
            pre.append(f"    {t.base} s_{p.name};")
            pre.append(f"    fuzz_fill(s_{p.name});")
            pre.append(f"    {t.base}* {v} = (r_.u8() == 5) ? nullptr : &s_{p.name};")
        elif k == "out_handle" and m.array is not None:
            # An array of handles the call writes, as long as its count (set
            # with the input array sharing it: at most 8 elements when that
            # array is given; dccuda must refuse other counts before writing).
            base = t.c[:-1].rstrip()
            pre.append(f"    {base} o_{p.name}[16]{{}};")
            pre.append(f"    {base}* {v} = (r_.u8() == 0) ? nullptr : o_{p.name};")
            outs.append(f"&o_{p.name}[0]")
            if m.owned:
                keeps.append(f"o_{p.name}[0]")
        elif k in ("out_handle", "out_scalar", "out_string", "out_pointer"):
            base = t.c[:-1].rstrip()          # what it points to
            pre.append(f"    {base} o_{p.name}{{}};")
            pre.append(f"    {base}* {v} = (r_.u8() == 0) ? nullptr : &o_{p.name};")
            outs.append(f"&o_{p.name}")
            if k == "out_handle" and m.owned:
                keeps.append(f"o_{p.name}")
        else:
            raise GenError(f"{f.name}: the fuzzer cannot make up a `{t.c}` ({k})")
        args.append(v)
    # Put counts where their parameters are.
    call_args = []
    for p in f.params:
        call_args.append(f"a_{p.name}")
    call = f"{f.name}({', '.join(call_args)})"
    out = [f"      case {index}: {{  // {f.name}"]
    out += ["  " + line for line in pre]
    if f.model.fallible:
        check = f"check({cxx_str(f.name)}, {call}" + "".join(f", {o}" for o in outs) + ")"
        if keeps:
            out.append(f"        if ({check} == DC_SUCCESS) {{")
            for kv in keeps:
                if kv.endswith("[0]"):  # every handle of an out array
                    arr = kv[:-3]
                    out.append(f"          for (auto h : {arr}) if (h) keep(h);")
                else:
                    out.append(f"          keep({kv});")
            out.append("        }")
        else:
            out.append(f"        {check};")
    elif f.ret.c.startswith("const char"):
        out.append(f"        if ({call} == nullptr) fatal(\"returned NULL (the header says never)\", {cxx_str(f.name)});")
    elif f.ret.c == "void":
        out.append(f"        {call};")
    else:
        out.append(f"        (void){call};")
    out += ["        break;", "      }"]
    return out


def generate(ctx: Ctx) -> None:
    api = ctx.api
    out = [f"// {GENERATED_MARK} from {ctx.header_rel}: fuzz_api's table of calls and the facts",
           "// it checks (see abi/generators/fuzz.py). Included inside fuzz_api.cpp's Program class.",
           "// Do not edit: change the header and run abi/gen.py.", ""]
    handle_fam = api.family("dc_handle_type")
    status = api.family("dc_status")
    if status is None:
        raise GenError("no DC_CONSTANTS(dc_status, ...) family in the header")
    out.append("  // Every handle type (DC_HANDLE_*).")
    members = handle_fam.members if handle_fam else []
    out.append("  static constexpr int32_t kHandleTypes[] = {" + ", ".join(members) + "};")
    out += ["", "  // A status of the header (the dc_status family).",
            "  static bool is_known_status(dc_status st) {",
            "    switch (st) {"]
    out += [f"      case {n}:" for n in status.members]
    out += ["        return true;", "      default:", "        return false;", "    }", "  }", ""]
    out += ["  // Whether a function's \"Errors:\" paragraph names the status (DC_SUCCESS always counts).",
            "  static bool documented(const char* call, dc_status st) {",
            "    if (st == DC_SUCCESS) return true;"]
    for f in api.functions:
        if not f.model.fallible:
            continue
        cases = " || ".join(f"st == {e}" for e in f.model.errors) or "false"
        out.append(f"    if (std::strcmp(call, {cxx_str(f.name)}) == 0) return {cases};")
    out += ["    return true;  // not a function of the header: nothing to hold it to", "  }", ""]
    releases = [f for f in api.functions if f.params and f.params[0].model.kind == "handle"
                and f.params[0].model.owned]
    out += ["  // The release functions (DC_OWNED in-handles): one picked, or all of them (only the",
            "  // right one does anything with a valid handle).",
            f"  static constexpr int kReleases = {len(releases)};",
            "  static void release_one(void* h, uint8_t which) {",
            f"    switch (which % {max(len(releases), 1)}) {{"]
    for i, f in enumerate(releases):
        t = f.params[0].type.base
        out.append(f"      case {i}: {f.name}(static_cast<{t}>(h)); break;")
    out += ["      default: break;", "    }", "  }",
            "  static void release_all(void* h) {",
            "    for (int i = 0; i < kReleases; ++i) release_one(h, static_cast<uint8_t>(i));",
            "  }", ""]
    out.append("  // Each public struct: its DC_*_INIT values, then fields changed at random.")
    for s in api.structs:
        out += fill_struct(api, s)
    out.append("")
    calls, left_out = [], []
    for f in api.functions:
        why = excluded(f)
        if why:
            left_out.append((f.name, why))
        else:
            calls.append(f)
    out.append("  // Not in generated_call:")
    for name, why in left_out:
        out.append(f"  //   {name}: {why}")
    out += ["", "  // One call of the `which`-th function of kGeneratedCalls, its arguments made up from",
            "  // the model.", "  void generated_call(uint32_t which) {",
            f"    switch (which % {len(calls)}) {{"]
    for i, f in enumerate(calls):
        out += call_case(api, f, i)
    out += ["      default: break;", "    }", "  }", "",
            f"  static constexpr const char* kGeneratedCalls[{len(calls)}] = {{"]
    out += [f"      {cxx_str(f.name)}," for f in calls]
    out += ["  };", ""]
    ctx.add("tests/fuzz/fuzz_api_calls.inc", "\n".join(out))
