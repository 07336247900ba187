"""The bindings' measuring programs: compiled in each language, they print what that compiler
and runtime make of the binding, for the layout check (`layout`) and the constant check
(`constants`), in abi/README.md's line formats.

| binding | program                                      | run as                                   |
| csharp  | abi/probes/Probe.cs + bindings/csharp/Native | mcs, then `mono Probe.exe layout|constants` |
| rust    | bindings/rust/dccuda-sys/examples/layout.rs  | `cargo run --offline --example layout -- layout|constants` |
| zig     | bindings/zig/layout.zig                      | `zig run layout.zig -- layout|constants` |

Each finds the structs and constants through the language's own view of the binding (reflection,
the generated lists, @typeInfo), so the programs name no struct or constant themselves."""

from __future__ import annotations

import os
import re
from typing import Dict, List, Optional, Tuple

from .context import Context
from .util import files_under, run as run_tool, which

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))   # abi/

DESCRIBE = {
    "csharp": "abi/probes/Probe.cs with bindings/csharp/Native, compiled with mcs and run with mono",
    "rust": "`cargo run --offline --example layout` in bindings/rust/dccuda-sys",
    "zig": "`zig run layout.zig` in bindings/zig",
}
_compiled: Dict[Tuple[str, str], str] = {}   # (binding, work dir) -> program, compiled once per run


def describe(binding: str) -> str:
    return DESCRIBE.get(binding, binding)


def _env(ctx: Context) -> Dict[str, str]:
    env = {}
    if ctx.library:
        libdir = os.path.dirname(os.path.abspath(ctx.library))
        env["DCCUDA_LIB_DIR"] = libdir
        env["DCCUDA_LIBRARY"] = os.path.abspath(ctx.library)
        env["LD_LIBRARY_PATH"] = libdir + os.pathsep + os.environ.get("LD_LIBRARY_PATH", "")
    return env


def csharp_sources(ctx: Context) -> List[str]:
    """The binding's raw layer: bindings/csharp/Native/*.cs, else every .cs of bindings/csharp
    outside tests/, samples/ and examples/."""
    base = os.path.join(ctx.bindings_root, "csharp")
    native = os.path.join(base, "Native")
    if os.path.isdir(native):
        return sorted(os.path.join(native, f) for f in os.listdir(native) if f.endswith(".cs"))
    return files_under(base, [".cs"], skip_dirs=("tests", "samples", "examples"))


def measure(ctx: Context, binding: str, mode: str) -> Tuple[Optional[str], str, bool]:
    """(output, why not / how, present) of a binding's program in `mode` (layout | constants).
    present=False: the binding, the program or its tool is missing."""
    root = ctx.bindings_root
    if not os.path.isdir(os.path.join(root, binding)):
        return None, f"{ctx.rel(os.path.join(root, binding))} does not exist", False
    if binding == "csharp":
        mcs, mono = which("mcs", "MCS"), which("mono", "MONO")
        if not mcs or not mono:
            return None, "mcs/mono are not installed", False
        work = ctx.work("probe-csharp")
        exe = _compiled.get(("csharp", work))
        if exe is None:
            exe = os.path.join(work, "Probe.exe")
            res = run_tool([mcs, "-unsafe", "-nologo", "-target:exe", "-out:" + exe,
                            os.path.join(HERE, "probes", "Probe.cs")] + csharp_sources(ctx))
            if res.rc != 0:
                return None, f"mcs failed:\n{res.tail(20)}", True
            _compiled[("csharp", work)] = exe
        res = run_tool([mono, exe, mode], env=_env(ctx))
    elif binding == "rust":
        crate = os.path.join(root, "rust", "dccuda-sys")
        if not os.path.isfile(os.path.join(crate, "examples", "layout.rs")):
            return None, f"{ctx.rel(os.path.join(crate, 'examples', 'layout.rs'))} does not exist", False
        cargo = which("cargo", "CARGO")
        if not cargo:
            return None, "cargo is not installed", False
        env = _env(ctx)
        env["CARGO_TARGET_DIR"] = ctx.work("cargo-target")
        res = run_tool([cargo, "run", "--quiet", "--offline", "--example", "layout", "--", mode], cwd=crate, env=env)
    elif binding == "zig":
        src = os.path.join(root, "zig", "layout.zig")
        if not os.path.isfile(src):
            return None, f"{ctx.rel(src)} does not exist", False
        zig = which("zig", "ZIG")
        if not zig:
            return None, "zig is not installed", False
        env = _env(ctx)
        cache = ctx.work("zig-cache")
        env.update({"ZIG_GLOBAL_CACHE_DIR": cache, "ZIG_LOCAL_CACHE_DIR": cache})
        res = run_tool([zig, "run", "layout.zig", "--", mode], cwd=os.path.dirname(src), env=env)
    else:
        return None, f"no program for {binding}", False
    if res.rc != 0:
        return None, f"the {mode} program failed (exit {res.rc}):\n{res.tail(20)}", True
    # Lines on stdout; Zig's std.debug.print writes to stderr, accepted as well.
    first = "struct" if mode == "layout" else "constant"
    text = res.stdout if re.search(rf"(?m)^\s*{first}\s", res.stdout) else res.stderr
    return text, describe(binding), True

