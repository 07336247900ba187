#!/usr/bin/env python3
"""Compile the .NET 7+ view of the C# binding with Mono's mcs, as far as mcs can.

No .NET SDK exists on these machines, so the code under `#if NET7_0_OR_GREATER` (and the
other .NET Core symbols) is never compiled by CI. This script takes the sources as a .NET 8
compiler sees them (abi/check_abi.py's preprocessor, with the same symbols), and compiles
that text with mcs after two substitutions mcs needs:

- each `[LibraryImport(Lib, EntryPoint = "x")] public static partial` becomes
  `[DllImport(Lib, EntryPoint = "x")] public static extern` (mcs predates C# 9's partial
  methods with results; the shared signature after it is compiled as it is), and every
  declaration must have been substituted;
- `System.Runtime.InteropServices.NativeLibrary` and `DllImportResolver`, which Mono lacks,
  come from a stub with .NET's signatures, as do `[UnmanagedCallersOnly]` and
  `[UnmanagedCallConv]` (an `[UnmanagedCallConv(...)]` line between `[LibraryImport]` and
  the method is allowed);
- C# 7.3+ syntax that mcs does not parse is replaced by its C# 7.2 stand-in, each occurrence
  counted: `where T : unmanaged` by `where T : struct`, and a function pointer to an
  `[UnmanagedCallersOnly]` method, `(IntPtr)(delegate* unmanaged[Cdecl]<...>)&Method`, by
  `IntPtr.Zero` (the method itself is still compiled).

The test sources are then compiled as the xunit project compiles them for net8.0 (with
tests/mono's stand-in for [Fact]) against that assembly.

So the .NET-only code (the DllImportResolver, the callbacks' entry points) is type-checked
against .NET's API shape, and the declarations' signatures are compiled in the .NET view. What
only the .NET SDK can check (the LibraryImport source generator itself, function pointer
types) is left to abi/check_abi.py's rules and to the SDK build.

    check_net7_view.py [--mcs mcs] [--work DIR]
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
ROOT = os.path.dirname(os.path.dirname(BINDING))
sys.path.insert(0, os.path.join(ROOT, "abi"))

from abicheck.bindings.csharp import NET7_SYMBOLS, preprocess  # noqa: E402

STUB = """
// .NET's NativeLibrary and UnmanagedCallConv API shape (System.Runtime.InteropServices,
// .NET Core 3.0+ / .NET 5+), for compiling the .NET view with mcs. Never run.
namespace System.Runtime.InteropServices
{
    public delegate IntPtr DllImportResolver(string libraryName, System.Reflection.Assembly assembly, DllImportSearchPath? searchPath);

    public static class NativeLibrary
    {
        public static void SetDllImportResolver(System.Reflection.Assembly assembly, DllImportResolver resolver) { throw new NotImplementedException(); }
        public static bool TryLoad(string libraryPath, out IntPtr handle) { throw new NotImplementedException(); }
        public static bool TryLoad(string libraryName, System.Reflection.Assembly assembly, DllImportSearchPath? searchPath, out IntPtr handle) { throw new NotImplementedException(); }
    }

    // .NET 5+: the calling convention of a [LibraryImport] stub.
    [AttributeUsage(AttributeTargets.Method, Inherited = false)]
    public sealed class UnmanagedCallConvAttribute : Attribute
    {
        public Type[] CallConvs;
    }

    // .NET 5+: a method native code calls through a function pointer (the callbacks' thunks).
    [AttributeUsage(AttributeTargets.Method, Inherited = false)]
    public sealed class UnmanagedCallersOnlyAttribute : Attribute
    {
        public Type[] CallConvs;
        public string EntryPoint;
    }
}
"""

LIBRARY_IMPORT = re.compile(
    r"\[LibraryImport\((\w+),\s*EntryPoint\s*=\s*(\"[^\"]+\")\)\]\s*\n"
    r"(\s*\[UnmanagedCallConv\([^\n]*\)\]\s*\n)?(\s*)public static partial\b")
UNMANAGED_CONSTRAINT = re.compile(r"\bwhere\s+(\w+)\s*:\s*unmanaged\b")
FUNCTION_POINTER = re.compile(r"\(IntPtr\)\s*\(delegate\*\s*unmanaged(?:\[\w+\])?\s*<[^>]*>\)\s*&\s*\w+")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--mcs", default="mcs")
    ap.add_argument("--work", help="where the view is written (default: a temporary folder)")
    args = ap.parse_args()
    if args.work:
        os.makedirs(args.work, exist_ok=True)
        return check(args.mcs, args.work)
    with tempfile.TemporaryDirectory(prefix="dccuda-net7-view-") as work:
        return check(args.mcs, work)


def check(mcs: str, work: str) -> int:

    sources = []
    for folder in ("Native", "Safe"):
        for name in sorted(os.listdir(os.path.join(BINDING, folder))):
            if name.endswith(".cs"):
                sources.append(os.path.join(BINDING, folder, name))
    files, imports, converted, problems = [], 0, 0, []
    constraints, pointers = 0, 0
    for src in sources:
        with open(src, encoding="utf-8") as f:
            text = f.read()
        view = preprocess(text, NET7_SYMBOLS)
        if "[DllImport(Lib" in view:
            problems.append(f"{os.path.relpath(src, BINDING)}: a [DllImport] of dccuda in the .NET view "
                            "(it must use [LibraryImport] there)")
        imports += len(re.findall(r"\[LibraryImport\(", view))
        view, n = LIBRARY_IMPORT.subn(r"[DllImport(\1, EntryPoint = \2)]\n\3\4public static extern", view)
        converted += n
        view, n = UNMANAGED_CONSTRAINT.subn(r"where \1 : struct", view)
        constraints += n
        view, n = FUNCTION_POINTER.subn("IntPtr.Zero", view)
        pointers += n
        if "delegate*" in view:
            problems.append(f"{os.path.relpath(src, BINDING)}: a function pointer type in a form this check does not "
                            "replace (only `(IntPtr)(delegate* unmanaged[Cdecl]<...>)&Method`)")
        out = os.path.join(work, os.path.relpath(src, BINDING).replace(os.sep, "_"))
        with open(out, "w", encoding="utf-8") as f:
            f.write(view)
        files.append(out)
    stub = os.path.join(work, "NativeLibraryStub.cs")
    with open(stub, "w", encoding="utf-8") as f:
        f.write(STUB)

    if imports == 0:
        problems.append("no [LibraryImport] declaration in the .NET view")
    if converted != imports:
        problems.append(f"{imports} [LibraryImport] declarations, {converted} in the expected form "
                        "`[LibraryImport(Lib, EntryPoint = \"...\")]` + `public static partial`")
    dll = os.path.join(work, "Dccuda.net7view.dll")
    cmd = [mcs, "-nologo", "-unsafe", "-warnaserror+", "-target:library", "-out:" + dll,
           "-define:" + ";".join(sorted(NET7_SYMBOLS))] + files + [stub]
    res = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if res.returncode != 0:
        problems.append("mcs failed on the .NET view:\n" + res.stdout)
    else:
        # The tests as the xunit project compiles them for net8.0 (NET7_0_OR_GREATER defined),
        # with tests/mono's stand-in for xunit's [Fact], against the .NET view.
        tests = [os.path.join(HERE, n) for n in sorted(os.listdir(HERE)) if n.endswith(".cs") and n != "Layout.cs"]
        tests.append(os.path.join(HERE, "mono", "Xunit.cs"))
        cmd = [mcs, "-nologo", "-unsafe", "-warnaserror+", "-nowarn:649", "-r:" + dll, "-r:System.Net.Http",
               "-target:library", "-out:" + os.path.join(work, "DccudaTests.dll"), "-define:" + ";".join(sorted(NET7_SYMBOLS))] + tests
        res = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if res.returncode != 0:
            problems.append("mcs failed on the tests in the .NET view:\n" + res.stdout)
    if problems:
        for p in problems:
            print("FAIL: " + p)
        return 1
    print(f"OK: the .NET view ({len(files)} files, {imports} [LibraryImport] declarations) and the tests in it compile with mcs "
          f"against .NET's NativeLibrary API shape; {constraints} `unmanaged` constraints and {pointers} function "
          f"pointers stood in for (compiled in {work})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
