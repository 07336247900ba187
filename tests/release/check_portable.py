#!/usr/bin/env python3
"""Checks that Linux binaries load on glibc 2.28 and newer with nothing else installed.

For each ELF file given (read with readelf, so any architecture can be checked
on this machine):
  - its machine is the one named by --arch;
  - every version it needs from glibc (the .gnu.version_r section, what the
    dynamic loader checks at load time) is GLIBC_2.28 or older, and nothing
    needs GLIBC_PRIVATE; a failure names the symbols that need the newer
    version;
  - every library it needs (DT_NEEDED) is libc, libm, libdl, libpthread or the
    dynamic loader, or one named with --allow (dccuda-info needs libdccuda.so.1).

  check_portable.py [--arch x86_64|aarch64] [--max-glibc 2.28] [--allow lib.so.N] FILE...
Exit status 0 when every file passes; each file gets one PASS or FAIL line.
"""
import argparse
import re
import subprocess
import sys

SYSTEM_LIBRARIES = {"libc.so.6", "libm.so.6", "libdl.so.2", "libpthread.so.0"}
LOADERS = {"x86_64": "ld-linux-x86-64.so.2", "aarch64": "ld-linux-aarch64.so.1"}
MACHINES = {"x86_64": "Advanced Micro Devices X86-64", "aarch64": "AArch64"}


def readelf(*args):
    r = subprocess.run(["readelf", "-W", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        raise RuntimeError(r.stderr.strip() or f"readelf {' '.join(args)} failed")
    return r.stdout


def version_tuple(text):
    return tuple(int(x) for x in text.split("."))


def needed_versions(path):
    """{library: [version names]} from the version-needs section."""
    needs, current = {}, None
    in_section = False
    for line in readelf("-V", path).splitlines():
        if line.startswith("Version needs section"):
            in_section = True
            continue
        if in_section and line and not line.startswith(" "):
            in_section = False
        if not in_section:
            continue
        m = re.search(r"File: (\S+)", line)
        if m:
            current = m.group(1)
            needs.setdefault(current, [])
            continue
        m = re.search(r"Name: (\S+)", line)
        if m and current:
            needs[current].append(m.group(1))
    return needs


def symbols_needing(path, version):
    """The undefined dynamic symbols bound to `version` (for the failure message)."""
    out = []
    for line in readelf("--dyn-syms", path).splitlines():
        m = re.search(r"\sUND\s+(\S+)@" + re.escape(version) + r"\b", line)
        if m:
            out.append(m.group(1))
    return out


def check(path, arch, max_glibc, allowed):
    problems = []
    header = readelf("-h", path)
    m = re.search(r"Machine:\s+(.+)", header)
    machine = m.group(1).strip() if m else "?"
    if machine != MACHINES[arch]:
        problems.append(f"machine is {machine}, not {arch}")
    needed = re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", readelf("-d", path))
    allowed_needed = SYSTEM_LIBRARIES | {LOADERS[arch]} | set(allowed)
    for lib in needed:
        if lib not in allowed_needed:
            problems.append(f"needs {lib} (only {', '.join(sorted(allowed_needed))} may be needed)")
    newest = (0,)
    newest_name = None
    for lib, versions in needed_versions(path).items():
        for v in versions:
            if v == "GLIBC_PRIVATE":
                problems.append(f"needs GLIBC_PRIVATE from {lib} ({', '.join(symbols_needing(path, v)) or '?'})")
                continue
            g = re.fullmatch(r"GLIBC_(\d+(?:\.\d+)+)", v)
            if not g:
                continue
            t = version_tuple(g.group(1))
            if t > newest:
                newest, newest_name = t, v
            if t > max_glibc:
                syms = symbols_needing(path, v)
                problems.append(f"needs {v} from {lib}, newer than GLIBC_{'.'.join(map(str, max_glibc))} "
                                f"(symbols: {', '.join(syms) or '?'})")
    name = path
    if problems:
        print(f"FAIL {name} ({arch}):")
        for p in problems:
            print(f"  - {p}")
        return False
    print(f"PASS {name} ({arch}): newest glibc version needed {newest_name or 'none'}; "
          f"needs {', '.join(needed) or 'nothing'}")
    return True


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("files", nargs="+")
    ap.add_argument("--arch", default="x86_64", choices=sorted(MACHINES))
    ap.add_argument("--max-glibc", default="2.28")
    ap.add_argument("--allow", action="append", default=["libdccuda.so.1"],
                    help="another library that may be needed (libdccuda.so.1 is always allowed)")
    a = ap.parse_args()
    ok = True
    for f in a.files:
        try:
            ok = check(f, a.arch, version_tuple(a.max_glibc), a.allow) and ok
        except RuntimeError as e:
            print(f"FAIL {f}: {e}")
            ok = False
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
