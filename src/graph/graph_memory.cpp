// Memory nodes of a graph (cuGraphAddMemAllocNode, cuGraphAddMemFreeNode).
//
// The driver gives an alloc node's memory a fixed address when the node is
// added, and backs it with memory only while a launch runs between the alloc
// node and the node that frees it. dccuda requires every alloc node to have a
// free node in the same graph before the graph is instantiated: then each
// launch allocates and frees its own memory, a launch never fails because an
// earlier one left memory allocated, and nothing outlives the graph (the
// driver would keep memory that no graph freed after the graph is destroyed).
// The driver's other rules for graphs with memory nodes are checked here
// first, with dccuda's words: no clone, no removal of nodes, no use as a child
// graph, no memory nodes in a conditional node's body.
#include <cinttypes>
#include <set>
#include <vector>

#include "core/error.h"
#include "device/cuda_check.h"
#include "graph/graph.h"
#include "loader/driver.h"

namespace dc {

uint64_t Graph::add_alloc(uint64_t size, const uint64_t* deps, uint32_t count, CUdeviceptr* address) {
  if (size == 0) fail(DC_ERROR_INVALID_ARGUMENT, "size is 0; an alloc node allocates at least one byte");
  if (parent_)
    fail(DC_ERROR_INVALID_ARGUMENT, "graph is the body of a conditional node, which cannot hold memory nodes; add "
         "the alloc and free nodes to the graph that holds the conditional node, around it");
  std::lock_guard<std::mutex> g(mutex_);
  ensure_ids_locked();
  std::vector<CUgraphNode> on = dependencies_locked(deps, count);
  CUDA_MEM_ALLOC_NODE_PARAMS_v1 p{};
  p.poolProps.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
  p.poolProps.handleTypes = CU_MEM_HANDLE_TYPE_NONE;
  p.poolProps.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  p.poolProps.location.id = device().ordinal();
  p.bytesize = static_cast<size_t>(size);
  CUgraphNode node = nullptr;
  check(driver_api().cuGraphAddMemAllocNode(&node, graph_, on.empty() ? nullptr : on.data(), on.size(), &p),
        "cuGraphAddMemAllocNode", &device(), "the graph's alloc node could not be added");
  uint64_t id = record_node_locked(node, {});
  allocations_[id] = Allocation{p.dptr, size, 0};
  *address = p.dptr;
  return id;
}

uint64_t Graph::add_free(CUdeviceptr address, uint64_t size, const char* name, const uint64_t* deps, uint32_t count,
                         std::vector<Ref<Object>> keep) {
  std::lock_guard<std::mutex> g(mutex_);
  ensure_ids_locked();
  std::vector<CUgraphNode> on = dependencies_locked(deps, count);
  auto it = allocations_.begin();
  for (; it != allocations_.end(); ++it)
    if (it->second.address == address && it->second.size == size) break;
  if (it == allocations_.end())
    fail(DC_ERROR_INVALID_ARGUMENT, "%s (0x%" PRIx64 ", %" PRIu64 " bytes) is not the buffer of an alloc node of "
         "this graph; a free node frees only the whole buffer dc_graph_add_alloc_node gave for the same graph",
         name, static_cast<uint64_t>(address), size);
  const uint64_t alloc = it->first;
  if (it->second.free_node)
    fail(DC_ERROR_INVALID_ARGUMENT, "%s is freed already, by node %llu; free the memory of alloc node %llu once",
         name, static_cast<unsigned long long>(it->second.free_node), static_cast<unsigned long long>(alloc));
  if (!reaches_locked(on, nodes_.at(alloc)))
    fail(DC_ERROR_INVALID_ARGUMENT, "the free node would not run after alloc node %llu, which allocates %s; name "
         "that node, or a node that runs after it (the last user of the memory), in dependencies",
         static_cast<unsigned long long>(alloc), name);
  CUgraphNode node = nullptr;
  check(driver_api().cuGraphAddMemFreeNode(&node, graph_, on.data(), on.size(), address), "cuGraphAddMemFreeNode",
        &device(), "the graph's free node could not be added");
  uint64_t id = record_node_locked(node, std::move(keep));
  it->second.free_node = id;
  return id;
}

bool Graph::reaches_locked(const std::vector<CUgraphNode>& from, CUgraphNode target) {
  std::vector<std::pair<CUgraphNode, CUgraphNode>> edges = driver_edges_locked();
  std::set<CUgraphNode> seen;
  std::vector<CUgraphNode> todo(from.begin(), from.end());
  while (!todo.empty()) {
    CUgraphNode n = todo.back();
    todo.pop_back();
    if (n == target) return true;
    if (!seen.insert(n).second) continue;
    for (const auto& [before, after] : edges)
      if (after == n) todo.push_back(before);
  }
  return false;
}

void Graph::forbid_memory_nodes_locked(const char* what) const {
  if (has_memory_nodes())
    fail(DC_ERROR_INVALID_ARGUMENT, "graph has memory nodes (dc_graph_add_alloc_node), and the driver cannot %s a "
         "graph with memory nodes; build another graph instead", what);
}

void Graph::check_allocations_freed_locked() const {
  for (const auto& [id, a] : allocations_)
    if (!a.free_node)
      fail(DC_ERROR_INVALID_STATE, "alloc node %llu has no free node; add one with dc_graph_add_free_node after the "
           "last node that uses its memory, so that each launch frees what it allocates",
           static_cast<unsigned long long>(id));
}

}  // namespace dc
