"""The C# raw layer (bindings/csharp/Native): the declarations in both views, the constants and
the structs with their DC_*_INIT defaults.

Every declaration is written once with its attribute per runtime: .NET 7+ compiles the
[LibraryImport] branch (a source-generated stub, `static partial`, with an explicit EntryPoint
and the C calling convention named), Mono and .NET Framework the [DllImport] branch (`static
extern`). Blittable types only, so that neither runtime marshals anything: handles are IntPtr,
input strings NUL-terminated UTF-8 byte*, out-values pointers, callbacks and user data IntPtr,
memory void*; a library-owned string comes back as IntPtr (Utf8.Decode reads it): a marshalled
string return would be freed by the runtime. The hand-written parts are NativeMethods.cs (the
library name, the resolver), NativeLibraryResolver.cs and Utf8.cs."""

from __future__ import annotations

from typing import Dict, List

from .common import Ctx, GenError, HeaderText, constants, items_in_order, pascal, struct_defaults

NATIVE = "bindings/csharp/Native"

# Header sections -> NativeMethods.<file>.cs. A section not listed gets a file named after its
# first word.
FILES = {
    "Version": "Core",
    "Status codes and the last error": "Core",
    "Initialisation and the libraries underneath": "Core",
    "Devices": "Device",
    "Buffers: memory on the device, pinned host memory, managed memory": "Buffer",
    "Streams and events": "Stream",
    "Runtime compilation (NVRTC) and the kernel cache": "Compile",
    "Modules and functions": "Module",
    "Launching kernels": "Launch",
    "Occupancy": "Launch",
    "Graphs": "Graph",
}

SCALARS = {"int8_t": "sbyte", "uint8_t": "byte", "char": "byte", "int16_t": "short", "uint16_t": "ushort",
           "int32_t": "int", "uint32_t": "uint", "int64_t": "long", "uint64_t": "ulong", "float": "float",
           "double": "double", "dc_status": "int"}

# The 1.0 binding spelled these constants `int` although their family is uint32_t (they are
# compared with System.Version's int parts); kept, as published.
CONSTANT_TYPES = {"DCCUDA_VERSION_MAJOR": "int", "DCCUDA_VERSION_MINOR": "int", "DCCUDA_VERSION_PATCH": "int"}

KEYWORDS = {"abstract", "as", "base", "bool", "break", "byte", "case", "catch", "char", "checked", "class", "const",
            "continue", "decimal", "default", "delegate", "do", "double", "else", "enum", "event", "explicit",
            "extern", "false", "finally", "fixed", "float", "for", "foreach", "goto", "if", "implicit", "in", "int",
            "interface", "internal", "is", "lock", "long", "namespace", "new", "null", "object", "operator", "out",
            "override", "params", "private", "protected", "public", "readonly", "ref", "return", "sbyte", "sealed",
            "short", "sizeof", "stackalloc", "static", "string", "struct", "switch", "this", "throw", "true", "try",
            "typeof", "uint", "ulong", "unchecked", "unsafe", "ushort", "using", "virtual", "void", "volatile",
            "while"}


def ident(name: str) -> str:
    return "@" + name if name in KEYWORDS else name


def struct_name(c: str) -> str:
    return "Dc" + pascal(c)


def param_type(api, p, where: str) -> str:
    m, t = p.model, p.type
    k = m.kind
    if k in ("handle", "callback", "user_data"):
        return "IntPtr"
    if k in ("int", "float"):
        return SCALARS[t.base]
    if k in ("out_handle", "handles"):
        return "IntPtr*"
    if k == "out_scalar":
        return SCALARS[t.base] + "*"
    if k == "string":
        return "byte*"
    if k in ("out_string", "out_pointer"):
        return "IntPtr*"
    if k in ("memory", "native"):
        return "void*"
    if k == "struct":
        return struct_name(t.base) + "*"
    raise GenError(f"{where}: no C# type for a parameter of kind {k} (`{t.c}`)")


def return_type(f) -> str:
    t = f.ret
    if t.c == "void":
        return "void"
    if t.pointer_depth == 1 and t.base == "char":
        return "IntPtr"
    if t.pointer_depth == 0 and t.base in SCALARS:
        return SCALARS[t.base]
    raise GenError(f"{f.name}: no C# type for the return type `{t.c}`")


def declaration(api, f) -> List[str]:
    params = ", ".join(f"{param_type(api, p, f'{f.name} parameter {p.name}')} {ident(p.name)}" for p in f.params)
    return [
        "#if NET7_0_OR_GREATER",
        "        [UnmanagedCallConv(CallConvs = new[] { typeof(System.Runtime.CompilerServices.CallConvCdecl) })]",
        f"        [LibraryImport(Lib, EntryPoint = \"{f.name}\")]",
        "        public static partial",
        "#else",
        f"        [DllImport(Lib, EntryPoint = \"{f.name}\", ExactSpelling = true, CallingConvention = CallingConvention.Cdecl)]",
        "        public static extern",
        "#endif",
        f"            {return_type(f)} {f.name}({params});",
    ]


def methods(ctx: Ctx) -> None:
    api = ctx.api
    files: Dict[str, List] = {}
    sections: Dict[str, List[str]] = {}
    for f in api.functions:
        section = f.model.section or "Core"
        name = FILES.get(section) or pascal(section.split()[0].lower().strip(":,()"))
        files.setdefault(name, []).append(f)
        if section not in sections.setdefault(name, []):
            sections[name].append(section)
    for name, fns in files.items():
        out = [ctx.banner("//", "the raw declarations of section" + ("s " if len(sections[name]) > 1 else " ")
                          + "; ".join(f'"{s}"' for s in sections[name])).rstrip("\n"),
               "// Each mirrors its C prototype in the header, where it is documented; NativeMethods.cs says",
               "// the rules every declaration follows.",
               "using System;",
               "using System.Runtime.InteropServices;",
               "",
               "namespace Dccuda.Interop",
               "{",
               "    public static unsafe partial class NativeMethods",
               "    {"]
        for i, f in enumerate(fns):
            if i:
                out.append("")
            out += declaration(api, f)
        out += ["    }", "}", ""]
        ctx.add(f"{NATIVE}/NativeMethods.{name}.cs", "\n".join(out))


def constant_literal(m, cs_type: str) -> str:
    v = m.value
    if cs_type in ("uint", "ulong"):
        body = m.body.lower()
        lit = f"0x{v:x}" if "0x" in body and v >= 16 else str(v)
        return lit + ("u" if cs_type == "uint" else "ul")
    return str(v)


def native_constants(ctx: Ctx) -> None:
    api = ctx.api
    out = [ctx.banner("//", "every constant of the header with its C name and value").rstrip("\n"),
           "// Typed as their family (DC_CONSTANTS in the header): uint32_t families are uint.",
           "namespace Dccuda.Interop",
           "{",
           "    public static class NativeConstants",
           "    {"]
    last = None
    for m in constants(api):
        fam = api.family(m.family)
        if last is not None and fam.name != last:
            out.append("")
        last = fam.name
        t = CONSTANT_TYPES.get(m.name) or SCALARS[fam.ctype]
        out.append(f"        public const {t} {m.name} = {constant_literal(m, t)};")
    out += ["    }", "}", ""]
    ctx.add(f"{NATIVE}/NativeConstants.cs", "\n".join(out))


def field_decl(api, f) -> List[str]:
    t = f.type
    name = pascal(f.name)
    if t.array:
        if t.pointer_depth or len(t.array) != 1:
            raise GenError(f"field {f.name}: only one-dimensional arrays of numbers have a C# spelling")
        return [f"public fixed {SCALARS[t.base]} {name}[{t.array[0]}];"]
    if t.pointer_depth or t.base in api.handles or any(c.name == t.base for c in api.callbacks):
        return [f"public IntPtr {name};"]
    if t.base in SCALARS:
        return [f"public {SCALARS[t.base]} {name};"]
    raise GenError(f"field {f.name}: no C# spelling for `{t.c}` (a struct inside a struct?)")


def structs(ctx: Ctx) -> None:
    api = ctx.api
    text = HeaderText(api.text)
    out = [ctx.banner("//", "the public structs, field for field").rstrip("\n"),
           "// Sequential layout with the C types' sizes gives the C layout (fixed buffers for the C arrays);",
           "// abi/check_abi.py measures it against the C compiler's. Each struct with a DC_*_INIT macro has",
           "// Init(): struct_size set and every field as the macro sets it.",
           "using System;",
           "using System.Runtime.InteropServices;",
           "",
           "namespace Dccuda.Interop",
           "{"]
    for k, s in enumerate(api.structs):
        if k:
            out.append("")
        cs = struct_name(s.name)
        fixed = any(f.type.array for f in s.fields)
        out.append(f"    /// <summary>{s.name}.</summary>")
        out.append("    [StructLayout(LayoutKind.Sequential)]")
        out.append(f"    public {'unsafe ' if fixed else ''}struct {cs}")
        out.append("    {")
        for f in s.fields:
            doc = text.doc_at(f.line) if f.line else ""
            if f.type.pointer_depth or f.type.base in api.handles:
                doc = (f"{f.type.c}" + (f": {doc}" if doc else "")).replace("\n", " ")
            if doc:
                doc = " ".join(doc.split()).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
                out.append(f"        /// <summary>{doc}</summary>")
            out += ["        " + d for d in field_decl(api, f)]
        defaults = struct_defaults(api, s)
        if defaults is not None:
            out += init_method(api, s, cs, defaults)
        out.append("    }")
    out += ["}", ""]
    ctx.add(f"{NATIVE}/Structs.cs", "\n".join(out))


def init_method(api, s, cs: str, defaults) -> List[str]:
    sets, loops = [], []
    for f, d in zip(s.fields, defaults):
        name = pascal(f.name)
        if isinstance(d, list):
            for i, x in enumerate(d):
                v = _value(api, f, x, cs)
                if v not in ("0", "0u", "0ul"):
                    loops.append(f"            v.{name}[{i}] = {v};")
            continue
        v = _value(api, f, d, cs)
        if v in ("0", "0u", "0ul", "IntPtr.Zero"):
            continue
        sets.append(f"{name} = {v}")
    macro = "DC_" + s.name[3:].upper() + "_INIT"
    lines = ["", f"        /// <summary>{macro}.</summary>",
             f"        public static unsafe {cs} Init()", "        {"]
    if loops:
        lines.append(f"            var v = new {cs} {{ {', '.join(sets)} }};")
        lines += loops
        lines += ["            return v;", "        }"]
    else:
        lines += [f"            return new {cs} {{ {', '.join(sets)} }};", "        }"]
    return lines


def _value(api, f, d, cs: str) -> str:
    kind = d[0]
    if kind == "sizeof":
        if d[1] != f"dc_{cs[2:].lower()}" and struct_name(d[1]) != cs:
            raise GenError(f"{cs}: struct_size set from sizeof({d[1]})")
        return f"(uint)sizeof({cs})"
    if kind == "null":
        return "IntPtr.Zero"
    if kind == "const":
        return f"NativeConstants.{d[1]}"
    t = SCALARS.get(f.type.base, "int")
    return str(d[1]) + ("u" if t == "uint" and d[1] else "")


def generate(ctx: Ctx) -> None:
    methods(ctx)
    native_constants(ctx)
    structs(ctx)
