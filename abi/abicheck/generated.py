"""Check: the generated bindings are current (bindings.generated).

abi/gen.py writes the C# raw layer, Zig's c.zig, Rust's dccuda-sys, the status maps, the symbol
list and the fuzzer's call table from the header's model. Here the same generators run in memory
and every output is compared with the file in the tree: a header change without regenerating, or
a hand edit of a generated file, fails and names the file. (This replaces reading each binding's
declarations back with a parser: what is generated cannot drift from the header unless it is
stale, and staleness is what this finds. What the compilers make of the generated types is
measured by layouts.* and constants.*.)"""

from __future__ import annotations

import os
import sys

from .context import Context
from .report import Result

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))   # abi/


def check(ctx: Context) -> Result:
    r = Result("bindings.generated")
    if HERE not in sys.path:
        sys.path.insert(0, HERE)
    import gen  # noqa: E402  (abi/gen.py)
    from generators import common  # noqa: E402
    try:
        g = gen.build(ctx.root, ctx.header, ctx.baseline)
    except common.GenError as e:
        r.fail(str(e))
        return r.finish("the header's model is incomplete")
    stale = 0
    for rel, text in sorted(g.outputs.items()):
        path = os.path.join(ctx.root, rel)
        old = None
        if os.path.isfile(path):
            with open(path, encoding="utf-8") as f:
                old = f.read()
        if old != text:
            stale += 1
            why = "does not exist" if old is None else "differs from what the header gives"
            r.fail(f"{rel} {why}: run abi/gen.py and commit the result (never edit a generated file)")
    for rel in gen.leftovers(ctx.root, g.outputs):
        stale += 1
        r.fail(f"{rel} is marked generated but nothing generates it any more: run abi/gen.py (removes it)")
    return r.finish(f"{len(g.outputs)} generated files, {stale} stale")
