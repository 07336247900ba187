// Entry points: 2D and 3D copy nodes of a graph built node by node, checked
// as dc_buffer_copy_2d / dc_buffer_copy_3d check their regions.
#include "dccuda.h"

#include "core/args.h"
#include "core/fork_guard.h"
#include "core/guard.h"
#include "device/device.h"
#include "graph/graph.h"
#include "graph/graph_nodes.h"
#include "memory/buffer.h"
#include "memory/region.h"
#include "stream/host_callback.h"

using namespace dc;

namespace {

dc_status add_region_copy(dc_graph graph, dc_buffer dst, const Region& dr, dc_buffer src, const Region& sr,
                          const Extent& e, bool three_d, const uint64_t* dependencies, uint32_t num_dependencies,
                          uint64_t* node) {
  clear_out(node);
  forbid_after_fork();
  Pinned<Graph> g = pin<Graph>(graph, "graph");
  Pinned<Buffer> d = pin<Buffer>(dst, "dst");
  Pinned<Buffer> s = pin<Buffer>(src, "src");
  require_arg(node, "node");
  forbid_in_host_callback();
  g->check_usable();
  ContextScope bind(g->device());
  *node = add_copy_region_node(*g, *d, dr, *s, sr, e, three_d, dependencies, num_dependencies);
  return DC_SUCCESS;
}

}  // namespace

extern "C" {

DC_API dc_status dc_graph_add_copy_2d_node(dc_graph graph, dc_buffer dst, uint64_t dst_offset, uint64_t dst_pitch,
                                           dc_buffer src, uint64_t src_offset, uint64_t src_pitch, uint64_t width,
                                           uint64_t height, const uint64_t* dependencies, uint32_t num_dependencies,
                                           uint64_t* node) {
  return guarded("dc_graph_add_copy_2d_node", [&] {
    return add_region_copy(graph, dst, {dst_offset, dst_pitch, 0}, src, {src_offset, src_pitch, 0},
                           {width, height, 1}, false, dependencies, num_dependencies, node);
  });
}

DC_API dc_status dc_graph_add_copy_3d_node(dc_graph graph, dc_buffer dst, uint64_t dst_offset, uint64_t dst_pitch,
                                           uint64_t dst_rows_per_plane, dc_buffer src, uint64_t src_offset,
                                           uint64_t src_pitch, uint64_t src_rows_per_plane, uint64_t width,
                                           uint64_t height, uint64_t depth, const uint64_t* dependencies,
                                           uint32_t num_dependencies, uint64_t* node) {
  return guarded("dc_graph_add_copy_3d_node", [&] {
    return add_region_copy(graph, dst, {dst_offset, dst_pitch, dst_rows_per_plane}, src,
                           {src_offset, src_pitch, src_rows_per_plane}, {width, height, depth}, true, dependencies,
                           num_dependencies, node);
  });
}

DC_API dc_status dc_graph_set_copy_2d_node(dc_graph graph, uint64_t node, dc_buffer dst, uint64_t dst_offset,
                                           uint64_t dst_pitch, dc_buffer src, uint64_t src_offset, uint64_t src_pitch,
                                           uint64_t width, uint64_t height) {
  return guarded("dc_graph_set_copy_2d_node", [&] {
    forbid_after_fork();
    Pinned<Graph> g = pin<Graph>(graph, "graph");
    Pinned<Buffer> d = pin<Buffer>(dst, "dst");
    Pinned<Buffer> s = pin<Buffer>(src, "src");
    forbid_in_host_callback();
    g->check_usable();
    ContextScope bind(g->device());
    set_copy_region_node(*g, node, *d, {dst_offset, dst_pitch, 0}, *s, {src_offset, src_pitch, 0}, {width, height, 1},
                         false);
    return DC_SUCCESS;
  });
}

}  // extern "C"
