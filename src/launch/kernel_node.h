// Kernel nodes of a graph built node by node (dc_graph_add_kernel_node): the
// configuration and the arguments are checked exactly as a prepared launch
// checks them (prepared_launch.h does the work), then the driver copies the
// parameters into the node. The graph keeps the function (and so its module)
// and the buffer arguments alive.
#pragma once

#include <cstdint>

#include "dccuda.h"
#include "graph/graph.h"
#include "module/function.h"

namespace dc {

// The graph's device context must be bound.
uint64_t add_kernel_node(Graph& graph, Function& function, const dc_launch_config* config, const dc_arg* args,
                         uint32_t num_args, const uint64_t* deps, uint32_t num_deps);

// Changes kernel node `node` (added by add_kernel_node: its function stays)
// in place, checked as at add time. The graph's device context must be bound.
void set_kernel_node(Graph& graph, uint64_t node, const dc_launch_config* config, const dc_arg* args,
                     uint32_t num_args);

}  // namespace dc
