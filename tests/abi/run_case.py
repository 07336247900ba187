#!/usr/bin/env python3
"""Runs abi/check_abi.py on one planted mistake and checks that it fails, naming the problem.

    tests/abi/run_case.py CASE        # one case (what CTest runs)
    tests/abi/run_case.py --list      # the cases
    tests/abi/run_case.py --all       # every case

Each case copies tests/abi/fixtures/good (a small header written and annotated to dccuda's
rules, its library's source, the hand-written parts of the bindings, and the measured layouts
and constants of the bindings whose tools are not everywhere) into a temporary folder, copies
in the real measuring programs (dccuda-sys's layout report), generates the bindings from the
fixture's header with abi/gen.py, plants one mistake (an overlay from fixtures/mistakes/<case>/,
and/or a text edit shown below), builds the stand-in library where the check needs one, runs
the check with its inputs pointed at the copy, and asserts the exit status and the messages.
The good fixture itself must pass every check in strict mode: that is what makes each failure
mean something.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from typing import List, Optional, Tuple

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
CHECK = os.path.join(ROOT, "abi", "check_abi.py")
GEN = os.path.join(ROOT, "abi", "gen.py")
# The real measuring programs, copied into the fixture (they name no struct or constant).
SHARED = ["bindings/rust/dccuda-sys/src/layout.rs", "bindings/rust/dccuda-sys/examples/layout.rs"]
GOOD = os.path.join(HERE, "fixtures", "good")
MISTAKES = os.path.join(HERE, "fixtures", "mistakes")
EXTRA = os.path.join(HERE, "fixtures", "lib_extra")

Edit = Tuple[str, str, str]   # (file in the tree, text that must be there once, replacement)


@dataclass
class Case:
    doc: str
    checks: List[str]
    expect: List[str]                       # regexes the output must match
    rc: int = 1
    edits: List[Edit] = field(default_factory=list)
    overlay: bool = False                   # copy fixtures/mistakes/<case>/ over the tree
    strict: bool = True
    library: str = "normal"                 # normal | leaky-cxx | unversioned | none
    baseline: bool = False                  # make a baseline from the unmodified fixture first
    args: List[str] = field(default_factory=list)
    remove: List[str] = field(default_factory=list)
    real_layout_programs: bool = False      # run mono / cargo where installed
    unexpected: List[str] = field(default_factory=list)   # regexes the output must not match


HDR = "include/dccuda.h"
IMPL = "lib/mini.c"
ADD_FN_HDR = (HDR, "/** The number of blocks per multiprocessor. Errors: as dc_launch_kernel. */",
              "/** Added in 1.1. Errors: DC_ERROR_INVALID_ARGUMENT. */\nDC_API dc_status dc_new_function(int32_t x);\n\n"
              "/** The number of blocks per multiprocessor. Errors: as dc_launch_kernel. */")
ADD_FN_IMPL = (IMPL, "DC_API void dc_buffer_release(dc_buffer buffer) { (void)buffer; }",
               "DC_API void dc_buffer_release(dc_buffer buffer) { (void)buffer; }\n"
               "DC_API dc_status dc_new_function(int32_t x) { return x; }")
DEL_FN_HDR = (HDR, "/** Milliseconds between two events. Errors: DC_ERROR_INVALID_HANDLE. */\n"
              "DC_API dc_status dc_event_elapsed_ms(dc_event start, dc_event end, DC_OUT float* milliseconds);\n", "")
DEL_FN_IMPL = (IMPL, "DC_API dc_status dc_event_elapsed_ms(dc_event start, dc_event end, float* milliseconds) {\n"
               "  (void)start; (void)end;\n  *milliseconds = 0.0f;\n  return 0;\n}\n", "")
DEL_FN_LIST = ("abi/dccuda.symbols", "dc_event_elapsed_ms\n", "")
MINOR_BUMP = (HDR, "#define DCCUDA_VERSION_MINOR 0", "#define DCCUDA_VERSION_MINOR 1")
SWAP_FIELDS = (HDR, "  DC_ARRAY(size) const void* value;\n  dc_buffer buffer;\n",
               "  dc_buffer buffer;\n  DC_ARRAY(size) const void* value;\n")
LAYOUT_FILES = ["--layout-output", "csharp=layouts/csharp.txt", "--layout-output", "rust=layouts/rust.txt"]
CONSTANT_FILES = ["--constants-output", "csharp=constants/csharp.txt", "--constants-output", "rust=constants/rust.txt"]

CASES = {
    # -- the control: everything right ------------------------------------------------
    "good_fixture_passes": Case(
        "The unmodified fixture passes every check in strict mode (real mono/cargo measuring programs where installed).",
        ["all"], [r"ABI check OK", r"PASS\s+bindings\.swig\s.*7/8 exported functions wrapped, 1 not bound on purpose",
                  r"PASS\s+bindings\.generated\s+\d+ generated files, 0 stale", r"PASS\s+constants\.c\s+11 constants",
                  r"PASS\s+constants\.csharp\s+11 constants", r"PASS\s+constants\.rust\s+11 constants",
                  r"PASS\s+layouts\.rust", r"PASS\s+abi\.baseline", r"PASS\s+symbols\.library\s.*8 exported"],
        rc=0, baseline=True, real_layout_programs=True),
    "measuring_program_missing_shown_not_failed": Case(
        "Without --strict, a binding whose measuring program is not there (Zig's) is shown as NOT PRESENT.",
        ["layouts", "constants"], [r"NOT PRESENT\s+layouts\.zig\s+bindings/zig/layout\.zig does not exist",
                                   r"NOT PRESENT\s+constants\.zig", r"ABI check OK"],
        rc=0, strict=False, remove=["layouts/zig.txt", "constants/zig.txt"], args=LAYOUT_FILES + CONSTANT_FILES),
    "measuring_program_missing_fails_strict": Case(
        "With --strict, a binding whose measuring program is not there fails.",
        ["layouts", "constants"], [r"FAIL:ABSENT\s+layouts\.zig", r"FAIL:ABSENT\s+constants\.zig", r"ABI check FAILED"],
        remove=["layouts/zig.txt", "constants/zig.txt"], args=LAYOUT_FILES + CONSTANT_FILES),
    # -- generated bindings ------------------------------------------------------------------
    "generated_csharp_edited": Case(
        "A generated C# declaration edited by hand (its EntryPoint removed): the generated file is stale.",
        ["bindings"], [r"FAIL\s+bindings\.generated",
                       r"bindings/csharp/Native/NativeMethods\.Core\.cs differs from what the header gives: run abi/gen\.py"],
        edits=[("bindings/csharp/Native/NativeMethods.Core.cs", '[LibraryImport(Lib, EntryPoint = "dc_buffer_alloc")]',
                "[LibraryImport(Lib)]")]),
    "generated_zig_edited": Case(
        "A generated Zig declaration edited by hand (u32 for a uint64_t): the generated file is stale.",
        ["bindings"], [r"bindings/zig/src/c\.zig differs from what the header gives"],
        edits=[("bindings/zig/src/c.zig", "fn dc_buffer_alloc(device: ?*Device, size: u64,",
                "fn dc_buffer_alloc(device: ?*Device, size: u32,")]),
    "generated_stale_after_header_change": Case(
        "A function added to the header without running abi/gen.py: every binding it adds to is stale.",
        ["bindings"], [r"bindings/rust/dccuda-sys/src/generated\.rs differs", r"bindings/zig/src/c\.zig differs",
                       r"bindings/csharp/Native/NativeMethods\.Core\.cs differs", r"abi/dccuda\.symbols differs",
                       r"bindings\.generated\s+\d+ generated files, [4-9] stale"],
        edits=[ADD_FN_HDR]),
    "generated_leftover": Case(
        "A file marked generated that nothing generates any more (a section's declarations moved away).",
        ["bindings"], [r"bindings/csharp/Native/NativeMethods\.Old\.cs is marked generated but nothing generates it"],
        overlay=True),
    "model_cannot_describe": Case(
        "A new function whose pointer says nothing of what it points to: the model (and so gen) refuses it.",
        ["bindings", "header"], [r"FAIL\s+bindings\.generated",
                                 r"dc_fill parameter `data`: `void\*` says nothing of what it points to: write DC_ARRAY\(count\)",
                                 r"FAIL\s+header\.declarations"],
        edits=[(HDR, "/** Release a buffer. */", "/** Fill. Errors: DC_ERROR_INVALID_ARGUMENT. */\n"
                "DC_API dc_status dc_fill(void* data, uint64_t size);\n\n/** Release a buffer. */")]),
    "swig_ignored_function": Case(
        "dccuda.i %ignores a function that is not listed in unbound.txt.",
        ["bindings"], [r"swig: `dc_buffer_alloc` \(include/dccuda\.h:\d+\) is not wrapped"],
        edits=[("bindings/swig/dccuda.i", "%ignore dc_stream_add_callback;",
                "%ignore dc_stream_add_callback;\n%ignore dc_buffer_alloc;")]),
    "swig_typemap_mismatch": Case(
        "A custom imtype typemap makes the PInvoke side 32-bit where the C wrapper takes 64 bits.",
        ["bindings"], [r"swig C#: dccudaPINVOKE\.cs:\d+: CSharp_dc_buffer_alloc: parameter 2: wrapper "
                       r"`unsigned long long` \(64-bit int\) but C# `uint` \(32-bit int\)"],
        edits=[("bindings/swig/dccuda.i", "%include \"stdint.i\"\n",
                "%include \"stdint.i\"\n%typemap(imtype) uint64_t \"uint\"\n")]),
    "swig_wrong_library": Case(
        "The library the generated C# loads (here: libdccuda itself) does not export SWIG's wrappers.",
        ["bindings"], [r"swig C#: EntryPoint `CSharp_dc_version` is not exported by .*libdccuda\.so\.1 \(--swig-library\)"],
        args=["--swig-library", "@LIB@"]),
    "unbound_stale_entry": Case(
        "unbound.txt says a function is not bound by SWIG, which wraps it.",
        ["bindings"], [r"unbound\.txt:\d+: `swig dc_version` is listed as not bound, but SWIG wraps it: remove the line"],
        edits=[("unbound.txt", "swig       dc_stream_add_callback",
                "swig       dc_version              planted\nswig       dc_stream_add_callback")]),
    "unbound_generated_binding": Case(
        "unbound.txt lists a function for a binding that is generated (and so binds everything).",
        ["bindings"], [r"unbound\.txt:\d+: `rust dc_version`: the rust binding's declarations are generated"],
        edits=[("unbound.txt", "swig       dc_stream_add_callback",
                "rust       dc_version              planted\nswig       dc_stream_add_callback")]),
    # -- layouts ---------------------------------------------------------------------------
    "layout_field_reordered_in_header": Case(
        "Two fields of dc_arg swapped in the header: every binding's layout now differs from C.",
        ["layouts"], [r"rust: struct dc_arg: field value at offset 8, C has it at 16",
                      r"csharp: struct dc_arg: field value at offset 8, C has it at 16",
                      r"zig: struct dc_arg: field buffer at offset 16, C has it at 8"],
        edits=[SWAP_FIELDS], args=LAYOUT_FILES),
    "layout_field_reordered_in_output": Case(
        "The Rust layout program reports dc_arg's fields swapped.",
        ["layouts"], [r"rust: struct dc_arg: field value at offset 16, C has it at 8", r"PASS\s+layouts\.csharp"],
        overlay=True, args=LAYOUT_FILES),
    # -- constants ---------------------------------------------------------------------------
    "constant_value_differs": Case(
        "The C# program reports a constant with another value than the C compiler's.",
        ["constants"], [r"FAIL\s+constants\.csharp", r"csharp: DC_ALLOC_PORTABLE is 3, C says 2",
                        r"PASS\s+constants\.rust", r"PASS\s+constants\.zig"],
        edits=[("constants/csharp.txt", "constant DC_ALLOC_PORTABLE 2", "constant DC_ALLOC_PORTABLE 3")],
        args=CONSTANT_FILES),
    "constant_missing_and_extra": Case(
        "The Zig program lacks a constant of the header and has one the header does not define.",
        ["constants"], [r"zig: DC_ARG_BUFFER \(2 in C\) is missing", r"zig: DC_ARG_OBSOLETE = 9 is not a constant of the header"],
        edits=[("constants/zig.txt", "constant DC_ARG_BUFFER 2\n", "constant DC_ARG_OBSOLETE 9\n")],
        args=CONSTANT_FILES),
    # -- the baseline ----------------------------------------------------------------------
    "baseline_removed_function": Case(
        "A released function removed (header, library and list agree): abidiff against the baseline fails.",
        ["abi"], [r"FAIL\s+abi\.baseline", r"Functions: 1 removed", r"dc_event_elapsed_ms"],
        edits=[DEL_FN_HDR, DEL_FN_IMPL, DEL_FN_LIST], baseline=True),
    "baseline_field_type_changed": Case(
        "A struct field changes type, not size (int32_t -> float): abidiff exits 4, not 8, and that fails.",
        ["abi"], [r"abidiff exit 4", r"Functions: 1 changed", r"type of .int32_t priority. changed"],
        edits=[(HDR, "  int32_t  priority;", "  float    priority;")], baseline=True),
    "baseline_added_function_passes": Case(
        "An added function is compatible: reported, not failed.",
        ["abi"], [r"PASS\s+abi\.baseline", r"note: added function: dc_new_function"],
        rc=0, edits=[ADD_FN_HDR, ADD_FN_IMPL], baseline=True),
    "baseline_update_refused_same_version": Case(
        "--update-baseline is refused while the header's version equals the baseline's.",
        [], [r"refused: include/dccuda\.h says version 1\.0\.0, the same as the baseline"],
        edits=[ADD_FN_HDR, ADD_FN_IMPL], baseline=True, args=["--update-baseline"]),
    "baseline_update_refused_break_without_major": Case(
        "--update-baseline is refused for an ABI break with only a minor version bump.",
        [], [r"refused: the library breaks the released ABI and the major version was not bumped \(1\.0\.0 -> 1\.1\.0\)"],
        edits=[DEL_FN_HDR, DEL_FN_IMPL, MINOR_BUMP], baseline=True, args=["--update-baseline"]),
    "baseline_update_after_minor_bump": Case(
        "--update-baseline writes the baseline for an added function after a minor bump (the control).",
        [], [r"wrote .*dccuda\.abi \(9 functions\) and .*dccuda\.abi\.version \(1\.1\.0\)"],
        rc=0, edits=[ADD_FN_HDR, ADD_FN_IMPL, MINOR_BUMP], baseline=True, args=["--update-baseline"]),
    "symbols_update_refuses_released_removal": Case(
        "--update-symbols (abi/gen.py) refuses to drop a released function without a major version bump.",
        [], [r"these functions were released \(they are in the baseline.*\) and the header no longer declares them: "
             r"dc_event_elapsed_ms"],
        rc=2,
        edits=[DEL_FN_HDR, DEL_FN_IMPL], baseline=True, args=["--update-symbols"]),
    # -- exported symbols ------------------------------------------------------------------
    "symbols_leaked_cxx": Case(
        "A C++ function leaks from the library (a version script without `local: *;`).",
        ["symbols"], [r"leaked C\+\+ symbol `_ZN6dccuda6detail13leaked_helperEi@@DCCUDA_1\.0` "
                      r"\(dccuda::detail::leaked_helper\(int\)\)"],
        library="leaky-cxx"),
    "symbols_unversioned": Case(
        "The library is linked without the version script: every symbol is unversioned.",
        ["symbols"], [r"`dc_version` is unversioned, not in version node DCCUDA_1\.0"],
        library="unversioned"),
    "symbols_wrong_node": Case(
        "An nm listing with one symbol in another node and one unversioned.",
        ["symbols"], [r"`dc_status_name@DCCUDA_0\.9` is in version node DCCUDA_0\.9, not in version node DCCUDA_1\.0",
                      r"`dc_version` is unversioned"],
        overlay=True, library="none", args=["--nm-file", "nm.txt"]),
    "symbols_not_implemented": Case(
        "A function declared in the header (and listed) is not in the library.",
        ["symbols"], [r"1 functions in abi/dccuda\.symbols are not exported .*\n\s+dc_occupancy \(include/dccuda\.h:\d+\)"],
        edits=[(IMPL, "DC_API dc_status dc_occupancy(", "static dc_status not_exported(")]),
    "symbols_extra_function": Case(
        "The library exports a dc_ function the header does not declare.",
        ["symbols"], [r"extra exported symbol `dc_internal_helper@@DCCUDA_1\.0`"],
        edits=[(IMPL, '#include "dccuda.h"\n', '#include "dccuda.h"\nDC_API int32_t dc_internal_helper(void);\n'
                "DC_API int32_t dc_internal_helper(void) { return 1; }\n")]),
    "symbols_list_out_of_date": Case(
        "A function added to the header but not to abi/dccuda.symbols.",
        ["symbols"], [r"`dc_new_function` is declared in include/dccuda\.h:\d+ but missing from abi/dccuda\.symbols"],
        edits=[ADD_FN_HDR, ADD_FN_IMPL]),
    # -- header hygiene --------------------------------------------------------------------
    "header_bool": Case(
        "A bool parameter in the header.",
        ["header"], [r"FAIL\s+header\.types", r"dc_occupancy parameter 2: `bool`"],
        edits=[(HDR, "#include <stdint.h>\n", "#include <stdint.h>\n#include <stdbool.h>\n"),
               (HDR, "DC_API dc_status dc_occupancy(dc_function function, int32_t block_size",
                "DC_API dc_status dc_occupancy(dc_function function, bool block_size")]),
    "header_long": Case(
        "A long field in a public struct.",
        ["header"], [r"struct dc_arg field: `long`"],
        edits=[(HDR, "  uint64_t offset;\n} dc_arg;", "  long offset;\n} dc_arg;")]),
    "header_size_t": Case(
        "A size_t parameter.",
        ["header"], [r"`size_t`"],
        edits=[(HDR, "dc_buffer_alloc(dc_device device, uint64_t size", "dc_buffer_alloc(dc_device device, size_t size")]),
    "header_bitfield": Case(
        "A bit-field in a public struct.",
        ["header"], [r"struct dc_arg: bit-field `uint32_t size : 8`: bit-fields have no portable layout"],
        edits=[(HDR, "  uint32_t size;", "  uint32_t size : 8;")]),
    "header_enum_type": Case(
        "An enum type in a signature.",
        ["header"], [r"enum type `dc_mode`"],
        edits=[(HDR, "typedef int32_t dc_status;", "typedef int32_t dc_status;\ntypedef enum dc_mode { DC_MODE_A = 0 } dc_mode;")]),
    "header_union": Case(
        "A union in the header.",
        ["header"], [r"union `dc_value`: unions are not allowed"],
        edits=[(HDR, "typedef int32_t dc_status;", "typedef int32_t dc_status;\ntypedef union dc_value { int32_t i; float f; } dc_value;")]),
    "header_not_cxx": Case(
        "A C-only keyword (restrict) in a prototype: C99 compiles, C++ does not.",
        ["header"], [r"PASS\s+header\.c99", r"FAIL\s+header\.cxx11", r"FAIL\s+header\.cxx20"],
        edits=[(HDR, "const dc_arg* args, uint32_t num_args,", "const dc_arg* restrict args, uint32_t num_args,")]),
    "header_init_macro_wrong_size": Case(
        "DC_LAUNCH_CONFIG_INIT sets struct_size from another struct.",
        ["header"], [r"DC_LAUNCH_CONFIG_INIT sets struct_size to a size other than sizeof\(dc_launch_config\)"],
        edits=[(HDR, "#define DC_LAUNCH_CONFIG_INIT { (uint32_t)sizeof(dc_launch_config),",
                "#define DC_LAUNCH_CONFIG_INIT { (uint32_t)sizeof(dc_arg),")]),
    "header_init_macro_missing_field": Case(
        "An _INIT macro that leaves a field out warns under -Wextra, and so fails.",
        ["header"], [r"FAIL\s+header\.c99", r"missing initializer"],
        edits=[(HDR, "{1u, 1u, 1u}, {1u, 1u, 1u}, 0u, 0 }", "{1u, 1u, 1u}, {1u, 1u, 1u}, 0u }")]),
    "header_missing_dc_api": Case(
        "A function declared without DC_API (it would not be exported).",
        ["header"], [r"function `dc_version` is declared without DC_API"],
        edits=[(HDR, "DC_API uint32_t dc_version(void);", "uint32_t dc_version(void);")]),
}


def log(msg: str) -> None:
    print(msg, flush=True)


def sh(cmd: List[str], cwd: Optional[str] = None) -> subprocess.CompletedProcess:
    p = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if p.returncode != 0:
        raise SystemExit(f"setup command failed: {' '.join(cmd)}\n{p.stdout}")
    return p


def build_library(tree: str, out_dir: str, kind: str) -> str:
    """The stand-in libdccuda.so.1, built as the real one is (hidden visibility, version
    script, SONAME, debug information for abidiff)."""
    os.makedirs(out_dir, exist_ok=True)
    lib = os.path.join(out_dir, "libdccuda.so.1")
    objs = [os.path.join(out_dir, "mini.o")]
    sh(["gcc", "-g", "-O0", "-fPIC", "-fvisibility=hidden", "-I", os.path.join(tree, "include"),
        "-c", os.path.join(tree, IMPL), "-o", objs[0]])
    script = os.path.join(tree, "lib", "dccuda.map")
    if kind == "leaky-cxx":
        objs.append(os.path.join(out_dir, "leak.o"))
        sh(["g++", "-g", "-O0", "-fPIC", "-c", os.path.join(EXTRA, "leak.cpp"), "-o", objs[1]])
        script = os.path.join(EXTRA, "leaky.map")
    link = ["gcc", "-shared", "-Wl,-soname,libdccuda.so.1", "-o", lib] + objs
    if kind != "unversioned":
        link.insert(2, "-Wl,--version-script=" + script)
    sh(link)
    return lib


def apply_edit(tree: str, edit: Edit) -> None:
    path, old, new = edit
    full = os.path.join(tree, path)
    with open(full, encoding="utf-8") as f:
        text = f.read()
    if text.count(old) != 1:
        raise SystemExit(f"fixture edit does not apply: {path} holds `{old[:60]}` {text.count(old)} times")
    with open(full, "w", encoding="utf-8") as f:
        f.write(text.replace(old, new))


def run_case(name: str, keep: bool = False) -> bool:
    case = CASES[name]
    tmp = tempfile.mkdtemp(prefix=f"dccuda-abi-{name}-")
    try:
        log(f"== case {name}: {case.doc}")
        tree = os.path.join(tmp, "tree")
        shutil.copytree(GOOD, tree)
        for rel in SHARED:
            os.makedirs(os.path.dirname(os.path.join(tree, rel)), exist_ok=True)
            shutil.copy(os.path.join(ROOT, rel), os.path.join(tree, rel))
        # The bindings' generated layers, from the fixture's header (the mechanism under test).
        g = subprocess.run([sys.executable, GEN, "--root", tree], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True)
        if g.returncode != 0:
            raise SystemExit(f"abi/gen.py failed on the good fixture:\n{g.stdout}")
        common = ["--root", tree, "--header", os.path.join(tree, HDR),
                  "--symbols", os.path.join(tree, "abi", "dccuda.symbols"),
                  "--bindings-root", os.path.join(tree, "bindings"),
                  "--unbound", os.path.join(tree, "unbound.txt"),
                  "--baseline", os.path.join(tmp, "baseline", "dccuda.abi"),
                  "--work-dir", os.path.join(tmp, "work")]
        if case.baseline:
            # The released ABI: the unmodified fixture, built and recorded by the real
            # --update-baseline path (allowed: there is no baseline yet).
            os.makedirs(os.path.join(tmp, "baseline"))
            base_lib = build_library(tree, os.path.join(tmp, "released"), "normal")
            p = subprocess.run([sys.executable, CHECK, "--update-baseline", "--library", base_lib] + common,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            log(f"   baseline: {p.stdout.strip()}")
            if p.returncode != 0:
                raise SystemExit("could not make the baseline")
        overlay = os.path.join(MISTAKES, name)
        if case.overlay:
            if not os.path.isdir(overlay):
                raise SystemExit(f"case {name} wants the overlay {overlay}")
            shutil.copytree(overlay, tree, dirs_exist_ok=True)
            for dirpath, _, files in os.walk(overlay):
                for f in files:
                    log(f"   planted: {os.path.relpath(os.path.join(dirpath, f), overlay)} (from fixtures/mistakes/{name})")
        for e in case.edits:
            apply_edit(tree, e)
            short = lambda t: " ".join(t.split())[:70]  # noqa: E731
            log(f"   planted: {e[0]}: `{short(e[1])}` -> `{short(e[2])}`")
        for r in case.remove:
            full = os.path.join(tree, r)
            shutil.rmtree(full) if os.path.isdir(full) else os.remove(full)
            log(f"   removed: {r}")
        args = list(common)
        needs_library = (bool({"all", "symbols", "abi"} & set(case.checks)) or "--update-baseline" in case.args
                         or "@LIB@" in case.args)
        lib = os.path.join(tmp, "no-such-library.so")
        if case.library != "none" and needs_library:
            lib = build_library(tree, os.path.join(tmp, "build"), case.library)
        args += ["--library", lib]
        args += ["--layout-output", "zig=" + os.path.join(tree, "layouts", "zig.txt")] \
            if os.path.exists(os.path.join(tree, "layouts", "zig.txt")) else []
        args += ["--constants-output", "zig=" + os.path.join(tree, "constants", "zig.txt")] \
            if os.path.exists(os.path.join(tree, "constants", "zig.txt")) else []
        for what, option in (("layouts", "--layout-output"), ("constants", "--constants-output")):
            if "all" not in case.checks and what not in case.checks:
                continue
            if not case.real_layout_programs or not (shutil.which("mcs") and shutil.which("mono")):
                if f"csharp={what}/csharp.txt" not in case.args:
                    args += [option, "csharp=" + os.path.join(tree, what, "csharp.txt")]
                if case.real_layout_programs:
                    log(f"   note: mcs/mono not installed: the C# {what} come from {what}/csharp.txt")
            if not case.real_layout_programs or not shutil.which("cargo"):
                if f"rust={what}/rust.txt" not in case.args:
                    args += [option, "rust=" + os.path.join(tree, what, "rust.txt")]
                if case.real_layout_programs:
                    log(f"   note: cargo not installed: the Rust {what} come from {what}/rust.txt")
        extra = [a if "=" not in a or not a.split("=", 1)[1].startswith(("layouts/", "constants/"))
                 else a.split("=", 1)[0] + "=" + os.path.join(tree, a.split("=", 1)[1]) for a in case.args]
        extra = [os.path.join(tree, a) if a == "nm.txt" else lib if a == "@LIB@" else a for a in extra]
        cmd = [sys.executable, CHECK] + case.checks + args + extra + (["--strict"] if case.strict else [])
        env = dict(os.environ)
        env.pop("DCCUDA_ABI_STRICT", None)
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env, cwd=tree)
        out = p.stdout.replace(tree + os.sep, "")
        log(out.rstrip())
        ok = True
        if p.returncode != case.rc:
            log(f"!! exit status {p.returncode}, expected {case.rc}")
            ok = False
        for rx in case.expect:
            if not re.search(rx, out, re.M):
                log(f"!! expected in the output: {rx}")
                ok = False
        for rx in case.unexpected:
            if re.search(rx, out, re.M):
                log(f"!! not expected in the output: {rx}")
                ok = False
        log(f"== case {name}: {'ok' if ok else 'FAILED'}")
        return ok
    finally:
        if keep:
            log(f"   kept {tmp}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("case", nargs="?")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--all", action="store_true")
    ap.add_argument("--keep", action="store_true", help="keep the temporary folder")
    a = ap.parse_args()
    if a.list:
        for n, c in CASES.items():
            print(f"{n}: {c.doc}")
        return 0
    names = list(CASES) if a.all else [a.case]
    if not names or names == [None] or any(n not in CASES for n in names):
        ap.error("name a case (--list shows them) or pass --all")
    failed = [n for n in names if not run_case(n, a.keep)]
    if a.all:
        print(f"abi cases: {len(names) - len(failed)} of {len(names)} as expected"
              + (f"; not: {', '.join(failed)}" if failed else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
