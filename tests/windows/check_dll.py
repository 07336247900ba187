#!/usr/bin/env python3
"""Checks dccuda.dll's export table and imports (objdump -p of the PE file).

- The exported names are exactly abi/dccuda.symbols (the .def file made from it
  is the Windows counterpart of the version script): nothing missing, nothing
  extra (no C++ runtime or helper symbol leaks out).
- The DLL imports only Windows system DLLs: the C++ runtime, libgcc and
  winpthreads are linked in, so dccuda.dll needs nothing beside it.

  check_dll.py <objdump> <dccuda.dll> <dccuda.symbols> [--plant KIND:NAME]

--plant changes what was read from the DLL before comparing, to show that the
check fails on that mistake: drop:<name> (an export missing), add:<name> (an
extra export), import:<dll> (a non-system DLL imported). Exit 0 when the DLL
passes, 1 (with what is wrong) when it does not.
"""
import re
import subprocess
import sys

# What any Windows (8+) has; msvcrt.dll is the C runtime MinGW-w64 links against.
SYSTEM_DLLS = {"kernel32.dll", "advapi32.dll", "msvcrt.dll", "user32.dll", "ntdll.dll", "bcrypt.dll",
               "ws2_32.dll", "shell32.dll", "ole32.dll"}


def read_dll(objdump, dll):
    text = subprocess.run([objdump, "-p", dll], check=True, capture_output=True, text=True).stdout
    imports = {m.group(1).lower() for m in re.finditer(r"^\s*DLL Name: (\S+)", text, re.M)}
    exports = []
    in_names = False
    for line in text.splitlines():
        if line.startswith("[Ordinal/Name Pointer] Table"):
            in_names = True
            continue
        if in_names:
            m = re.match(r"^\s*\[\s*\d+\]\s+(\S+)\s*$", line)
            if not m:
                if exports:
                    break
                continue
            exports.append(m.group(1))
    return exports, imports


def main(argv):
    if len(argv) < 4:
        print(__doc__)
        return 2
    objdump, dll, symbols_file = argv[1:4]
    plants = []
    if len(argv) >= 6 and argv[4] == "--plant":
        kind, _, name = argv[5].partition(":")
        plants.append((kind, name))
    exports, imports = read_dll(objdump, dll)
    for kind, name in plants:
        if kind == "drop":
            exports = [e for e in exports if e != name]
        elif kind == "add":
            exports.append(name)
        elif kind == "import":
            imports.add(name.lower())
        else:
            print(f"check_dll: unknown plant {kind!r}")
            return 2
        print(f"check_dll: planted mistake {kind}:{name}")
    with open(symbols_file) as f:
        expected = [l.strip() for l in f if l.strip() and not l.startswith("#")]
    problems = []
    missing = sorted(set(expected) - set(exports))
    extra = sorted(set(exports) - set(expected))
    if missing:
        problems.append(f"{len(missing)} function(s) of {symbols_file} not exported: {', '.join(missing)}")
    if extra:
        problems.append(f"{len(extra)} export(s) not in {symbols_file}: {', '.join(extra[:20])}")
    foreign = sorted(imports - SYSTEM_DLLS)
    if foreign:
        problems.append(f"imports non-system DLL(s) {', '.join(foreign)}: link their runtime statically")
    if not exports:
        problems.append("no export table found (objdump -p printed none)")
    if problems:
        for p in problems:
            print(f"FAIL {dll}: {p}")
        return 1
    print(f"PASS {dll}: exports exactly the {len(expected)} functions of {symbols_file}; imports only "
          f"{', '.join(sorted(imports))}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
