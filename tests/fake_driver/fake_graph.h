// The fake driver's stream capture and graphs (a test double, never a GPU).
//
// While a stream captures, the work enqueued on it is recorded as nodes of a
// graph instead of running: kernel launches, copies, fills and host functions
// become nodes; event records and waits become nothing (they only order
// streams, and the fake runs everything at once); stream-ordered allocation,
// free and prefetch run at once, they are not recorded (the fake does not
// model graph-owned memory). A captured graph is a chain: node i depends on
// node i - 1 (the fake captures one stream at a time; cross-stream capture
// through events is not modelled). cuGraphLaunch replays the nodes in order
// on the calling thread; a node that fails at replay (a copy into memory freed
// since the capture) breaks the context with CUDA_ERROR_ILLEGAL_ADDRESS, as a
// GPU would fault. cuGraphExecUpdate compares the topology (node and edge
// counts) and each node's type in topological order, and takes the source's
// parameters when they match.
//
// Graphs built node by node (fake_graph_build.cpp): cuGraphCreate and the
// cuGraphAdd*Node calls (kernel, 1-D, 2D and 3D copy, fill, host, child graph, event
// record and wait, memory alloc and free) check their parameters as the stream-ordered calls do and
// add a node after the dependencies given; cuGraphAddDependencies adds edges
// (an existing edge, a node of another graph: CUDA_ERROR_INVALID_VALUE; the
// fake does not look for cycles: dccuda refuses them first);
// cuGraphGetEdges, cuGraphNodeGetType, cuGraphClone, cuGraphNodeFindInClone,
// cuGraphDestroyNode and cuGraphDebugDotPrint (a DOT file Graphviz reads)
// inspect and change them. Instantiation orders the nodes topologically
// (ties: the order they were added); a launch runs them in that order.
//
// A synchronisation of a capturing stream (cuStreamSynchronize,
// cuStreamQuery) is refused with CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED and
// invalidates the capture, as on a real driver. The capture modes' rules on
// "unsafe" calls from other threads are not modelled.
#pragma once

#include "loader/cuda_abi/driver_abi.h"

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "fake_memory.h"

namespace fake {

enum class NodeType {
  Kernel, Memcpy, Memset, Host, ChildGraph, Empty, EventWait, EventRecord, Conditional, MemOp, MemAlloc, MemFree
};

// cuda.h's CUgraphNodeType of a node type.
CUgraphNodeType node_type_of(NodeType type);

struct Node {
  NodeType type = NodeType::Kernel;
  std::string entry;                    // the entry point that made it
  std::function<CUresult()> work;       // kernel, copy, fill, child graph: runs under fake::lock()
  CUhostFn host_fn = nullptr;           // host nodes: run without the lock
  void* host_data = nullptr;
  CUfunction function = nullptr;        // kernel nodes
  bool cooperative = false;             // kernel nodes
  // Conditional nodes: the condition, the kind, and the body graphs (owned by
  // the graph that holds the node; an executable graph runs a snapshot).
  CUgraphConditionalHandle condition = 0;
  CUgraphConditionalNodeType conditional = CU_GRAPH_COND_TYPE_IF;
  std::vector<struct Graph*> bodies;
  // Memory nodes: the memory's address; an alloc node also holds the
  // reservation (fake_memory.h: reserve_graph_memory).
  CUdeviceptr dptr = 0;
  std::shared_ptr<void> reservation;
};

struct Graph {
  Context* ctx = nullptr;
  std::vector<std::shared_ptr<const Node>> nodes;              // in the order added
  std::vector<std::pair<const Node*, const Node*>> edges;      // from -> to
  std::map<const Node*, const Node*> clone_of;                 // a clone: original node -> its copy
  std::vector<Graph*> owned_bodies;                            // conditional nodes' bodies, destroyed with it
  // The driver-owned arrays cuGraphAddNode points CUDA_CONDITIONAL_NODE_PARAMS::phGraph_out at
  // (the caller's pointer is replaced, not written through), valid while the graph lives.
  std::vector<std::shared_ptr<std::vector<CUgraph>>> body_arrays;
};

// Memory alloc and free nodes (fake_graph_build.cpp): the alloc node's
// memory is live only between the two during a replay (fake_memory.h:
// reserve_graph_memory); a free of an address no alloc node of the graph gave,
// or a second free, is CUDA_ERROR_INVALID_VALUE; a graph with memory nodes
// cannot be cloned, lose nodes or become a child graph (CUDA_ERROR_INVALID_VALUE),
// as on a real driver. Whether a graph has memory nodes:
bool has_memory_nodes(const Graph& graph);

// Conditional nodes (fake_graph.cpp). A condition's value; its default,
// applied at each launch of a graph holding its node when assign_default.
struct Condition {
  unsigned value = 0;
  unsigned default_value = 0;
  bool assign_default = false;
  Graph* graph = nullptr;
};
// The conditions (handle -> state). Callers hold fake::lock().
std::map<CUgraphConditionalHandle, Condition>& conditions();
// cudaGraphSetConditional from an emulated kernel: CUDA_ERROR_ILLEGAL_ADDRESS
// for a handle that is not live. Callers hold fake::lock().
CUresult set_condition(CUgraphConditionalHandle handle, unsigned value);
// Destroys a graph and, first, the bodies it owns. Callers hold fake::lock().
void destroy_graph(Graph* graph);

// The live graph `h` names, or nullptr; registers a new one (counted as
// "graphs"). Callers hold fake::lock().
Graph* live_graph(CUgraph h);
void register_graph(Graph* graph);
// Whether `node` is a node of `graph`.
bool has_node(const Graph& graph, const Node* node);
// The live graph that holds `node`, or nullptr.
Graph* graph_of(const Node* node);
// The nodes in topological order (ties: the order added); false if the
// edges form a cycle.
bool topological(const Graph& graph, std::vector<std::shared_ptr<const Node>>* out);
// Replaces the executable graph's copy of `node` (cuGraphExec*NodeSetParams):
// CUDA_ERROR_INVALID_VALUE for an unknown node or another type. Callers hold fake::lock().
CUresult exec_set_node(CUgraphExec exec, CUgraphNode node, Node replacement);
// Replaces a graph's node in place, keeping its handle (cuGraph*NodeSetParams).
CUresult graph_set_node(CUgraphNode node, Node replacement);
// Runs the nodes in order on the calling thread (fake_graph.cpp: replay).
void replay_nodes(const std::vector<std::shared_ptr<const Node>>& nodes, Context* ctx);

// A kernel node's work from its parameters, checked as a launch is
// (fake_launch.cpp). Callers hold fake::lock().
CUresult make_kernel_node(const char* entry, CUfunction f, const unsigned grid[3], const unsigned block[3],
                          unsigned shared, void** params, void** extra, Context* ctx, Node* out);
// Records `event` now, as a record node replayed does (fake_event.cpp).
CUresult record_event_now(CUevent event);

struct Capture {
  Graph* graph = nullptr;               // owned until cuStreamEndCapture hands it out
  CUstreamCaptureMode mode = CU_STREAM_CAPTURE_MODE_GLOBAL;
  std::thread::id thread;               // the thread that began it
  bool invalidated = false;
  unsigned long long id = 0;
};

// Records `node` in the capture of `stream` (which must be capturing).
// Returns the result the entry point returns: CUDA_SUCCESS, or
// CUDA_ERROR_STREAM_CAPTURE_INVALIDATED once an earlier call broke the capture.
// Callers hold fake::lock().
CUresult capture_node(Stream* stream, Node node);

// What enqueue() does with `entry`'s work while `stream` captures (see the top
// of this file); *result is what the entry point returns. Returns false when
// the work must run now instead. Callers hold fake::lock().
bool capture_work(Stream* stream, const char* entry, const std::function<CUresult()>& work, CUresult* result);

// Ends a capture without handing out its graph (the stream is destroyed or
// its context reset). Callers hold fake::lock().
void drop_capture(Stream* stream);

// Marks the capture of `stream` invalid (an illegal call during capture).
void invalidate_capture(Stream* stream);

}  // namespace fake
