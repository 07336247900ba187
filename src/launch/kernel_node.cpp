#include "launch/kernel_node.h"

#include "core/error.h"
#include "launch/prepared_launch.h"
#include "loader/driver.h"

namespace dc {

uint64_t add_kernel_node(Graph& graph, Function& function, const dc_launch_config* config, const dc_arg* args,
                         uint32_t num_args, const uint64_t* deps, uint32_t num_deps) {
  if (&function.device() != &graph.device())
    fail(DC_ERROR_INVALID_ARGUMENT, "function is a kernel of device %d and graph is on device %d; add kernels of "
         "the graph's own device", function.device().ordinal(), graph.device().ordinal());
  Ref<Launch> launch = Launch::create(Ref<Function>::share(&function), config);
  launch->set_args(args, num_args);
  CUDA_KERNEL_NODE_PARAMS_v2 params;
  launch->node_params(&params);
  std::vector<Ref<Object>> keep = launch->bound_buffers();
  keep.push_back(Ref<Object>::share(&function));
  uint64_t id = graph.add_node(
      deps, num_deps, "cuGraphAddKernelNode",
      [&](CUgraph g, CUgraphNode* node, const CUgraphNode* on, size_t count) {
        return driver_api().cuGraphAddKernelNode(node, g, on, count, &params);
      },
      std::move(keep));
  graph.set_owner(id, Ref<Object>::share(&function));
  return id;
}

void set_kernel_node(Graph& graph, uint64_t node, const dc_launch_config* config, const dc_arg* args,
                     uint32_t num_args) {
  Ref<Object> owner = graph.owner(node);
  if (!owner || owner->type() != HandleType::Function)
    fail(DC_ERROR_NOT_SUPPORTED, "node %llu is not a kernel node added with dc_graph_add_kernel_node (a captured "
         "node, or another type), so dccuda cannot check new arguments against its kernel; update a captured graph "
         "from a new capture (dc_graph_update)", static_cast<unsigned long long>(node));
  Function& function = static_cast<Function&>(*owner);
  function.check_usable();
  Ref<Launch> launch = Launch::create(Ref<Function>::share(&function), config);
  launch->set_args(args, num_args);
  CUDA_KERNEL_NODE_PARAMS_v2 params;
  launch->node_params(&params);
  const DriverApi& api = driver_api();
  graph.set_node(
      node, CU_GRAPH_NODE_TYPE_KERNEL, "kernel", "cuGraphKernelNodeSetParams",
      [&](CUgraphNode n) { return api.cuGraphKernelNodeSetParams(n, &params); }, "cuGraphExecKernelNodeSetParams",
      [&](CUgraphExec e, CUgraphNode n) { return api.cuGraphExecKernelNodeSetParams(e, n, &params); },
      launch->bound_buffers());
}

}  // namespace dc
