#!/usr/bin/env python3
"""Assemble the Dccuda NuGet package (Dccuda.<version>.nupkg) without the .NET SDK.

A .nupkg is a zip (Open Packaging Conventions) holding a .nuspec, the files, and the parts
NuGet's own tools write ([Content_Types].xml, _rels/.rels, the core-properties part). This
script lays out what `dotnet pack bindings/csharp/Dccuda.csproj` lays out:

    Dccuda.nuspec                          id, version (include/dccuda.h), license, readme,
                                           repository url and commit, dependencies per TFM
    README.md                              bindings/csharp/pack/README.md
    lib/<tfm>/Dccuda.dll, Dccuda.xml       each --lib TFM=DLL (its XML docs beside it;
                                           Dccuda.dll.config too where present: Mono's dllmap)
    runtimes/<rid>/native/<file>           each --native RID=FILE (libdccuda.so.1 for linux-*,
                                           dccuda.dll for win-*), symlinks followed

    make_nupkg.py --out DIR --lib netstandard2.0=build/bindings/csharp/Dccuda.dll \\
                  --native linux-x64=build/libdccuda.so.1 [--native win-x64=dccuda.dll ...]

Which builds go in is the caller's choice: a release takes the SDK's net8.0 and netstandard2.0
builds and every native build; CI here, which has no SDK, packs the Mono build (mcs, the
[DllImport] view, against Mono's mscorlib) as netstandard2.0 with today's linux-x64 library,
to test the layout, the metadata and a Mono consumer (not for publishing: Microsoft's .NET
Framework lacks the Span types Mono's mscorlib has). pack/check_nupkg.py checks a package.
"""

from __future__ import annotations

import argparse
import datetime
import os
import re
import subprocess
import sys
import uuid
import zipfile
from xml.sax.saxutils import escape

HERE = os.path.dirname(os.path.abspath(__file__))
BINDING = os.path.dirname(HERE)
ROOT = os.path.dirname(os.path.dirname(BINDING))

PACKAGE_ID = "Dccuda"
AUTHORS = "dccuda contributors"
LICENSE = "MIT OR Apache-2.0"   # as bindings/rust/Cargo.toml declares
DESCRIPTION = (".NET binding of dccuda, a stable C ABI over the CUDA driver API and NVRTC: devices, buffers, "
               "streams with awaitable completion, NVRTC compilation with a kernel cache, modules, kernel "
               "launches (one-shot, prepared, graphs). Carries libdccuda for the platforms listed under runtimes/.")
TAGS = "cuda gpu nvrtc interop"

# What the netstandard2.0 build needs beside netstandard (Span, ValueTask sources).
DEPENDENCIES = {
    "netstandard2.0": [("System.Memory", "4.5.5"), ("System.Threading.Tasks.Extensions", "4.5.4"),
                       ("Microsoft.Bcl.AsyncInterfaces", "8.0.0")],
}
# NuGet's target framework names in the .nuspec.
NUSPEC_TFM = {"net8.0": "net8.0", "netstandard2.0": ".NETStandard2.0", "net48": ".NETFramework4.8",
              "net472": ".NETFramework4.7.2", "net462": ".NETFramework4.6.2"}
NATIVE_NAME = {"linux": "libdccuda.so.1", "win": "dccuda.dll", "osx": "libdccuda.1.dylib"}


def header_version(header: str) -> str:
    text = open(header, encoding="utf-8").read()
    parts = []
    for what in ("MAJOR", "MINOR", "PATCH"):
        m = re.search(r"#define\s+DCCUDA_VERSION_%s\s+(\d+)" % what, text)
        if not m:
            raise SystemExit(f"make_nupkg.py: DCCUDA_VERSION_{what} not found in {header}")
        parts.append(m.group(1))
    return ".".join(parts)


def git(*args: str) -> str:
    try:
        return subprocess.run(["git", "-C", ROOT] + list(args), stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                              text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return ""


def pair(text: str, what: str) -> tuple:
    key, eq, value = text.partition("=")
    if not eq or not key or not value:
        raise SystemExit(f"make_nupkg.py: --{what} wants KEY=PATH, got {text!r}")
    return key, value


def nuspec(version: str, libs: list, repo_url: str, commit: str) -> str:
    groups = []
    for tfm in libs:
        deps = DEPENDENCIES.get(tfm, [])
        target = NUSPEC_TFM.get(tfm, tfm)
        if deps:
            inner = "".join(f'\n        <dependency id="{d}" version="{v}" exclude="Build,Analyzers" />' for d, v in deps)
            groups.append(f'      <group targetFramework="{target}">{inner}\n      </group>')
        else:
            groups.append(f'      <group targetFramework="{target}" />')
    repo = '    <repository type="git"'
    if repo_url:
        repo += f' url="{escape(repo_url)}"'
    if commit:
        repo += f' commit="{commit}"'
    repo += " />"
    return f"""<?xml version="1.0" encoding="utf-8"?>
<package xmlns="http://schemas.microsoft.com/packaging/2013/05/nuspec.xsd">
  <metadata>
    <id>{PACKAGE_ID}</id>
    <version>{version}</version>
    <authors>{escape(AUTHORS)}</authors>
    <license type="expression">{LICENSE}</license>
    <readme>README.md</readme>
    <description>{escape(DESCRIPTION)}</description>
    <tags>{TAGS}</tags>
{repo}
    <dependencies>
{chr(10).join(groups)}
    </dependencies>
  </metadata>
</package>
"""


def content_types(names: list) -> str:
    exts = sorted({os.path.splitext(n)[1].lstrip(".").lower() for n in names if os.path.splitext(n)[1]})
    defaults = {"rels": "application/vnd.openxmlformats-package.relationships+xml",
                "psmdcp": "application/vnd.openxmlformats-package.core-properties+xml",
                "nuspec": "application/octet"}
    lines = ['<?xml version="1.0" encoding="utf-8"?>',
             '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">']
    for ext in sorted(set(exts) | set(defaults)):
        lines.append(f'  <Default Extension="{ext}" ContentType="{defaults.get(ext, "application/octet")}" />')
    lines.append("</Types>")
    return "\n".join(lines) + "\n"


def build(out_dir: str, libs: dict, natives: dict, version: str, repo_url: str, commit: str, readme: str) -> str:
    files = {}   # package path -> source file
    for tfm, dll in libs.items():
        if not os.path.isfile(dll):
            raise SystemExit(f"make_nupkg.py: --lib {tfm}: {dll} does not exist")
        folder = os.path.dirname(os.path.abspath(dll))
        files[f"lib/{tfm}/Dccuda.dll"] = dll
        xml = os.path.join(folder, "Dccuda.xml")
        if not os.path.isfile(xml):
            raise SystemExit(f"make_nupkg.py: --lib {tfm}: no Dccuda.xml beside {dll} (build it with -doc)")
        files[f"lib/{tfm}/Dccuda.xml"] = xml
        config = os.path.join(folder, "Dccuda.dll.config")
        if os.path.isfile(config):
            files[f"lib/{tfm}/Dccuda.dll.config"] = config
    for rid, native in natives.items():
        os_part = rid.split("-")[0]
        if os_part not in NATIVE_NAME:
            raise SystemExit(f"make_nupkg.py: --native {rid}: unknown runtime identifier (linux-x64, linux-arm64, win-x64...)")
        if not os.path.isfile(native):
            raise SystemExit(f"make_nupkg.py: --native {rid}: {native} does not exist")
        files[f"runtimes/{rid}/native/{NATIVE_NAME[os_part]}"] = native
    files["README.md"] = readme

    os.makedirs(out_dir, exist_ok=True)
    path = os.path.join(out_dir, f"{PACKAGE_ID}.{version}.nupkg")
    psmdcp = f"package/services/metadata/core-properties/{uuid.uuid4().hex}.psmdcp"
    rels = f"""<?xml version="1.0" encoding="utf-8"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">
  <Relationship Type="http://schemas.microsoft.com/packaging/2010/07/manifest" Target="/{PACKAGE_ID}.nuspec" Id="R{uuid.uuid4().hex[:16]}" />
  <Relationship Type="http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties" Target="/{psmdcp}" Id="R{uuid.uuid4().hex[:16]}" />
</Relationships>
"""
    core = f"""<?xml version="1.0" encoding="utf-8"?>
<coreProperties xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns="http://schemas.openxmlformats.org/package/2006/metadata/core-properties">
  <dc:creator>{escape(AUTHORS)}</dc:creator>
  <dc:description>{escape(DESCRIPTION)}</dc:description>
  <dc:identifier>{PACKAGE_ID}</dc:identifier>
  <version>{version}</version>
  <keywords>{TAGS}</keywords>
  <lastModifiedBy>bindings/csharp/pack/make_nupkg.py</lastModifiedBy>
</coreProperties>
"""
    names = list(files) + [f"{PACKAGE_ID}.nuspec", "_rels/.rels", psmdcp]
    tmp = path + ".tmp"
    with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as z:
        def put(name: str, data: bytes) -> None:
            info = zipfile.ZipInfo(name, date_time=datetime.datetime.now().timetuple()[:6])
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            z.writestr(info, data)
        put("_rels/.rels", rels.encode())
        put(f"{PACKAGE_ID}.nuspec", nuspec(version, list(libs), repo_url, commit).encode())
        for name in sorted(files):
            with open(files[name], "rb") as f:
                put(name, f.read())
        put(psmdcp, core.encode())
        put("[Content_Types].xml", content_types(names).encode())
    os.replace(tmp, path)
    return path


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", required=True, help="folder for Dccuda.<version>.nupkg")
    ap.add_argument("--lib", action="append", default=[], metavar="TFM=DLL",
                    help="a managed build for a target framework (net8.0, netstandard2.0...)")
    ap.add_argument("--native", action="append", default=[], metavar="RID=FILE",
                    help="a native libdccuda for a runtime identifier (linux-x64, linux-arm64, win-x64)")
    ap.add_argument("--header", default=os.path.join(ROOT, "include", "dccuda.h"), help="where the version is read")
    ap.add_argument("--repository-url", default=None, help="default: git's remote.origin.url, if any")
    ap.add_argument("--commit", default=None, help="default: git rev-parse HEAD")
    ap.add_argument("--readme", default=os.path.join(HERE, "README.md"))
    args = ap.parse_args()
    libs = dict(pair(x, "lib") for x in args.lib)
    natives = dict(pair(x, "native") for x in args.native)
    if not libs:
        raise SystemExit("make_nupkg.py: at least one --lib TFM=DLL is needed")
    version = header_version(args.header)
    commit = args.commit if args.commit is not None else git("rev-parse", "HEAD")
    repo_url = args.repository_url if args.repository_url is not None else git("config", "--get", "remote.origin.url")
    path = build(args.out, libs, natives, version, repo_url, commit, args.readme)
    print(f"{path}: {', '.join('lib/' + t for t in libs)}; "
          f"{', '.join('runtimes/' + r for r in natives) or 'no native library'}; commit {commit or '(none)'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
