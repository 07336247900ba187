#!/usr/bin/env python3
"""layering.check refuses an upward include: each case copies src/ (with its layer table) and
docs/INTERNALS.md, plants one mistake in the copy and runs tests/layering/check_layers.py on
it, asserting the exit status and what the output names (file, line, header, both layers).

    tests/layering/test_check_layers.py          # every case (CTest: layering.planted)
    tests/layering/test_check_layers.py --list
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
CHECK = os.path.join(HERE, "check_layers.py")

# name: (what, {src-relative file: (line number to insert before, or None to append; text)},
#        table edits [(old, new)] or None, doc edits [(old, new)] or None, exit status,
#        regexes the output must match)
CASES = {
    "current_tree_passes": ("The tree as committed: no upward include.", {}, None, None, 0,
                            [r"include nothing above their layer \(platform < cuda_abi < core < loader < device"]),
    "upward_quoted_include": (
        "core includes a memory header.", {"core/error.h": (3, '#include "memory/buffer.h"')}, None, None, 1,
        [r'^src/core/error\.h:3: includes "memory/buffer\.h" \(src/memory/buffer\.h\): layer core may not include '
         r"layer memory, which is above it in src/layers\.txt", r"layering: 1 problem\(s\)"]),
    "upward_relative_include": (
        "device includes a graph header through a relative path.",
        {"device/device.cpp": (2, '#include "../graph/graph.h"')}, None, None, 1,
        [r'^src/device/device\.cpp:2: includes "\.\./graph/graph\.h" \(src/graph/graph\.h\): layer device may not '
         r"include layer graph"]),
    "upward_angle_include": (
        "stream includes a launch header with angle brackets.",
        {"stream/stream.h": (None, "#include <launch/one_shot.h>")}, None, None, 1,
        [r"^src/stream/stream\.h:\d+: includes <launch/one_shot\.h> \(src/launch/one_shot\.h\): layer stream may "
         r"not include layer launch"]),
    "upward_include_in_inc_file": (
        "dccuda's CUDA declarations (a sub-folder of loader, a lower layer) include a loader header.",
        {"loader/cuda_abi/driver_types.inc": (None, '#include "loader/driver.h"')}, None, None, 1,
        [r'^src/loader/cuda_abi/driver_types\.inc:\d+: includes "loader/driver\.h" \(src/loader/driver\.h\): '
         r"layer cuda_abi may not include layer loader"]),
    "file_of_no_layer": (
        "A new folder not in the table.", {"extra/extra.cpp": (None, '#include "core/error.h"')}, None, None, 1,
        [r"^src/extra/extra\.cpp: belongs to no layer of src/layers\.txt"]),
    "cycle_inside_a_layer_passes": (
        "Two headers of one layer include each other: allowed.",
        {"stream/stream.h": (None, '#include "stream/event.h"')}, None, None, 0, [r"include nothing above"]),
    "order_swapped_in_table": (
        "The table puts memory below stream: memory's stream includes become upward.",
        {}, [("memory     memory ", "memory_old memory_unused "),
             ("stream     stream", "memory memory\nstream     stream")], None, 1,
        [r'^src/memory/buffer\.h:\d+: includes "stream/stream\.h" \(src/stream/stream\.h\): layer memory may not '
         r"include layer stream"]),
    "table_malformed": (
        "A layer listed twice.", {}, [("graph      graph", "graph      graph\ngraph      graph_again")], None, 2,
        [r"layer graph is listed twice"]),
    "doc_not_updated": (
        "INTERNALS.md quotes an order that is not the table's.", {}, None,
        [("compile < module", "module < compile")], 1,
        [r"^docs/INTERNALS\.md: does not quote the order of src/layers\.txt"]),
}


def run_case(name, case, scratch):
    what, plants, table_edit, doc_edit, want_status, patterns = case
    work = os.path.join(scratch, name)
    src = os.path.join(work, "src")
    shutil.copytree(os.path.join(ROOT, "src"), src)
    doc = os.path.join(work, "docs", "INTERNALS.md")
    os.makedirs(os.path.dirname(doc))
    shutil.copyfile(os.path.join(ROOT, "docs", "INTERNALS.md"), doc)
    for rel, (line_number, text) in plants.items():
        path = os.path.join(src, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        lines = open(path, encoding="utf-8").read().split("\n") if os.path.exists(path) else []
        if line_number is None:
            lines.insert(len(lines) - 1 if lines and lines[-1] == "" else len(lines), text)
        else:
            lines.insert(line_number - 1, text)
        with open(path, "w", encoding="utf-8") as f:
            f.write("\n".join(lines))
    for path, edits in ((os.path.join(src, "layers.txt"), table_edit), (doc, doc_edit)):
        for old, new in edits or []:
            text = open(path, encoding="utf-8").read()
            if old not in text:
                return [f"the fixture lacks {old!r} in {path}: update the case"]
            with open(path, "w", encoding="utf-8") as f:
                f.write(text.replace(old, new, 1))
    # The check names files relative to the folder holding src/: here the copy's.
    result = subprocess.run([sys.executable, CHECK, "--src", src, "--doc", doc], capture_output=True, text=True)
    output = result.stdout + result.stderr
    errors = []
    if result.returncode != want_status:
        errors.append(f"exit status {result.returncode}, expected {want_status}")
    for p in patterns:
        if not re.search(p, output, re.M):
            errors.append(f"output lacks /{p}/")
    if errors:
        errors.append("output:\n" + output)
    return errors


def main():
    if "--list" in sys.argv:
        for name, case in CASES.items():
            print(f"{name}: {case[0]}")
        return 0
    failed = 0
    with tempfile.TemporaryDirectory(prefix="dccuda-layering-") as scratch:
        for name, case in CASES.items():
            errors = run_case(name, case, scratch)
            print(f"{'FAIL' if errors else 'ok  '} {name}: {case[0]}")
            for e in errors:
                print("     " + e.replace("\n", "\n     "))
            failed += bool(errors)
    print(f"{len(CASES) - failed} of {len(CASES)} cases behave as expected")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
