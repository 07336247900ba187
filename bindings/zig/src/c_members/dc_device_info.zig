//! Members of dc_device_info, copied into the generated struct in ../c.zig by abi/gen.py
//! (Zig has no methods outside a type's declaration). Written by hand.

/// The name as a slice, without the NUL padding.
pub fn nameSlice(self: *const dc_device_info) []const u8 {
    return std.mem.sliceTo(&self.name, 0);
}
