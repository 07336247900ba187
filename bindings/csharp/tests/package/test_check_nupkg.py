#!/usr/bin/env python3
"""Planted mistakes for pack/check_nupkg.py: a good package must pass, and each copy of it with
one mistake must fail with that mistake named (a missing native library, a version that is not
the header's, missing XML docs, a library for the wrong architecture, no source commit, an
unsafe path).

    test_check_nupkg.py GOOD.nupkg
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
CHECK = os.path.join(os.path.dirname(os.path.dirname(HERE)), "pack", "check_nupkg.py")


def variant(good: str, out: str, drop=(), replace=None, add=None) -> None:
    """A copy of `good` without the `drop` entries, with replace(name, data) applied, plus `add`."""
    with zipfile.ZipFile(good) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as dst:
        for info in src.infolist():
            if info.filename in drop:
                continue
            data = src.read(info.filename)
            if replace:
                data = replace(info.filename, data)
            info.compress_type = zipfile.ZIP_STORED   # quicker, and as valid
            dst.writestr(info, data)
        for name, data in (add or {}).items():
            dst.writestr(name, data)


def run(package: str) -> tuple:
    res = subprocess.run([sys.executable, CHECK, package, "--require-lib", "netstandard2.0", "--require-native", "linux-x64"],
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return res.returncode, res.stdout


def main() -> int:
    good = sys.argv[1]
    failures = []
    rc, out = run(good)
    if rc != 0:
        print(out)
        print("FAIL: the good package does not pass")
        return 1
    with zipfile.ZipFile(good) as z:
        names = z.namelist()
        native = next(n for n in names if n.startswith("runtimes/linux-x64/native/"))
        doc = next(n for n in names if n.endswith("/Dccuda.xml"))
        so = z.read(native)

    def version(name, data):
        return re.sub(rb"<version>[^<]*</version>", b"<version>9.9.9</version>", data) if name == "Dccuda.nuspec" else data

    def no_commit(name, data):
        return re.sub(rb' commit="[0-9a-f]+"', b"", data) if name == "Dccuda.nuspec" else data

    def arm(name, data):
        if name == native:
            data = bytearray(data)
            data[18:20] = (183).to_bytes(2, "little")   # e_machine: AArch64 in the x64 folder
            return bytes(data)
        return data

    cases = [
        ("missing native library", dict(drop=(native,)), "runtimes/linux-x64/native/ is required but missing"),
        ("wrong version", dict(replace=version), "nuspec version '9.9.9', expected"),
        ("missing XML docs", dict(drop=(doc,)), "(the XML documentation) is missing"),
        ("wrong architecture", dict(replace=arm), "is for ELF machine 183, expected 62"),
        ("no source commit", dict(replace=no_commit), "no <repository> with a 40-hex commit"),
        ("unsafe path", dict(add={"../escape.txt": b"x"}), "unsafe path in the zip"),
        ("stray native file", dict(add={"runtimes/linux-x64/native/libdccuda.so": so}), "expected exactly libdccuda.so.1"),
    ]
    with tempfile.TemporaryDirectory(prefix="dccuda-nupkg-planted-") as work:
        for what, how, expected in cases:
            folder = os.path.join(work, re.sub(r"\W+", "-", what))
            os.makedirs(folder)
            bad = os.path.join(folder, os.path.basename(good))
            variant(good, bad, **how)
            rc, out = run(bad)
            if rc == 0 or expected not in out:
                failures.append(f"{what}: check_nupkg.py exit {rc}, expected a failure saying {expected!r}:\n{out}")
            else:
                print(f"ok: {what}: " + next(l for l in out.splitlines() if expected in l))
    for f in failures:
        print("FAIL: " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
