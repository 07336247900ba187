// Entry points: stream capture and graphs.
#include "dccuda.h"

#include <cstring>
#include <string>

#include "core/args.h"
#include "core/fork_guard.h"
#include "core/guard.h"
#include "device/device.h"
#include "graph/capture.h"
#include "graph/graph.h"
#include "graph/graph_nodes.h"
#include "launch/kernel_node.h"
#include "memory/buffer.h"
#include "module/function.h"
#include "stream/event.h"
#include "stream/host_callback.h"
#include "stream/stream.h"

using namespace dc;

namespace {

void require_same_device(const Stream& s, const Graph& g) { s.require_device(g.device(), "graph"); }

}  // namespace

extern "C" {

DC_API dc_status dc_stream_begin_capture(dc_stream stream, int32_t mode) {
  return guarded("dc_stream_begin_capture", [&] {
    forbid_after_fork();
    Pinned<Stream> s = pin<Stream>(stream, "stream");
    forbid_in_host_callback();
    s->check_usable();
    ContextScope bind(s->device());
    begin_capture(*s, mode);
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_stream_end_capture(dc_stream stream, dc_graph* graph) {
  return guarded("dc_stream_end_capture", [&] {
    clear_out(graph);
    forbid_after_fork();
    Pinned<Stream> s = pin<Stream>(stream, "stream");
    require_arg(graph, "graph");
    forbid_in_host_callback();
    s->check_usable();
    ContextScope bind(s->device());
    Ref<Graph> g = end_capture(*s);
    *graph = issue_handle<dc_graph>(g.get());
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_stream_is_capturing(dc_stream stream, int32_t* capturing) {
  return guarded("dc_stream_is_capturing", [&] {
    clear_out(capturing);
    forbid_after_fork();
    Pinned<Stream> s = pin<Stream>(stream, "stream");
    require_arg(capturing, "capturing");
    s->check_usable();
    ContextScope bind(s->device());
    *capturing = is_capturing(*s) ? 1 : 0;
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_graph_instantiate(dc_graph graph) {
  return guarded("dc_graph_instantiate", [&] {
    forbid_after_fork();
    Pinned<Graph> g = pin<Graph>(graph, "graph");
    forbid_in_host_callback();
    g->check_usable();
    ContextScope bind(g->device());
    g->instantiate();
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_graph_upload(dc_graph graph, dc_stream stream) {
  return guarded("dc_graph_upload", [&] {
    forbid_after_fork();
    Pinned<Graph> g = pin<Graph>(graph, "graph");
    Pinned<Stream> s = pin<Stream>(stream, "stream");
    forbid_in_host_callback();
    require_same_device(*s, *g);
    g->check_usable();
    s->check_usable();
    ContextScope bind(g->device());
    g->upload(*s);
    return DC_SUCCESS;
  });
}

// Hot (with Graph::launch): laid out together, away from the cold paths, so
// that a replay loop's path stays in few instruction-cache lines.
[[gnu::hot]] DC_API dc_status dc_graph_launch(dc_graph graph, dc_stream stream) {
  return guarded("dc_graph_launch", [&](const detail::ErrorSlot& thread) {
    forbid_after_fork();
    Pinned<Graph> g = pin<Graph>(graph, "graph");
    forbid_in_host_callback(thread);
    // A replay on the stream of the graph's last launch: the graph keeps that
    // stream, so it needs no pin (a pin is two atomic read-modify-writes).
    if (g->launch_again(stream, thread)) [[likely]]
      return DC_SUCCESS;
    Pinned<Stream> s = pin<Stream>(stream, "stream");
    if (&s->device() != &g->device()) [[unlikely]]
      require_same_device(*s, *g);
    g->check_usable();
    s->check_usable();
    // Binds the context as it needs (LaunchContext).
    g->launch(*s, reinterpret_cast<uintptr_t>(stream), thread);
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_graph_update(dc_graph graph, dc_graph source) {
  return guarded("dc_graph_update", [&] {
    forbid_after_fork();
    Pinned<Graph> g = pin<Graph>(graph, "graph");
    Pinned<Graph> src = pin<Graph>(source, "source");
    forbid_in_host_callback();
    if (&g->device() != &src->device())
      fail(DC_ERROR_INVALID_ARGUMENT, "graph is on device %d and source on device %d; update a graph with a capture "
           "made on its own device", g->device().ordinal(), src->device().ordinal());
    g->check_usable();
    src->check_usable();
    ContextScope bind(g->device());
    g->update(*src);
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_graph_node_count(dc_graph graph, uint64_t* count) {
  return guarded("dc_graph_node_count", [&] {
    clear_out(count);
    forbid_after_fork();
    Pinned<Graph> g = pin<Graph>(graph, "graph");
    require_arg(count, "count");
    g->check_usable();
    ContextScope bind(g->device());
    *count = g->node_count();
    return DC_SUCCESS;
  });
}

DC_API void dc_graph_release(dc_graph graph) { close_handle<Graph>(graph); }

DC_API dc_status dc_graph_create(dc_device device, dc_graph* graph) {
  return guarded("dc_graph_create", [&] {
    clear_out(graph);
    forbid_after_fork();
    Pinned<Device> d = pin<Device>(device, "device");
    require_arg(graph, "graph");
    forbid_in_host_callback();
    d->check_usable();
    ContextScope bind(*d);
    Ref<Graph> g = Graph::create(Ref<Device>::share(d.get()));
    *graph = issue_handle<dc_graph>(g.get());
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_graph_add_kernel_node(dc_graph graph, dc_function function, const dc_launch_config* config,
                                          const dc_arg* args, uint32_t num_args, const uint64_t* dependencies,
                                          uint32_t num_dependencies, uint64_t* node) {
  return guarded("dc_graph_add_kernel_node", [&] {
    clear_out(node);
    forbid_after_fork();
    Pinned<Graph> g = pin<Graph>(graph, "graph");
    Pinned<Function> f = pin<Function>(function, "function");
    require_arg(node, "node");
    forbid_in_host_callback();
    g->check_usable();
    f->check_usable();
    ContextScope bind(g->device());
    *node = add_kernel_node(*g, *f, config, args, num_args, dependencies, num_dependencies);
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_graph_add_copy_node(dc_graph graph, dc_buffer dst, uint64_t dst_offset, dc_buffer src,
                                        uint64_t src_offset, uint64_t size, const uint64_t* dependencies,
                                        uint32_t num_dependencies, uint64_t* node) {
  return guarded("dc_graph_add_copy_node", [&] {
    clear_out(node);
    forbid_after_fork();
    Pinned<Graph> g = pin<Graph>(graph, "graph");
    Pinned<Buffer> d = pin<Buffer>(dst, "dst");
    Pinned<Buffer> s = pin<Buffer>(src, "src");
    require_arg(node, "node");
    forbid_in_host_callback();
    g->check_usable();
    ContextScope bind(g->device());
    *node = add_copy_node(*g, *d, dst_offset, *s, src_offset, size, dependencies, num_dependencies);
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_graph_add_fill_node(dc_graph graph, dc_buffer buffer, uint64_t offset, uint64_t size,
                                        uint32_t value, uint32_t element_size, const uint64_t* dependencies,
                                        uint32_t num_dependencies, uint64_t* node) {
  return guarded("dc_graph_add_fill_node", [&] {
    clear_out(node);
    forbid_after_fork();
    Pinned<Graph> g = pin<Graph>(graph, "graph");
    Pinned<Buffer> b = pin<Buffer>(buffer, "buffer");
    require_arg(node, "node");
    forbid_in_host_callback();
    g->check_usable();
    ContextScope bind(g->device());
    *node = add_fill_node(*g, *b, offset, size, value, element_size, dependencies, num_dependencies);
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_graph_add_host_node(dc_graph graph, dc_host_fn fn, void* user_data, const uint64_t* dependencies,
                                        uint32_t num_dependencies, uint64_t* node) {
  return guarded("dc_graph_add_host_node", [&] {
    clear_out(node);
    forbid_after_fork();
    Pinned<Graph> g = pin<Graph>(graph, "graph");
    require_arg(node, "node");
    forbid_in_host_callback();
    g->check_usable();
    ContextScope bind(g->device());
    *node = add_host_node(*g, fn, user_data, dependencies, num_dependencies);
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_graph_add_alloc_node(dc_graph graph, uint64_t size, const uint64_t* dependencies,
                                         uint32_t num_dependencies, uint64_t* node, dc_buffer* buffer) {
  return guarded("dc_graph_add_alloc_node", [&] {
    clear_out(node);
    clear_out(buffer);
    forbid_after_fork();
    Pinned<Graph> g = pin<Graph>(graph, "graph");
    require_arg(node, "node");
    require_arg(buffer, "buffer");
    forbid_in_host_callback();
    g->check_usable();
    ContextScope bind(g->device());
    Ref<Buffer> b;
    uint64_t id = add_alloc_node(*g, size, dependencies, num_dependencies, &b);
    *buffer = issue_handle<dc_buffer>(b.get());
    *node = id;
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_graph_add_free_node(dc_graph graph, dc_buffer buffer, const uint64_t* dependencies,
                                        uint32_t num_dependencies, uint64_t* node) {
  return guarded("dc_graph_add_free_node", [&] {
    clear_out(node);
    forbid_after_fork();
    Pinned<Graph> g = pin<Graph>(graph, "graph");
    Pinned<Buffer> b = pin<Buffer>(buffer, "buffer");
    require_arg(node, "node");
    forbid_in_host_callback();
    g->check_usable();
    ContextScope bind(g->device());
    *node = add_free_node(*g, *b, dependencies, num_dependencies);
    return DC_SUCCESS;
  });
}

namespace {
dc_status add_event(const char* name, dc_graph graph, dc_event event, bool record, const uint64_t* dependencies,
                    uint32_t num_dependencies, uint64_t* node) {
  return guarded(name, [&] {
    clear_out(node);
    forbid_after_fork();
    Pinned<Graph> g = pin<Graph>(graph, "graph");
    Pinned<Event> e = pin<Event>(event, "event");
    require_arg(node, "node");
    forbid_in_host_callback();
    g->check_usable();
    ContextScope bind(g->device());
    *node = add_event_node(*g, *e, record, dependencies, num_dependencies);
    return DC_SUCCESS;
  });
}
}  // namespace

DC_API dc_status dc_graph_add_event_record_node(dc_graph graph, dc_event event, const uint64_t* dependencies,
                                                uint32_t num_dependencies, uint64_t* node) {
  return add_event("dc_graph_add_event_record_node", graph, event, true, dependencies, num_dependencies, node);
}

DC_API dc_status dc_graph_add_event_wait_node(dc_graph graph, dc_event event, const uint64_t* dependencies,
                                              uint32_t num_dependencies, uint64_t* node) {
  return add_event("dc_graph_add_event_wait_node", graph, event, false, dependencies, num_dependencies, node);
}

DC_API dc_status dc_graph_add_child_graph_node(dc_graph graph, dc_graph child, const uint64_t* dependencies,
                                               uint32_t num_dependencies, uint64_t* node) {
  return guarded("dc_graph_add_child_graph_node", [&] {
    clear_out(node);
    forbid_after_fork();
    Pinned<Graph> g = pin<Graph>(graph, "graph");
    Pinned<Graph> c = pin<Graph>(child, "child");
    require_arg(node, "node");
    forbid_in_host_callback();
    if (g.get() == c.get())
      fail(DC_ERROR_INVALID_ARGUMENT, "child is graph itself; a graph cannot contain itself (add a clone of it: "
           "dc_graph_clone)");
    if (&g->device() != &c->device())
      fail(DC_ERROR_INVALID_ARGUMENT, "child is on device %d and graph on device %d; a child graph runs on its "
           "parent's device", c->device().ordinal(), g->device().ordinal());
    g->check_usable();
    c->check_usable();
    ContextScope bind(g->device());
    *node = g->add_child(*c, dependencies, num_dependencies);
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_graph_add_dependency(dc_graph graph, uint64_t from, uint64_t to) {
  return guarded("dc_graph_add_dependency", [&] {
    forbid_after_fork();
    Pinned<Graph> g = pin<Graph>(graph, "graph");
    forbid_in_host_callback();
    g->check_usable();
    ContextScope bind(g->device());
    g->add_dependency(from, to);
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_graph_node_at(dc_graph graph, uint64_t index, uint64_t* node) {
  return guarded("dc_graph_node_at", [&] {
    clear_out(node);
    forbid_after_fork();
    Pinned<Graph> g = pin<Graph>(graph, "graph");
    require_arg(node, "node");
    g->check_usable();
    ContextScope bind(g->device());
    *node = g->node_at(index);
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_graph_node_type(dc_graph graph, uint64_t node, int32_t* type) {
  return guarded("dc_graph_node_type", [&] {
    clear_out(type);
    forbid_after_fork();
    Pinned<Graph> g = pin<Graph>(graph, "graph");
    require_arg(type, "type");
    g->check_usable();
    ContextScope bind(g->device());
    *type = g->node_type(node);
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_graph_edge_count(dc_graph graph, uint64_t* count) {
  return guarded("dc_graph_edge_count", [&] {
    clear_out(count);
    forbid_after_fork();
    Pinned<Graph> g = pin<Graph>(graph, "graph");
    require_arg(count, "count");
    g->check_usable();
    ContextScope bind(g->device());
    *count = g->edge_count();
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_graph_edge_at(dc_graph graph, uint64_t index, uint64_t* from, uint64_t* to) {
  return guarded("dc_graph_edge_at", [&] {
    clear_out(from);
    clear_out(to);
    forbid_after_fork();
    Pinned<Graph> g = pin<Graph>(graph, "graph");
    require_arg(from, "from");
    require_arg(to, "to");
    g->check_usable();
    ContextScope bind(g->device());
    std::pair<uint64_t, uint64_t> e = g->edge_at(index);
    *from = e.first;
    *to = e.second;
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_graph_clone(dc_graph graph, dc_graph* clone) {
  return guarded("dc_graph_clone", [&] {
    clear_out(clone);
    forbid_after_fork();
    Pinned<Graph> g = pin<Graph>(graph, "graph");
    require_arg(clone, "clone");
    forbid_in_host_callback();
    g->check_usable();
    ContextScope bind(g->device());
    Ref<Graph> c = g->clone();
    *clone = issue_handle<dc_graph>(c.get());
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_graph_remove_node(dc_graph graph, uint64_t node) {
  return guarded("dc_graph_remove_node", [&] {
    forbid_after_fork();
    Pinned<Graph> g = pin<Graph>(graph, "graph");
    forbid_in_host_callback();
    g->check_usable();
    ContextScope bind(g->device());
    g->remove_node(node);
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_graph_write_dot(dc_graph graph, const char* path, uint32_t flags) {
  return guarded("dc_graph_write_dot", [&] {
    forbid_after_fork();
    Pinned<Graph> g = pin<Graph>(graph, "graph");
    require_arg(path, "path");
    if (!*path) fail(DC_ERROR_INVALID_ARGUMENT, "path is empty; name the file to write");
    if (flags & ~uint32_t(DC_GRAPH_DOT_VERBOSE))
      fail(DC_ERROR_INVALID_ARGUMENT, "flags 0x%x has unknown bits 0x%x; pass 0 or DC_GRAPH_DOT_VERBOSE", flags,
           flags & ~uint32_t(DC_GRAPH_DOT_VERBOSE));
    forbid_in_host_callback();
    g->check_usable();
    ContextScope bind(g->device());
    g->write_dot(path, flags);
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_graph_dot(dc_graph graph, uint32_t flags, char* text, uint64_t capacity, uint64_t* length) {
  return guarded("dc_graph_dot", [&] {
    clear_out(length);
    forbid_after_fork();
    Pinned<Graph> g = pin<Graph>(graph, "graph");
    require_arg(length, "length");
    if (!text && capacity)
      fail(DC_ERROR_INVALID_ARGUMENT, "text is NULL but capacity is %llu; pass a buffer of capacity bytes, or NULL "
           "and 0 to ask for the length", static_cast<unsigned long long>(capacity));
    if (flags & ~uint32_t(DC_GRAPH_DOT_VERBOSE))
      fail(DC_ERROR_INVALID_ARGUMENT, "flags 0x%x has unknown bits 0x%x; pass 0 or DC_GRAPH_DOT_VERBOSE", flags,
           flags & ~uint32_t(DC_GRAPH_DOT_VERBOSE));
    forbid_in_host_callback();
    g->check_usable();
    ContextScope bind(g->device());
    std::string dot = g->dot_text(flags);
    // As every out, *length stays 0 on failure: the message gives the size.
    if (text && capacity <= dot.size())
      fail(DC_ERROR_OUT_OF_RANGE, "capacity %llu is too small for the DOT text: it is %zu bytes and a terminating NUL; "
           "pass a buffer of at least %zu bytes (text NULL and capacity 0 ask for the length)",
           static_cast<unsigned long long>(capacity), dot.size(), dot.size() + 1);
    *length = dot.size();
    if (!text) return DC_SUCCESS;
    std::memcpy(text, dot.data(), dot.size());
    text[dot.size()] = '\0';
    return DC_SUCCESS;
  });
}

}  // extern "C"

extern "C" {

DC_API dc_status dc_graph_set_kernel_node(dc_graph graph, uint64_t node, const dc_launch_config* config,
                                          const dc_arg* args, uint32_t num_args) {
  return guarded("dc_graph_set_kernel_node", [&] {
    forbid_after_fork();
    Pinned<Graph> g = pin<Graph>(graph, "graph");
    forbid_in_host_callback();
    g->check_usable();
    ContextScope bind(g->device());
    set_kernel_node(*g, node, config, args, num_args);
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_graph_set_copy_node(dc_graph graph, uint64_t node, dc_buffer dst, uint64_t dst_offset,
                                        dc_buffer src, uint64_t src_offset, uint64_t size) {
  return guarded("dc_graph_set_copy_node", [&] {
    forbid_after_fork();
    Pinned<Graph> g = pin<Graph>(graph, "graph");
    Pinned<Buffer> d = pin<Buffer>(dst, "dst");
    Pinned<Buffer> s = pin<Buffer>(src, "src");
    forbid_in_host_callback();
    g->check_usable();
    ContextScope bind(g->device());
    set_copy_node(*g, node, *d, dst_offset, *s, src_offset, size);
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_graph_set_fill_node(dc_graph graph, uint64_t node, dc_buffer buffer, uint64_t offset,
                                        uint64_t size, uint32_t value, uint32_t element_size) {
  return guarded("dc_graph_set_fill_node", [&] {
    forbid_after_fork();
    Pinned<Graph> g = pin<Graph>(graph, "graph");
    Pinned<Buffer> b = pin<Buffer>(buffer, "buffer");
    forbid_in_host_callback();
    g->check_usable();
    ContextScope bind(g->device());
    set_fill_node(*g, node, *b, offset, size, value, element_size);
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_graph_set_host_node(dc_graph graph, uint64_t node, dc_host_fn fn, void* user_data) {
  return guarded("dc_graph_set_host_node", [&] {
    forbid_after_fork();
    Pinned<Graph> g = pin<Graph>(graph, "graph");
    forbid_in_host_callback();
    g->check_usable();
    ContextScope bind(g->device());
    set_host_node(*g, node, fn, user_data);
    return DC_SUCCESS;
  });
}

}  // extern "C"

extern "C" {

DC_API dc_status dc_graph_add_conditional_node(dc_graph graph, int32_t type, uint32_t num_bodies,
                                               uint32_t default_value, const uint64_t* dependencies,
                                               uint32_t num_dependencies, uint64_t* condition, uint64_t* node) {
  return guarded("dc_graph_add_conditional_node", [&] {
    clear_out(condition);
    clear_out(node);
    forbid_after_fork();
    Pinned<Graph> g = pin<Graph>(graph, "graph");
    require_arg(condition, "condition");
    require_arg(node, "node");
    forbid_in_host_callback();
    g->check_usable();
    ContextScope bind(g->device());
    uint64_t c = 0;
    uint64_t n = g->add_conditional(type, num_bodies, default_value, dependencies, num_dependencies, &c);
    *condition = c;
    *node = n;
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_graph_conditional_body(dc_graph graph, uint64_t node, uint32_t index, dc_graph* body) {
  return guarded("dc_graph_conditional_body", [&] {
    clear_out(body);
    forbid_after_fork();
    Pinned<Graph> g = pin<Graph>(graph, "graph");
    require_arg(body, "body");
    forbid_in_host_callback();
    g->check_usable();
    Ref<Graph> b = g->conditional_body(node, index);
    *body = issue_handle<dc_graph>(b.get());
    return DC_SUCCESS;
  });
}

}  // extern "C"
