//! Prints the layout of every struct of the binding in abi/README.md's line
//! format, for abi/check_abi.py to compare with the C compiler's:
//!     zig run layout.zig
//! Only types are used, so nothing is linked: no libdccuda is needed.

const std = @import("std");
const c = @import("dccuda.zig").c;

pub fn main() !void {
    var out = std.io.bufferedWriter(std.io.getStdOut().writer());
    const w = out.writer();
    try w.writeAll("# bindings/zig: @sizeOf, @alignOf, @offsetOf of src/c.zig's extern structs\n");
    inline for (c.structs) |entry| {
        const name = entry[0];
        const T = entry[1];
        try w.print("struct {s} size {d} align {d}\n", .{ name, @sizeOf(T), @alignOf(T) });
        inline for (@typeInfo(T).Struct.fields) |f| {
            try w.print("field {s}.{s} offset {d} size {d}\n", .{ name, f.name, @offsetOf(T, f.name), @sizeOf(f.type) });
        }
    }
    try out.flush();
}
