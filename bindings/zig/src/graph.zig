//! Graphs (dc_graph): work captured from a stream (Stream.beginCapture /
//! endCapture), replayed at a fraction of the launch cost.

const c = @import("c.zig");
const errors = @import("errors.zig");
const DcError = errors.DcError;
const check = errors.check;
const Stream = @import("stream.zig").Stream;

pub const Graph = opaque {
    /// Release the graph and its instantiation.
    pub fn deinit(self: *Graph) void {
        c.dc_graph_release(self);
    }

    /// Instantiate now (else the first launch does). Idempotent.
    pub fn instantiate(self: *Graph) DcError!void {
        try check(c.dc_graph_instantiate(self));
    }

    /// Upload the instantiated graph ahead of its first launch.
    pub fn upload(self: *Graph, stream: *Stream) DcError!void {
        try check(c.dc_graph_upload(self, stream));
    }

    pub fn launch(self: *Graph, stream: *Stream) DcError!void {
        try check(c.dc_graph_launch(self, stream));
    }

    /// Take the parameters of `source` (same topology); unchanged on failure.
    pub fn update(self: *Graph, source: *Graph) DcError!void {
        try check(c.dc_graph_update(self, source));
    }

    pub fn nodeCount(self: *Graph) DcError!u64 {
        var n: u64 = 0;
        try check(c.dc_graph_node_count(self, &n));
        return n;
    }
};
