//! Graphs built node by node: copies, fills, host functions, events, child
//! graphs and kernels with dependencies; the order, types and edges read
//! back; nodes changed in place; a clone, a removed node, a DOT file, a
//! refused cycle; conditional nodes (if/else, switch) where the driver has
//! them. Results are checked on the host after each launch.

const std = @import("std");
const dc = @import("dccuda");
const support = @import("support.zig");
const expectError = support.expectError;
const testing = std.testing;

fn countCall(counter: *std.atomic.Value(u32)) void {
    _ = counter.fetchAdd(1, .seq_cst);
}

fn addTen(counter: *std.atomic.Value(u32)) void {
    _ = counter.fetchAdd(10, .seq_cst);
}

fn place(order: []const dc.Node, node: dc.Node) usize {
    return std.mem.indexOfScalar(dc.Node, order, node).?;
}

test "a graph of copies, fills, events and host nodes runs in dependency order and changes in place" {
    try support.withDevice(struct {
        fn run(dev: *dc.Device) !void {
            const stream = try dc.Stream.create(dev, .{}, 0);
            defer stream.deinit();
            var data: [256]u32 = undefined;
            for (&data, 0..) |*v, i| v.* = @intCast(i * 3);
            const src = try dc.Buffer.fromSlice(dev, u32, &data);
            defer src.deinit();
            const dst = try dc.Buffer.alloc(dev, 1024, .{});
            defer dst.deinit();
            const event = try dc.Event.create(dev, .{});
            defer event.deinit();
            var calls = std.atomic.Value(u32).init(0);

            const g = dc.Graph.create(dev) catch |e| return support.fail(e);
            defer g.deinit();
            const fill = try g.addFill(dst, 0, 1024, @as(u32, 0xdeadbeef), &.{});
            const copy = try g.addCopy(dst, 0, src, 0, 512, &.{fill});
            const host = try g.addHost(&calls, countCall, &.{copy});
            const record = try g.addEventRecord(event, &.{host});
            try testing.expectEqual(@as(u64, 4), try g.nodeCount());
            try testing.expectEqual(dc.NodeType.fill, try g.nodeType(fill));
            try testing.expectEqual(dc.NodeType.copy, try g.nodeType(copy));
            try testing.expectEqual(dc.NodeType.host, try g.nodeType(host));
            try testing.expectEqual(dc.NodeType.event_record, try g.nodeType(record));

            const order = try g.nodes(testing.allocator);
            defer testing.allocator.free(order);
            try testing.expect(place(order, fill) < place(order, copy));
            try testing.expect(place(order, copy) < place(order, host));
            try testing.expect(place(order, host) < place(order, record));
            try testing.expectEqual(@as(u64, 3), try g.edgeCount());
            const first = try g.edgeAt(0);
            try testing.expectEqual(fill, first.from);
            try testing.expectEqual(copy, first.to);

            try g.launch(stream);
            try event.synchronize();
            var got: [256]u32 = undefined;
            try dst.read(0, &got);
            try testing.expectEqualSlices(u32, data[0..128], got[0..128]);
            for (got[128..]) |v| try testing.expectEqual(@as(u32, 0xdeadbeef), v);
            try testing.expectEqual(@as(u32, 1), calls.load(.seq_cst));

            // In place: another fill value, another copy range, another host function.
            try g.setFill(fill, dst, 0, 1024, @as(u32, 7));
            try g.setCopy(copy, dst, 512, src, 0, 256);
            try g.setHost(host, &calls, addTen);
            try g.launch(stream);
            try stream.synchronize();
            try dst.read(0, &got);
            for (got[0..128]) |v| try testing.expectEqual(@as(u32, 7), v);
            try testing.expectEqualSlices(u32, data[0..64], got[128..192]);
            for (got[192..]) |v| try testing.expectEqual(@as(u32, 7), v);
            try testing.expectEqual(@as(u32, 11), calls.load(.seq_cst));

            // A clone keeps the ids; a cycle and a made-up node are refused.
            const copy_of = try g.clone();
            defer copy_of.deinit();
            const cloned = try copy_of.nodes(testing.allocator);
            defer testing.allocator.free(cloned);
            try testing.expectEqualSlices(dc.Node, order, cloned);
            try expectError(error.InvalidArgument, g.addDependency(record, fill), &.{"would close a cycle"});
            try expectError(error.InvalidArgument, g.nodeType(@enumFromInt(0)), &.{});
            try expectError(error.InvalidArgument, g.addCopy(dst, 0, src, 0, 4, &.{@enumFromInt(12345)}), &.{"12345"});
            try expectError(error.InvalidArgument, g.setCopy(fill, dst, 0, src, 0, 4), &.{});

            // Removing the record node from the clone leaves the original whole.
            try copy_of.removeNode(record);
            try testing.expectEqual(@as(u64, 3), try copy_of.nodeCount());
            try testing.expectEqual(@as(u64, 4), try g.nodeCount());
            try expectError(error.InvalidArgument, copy_of.nodeType(record), &.{});

            // A child graph and an event wait, then the whole graph as DOT.
            const outer = try dc.Graph.create(dev);
            defer outer.deinit();
            const wait = try outer.addEventWait(event, &.{});
            const child = try outer.addChildGraph(copy_of, &.{wait});
            try testing.expectEqual(dc.NodeType.child_graph, try outer.nodeType(child));
            try testing.expectEqual(dc.NodeType.event_wait, try outer.nodeType(wait));
            try event.record(stream);
            try outer.launch(stream);
            try stream.synchronize();
            try testing.expectEqual(@as(u32, 21), calls.load(.seq_cst));

            var tmp = testing.tmpDir(.{});
            defer tmp.cleanup();
            const dir = try tmp.dir.realpathAlloc(testing.allocator, ".");
            defer testing.allocator.free(dir);
            const path = try std.fmt.allocPrintZ(testing.allocator, "{s}/graph.dot", .{dir});
            defer testing.allocator.free(path);
            try g.writeDot(path, .{ .verbose = true });
            const dot = try tmp.dir.readFileAlloc(testing.allocator, "graph.dot", 1 << 20);
            defer testing.allocator.free(dot);
            try testing.expect(std.mem.indexOf(u8, dot, "digraph") != null);
            try expectError(error.InvalidArgument, g.writeDot("", .{}), &.{});
        }
    }.run);
}

test "conditional nodes run the body their condition names" {
    try support.withDevice(struct {
        fn run(dev: *dc.Device) !void {
            const stream = try dc.Stream.create(dev, .{}, 0);
            defer stream.deinit();
            const b = try dc.Buffer.alloc(dev, 64, .{});
            defer b.deinit();
            try b.fill(0, 64, @as(u8, 0));
            const g = try dc.Graph.create(dev);
            defer g.deinit();
            // if/else with the condition 0 runs the else body; switch with 2 runs body 2.
            const if_node = g.addConditional(.@"if", 2, 0, &.{}) catch |e| {
                if (e == error.NotSupported) {
                    std.debug.print("skipped: {}\n", .{dc.lastError()});
                    return error.SkipZigTest;
                }
                return support.fail(e);
            };
            const switch_node = try g.addConditional(.@"switch", 3, 2, &.{if_node.node});
            try testing.expect(if_node.condition != switch_node.condition);
            try testing.expectEqual(dc.NodeType.conditional, try g.nodeType(if_node.node));
            for (0..2) |i| {
                const body = try g.conditionalBody(if_node.node, @intCast(i));
                defer body.deinit();
                _ = try body.addFill(b, 0, 32, @as(u8, @intCast(1 + i)), &.{});
            }
            for (0..3) |i| {
                const body = try g.conditionalBody(switch_node.node, @intCast(i));
                defer body.deinit();
                _ = try body.addFill(b, 32, 32, @as(u8, @intCast(10 + i)), &.{});
            }
            try expectError(error.OutOfRange, g.conditionalBody(if_node.node, 2), &.{"index 2"});
            try expectError(error.InvalidArgument, g.removeNode(if_node.node), &.{"conditional node"});
            try expectError(error.InvalidArgument, g.addConditional(.@"while", 2, 0, &.{}), &.{});
            try g.launch(stream);
            try stream.synchronize();
            var got: [64]u8 = undefined;
            try b.read(0, &got);
            for (got[0..32]) |v| try testing.expectEqual(@as(u8, 2), v);
            for (got[32..]) |v| try testing.expectEqual(@as(u8, 12), v);
        }
    }.run);
}

test "a kernel node runs saxpy after its inputs and takes new arguments in place" {
    try support.requireNvrtc();
    try support.withDevice(struct {
        fn run(dev: *dc.Device) !void {
            const module = dc.Module.compileAndLoad(dev, support.kernels, .{ .name = "kernels.cu" }) catch |e| return support.fail(e);
            defer module.deinit();
            const saxpy = try module.getFunction("saxpy");
            defer saxpy.deinit();
            const stream = try dc.Stream.create(dev, .{}, 0);
            defer stream.deinit();
            const count = 1000;
            var hx: [count]f32 = undefined;
            support.randomFloats(&hx, 21);
            const staged = try dc.Buffer.fromSlice(dev, f32, &hx);
            defer staged.deinit();
            const x = try dc.Buffer.alloc(dev, count * 4, .{});
            defer x.deinit();
            const y = try dc.Buffer.alloc(dev, count * 4, .{});
            defer y.deinit();

            const g = try dc.Graph.create(dev);
            defer g.deinit();
            const copy = try g.addCopy(x, 0, staged, 0, count * 4, &.{});
            const fill = try g.addFill(y, 0, count * 4, @as(f32, 1.0), &.{});
            const config = dc.LaunchConfig.linear((count + 255) / 256, 256);
            const k = try g.addKernel(saxpy, config, .{ @as(f32, 2), x, y, @as(i32, count) }, &.{ copy, fill });
            try testing.expectEqual(dc.NodeType.kernel, try g.nodeType(k));
            try testing.expectEqual(@as(u64, 2), try g.edgeCount());
            try expectError(error.InvalidArgument, g.addKernel(saxpy, config, .{ @as(f32, 2), x }, &.{}), &.{});

            var got: [count]f32 = undefined;
            try g.launch(stream);
            try stream.synchronize();
            try y.read(0, &got);
            for (hx, got) |xi, yi| try support.expectClose(2 * xi + 1, yi);

            try g.setKernel(k, config, .{ @as(f32, -3), x, y, @as(i32, count) });
            try g.launch(stream);
            try stream.synchronize();
            try y.read(0, &got);
            for (hx, got) |xi, yi| try support.expectClose(-3 * xi + 1, yi);
        }
    }.run);
}
