"""abi/dccuda.symbols: the exported functions, one per line, sorted (LC_ALL=C).

The linker version script (abi/dccuda.map) exports `dc_*` and needs no list. A function the
released baseline (abi/dccuda.abi) exports may only leave the list with a major version bump:
removing it breaks every caller."""

from __future__ import annotations

import os
import re

from .common import Ctx, GenError

LIST = "abi/dccuda.symbols"
BASELINE = "abi/dccuda.abi"


def released(path: str):
    """(names the baseline exports, its major version), or (set(), None) without a baseline."""
    if not os.path.isfile(path):
        return set(), None
    with open(path, encoding="utf-8") as f:
        names = set(re.findall(r"<elf-symbol name='([^']+)'", f.read()))
    major = None
    vpath = path + ".version"
    if os.path.isfile(vpath):
        with open(vpath, encoding="utf-8") as f:
            major = int(f.read().strip().split(".")[0])
    return names, major


def generate(ctx: Ctx) -> None:
    names = sorted(f.name for f in ctx.api.functions)
    before, major = released(ctx.baseline or os.path.join(ctx.root, BASELINE))
    gone = sorted(before - set(names))
    if gone and major is not None and ctx.api.version[0] <= major:
        raise GenError("these functions were released (they are in the baseline, " + BASELINE + ") and the header no longer "
                       "declares them: " + ", ".join(gone) + ". Removing them breaks the ABI: keep them, or bump "
                       "DCCUDA_VERSION_MAJOR (and the SONAME) first.")
    ctx.add(LIST, "".join(n + "\n" for n in names))
