//! Prints what the Zig compiler made of the binding, in abi/README.md's line
//! formats, for abi/check_abi.py to compare with the C compiler's:
//!     zig run layout.zig -- layout      every struct of src/c.zig (the default)
//!     zig run layout.zig -- constants   every DC_* / DCCUDA_* constant of src/c.zig
//! Only types and constants are used, so nothing is linked: no libdccuda is needed.

const std = @import("std");
const c = @import("dccuda.zig").c;

pub fn main() !void {
    @setEvalBranchQuota(100000);
    var args = std.process.args();
    _ = args.skip();
    const what = args.next() orelse "layout";
    var out = std.io.bufferedWriter(std.io.getStdOut().writer());
    const w = out.writer();
    if (std.mem.eql(u8, what, "layout")) {
        try w.writeAll("# bindings/zig: @sizeOf, @alignOf, @offsetOf of src/c.zig's extern structs\n");
        inline for (c.structs) |entry| {
            const name = entry[0];
            const T = entry[1];
            try w.print("struct {s} size {d} align {d}\n", .{ name, @sizeOf(T), @alignOf(T) });
            inline for (@typeInfo(T).@"struct".fields) |f| {
                try w.print("field {s}.{s} offset {d} size {d}\n", .{ name, f.name, @offsetOf(T, f.name), @sizeOf(f.type) });
            }
        }
    } else if (std.mem.eql(u8, what, "constants")) {
        try w.writeAll("# bindings/zig: the integer constants of src/c.zig, found with @typeInfo\n");
        inline for (@typeInfo(c).@"struct".decls) |d| {
            if (comptime isConstantName(d.name)) {
                const v = @field(c, d.name);
                switch (@typeInfo(@TypeOf(v))) {
                    .int, .comptime_int => try w.print("constant {s} {d}\n", .{ d.name, v }),
                    else => {},
                }
            }
        }
    } else {
        std.debug.print("layout.zig: unknown report `{s}` (layout or constants)\n", .{what});
        std.process.exit(2);
    }
    try out.flush();
}

fn isConstantName(comptime name: []const u8) bool {
    return std.mem.startsWith(u8, name, "DC_") or std.mem.startsWith(u8, name, "DCCUDA_");
}
