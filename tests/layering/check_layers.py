#!/usr/bin/env python3
"""The layering of src/: no file includes a header of a higher layer.

The layers and their order are in src/layers.txt (lowest first). Every #include of every
source file under src/ ("..." or <...>) that names a file under src/ is resolved as the
compiler would (next to the including file, then from src/, where the build's include path
starts) and refused when the included file's layer comes after the including file's layer.
Includes of anything outside src/ (include/dccuda.h, the system's headers) are not checked.
A source file that belongs to no layer is refused too, so that a new folder is placed in the
order on purpose. Cycles inside one layer are allowed.

    tests/layering/check_layers.py                       # src/ and src/layers.txt (CTest: layering.check)
    tests/layering/check_layers.py --src DIR [--table FILE] [--doc docs/INTERNALS.md]
    tests/layering/check_layers.py --graph               # also print which layer includes which

Exit status: 0 when every include goes downwards or sideways, 1 when one does not (each is
named: file, line, the header, both layers), 2 when the table itself is malformed.
"""

import argparse
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SOURCE_EXTENSIONS = (".h", ".hpp", ".inc", ".c", ".cc", ".cpp")
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^">]+)[">]')


class TableError(Exception):
    pass


def read_table(path):
    """[(layer, [folders])] lowest first, from the table at `path`."""
    layers, seen_layers, seen_folders = [], set(), set()
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            words = line.split("#", 1)[0].split()
            if not words:
                continue
            if len(words) < 2:
                raise TableError(f"{path}:{number}: a layer needs a name and at least one folder: {line.strip()!r}")
            name, folders = words[0], [w.strip("/") for w in words[1:]]
            if name in seen_layers:
                raise TableError(f"{path}:{number}: layer {name} is listed twice")
            for folder in folders:
                if folder in seen_folders:
                    raise TableError(f"{path}:{number}: folder {folder} is in two layers")
                seen_folders.add(folder)
            seen_layers.add(name)
            layers.append((name, folders))
    if not layers:
        raise TableError(f"{path}: no layers")
    return layers


def layer_of(rel, folders_by_length):
    """The (rank, name) of the layer holding the src-relative path `rel`, or None."""
    for folder, rank, name in folders_by_length:
        if rel == folder or rel.startswith(folder + "/"):
            return rank, name
    return None


def resolve(src, including_dir, quote, name):
    """The src-relative path of the file `name` names, or None if it is not under src/."""
    candidates = [os.path.join(including_dir, name)] if quote == '"' else []
    candidates.append(os.path.join(src, name))
    for c in candidates:
        c = os.path.normpath(c)
        if os.path.isfile(c):
            rel = os.path.relpath(c, src)
            return None if rel.startswith("..") else rel.replace(os.sep, "/")
    return None


def check(src, table):
    layers = read_table(table)
    folders_by_length = sorted(((folder, rank, name) for rank, (name, folders) in enumerate(layers)
                                for folder in folders), key=lambda t: -len(t[0]))
    table_name = os.path.relpath(table, os.path.dirname(src))
    problems, edges, files = [], {}, 0
    for directory, subdirs, names in os.walk(src):
        subdirs.sort()
        for file_name in sorted(names):
            if not file_name.endswith(SOURCE_EXTENSIONS):
                continue
            path = os.path.join(directory, file_name)
            rel = os.path.relpath(path, src).replace(os.sep, "/")
            files += 1
            own = layer_of(rel, folders_by_length)
            if own is None:
                problems.append(f"src/{rel}: belongs to no layer of {table_name}; add its folder to the table, in "
                                f"its place in the order (docs/INTERNALS.md, \"Layers\")")
                continue
            with open(path, encoding="utf-8", errors="replace") as f:
                for number, line in enumerate(f, 1):
                    m = INCLUDE.match(line)
                    if not m:
                        continue
                    target = resolve(src, directory, m.group(1), m.group(2))
                    if target is None:
                        continue
                    theirs = layer_of(target, folders_by_length)
                    if theirs is None:
                        continue  # reported as a file of no layer
                    if theirs[1] != own[1]:
                        edges.setdefault(own[1], set()).add(theirs[1])
                    if theirs[0] > own[0]:
                        written = m.group(1) + m.group(2) + ('"' if m.group(1) == '"' else ">")
                        problems.append(
                            f"src/{rel}:{number}: includes {written}"
                            f" (src/{target}): layer {own[1]} may not include layer {theirs[1]}, which is above it "
                            f"in {table_name}; move the code both need down to layer {own[1]} or below, or this "
                            f"code up")
    return layers, problems, edges, files


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--src", default=os.path.join(ROOT, "src"))
    parser.add_argument("--table", help="the layer table (default: <src>/layers.txt)")
    parser.add_argument("--doc", help="a document that must quote the order (docs/INTERNALS.md)")
    parser.add_argument("--graph", action="store_true", help="print which layer includes which")
    args = parser.parse_args()
    src = os.path.abspath(args.src)
    table = os.path.abspath(args.table or os.path.join(src, "layers.txt"))
    try:
        layers, problems, edges, files = check(src, table)
    except (TableError, OSError) as e:
        print(f"layering: {e}", file=sys.stderr)
        return 2
    if args.graph:
        for name, _ in layers:
            print(f"{name:10} includes {', '.join(sorted(edges.get(name, ()), key=[n for n, _ in layers].index))}")
    order = " < ".join(name for name, _ in layers)
    if args.doc:
        with open(args.doc, encoding="utf-8") as f:
            if order not in " ".join(f.read().split()):
                base = os.path.dirname(src)
                problems.append(f"{os.path.relpath(args.doc, base)}: does not quote the order of "
                                f"{os.path.relpath(table, base)} ({order}); update its \"Layers\" section")
    for p in problems:
        print(p)
    if problems:
        print(f"layering: {len(problems)} problem(s) in {files} files; the order is {order}")
        return 1
    print(f"layering: {files} files of {len(layers)} layers include nothing above their layer ({order})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
