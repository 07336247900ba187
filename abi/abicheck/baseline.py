"""Check b: binary compatibility against the last released ABI (libabigail).

abi/dccuda.abi is `abidw` of the released library (public types only, no absolute paths);
abi/dccuda.abi.version holds the header version it was made from. `abidiff` compares the
built library with it. abidiff's exit status is a bit mask: 1 error, 2 usage error, 4 ABI
change, 8 incompatible change. A struct field that changes type without changing size is
only "4", so 4 fails too unless every change in the report is an added function."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from typing import List, Optional, Set, Tuple

from .context import Context
from .report import Result
from .util import read, run, which

ABIDW_FLAGS = [
    "--drop-private-types",       # types not in the public header (C++ internals) stay out
    "--exported-interfaces-only",  # only what the dynamic symbol table exports
    "--no-corpus-path",            # no absolute path of the library
    "--no-comp-dir-path",          # no build directory
    "--short-locs",                # file names only (not --no-show-locs: abidiff then filters
                                   # struct changes out as if the types were private)
    "--type-id-style", "hash",     # ids stable when unrelated types come and go
]
ABIDIFF_FLAGS = ["--drop-private-types", "--exported-interfaces-only", "--fail-no-debug-info"]

ABIDIFF_ERROR, ABIDIFF_USAGE, ABIDIFF_CHANGE, ABIDIFF_INCOMPATIBLE = 1, 2, 4, 8


def version_file(ctx: Context) -> str:
    return ctx.baseline + ".version"


def baseline_version(ctx: Context) -> Optional[str]:
    path = version_file(ctx)
    if not os.path.isfile(path):
        return None
    return read(path).strip()


def baseline_symbols(ctx: Context) -> Set[str]:
    if not os.path.isfile(ctx.baseline):
        return set()
    return set(re.findall(r"<elf-symbol name='([^']+)'", read(ctx.baseline)))


@dataclass
class Diff:
    rc: int
    text: str
    added: List[str] = field(default_factory=list)
    problems: List[str] = field(default_factory=list)   # why it is not compatible

    @property
    def compatible(self) -> bool:
        return not self.problems


_SUMMARY = re.compile(r"^(Functions|Variables|Function symbols|Variable symbols) changes summary: (.*)$")
_COUNT = re.compile(r"(\d+) (Removed|Changed|Added)(?: \((\d+) filtered out\))?")
_ADDED_HEADER = re.compile(r"^\d+ Added (function|functions|function symbols?) ?.*:$")
_ADDED_ENTRY = re.compile(r"^\[A\] '(?:function )?(.*?)'\s*(?:\{([^}]*)\})?\s*$")


def classify(rc: int, text: str) -> Diff:
    """Decides whether an abidiff report shows nothing but added functions."""
    d = Diff(rc, text)
    if rc & (ABIDIFF_ERROR | ABIDIFF_USAGE):
        d.problems.append(f"abidiff failed (exit {rc}): {text.strip()[-2000:]}")
        return d
    if rc & ABIDIFF_INCOMPATIBLE:
        d.problems.append("abidiff reports an incompatible change (exit bit 8)")
    if not rc & (ABIDIFF_CHANGE | ABIDIFF_INCOMPATIBLE):
        return d
    in_added = False
    other: List[str] = []
    for line in text.splitlines():
        s = line.strip()
        if not s:
            continue
        m = _SUMMARY.match(s)
        if m:
            in_added = False
            for n, what, _ in _COUNT.findall(m.group(2)):
                if int(n) and not (what == "Added" and m.group(1) in ("Functions", "Function symbols")):
                    d.problems.append(f"{m.group(1)}: {n} {what.lower()}")
            continue
        if _ADDED_HEADER.match(s):
            in_added = True
            continue
        m = _ADDED_ENTRY.match(s)
        if in_added and m:
            sym = (m.group(2) or "").split("@")[0] or m.group(1)
            d.added.append(sym)
            continue
        if in_added and s.startswith("note:"):
            continue
        in_added = False
        other.append(s)
    if other and not d.problems:
        d.problems.append(f"the report shows changes other than added functions, starting with: {other[0]}")
    if rc & ABIDIFF_CHANGE and not d.problems and not d.added:
        d.problems.append("abidiff reports an ABI change (exit bit 4) that is not an added function")
    return d


def abidiff(ctx: Context) -> Tuple[Optional[Diff], str]:
    tool = which("abidiff", "ABIDIFF")
    if not tool:
        return None, "abidiff is not installed (abigail-tools)"
    res = run([tool, "--headers-dir2", ctx.header_dir] + ABIDIFF_FLAGS + [ctx.baseline, ctx.library])
    return classify(res.rc, res.out), ""


def check(ctx: Context) -> Result:
    r = Result("abi.baseline")
    base = ctx.rel(ctx.baseline)
    if not os.path.isfile(ctx.baseline):
        return r.not_present(f"no baseline {base} yet: it is made at a release with "
                             "`abi/check_abi.py --update-baseline` (abi/README.md)")
    if not ctx.library or not os.path.isfile(ctx.library):
        return r.not_present("no built library to compare (build first, or pass --library)")
    bver = baseline_version(ctx)
    if bver is None:
        r.fail(f"{ctx.rel(version_file(ctx))} is missing: the baseline's version must be recorded beside it")
    diff, why = abidiff(ctx)
    if diff is None:
        return r.not_present(why)
    lib = ctx.rel(ctx.library)
    if diff.rc & (ABIDIFF_ERROR | ABIDIFF_USAGE) and "debug info" in diff.text.lower():
        r.fail(f"{lib} has no debug information: build with -g (RelWithDebInfo or Debug) so that "
               "abidiff can see types")
    elif not diff.compatible:
        r.fail(f"{lib} is not compatible with the released ABI in {base} (version {bver or 'unknown'}):\n"
               + "\n".join("  " + p for p in diff.problems)
               + "\nabidiff's report:\n" + _indent(diff.text))
    for a in diff.added:
        r.note(f"added function: {a}")
    return r.finish(f"{lib} against {base} (version {bver or 'unknown'}): abidiff exit {diff.rc}, "
                    f"{len(diff.added)} added functions, {len(diff.problems)} incompatibilities")


def _indent(text: str) -> str:
    return "\n".join("    " + ln for ln in text.rstrip().splitlines())


def _version_tuple(v: str) -> Tuple[int, ...]:
    try:
        return tuple(int(x) for x in v.split("."))
    except ValueError:
        return (-1,)


def update(ctx: Context) -> Tuple[int, str]:
    """Write a new baseline from the built library: the release step. Refused unless the
    header's version differs from (is newer than) the baseline's, and refused for an
    incompatible change unless the major version was bumped."""
    hver = ctx.api.version_string
    bver = baseline_version(ctx)
    if not ctx.library or not os.path.isfile(ctx.library):
        return 2, "no built library: build first, or pass --library"
    if bver is not None:
        if hver == bver:
            return 1, (f"refused: {ctx.rel(ctx.header)} says version {hver}, the same as the baseline "
                       f"({ctx.rel(version_file(ctx))}). The baseline records a release: bump "
                       "DCCUDA_VERSION_MINOR (added functions) or DCCUDA_VERSION_MAJOR (a break) "
                       "and the project version in CMakeLists.txt first.")
        if _version_tuple(hver) < _version_tuple(bver):
            return 1, f"refused: header version {hver} is older than the baseline's {bver}"
        if os.path.isfile(ctx.baseline):
            diff, why = abidiff(ctx)
            if diff is None:
                return 2, why
            if not diff.compatible and _version_tuple(hver)[0] <= _version_tuple(bver)[0]:
                return 1, ("refused: the library breaks the released ABI and the major version was "
                           f"not bumped ({bver} -> {hver}):\n" + "\n".join("  " + p for p in diff.problems))
    tool = which("abidw", "ABIDW")
    if not tool:
        return 2, "abidw is not installed (abigail-tools)"
    tmp = ctx.baseline + ".tmp"
    res = run([tool, "--headers-dir", ctx.header_dir] + ABIDW_FLAGS + ["--out-file", tmp, ctx.library])
    if res.rc != 0:
        return 2, f"abidw failed: {res.tail(10)}"
    text = read(tmp)
    if "<function-decl" not in text:
        os.remove(tmp)
        return 2, f"abidw found no function declarations in {ctx.library}: build with debug information (-g)"
    os.replace(tmp, ctx.baseline)
    with open(version_file(ctx), "w", encoding="utf-8") as f:
        f.write(hver + "\n")
    n = len(re.findall(r"<elf-symbol name=", text))
    return 0, (f"wrote {ctx.rel(ctx.baseline)} ({n} functions) and {ctx.rel(version_file(ctx))} "
               f"({hver}); commit both with the release")
