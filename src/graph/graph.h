// A graph (dc_graph): a CUgraph, captured (dc_stream_end_capture) or built
// node by node (dc_graph_create and the dc_graph_add_* calls), and its
// executable form (CUgraphExec), instantiated on first need and kept.
//
// The driver does not synchronise a graph or an executable graph between
// threads, and runs one launch of an executable graph at a time, so:
//  - every use of the definition (instantiate, inspection, changes) holds
//    the graph's mutex;
//  - every use of the executable form holds the exec latch: one atomic flag,
//    taken with one exchange and released with one store. A launch takes
//    only the latch (no mutex, no system call on the way: the launch path is
//    lock-free in that sense, launches of one graph from several threads are
//    serialised by the latch as the driver needs); whatever creates,
//    destroys or changes the executable form (instantiate, update, node
//    updates) holds the mutex and then the latch. A launch that finds no
//    executable form, or a stale one, falls back to the mutex.
// Release: a launch has the graph pinned (core/handle_table.h), so the
// object, and its executable form, outlive the launch. The stream of the
// graph's last launch is kept by the graph (last_launch_, changed only with
// the latch held): a launch on that stream again, its handle still open,
// needs no pin of it (launch_again). A change to the
// definition marks the executable form stale; the next instantiate or launch
// makes a new one (the old one is destroyed: the driver frees it when the
// launches in flight have completed).
//
// Nodes are named by process-wide 64-bit ids (never 0). A captured graph's
// nodes get theirs on the first inspection or change, in the driver's order.
// A clone's nodes take the ids of the nodes they copy.
//
// What the nodes use (functions, buffers, events, host-function records,
// what child graphs keep) is kept until the graph dies, also for removed
// nodes (an executable form made before may still run them). Buffers among
// them are told the stream of the graph's last launch when the graph dies,
// so that their memory is freed after that launch (memory/buffer.h).
#pragma once

#include "loader/cuda_abi/driver_abi.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/error.h"
#include "core/handle_table.h"
#include "device/device.h"
#include "loader/driver.h"
#include "stream/capture_registry.h"
#include "stream/stream.h"

namespace dc {

// A new node id: process-wide, never 0, never reused.
uint64_t next_node_id() noexcept;

// Cache-line aligned, the launch path's fields first: with the object's
// header (type, device, generation) they fill one line, so a replay touches
// one line of the graph (docs/PERFORMANCE.md, "Graph replay").
class alignas(64) Graph : public DeviceObject {
  // Both written with mutex_ and the latch held; read with either.
  CUgraphExec exec_ = nullptr;
  bool stale_ = false;  // the definition changed since exec_ was made
  std::atomic<bool> exec_latch_{false};
  // Beside the latch, changed only with it held: a launch reads them too.
  std::atomic<Stream*> last_launch_{nullptr};  // owns one reference
  uint64_t last_launch_handle_ = 0;            // the handle it was launched through

 public:
  static constexpr HandleType kHandleType = HandleType::Graph;

  // Takes ownership of `graph` (destroyed with the object); `keep` is what
  // its nodes use (functions, child graphs: capture_registry.h).
  Graph(Ref<Device> device, CUgraph graph, std::vector<Ref<Object>> keep) noexcept
      : DeviceObject(kHandleType, std::move(device)), graph_(graph), keep_(std::move(keep)) {}
  ~Graph() override;

  // An empty graph; the device's context must be bound.
  static Ref<Graph> create(Ref<Device> device);

  // The device's context must be bound for each of these.
  void instantiate();
  void upload(Stream& stream);
  // Launches the executable form on `stream` (named by the handle value
  // `stream_handle`), binding the context as it needs (LaunchContext).
  // Inline, the common case: the executable form made and current, the
  // device's context the one this thread was last seen with, the latch free;
  // anything else goes to launch_slow. `thread`: this thread's slot
  // (guarded() gives it).
  void launch(Stream& stream, uint64_t stream_handle, const detail::ErrorSlot& thread);
  // The replay: launch's common case on the stream of the graph's last
  // launch, named by the same handle, still open; the graph's reference keeps
  // that stream, so the caller pins only the graph. False, having done
  // nothing, where that does not hold or the graph or its device is not
  // usable: then the caller pins the stream and calls launch.
  bool launch_again(const void* stream_handle, const detail::ErrorSlot& thread);
  // Whether the launch path's fields lie in the object's first cache line
  // (a static_assert in graph.cpp holds it).
  static constexpr bool launch_fields_in_first_line() noexcept;
  // Updates the executable form with `source`'s parameters; unchanged on failure.
  void update(Graph& source);
  uint64_t node_count() const;

  // --- The definition (the device's context bound for each) ---

  // Adds a node after `deps` (ids checked: in this graph, not repeated;
  // named "dependencies[i]" in messages). `add` makes the driver's node
  // (its CUresult checked as `entry`); `keep` is what the node uses.
  using AddOnDriver =
      std::function<CUresult(CUgraph graph, CUgraphNode* node, const CUgraphNode* deps, size_t count)>;
  uint64_t add_node(const uint64_t* deps, uint32_t count, const char* entry, const AddOnDriver& add,
                    std::vector<Ref<Object>> keep);
  // Embeds a copy of `child` (another graph of the same device).
  uint64_t add_child(Graph& child, const uint64_t* deps, uint32_t count);
  // Refuses unknown nodes, from == to, an existing edge and a cycle.
  void add_dependency(uint64_t from, uint64_t to);
  uint64_t node_at(uint64_t index);
  int32_t node_type(uint64_t node);
  uint64_t edge_count();
  std::pair<uint64_t, uint64_t> edge_at(uint64_t index);
  Ref<Graph> clone();
  void remove_node(uint64_t node);
  void write_dot(const char* path, uint32_t flags);
  // The DOT text write_dot would write (graph_dot.cpp: through a private temporary file).
  std::string dot_text(uint32_t flags);

  // A conditional node (CUDA 12.4+): `type` a DC_GRAPH_CONDITIONAL_*, its
  // `bodies` body graphs made by the driver; *condition receives the handle
  // kernels set (dccuda_device_graph.h).
  uint64_t add_conditional(int32_t type, uint32_t bodies, uint32_t default_value, const uint64_t* deps,
                           uint32_t count, uint64_t* condition);
  // Body `index` of conditional node `node`, as a graph object that builds
  // into the driver's body graph (it keeps this graph alive).
  Ref<Graph> conditional_body(uint64_t node, uint32_t index);

  // Changes node `node` (which must be of `type`, named `type_name` in
  // messages) in the definition and, when instantiated and not stale, in the
  // executable form in place: the executable form first (a refusal changes
  // nothing), then the definition. An empty `on_exec` (a change the driver
  // cannot make in place) changes the definition only and marks the
  // executable form stale: the next launch instantiates again. `keep` joins
  // what the graph keeps.
  using SetOnGraph = std::function<CUresult(CUgraphNode node)>;
  using SetOnExec = std::function<CUresult(CUgraphExec exec, CUgraphNode node)>;
  void set_node(uint64_t node, int32_t type, const char* type_name, const char* graph_entry,
                const SetOnGraph& on_graph, const char* exec_entry, const SetOnExec& on_exec,
                std::vector<Ref<Object>> keep);
  // Memory nodes (graph_memory.cpp). An alloc node of `size` bytes after
  // `deps`; *address receives the memory's address (fixed for the graph's
  // life, backed only between the node and its free node during a launch).
  // Refused in a conditional body (the driver allows none there).
  uint64_t add_alloc(uint64_t size, const uint64_t* deps, uint32_t count, CUdeviceptr* address);
  // A free node for the memory of alloc node at `address` (`size` bytes, named
  // `name` in messages) after `deps`, which must be ordered after that alloc
  // node. Refuses memory no alloc node of this graph gave, and a second free.
  uint64_t add_free(CUdeviceptr address, uint64_t size, const char* name, const uint64_t* deps, uint32_t count,
                    std::vector<Ref<Object>> keep);

  // What made kernel node `node` through dc_graph_add_kernel_node (its
  // function); empty for other nodes and captured ones.
  void set_owner(uint64_t node, Ref<Object> owner);
  Ref<Object> owner(uint64_t node);

 private:
  struct Topology {
    std::vector<uint64_t> order;                       // topological, ties by id
    std::vector<std::pair<uint64_t, uint64_t>> edges;  // ordered as dc_graph_edge_at says
  };

  CUgraphExec exec_locked();  // mutex_ and the latch held: instantiates if needed (again if stale)

  // The exec latch (see the top of this file).
  class ExecLatch {
   public:
    explicit ExecLatch(std::atomic<bool>& flag) noexcept : flag_(flag) {
      while (flag_.exchange(true, std::memory_order_acquire)) [[unlikely]]
        wait();
    }
    ~ExecLatch() { flag_.store(false, std::memory_order_release); }
    ExecLatch(const ExecLatch&) = delete;
    ExecLatch& operator=(const ExecLatch&) = delete;

   private:
    void wait() noexcept;
    std::atomic<bool>& flag_;
  };
  // Memory nodes: alloc node id -> its memory and its free node (0: none yet).
  struct Allocation {
    CUdeviceptr address = 0;
    uint64_t size = 0;
    uint64_t free_node = 0;
  };
  std::map<uint64_t, Allocation> allocations_;
  bool has_memory_nodes() const noexcept { return !allocations_.empty(); }
  // Refuses what the driver refuses for graphs with memory nodes (`what`: the
  // operation, for the message).
  void forbid_memory_nodes_locked(const char* what) const;
  // Refuses instantiation while an alloc node has no free node.
  void check_allocations_freed_locked() const;
  // Whether `target` is one of `from` or runs before one of them (a path of edges).
  bool reaches_locked(const std::vector<CUgraphNode>& from, CUgraphNode target);
  void ensure_ids_locked();
  CUgraphNode node_locked(uint64_t id, const char* what);
  std::vector<std::pair<CUgraphNode, CUgraphNode>> driver_edges_locked();
  const Topology& topology_locked();
  void changed_locked() noexcept;
  std::vector<CUgraphNode> dependencies_locked(const uint64_t* deps, uint32_t count);
  uint64_t record_node_locked(CUgraphNode node, std::vector<Ref<Object>> keep);
  // After a launch on `stream`: the graph keeps it as its last launch's
  // stream. With the latch held; returns the stream it kept before (if
  // another), to be let go once the latch is free (a stream's destruction
  // waits for its work).
  Ref<Stream> note_launch(Stream& stream, uint64_t stream_handle) noexcept;
  // The launch in every case, the context bound as LaunchContext says.
  void launch_slow(Stream& stream, uint64_t stream_handle);
  // After a launch made without asking the driver for the context failed
  // with `result`: binds and launches again if that changed the thread's
  // context, else reports `result`.
  void launch_failed(Stream& stream, uint64_t stream_handle, CUresult result);
  // launch's and launch_again's common part: with the latch held and the
  // executable form current, launches on `stream`, notes it, frees the latch.
  void launch_latched(Stream& stream, uint64_t stream_handle);

  CUgraph graph_;
  mutable std::mutex mutex_;
  bool ids_known_ = false;
  std::map<uint64_t, CUgraphNode> nodes_;
  std::unordered_map<CUgraphNode, uint64_t> ids_;
  std::optional<Topology> topology_;
  std::map<uint64_t, Ref<Object>> owners_;
  std::map<uint64_t, std::vector<CUgraph>> bodies_;  // conditional node -> its body graphs
  // The live body objects, not owned (each removes itself when it dies), so
  // that one body has one object (one mutex, one set of ids).
  std::map<CUgraph, Graph*> body_objects_;
  // A conditional node's body: graph_ belongs to the driver's node in
  // parent_'s graph (not destroyed here), and what its nodes use is kept by
  // the outermost graph (keep()), so that a body never holds its parent's
  // references and its parent never holds the body object.
  Ref<Graph> parent_;
  void keep(std::vector<Ref<Object>> more);
  std::vector<Ref<Object>> kept();
  std::mutex keep_mutex_;
  // Destroyed after the driver's graph (members go after the destructor body).
  std::vector<Ref<Object>> keep_;
};

[[gnu::always_inline]] inline Ref<Stream> Graph::note_launch(Stream& stream, uint64_t stream_handle) noexcept {
  last_launch_handle_ = stream_handle;
  if (last_launch_.load(std::memory_order_relaxed) == &stream) [[likely]]
    return {};
  stream.retain();
  return Ref<Stream>::adopt(last_launch_.exchange(&stream, std::memory_order_acq_rel));
}

[[gnu::always_inline]] inline void Graph::launch_latched(Stream& stream, uint64_t stream_handle) {
  // Past the latch the stream may go (a launch on another stream lets the
  // graph's reference go): what follows reads its CUstream from here.
  CUstream cu = stream.handle();
  CUresult r = driver_api().cuGraphLaunch(exec_, cu);
  if (r != CUDA_SUCCESS) [[unlikely]] {
    Ref<Stream> keep = Ref<Stream>::share(&stream);
    exec_latch_.store(false, std::memory_order_release);
    return launch_failed(*keep, stream_handle, r);
  }
  Ref<Stream> before = note_launch(stream, stream_handle);  // let go after the latch
  exec_latch_.store(false, std::memory_order_release);
  // Launched into a capture: a child graph of the graph being recorded.
  capture_registry::note(cu, this);
}

// Inline in the entry point: no call, no second thread-local lookup, no
// context query where LaunchContext would make none (the replay goal).
[[gnu::always_inline]] inline void Graph::launch(Stream& stream, uint64_t stream_handle,
                                                 const detail::ErrorSlot& thread) {
  if (LaunchContext::left_current(device(), thread) && !exec_latch_.exchange(true, std::memory_order_acquire))
      [[likely]] {
    if (exec_ && !stale_) [[likely]]
      return launch_latched(stream, stream_handle);
    exec_latch_.store(false, std::memory_order_release);
  }
  launch_slow(stream, stream_handle);
}

[[gnu::always_inline]] inline bool Graph::launch_again(const void* stream_handle, const detail::ErrorSlot& thread) {
  uint64_t handle = reinterpret_cast<uintptr_t>(stream_handle);
  if (!LaunchContext::left_current(device(), thread) || exec_latch_.exchange(true, std::memory_order_acquire))
      [[unlikely]]
    return false;
  // With the latch held, last_launch_ cannot change: its stream lives.
  Stream* stream = last_launch_.load(std::memory_order_relaxed);
  if (handle != last_launch_handle_ || !stream || !exec_ || stale_ || !HandleTable::is_open(handle) ||
      !current() || !stream->current() || device().lost()) [[unlikely]] {
    exec_latch_.store(false, std::memory_order_release);
    return false;
  }
  launch_latched(*stream, handle);
  return true;
}

}  // namespace dc
