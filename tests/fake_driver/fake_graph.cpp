// The fake driver's stream capture and graphs (a test double, never a GPU):
// see fake_graph.h for what is modelled.
#include "fake_graph.h"

#include <algorithm>
#include <set>

namespace fake {
namespace {

// Its own copies of the nodes (a change to the graph does not reach it), in
// topological order; `place` finds the copy of a node of the graph it was
// instantiated from.
struct GraphExec {
  Context* ctx = nullptr;
  std::vector<std::shared_ptr<const Node>> nodes;
  std::map<const Node*, size_t> place;
  size_t edges = 0;
  std::vector<CUgraphConditionalHandle> conditions;  // reset to their defaults at each launch
};

std::vector<std::shared_ptr<const Node>> copies(const std::vector<std::shared_ptr<const Node>>& nodes,
                                                std::vector<CUgraphConditionalHandle>* handles = nullptr);

// A conditional node as an executable graph runs it: over a snapshot of its
// bodies taken now (as instantiation does), its condition read from the
// table as the device would, an endless WHILE stopped as a hang.
Node snapshot_conditional(const Node& n, Context* ctx, std::vector<CUgraphConditionalHandle>* handles) {
  Node out = n;
  std::vector<std::vector<std::shared_ptr<const Node>>> bodies;
  for (Graph* b : n.bodies) {
    std::vector<std::shared_ptr<const Node>> ordered;
    topological(*b, &ordered);
    bodies.push_back(copies(ordered, handles));
  }
  if (handles) handles->push_back(n.condition);
  CUgraphConditionalHandle handle = n.condition;
  CUgraphConditionalNodeType kind = n.conditional;
  out.work = [bodies, handle, kind, ctx] {
    auto value = [&] {
      auto it = conditions().find(handle);
      return it == conditions().end() ? 0u : it->second.value;
    };
    if (kind == CU_GRAPH_COND_TYPE_IF) {
      if (value()) replay_nodes(bodies[0], ctx);
      else if (bodies.size() == 2) replay_nodes(bodies[1], ctx);
    } else if (kind == CU_GRAPH_COND_TYPE_SWITCH) {
      unsigned v = value();
      if (v < bodies.size()) replay_nodes(bodies[v], ctx);
    } else {
      for (long i = 0; value() && !ctx->broken; ++i) {
        if (i == (1L << 20)) {  // a kernel that never clears the condition
          ctx->broken = CUDA_ERROR_LAUNCH_TIMEOUT;
          break;
        }
        replay_nodes(bodies[0], ctx);
      }
    }
    return CUDA_SUCCESS;
  };
  return out;
}

std::vector<std::shared_ptr<const Node>> copies(const std::vector<std::shared_ptr<const Node>>& nodes,
                                                std::vector<CUgraphConditionalHandle>* handles) {
  std::vector<std::shared_ptr<const Node>> out;
  for (const auto& n : nodes) {
    if (n->type == NodeType::Conditional) {
      Context* ctx = n->bodies.empty() ? nullptr : n->bodies[0]->ctx;
      out.push_back(std::make_shared<const Node>(snapshot_conditional(*n, ctx, handles)));
    } else {
      out.push_back(std::make_shared<const Node>(*n));
    }
  }
  return out;
}

void reset_conditions(const std::vector<CUgraphConditionalHandle>& handles) {
  for (CUgraphConditionalHandle h : handles) {
    auto it = conditions().find(h);
    if (it != conditions().end() && it->second.assign_default) it->second.value = it->second.default_value;
  }
}

std::set<Graph*>& graphs() {
  static auto* s = new std::set<Graph*>;
  return *s;
}
std::set<GraphExec*>& execs() {
  static auto* s = new std::set<GraphExec*>;
  return *s;
}
unsigned long long g_next_capture = 1;

GraphExec* live_exec(CUgraphExec h) {
  GraphExec* e = reinterpret_cast<GraphExec*>(h);
  return execs().count(e) ? e : nullptr;
}

void drop_context_graphs(Context* c) {
  for (auto it = graphs().begin(); it != graphs().end();) {
    if ((*it)->ctx == c) {
      delete *it;
      it = graphs().erase(it);
      live_add("graphs", -1);
    } else {
      ++it;
    }
  }
  for (auto it = execs().begin(); it != execs().end();) {
    if ((*it)->ctx == c) {
      delete *it;
      it = execs().erase(it);
      live_add("graph_execs", -1);
    } else {
      ++it;
    }
  }
}
ResetHook g_reset_hook(drop_context_graphs);

// Runs the nodes in order on the calling thread, holding `held` except while
// a host function runs (it is the caller's code, as on a driver thread). A
// node that fails now (memory freed since the capture) faults the "device".
void replay(const std::vector<std::shared_ptr<const Node>>& nodes, Context* ctx,
            std::unique_lock<std::recursive_mutex>* held) {
  for (const auto& n : nodes) {
    if (ctx->broken) return;
    if (n->type == NodeType::Host) {
      if (held) held->unlock();
      run_host_function(n->host_fn, n->host_data);
      if (held) held->lock();
      continue;
    }
    if (n->work() != CUDA_SUCCESS && !ctx->broken) ctx->broken = CUDA_ERROR_ILLEGAL_ADDRESS;
  }
}

}  // namespace

std::map<CUgraphConditionalHandle, Condition>& conditions() {
  static auto* m = new std::map<CUgraphConditionalHandle, Condition>;
  return *m;
}

CUresult set_condition(CUgraphConditionalHandle handle, unsigned value) {
  auto it = conditions().find(handle);
  if (it == conditions().end()) return CUDA_ERROR_ILLEGAL_ADDRESS;
  it->second.value = value;
  return CUDA_SUCCESS;
}

void destroy_graph(Graph* graph) {
  if (!graphs().count(graph)) return;
  for (Graph* b : graph->owned_bodies) destroy_graph(b);
  for (auto it = conditions().begin(); it != conditions().end();)
    it = it->second.graph == graph ? conditions().erase(it) : std::next(it);
  graphs().erase(graph);
  delete graph;
  live_add("graphs", -1);
}

Graph* live_graph(CUgraph h) {
  Graph* g = reinterpret_cast<Graph*>(h);
  return graphs().count(g) ? g : nullptr;
}

void register_graph(Graph* graph) {
  graphs().insert(graph);
  live_add("graphs", 1);
}

Graph* graph_of(const Node* node) {
  for (Graph* g : graphs())
    if (has_node(*g, node)) return g;
  return nullptr;
}

bool has_node(const Graph& graph, const Node* node) {
  for (const auto& n : graph.nodes)
    if (n.get() == node) return true;
  return false;
}

bool topological(const Graph& graph, std::vector<std::shared_ptr<const Node>>* out) {
  out->clear();
  std::map<const Node*, size_t> waiting;
  for (const auto& n : graph.nodes) waiting[n.get()] = 0;
  for (const auto& e : graph.edges) ++waiting[e.second];
  std::vector<bool> done(graph.nodes.size(), false);
  // Each round takes the first ready node in the order added (graphs are small).
  while (out->size() < graph.nodes.size()) {
    size_t pick = graph.nodes.size();
    for (size_t i = 0; i < graph.nodes.size(); ++i)
      if (!done[i] && waiting[graph.nodes[i].get()] == 0) {
        pick = i;
        break;
      }
    if (pick == graph.nodes.size()) return false;
    done[pick] = true;
    out->push_back(graph.nodes[pick]);
    for (const auto& e : graph.edges)
      if (e.first == graph.nodes[pick].get()) --waiting[e.second];
  }
  return true;
}

CUresult exec_set_node(CUgraphExec hGraphExec, CUgraphNode hNode, Node replacement) {
  GraphExec* e = live_exec(hGraphExec);
  if (!e) return CUDA_ERROR_INVALID_VALUE;
  auto it = e->place.find(reinterpret_cast<const Node*>(hNode));
  if (it == e->place.end()) return CUDA_ERROR_INVALID_VALUE;
  const Node& now = *e->nodes[it->second];
  if (now.type != replacement.type) return CUDA_ERROR_INVALID_VALUE;
  // As a real driver: a copy may not change its kind of memory, a kernel not its function's context.
  if (now.type == NodeType::Memcpy && now.entry != replacement.entry) return CUDA_ERROR_INVALID_VALUE;
  if (now.type == NodeType::Kernel && now.cooperative != replacement.cooperative) return CUDA_ERROR_INVALID_VALUE;
  e->nodes[it->second] = std::make_shared<const Node>(std::move(replacement));
  return CUDA_SUCCESS;
}

void replay_nodes(const std::vector<std::shared_ptr<const Node>>& nodes, Context* ctx) { replay(nodes, ctx, nullptr); }

CUgraphNodeType node_type_of(NodeType type) {
  switch (type) {
    case NodeType::Kernel: return CU_GRAPH_NODE_TYPE_KERNEL;
    case NodeType::Memcpy: return CU_GRAPH_NODE_TYPE_MEMCPY;
    case NodeType::Memset: return CU_GRAPH_NODE_TYPE_MEMSET;
    case NodeType::Host: return CU_GRAPH_NODE_TYPE_HOST;
    case NodeType::ChildGraph: return CU_GRAPH_NODE_TYPE_GRAPH;
    case NodeType::EventWait: return CU_GRAPH_NODE_TYPE_WAIT_EVENT;
    case NodeType::EventRecord: return CU_GRAPH_NODE_TYPE_EVENT_RECORD;
    case NodeType::Conditional: return CU_GRAPH_NODE_TYPE_CONDITIONAL;
    case NodeType::MemOp: return CU_GRAPH_NODE_TYPE_BATCH_MEM_OP;
    case NodeType::MemAlloc: return CU_GRAPH_NODE_TYPE_MEM_ALLOC;
    case NodeType::MemFree: return CU_GRAPH_NODE_TYPE_MEM_FREE;
    case NodeType::Empty: break;
  }
  return CU_GRAPH_NODE_TYPE_EMPTY;
}

CUresult capture_node(Stream* s, Node node) {
  Capture* c = s->capture;
  if (c->invalidated) return CUDA_ERROR_STREAM_CAPTURE_INVALIDATED;
  // One stream captured: each node runs after the one before.
  const Node* last = c->graph->nodes.empty() ? nullptr : c->graph->nodes.back().get();
  c->graph->nodes.push_back(std::make_shared<const Node>(std::move(node)));
  if (last) c->graph->edges.emplace_back(last, c->graph->nodes.back().get());
  return CUDA_SUCCESS;
}

bool capture_work(Stream* s, const char* entry, const std::function<CUresult()>& work, CUresult* result) {
  std::string e = entry;
  if (e == "cuEventRecord" || e == "cuStreamWaitEvent") {
    *result = s->capture->invalidated ? CUDA_ERROR_STREAM_CAPTURE_INVALIDATED : CUDA_SUCCESS;
    return true;
  }
  Node n;
  if (e.rfind("cuMemcpy", 0) == 0) n.type = NodeType::Memcpy;
  else if (e.rfind("cuMemset", 0) == 0) n.type = NodeType::Memset;
  else if (e.rfind("cuStreamWaitValue", 0) == 0 || e.rfind("cuStreamWriteValue", 0) == 0 || e == "cuStreamBatchMemOp")
    n.type = NodeType::MemOp;  // a batch memory operation node
  else return false;
  n.entry = e;
  n.work = work;
  *result = capture_node(s, std::move(n));
  return true;
}

void drop_capture(Stream* s) {
  if (!s->capture) return;
  delete s->capture->graph;
  delete s->capture;
  s->capture = nullptr;
}

void invalidate_capture(Stream* s) {
  if (s->capture) s->capture->invalidated = true;
}

}  // namespace fake

using namespace fake;

// ---------------------------------------------------------------------------
// Capture

CUresult CUDAAPI cuStreamBeginCapture(CUstream hStream, CUstreamCaptureMode mode) {
  FAKE_ENTER(cuStreamBeginCapture);
  FAKE_REQUIRE_CONTEXT();
  if (mode != CU_STREAM_CAPTURE_MODE_GLOBAL && mode != CU_STREAM_CAPTURE_MODE_THREAD_LOCAL &&
      mode != CU_STREAM_CAPTURE_MODE_RELAXED)
    return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard<std::recursive_mutex> g(lock());
  Stream* s = nullptr;
  if (CUresult r = stream_for_work(hStream, &s)) return r;
  // The legacy stream cannot be captured (the fake does not tell it from the
  // per-thread one, which a real driver can capture).
  if (s->is_default) return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
  if (s->capture) return CUDA_ERROR_ILLEGAL_STATE;
  auto* c = new Capture;
  c->graph = new Graph;
  c->graph->ctx = s->ctx;
  c->mode = mode;
  c->thread = std::this_thread::get_id();
  c->id = g_next_capture++;
  s->capture = c;
  return CUDA_SUCCESS;
}
FAKE_EXPORT(cuStreamBeginCapture, 10010)

CUresult CUDAAPI cuStreamEndCapture(CUstream hStream, CUgraph* phGraph) {
  FAKE_ENTER(cuStreamEndCapture);
  FAKE_REQUIRE_CONTEXT();
  if (!phGraph) return CUDA_ERROR_INVALID_VALUE;
  *phGraph = nullptr;
  std::lock_guard<std::recursive_mutex> g(lock());
  Stream* s = nullptr;
  if (CUresult r = stream_for_work(hStream, &s)) return r;
  Capture* c = s->capture;
  if (!c) return CUDA_ERROR_ILLEGAL_STATE;
  if (c->mode != CU_STREAM_CAPTURE_MODE_RELAXED && c->thread != std::this_thread::get_id())
    return CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD;
  if (c->invalidated) {
    drop_capture(s);
    return CUDA_ERROR_STREAM_CAPTURE_INVALIDATED;
  }
  register_graph(c->graph);
  *phGraph = reinterpret_cast<CUgraph>(c->graph);
  delete c;
  s->capture = nullptr;
  return CUDA_SUCCESS;
}
FAKE_EXPORT(cuStreamEndCapture, 10000)

CUresult CUDAAPI cuStreamIsCapturing(CUstream hStream, CUstreamCaptureStatus* captureStatus) {
  FAKE_ENTER(cuStreamIsCapturing);
  FAKE_REQUIRE_CONTEXT();
  if (!captureStatus) return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard<std::recursive_mutex> g(lock());
  Stream* s = nullptr;
  if (CUresult r = any_stream(hStream, &s)) return r;
  *captureStatus = !s->capture              ? CU_STREAM_CAPTURE_STATUS_NONE
                   : s->capture->invalidated ? CU_STREAM_CAPTURE_STATUS_INVALIDATED
                                             : CU_STREAM_CAPTURE_STATUS_ACTIVE;
  return CUDA_SUCCESS;
}
FAKE_EXPORT(cuStreamIsCapturing, 10000)

// ---------------------------------------------------------------------------
// Graphs and executable graphs

CUresult CUDAAPI cuGraphGetNodes(CUgraph hGraph, CUgraphNode* nodes, size_t* numNodes) {
  FAKE_ENTER(cuGraphGetNodes);
  if (!numNodes) return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard<std::recursive_mutex> g(lock());
  Graph* graph = live_graph(hGraph);
  if (!graph) return CUDA_ERROR_INVALID_VALUE;
  if (nodes) {
    // As the driver: up to *numNodes handles; the count written is the number returned.
    size_t n = std::min(*numNodes, graph->nodes.size());
    for (size_t i = 0; i < n; ++i)
      nodes[i] = reinterpret_cast<CUgraphNode>(const_cast<Node*>(graph->nodes[i].get()));
    *numNodes = n;
  } else {
    *numNodes = graph->nodes.size();
  }
  return CUDA_SUCCESS;
}
FAKE_EXPORT(cuGraphGetNodes, 10000)

CUresult CUDAAPI cuGraphDestroy(CUgraph hGraph) {
  FAKE_ENTER(cuGraphDestroy);
  std::lock_guard<std::recursive_mutex> g(lock());
  Graph* graph = live_graph(hGraph);
  if (!graph) return CUDA_ERROR_INVALID_VALUE;
  destroy_graph(graph);
  return CUDA_SUCCESS;
}
FAKE_EXPORT(cuGraphDestroy, 10000)

CUresult CUDAAPI cuGraphInstantiateWithFlags(CUgraphExec* phGraphExec, CUgraph hGraph, unsigned long long flags) {
  FAKE_ENTER(cuGraphInstantiateWithFlags);
  FAKE_REQUIRE_CONTEXT();
  if (!phGraphExec) return CUDA_ERROR_INVALID_VALUE;
  *phGraphExec = nullptr;
  const unsigned long long known = CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH | CUDA_GRAPH_INSTANTIATE_FLAG_UPLOAD |
                                   CUDA_GRAPH_INSTANTIATE_FLAG_DEVICE_LAUNCH |
                                   CUDA_GRAPH_INSTANTIATE_FLAG_USE_NODE_PRIORITY;
  if (flags & ~known) return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard<std::recursive_mutex> g(lock());
  Graph* graph = live_graph(hGraph);
  if (!graph) return CUDA_ERROR_INVALID_VALUE;
  if (graph->ctx != current_context()) return CUDA_ERROR_INVALID_CONTEXT;
  std::vector<std::shared_ptr<const Node>> ordered;
  if (!topological(*graph, &ordered)) return CUDA_ERROR_INVALID_VALUE;
  auto* e = new GraphExec;
  e->ctx = graph->ctx;
  for (size_t i = 0; i < ordered.size(); ++i) e->place[ordered[i].get()] = i;
  e->nodes = copies(ordered, &e->conditions);
  e->edges = graph->edges.size();
  execs().insert(e);
  live_add("graph_execs", 1);
  *phGraphExec = reinterpret_cast<CUgraphExec>(e);
  return CUDA_SUCCESS;
}
FAKE_EXPORT(cuGraphInstantiateWithFlags, 11040)

CUresult CUDAAPI cuGraphExecDestroy(CUgraphExec hGraphExec) {
  FAKE_ENTER(cuGraphExecDestroy);
  std::lock_guard<std::recursive_mutex> g(lock());
  GraphExec* e = live_exec(hGraphExec);
  if (!e) return CUDA_ERROR_INVALID_VALUE;
  execs().erase(e);
  delete e;
  live_add("graph_execs", -1);
  return CUDA_SUCCESS;
}
FAKE_EXPORT(cuGraphExecDestroy, 10000)

CUresult CUDAAPI cuGraphUpload(CUgraphExec hGraphExec, CUstream hStream) {
  FAKE_ENTER(cuGraphUpload);
  FAKE_REQUIRE_CONTEXT();
  std::lock_guard<std::recursive_mutex> g(lock());
  GraphExec* e = live_exec(hGraphExec);
  if (!e) return CUDA_ERROR_INVALID_VALUE;
  Stream* s = nullptr;
  if (CUresult r = stream_for_work(hStream, &s)) return r;
  if (e->ctx != s->ctx) return CUDA_ERROR_INVALID_VALUE;
  if (s->capture) return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
  return enqueue(s, "cuGraphUpload", [] { return CUDA_SUCCESS; });
}
FAKE_EXPORT(cuGraphUpload, 11010)

CUresult CUDAAPI cuGraphLaunch(CUgraphExec hGraphExec, CUstream hStream) {
  FAKE_ENTER(cuGraphLaunch);
  FAKE_REQUIRE_CONTEXT();
  std::unique_lock<std::recursive_mutex> g(lock());
  GraphExec* e = live_exec(hGraphExec);
  if (!e) return CUDA_ERROR_INVALID_VALUE;
  Stream* s = nullptr;
  if (CUresult r = stream_for_work(hStream, &s)) return r;
  if (e->ctx != s->ctx) return CUDA_ERROR_INVALID_VALUE;
  std::vector<std::shared_ptr<const Node>> nodes = e->nodes;
  Context* ctx = e->ctx;
  reset_conditions(e->conditions);
  if (s->capture) {
    // Launching a graph into a capture makes a child-graph node.
    Node child;
    child.type = NodeType::ChildGraph;
    child.entry = "cuGraphLaunch";
    child.work = [nodes, ctx] {  // nodes: the executable graph's, in order
      replay(nodes, ctx, nullptr);
      return CUDA_SUCCESS;
    };
    return capture_node(s, std::move(child));
  }
  replay(nodes, ctx, &g);
  // The stream may have gone while a host node ran without the lock.
  if (CUresult r = stream_for_work(hStream, &s)) return r;
  return enqueue(s, "cuGraphLaunch", [] { return CUDA_SUCCESS; });
}
FAKE_EXPORT(cuGraphLaunch, 10000)

CUresult CUDAAPI cuGraphExecUpdate(CUgraphExec hGraphExec, CUgraph hGraph, CUgraphExecUpdateResultInfo* resultInfo) {
  FAKE_ENTER(cuGraphExecUpdate);
  FAKE_REQUIRE_CONTEXT();
  if (!resultInfo) return CUDA_ERROR_INVALID_VALUE;
  resultInfo->result = CU_GRAPH_EXEC_UPDATE_ERROR;
  resultInfo->errorNode = nullptr;
  resultInfo->errorFromNode = nullptr;
  std::lock_guard<std::recursive_mutex> g(lock());
  GraphExec* e = live_exec(hGraphExec);
  Graph* graph = live_graph(hGraph);
  if (!e || !graph) return CUDA_ERROR_INVALID_VALUE;
  auto fail = [&](CUgraphExecUpdateResult why, const Node* node) {
    resultInfo->result = why;
    resultInfo->errorNode = reinterpret_cast<CUgraphNode>(const_cast<Node*>(node));
    return CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE;
  };
  if (graph->ctx != e->ctx) return fail(CU_GRAPH_EXEC_UPDATE_ERROR, nullptr);
  // The same numbers of nodes and edges, and the same type at each place of
  // the topological order, stand for the same topology here.
  std::vector<std::shared_ptr<const Node>> ordered;
  if (!topological(*graph, &ordered)) return fail(CU_GRAPH_EXEC_UPDATE_ERROR, nullptr);
  if (ordered.size() != e->nodes.size() || graph->edges.size() != e->edges)
    return fail(CU_GRAPH_EXEC_UPDATE_ERROR_TOPOLOGY_CHANGED, nullptr);
  for (size_t i = 0; i < ordered.size(); ++i) {
    const Node& now = *e->nodes[i];
    const Node& next = *ordered[i];
    if (now.type != next.type) return fail(CU_GRAPH_EXEC_UPDATE_ERROR_NODE_TYPE_CHANGED, &next);
    if (now.type == NodeType::Kernel && now.cooperative != next.cooperative)
      return fail(CU_GRAPH_EXEC_UPDATE_ERROR_UNSUPPORTED_FUNCTION_CHANGE, &next);
    if (now.type == NodeType::Memcpy && now.entry != next.entry)
      return fail(CU_GRAPH_EXEC_UPDATE_ERROR_PARAMETERS_CHANGED, &next);
  }
  // Only now, as a real driver: a refused update leaves the executable graph unchanged.
  e->conditions.clear();
  e->nodes = copies(ordered, &e->conditions);
  resultInfo->result = CU_GRAPH_EXEC_UPDATE_SUCCESS;
  return CUDA_SUCCESS;
}
FAKE_EXPORT(cuGraphExecUpdate, 12000)
