// The nodes of a graph built node by node other than kernels (those are in
// launch/kernel_node.h, a layer up): copies, fills, host functions, event
// records and waits. Each is checked as the stream-ordered call doing the
// same work checks it (memory/transfer.h), and the graph keeps what it uses.
// The graph's device context must be bound for each.
#pragma once

#include <cstdint>

#include "dccuda.h"
#include "graph/graph.h"
#include "memory/buffer.h"
#include "memory/region.h"
#include "stream/event.h"

namespace dc {

uint64_t add_copy_node(Graph& graph, Buffer& dst, uint64_t dst_offset, Buffer& src, uint64_t src_offset,
                       uint64_t size, const uint64_t* deps, uint32_t num_deps);
uint64_t add_fill_node(Graph& graph, Buffer& buffer, uint64_t offset, uint64_t size, uint32_t value,
                       uint32_t element_size, const uint64_t* deps, uint32_t num_deps);
uint64_t add_host_node(Graph& graph, dc_host_fn fn, void* user_data, const uint64_t* deps, uint32_t num_deps);
// Node updates in place (Graph::set_node), checked as the add calls are.
void set_copy_node(Graph& graph, uint64_t node, Buffer& dst, uint64_t dst_offset, Buffer& src, uint64_t src_offset,
                   uint64_t size);
void set_fill_node(Graph& graph, uint64_t node, Buffer& buffer, uint64_t offset, uint64_t size, uint32_t value,
                   uint32_t element_size);
void set_host_node(Graph& graph, uint64_t node, dc_host_fn fn, void* user_data);
// 2D and 3D copy nodes: the regions checked as dc_buffer_copy_2d/3d check
// them (memory/region.h), the driver's parameters made as theirs are
// (memory/copy_params.h). `three_d` names the rows_per_plane parameters in
// messages.
uint64_t add_copy_region_node(Graph& graph, Buffer& dst, const Region& dst_region, Buffer& src,
                              const Region& src_region, const Extent& extent, bool three_d, const uint64_t* deps,
                              uint32_t num_deps);
void set_copy_region_node(Graph& graph, uint64_t node, Buffer& dst, const Region& dst_region, Buffer& src,
                          const Region& src_region, const Extent& extent, bool three_d);
// Memory nodes (graph.h: Graph::add_alloc, add_free): *buffer receives a
// buffer over the alloc node's memory (DC_BUFFER_WRAPPED_DEVICE: the graph
// owns the memory, the buffer frees nothing).
uint64_t add_alloc_node(Graph& graph, uint64_t size, const uint64_t* deps, uint32_t num_deps, Ref<Buffer>* buffer);
uint64_t add_free_node(Graph& graph, Buffer& buffer, const uint64_t* deps, uint32_t num_deps);
// `record`: a record node, else a wait node.
uint64_t add_event_node(Graph& graph, Event& event, bool record, const uint64_t* deps, uint32_t num_deps);

}  // namespace dc
