#!/usr/bin/env python3
"""Unit tests of the parsers behind abi/check_abi.py, on source layouts the fixtures do not
show: every way a C#, Rust or Zig declaration may be written that the check must still read
right, and the header parser's corner cases. Run: python3 tests/abi/test_parsers.py"""

import os
import sys
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "abi"))

import api  # noqa: E402
from abicheck.bindings import csharp, rust, zig  # noqa: E402
from abicheck.bindings.common import strip_c_like_comments  # noqa: E402
from abicheck import baseline, layouts, symbols, util  # noqa: E402


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


class Rust(unittest.TestCase):
    SRC = r'''
use std::os::raw::{c_char, c_int, c_void};
pub type dc_status = i32;
pub type dc_device = *mut dc_device_s;
#[repr(C)] pub struct dc_device_s { _p: [u8; 0] }
#[repr(transparent)] pub struct Handle(pub *mut c_void);
#[repr(transparent)] pub struct Marker<T> { ptr: core::ptr::NonNull<c_void>, _t: std::marker::PhantomData<T> }
#[repr(i32)] pub enum Mode { A = 0 }
#[repr(C)] pub struct Pair { a: i32, b: i32 }
pub type Cb = Option<unsafe extern "C" fn(block: i32, user: *mut c_void) -> u64>;
/* a block comment /* nested */ with extern "C" { fn dc_fake(); } inside */
#[link(name = "dccuda")]
unsafe extern "C" {
    /// Doc comment.
    #[cfg(feature = "x")]
    pub safe fn dc_version() -> u32;
    #[link_name = "dc_device_open"]
    pub fn open(ordinal: c_int, device: *mut dc_device) -> dc_status;
    pub fn dc_many(
        a: Handle,
        b: Marker<u8>,
        c: Mode,
        d: Cb,
        e: &mut u64,
        f: Option<&Pair>,
        g: usize,
        h: *const *const c_char,
        i: f32,
        j: f64,
    ) -> !;
    pub fn dc_bad(p: Pair, l: std::os::raw::c_long);
}
#[link(name = "dcfake_cuda")]
extern "C" { pub fn dcfake_reset(); }
'''

    def test_declarations(self):
        text = strip_c_like_comments(self.SRC, nested=True)
        t = rust.Types()
        t.collect(text)
        decls, skipped, errors = rust.parse_file(text, "lib.rs", t)
        self.assertEqual(errors, [])
        d = {x.name: x for x in decls}
        self.assertNotIn("dc_fake", d)
        self.assertEqual(sig(d["dc_version"]), ("dc_version", [], "i32"))
        self.assertEqual((d["dc_device_open"].method, d["dc_device_open"].how), ("open", "link_name"))
        self.assertEqual(sig(d["dc_device_open"])[1:], (["i32", "ptr"], "i32"))
        self.assertEqual(sig(d["dc_many"])[1:], (["ptr", "ptr", "i32", "ptr", "ptr", "ptr", "ptr", "ptr", "f32", "f64"], "void"))
        self.assertEqual([p.cls for p in d["dc_bad"].params], ["struct", "long"])
        self.assertTrue(d["dc_bad"].problems)
        self.assertTrue(any("dcfake_cuda" in s for s in skipped))


class Zig(unittest.TestCase):
    SRC = r'''
const std = @import("std");
pub const Device = opaque {};
pub const Status = enum(c_int) { ok = 0, _ };
pub const Flags = packed struct(u32) { a: bool = false, _pad: u31 = 0 };
pub const HostFn = *const fn (?*anyopaque) callconv(.C) void;
const Config = extern struct { a: u32 };
const Alias = u64;
// pub extern "dccuda" fn dc_commented() void;
const help =
    \\ pub extern "dccuda" fn dc_in_string() void;
;
pub extern "dccuda" fn @"dc_version"() callconv(.C) u32;
pub extern "dccuda" fn dc_many(
    a: ?*Device,
    b: Status,
    c: Flags,
    d: ?HostFn,
    e: [*c]const u8,
    f: [*:0]const u8,
    g: *const Config,
    h: Alias,
    i: f32,
    j: usize,
) Status;
extern fn dc_bad(x: ?u32, y: c_long, z: Config) callconv(.Stdcall) void;
extern "c" fn getenv(name: [*:0]const u8) ?[*:0]const u8;
'''

    def test_declarations(self):
        text = zig.strip_zig(self.SRC)
        t = zig.Types()
        t.collect(text)
        decls, skipped, errors = zig.parse_file(text, "dccuda.zig", t)
        self.assertEqual(errors, [])
        d = {x.name: x for x in decls}
        self.assertEqual(sorted(d), ["dc_bad", "dc_many", "dc_version"])
        self.assertEqual(sig(d["dc_version"]), ("dc_version", [], "i32"))
        self.assertEqual(sig(d["dc_many"])[1:], (["ptr", "i32", "i32", "ptr", "ptr", "ptr", "ptr", "i64", "f32", "ptr"], "i32"))
        self.assertEqual([p.cls for p in d["dc_bad"].params], ["?", "long", "struct"])
        self.assertTrue(any("callconv(.Stdcall)" in p for p in d["dc_bad"].problems))
        self.assertTrue(any("getenv" in s for s in skipped))


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
        self.assertGreater(len(a.functions), 100)
        arg = a.struct("dc_arg")
        self.assertEqual([(f.name, f.offset) for f in arg.fields],
                         [("kind", 0), ("size", 4), ("value", 8), ("buffer", 16), ("offset", 24)])


class Pieces(unittest.TestCase):
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
