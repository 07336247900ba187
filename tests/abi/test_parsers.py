#!/usr/bin/env python3
"""Unit tests of the readers behind abi/check_abi.py and abi/gen.py, on source layouts the
fixtures do not show: the C# declarations the SWIG check reads from SWIG's output, the header
parser's corner cases, and the API model (abi/api_model.py): what each annotation means and
the message for each thing the model cannot describe. Run: python3 tests/abi/test_parsers.py"""

import os
import sys
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "abi"))

import api  # noqa: E402
from abicheck.bindings import csharp  # noqa: E402
from abicheck.bindings.common import strip_c_like_comments  # noqa: E402
from abicheck import baseline, constants, layouts, symbols, util  # noqa: E402


def cs_view(src, net7):
    text = csharp.preprocess(strip_c_like_comments(src), csharp.NET7_SYMBOLS if net7 else csharp.MONO_SYMBOLS)
    types = csharp.collect_types([text])
    decls, skipped, errors = csharp.parse_declarations(text, "x.cs", types, "")
    return decls, skipped, errors


def sig(d):
    return (d.name, [p.cls for p in d.params], d.ret.cls)


class CSharp(unittest.TestCase):
    SRC = r'''
using System;
using System.Runtime.InteropServices;
namespace N {
  internal abstract class DcHandle : SafeHandleZeroOrMinusOneIsInvalid { protected DcHandle() : base(true) {} }
  internal sealed class DeviceHandle : DcHandle { protected override bool ReleaseHandle() => true; }
  internal readonly struct StreamRef { private readonly IntPtr _value; public static readonly StreamRef Null; }
  internal struct Pair { public int A; public int B; }
  internal enum Status : int { Ok = 0 }
  internal enum Small : byte { A }
  internal delegate void HostFn(IntPtr userData);
  internal static unsafe partial class M {
    private const string Lib = "dccuda";
    private const string Prefix = "dc_";
    /* [DllImport("commented_out")] static extern void Nope(); */
    // [DllImport(Lib, EntryPoint = "dc_commented")] static extern void Nope2();
    [DllImport(Lib, EntryPoint = "dc_version"), System.Security.SuppressUnmanagedCodeSecurity]
    [return: MarshalAs(UnmanagedType.U4)]
    public static extern uint Version();

#if NET7_0_OR_GREATER && !LEGACY
    [LibraryImport(Lib, EntryPoint = Prefix + "device_open")]
    [UnmanagedCallConv(CallConvs = new[] { typeof(System.Runtime.CompilerServices.CallConvCdecl) })]
    internal static partial Status DeviceOpen(int ordinal, out DeviceHandle device);
#elif MONO_OLD
    [DllImport(Lib, EntryPoint = "dc_device_open")] internal static extern Status DeviceOpen(int ordinal, out IntPtr device);
#else
    [DllImport(Lib, EntryPoint = "dc_device_open", CallingConvention = CallingConvention.Cdecl)]
    internal static extern Status DeviceOpen(
        int ordinal,
        out DeviceHandle device);
#endif

    [global::System.Runtime.InteropServices.DllImport(Lib, EntryPoint = nameof(dc_stream_synchronize))]
    internal static extern int dc_stream_synchronize(StreamRef stream);

#if NET7_0_OR_GREATER
    [LibraryImport(Lib, EntryPoint = "dc_stream_add_callback")]
    internal static partial int AddCallback(IntPtr s, delegate* unmanaged[Cdecl]<IntPtr, void> fn, nint user);
#else
    [DllImport(Lib, EntryPoint = "dc_stream_add_callback")]
    internal static extern int AddCallback(IntPtr s, HostFn fn, IntPtr user);
#endif
    [DllImport(Lib, EntryPoint = "dc_compile", CharSet = CharSet.Ansi)]
    internal static extern int Compile([MarshalAs(UnmanagedType.LPUTF8Str)] string source, byte[] name,
                                       in Pair options, Small s, float f, double d, long l, ulong u, short h, bool b);
    [DllImport("dcfake_cuda")] internal static extern void dcfake_reset();
    [DllImport(Lib)] internal static extern string dc_status_name(int status);
    [DllImport(Lib)] internal static extern Pair dc_by_value(Span<byte> x);
  }
}
'''

    def test_views(self):
        net7, _, e7 = cs_view(self.SRC, True)
        mono, skipped, em = cs_view(self.SRC, False)
        self.assertEqual(e7, [])
        self.assertEqual(em, [])
        n7 = {d.name: d for d in net7}
        nm = {d.name: d for d in mono}
        self.assertNotIn("dc_commented", n7)
        self.assertEqual(sig(n7["dc_version"]), ("dc_version", [], "i32"))
        self.assertEqual(sig(n7["dc_device_open"]), ("dc_device_open", ["i32", "ptr"], "i32"))
        self.assertEqual(n7["dc_device_open"].how, "EntryPoint")
        self.assertEqual(sig(nm["dc_device_open"]), ("dc_device_open", ["i32", "ptr"], "i32"))
        self.assertEqual(sig(n7["dc_stream_synchronize"]), ("dc_stream_synchronize", ["ptr"], "i32"))
        self.assertEqual(sig(n7["dc_stream_add_callback"])[1], ["ptr", "ptr", "ptr"])
        self.assertEqual(sig(nm["dc_stream_add_callback"])[1], ["ptr", "ptr", "ptr"])
        self.assertEqual(sig(nm["dc_compile"])[1],
                         ["ptr", "ptr", "ptr", "i8", "f32", "f64", "i64", "i64", "i16", "bool"])
        self.assertTrue(any("dcfake_cuda" in s for s in skipped))
        self.assertTrue(any("returns string" in p for p in nm["dc_status_name"].problems))
        self.assertEqual(nm["dc_by_value"].ret.cls, "struct")
        self.assertEqual(nm["dc_by_value"].params[0].cls, "?")
        # The NET7 view only sees the LibraryImport declarations of its branch.
        self.assertEqual(len([d for d in net7 if d.name == "dc_device_open"]), 1)

    def test_method_name_is_the_entry_point_without_entrypoint(self):
        src = '''class M {
#if NET7_0_OR_GREATER
  [LibraryImport("dccuda")]
  internal static partial int dc_buffer_alloc_Internal(IntPtr d, ulong s, uint f, out IntPtr b);
#endif
}'''
        (d,), _, _ = cs_view(src, True)
        self.assertEqual((d.name, d.how), ("dc_buffer_alloc_Internal", "method name"))
        self.assertEqual(cs_view(src, False)[0], [])

    def test_nested_conditionals(self):
        src = '''class M {
#if NET7_0_OR_GREATER
#if FOO
  [LibraryImport("dccuda", EntryPoint = "dc_a")] static partial void A();
#else
  [LibraryImport("dccuda", EntryPoint = "dc_b")] static partial void B();
#endif
#elif NETFRAMEWORK
  [DllImport("dccuda", EntryPoint = "dc_c")] static extern void C();
#endif
}'''
        self.assertEqual([d.name for d in cs_view(src, True)[0]], ["dc_b"])
        self.assertEqual([d.name for d in cs_view(src, False)[0]], ["dc_c"])


class Header(unittest.TestCase):
    SRC = r'''
#ifndef X_H
#define X_H
#include <stdint.h>
#ifdef __cplusplus
extern "C" {
#endif
#define DC_API __attribute__((visibility("default")))
#define DCCUDA_VERSION_MAJOR 2
#define DCCUDA_VERSION_MINOR 3
#define DCCUDA_VERSION_PATCH 4
#define DC_FLAG (0x10u)
#define DC_NEG (-7)
#define DC_SUM (DC_FLAG * 2 + 1)
typedef int32_t dc_status;
typedef struct dc_thing_s* dc_thing;
typedef uint64_t (*dc_cb)(int32_t block, void* user);
enum { DC_ANON_A = 1 };
/** A struct. */
typedef struct dc_s {
  uint32_t struct_size;     /* a comment; with a semicolon */
  const char* const* names;
  uint8_t  uuid[16];
  int32_t  dims[3];
  double   d;
} dc_s;
#define DC_S_INIT { (uint32_t)sizeof(dc_s), NULL, {0}, {0, 0, 0}, 0.0 }
/** Doc for f. */
DC_API dc_status dc_f(dc_thing thing,   /* the thing */
                      const dc_s* s,
                      dc_cb cb, void (*inline_fn)(void*),
                      uint64_t n);
DC_API void dc_g(void);
int32_t dc_not_exported(int32_t x);
DC_API dc_status dc_h();
#ifdef __cplusplus
}
#endif
#endif
'''

    def test_parse(self):
        a = api.parse_text(self.SRC)
        self.assertEqual(a.version_string, "2.3.4")
        self.assertEqual(a.constants["DC_SUM"], 33)
        self.assertEqual(a.constants["DC_NEG"], -7)
        f = a.function("dc_f")
        self.assertEqual([(p.name, p.type.cls) for p in f.params],
                         [("thing", "ptr"), ("s", "ptr"), ("cb", "ptr"), ("inline_fn", "ptr"), ("n", "i64")])
        self.assertEqual(f.doc, "Doc for f.")
        self.assertEqual(a.function("dc_g").params, [])
        s = a.struct("dc_s")
        self.assertEqual([(x.name, x.offset, x.size) for x in s.fields],
                         [("struct_size", 0, 4), ("names", 8, 8), ("uuid", 16, 16), ("dims", 32, 12), ("d", 48, 8)])
        self.assertEqual((s.size, s.align, s.growable), (56, 8, True))
        self.assertEqual(a.handles, {"dc_thing": "dc_thing_s"})
        self.assertEqual([c.name for c in a.callbacks], ["dc_cb"])
        msgs = " | ".join(str(p) for p in a.problems)
        self.assertIn("dc_not_exported` is declared without DC_API", msgs)
        self.assertIn("dc_h: `()` means unspecified parameters", msgs)
        self.assertEqual(a.forbidden, [])

    def test_forbidden(self):
        src = self.SRC.replace("uint64_t n);", "unsigned long n, _Bool b);").replace(
            "  double   d;", "  double   d;\n  uint32_t bits : 3;")
        a = api.parse_text(src)
        msgs = " | ".join(str(p) for p in a.forbidden)
        self.assertIn("`long`", msgs)
        self.assertIn("`_Bool`", msgs)
        self.assertIn("bit-field", msgs)

    def test_real_header(self):
        a = api.parse_header(os.path.join(ROOT, "include", "dccuda.h"))
        self.assertEqual(a.problems, [])
        self.assertEqual(a.forbidden, [])
        self.assertEqual([str(p) for p in a.model_problems], [])
        self.assertGreater(len(a.functions), 100)
        arg = a.struct("dc_arg")
        self.assertEqual([(f.name, f.offset) for f in arg.fields],
                         [("kind", 0), ("size", 4), ("value", 8), ("buffer", 16), ("offset", 24)])


class Model(unittest.TestCase):
    SRC = r'''
#include <stdint.h>
#define DC_API
#define DC_IN
#define DC_OUT
#define DC_INOUT
#define DC_NULLABLE
#define DC_ARRAY(n)
#define DC_OWNED
#define DC_BORROWED
#define DC_LIFETIME(x)
#define DC_FAMILY(f)
#define DC_CONSTANTS(f, k, t)
#define DC_NATIVE
#define DC_USER_DATA
#define DC_INFALLIBLE
DC_CONSTANTS(dccuda_version, values, uint32_t)
#define DCCUDA_VERSION_MAJOR 1
#define DCCUDA_VERSION_MINOR 0
#define DCCUDA_VERSION_PATCH 0
typedef int32_t dc_status;
DC_CONSTANTS(dc_status, enumeration, int32_t)
#define DC_SUCCESS 0
/** A comment between the members. */
#define DC_ERROR_INVALID_ARGUMENT (-1)
#define DC_ERROR_INVALID_HANDLE (-2)

/* Two families with one prefix, told apart by their markers. */
DC_CONSTANTS(dc_cache_source, enumeration, int32_t)
#define DC_CACHE_MISS 0
#define DC_CACHE_DISK 2

DC_CONSTANTS(dc_cache_clear_flags, flags, uint32_t)
#define DC_CACHE_CLEAR_MEMORY 0x1u
#define DC_CACHE_CLEAR_DISK   0x2u

#define DC_LONELY 7
typedef struct dc_thing_s* dc_thing;
typedef void (*dc_fn)(void* user_data);
typedef struct dc_opts { uint32_t struct_size; DC_FAMILY(dc_cache_clear_flags) uint32_t flags; } dc_opts;
#define DC_OPTS_INIT { (uint32_t)sizeof(dc_opts), 0u }
/** Make one. Errors: DC_ERROR_INVALID_ARGUMENT (bad flags). */
DC_API dc_status dc_make(DC_FAMILY(dc_cache_clear_flags) uint32_t flags, DC_IN DC_NULLABLE const dc_opts* opts,
                         DC_OUT DC_OWNED dc_thing* thing);
/** Copy. Errors: as dc_make, and DC_ERROR_INVALID_HANDLE. */
DC_API dc_status dc_copy(dc_thing thing, DC_IN DC_ARRAY(size) const void* src, uint64_t size,
                         DC_OUT DC_LIFETIME(thing) const char** name, DC_USER_DATA void* user, dc_fn fn);
DC_API void dc_release(DC_OWNED DC_NULLABLE dc_thing thing);
DC_API DC_LIFETIME(static) const char* dc_name(DC_FAMILY(dc_status) dc_status status);
DC_API DC_INFALLIBLE dc_status dc_last(void);
/** No errors paragraph. */
DC_API dc_status dc_bad1(void* p, dc_thing* t, DC_IN DC_ARRAY(nope) const void* q, const char** s);
/** Errors: as dc_nothing. */
DC_API dc_status dc_bad2(DC_OUT int32_t* x);
DC_API const char* dc_bad3(DC_IN int32_t y);
'''

    def test_meaning(self):
        a = api.parse_text(self.SRC)
        self.assertEqual(a.problems, [])
        fams = {f.name: f for f in a.families}
        self.assertEqual(fams["dc_cache_source"].members, ["DC_CACHE_MISS", "DC_CACHE_DISK"])
        self.assertEqual(fams["dc_cache_clear_flags"].members, ["DC_CACHE_CLEAR_MEMORY", "DC_CACHE_CLEAR_DISK"])
        self.assertEqual(fams["dc_status"].members, ["DC_SUCCESS", "DC_ERROR_INVALID_ARGUMENT", "DC_ERROR_INVALID_HANDLE"])
        self.assertEqual(a.macro("DC_CACHE_DISK").family, "dc_cache_source")
        make, copy = a.function("dc_make"), a.function("dc_copy")
        self.assertEqual([(p.name, p.model.kind, p.model.direction) for p in make.params],
                         [("flags", "int", "in"), ("opts", "struct", "in"), ("thing", "out_handle", "out")])
        self.assertEqual(make.params[0].model.family, "dc_cache_clear_flags")
        self.assertTrue(make.params[1].model.nullable and make.params[2].model.owned)
        self.assertEqual([p.model.kind for p in copy.params], ["handle", "memory", "int", "out_string", "user_data",
                                                               "callback"])
        self.assertEqual((copy.params[1].model.array, copy.params[3].model.lifetime), ("size", "thing"))
        self.assertEqual(make.model.errors, ["DC_ERROR_INVALID_ARGUMENT"])
        self.assertEqual(copy.model.errors, ["DC_ERROR_INVALID_HANDLE", "DC_ERROR_INVALID_ARGUMENT"])
        rel = a.function("dc_release")
        self.assertTrue(rel.params[0].model.owned and not rel.model.fallible)
        self.assertEqual((a.function("dc_name").model.lifetime, a.function("dc_name").model.fallible), ("static", False))
        self.assertFalse(a.function("dc_last").model.fallible)
        self.assertEqual(a.struct("dc_opts").fields[1].model.family, "dc_cache_clear_flags")

    def test_what_it_cannot_describe(self):
        a = api.parse_text(self.SRC)
        msgs = [str(p) for p in a.model_problems]
        expected = [
            "#define DC_LONELY belongs to no family",
            "dc_bad1 returns a dc_status but its comment has no \"Errors: ...\" paragraph",
            "dc_bad1 parameter `p`: `void*` says nothing of what it points to: write DC_ARRAY(count)",
            "dc_bad1 parameter `t`: `dc_thing*`: a pointer to a handle is an out handle: write DC_OUT",
            "dc_bad1 parameter `q`: DC_ARRAY(nope) names no other parameter",
            "dc_bad1 parameter `s`: `const char**` is written by the call: write DC_OUT",
            "dc_bad1 parameter `s`: `const char**`: say how long what it receives stays valid",
            "dc_bad2: its Errors paragraph says \"as dc_nothing\", which the header does not declare",
            "dc_bad3 returns `const char*`: write DC_LIFETIME(static) or DC_LIFETIME(thread)",
            "dc_bad3 parameter `y`: DC_IN on a parameter passed by value",
        ]
        for e in expected:
            self.assertTrue(any(e in m for m in msgs), f"no message containing: {e}\n" + "\n".join(msgs))
        self.assertEqual(len(msgs), len(expected), "\n".join(msgs))

    def test_a_marker_group_ends_at_a_blank_line(self):
        src = self.SRC.replace("#define DC_CACHE_DISK 2\n\n", "#define DC_CACHE_DISK 2\n")
        a = api.parse_text(src)
        msgs = " | ".join(str(p) for p in a.model_problems)
        self.assertNotIn("DC_CACHE_CLEAR_MEMORY belongs to no family", msgs)
        self.assertEqual(a.macro("DC_CACHE_CLEAR_MEMORY").family, "dc_cache_clear_flags")
        self.assertNotIn("DC_CACHE_CLEAR_MEMORY", a.family("dc_cache_source").members)
        src = self.SRC.replace("DC_CONSTANTS(dc_cache_clear_flags, flags, uint32_t)\n", "")
        msgs = " | ".join(str(p) for p in api.parse_text(src).model_problems)
        self.assertIn("#define DC_CACHE_CLEAR_MEMORY belongs to no family", msgs)


class Pieces(unittest.TestCase):
    def test_constants_format(self):
        got, errors = constants.parse_constants("# c\nconstant DC_A -2\nconstant DC_B 4294967295\nDC_C 1\n")
        self.assertEqual(got, {"DC_A": -2, "DC_B": 4294967295})
        self.assertEqual(len(errors), 1)

    def test_nm(self):
        syms, bad = symbols.parse_nm("0000 A DCCUDA_1.0\n0010 T dc_a@@DCCUDA_1.0\n0020 T dc_b@DCCUDA_0.9\n"
                                     "0030 T dc_c\n0040 W _ZN1x1yEv\ngarbage line here\n")
        self.assertEqual([(s.name, s.version, s.default) for s in syms],
                         [("DCCUDA_1.0", "", False), ("dc_a", "DCCUDA_1.0", True), ("dc_b", "DCCUDA_0.9", False),
                          ("dc_c", "", False), ("_ZN1x1yEv", "", False)])
        self.assertEqual(bad, ["garbage line here"])

    def test_abidiff_classification(self):
        added = ("Functions changes summary: 0 Removed, 0 Changed, 1 Added function\n"
                 "Variables changes summary: 0 Removed, 0 Changed, 0 Added variable\n\n"
                 "1 Added function:\n\n  [A] 'function int32_t dc_f3()'    {dc_f3@@DCCUDA_1.0}\n")
        d = baseline.classify(4, added)
        self.assertTrue(d.compatible)
        self.assertEqual(d.added, ["dc_f3"])
        changed = ("Functions changes summary: 0 Removed, 1 Changed, 1 Added functions\n"
                   "1 function with some indirect sub-type change:\n")
        self.assertFalse(baseline.classify(4, changed).compatible)
        self.assertFalse(baseline.classify(4, "ELF SONAME changed\n").compatible)
        self.assertFalse(baseline.classify(12, added).compatible)
        self.assertFalse(baseline.classify(1, "error").compatible)
        self.assertTrue(baseline.classify(0, "").compatible)

    def test_a_program_that_cannot_be_run_is_a_result_not_a_traceback(self):
        import tempfile
        with tempfile.TemporaryDirectory() as tmp:
            not_executable = os.path.join(tmp, "prog")
            with open(not_executable, "w") as f:
                f.write("#!/bin/sh\nexit 0\n")
            res = util.run([not_executable])
            self.assertEqual(res.rc, 126)
            self.assertIn("could not be run", res.out)
            self.assertEqual(util.run([os.path.join(tmp, "missing")]).rc, 127)

    def test_layout_format(self):
        got, errors = layouts.parse_layout("# c\n\nstruct DcArg size 32 align 8\nfield DcArg.StructSize offset 0\n"
                                           "field dc_arg.value offset 8 size 8\nnonsense\n")
        self.assertEqual(list(got), ["arg"])
        self.assertEqual(got["arg"].fields["structsize"].size, None)
        self.assertEqual(got["arg"].fields["value"].size, 8)
        self.assertEqual(len(errors), 1)


if __name__ == "__main__":
    unittest.main(verbosity=2)
