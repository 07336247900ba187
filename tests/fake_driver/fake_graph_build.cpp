// The fake driver's graphs built node by node (a test double, never a GPU):
// see fake_graph.h for what is modelled.
#include <cstdio>
#include <cstring>

#include "fake_graph.h"
#include "fake_memory.h"

namespace fake {
namespace {

Node* as_node(CUgraphNode h) { return reinterpret_cast<Node*>(h); }
CUgraphNode as_handle(const Node* n) { return reinterpret_cast<CUgraphNode>(const_cast<Node*>(n)); }

// Adds `node` to `hGraph` after `deps`, as every cuGraphAdd*Node does: the
// graph live, each dependency a node of it, named once. Callers hold fake::lock().
CUresult add(CUgraphNode* out, CUgraph hGraph, const CUgraphNode* deps, size_t count, Node node) {
  if (!out) return CUDA_ERROR_INVALID_VALUE;
  *out = nullptr;
  Graph* g = live_graph(hGraph);
  if (!g) return CUDA_ERROR_INVALID_VALUE;
  if (count && !deps) return CUDA_ERROR_INVALID_VALUE;
  for (size_t i = 0; i < count; ++i) {
    if (!has_node(*g, as_node(deps[i]))) return CUDA_ERROR_INVALID_VALUE;
    for (size_t j = 0; j < i; ++j)
      if (deps[j] == deps[i]) return CUDA_ERROR_INVALID_VALUE;
  }
  if (!node.work) node.work = [] { return CUDA_SUCCESS; };
  g->nodes.push_back(std::make_shared<const Node>(std::move(node)));
  const Node* added = g->nodes.back().get();
  for (size_t i = 0; i < count; ++i) g->edges.emplace_back(as_node(deps[i]), added);
  *out = as_handle(added);
  return CUDA_SUCCESS;
}

// The graph's context must be the current one (the driver's check for node
// parameters that live in a context).
CUresult require_graph_context(CUgraph hGraph) {
  Graph* g = live_graph(hGraph);
  if (!g) return CUDA_ERROR_INVALID_VALUE;
  if (g->ctx != current_context()) return CUDA_ERROR_INVALID_CONTEXT;
  return CUDA_SUCCESS;
}

CUresult make_memcpy(const CUDA_MEMCPY3D* p, Node* out) {
  if (p->Height != 1 || p->Depth != 1) {  // a 2D or 3D copy
    Node& node = *out;
    node.type = NodeType::Memcpy;
    node.entry = "cuGraphAddMemcpyNode";
    return make_copy_3d_work(p, &node.work);
  }
  // The fake models 1-D copies between unified or device addresses.
  auto address = [](CUmemorytype type, CUdeviceptr device, const void* host, CUdeviceptr* out) {
    if (type == CU_MEMORYTYPE_DEVICE || type == CU_MEMORYTYPE_UNIFIED) *out = device;
    else if (type == CU_MEMORYTYPE_HOST) *out = reinterpret_cast<uintptr_t>(host);
    else return false;
    return *out != 0;
  };
  CUdeviceptr src = 0, dst = 0;
  if (!address(p->srcMemoryType, p->srcDevice, p->srcHost, &src) ||
      !address(p->dstMemoryType, p->dstDevice, p->dstHost, &dst))
    return CUDA_ERROR_INVALID_VALUE;
  if (p->WidthInBytes == 0 || p->srcArray || p->dstArray) return CUDA_ERROR_INVALID_VALUE;
  src += p->srcXInBytes;
  dst += p->dstXInBytes;
  size_t n = p->WidthInBytes;
  // Graph memory (an alloc node's) is there only when the graph runs.
  auto named_ok = [](CUdeviceptr p, size_t bytes) { return device_range_ok(p, bytes) || graph_range_ok(p, bytes); };
  if (!named_ok(src, n) || !named_ok(dst, n)) return CUDA_ERROR_INVALID_VALUE;
  Node& node = *out;
  node.type = NodeType::Memcpy;
  node.entry = "cuGraphAddMemcpyNode";
  node.work = [src, dst, n] {
    // Memory freed since the node was added: the replay faults.
    if (!device_range_ok(src, n) || !device_range_ok(dst, n)) return CUDA_ERROR_ILLEGAL_ADDRESS;
    std::memmove(reinterpret_cast<void*>(static_cast<uintptr_t>(dst)),
                 reinterpret_cast<const void*>(static_cast<uintptr_t>(src)), n);
    return CUDA_SUCCESS;
  };
  return CUDA_SUCCESS;
}

CUresult make_memset(const CUDA_MEMSET_NODE_PARAMS_v1* p, Node* out) {
  unsigned es = p->elementSize;
  if ((es != 1 && es != 2 && es != 4) || p->width == 0 || p->height != 1 || p->dst % es) return CUDA_ERROR_INVALID_VALUE;
  if (es < 4 && p->value >> (8 * es)) return CUDA_ERROR_INVALID_VALUE;
  CUdeviceptr dst = p->dst;
  size_t width = p->width;
  unsigned value = p->value;
  if (!device_range_ok(dst, width * es) && !graph_range_ok(dst, width * es)) return CUDA_ERROR_INVALID_VALUE;
  Node& node = *out;
  node.type = NodeType::Memset;
  node.entry = "cuGraphAddMemsetNode";
  node.work = [dst, width, value, es] {
    if (!device_range_ok(dst, width * es)) return CUDA_ERROR_ILLEGAL_ADDRESS;
    auto* bytes = reinterpret_cast<uint8_t*>(static_cast<uintptr_t>(dst));
    for (size_t i = 0; i < width; ++i) std::memcpy(bytes + i * es, &value, es);  // little-endian: the low bytes
    return CUDA_SUCCESS;
  };
  return CUDA_SUCCESS;
}

CUresult make_host(const CUDA_HOST_NODE_PARAMS_v1* p, Node* out) {
  if (!p || !p->fn) return CUDA_ERROR_INVALID_VALUE;
  out->type = NodeType::Host;
  out->entry = "cuGraphAddHostNode";
  out->host_fn = p->fn;
  out->host_data = p->userData;
  out->work = [] { return CUDA_SUCCESS; };
  return CUDA_SUCCESS;
}

CUresult make_kernel(const CUDA_KERNEL_NODE_PARAMS_v2* p, Context* ctx, Node* out) {
  if (!p || !p->func) return CUDA_ERROR_INVALID_VALUE;
  unsigned grid[3] = {p->gridDimX, p->gridDimY, p->gridDimZ};
  unsigned block[3] = {p->blockDimX, p->blockDimY, p->blockDimZ};
  // The parameters are copied now, as the driver does.
  return make_kernel_node("cuGraphAddKernelNode", p->func, grid, block, p->sharedMemBytes, p->kernelParams, p->extra,
                          ctx, out);
}

const char* type_name(NodeType t) {
  switch (t) {
    case NodeType::Kernel: return "kernel";
    case NodeType::Memcpy: return "memcpy";
    case NodeType::Memset: return "memset";
    case NodeType::Host: return "host";
    case NodeType::ChildGraph: return "graph";
    case NodeType::EventWait: return "event_wait";
    case NodeType::EventRecord: return "event_record";
    case NodeType::Conditional: return "conditional";
    case NodeType::MemOp: return "batch_mem_op";
    case NodeType::MemAlloc: return "mem_alloc";
    case NodeType::MemFree: return "mem_free";
    case NodeType::Empty: break;
  }
  return "empty";
}

}  // namespace
}  // namespace fake

using namespace fake;

CUresult CUDAAPI cuGraphCreate(CUgraph* phGraph, unsigned int flags) {
  FAKE_ENTER(cuGraphCreate);
  FAKE_REQUIRE_CONTEXT();
  if (!phGraph || flags != 0) return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard<std::recursive_mutex> g(lock());
  auto* graph = new Graph;
  graph->ctx = current_context();
  register_graph(graph);
  *phGraph = reinterpret_cast<CUgraph>(graph);
  return CUDA_SUCCESS;
}
FAKE_EXPORT(cuGraphCreate, 10000)

CUresult CUDAAPI cuGraphAddKernelNode(CUgraphNode* phGraphNode, CUgraph hGraph, const CUgraphNode* dependencies,
                                      size_t numDependencies, const CUDA_KERNEL_NODE_PARAMS_v2* p) {
  FAKE_ENTER(cuGraphAddKernelNode);
  FAKE_REQUIRE_CONTEXT();
  std::lock_guard<std::recursive_mutex> g(lock());
  if (CUresult r = require_graph_context(hGraph)) return r;
  Node node;
  if (CUresult r = make_kernel(p, current_context(), &node)) return r;
  return add(phGraphNode, hGraph, dependencies, numDependencies, std::move(node));
}
FAKE_EXPORT(cuGraphAddKernelNode, 12000)

CUresult CUDAAPI cuGraphAddMemcpyNode(CUgraphNode* phGraphNode, CUgraph hGraph, const CUgraphNode* dependencies,
                                      size_t numDependencies, const CUDA_MEMCPY3D* p, CUcontext ctx) {
  FAKE_ENTER(cuGraphAddMemcpyNode);
  FAKE_REQUIRE_CONTEXT();
  if (!p) return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard<std::recursive_mutex> g(lock());
  Graph* graph = live_graph(hGraph);
  if (!graph || reinterpret_cast<Context*>(ctx) != graph->ctx) return CUDA_ERROR_INVALID_VALUE;
  Node node;
  if (CUresult r = make_memcpy(p, &node)) return r;
  return add(phGraphNode, hGraph, dependencies, numDependencies, std::move(node));
}
FAKE_EXPORT(cuGraphAddMemcpyNode, 10000)

CUresult CUDAAPI cuGraphAddMemsetNode(CUgraphNode* phGraphNode, CUgraph hGraph, const CUgraphNode* dependencies,
                                      size_t numDependencies, const CUDA_MEMSET_NODE_PARAMS_v1* p, CUcontext ctx) {
  FAKE_ENTER(cuGraphAddMemsetNode);
  FAKE_REQUIRE_CONTEXT();
  if (!p) return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard<std::recursive_mutex> g(lock());
  Graph* graph = live_graph(hGraph);
  if (!graph || reinterpret_cast<Context*>(ctx) != graph->ctx) return CUDA_ERROR_INVALID_VALUE;
  Node node;
  if (CUresult r = make_memset(p, &node)) return r;
  return add(phGraphNode, hGraph, dependencies, numDependencies, std::move(node));
}
FAKE_EXPORT(cuGraphAddMemsetNode, 10000)

CUresult CUDAAPI cuGraphAddHostNode(CUgraphNode* phGraphNode, CUgraph hGraph, const CUgraphNode* dependencies,
                                    size_t numDependencies, const CUDA_HOST_NODE_PARAMS_v1* p) {
  FAKE_ENTER(cuGraphAddHostNode);
  std::lock_guard<std::recursive_mutex> g(lock());
  Node node;
  if (CUresult r = make_host(p, &node)) return r;
  return add(phGraphNode, hGraph, dependencies, numDependencies, std::move(node));
}
FAKE_EXPORT(cuGraphAddHostNode, 10000)

static CUresult add_event_node(const char* entry, bool record, CUgraphNode* phGraphNode, CUgraph hGraph,
                               const CUgraphNode* dependencies, size_t numDependencies, CUevent event) {
  std::lock_guard<std::recursive_mutex> g(lock());
  Context* ctx = nullptr;
  if (!event_context(event, &ctx)) return CUDA_ERROR_INVALID_VALUE;
  Graph* graph = live_graph(hGraph);
  if (!graph || graph->ctx != ctx) return CUDA_ERROR_INVALID_VALUE;
  Node node;
  node.type = record ? NodeType::EventRecord : NodeType::EventWait;
  node.entry = entry;
  // Work completes at once in the fake: a wait has nothing to wait for.
  if (record) node.work = [event] { return record_event_now(event); };
  return add(phGraphNode, hGraph, dependencies, numDependencies, std::move(node));
}

CUresult CUDAAPI cuGraphAddEventRecordNode(CUgraphNode* phGraphNode, CUgraph hGraph, const CUgraphNode* dependencies,
                                           size_t numDependencies, CUevent event) {
  FAKE_ENTER(cuGraphAddEventRecordNode);
  return add_event_node("cuGraphAddEventRecordNode", true, phGraphNode, hGraph, dependencies, numDependencies, event);
}
FAKE_EXPORT(cuGraphAddEventRecordNode, 11010)

CUresult CUDAAPI cuGraphAddEventWaitNode(CUgraphNode* phGraphNode, CUgraph hGraph, const CUgraphNode* dependencies,
                                         size_t numDependencies, CUevent event) {
  FAKE_ENTER(cuGraphAddEventWaitNode);
  return add_event_node("cuGraphAddEventWaitNode", false, phGraphNode, hGraph, dependencies, numDependencies, event);
}
FAKE_EXPORT(cuGraphAddEventWaitNode, 11010)

namespace fake {
bool has_memory_nodes(const Graph& graph) {
  for (const auto& n : graph.nodes)
    if (n->type == NodeType::MemAlloc || n->type == NodeType::MemFree) return true;
  return false;
}
}  // namespace fake

CUresult CUDAAPI cuGraphAddMemAllocNode(CUgraphNode* phGraphNode, CUgraph hGraph, const CUgraphNode* dependencies,
                                        size_t numDependencies, CUDA_MEM_ALLOC_NODE_PARAMS_v1* p) {
  FAKE_ENTER(cuGraphAddMemAllocNode);
  FAKE_REQUIRE_CONTEXT();
  if (!p || p->bytesize == 0 || p->poolProps.allocType != CU_MEM_ALLOCATION_TYPE_PINNED ||
      p->poolProps.handleTypes != CU_MEM_HANDLE_TYPE_NONE || p->poolProps.location.type != CU_MEM_LOCATION_TYPE_DEVICE)
    return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard<std::recursive_mutex> g(lock());
  Graph* graph = live_graph(hGraph);
  if (!graph || graph->ctx != current_context() || p->poolProps.location.id != graph->ctx->ordinal)
    return CUDA_ERROR_INVALID_VALUE;
  Node node;
  node.type = NodeType::MemAlloc;
  node.entry = "cuGraphAddMemAllocNode";
  if (p->bytesize > config().device_memory) return CUDA_ERROR_OUT_OF_MEMORY;
  node.reservation = reserve_graph_memory(p->bytesize);
  if (!node.reservation) return CUDA_ERROR_OUT_OF_MEMORY;
  node.dptr = reinterpret_cast<CUdeviceptr>(node.reservation.get());
  const CUdeviceptr dptr = node.dptr;
  const size_t size = p->bytesize;
  node.work = [dptr, size] { return map_graph_memory(dptr, size); };
  if (CUresult r = add(phGraphNode, hGraph, dependencies, numDependencies, std::move(node))) return r;
  p->dptr = dptr;
  return CUDA_SUCCESS;
}
FAKE_EXPORT(cuGraphAddMemAllocNode, 11040)

CUresult CUDAAPI cuGraphAddMemFreeNode(CUgraphNode* phGraphNode, CUgraph hGraph, const CUgraphNode* dependencies,
                                       size_t numDependencies, CUdeviceptr dptr) {
  FAKE_ENTER(cuGraphAddMemFreeNode);
  std::lock_guard<std::recursive_mutex> g(lock());
  Graph* graph = live_graph(hGraph);
  if (!graph) return CUDA_ERROR_INVALID_VALUE;
  bool allocated = false;
  for (const auto& n : graph->nodes) {
    if (n->dptr != dptr) continue;
    if (n->type == NodeType::MemFree) return CUDA_ERROR_INVALID_VALUE;  // freed twice
    if (n->type == NodeType::MemAlloc) allocated = true;
  }
  if (!allocated) return CUDA_ERROR_INVALID_VALUE;  // no alloc node of this graph gave it
  Node node;
  node.type = NodeType::MemFree;
  node.entry = "cuGraphAddMemFreeNode";
  node.dptr = dptr;
  node.work = [dptr] { return unmap_graph_memory(dptr); };
  return add(phGraphNode, hGraph, dependencies, numDependencies, std::move(node));
}
FAKE_EXPORT(cuGraphAddMemFreeNode, 11040)

CUresult CUDAAPI cuGraphAddChildGraphNode(CUgraphNode* phGraphNode, CUgraph hGraph, const CUgraphNode* dependencies,
                                          size_t numDependencies, CUgraph childGraph) {
  FAKE_ENTER(cuGraphAddChildGraphNode);
  std::lock_guard<std::recursive_mutex> g(lock());
  Graph* child = live_graph(childGraph);
  Graph* graph = live_graph(hGraph);
  if (!child || !graph || child == graph || child->ctx != graph->ctx) return CUDA_ERROR_INVALID_VALUE;
  if (has_memory_nodes(*child)) return CUDA_ERROR_INVALID_VALUE;  // only when ownership moves (not modelled)
  // The child is copied now (later changes to it do not reach the parent).
  std::vector<std::shared_ptr<const Node>> nodes;
  if (!topological(*child, &nodes)) return CUDA_ERROR_INVALID_VALUE;
  Context* ctx = graph->ctx;
  Node node;
  node.type = NodeType::ChildGraph;
  node.entry = "cuGraphAddChildGraphNode";
  node.work = [nodes, ctx] {
    replay_nodes(nodes, ctx);
    return CUDA_SUCCESS;
  };
  return add(phGraphNode, hGraph, dependencies, numDependencies, std::move(node));
}
FAKE_EXPORT(cuGraphAddChildGraphNode, 10000)

CUresult CUDAAPI cuGraphAddDependencies(CUgraph hGraph, const CUgraphNode* from, const CUgraphNode* to,
                                        const CUgraphEdgeData* edgeData, size_t numDependencies) {
  FAKE_ENTER(cuGraphAddDependencies);
  std::lock_guard<std::recursive_mutex> g(lock());
  Graph* graph = live_graph(hGraph);
  if (!graph || (numDependencies && (!from || !to))) return CUDA_ERROR_INVALID_VALUE;
  for (size_t i = 0; i < numDependencies; ++i) {
    if (edgeData && (edgeData[i].from_port || edgeData[i].to_port || edgeData[i].type)) return CUDA_ERROR_INVALID_VALUE;
    const Node* a = as_node(from[i]);
    const Node* b = as_node(to[i]);
    if (a == b || !has_node(*graph, a) || !has_node(*graph, b)) return CUDA_ERROR_INVALID_VALUE;
    for (const auto& e : graph->edges)
      if (e.first == a && e.second == b) return CUDA_ERROR_INVALID_VALUE;
  }
  for (size_t i = 0; i < numDependencies; ++i) graph->edges.emplace_back(as_node(from[i]), as_node(to[i]));
  return CUDA_SUCCESS;
}
FAKE_EXPORT(cuGraphAddDependencies, 12030)

CUresult CUDAAPI cuGraphGetEdges(CUgraph hGraph, CUgraphNode* from, CUgraphNode* to, CUgraphEdgeData* edgeData,
                                 size_t* numEdges) {
  FAKE_ENTER(cuGraphGetEdges);
  if (!numEdges || (!from != !to)) return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard<std::recursive_mutex> g(lock());
  Graph* graph = live_graph(hGraph);
  if (!graph) return CUDA_ERROR_INVALID_VALUE;
  if (!from) {
    *numEdges = graph->edges.size();
    return CUDA_SUCCESS;
  }
  size_t n = std::min(*numEdges, graph->edges.size());
  for (size_t i = 0; i < n; ++i) {
    from[i] = as_handle(graph->edges[i].first);
    to[i] = as_handle(graph->edges[i].second);
    if (edgeData) edgeData[i] = CUgraphEdgeData{};
  }
  *numEdges = n;
  return CUDA_SUCCESS;
}
FAKE_EXPORT(cuGraphGetEdges, 12030)

CUresult CUDAAPI cuGraphNodeGetType(CUgraphNode hNode, CUgraphNodeType* type) {
  FAKE_ENTER(cuGraphNodeGetType);
  if (!type) return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard<std::recursive_mutex> g(lock());
  const Node* n = as_node(hNode);
  if (!graph_of(n)) return CUDA_ERROR_INVALID_VALUE;
  *type = node_type_of(n->type);
  return CUDA_SUCCESS;
}
FAKE_EXPORT(cuGraphNodeGetType, 10000)

namespace fake {
namespace {

// A deep copy (conditional nodes' bodies too); registered.
Graph* clone_graph(const Graph& original) {
  auto* copy = new Graph;
  copy->ctx = original.ctx;
  for (const auto& n : original.nodes) {
    Node node = *n;
    if (node.type == NodeType::Conditional) {
      for (Graph*& body : node.bodies) {
        body = clone_graph(*body);
        copy->owned_bodies.push_back(body);
      }
    }
    copy->nodes.push_back(std::make_shared<const Node>(std::move(node)));
    copy->clone_of[n.get()] = copy->nodes.back().get();
  }
  for (const auto& e : original.edges) copy->edges.emplace_back(copy->clone_of[e.first], copy->clone_of[e.second]);
  register_graph(copy);
  return copy;
}

}  // namespace
}  // namespace fake

CUresult CUDAAPI cuGraphClone(CUgraph* phGraphClone, CUgraph originalGraph) {
  FAKE_ENTER(cuGraphClone);
  if (!phGraphClone) return CUDA_ERROR_INVALID_VALUE;
  *phGraphClone = nullptr;
  std::lock_guard<std::recursive_mutex> g(lock());
  Graph* original = live_graph(originalGraph);
  if (!original || has_memory_nodes(*original)) return CUDA_ERROR_INVALID_VALUE;
  *phGraphClone = reinterpret_cast<CUgraph>(clone_graph(*original));
  return CUDA_SUCCESS;
}
FAKE_EXPORT(cuGraphClone, 10000)

CUresult CUDAAPI cuGraphNodeFindInClone(CUgraphNode* phNode, CUgraphNode hOriginalNode, CUgraph hClonedGraph) {
  FAKE_ENTER(cuGraphNodeFindInClone);
  if (!phNode) return CUDA_ERROR_INVALID_VALUE;
  *phNode = nullptr;
  std::lock_guard<std::recursive_mutex> g(lock());
  Graph* clone = live_graph(hClonedGraph);
  if (!clone) return CUDA_ERROR_INVALID_VALUE;
  auto it = clone->clone_of.find(as_node(hOriginalNode));
  if (it == clone->clone_of.end() || !has_node(*clone, it->second)) return CUDA_ERROR_INVALID_VALUE;
  *phNode = as_handle(it->second);
  return CUDA_SUCCESS;
}
FAKE_EXPORT(cuGraphNodeFindInClone, 10000)

CUresult CUDAAPI cuGraphDestroyNode(CUgraphNode hNode) {
  FAKE_ENTER(cuGraphDestroyNode);
  std::lock_guard<std::recursive_mutex> g(lock());
  const Node* n = as_node(hNode);
  Graph* graph = graph_of(n);
  if (!graph || has_memory_nodes(*graph)) return CUDA_ERROR_INVALID_VALUE;
  auto& edges = graph->edges;
  edges.erase(std::remove_if(edges.begin(), edges.end(), [&](const auto& e) { return e.first == n || e.second == n; }),
              edges.end());
  auto& nodes = graph->nodes;
  nodes.erase(std::remove_if(nodes.begin(), nodes.end(), [&](const auto& p) { return p.get() == n; }), nodes.end());
  return CUDA_SUCCESS;
}
FAKE_EXPORT(cuGraphDestroyNode, 10000)

CUresult CUDAAPI cuGraphDebugDotPrint(CUgraph hGraph, const char* path, unsigned int flags) {
  FAKE_ENTER(cuGraphDebugDotPrint);
  if (!path) return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard<std::recursive_mutex> g(lock());
  Graph* graph = live_graph(hGraph);
  if (!graph) return CUDA_ERROR_INVALID_VALUE;
  FILE* f = std::fopen(path, "w");
  if (!f) return CUDA_ERROR_OPERATING_SYSTEM;
  std::map<const Node*, size_t> index;
  std::fprintf(f, "digraph dot {\n  subgraph cluster_1 {\n    label=\"graph_1\";\n");
  for (size_t i = 0; i < graph->nodes.size(); ++i) {
    const Node& n = *graph->nodes[i];
    index[&n] = i;
    std::fprintf(f, "    \"graph_1_node_%zu\" [label=\"%s%s%s\"];\n", i, type_name(n.type),
                 (flags & CU_GRAPH_DEBUG_DOT_FLAGS_VERBOSE) ? "\\n" : "",
                 (flags & CU_GRAPH_DEBUG_DOT_FLAGS_VERBOSE) ? n.entry.c_str() : "");
  }
  for (const auto& e : graph->edges)
    std::fprintf(f, "    \"graph_1_node_%zu\" -> \"graph_1_node_%zu\";\n", index[e.first], index[e.second]);
  std::fprintf(f, "  }\n}\n");
  bool ok = std::fclose(f) == 0;
  return ok ? CUDA_SUCCESS : CUDA_ERROR_OPERATING_SYSTEM;
}
FAKE_EXPORT(cuGraphDebugDotPrint, 11030)

// ---------------------------------------------------------------------------
// Changing nodes: in the graph (cuGraph*NodeSetParams) and in an executable
// graph (cuGraphExec*NodeSetParams), checked as when the node was added.

namespace fake {

CUresult graph_set_node(CUgraphNode hNode, Node replacement) {
  Node* n = as_node(hNode);
  if (!graph_of(n) || n->type != replacement.type) return CUDA_ERROR_INVALID_VALUE;
  // The handle stays; an executable graph has its own copy.
  *n = std::move(replacement);
  return CUDA_SUCCESS;
}

}  // namespace fake

CUresult CUDAAPI cuGraphKernelNodeSetParams(CUgraphNode hNode, const CUDA_KERNEL_NODE_PARAMS_v2* p) {
  FAKE_ENTER(cuGraphKernelNodeSetParams);
  FAKE_REQUIRE_CONTEXT();
  std::lock_guard<std::recursive_mutex> g(lock());
  Graph* graph = graph_of(as_node(hNode));
  if (!graph) return CUDA_ERROR_INVALID_VALUE;
  Node node;
  if (CUresult r = make_kernel(p, graph->ctx, &node)) return r;
  return graph_set_node(hNode, std::move(node));
}
FAKE_EXPORT(cuGraphKernelNodeSetParams, 12000)

CUresult CUDAAPI cuGraphMemcpyNodeSetParams(CUgraphNode hNode, const CUDA_MEMCPY3D* p) {
  FAKE_ENTER(cuGraphMemcpyNodeSetParams);
  if (!p) return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard<std::recursive_mutex> g(lock());
  Node node;
  if (CUresult r = make_memcpy(p, &node)) return r;
  return graph_set_node(hNode, std::move(node));
}
FAKE_EXPORT(cuGraphMemcpyNodeSetParams, 10000)

CUresult CUDAAPI cuGraphMemsetNodeSetParams(CUgraphNode hNode, const CUDA_MEMSET_NODE_PARAMS_v1* p) {
  FAKE_ENTER(cuGraphMemsetNodeSetParams);
  if (!p) return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard<std::recursive_mutex> g(lock());
  Node node;
  if (CUresult r = make_memset(p, &node)) return r;
  return graph_set_node(hNode, std::move(node));
}
FAKE_EXPORT(cuGraphMemsetNodeSetParams, 10000)

CUresult CUDAAPI cuGraphHostNodeSetParams(CUgraphNode hNode, const CUDA_HOST_NODE_PARAMS_v1* p) {
  FAKE_ENTER(cuGraphHostNodeSetParams);
  std::lock_guard<std::recursive_mutex> g(lock());
  Node node;
  if (CUresult r = make_host(p, &node)) return r;
  return graph_set_node(hNode, std::move(node));
}
FAKE_EXPORT(cuGraphHostNodeSetParams, 10000)

CUresult CUDAAPI cuGraphExecKernelNodeSetParams(CUgraphExec hGraphExec, CUgraphNode hNode,
                                                const CUDA_KERNEL_NODE_PARAMS_v2* p) {
  FAKE_ENTER(cuGraphExecKernelNodeSetParams);
  FAKE_REQUIRE_CONTEXT();
  std::lock_guard<std::recursive_mutex> g(lock());
  Node node;
  if (CUresult r = make_kernel(p, current_context(), &node)) return r;
  return exec_set_node(hGraphExec, hNode, std::move(node));
}
FAKE_EXPORT(cuGraphExecKernelNodeSetParams, 12000)

CUresult CUDAAPI cuGraphExecMemcpyNodeSetParams(CUgraphExec hGraphExec, CUgraphNode hNode, const CUDA_MEMCPY3D* p,
                                                CUcontext ctx) {
  FAKE_ENTER(cuGraphExecMemcpyNodeSetParams);
  FAKE_REQUIRE_CONTEXT();
  if (!p || reinterpret_cast<Context*>(ctx) != current_context()) return CUDA_ERROR_INVALID_VALUE;
  // As the driver documents and an H200 answers: one-dimensional copies only.
  if (p->Height > 1 || p->Depth > 1) return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard<std::recursive_mutex> g(lock());
  Node node;
  if (CUresult r = make_memcpy(p, &node)) return r;
  return exec_set_node(hGraphExec, hNode, std::move(node));
}
FAKE_EXPORT(cuGraphExecMemcpyNodeSetParams, 10020)

CUresult CUDAAPI cuGraphExecMemsetNodeSetParams(CUgraphExec hGraphExec, CUgraphNode hNode,
                                                const CUDA_MEMSET_NODE_PARAMS_v1* p, CUcontext ctx) {
  FAKE_ENTER(cuGraphExecMemsetNodeSetParams);
  FAKE_REQUIRE_CONTEXT();
  if (!p || reinterpret_cast<Context*>(ctx) != current_context()) return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard<std::recursive_mutex> g(lock());
  Node node;
  if (CUresult r = make_memset(p, &node)) return r;
  return exec_set_node(hGraphExec, hNode, std::move(node));
}
FAKE_EXPORT(cuGraphExecMemsetNodeSetParams, 10020)

CUresult CUDAAPI cuGraphExecHostNodeSetParams(CUgraphExec hGraphExec, CUgraphNode hNode,
                                              const CUDA_HOST_NODE_PARAMS_v1* p) {
  FAKE_ENTER(cuGraphExecHostNodeSetParams);
  std::lock_guard<std::recursive_mutex> g(lock());
  Node node;
  if (CUresult r = make_host(p, &node)) return r;
  return exec_set_node(hGraphExec, hNode, std::move(node));
}
FAKE_EXPORT(cuGraphExecHostNodeSetParams, 10020)

// ---------------------------------------------------------------------------
// Conditional nodes

CUresult CUDAAPI cuGraphConditionalHandleCreate(CUgraphConditionalHandle* pHandle_out, CUgraph hGraph, CUcontext ctx,
                                                unsigned int defaultLaunchValue, unsigned int flags) {
  FAKE_ENTER(cuGraphConditionalHandleCreate);
  FAKE_REQUIRE_CONTEXT();
  if (!pHandle_out || (flags & ~unsigned(CU_GRAPH_COND_ASSIGN_DEFAULT))) return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard<std::recursive_mutex> g(lock());
  Graph* graph = live_graph(hGraph);
  if (!graph || reinterpret_cast<Context*>(ctx) != graph->ctx) return CUDA_ERROR_INVALID_VALUE;
  static CUgraphConditionalHandle next = 0x1000;
  Condition c;
  c.value = defaultLaunchValue;
  c.default_value = defaultLaunchValue;
  c.assign_default = (flags & CU_GRAPH_COND_ASSIGN_DEFAULT) != 0;
  c.graph = graph;
  conditions()[next] = c;
  *pHandle_out = next++;
  return CUDA_SUCCESS;
}
FAKE_EXPORT(cuGraphConditionalHandleCreate, 12030)

// Only conditional nodes are modelled through cuGraphAddNode.
CUresult CUDAAPI cuGraphAddNode(CUgraphNode* phGraphNode, CUgraph hGraph, const CUgraphNode* dependencies,
                                const CUgraphEdgeData* dependencyData, size_t numDependencies,
                                CUgraphNodeParams* nodeParams) {
  FAKE_ENTER(cuGraphAddNode);
  FAKE_REQUIRE_CONTEXT();
  if (!nodeParams || dependencyData) return CUDA_ERROR_INVALID_VALUE;
  if (nodeParams->type != CU_GRAPH_NODE_TYPE_CONDITIONAL) return CUDA_ERROR_NOT_SUPPORTED;
  std::lock_guard<std::recursive_mutex> g(lock());
  Graph* graph = live_graph(hGraph);
  if (!graph) return CUDA_ERROR_INVALID_VALUE;
  CUDA_CONDITIONAL_NODE_PARAMS& p = nodeParams->conditional;
  auto c = conditions().find(p.handle);
  if (c == conditions().end() || c->second.graph != graph || reinterpret_cast<Context*>(p.ctx) != graph->ctx)
    return CUDA_ERROR_INVALID_VALUE;
  bool size_ok = p.type == CU_GRAPH_COND_TYPE_IF       ? (p.size == 1 || p.size == 2)
                 : p.type == CU_GRAPH_COND_TYPE_WHILE ? p.size == 1
                 : p.type == CU_GRAPH_COND_TYPE_SWITCH ? p.size >= 1
                                                       : false;
  if (!size_ok) return CUDA_ERROR_INVALID_VALUE;
  Node node;
  node.type = NodeType::Conditional;
  node.entry = "cuGraphAddNode";
  node.condition = p.handle;
  node.conditional = p.type;
  std::vector<Graph*> bodies;
  for (unsigned i = 0; i < p.size; ++i) {
    auto* body = new Graph;
    body->ctx = graph->ctx;
    register_graph(body);
    bodies.push_back(body);
  }
  node.bodies = bodies;
  CUresult r = add(phGraphNode, hGraph, dependencies, numDependencies, std::move(node));
  if (r != CUDA_SUCCESS) {
    for (Graph* b : bodies) destroy_graph(b);
    return r;
  }
  // As the driver does: phGraph_out is an output, set to an array the driver
  // owns ("CUDA-owned array populated with conditional node child graphs");
  // whatever the caller's pointer pointed at is left as it was.
  auto array = std::make_shared<std::vector<CUgraph>>();
  for (unsigned i = 0; i < p.size; ++i) {
    graph->owned_bodies.push_back(bodies[i]);
    array->push_back(reinterpret_cast<CUgraph>(bodies[i]));
  }
  graph->body_arrays.push_back(array);
  p.phGraph_out = array->data();
  return CUDA_SUCCESS;
}
FAKE_EXPORT(cuGraphAddNode, 12030)
