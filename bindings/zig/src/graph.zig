//! Graphs (dc_graph): work captured from a stream (Stream.beginCapture /
//! endCapture), replayed at a fraction of the launch cost, or built node by
//! node (Graph.create, the add* methods), inspected, changed in place
//! (the set* methods), cloned, and extended with conditional nodes whose
//! bodies run as kernels on the device decide.

const std = @import("std");
const c = @import("c.zig");
const errors = @import("errors.zig");
const callback = @import("callback.zig");
const args_mod = @import("args.zig");
const buffer_mod = @import("buffer.zig");
const DcError = errors.DcError;
const check = errors.check;
const Device = @import("device.zig").Device;
const Buffer = buffer_mod.Buffer;
const Stream = @import("stream.zig").Stream;
const Event = @import("event.zig").Event;
const Function = @import("function.zig").Function;
const LaunchConfig = c.dc_launch_config;
const Arg = c.dc_arg;

/// A node of a graph: the library's 64-bit id (never 0, unique in the process;
/// a clone's nodes keep the ids of the nodes they copy). A distinct type so
/// that a node is never taken for a count or an offset.
pub const Node = enum(u64) {
    _,

    pub fn id(self: Node) u64 {
        return @intFromEnum(self);
    }
};

/// DC_GRAPH_NODE_*: what a node does. Non-exhaustive: a type from a newer
/// driver keeps its value.
pub const NodeType = enum(i32) {
    kernel = c.DC_GRAPH_NODE_KERNEL,
    copy = c.DC_GRAPH_NODE_COPY,
    fill = c.DC_GRAPH_NODE_FILL,
    host = c.DC_GRAPH_NODE_HOST,
    child_graph = c.DC_GRAPH_NODE_CHILD_GRAPH,
    empty = c.DC_GRAPH_NODE_EMPTY,
    event_wait = c.DC_GRAPH_NODE_EVENT_WAIT,
    event_record = c.DC_GRAPH_NODE_EVENT_RECORD,
    semaphore_signal = c.DC_GRAPH_NODE_SEMAPHORE_SIGNAL,
    semaphore_wait = c.DC_GRAPH_NODE_SEMAPHORE_WAIT,
    mem_alloc = c.DC_GRAPH_NODE_MEM_ALLOC,
    mem_free = c.DC_GRAPH_NODE_MEM_FREE,
    batch_mem_op = c.DC_GRAPH_NODE_BATCH_MEM_OP,
    conditional = c.DC_GRAPH_NODE_CONDITIONAL,
    _,
};

/// DC_GRAPH_CONDITIONAL_*: how a conditional node runs its bodies.
pub const ConditionalType = enum(i32) {
    /// Body 0 once if the condition is not 0; body 1 (else, if there is one) if it is 0.
    @"if" = c.DC_GRAPH_CONDITIONAL_IF,
    /// Body 0 again and again while the condition is not 0.
    @"while" = c.DC_GRAPH_CONDITIONAL_WHILE,
    /// Body n once, n being the condition (none when n >= the number of bodies).
    @"switch" = c.DC_GRAPH_CONDITIONAL_SWITCH,
};

/// dc_graph_write_dot flags.
pub const DotFlags = packed struct(u32) {
    /// Every parameter of every node (DC_GRAPH_DOT_VERBOSE).
    verbose: bool = false,
    _reserved: u31 = 0,

    comptime {
        std.debug.assert(@as(u32, @bitCast(DotFlags{ .verbose = true })) == c.DC_GRAPH_DOT_VERBOSE);
    }
};

/// An edge: `from` completes before `to` starts.
pub const Edge = struct { from: Node, to: Node };

/// What addConditional gives: the node, and the condition handle to pass to
/// the kernels that set it (an 8-byte value argument: `@as(u64, cond.condition)`).
pub const Conditional = struct { node: Node, condition: u64 };

fn depPtr(deps: []const Node) DcError!struct { ptr: ?*const anyopaque, len: u32 } {
    const n = std.math.cast(u32, deps.len) orelse return error.InvalidArgument;
    return .{ .ptr = if (deps.len == 0) null else @ptrCast(deps.ptr), .len = n };
}

fn argCount(args: []const Arg) DcError!u32 {
    return std.math.cast(u32, args.len) orelse error.InvalidArgument;
}

/// The C trampoline of a typed host function `func(context)`.
fn HostTrampoline(comptime Ctx: type, comptime func: fn (Ctx) void) type {
    return struct {
        fn call(user_data: ?*anyopaque) callconv(.C) void {
            func(callback.fromUserData(Ctx, user_data));
        }
    };
}

pub const Graph = opaque {
    /// A new, empty graph on `dev`; add nodes with the add* methods, then
    /// launch it as a captured one. Release it with deinit.
    pub fn create(dev: *Device) DcError!*Graph {
        var g: ?*Graph = null;
        try check(c.dc_graph_create(dev, &g));
        return errors.handle(Graph, g);
    }

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

    // ---- adding nodes: each runs after the nodes in `deps` (none: a root) ----

    /// A kernel launch with the arguments of a tuple, as Function.launch takes
    /// them (`.{ a, x_buf, y_buf, @as(i32, n) }`), checked against the kernel
    /// when added. Value arguments are copied now; the graph keeps the
    /// function and the buffers alive.
    pub fn addKernel(self: *Graph, function: *Function, config: LaunchConfig, args: anytype, deps: []const Node) DcError!Node {
        var vals = args_mod.values(args);
        const packed_args = args_mod.pack(&vals);
        return self.addKernelArgs(function, config, &packed_args, deps);
    }

    /// addKernel with prepared dc_args.
    pub fn addKernelArgs(self: *Graph, function: *Function, config: LaunchConfig, args: []const Arg, deps: []const Node) DcError!Node {
        const d = try depPtr(deps);
        var node: u64 = 0;
        try check(c.dc_graph_add_kernel_node(self, function, &config, if (args.len == 0) null else args.ptr, try argCount(args), d.ptr, d.len, &node));
        return @enumFromInt(node);
    }

    /// A copy of `bytes` bytes from `src` at `src_offset` to `dst` at `dst_offset`.
    pub fn addCopy(self: *Graph, dst: *Buffer, dst_offset: u64, src: *Buffer, src_offset: u64, bytes: u64, deps: []const Node) DcError!Node {
        const d = try depPtr(deps);
        var node: u64 = 0;
        try check(c.dc_graph_add_copy_node(self, dst, dst_offset, src, src_offset, bytes, d.ptr, d.len, &node));
        return @enumFromInt(node);
    }

    /// A fill of `bytes` bytes from `offset` with `value` (1, 2 or 4 bytes:
    /// `@as(f32, 1.5)`, `@as(u8, 0)`; its size is the element size).
    pub fn addFill(self: *Graph, buf: *Buffer, offset: u64, bytes: u64, value: anytype, deps: []const Node) DcError!Node {
        const v = buffer_mod.fillValue(value);
        const d = try depPtr(deps);
        var node: u64 = 0;
        try check(c.dc_graph_add_fill_node(self, buf, offset, bytes, v.value, v.size, d.ptr, d.len, &node));
        return @enumFromInt(node);
    }

    /// A host function: `func(context)` runs on a driver thread at every
    /// launch of the graph. `context` (a pointer, or null) must stay valid
    /// while the graph, a clone of it or a graph it was added to may be launched.
    pub fn addHost(self: *Graph, context: anytype, comptime func: fn (@TypeOf(context)) void, deps: []const Node) DcError!Node {
        const T = HostTrampoline(@TypeOf(context), func);
        return self.addHostRaw(T.call, callback.toUserData(context), deps);
    }

    /// The C form of addHost.
    pub fn addHostRaw(self: *Graph, func: c.dc_host_fn, user_data: ?*anyopaque, deps: []const Node) DcError!Node {
        const d = try depPtr(deps);
        var node: u64 = 0;
        try check(c.dc_graph_add_host_node(self, func, user_data, d.ptr, d.len, &node));
        return @enumFromInt(node);
    }

    /// A record of `event`: at each launch it completes when `deps` have.
    pub fn addEventRecord(self: *Graph, event: *Event, deps: []const Node) DcError!Node {
        const d = try depPtr(deps);
        var node: u64 = 0;
        try check(c.dc_graph_add_event_record_node(self, event, d.ptr, d.len, &node));
        return @enumFromInt(node);
    }

    /// A wait for `event`'s last record made before the graph's launch.
    pub fn addEventWait(self: *Graph, event: *Event, deps: []const Node) DcError!Node {
        const d = try depPtr(deps);
        var node: u64 = 0;
        try check(c.dc_graph_add_event_wait_node(self, event, d.ptr, d.len, &node));
        return @enumFromInt(node);
    }

    /// `child` as it is now, embedded as one node (later changes to it do not reach this graph).
    pub fn addChildGraph(self: *Graph, child: *Graph, deps: []const Node) DcError!Node {
        const d = try depPtr(deps);
        var node: u64 = 0;
        try check(c.dc_graph_add_child_graph_node(self, child, d.ptr, d.len, &node));
        return @enumFromInt(node);
    }

    /// A conditional node with `num_bodies` bodies (fill them through
    /// conditionalBody); the condition starts every launch at `default_value`.
    /// Needs a CUDA 12.4 driver (if with one body, while) or 12.8 (if/else,
    /// switch): error.NotSupported on older ones.
    pub fn addConditional(self: *Graph, kind: ConditionalType, num_bodies: u32, default_value: u32, deps: []const Node) DcError!Conditional {
        const d = try depPtr(deps);
        var condition: u64 = 0;
        var node: u64 = 0;
        try check(c.dc_graph_add_conditional_node(self, @intFromEnum(kind), num_bodies, default_value, d.ptr, d.len, &condition, &node));
        return .{ .node = @enumFromInt(node), .condition = condition };
    }

    /// Body `index` of conditional node `node`, as a graph to add nodes to (a
    /// new handle: deinit it; it keeps this graph alive and cannot be launched
    /// by itself).
    pub fn conditionalBody(self: *Graph, node: Node, index: u32) DcError!*Graph {
        var g: ?*Graph = null;
        try check(c.dc_graph_conditional_body(self, node.id(), index, &g));
        return errors.handle(Graph, g);
    }

    /// The edge `from` -> `to`; refused if it exists or would close a cycle.
    pub fn addDependency(self: *Graph, from: Node, to: Node) DcError!void {
        try check(c.dc_graph_add_dependency(self, from.id(), to.id()));
    }

    // ---- inspecting ----

    /// Node `index` (0 .. nodeCount() - 1) in a topological order.
    pub fn nodeAt(self: *Graph, index: u64) DcError!Node {
        var node: u64 = 0;
        try check(c.dc_graph_node_at(self, index, &node));
        return @enumFromInt(node);
    }

    /// Every node in topological order, in memory the caller frees with `allocator`.
    pub fn nodes(self: *Graph, allocator: std.mem.Allocator) errors.AllocError![]Node {
        const n = try self.nodeCount();
        const out = try allocator.alloc(Node, std.math.cast(usize, n) orelse return error.OutOfRange);
        errdefer allocator.free(out);
        for (out, 0..) |*node, i| node.* = try self.nodeAt(i);
        return out;
    }

    pub fn nodeType(self: *Graph, node: Node) DcError!NodeType {
        var t: i32 = 0;
        try check(c.dc_graph_node_type(self, node.id(), &t));
        return @enumFromInt(t);
    }

    pub fn edgeCount(self: *Graph) DcError!u64 {
        var n: u64 = 0;
        try check(c.dc_graph_edge_count(self, &n));
        return n;
    }

    /// Edge `index` (0 .. edgeCount() - 1), ordered by `to`, then `from`.
    pub fn edgeAt(self: *Graph, index: u64) DcError!Edge {
        var from: u64 = 0;
        var to: u64 = 0;
        try check(c.dc_graph_edge_at(self, index, &from, &to));
        return .{ .from = @enumFromInt(from), .to = @enumFromInt(to) };
    }

    /// A copy of the nodes and edges as a new graph (deinit it); its nodes
    /// have the ids of the nodes they copy.
    pub fn clone(self: *Graph) DcError!*Graph {
        var g: ?*Graph = null;
        try check(c.dc_graph_clone(self, &g));
        return errors.handle(Graph, g);
    }

    /// Remove `node` and its edges (conditional nodes cannot be removed).
    pub fn removeNode(self: *Graph, node: Node) DcError!void {
        try check(c.dc_graph_remove_node(self, node.id()));
    }

    /// Write the graph in Graphviz DOT form to the file `path` (created or replaced).
    pub fn writeDot(self: *Graph, path: [:0]const u8, flags: DotFlags) DcError!void {
        try check(c.dc_graph_write_dot(self, path.ptr, @bitCast(flags)));
    }

    // ---- changing nodes in place (the next launch runs with the new parameters) ----

    /// New configuration and arguments (a tuple, as addKernel) for a kernel node added with addKernel.
    pub fn setKernel(self: *Graph, node: Node, config: LaunchConfig, args: anytype) DcError!void {
        var vals = args_mod.values(args);
        const packed_args = args_mod.pack(&vals);
        try self.setKernelArgs(node, config, &packed_args);
    }

    /// setKernel with prepared dc_args.
    pub fn setKernelArgs(self: *Graph, node: Node, config: LaunchConfig, args: []const Arg) DcError!void {
        try check(c.dc_graph_set_kernel_node(self, node.id(), &config, if (args.len == 0) null else args.ptr, try argCount(args)));
    }

    /// New buffers, offsets and size for a copy node.
    pub fn setCopy(self: *Graph, node: Node, dst: *Buffer, dst_offset: u64, src: *Buffer, src_offset: u64, bytes: u64) DcError!void {
        try check(c.dc_graph_set_copy_node(self, node.id(), dst, dst_offset, src, src_offset, bytes));
    }

    /// A new buffer, range and value for a fill node (as addFill).
    pub fn setFill(self: *Graph, node: Node, buf: *Buffer, offset: u64, bytes: u64, value: anytype) DcError!void {
        const v = buffer_mod.fillValue(value);
        try check(c.dc_graph_set_fill_node(self, node.id(), buf, offset, bytes, v.value, v.size));
    }

    /// A new function and context for a host node (as addHost).
    pub fn setHost(self: *Graph, node: Node, context: anytype, comptime func: fn (@TypeOf(context)) void) DcError!void {
        const T = HostTrampoline(@TypeOf(context), func);
        try self.setHostRaw(node, T.call, callback.toUserData(context));
    }

    /// The C form of setHost.
    pub fn setHostRaw(self: *Graph, node: Node, func: c.dc_host_fn, user_data: ?*anyopaque) DcError!void {
        try check(c.dc_graph_set_host_node(self, node.id(), func, user_data));
    }
};
