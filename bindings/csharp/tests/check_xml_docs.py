#!/usr/bin/env python3
"""Check that the C# binding's public API has XML documentation.

Compiles Native/ and Safe/ with mcs -doc (warning level 4) and fails on every documentation
warning: CS1591 (a public type or member without a comment), CS1570/CS1571 (malformed or
duplicate XML), CS1572/CS1573 (a <param> that does not match), CS1574 (a cref that names
nothing), CS1587 (a comment that documents nothing).

The raw declarations that are generated from the API model (Native/NativeMethods.*.cs,
NativeConstants.cs, Structs.cs) are counted and listed apart, not failed: their comments come
from the generator. Everything else is written by hand and must be complete.

    check_xml_docs.py [--mcs mcs] [--work DIR] [--extra FILE.cs ...]

--extra compiles more files with the binding (the planted-mistake test passes one with an
undocumented public member, which must fail the check).
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
BINDING = os.path.dirname(HERE)

DOC_WARNINGS = {"CS1591", "CS1570", "CS1571", "CS1572", "CS1573", "CS1574", "CS1587"}
GENERATED = re.compile(r"Native/(NativeMethods\.[^/]+|NativeConstants|Structs)\.cs$")
WARNING = re.compile(r"^(?P<file>[^(]+)\((?P<line>\d+),\d+\): warning (?P<code>CS\d+): (?P<text>.*)$")


def sources() -> list:
    files = []
    for folder in ("Native", "Safe"):
        for name in sorted(os.listdir(os.path.join(BINDING, folder))):
            if name.endswith(".cs"):
                files.append(os.path.join(BINDING, folder, name))
    return files


def check(mcs: str, work: str, extra: list) -> int:
    dll = os.path.join(work, "Dccuda.docs.dll")
    xml = os.path.join(work, "Dccuda.xml")
    cmd = [mcs, "-nologo", "-unsafe", "-target:library", "-warn:4", "-out:" + dll, "-doc:" + xml] + sources() + extra
    res = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=BINDING)
    if res.returncode != 0:
        print("FAIL: mcs failed:\n" + res.stdout)
        return 1
    failures, generated = [], {}
    for line in res.stdout.splitlines():
        m = WARNING.match(line.strip())
        if not m or m.group("code") not in DOC_WARNINGS:
            continue
        path = os.path.relpath(os.path.join(BINDING, m.group("file")), BINDING).replace(os.sep, "/")
        if GENERATED.search(path) and m.group("code") == "CS1591":
            generated[path] = generated.get(path, 0) + 1
            continue
        failures.append(f"{path}:{m.group('line')}: {m.group('code')}: {m.group('text')}")
    for f in failures:
        print("FAIL: " + f)
    if generated:
        listed = ", ".join(f"{p} {n}" for p, n in sorted(generated.items()))
        print(f"not counted: {sum(generated.values())} undocumented members of the generated raw layer ({listed})")
    if not os.path.isfile(xml) or os.path.getsize(xml) == 0:
        print("FAIL: mcs wrote no XML documentation file")
        return 1
    if failures:
        print(f"{len(failures)} documentation problem(s) in the hand-written API")
        return 1
    print(f"OK: the hand-written public API is documented ({os.path.getsize(xml)} bytes of XML in {xml})")
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--mcs", default="mcs")
    ap.add_argument("--work", help="where the assembly and XML go (default: a temporary folder)")
    ap.add_argument("--extra", nargs="*", default=[], help="more .cs files to compile with the binding")
    args = ap.parse_args()
    extra = [os.path.abspath(e) for e in args.extra]
    if args.work:
        os.makedirs(args.work, exist_ok=True)
        return check(args.mcs, args.work, extra)
    with tempfile.TemporaryDirectory(prefix="dccuda-docs-") as work:
        return check(args.mcs, work, extra)


if __name__ == "__main__":
    sys.exit(main())
