#!/usr/bin/env python3
"""Check the layout and metadata of a Dccuda .nupkg (made by make_nupkg.py or dotnet pack).

Checked: the file name (Dccuda.<version>.nupkg); a zip without absolute, `..` or backslash
paths; one Dccuda.nuspec at the root whose id is Dccuda, whose version is the header's
(include/dccuda.h), with a license expression, a readme that is in the package, a repository
with a 40-hex commit, and a dependency group for each lib/<tfm>/ (and none for a missing
one); [Content_Types].xml covering every file's extension and _rels/.rels pointing at the
nuspec; each lib/<tfm>/ holding Dccuda.dll (a PE image with a CLI header) and Dccuda.xml
(XML docs of the assembly Dccuda); each runtimes/<rid>/native/ holding exactly the library
for its platform and architecture (linux-x64: libdccuda.so.1, ELF x86-64 with SONAME
libdccuda.so.1; linux-arm64: the same for AArch64; win-x64: dccuda.dll, PE x64); the
required lib folders and runtimes (--require-lib, --require-native) present.

    check_nupkg.py PACKAGE [--require-lib TFM ...] [--require-native RID ...] [--header H]

Exit 0 when everything holds, 1 with every problem listed.
"""

from __future__ import annotations

import argparse
import os
import re
import struct
import sys
import zipfile
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
NS = {"n": "http://schemas.microsoft.com/packaging/2013/05/nuspec.xsd"}
NATIVE = {  # rid -> (file name, format, machine)
    "linux-x64": ("libdccuda.so.1", "elf", 62),
    "linux-arm64": ("libdccuda.so.1", "elf", 183),
    "win-x64": ("dccuda.dll", "pe", 0x8664),
    "win-arm64": ("dccuda.dll", "pe", 0xAA64),
}
NUSPEC_TFM = {"net8.0": "net8.0", "netstandard2.0": ".NETStandard2.0", "net48": ".NETFramework4.8",
              "net472": ".NETFramework4.7.2", "net462": ".NETFramework4.6.2"}


def header_version(header: str) -> str:
    text = open(header, encoding="utf-8").read()
    return ".".join(re.search(r"#define\s+DCCUDA_VERSION_%s\s+(\d+)" % w, text).group(1) for w in ("MAJOR", "MINOR", "PATCH"))


def elf_info(data: bytes):
    """(machine, soname) of a 64-bit little-endian ELF shared object, or None."""
    if len(data) < 64 or data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        return None
    e_type, e_machine = struct.unpack_from("<HH", data, 16)
    e_shoff, = struct.unpack_from("<Q", data, 40)
    e_shentsize, e_shnum = struct.unpack_from("<HH", data, 58)
    if e_type != 3:
        return (e_machine, None)
    sections = []
    for i in range(e_shnum):
        off = e_shoff + i * e_shentsize
        if off + 64 > len(data):
            break
        sh_type, = struct.unpack_from("<I", data, off + 4)
        sh_offset, sh_size = struct.unpack_from("<QQ", data, off + 24)
        sh_link, = struct.unpack_from("<I", data, off + 40)
        sections.append((sh_type, sh_offset, sh_size, sh_link))
    soname = None
    for sh_type, sh_offset, sh_size, sh_link in sections:
        if sh_type != 6 or sh_link >= len(sections):   # SHT_DYNAMIC
            continue
        strtab = sections[sh_link]
        for off in range(sh_offset, sh_offset + sh_size, 16):
            tag, val = struct.unpack_from("<qQ", data, off)
            if tag == 14:   # DT_SONAME
                start = strtab[1] + val
                soname = data[start:data.index(b"\0", start)].decode("utf-8", "replace")
            if tag == 0:
                break
    return (e_machine, soname)


def pe_info(data: bytes):
    """(machine, has a CLI header) of a PE image, or None."""
    if len(data) < 64 or data[:2] != b"MZ":
        return None
    pe, = struct.unpack_from("<I", data, 60)
    if data[pe:pe + 4] != b"PE\0\0":
        return None
    machine, = struct.unpack_from("<H", data, pe + 4)
    opt = pe + 24
    magic, = struct.unpack_from("<H", data, opt)
    dirs = opt + (96 if magic == 0x10B else 112)
    count, = struct.unpack_from("<I", data, dirs - 4)
    cli = False
    if count > 14:
        rva, size = struct.unpack_from("<II", data, dirs + 14 * 8)
        cli = rva != 0 and size != 0
    return (machine, cli)


def check(path: str, header: str, require_libs: list, require_natives: list) -> list:
    problems = []
    version = header_version(header)
    if os.path.basename(path) != f"Dccuda.{version}.nupkg":
        problems.append(f"file name {os.path.basename(path)}: expected Dccuda.{version}.nupkg (the header's version)")
    try:
        z = zipfile.ZipFile(path)
    except zipfile.BadZipFile as e:
        return problems + [f"not a zip: {e}"]
    names = z.namelist()
    for n in names:
        if n.startswith("/") or "\\" in n or ".." in n.split("/"):
            problems.append(f"unsafe path in the zip: {n!r}")
    nuspecs = [n for n in names if n.endswith(".nuspec")]
    if nuspecs != ["Dccuda.nuspec"]:
        return problems + [f"expected one Dccuda.nuspec at the root, found {nuspecs}"]
    meta = ET.fromstring(z.read("Dccuda.nuspec")).find("n:metadata", NS)
    if meta is None:
        return problems + ["the nuspec has no <metadata> in the nuspec namespace"]

    def text(tag: str) -> str:
        e = meta.find("n:" + tag, NS)
        return (e.text or "").strip() if e is not None else ""

    if text("id") != "Dccuda":
        problems.append(f"nuspec id {text('id')!r}, expected 'Dccuda'")
    if text("version") != version:
        problems.append(f"nuspec version {text('version')!r}, expected {version!r} (DCCUDA_VERSION_* in {os.path.relpath(header, ROOT)})")
    lic = meta.find("n:license", NS)
    if lic is None or lic.get("type") != "expression" or not (lic.text or "").strip():
        problems.append("no <license type=\"expression\"> in the nuspec")
    readme = text("readme")
    if not readme or readme not in names:
        problems.append(f"the nuspec's readme {readme!r} is not in the package")
    if not text("description"):
        problems.append("no description")
    repo = meta.find("n:repository", NS)
    if repo is None or not re.fullmatch(r"[0-9a-f]{40}", repo.get("commit", "")):
        problems.append("no <repository> with a 40-hex commit (which source the package was built from)")

    libs = sorted({n.split("/")[1] for n in names if n.startswith("lib/") and n.count("/") >= 2})
    groups = [g.get("targetFramework") for g in meta.findall("n:dependencies/n:group", NS)]
    for tfm in libs:
        folder = f"lib/{tfm}/"
        if NUSPEC_TFM.get(tfm, tfm) not in groups:
            problems.append(f"{folder}: no dependency group for it in the nuspec")
        dll = folder + "Dccuda.dll"
        if dll not in names:
            problems.append(f"{dll} is missing")
        else:
            info = pe_info(z.read(dll))
            if info is None or not info[1]:
                problems.append(f"{dll} is not a .NET assembly (a PE image with a CLI header)")
        doc = folder + "Dccuda.xml"
        if doc not in names:
            problems.append(f"{doc} (the XML documentation) is missing")
        else:
            try:
                name = ET.fromstring(z.read(doc)).find("assembly/name")
                if name is None or name.text != "Dccuda":
                    problems.append(f"{doc} does not document the assembly Dccuda")
            except ET.ParseError as e:
                problems.append(f"{doc} is not XML: {e}")
        extra = [n for n in names if n.startswith(folder) and n[len(folder):] not in ("Dccuda.dll", "Dccuda.xml", "Dccuda.dll.config", "Dccuda.pdb")]
        for n in extra:
            problems.append(f"{n}: not a file of the managed build")
    for g in groups:
        if g not in [NUSPEC_TFM.get(t, t) for t in libs]:
            problems.append(f"dependency group {g} has no lib folder")
    for tfm in require_libs:
        if tfm not in libs:
            problems.append(f"lib/{tfm}/ is required but missing")

    rids = sorted({n.split("/")[1] for n in names if n.startswith("runtimes/") and n.count("/") >= 3})
    for rid in rids:
        folder = f"runtimes/{rid}/native/"
        files = [n[len(folder):] for n in names if n.startswith(folder)]
        if rid not in NATIVE:
            problems.append(f"runtimes/{rid}: a runtime identifier this package does not expect")
            continue
        expected, kind, machine = NATIVE[rid]
        if files != [expected]:
            problems.append(f"{folder}: expected exactly {expected}, found {files}")
            continue
        data = z.read(folder + expected)
        if kind == "elf":
            info = elf_info(data)
            if info is None:
                problems.append(f"{folder}{expected} is not a 64-bit little-endian ELF file")
            elif info[0] != machine:
                problems.append(f"{folder}{expected} is for ELF machine {info[0]}, expected {machine}")
            elif info[1] != "libdccuda.so.1":
                problems.append(f"{folder}{expected} has SONAME {info[1]!r}, expected 'libdccuda.so.1'")
        else:
            info = pe_info(data)
            if info is None:
                problems.append(f"{folder}{expected} is not a PE image")
            elif info[0] != machine:
                problems.append(f"{folder}{expected} is for PE machine {info[0]:#x}, expected {machine:#x}")
    for rid in require_natives:
        if rid not in rids:
            problems.append(f"runtimes/{rid}/native/ is required but missing")

    if "[Content_Types].xml" not in names:
        problems.append("[Content_Types].xml is missing")
    else:
        declared = {e.get("Extension", "").lower() for e in ET.fromstring(z.read("[Content_Types].xml"))}
        for n in names:
            ext = os.path.splitext(n)[1].lstrip(".").lower()
            if ext and ext not in declared and n != "[Content_Types].xml":
                problems.append(f"[Content_Types].xml does not cover .{ext} ({n})")
    if "_rels/.rels" not in names or b"/Dccuda.nuspec" not in z.read("_rels/.rels"):
        problems.append("_rels/.rels does not point at /Dccuda.nuspec")
    return problems


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("package")
    ap.add_argument("--require-lib", action="append", default=[], metavar="TFM")
    ap.add_argument("--require-native", action="append", default=[], metavar="RID")
    ap.add_argument("--header", default=os.path.join(ROOT, "include", "dccuda.h"))
    args = ap.parse_args()
    problems = check(args.package, args.header, args.require_lib, args.require_native)
    for p in problems:
        print("FAIL: " + p)
    if problems:
        print(f"{args.package}: {len(problems)} problem(s)")
        return 1
    with zipfile.ZipFile(args.package) as z:
        names = z.namelist()
    print(f"OK: {args.package}: {len(names)} files; " +
          ", ".join(sorted({'/'.join(n.split('/')[:2]) for n in names if n.startswith(('lib/', 'runtimes/'))})))
    return 0


if __name__ == "__main__":
    sys.exit(main())
