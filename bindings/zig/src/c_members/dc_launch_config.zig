//! Members of dc_launch_config, copied into the generated struct in ../c.zig by abi/gen.py
//! (Zig has no methods outside a type's declaration). Written by hand.

/// A 1-D launch of `blocks` blocks of `threads` threads.
pub fn linear(blocks: u32, threads: u32) dc_launch_config {
    return .{ .grid = .{ blocks, 1, 1 }, .block = .{ threads, 1, 1 } };
}
