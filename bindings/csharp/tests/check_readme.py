#!/usr/bin/env python3
"""Compile (and run) the C# snippets of the binding's READMEs as a user's program would hold them.

Every ```csharp block placed right after a line `<!-- checked: ... -->` is put into a program
with the usings of a default `dotnet new console` project (ImplicitUsings: System, System.IO,
System.Collections.Generic, System.Linq, System.Net.Http, System.Threading,
System.Threading.Tasks) and `using Dccuda;`, inside an async method of a class named Program
(the class top-level statements generate), compiled with mcs against Dccuda.dll, and, with
--run, run under mono (the caller's environment chooses the driver; a machine without NVRTC
reports the run skipped). A type of the binding named like one of those usings' types, or a
snippet that no longer matches the API, fails here.

    check_readme.py --dll Dccuda.dll [--mcs mcs] [--mono mono] [--run] --work DIR FILE.md...
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys

USINGS = ["System", "System.Collections.Generic", "System.IO", "System.Linq", "System.Net.Http",
          "System.Threading", "System.Threading.Tasks"]
BLOCK = re.compile(r"^<!-- checked:[^\n]*-->\s*\n```csharp\n(.*?)\n```", re.S | re.M)


def program(snippet: str, source: str, line: int) -> str:
    usings = "".join(f"using {u};\n" for u in USINGS)
    return f"""{usings}using Dccuda;

internal static class Program
{{
    private static int Main()
    {{
        try
        {{
            Run().GetAwaiter().GetResult();
            return 0;
        }}
        catch (DcException e) when (e.Status == DcStatus.NoCompiler)
        {{
            Console.WriteLine("SKIPPED: NVRTC is not available: " + e.Message);
            return 0;
        }}
    }}

    private static async Task Run()
    {{
#line {line} "{source}"
{snippet}
#line default
        await Task.Yield();
    }}
}}
"""


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--dll", required=True)
    ap.add_argument("--mcs", default="mcs")
    ap.add_argument("--mono", default="mono")
    ap.add_argument("--run", action="store_true")
    ap.add_argument("--work", required=True)
    ap.add_argument("files", nargs="+")
    args = ap.parse_args()
    os.makedirs(args.work, exist_ok=True)
    dll = os.path.abspath(args.dll)
    for extra in ("Dccuda.dll", "Dccuda.dll.config"):
        src = os.path.join(os.path.dirname(dll), extra)
        if os.path.isfile(src):
            shutil.copy(src, args.work)
    failures, count = [], 0
    for md in args.files:
        text = open(md, encoding="utf-8").read()
        blocks = list(BLOCK.finditer(text))
        if not blocks:
            failures.append(f"{md}: no ```csharp block marked <!-- checked: ... -->")
        for i, m in enumerate(blocks):
            count += 1
            line = text.count("\n", 0, m.start(1)) + 1
            source = os.path.abspath(md)
            name = re.sub(r"\W+", "_", os.path.basename(md)) + f"_{i}"
            cs = os.path.join(args.work, name + ".cs")
            exe = os.path.join(args.work, name + ".exe")
            with open(cs, "w", encoding="utf-8") as f:
                f.write(program(m.group(1), source, line))
            res = subprocess.run([args.mcs, "-nologo", "-r:" + dll, "-r:System.Net.Http", "-out:" + exe, cs],
                                 stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            if res.returncode != 0:
                failures.append(f"{md}:{line}: the snippet does not compile in a default console project:\n{res.stdout}")
                continue
            if args.run:
                res = subprocess.run([args.mono, exe], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=args.work)
                print(res.stdout.rstrip())
                if res.returncode != 0:
                    failures.append(f"{md}:{line}: the snippet failed when run (exit {res.returncode})")
                    continue
            print(f"ok: {md}:{line}: compiles" + (" and runs" if args.run else ""))
    for f in failures:
        print("FAIL: " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
