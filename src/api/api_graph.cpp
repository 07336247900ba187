// Entry points: stream capture and graphs.
#include "dccuda.h"

#include "core/args.h"
#include "core/fork_guard.h"
#include "core/guard.h"
#include "device/device.h"
#include "graph/capture.h"
#include "graph/graph.h"
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

DC_API dc_status dc_graph_launch(dc_graph graph, dc_stream stream) {
  return guarded("dc_graph_launch", [&] {
    forbid_after_fork();
    Pinned<Graph> g = pin<Graph>(graph, "graph");
    Pinned<Stream> s = pin<Stream>(stream, "stream");
    forbid_in_host_callback();
    if (&s->device() != &g->device()) [[unlikely]]
      require_same_device(*s, *g);
    g->check_usable();
    s->check_usable();
    ContextScope bind(g->device());
    g->launch(*s);
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

}  // extern "C"
