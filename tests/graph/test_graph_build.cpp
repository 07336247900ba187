// Graphs built node by node: kernels, copies, fills, a host function, event
// nodes and a child graph with dependencies give the same results as the same
// work on a stream (random data, checked against CPU references); inspection
// (topological order, types, edges), clone, node removal, the DOT dump (to a
// file and to a buffer); memory alloc/free nodes and 2D/3D copy nodes against
// the same work on a stream;
// captured graphs extended; and bad input everywhere (a node of another
// graph, a cycle, wrong kernel arguments, released functions and buffers).
#include "loader/cuda_abi/driver_abi.h"

#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <unistd.h>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "device_graph_header.h"
#include "launch/launch_test.h"

namespace {

using namespace launchtest;

class GraphBuildTest : public LaunchTest {
 protected:
  void SetUp() override {
    LaunchTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    if (!have_nvrtc_) GTEST_SKIP() << "needs NVRTC, not found: " << dctest::nvrtc_unavailable();
  }
  dc_graph create() {
    dc_graph g = nullptr;
    EXPECT_DC_OK(dc_graph_create(device_, &g));
    if (g) graphs_.push_back(g);
    return g;
  }
  dc_buffer pinned(uint64_t bytes, void** host) {
    dc_buffer b = nullptr;
    EXPECT_DC_OK(dc_buffer_alloc_pinned(device_, bytes, 0, &b));
    if (!b) return nullptr;
    buffers_.push_back(b);
    EXPECT_DC_OK(dc_buffer_host_pointer(b, host));
    return b;
  }
  std::vector<uint64_t> order(dc_graph g) {
    uint64_t n = 0;
    EXPECT_DC_OK(dc_graph_node_count(g, &n));
    std::vector<uint64_t> out(n);
    for (uint64_t i = 0; i < n; ++i) EXPECT_DC_OK(dc_graph_node_at(g, i, &out[i]));
    return out;
  }
  std::vector<std::pair<uint64_t, uint64_t>> edges(dc_graph g) {
    uint64_t n = 0;
    EXPECT_DC_OK(dc_graph_edge_count(g, &n));
    std::vector<std::pair<uint64_t, uint64_t>> out(n);
    for (uint64_t i = 0; i < n; ++i) EXPECT_DC_OK(dc_graph_edge_at(g, i, &out[i].first, &out[i].second));
    return out;
  }
  // Releases one handle the fixture holds, now.
  template <class H>
  void drop(std::vector<H>& held, H h, void (*release)(H)) {
    for (auto it = held.begin(); it != held.end(); ++it)
      if (*it == h) {
        held.erase(it);
        release(h);
        return;
      }
  }
  int32_t node_type_out_ = 0;
  int32_t type(dc_graph g, uint64_t node) {
    int32_t t = -1;
    EXPECT_DC_OK(dc_graph_node_type(g, node, &t));
    return t;
  }
};

void count_call(void* p) { ++*static_cast<std::atomic<int>*>(p); }

size_t place(const std::vector<uint64_t>& order, uint64_t node) {
  for (size_t i = 0; i < order.size(); ++i)
    if (order[i] == node) return i;
  return order.size();
}

// in (pinned) -> x; fill y with 1.0f; saxpy y = a*x + y after both; z = x + y;
// z -> out (pinned); a host function and an event record after the copy out.
struct Built {
  static constexpr int n = 3000;
  float* in = nullptr;
  float* out = nullptr;
  dc_buffer x = nullptr, y = nullptr, z = nullptr;
  uint64_t copy_in = 0, fill = 0, saxpy = 0, add = 0, copy_out = 0, host = 0, record = 0;
  std::atomic<int> calls{0};
  float a = 3.0f;
  int count = n;
};

TEST_F(GraphBuildTest, ABuiltGraphGivesTheResultsOfTheSameWorkOnAStream) {
  dc_function saxpy = kernel("saxpy"), add = kernel("vector_add");
  ASSERT_NE(saxpy, nullptr);
  ASSERT_NE(add, nullptr);
  Built b;
  const int n = Built::n;
  void* in = nullptr;
  void* out = nullptr;
  dc_buffer in_buffer = pinned(n * 4, &in), out_buffer = pinned(n * 4, &out);
  ASSERT_NE(in_buffer, nullptr);
  ASSERT_NE(out_buffer, nullptr);
  b.in = static_cast<float*>(in);
  b.out = static_cast<float*>(out);
  b.x = alloc(n * 4);
  b.y = alloc(n * 4);
  b.z = alloc(n * 4);
  dc_event event = nullptr;
  ASSERT_DC_OK(dc_event_create(device_, 0, &event));

  dc_graph g = create();
  ASSERT_NE(g, nullptr);
  ASSERT_DC_OK(dc_graph_add_copy_node(g, b.x, 0, in_buffer, 0, n * 4, nullptr, 0, &b.copy_in));
  uint32_t one = 0x3f800000u;  // 1.0f
  ASSERT_DC_OK(dc_graph_add_fill_node(g, b.y, 0, n * 4, one, 4, nullptr, 0, &b.fill));
  dc_launch_config c = DC_LAUNCH_CONFIG_INIT;
  c.grid[0] = (n + 255) / 256;
  c.block[0] = 256;
  dc_arg saxpy_args[] = {DC_ARG_VALUE_OF(&b.a), DC_ARG_BUFFER_OF(b.x), DC_ARG_BUFFER_OF(b.y), DC_ARG_VALUE_OF(&b.count)};
  uint64_t both[] = {b.copy_in, b.fill};
  ASSERT_DC_OK(dc_graph_add_kernel_node(g, saxpy, &c, saxpy_args, 4, both, 2, &b.saxpy));
  dc_arg add_args[] = {DC_ARG_BUFFER_OF(b.x), DC_ARG_BUFFER_OF(b.y), DC_ARG_BUFFER_OF(b.z), DC_ARG_VALUE_OF(&b.count)};
  ASSERT_DC_OK(dc_graph_add_kernel_node(g, add, &c, add_args, 4, &b.saxpy, 1, &b.add));
  ASSERT_DC_OK(dc_graph_add_copy_node(g, out_buffer, 0, b.z, 0, n * 4, &b.add, 1, &b.copy_out));
  ASSERT_DC_OK(dc_graph_add_host_node(g, count_call, &b.calls, &b.copy_out, 1, &b.host));
  ASSERT_DC_OK(dc_graph_add_event_record_node(g, event, &b.copy_out, 1, &b.record));
  // The values are copied when the node is added.
  b.a = -100.0f;
  b.count = 1;

  // Every node and argument handle may go: the graph keeps what it uses.
  dc_event_release(event);
  const float a = 3.0f;
  for (int round = 0; round < 3; ++round) {
    std::vector<float> input = random_floats(n, 900 + round);
    std::memcpy(b.in, input.data(), n * 4);
    ASSERT_DC_OK(dc_graph_launch(g, stream_));
    sync();
    // The same work issued on a stream.
    std::vector<float> expect(n);
    for (int i = 0; i < n; ++i) {
      float y = a * input[i] + 1.0f;
      expect[i] = input[i] + y;
    }
    for (int i = 0; i < n; ++i) ASSERT_FLOAT_EQ(b.out[i], expect[i]) << "round " << round << " i " << i;
    EXPECT_EQ(b.calls.load(), round + 1);
  }
}

TEST_F(GraphBuildTest, InspectionGivesATopologicalOrderTypesAndEdges) {
  dc_buffer buf = alloc(4096), other = alloc(4096);
  dc_event event = nullptr;
  ASSERT_DC_OK(dc_event_create(device_, 0, &event));
  std::atomic<int> calls{0};
  dc_graph g = create();
  uint64_t fill = 0, copy = 0, host = 0, wait = 0, record = 0;
  ASSERT_DC_OK(dc_graph_add_event_wait_node(g, event, nullptr, 0, &wait));
  ASSERT_DC_OK(dc_graph_add_host_node(g, count_call, &calls, nullptr, 0, &host));
  ASSERT_DC_OK(dc_graph_add_fill_node(g, buf, 0, 4096, 7, 1, &wait, 1, &fill));
  ASSERT_DC_OK(dc_graph_add_copy_node(g, other, 0, buf, 0, 4096, &fill, 1, &copy));
  // Added last, ordered first among the work it precedes.
  ASSERT_DC_OK(dc_graph_add_dependency(g, host, fill));
  ASSERT_DC_OK(dc_graph_add_event_record_node(g, event, &copy, 1, &record));
  dc_event_release(event);
  EXPECT_NE(wait, 0u);
  std::vector<uint64_t> o = order(g);
  ASSERT_EQ(o.size(), 5u);
  EXPECT_LT(place(o, wait), place(o, fill));
  EXPECT_LT(place(o, host), place(o, fill));
  EXPECT_LT(place(o, fill), place(o, copy));
  EXPECT_LT(place(o, copy), place(o, record));
  EXPECT_EQ(o[0], wait) << "free nodes come in the order added";
  EXPECT_EQ(type(g, wait), DC_GRAPH_NODE_EVENT_WAIT);
  EXPECT_EQ(type(g, host), DC_GRAPH_NODE_HOST);
  EXPECT_EQ(type(g, fill), DC_GRAPH_NODE_FILL);
  EXPECT_EQ(type(g, copy), DC_GRAPH_NODE_COPY);
  EXPECT_EQ(type(g, record), DC_GRAPH_NODE_EVENT_RECORD);
  std::vector<std::pair<uint64_t, uint64_t>> e = edges(g);
  std::vector<std::pair<uint64_t, uint64_t>> want = {{wait, fill}, {host, fill}, {fill, copy}, {copy, record}};
  EXPECT_EQ(e, want);
  uint64_t from = 1, to = 1;
  EXPECT_DC_ERROR(dc_graph_edge_at(g, 4, &from, &to), DC_ERROR_OUT_OF_RANGE, "index 4 is past the graph's 4 edges");
  EXPECT_EQ(from, 0u);
  uint64_t node = 1;
  EXPECT_DC_ERROR(dc_graph_node_at(g, 5, &node), DC_ERROR_OUT_OF_RANGE, "index 5 is past the graph's 5 nodes");
  EXPECT_EQ(node, 0u);

  // Launch: the fill and the copy ran, the host function once.
  ASSERT_DC_OK(dc_graph_launch(g, stream_));
  sync();
  EXPECT_EQ(download<uint8_t>(other, 4096)[4095], 7u);
  EXPECT_EQ(calls.load(), 1);

  // Removing a node removes its edges; the change reaches the next launch.
  ASSERT_DC_OK(dc_graph_remove_node(g, copy));
  EXPECT_EQ(order(g).size(), 4u);
  want = {{wait, fill}, {host, fill}};
  EXPECT_EQ(edges(g), want);
  EXPECT_DC_ERROR(dc_graph_node_type(g, copy, &node_type_out_), DC_ERROR_INVALID_ARGUMENT,
                  "which is not a node of graph");
  ASSERT_DC_OK(dc_buffer_fill(other, 0, 4096, 0, 1));
  ASSERT_DC_OK(dc_graph_launch(g, stream_));
  sync();
  EXPECT_EQ(download<uint8_t>(other, 4096)[0], 0u) << "the removed copy ran";
  EXPECT_EQ(calls.load(), 2);
}

TEST_F(GraphBuildTest, CyclesOtherGraphsNodesAndRepeatedEdgesAreRefused) {
  dc_buffer buf = alloc(256);
  dc_graph g = create(), h = create();
  uint64_t a = 0, b = 0, c = 0, foreign = 0;
  ASSERT_DC_OK(dc_graph_add_fill_node(g, buf, 0, 256, 1, 1, nullptr, 0, &a));
  ASSERT_DC_OK(dc_graph_add_fill_node(g, buf, 0, 256, 2, 1, &a, 1, &b));
  ASSERT_DC_OK(dc_graph_add_fill_node(g, buf, 0, 256, 3, 1, &b, 1, &c));
  ASSERT_DC_OK(dc_graph_add_fill_node(h, buf, 0, 256, 4, 1, nullptr, 0, &foreign));
  std::string path = std::to_string(a) + " -> " + std::to_string(b) + " -> " + std::to_string(c);
  EXPECT_DC_ERROR(dc_graph_add_dependency(g, c, a), DC_ERROR_INVALID_ARGUMENT, "would close a cycle");
  EXPECT_NE(std::string(dc_last_error_message()).find(path), std::string::npos) << dc_last_error_message();
  EXPECT_DC_ERROR(dc_graph_add_dependency(g, a, a), DC_ERROR_INVALID_ARGUMENT, "a node cannot depend on itself");
  EXPECT_DC_ERROR(dc_graph_add_dependency(g, a, b), DC_ERROR_INVALID_ARGUMENT, "exists already");
  EXPECT_DC_ERROR(dc_graph_add_dependency(g, a, foreign), DC_ERROR_INVALID_ARGUMENT, "which is not a node of graph");
  uint64_t node = 5;
  EXPECT_DC_ERROR(dc_graph_add_fill_node(g, buf, 0, 256, 1, 1, &foreign, 1, &node), DC_ERROR_INVALID_ARGUMENT,
                  "dependencies[0] is");
  EXPECT_EQ(node, 0u);
  uint64_t twice[] = {a, a};
  EXPECT_DC_ERROR(dc_graph_add_fill_node(g, buf, 0, 256, 1, 1, twice, 2, &node), DC_ERROR_INVALID_ARGUMENT,
                  "dependencies[0] and dependencies[1] both name node");
  EXPECT_DC_ERROR(dc_graph_add_fill_node(g, buf, 0, 256, 1, 1, nullptr, 2, &node), DC_ERROR_INVALID_ARGUMENT,
                  "dependencies is NULL but num_dependencies is 2");
  EXPECT_DC_ERROR(dc_graph_remove_node(g, 0), DC_ERROR_INVALID_ARGUMENT, "node is 0");
  EXPECT_DC_ERROR(dc_graph_node_type(g, foreign, &node_type_out_), DC_ERROR_INVALID_ARGUMENT, "node is");
  EXPECT_EQ(order(g).size(), 3u) << "a refused call changed the graph";
  EXPECT_EQ(edges(g).size(), 2u);
  // A legal edge across the chain is accepted.
  ASSERT_DC_OK(dc_graph_add_dependency(g, a, c));
  EXPECT_EQ(edges(g).size(), 3u);
  ASSERT_DC_OK(dc_graph_launch(g, stream_));
  sync();
  EXPECT_EQ(download<uint8_t>(buf, 256)[0], 3u) << "the fills ran out of order";
}

TEST_F(GraphBuildTest, KernelNodesAreCheckedAsLaunchesAndKeepWhatTheyUse) {
  dc_function fill = kernel("fill_u32");
  ASSERT_NE(fill, nullptr);
  const uint64_t n = 1000;
  dc_buffer out = alloc(n * 4);
  dc_graph g = create();
  dc_launch_config c = DC_LAUNCH_CONFIG_INIT;
  c.grid[0] = 4;
  c.block[0] = 256;
  uint32_t value = 0xabcd;
  dc_arg args[] = {DC_ARG_BUFFER_OF(out), DC_ARG_VALUE_OF(&value), DC_ARG_VALUE_OF(&n)};
  uint64_t node = 3;
  // As dc_launch_kernel checks: count, sizes, buffers, the configuration.
  EXPECT_DC_ERROR(dc_graph_add_kernel_node(g, fill, &c, args, 2, nullptr, 0, &node), DC_ERROR_INVALID_ARGUMENT,
                  "fill_u32 takes 3 parameters, 2 arguments were given");
  EXPECT_EQ(node, 0u);
  uint16_t narrow = 1;
  dc_arg wrong[] = {DC_ARG_BUFFER_OF(out), DC_ARG_VALUE_OF(&narrow), DC_ARG_VALUE_OF(&n)};
  EXPECT_DC_ERROR(dc_graph_add_kernel_node(g, fill, &c, wrong, 3, nullptr, 0, &node), DC_ERROR_INVALID_ARGUMENT,
                  "args[1]");
  dc_arg past[] = {DC_ARG_BUFFER_AT(out, n * 4 + 8), DC_ARG_VALUE_OF(&value), DC_ARG_VALUE_OF(&n)};
  EXPECT_DC_ERROR(dc_graph_add_kernel_node(g, fill, &c, past, 3, nullptr, 0, &node), DC_ERROR_OUT_OF_RANGE, "args[0]");
  dc_launch_config bad = c;
  bad.block[0] = 4096;
  EXPECT_DC_ERROR(dc_graph_add_kernel_node(g, fill, &bad, args, 3, nullptr, 0, &node), DC_ERROR_INVALID_ARGUMENT,
                  "config");
  dc_launch_config coop = c;
  coop.flags = DC_LAUNCH_COOPERATIVE;
  EXPECT_DC_ERROR(dc_graph_add_kernel_node(g, fill, &coop, args, 3, nullptr, 0, &node), DC_ERROR_NOT_SUPPORTED,
                  "capture such a launch");
  // A released buffer or function.
  dc_buffer gone = nullptr;
  ASSERT_DC_OK(dc_buffer_alloc(device_, 64, 0, &gone));
  dc_buffer_release(gone);
  dc_arg released[] = {DC_ARG_BUFFER_OF(gone), DC_ARG_VALUE_OF(&value), DC_ARG_VALUE_OF(&n)};
  EXPECT_DC_ERROR(dc_graph_add_kernel_node(g, fill, &c, released, 3, nullptr, 0, &node), DC_ERROR_INVALID_HANDLE,
                  "args[0]");
  dc_function dead = nullptr;
  ASSERT_DC_OK(dc_module_get_function(launch_module_, "fill_u32", &dead));
  dc_function_release(dead);
  EXPECT_DC_ERROR(dc_graph_add_kernel_node(g, dead, &c, args, 3, nullptr, 0, &node), DC_ERROR_INVALID_HANDLE,
                  "function");
  uint64_t count = 9;
  ASSERT_DC_OK(dc_graph_node_count(g, &count));
  EXPECT_EQ(count, 0u) << "a refused node was added";

  // Accepted; then the function, its module and the buffer handles go: the graph keeps them.
  ASSERT_DC_OK(dc_graph_add_kernel_node(g, fill, &c, args, 3, nullptr, 0, &node));
  EXPECT_EQ(type(g, node), DC_GRAPH_NODE_KERNEL);
  dc_buffer result = alloc(n * 4);
  uint64_t copy = 0;
  ASSERT_DC_OK(dc_graph_add_copy_node(g, result, 0, out, 0, n * 4, &node, 1, &copy));
  drop(functions_, fill, dc_function_release);
  drop(modules_, launch_module_, dc_module_release);
  launch_module_ = nullptr;
  drop(buffers_, out, dc_buffer_release);
  ASSERT_DC_OK(dc_graph_launch(g, stream_));
  sync();
  std::vector<uint32_t> got = download<uint32_t>(result, n);
  for (uint64_t i = 0; i < n; ++i) ASSERT_EQ(got[i], value) << i;
  // The graph's copy of the arguments: changing `value` now changes nothing.
  value = 1;
  ASSERT_DC_OK(dc_buffer_fill(result, 0, n * 4, 0, 4));
  ASSERT_DC_OK(dc_graph_launch(g, stream_));
  sync();
  EXPECT_EQ(download<uint32_t>(result, n)[n - 1], 0xabcdu);
}

TEST_F(GraphBuildTest, CopiesAndFillsAreCheckedAsStreamCopiesAre) {
  dc_buffer a = alloc(1024), b = alloc(1024);
  dc_graph g = create();
  uint64_t node = 1;
  EXPECT_DC_ERROR(dc_graph_add_copy_node(g, a, 0, b, 0, 0, nullptr, 0, &node), DC_ERROR_INVALID_ARGUMENT, "size is 0");
  EXPECT_DC_ERROR(dc_graph_add_copy_node(g, a, 1000, b, 0, 100, nullptr, 0, &node), DC_ERROR_OUT_OF_RANGE,
                  "dst_offset 1000 + size 100 exceeds dst's size 1024");
  EXPECT_DC_ERROR(dc_graph_add_copy_node(g, a, 0, a, 10, 100, nullptr, 0, &node), DC_ERROR_INVALID_ARGUMENT,
                  "the ranges overlap");
  EXPECT_DC_ERROR(dc_graph_add_fill_node(g, a, 0, 1024, 1, 3, nullptr, 0, &node), DC_ERROR_INVALID_ARGUMENT,
                  "element_size");
  EXPECT_DC_ERROR(dc_graph_add_fill_node(g, a, 0, 1024, 0x10000, 2, nullptr, 0, &node), DC_ERROR_INVALID_ARGUMENT,
                  "value");
  EXPECT_DC_ERROR(dc_graph_add_fill_node(g, a, 0, 0, 1, 1, nullptr, 0, &node), DC_ERROR_INVALID_ARGUMENT, "size is 0");
  EXPECT_DC_ERROR(dc_graph_add_host_node(g, nullptr, nullptr, nullptr, 0, &node), DC_ERROR_INVALID_ARGUMENT,
                  "fn is NULL");
  EXPECT_DC_ERROR(dc_graph_add_copy_node(g, a, 0, b, 0, 8, nullptr, 0, nullptr), DC_ERROR_INVALID_ARGUMENT,
                  "node is NULL");
  dc_buffer gone = nullptr;
  ASSERT_DC_OK(dc_buffer_alloc(device_, 64, 0, &gone));
  dc_buffer_release(gone);
  EXPECT_DC_ERROR(dc_graph_add_copy_node(g, a, 0, gone, 0, 8, nullptr, 0, &node), DC_ERROR_INVALID_HANDLE, "src");
  EXPECT_DC_ERROR(dc_graph_add_fill_node(g, gone, 0, 8, 0, 1, nullptr, 0, &node), DC_ERROR_INVALID_HANDLE, "buffer");
  EXPECT_DC_ERROR(dc_graph_add_child_graph_node(g, g, nullptr, 0, &node), DC_ERROR_INVALID_ARGUMENT,
                  "child is graph itself");
  EXPECT_DC_ERROR(dc_graph_write_dot(g, "", 0), DC_ERROR_INVALID_ARGUMENT, "path is empty");
  EXPECT_DC_ERROR(dc_graph_write_dot(g, "x.dot", 4), DC_ERROR_INVALID_ARGUMENT, "unknown bits 0x4");
  EXPECT_DC_ERROR(dc_graph_write_dot(g, "/nonexistent-folder/x.dot", 0), DC_ERROR_IO, "could not write the DOT file");
  dc_graph none = reinterpret_cast<dc_graph>(uintptr_t{1});
  EXPECT_DC_ERROR(dc_graph_create(nullptr, &none), DC_ERROR_INVALID_HANDLE, "device is NULL");
  EXPECT_EQ(none, nullptr);
  uint64_t count = 9;
  ASSERT_DC_OK(dc_graph_node_count(g, &count));
  EXPECT_EQ(count, 0u);
}

TEST_F(GraphBuildTest, ChildGraphsClonesAndCapturedGraphsExtended) {
  const uint64_t n = 512;
  dc_buffer a = alloc(n), b = alloc(n);
  // The child fills a with 5; the parent copies a to b after it.
  dc_graph child = create(), parent = create();
  uint64_t fill = 0, embed = 0, copy = 0;
  ASSERT_DC_OK(dc_graph_add_fill_node(child, a, 0, n, 5, 1, nullptr, 0, &fill));
  ASSERT_DC_OK(dc_graph_add_child_graph_node(parent, child, nullptr, 0, &embed));
  ASSERT_DC_OK(dc_graph_add_copy_node(parent, b, 0, a, 0, n, &embed, 1, &copy));
  EXPECT_EQ(type(parent, embed), DC_GRAPH_NODE_CHILD_GRAPH);
  // A later change to the child does not reach the parent.
  uint64_t later = 0;
  ASSERT_DC_OK(dc_graph_add_fill_node(child, a, 0, n, 9, 1, &fill, 1, &later));
  ASSERT_DC_OK(dc_graph_launch(parent, stream_));
  sync();
  EXPECT_EQ(download<uint8_t>(b, n)[n - 1], 5u);

  // A clone has the same ids and runs the same work; changing it leaves the original.
  dc_graph clone = nullptr;
  ASSERT_DC_OK(dc_graph_clone(parent, &clone));
  graphs_.push_back(clone);
  EXPECT_EQ(order(clone), order(parent));
  EXPECT_EQ(edges(clone), edges(parent));
  ASSERT_DC_OK(dc_graph_remove_node(clone, copy));
  EXPECT_EQ(order(parent).size(), 2u);
  EXPECT_EQ(order(clone).size(), 1u);

  // A captured graph is inspected and extended the same way.
  std::atomic<int> calls{0};
  ASSERT_DC_OK(dc_stream_begin_capture(stream_, DC_CAPTURE_GLOBAL));
  ASSERT_DC_OK(dc_buffer_fill_async(a, 0, n, 1, 1, stream_));
  ASSERT_DC_OK(dc_buffer_copy_async(b, 0, a, 0, n, stream_));
  dc_graph captured = nullptr;
  ASSERT_DC_OK(dc_stream_end_capture(stream_, &captured));
  graphs_.push_back(captured);
  std::vector<uint64_t> o = order(captured);
  ASSERT_EQ(o.size(), 2u);
  EXPECT_EQ(type(captured, o[0]), DC_GRAPH_NODE_FILL);
  EXPECT_EQ(type(captured, o[1]), DC_GRAPH_NODE_COPY);
  std::vector<std::pair<uint64_t, uint64_t>> want = {{o[0], o[1]}};
  EXPECT_EQ(edges(captured), want);
  ASSERT_DC_OK(dc_graph_launch(captured, stream_));  // instantiated before the change
  uint64_t host = 0;
  ASSERT_DC_OK(dc_graph_add_host_node(captured, count_call, &calls, &o[1], 1, &host));
  ASSERT_DC_OK(dc_graph_launch(captured, stream_));
  sync();
  EXPECT_EQ(calls.load(), 1) << "the node added after instantiation must run at the next launch (once)";
  EXPECT_EQ(download<uint8_t>(b, n)[0], 1u);
}

void add_ten(void* p) { *static_cast<std::atomic<int>*>(p) += 10; }

TEST_F(GraphBuildTest, NodesChangeInPlaceWithoutANewInstantiation) {
  dc_function fill = kernel("fill_u32");
  ASSERT_NE(fill, nullptr);
  const uint64_t n = 600;
  dc_buffer out = alloc(n * 4), out2 = alloc(n * 4), result = alloc(n * 4), spare = alloc(64);
  dc_graph g = create();
  dc_launch_config c = DC_LAUNCH_CONFIG_INIT;
  c.grid[0] = 3;
  c.block[0] = 256;
  uint32_t value = 11;
  dc_arg args[] = {DC_ARG_BUFFER_OF(out), DC_ARG_VALUE_OF(&value), DC_ARG_VALUE_OF(&n)};
  uint64_t k = 0, copy = 0, fill_node = 0, host = 0;
  std::atomic<int> calls{0};
  ASSERT_DC_OK(dc_graph_add_kernel_node(g, fill, &c, args, 3, nullptr, 0, &k));
  ASSERT_DC_OK(dc_graph_add_copy_node(g, result, 0, out, 0, n * 4, &k, 1, &copy));
  ASSERT_DC_OK(dc_graph_add_fill_node(g, spare, 0, 64, 1, 1, &copy, 1, &fill_node));
  ASSERT_DC_OK(dc_graph_add_host_node(g, count_call, &calls, &copy, 1, &host));
  ASSERT_DC_OK(dc_graph_launch(g, stream_));
  sync();
  EXPECT_EQ(download<uint32_t>(result, n)[n - 1], 11u);
  EXPECT_EQ(calls.load(), 1);
  const dctest::FakeDriver* fake = dctest::fake_driver();
  long instantiations = fake ? fake->call_count("cuGraphInstantiateWithFlags") : 0;

  // A new value and buffer for the kernel, a new source for the copy, a new
  // fill value, a new host function: each reaches the next launch.
  value = 22;
  dc_arg next[] = {DC_ARG_BUFFER_OF(out2), DC_ARG_VALUE_OF(&value), DC_ARG_VALUE_OF(&n)};
  ASSERT_DC_OK(dc_graph_set_kernel_node(g, k, &c, next, 3));
  ASSERT_DC_OK(dc_graph_set_copy_node(g, copy, result, 0, out2, 0, n * 4));
  ASSERT_DC_OK(dc_graph_set_fill_node(g, fill_node, spare, 0, 64, 0x0707, 2));
  ASSERT_DC_OK(dc_graph_set_host_node(g, host, add_ten, &calls));
  ASSERT_DC_OK(dc_graph_launch(g, stream_));
  sync();
  std::vector<uint32_t> got = download<uint32_t>(result, n);
  for (uint64_t i = 0; i < n; ++i) ASSERT_EQ(got[i], 22u) << i;
  EXPECT_EQ(download<uint16_t>(spare, 32)[31], 0x0707u);
  EXPECT_EQ(calls.load(), 11);
  if (fake) {
    EXPECT_EQ(fake->call_count("cuGraphInstantiateWithFlags"), instantiations) << "the graph was instantiated again";
  }

  // A change refused at the checks of its add call, or aimed at another
  // type of node, changes nothing.
  uint16_t narrow = 1;
  dc_arg wrong[] = {DC_ARG_BUFFER_OF(out), DC_ARG_VALUE_OF(&narrow), DC_ARG_VALUE_OF(&n)};
  EXPECT_DC_ERROR(dc_graph_set_kernel_node(g, k, &c, wrong, 3), DC_ERROR_INVALID_ARGUMENT, "args[1]");
  EXPECT_DC_ERROR(dc_graph_set_kernel_node(g, copy, &c, next, 3), DC_ERROR_NOT_SUPPORTED,
                  "not a kernel node added with dc_graph_add_kernel_node");
  EXPECT_DC_ERROR(dc_graph_set_copy_node(g, k, result, 0, out2, 0, 8), DC_ERROR_INVALID_ARGUMENT, "not a copy node");
  EXPECT_DC_ERROR(dc_graph_set_copy_node(g, copy, result, 0, out2, 8, n * 4), DC_ERROR_OUT_OF_RANGE, "src_offset 8");
  EXPECT_DC_ERROR(dc_graph_set_fill_node(g, fill_node, spare, 0, 64, 1, 3), DC_ERROR_INVALID_ARGUMENT, "element_size");
  EXPECT_DC_ERROR(dc_graph_set_host_node(g, host, nullptr, nullptr), DC_ERROR_INVALID_ARGUMENT, "fn is NULL");
  EXPECT_DC_ERROR(dc_graph_set_host_node(g, 0, add_ten, nullptr), DC_ERROR_INVALID_ARGUMENT, "node is 0");
  ASSERT_DC_OK(dc_buffer_fill(result, 0, n * 4, 0, 4));
  ASSERT_DC_OK(dc_graph_launch(g, stream_));
  sync();
  EXPECT_EQ(download<uint32_t>(result, n)[0], 22u) << "a refused change reached the graph";
  EXPECT_EQ(calls.load(), 21);

  // A clone made now has the new parameters in its definition.
  dc_graph clone = nullptr;
  ASSERT_DC_OK(dc_graph_clone(g, &clone));
  graphs_.push_back(clone);
  ASSERT_DC_OK(dc_buffer_fill(result, 0, n * 4, 0, 4));
  ASSERT_DC_OK(dc_graph_launch(clone, stream_));
  sync();
  EXPECT_EQ(download<uint32_t>(result, n)[0], 22u);
  EXPECT_EQ(calls.load(), 31);
}

// Launches from several threads run while another thread changes the graph's
// nodes, adds and removes nodes (re-instantiations), and finally releases the
// handle: every launch succeeds or, after the release, is refused with
// DC_ERROR_INVALID_HANDLE; nothing crashes (and TSan sees no race).
TEST_F(GraphBuildTest, LaunchesStaySafeAgainstConcurrentChangesAndRelease) {
  const uint64_t n = 256;
  dc_buffer a = alloc(n), b = alloc(n);
  dc_graph g = nullptr;
  ASSERT_DC_OK(dc_graph_create(device_, &g));
  uint64_t fill = 0, copy = 0;
  ASSERT_DC_OK(dc_graph_add_fill_node(g, a, 0, n, 1, 1, nullptr, 0, &fill));
  ASSERT_DC_OK(dc_graph_add_copy_node(g, b, 0, a, 0, n, &fill, 1, &copy));
  const int threads = 3, rounds = 200;
  std::vector<dc_stream> streams;
  for (int t = 0; t < threads; ++t) streams.push_back(new_stream());
  std::atomic<bool> released{false};
  std::atomic<int> bad{0};
  std::vector<std::thread> launchers;
  for (int t = 0; t < threads; ++t)
    launchers.emplace_back([&, t] {
      for (int i = 0; i < rounds; ++i) {
        bool before = released.load();
        dc_status s = dc_graph_launch(g, streams[t]);
        if (s != DC_SUCCESS && !(s == DC_ERROR_INVALID_HANDLE && (before || released.load()))) ++bad;
      }
      dc_stream_synchronize(streams[t]);
    });
  std::thread changer([&] {
    for (int i = 0; i < rounds / 4; ++i) {
      if (dc_graph_set_fill_node(g, fill, a, 0, n, static_cast<uint32_t>(i & 0xff), 1) != DC_SUCCESS) ++bad;
      uint64_t extra = 0;
      if (dc_graph_add_fill_node(g, b, 0, n, 3, 1, &copy, 1, &extra) != DC_SUCCESS) ++bad;
      if (dc_graph_remove_node(g, extra) != DC_SUCCESS) ++bad;
    }
    released = true;
    dc_graph_release(g);
  });
  changer.join();
  for (auto& t : launchers) t.join();
  EXPECT_EQ(bad.load(), 0) << dc_last_error_message();
  sync();
}

const char* kConditionalSource = R"(
#include "dccuda_device_graph.h"
extern "C" __global__ void halve_until(float* x, float limit, dc_graph_condition more) {
  x[0] *= 0.5f;
  dc_graph_set_condition(more, x[0] > limit ? 1u : 0u);
}
)";

// A WHILE node whose body halves x[0] until it is at most 1: the loop runs on
// the device, a kernel clearing the condition, without the host.
TEST_F(GraphBuildTest, AWhileNodeLoopsUntilAKernelClearsItsCondition) {
  dc_compile_options o = DC_COMPILE_OPTIONS_INIT;
  const char* names[] = {"dccuda_device_graph.h"};
  const char* sources[] = {kDeviceGraphHeader};
  o.num_headers = 1;
  o.header_names = names;
  o.header_sources = sources;
  dc_module m = nullptr;
  ASSERT_DC_OK(dc_module_compile_and_load(device_, kConditionalSource, "conditional.cu", &o, &m));
  modules_.push_back(m);
  dc_function halve = function(m, "halve_until");
  ASSERT_NE(halve, nullptr);
  dc_graph g = create();
  uint64_t condition = 0, loop = 0;
  dc_status s = dc_graph_add_conditional_node(g, DC_GRAPH_CONDITIONAL_WHILE, 1, 1, nullptr, 0, &condition, &loop);
  if (s == DC_ERROR_NOT_SUPPORTED) GTEST_SKIP() << dc_last_error_message();
  ASSERT_DC_OK(s);
  EXPECT_EQ(type(g, loop), DC_GRAPH_NODE_CONDITIONAL);
  dc_graph body = nullptr;
  ASSERT_DC_OK(dc_graph_conditional_body(g, loop, 0, &body));
  graphs_.push_back(body);
  float start = 1024.0f, limit = 1.0f;
  dc_buffer x = upload(std::vector<float>{start});
  dc_launch_config c = DC_LAUNCH_CONFIG_INIT;
  dc_arg args[] = {DC_ARG_BUFFER_OF(x), DC_ARG_VALUE_OF(&limit), DC_ARG_VALUE_OF(&condition)};
  uint64_t step = 0;
  ASSERT_DC_OK(dc_graph_add_kernel_node(body, halve, &c, args, 3, nullptr, 0, &step));
  EXPECT_DC_ERROR(dc_graph_launch(body, stream_), DC_ERROR_INVALID_ARGUMENT, "the body of a conditional node");
  EXPECT_DC_ERROR(dc_graph_conditional_body(g, loop, 1, &body), DC_ERROR_OUT_OF_RANGE, "index 1");
  EXPECT_DC_ERROR(dc_graph_remove_node(g, loop), DC_ERROR_INVALID_ARGUMENT, "conditional node");
  ASSERT_DC_OK(dc_graph_launch(g, stream_));
  sync();
  EXPECT_EQ(download<float>(x, 1)[0], 1.0f) << "1024 halved until at most 1";
  // Each launch starts from the default value (1): the body runs at least once.
  ASSERT_DC_OK(dc_buffer_write(x, 0, &start, 4));
  ASSERT_DC_OK(dc_graph_launch(g, stream_));
  ASSERT_DC_OK(dc_graph_launch(g, stream_));
  sync();
  EXPECT_EQ(download<float>(x, 1)[0], 0.5f);
}

// IF with an else body, and SWITCH, chosen by their default values.
TEST_F(GraphBuildTest, IfElseAndSwitchNodesRunTheBodyTheirConditionNames) {
  dc_buffer b = alloc(64);
  dc_graph g = create();
  uint64_t cond_if = 0, cond_switch = 0, node_if = 0, node_switch = 0;
  dc_status s = dc_graph_add_conditional_node(g, DC_GRAPH_CONDITIONAL_IF, 2, 0, nullptr, 0, &cond_if, &node_if);
  if (s == DC_ERROR_NOT_SUPPORTED) GTEST_SKIP() << dc_last_error_message();
  ASSERT_DC_OK(s);
  ASSERT_DC_OK(dc_graph_add_conditional_node(g, DC_GRAPH_CONDITIONAL_SWITCH, 3, 2, &node_if, 1, &cond_switch,
                                             &node_switch));
  EXPECT_NE(cond_if, cond_switch);
  for (uint32_t i = 0; i < 2; ++i) {
    dc_graph body = nullptr;
    ASSERT_DC_OK(dc_graph_conditional_body(g, node_if, i, &body));
    uint64_t n = 0;
    ASSERT_DC_OK(dc_graph_add_fill_node(body, b, 0, 32, 1 + i, 1, nullptr, 0, &n));  // then: 1, else: 2
    dc_graph_release(body);
  }
  for (uint32_t i = 0; i < 3; ++i) {
    dc_graph body = nullptr;
    ASSERT_DC_OK(dc_graph_conditional_body(g, node_switch, i, &body));
    uint64_t n = 0;
    ASSERT_DC_OK(dc_graph_add_fill_node(body, b, 32, 32, 10 + i, 1, nullptr, 0, &n));
    dc_graph_release(body);
  }
  ASSERT_DC_OK(dc_graph_launch(g, stream_));
  sync();
  std::vector<uint8_t> got = download<uint8_t>(b, 64);
  EXPECT_EQ(got[0], 2u) << "the condition is 0: the else body runs";
  EXPECT_EQ(got[63], 12u) << "the condition is 2: body 2 runs";
  uint64_t c = 1, n = 1;
  EXPECT_DC_ERROR(dc_graph_add_conditional_node(g, DC_GRAPH_CONDITIONAL_WHILE, 2, 0, nullptr, 0, &c, &n),
                  DC_ERROR_INVALID_ARGUMENT, "num_bodies is 2");
  EXPECT_EQ(n, 0u);
  EXPECT_DC_ERROR(dc_graph_add_conditional_node(g, 7, 1, 0, nullptr, 0, &c, &n), DC_ERROR_INVALID_ARGUMENT,
                  "type is 7");
  dc_graph none = nullptr;
  EXPECT_DC_ERROR(dc_graph_conditional_body(g, 12345678, 0, &none), DC_ERROR_INVALID_ARGUMENT, "node is 12345678");
}

struct InsideHostNode {
  dc_stream stream = nullptr;
  dc_status sync = DC_SUCCESS;
  dc_status add = DC_SUCCESS;
  dc_graph graph = nullptr;
};

void call_dccuda(void* p) {
  auto* in = static_cast<InsideHostNode*>(p);
  in->sync = dc_stream_synchronize(in->stream);
  uint64_t node = 0;
  in->add = dc_graph_add_host_node(in->graph, count_call, nullptr, nullptr, 0, &node);
}

TEST_F(GraphBuildTest, AHostNodeMayNotCallWhatWaitsOrChangesGraphs) {
  InsideHostNode in;
  in.stream = stream_;
  dc_graph g = create();
  in.graph = g;
  uint64_t node = 0;
  ASSERT_DC_OK(dc_graph_add_host_node(g, call_dccuda, &in, nullptr, 0, &node));
  ASSERT_DC_OK(dc_graph_launch(g, stream_));
  sync();
  EXPECT_EQ(in.sync, DC_ERROR_INVALID_STATE);
  EXPECT_EQ(in.add, DC_ERROR_INVALID_STATE);
  uint64_t count = 0;
  ASSERT_DC_OK(dc_graph_node_count(g, &count));
  EXPECT_EQ(count, 1u);
}

TEST_F(GraphBuildTest, TheDotDumpIsReadByGraphviz) {
  dc_buffer a = alloc(64), b = alloc(64);
  dc_graph g = create();
  uint64_t fill = 0, copy = 0;
  ASSERT_DC_OK(dc_graph_add_fill_node(g, a, 0, 64, 1, 1, nullptr, 0, &fill));
  ASSERT_DC_OK(dc_graph_add_copy_node(g, b, 0, a, 0, 64, &fill, 1, &copy));
  std::string path = testing::TempDir() + "dccuda_graph_" + std::to_string(::getpid()) + ".dot";
  ASSERT_DC_OK(dc_graph_write_dot(g, path.c_str(), DC_GRAPH_DOT_VERBOSE));
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_NE(text.str().find("digraph"), std::string::npos) << text.str();
  EXPECT_NE(text.str().find("->"), std::string::npos) << "the edge is missing: " << text.str();
  if (std::system("command -v dot > /dev/null 2>&1") != 0) {
    std::remove(path.c_str());
    GTEST_SKIP() << "Graphviz's dot is not installed (tests/scripts/setup_machine.sh installs graphviz)";
  }
  std::string cmd = "dot -Tsvg '" + path + "' -o /dev/null";
  EXPECT_EQ(std::system(cmd.c_str()), 0) << "dot -Tsvg refused " << path << ":\n" << text.str();
  std::remove(path.c_str());
}

// Memory nodes: a temporary the graph allocates and frees at each launch gives
// the results of the same work on a stream with a buffer of its own.
TEST_F(GraphBuildTest, AllocAndFreeNodesGiveTheResultsOfTheSameWorkOnAStream) {
  dc_function saxpy = kernel("saxpy");
  ASSERT_NE(saxpy, nullptr);
  const int n = 2000;
  void* in = nullptr;
  void* out = nullptr;
  dc_buffer in_buffer = pinned(n * 4, &in), out_buffer = pinned(n * 4, &out);
  ASSERT_NE(in_buffer, nullptr);
  ASSERT_NE(out_buffer, nullptr);
  dc_buffer y = alloc(n * 4);
  float a = 2.5f;
  int count = n;
  dc_launch_config c = DC_LAUNCH_CONFIG_INIT;
  c.grid[0] = (n + 255) / 256;
  c.block[0] = 256;
  uint32_t one = 0x3f800000u;  // 1.0f

  // alloc t -> copy in -> t; fill y; saxpy y = a*t + y; free t; copy y -> out.
  dc_graph g = create();
  uint64_t alloc_node = 0, copy_in = 0, fill = 0, kernel_node = 0, free_node = 0, copy_out = 0;
  dc_buffer t = nullptr;
  ASSERT_DC_OK(dc_graph_add_alloc_node(g, n * 4, nullptr, 0, &alloc_node, &t));
  ASSERT_NE(t, nullptr);
  buffers_.push_back(t);
  int32_t kind = 0;
  ASSERT_DC_OK(dc_buffer_kind(t, &kind));
  EXPECT_EQ(kind, DC_BUFFER_WRAPPED_DEVICE);
  uint64_t size = 0;
  ASSERT_DC_OK(dc_buffer_size(t, &size));
  EXPECT_EQ(size, uint64_t{n} * 4);
  ASSERT_DC_OK(dc_graph_add_copy_node(g, t, 0, in_buffer, 0, n * 4, &alloc_node, 1, &copy_in));
  ASSERT_DC_OK(dc_graph_add_fill_node(g, y, 0, n * 4, one, 4, nullptr, 0, &fill));
  dc_arg args[] = {DC_ARG_VALUE_OF(&a), DC_ARG_BUFFER_OF(t), DC_ARG_BUFFER_OF(y), DC_ARG_VALUE_OF(&count)};
  uint64_t both[] = {copy_in, fill};
  ASSERT_DC_OK(dc_graph_add_kernel_node(g, saxpy, &c, args, 4, both, 2, &kernel_node));
  ASSERT_DC_OK(dc_graph_add_free_node(g, t, &kernel_node, 1, &free_node));
  ASSERT_DC_OK(dc_graph_add_copy_node(g, out_buffer, 0, y, 0, n * 4, &kernel_node, 1, &copy_out));
  EXPECT_EQ(type(g, alloc_node), DC_GRAPH_NODE_MEM_ALLOC);
  EXPECT_EQ(type(g, free_node), DC_GRAPH_NODE_MEM_FREE);
  std::vector<uint64_t> o = order(g);
  EXPECT_LT(place(o, alloc_node), place(o, copy_in));
  EXPECT_LT(place(o, kernel_node), place(o, free_node));
  // The buffer handle may go: the free node keeps it.
  drop(buffers_, t, dc_buffer_release);

  // The same work on a stream, with a buffer of its own for the temporary.
  dc_buffer t_stream = alloc(n * 4), y_stream = alloc(n * 4);
  for (int round = 0; round < 3; ++round) {
    std::vector<float> input = random_floats(n, 700 + round);
    std::memcpy(in, input.data(), n * 4);
    ASSERT_DC_OK(dc_graph_launch(g, stream_));
    sync();
    std::vector<float> from_graph(static_cast<float*>(out), static_cast<float*>(out) + n);

    ASSERT_DC_OK(dc_buffer_copy_async(t_stream, 0, in_buffer, 0, n * 4, stream_));
    ASSERT_DC_OK(dc_buffer_fill_async(y_stream, 0, n * 4, one, 4, stream_));
    dc_arg stream_args[] = {DC_ARG_VALUE_OF(&a), DC_ARG_BUFFER_OF(t_stream), DC_ARG_BUFFER_OF(y_stream),
                            DC_ARG_VALUE_OF(&count)};
    ASSERT_DC_OK(dc_launch_kernel(saxpy, &c, stream_args, 4, stream_));
    sync();
    std::vector<float> from_stream = download<float>(y_stream, n);
    for (int i = 0; i < n; ++i) {
      ASSERT_EQ(from_graph[i], from_stream[i]) << "round " << round << " i " << i;
      // The GPU fuses a * x + 1 (one rounding): near 0 it differs from the host's
      // two roundings by an ulp of a * x, not of the result.
      ASSERT_NEAR(from_graph[i], a * input[i] + 1.0f, 1e-6f * (1.0f + std::fabs(a * input[i])))
          << "round " << round << " i " << i;
    }
  }
}

TEST_F(GraphBuildTest, MemoryNodesRefuseWhatTheDriverRefuses) {
  dc_buffer plain = alloc(256);
  dc_graph g = create(), h = create();
  uint64_t alloc_node = 0, fill = 0, node = 7;
  dc_buffer t = nullptr, foreign = nullptr, none = reinterpret_cast<dc_buffer>(1);
  EXPECT_DC_ERROR(dc_graph_add_alloc_node(g, 0, nullptr, 0, &node, &none), DC_ERROR_INVALID_ARGUMENT, "size is 0");
  EXPECT_EQ(node, 0u);
  EXPECT_EQ(none, nullptr);
  ASSERT_DC_OK(dc_graph_add_alloc_node(g, 256, nullptr, 0, &alloc_node, &t));
  buffers_.push_back(t);
  uint64_t other_alloc = 0;
  ASSERT_DC_OK(dc_graph_add_alloc_node(h, 256, nullptr, 0, &other_alloc, &foreign));
  buffers_.push_back(foreign);
  ASSERT_DC_OK(dc_graph_add_fill_node(g, t, 0, 256, 9, 1, &alloc_node, 1, &fill));

  // Launching before the memory has its free node.
  EXPECT_DC_ERROR(dc_graph_launch(g, stream_), DC_ERROR_INVALID_STATE,
                  ("alloc node " + std::to_string(alloc_node) + " has no free node").c_str());
  EXPECT_DC_ERROR(dc_graph_instantiate(g), DC_ERROR_INVALID_STATE, "has no free node");
  // Frees of what no alloc node of this graph gave.
  EXPECT_DC_ERROR(dc_graph_add_free_node(g, plain, &fill, 1, &node), DC_ERROR_INVALID_ARGUMENT,
                  "is not the buffer of an alloc node of this graph");
  EXPECT_DC_ERROR(dc_graph_add_free_node(g, foreign, &fill, 1, &node), DC_ERROR_INVALID_ARGUMENT,
                  "is not the buffer of an alloc node of this graph");
  dc_buffer part = nullptr;
  ASSERT_DC_OK(dc_buffer_view(t, 0, 128, &part));
  buffers_.push_back(part);
  EXPECT_DC_ERROR(dc_graph_add_free_node(g, part, &fill, 1, &node), DC_ERROR_INVALID_ARGUMENT,
                  "is not the buffer of an alloc node of this graph");
  // A free not ordered after the alloc node.
  EXPECT_DC_ERROR(dc_graph_add_free_node(g, t, nullptr, 0, &node), DC_ERROR_INVALID_ARGUMENT,
                  "would not run after alloc node");
  EXPECT_EQ(order(g).size(), 2u) << "a refused call changed the graph";
  uint64_t free_node = 0;
  ASSERT_DC_OK(dc_graph_add_free_node(g, t, &fill, 1, &free_node));
  EXPECT_DC_ERROR(dc_graph_add_free_node(g, t, &free_node, 1, &node), DC_ERROR_INVALID_ARGUMENT,
                  ("is freed already, by node " + std::to_string(free_node)).c_str());
  // What the driver does not do for graphs with memory nodes.
  dc_graph copy = nullptr;
  EXPECT_DC_ERROR(dc_graph_clone(g, &copy), DC_ERROR_INVALID_ARGUMENT, "cannot clone a graph with memory nodes");
  EXPECT_EQ(copy, nullptr);
  EXPECT_DC_ERROR(dc_graph_remove_node(g, fill), DC_ERROR_INVALID_ARGUMENT, "cannot remove nodes of a graph");
  dc_graph parent = create();
  EXPECT_DC_ERROR(dc_graph_add_child_graph_node(parent, g, nullptr, 0, &node), DC_ERROR_INVALID_ARGUMENT,
                  "child has memory nodes");
  // Now complete, the graph runs, at every launch.
  for (int round = 0; round < 2; ++round) {
    ASSERT_DC_OK(dc_graph_launch(g, stream_));
    sync();
  }
  // Between launches the memory is not there: the fake driver refuses a use
  // (a GPU would fault or give wrong data, undetected).
  if (dctest::fake_driver()) {
    EXPECT_NE(dc_buffer_fill(t, 0, 256, 1, 1), DC_SUCCESS) << "graph memory was usable outside a launch";
  }
  // h's alloc node is still without a free node.
  EXPECT_DC_ERROR(dc_graph_launch(h, stream_), DC_ERROR_INVALID_STATE, "has no free node");

  // A conditional node's body cannot hold memory nodes.
  dc_graph k = create();
  uint64_t condition = 0, loop = 0;
  dc_status s = dc_graph_add_conditional_node(k, DC_GRAPH_CONDITIONAL_IF, 1, 0, nullptr, 0, &condition, &loop);
  if (s == DC_ERROR_NOT_SUPPORTED) return;
  ASSERT_DC_OK(s);
  dc_graph body = nullptr;
  ASSERT_DC_OK(dc_graph_conditional_body(k, loop, 0, &body));
  graphs_.push_back(body);
  dc_buffer in_body = nullptr;
  EXPECT_DC_ERROR(dc_graph_add_alloc_node(body, 64, nullptr, 0, &node, &in_body), DC_ERROR_INVALID_ARGUMENT,
                  "the body of a conditional node, which cannot hold memory nodes");
  EXPECT_EQ(in_body, nullptr);
}

// 2D and 3D copy nodes move the bytes dc_buffer_copy_2d_async / _3d_async move
// on a stream (random data, pitched layouts on both sides), a 2D node changes
// in place, and bad regions are refused as the stream copies refuse them.
TEST_F(GraphBuildTest, TwoAndThreeDCopyNodesMoveWhatTheStreamCopiesMove) {
  const uint64_t bytes = 8192;
  std::vector<uint8_t> data(bytes);
  uint32_t seed = 12345;
  for (auto& v : data) v = static_cast<uint8_t>((seed = seed * 1664525u + 1013904223u) >> 24);
  dc_buffer src = upload(data);
  dc_buffer by_graph = alloc(bytes), by_stream = alloc(bytes);
  ASSERT_DC_OK(dc_buffer_fill(by_graph, 0, bytes, 0, 1));
  ASSERT_DC_OK(dc_buffer_fill(by_stream, 0, bytes, 0, 1));
  // 2D: 12 rows of 40 bytes, src rows 96 apart from byte 5, dst rows 64 apart from byte 3.
  // 3D: 3 planes of 5 rows of 24 bytes, src pitch 32 (6 rows a plane) from 4000,
  //     dst pitch 48 (7 rows a plane) from 2000.
  dc_graph g = create();
  uint64_t copy_2d = 0, copy_3d = 0;
  ASSERT_DC_OK(dc_graph_add_copy_2d_node(g, by_graph, 3, 64, src, 5, 96, 40, 12, nullptr, 0, &copy_2d));
  ASSERT_DC_OK(dc_graph_add_copy_3d_node(g, by_graph, 2000, 48, 7, src, 4000, 32, 6, 24, 5, 3, &copy_2d, 1,
                                         &copy_3d));
  EXPECT_EQ(type(g, copy_2d), DC_GRAPH_NODE_COPY);
  ASSERT_DC_OK(dc_graph_launch(g, stream_));
  ASSERT_DC_OK(dc_buffer_copy_2d_async(by_stream, 3, 64, src, 5, 96, 40, 12, stream_));
  ASSERT_DC_OK(dc_buffer_copy_3d_async(by_stream, 2000, 48, 7, src, 4000, 32, 6, 24, 5, 3, stream_));
  sync();
  std::vector<uint8_t> graph_bytes = download<uint8_t>(by_graph, bytes), stream_bytes = download<uint8_t>(by_stream, bytes);
  EXPECT_EQ(graph_bytes, stream_bytes);
  EXPECT_EQ(graph_bytes[3 + 64 * 11 + 39], data[5 + 96 * 11 + 39]) << "the last byte of the 2D copy";
  EXPECT_EQ(graph_bytes[2000 + 48 * (7 * 2 + 4) + 23], data[4000 + 32 * (6 * 2 + 4) + 23]) << "the 3D copy's last byte";

  // In place: another source region, the next launch copies it.
  ASSERT_DC_OK(dc_graph_set_copy_2d_node(g, copy_2d, by_graph, 3, 64, src, 1000, 80, 40, 12));
  ASSERT_DC_OK(dc_graph_launch(g, stream_));
  ASSERT_DC_OK(dc_buffer_copy_2d_async(by_stream, 3, 64, src, 1000, 80, 40, 12, stream_));
  sync();
  EXPECT_EQ(download<uint8_t>(by_graph, bytes), download<uint8_t>(by_stream, bytes));

  // Refused as the stream copies refuse, and nothing was added.
  uint64_t node = 9;
  EXPECT_DC_ERROR(dc_graph_add_copy_2d_node(g, by_graph, 0, 32, src, 0, 96, 40, 2, nullptr, 0, &node),
                  DC_ERROR_INVALID_ARGUMENT, "dst_pitch 32 is less than width 40");
  EXPECT_EQ(node, 0u);
  EXPECT_DC_ERROR(dc_graph_add_copy_2d_node(g, by_graph, 0, 64, src, 0, 96, 40, 200, nullptr, 0, &node),
                  DC_ERROR_OUT_OF_RANGE, "dst: row 128 (of 200)");
  EXPECT_DC_ERROR(dc_graph_add_copy_2d_node(g, by_graph, 0, 64, by_graph, 8, 64, 40, 4, nullptr, 0, &node),
                  DC_ERROR_INVALID_ARGUMENT, "share bytes");
  EXPECT_DC_ERROR(dc_graph_add_copy_2d_node(g, by_graph, 0, 64, src, 0, 64, 0, 4, nullptr, 0, &node),
                  DC_ERROR_INVALID_ARGUMENT, "a copy node copies at least one byte");
  EXPECT_DC_ERROR(dc_graph_add_copy_3d_node(g, by_graph, 0, 48, 3, src, 0, 32, 6, 24, 5, 2, nullptr, 0, &node),
                  DC_ERROR_INVALID_ARGUMENT, "dst_rows_per_plane 3");
  uint64_t fill = 0;
  ASSERT_DC_OK(dc_graph_add_fill_node(g, by_graph, 0, 64, 0, 1, nullptr, 0, &fill));
  EXPECT_DC_ERROR(dc_graph_set_copy_2d_node(g, fill, by_graph, 3, 64, src, 5, 96, 40, 12), DC_ERROR_INVALID_ARGUMENT,
                  "not a copy node");
  EXPECT_EQ(order(g).size(), 3u) << "a refused call changed the graph";
}

// The DOT text in memory: the length first, then the text, equal to what
// dc_graph_write_dot writes; a buffer too small is refused and left untouched.
TEST_F(GraphBuildTest, TheDotTextComesIntoABufferAsTheFileHasIt) {
  dc_buffer a = alloc(64), b = alloc(64);
  dc_graph g = create();
  uint64_t fill = 0, copy = 0;
  ASSERT_DC_OK(dc_graph_add_fill_node(g, a, 0, 64, 1, 1, nullptr, 0, &fill));
  ASSERT_DC_OK(dc_graph_add_copy_node(g, b, 0, a, 0, 64, &fill, 1, &copy));
  uint64_t length = 0;
  ASSERT_DC_OK(dc_graph_dot(g, DC_GRAPH_DOT_VERBOSE, nullptr, 0, &length));
  ASSERT_GT(length, 0u);
  std::string text(length + 1, '#');
  ASSERT_DC_OK(dc_graph_dot(g, DC_GRAPH_DOT_VERBOSE, text.data(), text.size(), &length));
  ASSERT_EQ(text[length], '\0');
  text.resize(length);
  EXPECT_EQ(std::strlen(text.c_str()), length) << "the text holds a NUL";
  EXPECT_NE(text.find("digraph"), std::string::npos) << text;
  EXPECT_NE(text.find("->"), std::string::npos) << "the edge is missing: " << text;

  std::string path = testing::TempDir() + "dccuda_graph_text_" + std::to_string(::getpid()) + ".dot";
  ASSERT_DC_OK(dc_graph_write_dot(g, path.c_str(), DC_GRAPH_DOT_VERBOSE));
  std::ifstream in(path, std::ios::binary);
  std::stringstream file;
  file << in.rdbuf();
  std::remove(path.c_str());
  EXPECT_EQ(text, file.str()) << "the buffer and the file differ";

  std::string small(length, '#');
  uint64_t told = 0;
  EXPECT_DC_ERROR(dc_graph_dot(g, DC_GRAPH_DOT_VERBOSE, small.data(), small.size(), &told), DC_ERROR_OUT_OF_RANGE,
                  ("pass a buffer of at least " + std::to_string(length + 1) + " bytes").c_str());
  EXPECT_EQ(told, 0u) << "an out is 0 after a failure";
  EXPECT_EQ(small, std::string(length, '#')) << "a refused call wrote into the buffer";
  EXPECT_DC_ERROR(dc_graph_dot(g, 0, nullptr, 16, &told), DC_ERROR_INVALID_ARGUMENT, "text is NULL but capacity is 16");
  EXPECT_DC_ERROR(dc_graph_dot(g, 0x10, nullptr, 0, &told), DC_ERROR_INVALID_ARGUMENT, "unknown bits 0x10");
}

}  // namespace
