#include "graph/graph_nodes.h"

#include <cinttypes>

#include "core/error.h"
#include "loader/driver.h"
#include "memory/copy_params.h"
#include "memory/transfer.h"
#include "stream/host_callback.h"

namespace dc {
namespace {

void require_graph_device(const Graph& graph, const DeviceObject& object, const char* name) {
  if (&object.device() != &graph.device())
    fail(DC_ERROR_INVALID_ARGUMENT, "%s is on device %d and graph on device %d; a graph's nodes use objects of its "
         "own device", name, object.device().ordinal(), graph.device().ordinal());
}

// The driver's parameters of a copy, checked as at add time.
CUDA_MEMCPY3D copy_params(Graph& graph, Buffer& dst, uint64_t dst_offset, Buffer& src, uint64_t src_offset,
                             uint64_t size) {
  dst.check_usable();
  src.check_usable();
  require_graph_device(graph, dst, "dst");
  require_graph_device(graph, src, "src");
  check_range(dst, dst_offset, size, "dst", "dst_offset");
  check_range(src, src_offset, size, "src", "src_offset");
  if (size == 0)
    fail(DC_ERROR_INVALID_ARGUMENT, "size is 0; a copy node copies at least one byte");
  CUdeviceptr to = dst.address() + dst_offset;
  CUdeviceptr from = src.address() + src_offset;
  if (to < from + size && from < to + size)
    fail(DC_ERROR_INVALID_ARGUMENT, "the ranges overlap: dst_offset %" PRIu64 " and src_offset %" PRIu64
         " with size %" PRIu64 " address the same memory; copy through a temporary buffer",
         dst_offset, src_offset, size);
  // Unified addressing: the driver tells device, host and managed memory apart.
  CUDA_MEMCPY3D p{};
  p.srcMemoryType = CU_MEMORYTYPE_UNIFIED;
  p.srcDevice = from;
  p.dstMemoryType = CU_MEMORYTYPE_UNIFIED;
  p.dstDevice = to;
  p.WidthInBytes = static_cast<size_t>(size);
  p.Height = 1;
  p.Depth = 1;
  return p;
}

}  // namespace

uint64_t add_copy_node(Graph& graph, Buffer& dst, uint64_t dst_offset, Buffer& src, uint64_t src_offset,
                       uint64_t size, const uint64_t* deps, uint32_t num_deps) {
  CUDA_MEMCPY3D p = copy_params(graph, dst, dst_offset, src, src_offset, size);
  CUcontext ctx = graph.device().context();
  return graph.add_node(
      deps, num_deps, "cuGraphAddMemcpyNode",
      [&](CUgraph g, CUgraphNode* node, const CUgraphNode* on, size_t count) {
        return driver_api().cuGraphAddMemcpyNode(node, g, on, count, &p, ctx);
      },
      {Ref<Object>::share(&dst), Ref<Object>::share(&src)});
}

void set_copy_node(Graph& graph, uint64_t node, Buffer& dst, uint64_t dst_offset, Buffer& src, uint64_t src_offset,
                   uint64_t size) {
  CUDA_MEMCPY3D p = copy_params(graph, dst, dst_offset, src, src_offset, size);
  CUcontext ctx = graph.device().context();
  const DriverApi& api = driver_api();
  graph.set_node(
      node, CU_GRAPH_NODE_TYPE_MEMCPY, "copy", "cuGraphMemcpyNodeSetParams",
      [&](CUgraphNode n) { return api.cuGraphMemcpyNodeSetParams(n, &p); }, "cuGraphExecMemcpyNodeSetParams",
      [&](CUgraphExec e, CUgraphNode n) { return api.cuGraphExecMemcpyNodeSetParams(e, n, &p, ctx); },
      {Ref<Object>::share(&dst), Ref<Object>::share(&src)});
}

namespace {

constexpr RegionNames kDst2d{"dst", "dst_offset", "dst_pitch", nullptr, "dst's size"};
constexpr RegionNames kSrc2d{"src", "src_offset", "src_pitch", nullptr, "src's size"};
constexpr RegionNames kDst3d{"dst", "dst_offset", "dst_pitch", "dst_rows_per_plane", "dst's size"};
constexpr RegionNames kSrc3d{"src", "src_offset", "src_pitch", "src_rows_per_plane", "src's size"};

// The driver's parameters of a 2D or 3D copy, checked as at add time.
CUDA_MEMCPY3D region_copy_params(Graph& graph, Buffer& dst, const Region& dr, Buffer& src, const Region& sr,
                                 const Extent& e, bool three_d) {
  check_region(dr, e, dst.size(), three_d ? kDst3d : kDst2d);
  check_region(sr, e, src.size(), three_d ? kSrc3d : kSrc2d);
  dst.check_usable();
  src.check_usable();
  require_graph_device(graph, dst, "dst");
  require_graph_device(graph, src, "src");
  if (e.empty())
    fail(DC_ERROR_INVALID_ARGUMENT, "the region is empty (width %" PRIu64 ", height %" PRIu64 ", depth %" PRIu64
         "); a copy node copies at least one byte", e.width, e.height, e.depth);
  if (regions_overlap(dst.address(), dr, src.address(), sr, e))
    fail(DC_ERROR_INVALID_ARGUMENT, "the dst and src regions share bytes: the copy's result would depend on its "
         "order; copy through a temporary buffer");
  return make_copy_3d(buffer_side(dst, dr, e), buffer_side(src, sr, e), e);
}

}  // namespace

uint64_t add_copy_region_node(Graph& graph, Buffer& dst, const Region& dst_region, Buffer& src,
                              const Region& src_region, const Extent& extent, bool three_d, const uint64_t* deps,
                              uint32_t num_deps) {
  CUDA_MEMCPY3D p = region_copy_params(graph, dst, dst_region, src, src_region, extent, three_d);
  CUcontext ctx = graph.device().context();
  return graph.add_node(
      deps, num_deps, "cuGraphAddMemcpyNode",
      [&](CUgraph g, CUgraphNode* node, const CUgraphNode* on, size_t count) {
        return driver_api().cuGraphAddMemcpyNode(node, g, on, count, &p, ctx);
      },
      {Ref<Object>::share(&dst), Ref<Object>::share(&src)});
}

void set_copy_region_node(Graph& graph, uint64_t node, Buffer& dst, const Region& dst_region, Buffer& src,
                          const Region& src_region, const Extent& extent, bool three_d) {
  CUDA_MEMCPY3D p = region_copy_params(graph, dst, dst_region, src, src_region, extent, three_d);
  const DriverApi& api = driver_api();
  // cuGraphExecMemcpyNodeSetParams takes one-dimensional copies only ("both the
  // instantiation-time memory operands and the memory operands in copyParams
  // must be 1-dimensional"; an H200 answers CUDA_ERROR_INVALID_VALUE): a 2D or
  // 3D copy node changes in the definition, and the next launch instantiates
  // the graph again.
  graph.set_node(
      node, CU_GRAPH_NODE_TYPE_MEMCPY, "copy", "cuGraphMemcpyNodeSetParams",
      [&](CUgraphNode n) { return api.cuGraphMemcpyNodeSetParams(n, &p); }, "cuGraphExecMemcpyNodeSetParams",
      Graph::SetOnExec(), {Ref<Object>::share(&dst), Ref<Object>::share(&src)});
}

namespace {

CUDA_MEMSET_NODE_PARAMS_v1 fill_params(Graph& graph, Buffer& buffer, uint64_t offset, uint64_t size, uint32_t value,
                                       uint32_t element_size) {
  buffer.check_usable();
  require_graph_device(graph, buffer, "buffer");
  check_fill(buffer, offset, size, value, element_size);
  if (size == 0)
    fail(DC_ERROR_INVALID_ARGUMENT, "size is 0; a fill node fills at least one element");
  CUdeviceptr at = buffer.device_address();
  if (!at)
    fail(DC_ERROR_NOT_SUPPORTED, "the driver gave this host memory no device mapping, so a graph cannot fill it; "
         "register it with DC_ALLOC_DEVICE_MAPPED");
  if (buffer.kind() == DC_BUFFER_REGISTERED_HOST && (buffer.flags() & DC_ALLOC_READ_ONLY))
    fail(DC_ERROR_INVALID_ARGUMENT, "the buffer was registered with DC_ALLOC_READ_ONLY: the device may only read it");
  at += offset;
  if (at % element_size)
    fail(DC_ERROR_INVALID_ARGUMENT, "the buffer's address 0x%" PRIx64 " + offset is not aligned to element_size %u; "
         "fill with element_size 1", static_cast<uint64_t>(at - offset), element_size);
  CUDA_MEMSET_NODE_PARAMS_v1 p{};
  p.dst = at;
  p.value = value;
  p.elementSize = element_size;
  p.width = static_cast<size_t>(size / element_size);
  p.height = 1;
  p.pitch = static_cast<size_t>(size);
  return p;
}

}  // namespace

uint64_t add_fill_node(Graph& graph, Buffer& buffer, uint64_t offset, uint64_t size, uint32_t value,
                       uint32_t element_size, const uint64_t* deps, uint32_t num_deps) {
  CUDA_MEMSET_NODE_PARAMS_v1 p = fill_params(graph, buffer, offset, size, value, element_size);
  CUcontext ctx = graph.device().context();
  return graph.add_node(
      deps, num_deps, "cuGraphAddMemsetNode",
      [&](CUgraph g, CUgraphNode* node, const CUgraphNode* on, size_t count) {
        return driver_api().cuGraphAddMemsetNode(node, g, on, count, &p, ctx);
      },
      {Ref<Object>::share(&buffer)});
}

void set_fill_node(Graph& graph, uint64_t node, Buffer& buffer, uint64_t offset, uint64_t size, uint32_t value,
                   uint32_t element_size) {
  CUDA_MEMSET_NODE_PARAMS_v1 p = fill_params(graph, buffer, offset, size, value, element_size);
  CUcontext ctx = graph.device().context();
  const DriverApi& api = driver_api();
  graph.set_node(
      node, CU_GRAPH_NODE_TYPE_MEMSET, "fill", "cuGraphMemsetNodeSetParams",
      [&](CUgraphNode n) { return api.cuGraphMemsetNodeSetParams(n, &p); }, "cuGraphExecMemsetNodeSetParams",
      [&](CUgraphExec e, CUgraphNode n) { return api.cuGraphExecMemsetNodeSetParams(e, n, &p, ctx); },
      {Ref<Object>::share(&buffer)});
}

uint64_t add_host_node(Graph& graph, dc_host_fn fn, void* user_data, const uint64_t* deps, uint32_t num_deps) {
  if (!fn) fail(DC_ERROR_INVALID_ARGUMENT, "fn is NULL; pass the function the node calls");
  Ref<HostFunction> h = Ref<HostFunction>::adopt(new HostFunction(fn, user_data));
  CUDA_HOST_NODE_PARAMS_v1 p{};
  p.fn = &HostFunction::run;
  p.userData = h.get();
  return graph.add_node(
      deps, num_deps, "cuGraphAddHostNode",
      [&](CUgraph g, CUgraphNode* node, const CUgraphNode* on, size_t count) {
        return driver_api().cuGraphAddHostNode(node, g, on, count, &p);
      },
      {Ref<Object>(std::move(h))});
}

void set_host_node(Graph& graph, uint64_t node, dc_host_fn fn, void* user_data) {
  if (!fn) fail(DC_ERROR_INVALID_ARGUMENT, "fn is NULL; pass the function the node calls");
  Ref<HostFunction> h = Ref<HostFunction>::adopt(new HostFunction(fn, user_data));
  CUDA_HOST_NODE_PARAMS_v1 p{};
  p.fn = &HostFunction::run;
  p.userData = h.get();
  const DriverApi& api = driver_api();
  graph.set_node(
      node, CU_GRAPH_NODE_TYPE_HOST, "host", "cuGraphHostNodeSetParams",
      [&](CUgraphNode n) { return api.cuGraphHostNodeSetParams(n, &p); }, "cuGraphExecHostNodeSetParams",
      [&](CUgraphExec e, CUgraphNode n) { return api.cuGraphExecHostNodeSetParams(e, n, &p); },
      {Ref<Object>(std::move(h))});
}

uint64_t add_alloc_node(Graph& graph, uint64_t size, const uint64_t* deps, uint32_t num_deps, Ref<Buffer>* buffer) {
  CUdeviceptr address = 0;
  uint64_t id = graph.add_alloc(size, deps, num_deps, &address);
  *buffer = Buffer::wrap_device(Ref<Device>::share(&graph.device()), address, size);
  return id;
}

uint64_t add_free_node(Graph& graph, Buffer& buffer, const uint64_t* deps, uint32_t num_deps) {
  buffer.check_usable();
  require_graph_device(graph, buffer, "buffer");
  return graph.add_free(buffer.address(), buffer.size(), "buffer", deps, num_deps, {Ref<Object>::share(&buffer)});
}

uint64_t add_event_node(Graph& graph, Event& event, bool record, const uint64_t* deps, uint32_t num_deps) {
  event.check_usable();
  require_graph_device(graph, event, "event");
  CUevent e = event.handle();
  return graph.add_node(
      deps, num_deps, record ? "cuGraphAddEventRecordNode" : "cuGraphAddEventWaitNode",
      [&](CUgraph g, CUgraphNode* node, const CUgraphNode* on, size_t count) {
        const DriverApi& api = driver_api();
        return record ? api.cuGraphAddEventRecordNode(node, g, on, count, e)
                      : api.cuGraphAddEventWaitNode(node, g, on, count, e);
      },
      {Ref<Object>::share(&event)});
}

}  // namespace dc
