#include "graph/graph.h"

#include <vector>

#include "core/error.h"
#include "device/cuda_check.h"
#include "device/quiet_context.h"
#include "loader/driver.h"
#include "stream/capture_registry.h"

namespace dc {
namespace {

struct UpdateReason {
  CUgraphExecUpdateResult result;
  const char* name;
  const char* text;
};

const UpdateReason kUpdateReasons[] = {
    {CU_GRAPH_EXEC_UPDATE_ERROR, "CU_GRAPH_EXEC_UPDATE_ERROR", "the driver refused the update"},
    {CU_GRAPH_EXEC_UPDATE_ERROR_TOPOLOGY_CHANGED, "CU_GRAPH_EXEC_UPDATE_ERROR_TOPOLOGY_CHANGED",
     "the topology differs (another number of nodes, or other dependencies between them)"},
    {CU_GRAPH_EXEC_UPDATE_ERROR_NODE_TYPE_CHANGED, "CU_GRAPH_EXEC_UPDATE_ERROR_NODE_TYPE_CHANGED",
     "a node is of another type (a kernel where the graph has a copy, say)"},
    {CU_GRAPH_EXEC_UPDATE_ERROR_FUNCTION_CHANGED, "CU_GRAPH_EXEC_UPDATE_ERROR_FUNCTION_CHANGED",
     "a kernel node runs another function, which this driver cannot update"},
    {CU_GRAPH_EXEC_UPDATE_ERROR_PARAMETERS_CHANGED, "CU_GRAPH_EXEC_UPDATE_ERROR_PARAMETERS_CHANGED",
     "a node's parameters changed in a way an update cannot apply (a copy's direction or memory type, an operand "
     "on another device)"},
    {CU_GRAPH_EXEC_UPDATE_ERROR_NOT_SUPPORTED, "CU_GRAPH_EXEC_UPDATE_ERROR_NOT_SUPPORTED",
     "a node cannot be updated"},
    {CU_GRAPH_EXEC_UPDATE_ERROR_UNSUPPORTED_FUNCTION_CHANGE, "CU_GRAPH_EXEC_UPDATE_ERROR_UNSUPPORTED_FUNCTION_CHANGE",
     "a kernel node's function changed in a way an update cannot apply (another context, cooperative and not)"},
    {CU_GRAPH_EXEC_UPDATE_ERROR_ATTRIBUTES_CHANGED, "CU_GRAPH_EXEC_UPDATE_ERROR_ATTRIBUTES_CHANGED",
     "a node's attributes changed in a way an update cannot apply"},
};

uint64_t count_nodes(CUgraph graph) {
  size_t n = 0;
  if (driver_api().cuGraphGetNodes(graph, nullptr, &n) != CUDA_SUCCESS) return 0;
  return n;
}

// " (node 3 of source's 5)", when the driver named the node.
std::string node_position(CUgraph graph, CUgraphNode node) {
  if (!node) return "";
  size_t n = 0;
  const DriverApi& api = driver_api();
  if (api.cuGraphGetNodes(graph, nullptr, &n) != CUDA_SUCCESS || n == 0) return "";
  std::vector<CUgraphNode> nodes(n);
  if (api.cuGraphGetNodes(graph, nodes.data(), &n) != CUDA_SUCCESS) return "";
  for (size_t i = 0; i < n; ++i)
    if (nodes[i] == node) return strf(" (at node %zu of source's %zu, in capture order)", i, n);
  return "";
}

}  // namespace

Graph::~Graph() {
  // A graph made before dc_device_reset died with its context.
  if (!current()) return;
  QuietContextScope bind(device());
  if (!bind.ok()) return;
  const DriverApi& api = driver_api();
  if (exec_) release_quietly([&] { return api.cuGraphExecDestroy(exec_); });
  if (graph_) release_quietly([&] { return api.cuGraphDestroy(graph_); });
}

CUgraphExec Graph::exec_locked() {
  if (!exec_) [[unlikely]] {
    CUgraphExec e = nullptr;
    check(driver_api().cuGraphInstantiateWithFlags(&e, graph_, 0), "cuGraphInstantiateWithFlags", &device(),
          "the graph could not be made executable");
    exec_ = e;
  }
  return exec_;
}

void Graph::instantiate() {
  std::lock_guard<std::mutex> g(mutex_);
  exec_locked();
}

void Graph::upload(Stream& stream) {
  std::lock_guard<std::mutex> g(mutex_);
  check(driver_api().cuGraphUpload(exec_locked(), stream.handle()), "cuGraphUpload", &device());
}

void Graph::launch(Stream& stream) {
  {
    std::lock_guard<std::mutex> g(mutex_);
    CUresult r = driver_api().cuGraphLaunch(exec_locked(), stream.handle());
    if (r != CUDA_SUCCESS) [[unlikely]]
      check(r, "cuGraphLaunch", &device());
  }
  // Launched into a capture: a child graph of the graph being recorded.
  capture_registry::note(stream.handle(), this);
}

void Graph::update(Graph& source) {
  std::lock_guard<std::mutex> g(mutex_);
  CUgraphExec exec = exec_locked();
  CUgraphExecUpdateResultInfo info{};
  CUresult r = driver_api().cuGraphExecUpdate(exec, source.graph_, &info);
  if (r == CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE) {
    const UpdateReason* reason = &kUpdateReasons[0];
    for (const UpdateReason& u : kUpdateReasons)
      if (u.result == info.result) reason = &u;
    std::string where = info.result == CU_GRAPH_EXEC_UPDATE_ERROR_TOPOLOGY_CHANGED
                            ? strf(" (graph has %llu nodes, source has %llu)",
                                   static_cast<unsigned long long>(count_nodes(graph_)),
                                   static_cast<unsigned long long>(count_nodes(source.graph_)))
                            : node_position(source.graph_, info.errorNode);
    fail_cuda(DC_ERROR_INVALID_ARGUMENT, r,
              "source cannot update graph: %s: %s%s; graph is unchanged. Capture the same work (the same kernels, "
              "copies, fills and host functions in the same order) with other parameters, or launch source itself",
              reason->name, reason->text, where.c_str());
  }
  check(r, "cuGraphExecUpdate", &device());
}

uint64_t Graph::node_count() const {
  size_t n = 0;
  check(driver_api().cuGraphGetNodes(graph_, nullptr, &n), "cuGraphGetNodes", &device());
  return n;
}

}  // namespace dc
