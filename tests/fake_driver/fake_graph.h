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
// GPU would fault. cuGraphExecUpdate compares the topology (node count) and
// each node's type, and takes the source's parameters when they match.
//
// A synchronisation of a capturing stream (cuStreamSynchronize,
// cuStreamQuery) is refused with CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED and
// invalidates the capture, as on a real driver. The capture modes' rules on
// "unsafe" calls from other threads are not modelled.
#pragma once

#include "loader/cuda_abi/driver_abi.h"

#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "fake_memory.h"

namespace fake {

enum class NodeType { Kernel, Memcpy, Memset, Host, ChildGraph, MemOp };

struct Node {
  NodeType type = NodeType::Kernel;
  std::string entry;                    // the entry point that made it
  std::function<CUresult()> work;       // kernel, copy, fill, child graph: runs under fake::lock()
  CUhostFn host_fn = nullptr;           // host nodes: run without the lock
  void* host_data = nullptr;
  CUfunction function = nullptr;        // kernel nodes
  bool cooperative = false;             // kernel nodes
};

struct Graph {
  Context* ctx = nullptr;
  std::vector<std::shared_ptr<const Node>> nodes;  // a chain, in order
};

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
