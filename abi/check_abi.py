#!/usr/bin/env python3
"""dccuda's ABI check: exported symbols, binary compatibility, generated bindings, struct
layouts, constant values and header hygiene, with one report. Python 3 standard library plus
nm, abidiff/abidw, gcc/g++, and (for the bindings' measuring programs) mcs/mono, cargo and zig.
See abi/README.md.

    abi/check_abi.py                       # every check (same as `all`)
    abi/check_abi.py symbols header        # some: symbols abi bindings layouts constants header
    abi/check_abi.py --strict              # a check that cannot run (no binding, no tool) fails
    abi/check_abi.py --update-symbols      # regenerate (abi/gen.py): the symbol list and the rest
    abi/check_abi.py --update-baseline     # release step: rewrite abi/dccuda.abi (+ .version)

Exit status: 0 all passed, 1 a check failed (or, with --strict, could not run), 2 misuse.
Every input can be pointed elsewhere (--header, --library, --nm-file, --bindings-root, ...),
which is how tests/abi checks the checks on planted mistakes.
"""

from __future__ import annotations

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from abicheck import baseline, constants, generated, header, layouts, symbols  # noqa: E402
from abicheck.bindings import common, swig  # noqa: E402
from abicheck.context import BINDINGS, Context  # noqa: E402
from abicheck.report import Report, Result  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CHECKS = ("symbols", "abi", "bindings", "layouts", "constants", "header")
MEASURED = ("csharp", "rust", "zig")   # the bindings whose compiled layouts and constants are measured


def run_bindings(ctx: Context, report: Report, unbound: common.Unbound) -> None:
    r = report.add(Result("bindings.unbound"))
    for e in unbound.errors:
        r.fail(e)
    n = sum(len(v) for v in unbound.entries.values())
    r.finish(f"{n} entries in {ctx.rel(ctx.unbound_file)}" if os.path.isfile(ctx.unbound_file)
             else f"no {ctx.rel(ctx.unbound_file)} (every binding binds everything)")
    # C#, Rust and Zig are generated from the header: current or stale is the whole question.
    report.add(generated.check(ctx))
    for b in MEASURED:
        where = os.path.join(ctx.bindings_root, b)
        if ctx.binding_enabled(b) and not os.path.isdir(where):
            report.add(Result(f"bindings.{b}").not_present(f"{ctx.rel(where)} does not exist"))
    if ctx.binding_enabled("swig"):
        res = swig.check(ctx, unbound)
        if res is None:
            report.add(Result("bindings.swig").not_present(f"{ctx.rel(os.path.join(ctx.bindings_root, 'swig'))} "
                                                          "does not exist"))
        else:
            for x in res:
                report.add(x)


def run_layouts(ctx: Context, report: Report, unbound: common.Unbound) -> None:
    ref, error = layouts.c_layout(ctx)
    report.add(layouts.check_c(ctx, ref, error))
    for b in MEASURED:
        if ctx.binding_enabled(b):
            report.add(layouts.check_binding(ctx, b, ref, unbound))


def run_constants(ctx: Context, report: Report) -> None:
    ref, error = constants.c_constants(ctx)
    report.add(constants.check_c(ctx, ref, error))
    for b in MEASURED:
        if ctx.binding_enabled(b):
            report.add(constants.check_binding(ctx, b, ref))


def find_library(args: argparse.Namespace) -> str:
    if args.library:
        return os.path.abspath(args.library)
    if os.environ.get("DCCUDA_LIBRARY"):
        return os.path.abspath(os.environ["DCCUDA_LIBRARY"])
    build = args.build_dir or os.path.join(ROOT, "build")
    return os.path.abspath(os.path.join(build, "libdccuda.so.1"))


def make_context(args: argparse.Namespace) -> Context:
    root = os.path.abspath(args.root)
    lib = find_library(args)
    build = os.path.abspath(args.build_dir) if args.build_dir else (
        os.path.dirname(lib) if os.path.isfile(lib) else None)
    layout_files = {}
    for spec in args.layout_output or []:
        b, eq, path = spec.partition("=")
        if not eq or b not in ("csharp", "rust", "zig"):
            raise SystemExit(f"--layout-output wants BINDING=FILE with BINDING one of csharp, rust, zig: {spec}")
        layout_files[b] = os.path.abspath(path)
    constants_files = {}
    for spec in args.constants_output or []:
        b, eq, path = spec.partition("=")
        if not eq or b not in MEASURED:
            raise SystemExit(f"--constants-output wants BINDING=FILE with BINDING one of csharp, rust, zig: {spec}")
        constants_files[b] = os.path.abspath(path)
    strict = args.strict or os.environ.get("DCCUDA_ABI_STRICT", "") not in ("", "0", "OFF", "off", "no")
    return Context(
        root=root,
        header=os.path.abspath(args.header or os.path.join(root, "include", "dccuda.h")),
        library=lib if (args.library or os.path.isfile(lib)) else None,
        nm_file=os.path.abspath(args.nm_file) if args.nm_file else None,
        symbols_file=os.path.abspath(args.symbols or os.path.join(root, "abi", "dccuda.symbols")),
        baseline=os.path.abspath(args.baseline or os.path.join(root, "abi", "dccuda.abi")),
        bindings_root=os.path.abspath(args.bindings_root or os.path.join(root, "bindings")),
        unbound_file=os.path.abspath(args.unbound or os.path.join(root, "abi", "unbound.txt")),
        build_dir=build,
        work_dir=os.path.abspath(args.work_dir) if args.work_dir else None,
        layout_files=layout_files,
        constants_files=constants_files,
        swig_generated=os.path.abspath(args.swig_generated) if args.swig_generated else None,
        swig_library=os.path.abspath(args.swig_library) if args.swig_library else None,
        only_bindings=args.bindings.split(",") if args.bindings else None,
        version_node=args.version_node,
        strict=strict,
    )


def parse_args(argv):
    ap = argparse.ArgumentParser(
        description="dccuda ABI check (abi/README.md).",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="Checks: " + ", ".join(CHECKS) + " (default: all).")
    ap.add_argument("checks", nargs="*", help="which checks to run: " + " ".join(CHECKS) + " all")
    ap.add_argument("--strict", action="store_true",
                    help="a check that cannot run (binding or tool not present) fails; also $DCCUDA_ABI_STRICT=1")
    ap.add_argument("--update-symbols", action="store_true",
                    help="rewrite abi/dccuda.symbols from the header (a deliberate step: commit the result)")
    ap.add_argument("--update-baseline", action="store_true",
                    help="release step: rewrite abi/dccuda.abi and .version from the built library; "
                         "refused unless the header's version differs from the baseline's")
    g = ap.add_argument_group("inputs (defaults: this repository and build/)")
    g.add_argument("--root", default=ROOT, help="repository root")
    g.add_argument("--header", help="the public header (default include/dccuda.h)")
    g.add_argument("--library", help="the built library (default $DCCUDA_LIBRARY, else <build>/libdccuda.so.1)")
    g.add_argument("--build-dir", help="the CMake build folder (default build/)")
    g.add_argument("--nm-file", help="read this `nm -D --defined-only` listing instead of running nm")
    g.add_argument("--symbols", help="the exported-symbol list (default abi/dccuda.symbols)")
    g.add_argument("--baseline", help="the libabigail baseline (default abi/dccuda.abi)")
    g.add_argument("--bindings-root", help="the bindings folder (default bindings/)")
    g.add_argument("--bindings", help="only these bindings, comma-separated (csharp,swig,rust,zig)")
    g.add_argument("--unbound", help="the not-bound list (default abi/unbound.txt)")
    g.add_argument("--layout-output", action="append", metavar="BINDING=FILE",
                   help="read a binding's layout output from FILE instead of running its program")
    g.add_argument("--constants-output", action="append", metavar="BINDING=FILE",
                   help="read a binding's constants output from FILE instead of running its program")
    g.add_argument("--swig-generated", help="folder holding SWIG's generated *_wrap.c and C#")
    g.add_argument("--swig-library", help="the built SWIG wrapper library")
    g.add_argument("--version-node", default="DCCUDA_1.0", help="the version node every symbol belongs to")
    g.add_argument("--work-dir", help="where the generated test programs are compiled (default <build>/abi-check or a temp folder)")
    g.add_argument("--report-file", help="also write the report here")
    args = ap.parse_args(argv)
    for c in args.checks:
        if c not in CHECKS + ("all",):
            ap.error(f"unknown check `{c}` (one of {', '.join(CHECKS)}, all)")
    return args


def main(argv=None) -> int:
    args = parse_args(argv)
    ctx = make_context(args)
    if not os.path.isfile(ctx.header):
        print(f"check_abi: no header {ctx.header}", file=sys.stderr)
        return 2
    if args.update_symbols or args.update_baseline:
        rc = 0
        if args.update_symbols:
            # The list is one of gen's outputs (with the same guard against dropping a released
            # function); regenerating only it would leave the bindings behind.
            import gen  # noqa: E402  (abi/gen.py)
            rc = max(rc, gen.main(["--root", ctx.root, "--header", ctx.header, "--baseline", ctx.baseline]))
        if args.update_baseline and rc == 0:
            code, msg = baseline.update(ctx)
            print(msg)
            rc = max(rc, code)
        return rc
    wanted = set(args.checks or ["all"])
    if "all" in wanted:
        wanted = set(CHECKS)
    report = Report(strict=ctx.strict)
    a = ctx.api
    report.header_lines = [
        f"header:   {ctx.rel(ctx.header)} (version {a.version_string}, {len(a.functions)} functions, "
        f"{len(a.structs)} structs)",
        f"library:  {ctx.rel(ctx.nm_file) + ' (nm listing)' if ctx.nm_file else (ctx.rel(ctx.library) if ctx.library else 'none found')}",
        f"bindings: {ctx.rel(ctx.bindings_root)}",
    ]
    unbound = common.read_unbound(ctx)
    if "header" in wanted:
        for r in header.check(ctx):
            report.add(r)
    if "symbols" in wanted:
        report.add(symbols.check_list(ctx))
        report.add(symbols.check_library(ctx))
    if "abi" in wanted:
        report.add(baseline.check(ctx))
    if "bindings" in wanted:
        run_bindings(ctx, report, unbound)
    if "layouts" in wanted:
        run_layouts(ctx, report, unbound)
    if "constants" in wanted:
        run_constants(ctx, report)
    text = report.render()
    sys.stdout.write(text)
    if args.report_file:
        os.makedirs(os.path.dirname(os.path.abspath(args.report_file)), exist_ok=True)
        with open(args.report_file, "w", encoding="utf-8") as f:
            f.write(text)
    return 1 if report.failed() else 0


if __name__ == "__main__":
    sys.exit(main())
