#!/usr/bin/env python3
"""gen: everything the bindings and tests derive from include/dccuda.h, generated from its model.

The header, with its annotations (its conventions block, "Annotations"), is the one source of the
API. abi/api.py reads it (abi/api_model.py gives the annotations their meaning); the generators in
abi/generators/ write, from that model:

    abi/dccuda.symbols                            the exported functions
    bindings/csharp/Native/NativeMethods.*.cs     the C# declarations, [LibraryImport] and [DllImport] views
    bindings/csharp/Native/NativeConstants.cs     the C# constants
    bindings/csharp/Native/Structs.cs             the C# structs with their DC_*_INIT defaults
    bindings/zig/src/c.zig                        the Zig declarations, constants and structs
    bindings/zig/src/status.zig                   Zig's status <-> error map
    bindings/rust/dccuda-sys/src/generated.rs     the Rust declarations (dccuda-sys)
    bindings/rust/dccuda-sys/layout/layout_fields.inc   the C side of dccuda-sys's layout test
    bindings/rust/dccuda/src/status_codes.rs      Rust's named statuses (dccuda::Status)
    src/core/status_names.inc                     the library's status names
    tests/fuzz/fuzz_api_calls.inc                 the fuzzer's table of calls

Every output is committed. Run it after changing the header:

    abi/gen.py            # (re)write what changed; remove generated files nothing makes any more
    abi/gen.py --check    # write nothing; exit 1 naming every stale file (CTest: gen.check)
    abi/gen.py --root DIR # another tree (the planted-mistake tests use a copy)

Exit status: 0 current (or written), 1 stale, 2 the model cannot describe the header (the messages
say which declaration and what to write). Cmake target: `cmake --build build --target gen`.
"""

from __future__ import annotations

import argparse
import difflib
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import api  # noqa: E402
from generators import common, csharp, fuzz, rust, status, symbols, zig  # noqa: E402

GENERATORS = [symbols, csharp, zig, rust, status, fuzz]
# Folders whose files carrying the generated mark are ours: one nothing makes any more is removed.
OWNED_DIRS = ["abi", "bindings/csharp/Native", "bindings/zig/src", "bindings/rust/dccuda-sys/src",
              "bindings/rust/dccuda-sys/layout", "bindings/rust/dccuda/src", "src/core", "tests/fuzz"]


def build(root: str, header: str, baseline: str = "") -> common.Ctx:
    a = api.parse_header(header)
    problems = [f"{os.path.relpath(header, root)}:{p.line}: {p.message}" for p in a.problems + a.model_problems]
    if problems:
        raise common.GenError("the header has declarations the model cannot describe:\n  " + "\n  ".join(problems))
    ctx = common.Ctx(root=root, header=header, api=a,
                     baseline=baseline or os.path.join(root, "abi", "dccuda.abi"))
    for g in GENERATORS:
        g.generate(ctx)
    return ctx


def leftovers(root: str, outputs) -> list:
    """Generated files (by their mark) in our folders that no generator makes any more."""
    out = []
    for d in OWNED_DIRS:
        full = os.path.join(root, d)
        if not os.path.isdir(full):
            continue
        for name in sorted(os.listdir(full)):
            path = os.path.join(full, name)
            rel = os.path.relpath(path, root).replace(os.sep, "/")
            if not os.path.isfile(path) or rel in outputs:
                continue
            try:
                with open(path, encoding="utf-8") as f:
                    head = f.read(400)
            except (UnicodeDecodeError, OSError):
                continue
            if common.GENERATED_MARK in head:
                out.append(rel)
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__.split("\n\n", 1)[1])
    ap.add_argument("--check", action="store_true", help="write nothing; exit 1 when a generated file is stale")
    ap.add_argument("--root", default=os.path.dirname(HERE), help="the repository (default: this one)")
    ap.add_argument("--header", help="the header (default <root>/include/dccuda.h)")
    ap.add_argument("--baseline", help="the released ABI whose functions may not disappear "
                                       "(default <root>/abi/dccuda.abi)")
    ap.add_argument("--diff", type=int, default=12, help="with --check: diff lines shown per stale file")
    args = ap.parse_args(argv)
    root = os.path.abspath(args.root)
    header = os.path.abspath(args.header or os.path.join(root, "include", "dccuda.h"))
    try:
        ctx = build(root, header, os.path.abspath(args.baseline) if args.baseline else "")
    except common.GenError as e:
        print(f"gen: {e}", file=sys.stderr)
        return 2
    stale, written = [], []
    for rel, text in sorted(ctx.outputs.items()):
        path = os.path.join(root, rel)
        old = None
        if os.path.exists(path):
            with open(path, encoding="utf-8") as f:
                old = f.read()
        if old == text:
            continue
        if args.check:
            stale.append(rel)
            if old is None:
                print(f"gen.check: {rel} does not exist")
            else:
                diff = list(difflib.unified_diff(old.splitlines(), text.splitlines(), f"{rel} (committed)",
                                                 f"{rel} (from the header)", n=0, lineterm=""))
                print(f"gen.check: {rel} is stale:")
                for line in diff[:args.diff]:
                    print("    " + line)
                if len(diff) > args.diff:
                    print(f"    ... {len(diff) - args.diff} more diff lines")
        else:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
            written.append(rel)
    for rel in leftovers(root, ctx.outputs):
        if args.check:
            stale.append(rel)
            print(f"gen.check: {rel} is generated but nothing makes it any more (abi/gen.py removes it)")
        else:
            os.remove(os.path.join(root, rel))
            written.append(rel + " (removed)")
    if args.check:
        if stale:
            print(f"gen.check: {len(stale)} of {len(ctx.outputs)} generated files are stale: run abi/gen.py "
                  "and commit the result with the header")
            return 1
        print(f"gen.check: all {len(ctx.outputs)} generated files are current "
              f"({len(ctx.api.functions)} functions, {len(ctx.api.families)} constant families)")
        return 0
    for w in written:
        print(f"gen: wrote {w}")
    print(f"gen: {len(written)} written, {len(ctx.outputs) - len([w for w in written if 'removed' not in w])} "
          "already current")
    return 0


if __name__ == "__main__":
    sys.exit(main())
