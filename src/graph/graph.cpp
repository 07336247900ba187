#include "graph/graph.h"

#include <algorithm>
#include <cstddef>
#include <functional>
#include <queue>
#include <string>
#include <thread>
#include <vector>

#include "core/error.h"
#include "device/cuda_check.h"
#include "device/quiet_context.h"
#include "loader/driver.h"
#include "memory/buffer.h"
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
  if (parent_) {
    std::lock_guard<std::mutex> g(parent_->mutex_);
    auto it = parent_->body_objects_.find(graph_);
    if (it != parent_->body_objects_.end() && it->second == this) parent_->body_objects_.erase(it);
  }
  Ref<Stream> last = Ref<Stream>::adopt(last_launch_.exchange(nullptr, std::memory_order_acq_rel));
  // Buffers the nodes use are freed after the graph's last launch.
  if (last)
    for (const Ref<Object>& k : keep_)
      if (k->type() == HandleType::Buffer) static_cast<Buffer*>(k.get())->note_use(last.get());
  // A graph made before dc_device_reset died with its context.
  if (!current()) return;
  QuietContextScope bind(device());
  if (!bind.ok()) return;
  const DriverApi& api = driver_api();
  if (exec_) release_quietly([&] { return api.cuGraphExecDestroy(exec_); });
  // A conditional node's body belongs to the node.
  if (graph_ && !parent_) release_quietly([&] { return api.cuGraphDestroy(graph_); });
}

Ref<Graph> Graph::create(Ref<Device> device) {
  CUgraph g = nullptr;
  check(driver_api().cuGraphCreate(&g, 0), "cuGraphCreate", device.get());
  Ref<Graph> graph = Ref<Graph>::adopt(new Graph(std::move(device), g, {}));
  graph->ids_known_ = true;
  return graph;
}

// Graph is not standard-layout (virtual functions): offsetof is conditionally
// supported there, and g++ and clang give the layout it says.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winvalid-offsetof"
constexpr bool Graph::launch_fields_in_first_line() noexcept {
  return offsetof(Graph, exec_) < 64 && offsetof(Graph, stale_) < 64 && offsetof(Graph, exec_latch_) < 64 &&
         offsetof(Graph, last_launch_) + sizeof(std::atomic<Stream*>) <= 64 &&
         offsetof(Graph, last_launch_handle_) + sizeof(uint64_t) <= 64;
}
#pragma GCC diagnostic pop
static_assert(alignof(Graph) == 64 && Graph::launch_fields_in_first_line(),
              "the launch path's fields must stay in the graph's first cache line (graph.h)");

CUgraphExec Graph::exec_locked() {
  if (parent_) [[unlikely]]
    fail(DC_ERROR_INVALID_ARGUMENT, "graph is the body of a conditional node: it runs inside that node; instantiate, "
         "launch or update the graph that holds the node");
  if (stale_ && exec_) [[unlikely]] {
    // Launches in flight complete; the driver frees the old form after them.
    CUgraphExec old = std::exchange(exec_, nullptr);
    release_quietly([&] { return driver_api().cuGraphExecDestroy(old); });
  }
  if (!exec_) [[unlikely]] {
    check_allocations_freed_locked();
    CUgraphExec e = nullptr;
    check(driver_api().cuGraphInstantiateWithFlags(&e, graph_, 0), "cuGraphInstantiateWithFlags", &device(),
          "the graph could not be made executable");
    exec_ = e;
    stale_ = false;
  }
  return exec_;
}

void Graph::ExecLatch::wait() noexcept {
  while (flag_.load(std::memory_order_relaxed)) std::this_thread::yield();
}

void Graph::instantiate() {
  std::lock_guard<std::mutex> g(mutex_);
  ExecLatch latch(exec_latch_);
  exec_locked();
}

void Graph::upload(Stream& stream) {
  std::lock_guard<std::mutex> g(mutex_);
  ExecLatch latch(exec_latch_);
  check(driver_api().cuGraphUpload(exec_locked(), stream.handle()), "cuGraphUpload", &device());
}

void Graph::launch_failed(Stream& stream, uint64_t stream_handle, CUresult result) {
  LaunchContext context(device());
  if (!context.retry_bound()) check(result, "cuGraphLaunch", &device());
  // The caller changed the thread's context behind the library: launch
  // again bound (also instantiating, should a change have come meanwhile).
  launch_slow(stream, stream_handle);
}

void Graph::launch_slow(Stream& stream, uint64_t stream_handle) {
  LaunchContext context(device());
  CUresult r = CUDA_SUCCESS;
  Ref<Stream> before;  // let go after the latch
  for (;;) {
    {
      ExecLatch latch(exec_latch_);
      if (exec_ && !stale_) [[likely]] {
        r = driver_api().cuGraphLaunch(exec_, stream.handle());
        if (r != CUDA_SUCCESS && context.retry_bound()) [[unlikely]]
          r = driver_api().cuGraphLaunch(exec_, stream.handle());
        if (r == CUDA_SUCCESS) before = note_launch(stream, stream_handle);
        break;
      }
    }
    // The first launch, or one after a change of the definition: instantiate
    // (the mutex is not held across the launch itself, so that the graph can
    // be inspected meanwhile, from its host functions too).
    context.bind();
    std::lock_guard<std::mutex> g(mutex_);
    ExecLatch latch(exec_latch_);
    exec_locked();
  }
  if (r != CUDA_SUCCESS) [[unlikely]]
    check(r, "cuGraphLaunch", &device());
  // Launched into a capture: a child graph of the graph being recorded.
  capture_registry::note(stream.handle(), this);
}

void Graph::update(Graph& source) {
  std::unique_lock<std::mutex> g(mutex_, std::defer_lock);
  std::unique_lock<std::mutex> s(source.mutex_, std::defer_lock);
  if (&source == this) g.lock();
  else std::lock(g, s);
  ExecLatch latch(exec_latch_);
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
  std::lock_guard<std::mutex> g(mutex_);
  size_t n = 0;
  check(driver_api().cuGraphGetNodes(graph_, nullptr, &n), "cuGraphGetNodes", &device());
  return n;
}

// ---------------------------------------------------------------------------
// The definition

void Graph::changed_locked() noexcept {
  ExecLatch latch(exec_latch_);
  stale_ = true;
  topology_.reset();
}

void Graph::ensure_ids_locked() {
  if (ids_known_) [[likely]]
    return;
  const DriverApi& api = driver_api();
  size_t n = 0;
  check(api.cuGraphGetNodes(graph_, nullptr, &n), "cuGraphGetNodes", &device());
  std::vector<CUgraphNode> all(n);
  if (n) check(api.cuGraphGetNodes(graph_, all.data(), &n), "cuGraphGetNodes", &device());
  all.resize(n);
  for (CUgraphNode node : all) {
    uint64_t id = next_node_id();
    nodes_[id] = node;
    ids_[node] = id;
  }
  ids_known_ = true;
}

CUgraphNode Graph::node_locked(uint64_t id, const char* what) {
  ensure_ids_locked();
  auto it = nodes_.find(id);
  if (it == nodes_.end()) [[unlikely]]
    fail(DC_ERROR_INVALID_ARGUMENT, "%s is %llu, which is not a node of graph (a node of another graph, a removed "
         "node, or not an id dccuda gave); use an id a dc_graph_add_* call or dc_graph_node_at returned for this "
         "graph", what, static_cast<unsigned long long>(id));
  return it->second;
}

std::vector<std::pair<CUgraphNode, CUgraphNode>> Graph::driver_edges_locked() {
  const DriverApi& api = driver_api();
  const bool v2 = present(api.cuGraphGetEdges);
  auto get = [&](CUgraphNode* from, CUgraphNode* to, size_t* n) {
    return v2 ? api.cuGraphGetEdges(graph_, from, to, nullptr, n) : api.cuGraphGetEdges_v10000(graph_, from, to, n);
  };
  size_t n = 0;
  check(get(nullptr, nullptr, &n), "cuGraphGetEdges", &device());
  std::vector<CUgraphNode> from(n), to(n);
  if (n) check(get(from.data(), to.data(), &n), "cuGraphGetEdges", &device());
  std::vector<std::pair<CUgraphNode, CUgraphNode>> edges;
  edges.reserve(n);
  for (size_t i = 0; i < n && i < from.size(); ++i) edges.emplace_back(from[i], to[i]);
  return edges;
}

const Graph::Topology& Graph::topology_locked() {
  ensure_ids_locked();
  if (topology_) return *topology_;
  Topology t;
  std::map<uint64_t, std::vector<uint64_t>> after;  // from -> to
  std::map<uint64_t, size_t> waiting;               // to -> edges not yet satisfied
  for (const auto& [id, node] : nodes_) waiting[id] = 0;
  std::vector<std::pair<uint64_t, uint64_t>> edges;
  for (const auto& [from, to] : driver_edges_locked()) {
    auto f = ids_.find(from);
    auto g = ids_.find(to);
    if (f == ids_.end() || g == ids_.end())
      fail(DC_ERROR_INTERNAL, "the driver lists an edge between nodes dccuda does not know");
    after[f->second].push_back(g->second);
    ++waiting[g->second];
    edges.emplace_back(f->second, g->second);
  }
  // Kahn's algorithm, the smallest ready id first (the order nodes came in).
  std::priority_queue<uint64_t, std::vector<uint64_t>, std::greater<uint64_t>> ready;
  for (const auto& [id, count] : waiting)
    if (count == 0) ready.push(id);
  while (!ready.empty()) {
    uint64_t id = ready.top();
    ready.pop();
    t.order.push_back(id);
    for (uint64_t next : after[id])
      if (--waiting[next] == 0) ready.push(next);
  }
  if (t.order.size() != nodes_.size())
    fail(DC_ERROR_INTERNAL, "the graph's edges form a cycle (%zu of %zu nodes ordered)", t.order.size(),
         nodes_.size());
  std::unordered_map<uint64_t, size_t> place;
  for (size_t i = 0; i < t.order.size(); ++i) place[t.order[i]] = i;
  std::sort(edges.begin(), edges.end(), [&](const auto& a, const auto& b) {
    return std::make_pair(place[a.second], place[a.first]) < std::make_pair(place[b.second], place[b.first]);
  });
  t.edges = std::move(edges);
  topology_ = std::move(t);
  return *topology_;
}

std::vector<CUgraphNode> Graph::dependencies_locked(const uint64_t* deps, uint32_t count) {
  if (count && !deps)
    fail(DC_ERROR_INVALID_ARGUMENT, "dependencies is NULL but num_dependencies is %u; pass the ids of the nodes "
         "the new node runs after, or 0", count);
  std::vector<CUgraphNode> out;
  out.reserve(count);
  for (uint32_t i = 0; i < count; ++i) {
    std::string what = strf("dependencies[%u]", i);
    CUgraphNode n = node_locked(deps[i], what.c_str());
    for (uint32_t j = 0; j < i; ++j)
      if (deps[j] == deps[i])
        fail(DC_ERROR_INVALID_ARGUMENT, "dependencies[%u] and dependencies[%u] both name node %llu; name each "
             "node once", j, i, static_cast<unsigned long long>(deps[i]));
    out.push_back(n);
  }
  return out;
}

uint64_t Graph::record_node_locked(CUgraphNode node, std::vector<Ref<Object>> keep) {
  uint64_t id = next_node_id();
  nodes_[id] = node;
  ids_[node] = id;
  this->keep(std::move(keep));
  changed_locked();
  return id;
}

uint64_t Graph::add_node(const uint64_t* deps, uint32_t count, const char* entry, const AddOnDriver& add,
                         std::vector<Ref<Object>> keep) {
  std::lock_guard<std::mutex> g(mutex_);
  ensure_ids_locked();
  std::vector<CUgraphNode> on = dependencies_locked(deps, count);
  CUgraphNode node = nullptr;
  check(add(graph_, &node, on.empty() ? nullptr : on.data(), on.size()), entry, &device());
  return record_node_locked(node, std::move(keep));
}

uint64_t Graph::add_child(Graph& child, const uint64_t* deps, uint32_t count) {
  std::unique_lock<std::mutex> g(mutex_, std::defer_lock);
  std::unique_lock<std::mutex> c(child.mutex_, std::defer_lock);
  std::lock(g, c);
  ensure_ids_locked();
  std::vector<CUgraphNode> on = dependencies_locked(deps, count);
  if (child.has_memory_nodes())
    fail(DC_ERROR_INVALID_ARGUMENT, "child has memory nodes (dc_graph_add_alloc_node), and the driver cannot embed a "
         "graph with memory nodes as a child; add its alloc and free nodes to graph itself");
  CUgraphNode node = nullptr;
  check(driver_api().cuGraphAddChildGraphNode(&node, graph_, on.empty() ? nullptr : on.data(), on.size(),
                                              child.graph_),
        "cuGraphAddChildGraphNode", &device());
  return record_node_locked(node, child.kept());
}

void Graph::add_dependency(uint64_t from, uint64_t to) {
  std::lock_guard<std::mutex> g(mutex_);
  CUgraphNode f = node_locked(from, "from");
  CUgraphNode t = node_locked(to, "to");
  if (from == to)
    fail(DC_ERROR_INVALID_ARGUMENT, "from and to are both node %llu; a node cannot depend on itself",
         static_cast<unsigned long long>(from));
  const Topology& topo = topology_locked();
  std::map<uint64_t, std::vector<uint64_t>> after;
  for (const auto& [a, b] : topo.edges) {
    if (a == from && b == to)
      fail(DC_ERROR_INVALID_ARGUMENT, "the edge %llu -> %llu exists already", static_cast<unsigned long long>(from),
           static_cast<unsigned long long>(to));
    after[a].push_back(b);
  }
  // A path to -> ... -> from would close a cycle: search it, keeping the way back.
  std::map<uint64_t, uint64_t> came_from;
  std::vector<uint64_t> todo{to};
  came_from[to] = 0;
  while (!todo.empty()) {
    uint64_t at = todo.back();
    todo.pop_back();
    if (at == from) {
      std::string path = std::to_string(from);
      for (uint64_t p = came_from[from]; p != 0; p = came_from[p]) path = std::to_string(p) + " -> " + path;
      fail(DC_ERROR_INVALID_ARGUMENT, "the edge %llu -> %llu would close a cycle: %llu already runs after %llu "
           "(%s); a graph must stay acyclic", static_cast<unsigned long long>(from),
           static_cast<unsigned long long>(to), static_cast<unsigned long long>(from),
           static_cast<unsigned long long>(to), path.c_str());
    }
    for (uint64_t next : after[at])
      if (came_from.emplace(next, at).second) todo.push_back(next);
  }
  const DriverApi& api = driver_api();
  if (present(api.cuGraphAddDependencies))
    check(api.cuGraphAddDependencies(graph_, &f, &t, nullptr, 1), "cuGraphAddDependencies", &device());
  else
    check(api.cuGraphAddDependencies_v10000(graph_, &f, &t, 1), "cuGraphAddDependencies", &device());
  changed_locked();
}

uint64_t Graph::node_at(uint64_t index) {
  std::lock_guard<std::mutex> g(mutex_);
  const Topology& t = topology_locked();
  if (index >= t.order.size())
    fail(DC_ERROR_OUT_OF_RANGE, "index %llu is past the graph's %zu nodes; nodes count from 0",
         static_cast<unsigned long long>(index), t.order.size());
  return t.order[index];
}

int32_t Graph::node_type(uint64_t node) {
  std::lock_guard<std::mutex> g(mutex_);
  CUgraphNode n = node_locked(node, "node");
  CUgraphNodeType type = CU_GRAPH_NODE_TYPE_EMPTY;
  check(driver_api().cuGraphNodeGetType(n, &type), "cuGraphNodeGetType", &device());
  return static_cast<int32_t>(type);
}

uint64_t Graph::edge_count() {
  std::lock_guard<std::mutex> g(mutex_);
  return topology_locked().edges.size();
}

std::pair<uint64_t, uint64_t> Graph::edge_at(uint64_t index) {
  std::lock_guard<std::mutex> g(mutex_);
  const Topology& t = topology_locked();
  if (index >= t.edges.size())
    fail(DC_ERROR_OUT_OF_RANGE, "index %llu is past the graph's %zu edges; edges count from 0",
         static_cast<unsigned long long>(index), t.edges.size());
  return t.edges[index];
}

Ref<Graph> Graph::clone() {
  std::lock_guard<std::mutex> g(mutex_);
  ensure_ids_locked();
  const DriverApi& api = driver_api();
  CUgraph copy = nullptr;
  forbid_memory_nodes_locked("clone");
  check(api.cuGraphClone(&copy, graph_), "cuGraphClone", &device());
  Ref<Graph> out = Ref<Graph>::adopt(new Graph(Ref<Device>::share(&device()), copy, kept()));
  for (const auto& [id, node] : nodes_) {
    CUgraphNode mine = nullptr;
    check(api.cuGraphNodeFindInClone(&mine, node, copy), "cuGraphNodeFindInClone", &device());
    out->nodes_[id] = mine;
    out->ids_[mine] = id;
  }
  out->ids_known_ = true;
  out->owners_ = owners_;
  return out;
}

void Graph::remove_node(uint64_t node) {
  std::lock_guard<std::mutex> g(mutex_);
  CUgraphNode n = node_locked(node, "node");
  forbid_memory_nodes_locked("remove nodes of");
  if (bodies_.count(node))
    fail(DC_ERROR_INVALID_ARGUMENT, "node %llu is a conditional node: dccuda does not remove those (their body "
         "graphs may still be in use); build the graph again without it", static_cast<unsigned long long>(node));
  check(driver_api().cuGraphDestroyNode(n), "cuGraphDestroyNode", &device());
  nodes_.erase(node);
  ids_.erase(n);
  changed_locked();
}

void Graph::write_dot(const char* path, uint32_t flags) {
  std::lock_guard<std::mutex> g(mutex_);
  CUresult r = driver_api().cuGraphDebugDotPrint(graph_, path, flags);
  if (r == CUDA_ERROR_OPERATING_SYSTEM)
    fail_cuda(DC_ERROR_IO, r, "cuGraphDebugDotPrint could not write the DOT file \"%s\"; check that its folder "
              "exists and is writable", path);
  check(r, "cuGraphDebugDotPrint", &device());
}

void Graph::set_node(uint64_t node, int32_t type, const char* type_name, const char* graph_entry,
                     const SetOnGraph& on_graph, const char* exec_entry, const SetOnExec& on_exec,
                     std::vector<Ref<Object>> keep) {
  std::lock_guard<std::mutex> g(mutex_);
  CUgraphNode n = node_locked(node, "node");
  CUgraphNodeType is = CU_GRAPH_NODE_TYPE_EMPTY;
  check(driver_api().cuGraphNodeGetType(n, &is), "cuGraphNodeGetType", &device());
  if (static_cast<int32_t>(is) != type)
    fail(DC_ERROR_INVALID_ARGUMENT, "node %llu is of type %d (DC_GRAPH_NODE_*), not a %s node; change a node with "
         "the dc_graph_set_* call of its type", static_cast<unsigned long long>(node), static_cast<int>(is),
         type_name);
  ExecLatch latch(exec_latch_);
  // No in-place form of this change (on_exec empty): the definition changes
  // and the executable form is made again at the next launch.
  bool remake = exec_ && !stale_ && !on_exec;
  if (exec_ && !stale_ && on_exec) {
    CUresult r = on_exec(exec_, n);
    if (r == CUDA_ERROR_INVALID_VALUE || r == CUDA_ERROR_NOT_SUPPORTED)
      fail_cuda(DC_ERROR_INVALID_ARGUMENT, r, "the driver refused to change the instantiated %s node %llu in place "
                "(%s): an update may not change a copy's memory kinds or contexts, a fill's element size, or "
                "a kernel's function; the graph is unchanged. Add a new node instead (the graph is then "
                "instantiated again)", type_name, static_cast<unsigned long long>(node), exec_entry);
    check(r, exec_entry, &device());
  }
  CUresult r = on_graph(n);
  if (r != CUDA_SUCCESS) {
    // The executable form changed but the definition did not: make them agree again at the next launch.
    stale_ = true;
    check(r, graph_entry, &device());
  }
  if (remake) stale_ = true;
  this->keep(std::move(keep));
}

void Graph::keep(std::vector<Ref<Object>> more) {
  if (parent_) {
    parent_->keep(std::move(more));
    return;
  }
  std::lock_guard<std::mutex> g(keep_mutex_);
  for (Ref<Object>& k : more) keep_.push_back(std::move(k));
}

std::vector<Ref<Object>> Graph::kept() {
  if (parent_) return parent_->kept();
  std::lock_guard<std::mutex> g(keep_mutex_);
  return keep_;
}

void Graph::set_owner(uint64_t node, Ref<Object> owner) {
  std::lock_guard<std::mutex> g(mutex_);
  owners_[node] = std::move(owner);
}

Ref<Object> Graph::owner(uint64_t node) {
  std::lock_guard<std::mutex> g(mutex_);
  node_locked(node, "node");
  auto it = owners_.find(node);
  return it == owners_.end() ? Ref<Object>() : it->second;
}

uint64_t Graph::add_conditional(int32_t type, uint32_t bodies, uint32_t default_value, const uint64_t* deps,
                                uint32_t count, uint64_t* condition) {
  const char* kinds[] = {"DC_GRAPH_CONDITIONAL_IF", "DC_GRAPH_CONDITIONAL_WHILE", "DC_GRAPH_CONDITIONAL_SWITCH"};
  if (type < DC_GRAPH_CONDITIONAL_IF || type > DC_GRAPH_CONDITIONAL_SWITCH)
    fail(DC_ERROR_INVALID_ARGUMENT, "type is %d; pass DC_GRAPH_CONDITIONAL_IF, _WHILE or _SWITCH", type);
  uint32_t most = type == DC_GRAPH_CONDITIONAL_IF ? 2 : type == DC_GRAPH_CONDITIONAL_WHILE ? 1 : 1024;
  if (bodies < 1 || bodies > most)
    fail(DC_ERROR_INVALID_ARGUMENT, "num_bodies is %u; %s takes %s", bodies, kinds[type],
         type == DC_GRAPH_CONDITIONAL_IF      ? "1 (if) or 2 (if/else)"
         : type == DC_GRAPH_CONDITIONAL_WHILE ? "1"
                                              : "1 to 1024");
  // Conditional nodes came with CUDA 12.4's drivers (cuGraphAddNode with
  // conditional parameters); if/else and switch with 12.8's.
  int32_t need = (type == DC_GRAPH_CONDITIONAL_SWITCH || bodies == 2) ? 12080 : 12040;
  int32_t have = driver_state().version;
  const DriverApi& api = driver_api();
  if (have < need || !present(api.cuGraphConditionalHandleCreate) || !present(api.cuGraphAddNode))
    fail(DC_ERROR_NOT_SUPPORTED, "%s%s needs a CUDA %s driver or newer; this driver is CUDA %s: update the driver, "
         "or decide on the host between launches of two graphs", kinds[type],
         bodies == 2 ? " with an else body" : "", cuda_version_string(need).c_str(),
         cuda_version_string(have).c_str());
  std::lock_guard<std::mutex> g(mutex_);
  ensure_ids_locked();
  std::vector<CUgraphNode> on = dependencies_locked(deps, count);
  CUgraphConditionalHandle handle = 0;
  check(api.cuGraphConditionalHandleCreate(&handle, graph_, device().context(), default_value,
                                           CU_GRAPH_COND_ASSIGN_DEFAULT),
        "cuGraphConditionalHandleCreate", &device());
  CUgraphNodeParams p{};
  p.type = CU_GRAPH_NODE_TYPE_CONDITIONAL;
  p.conditional.handle = handle;
  p.conditional.type = static_cast<CUgraphConditionalNodeType>(type);
  p.conditional.size = bodies;
  p.conditional.ctx = device().context();
  CUgraphNode node = nullptr;
  check(api.cuGraphAddNode(&node, graph_, on.empty() ? nullptr : on.data(), nullptr, on.size(), &p),
        "cuGraphAddNode", &device());
  // phGraph_out is an output: the driver points it at an array it owns (the
  // bodies' handles), valid while the node lives; a caller's array is not
  // written through. The handles are copied now.
  if (!p.conditional.phGraph_out) {
    api.cuGraphDestroyNode(node);
    fail(DC_ERROR_INTERNAL, "cuGraphAddNode returned no body graphs for the conditional node; this driver does not "
         "behave as CUDA documents: report it with dccuda-info's output");
  }
  std::vector<CUgraph> out(p.conditional.phGraph_out, p.conditional.phGraph_out + bodies);
  uint64_t id = record_node_locked(node, {});
  bodies_[id] = std::move(out);
  *condition = handle;
  return id;
}

Ref<Graph> Graph::conditional_body(uint64_t node, uint32_t index) {
  std::lock_guard<std::mutex> g(mutex_);
  node_locked(node, "node");
  auto it = bodies_.find(node);
  if (it == bodies_.end())
    fail(DC_ERROR_INVALID_ARGUMENT, "node %llu is not a conditional node added with dc_graph_add_conditional_node",
         static_cast<unsigned long long>(node));
  if (index >= it->second.size())
    fail(DC_ERROR_OUT_OF_RANGE, "index %u is past node %llu's %zu bodies; bodies count from 0", index,
         static_cast<unsigned long long>(node), it->second.size());
  CUgraph cu = it->second[index];
  auto known = body_objects_.find(cu);
  if (known != body_objects_.end() && known->second->try_retain()) return Ref<Graph>::adopt(known->second);
  Ref<Graph> body = Ref<Graph>::adopt(new Graph(Ref<Device>::share(&device()), cu, {}));
  body->parent_ = Ref<Graph>::share(this);
  body_objects_[cu] = body.get();
  return body;
}

uint64_t next_node_id() noexcept {
  static std::atomic<uint64_t> next{1};
  return next.fetch_add(1, std::memory_order_relaxed);
}

}  // namespace dc
