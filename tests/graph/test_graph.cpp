// Stream capture and graphs: a graph of copies, kernels and a host function
// replayed several times on new input, instantiation, upload, update from a
// new capture (and refused updates), misuse, launches from several threads,
// injected failures. Results are checked against CPU references.
#include "loader/cuda_abi/driver_abi.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "launch/launch_test.h"

namespace {

using namespace launchtest;

class GraphTest : public LaunchTest {
 protected:
  void SetUp() override {
    LaunchTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    if (!have_nvrtc_) GTEST_SKIP() << "needs NVRTC, not found: " << dctest::nvrtc_unavailable();
  }
  dc_buffer pinned(uint64_t bytes, void** host) {
    dc_buffer b = nullptr;
    EXPECT_DC_OK(dc_buffer_alloc_pinned(device_, bytes, 0, &b));
    if (!b) return nullptr;
    buffers_.push_back(b);
    EXPECT_DC_OK(dc_buffer_host_pointer(b, host));
    return b;
  }
  dc_graph end(dc_stream s) {
    dc_graph g = nullptr;
    EXPECT_DC_OK(dc_stream_end_capture(s, &g));
    if (g) graphs_.push_back(g);
    return g;
  }
  uint64_t nodes(dc_graph g) {
    uint64_t n = 0;
    EXPECT_DC_OK(dc_graph_node_count(g, &n));
    return n;
  }
};

void count_call(void* p) { ++*static_cast<std::atomic<int>*>(p); }

// Captures: host x -> device, saxpy (y = a*x + y), vector_add (z = x + y),
// device z -> host, a host function. Returns the graph.
struct Pipeline {
  static constexpr int n = 4096;
  float* host_in = nullptr;
  float* host_out = nullptr;
  dc_buffer x = nullptr, y = nullptr, z = nullptr;
  std::atomic<int> callbacks{0};
};

TEST_F(GraphTest, KernelsCopiesAndAHostFunctionReplayOnNewInput) {
  dc_function saxpy = kernel("saxpy"), add = kernel("vector_add");
  ASSERT_NE(saxpy, nullptr);
  ASSERT_NE(add, nullptr);
  Pipeline p;
  const int n = Pipeline::n;
  void* in = nullptr;
  void* out = nullptr;
  ASSERT_NE(pinned(n * 4, &in), nullptr);
  ASSERT_NE(pinned(n * 4, &out), nullptr);
  p.host_in = static_cast<float*>(in);
  p.host_out = static_cast<float*>(out);
  p.x = alloc(n * 4);
  p.y = alloc(n * 4);
  p.z = alloc(n * 4);
  std::vector<float> y0 = random_floats(n, 51);
  ASSERT_DC_OK(dc_buffer_write(p.y, 0, y0.data(), n * 4));
  float a = 2.0f;
  int count = n;
  dc_launch_config c = DC_LAUNCH_CONFIG_INIT;
  ASSERT_DC_OK(dc_launch_config_1d(saxpy, n, 0, &c));

  int32_t capturing = -1;
  ASSERT_DC_OK(dc_stream_is_capturing(stream_, &capturing));
  EXPECT_EQ(capturing, 0);
  ASSERT_DC_OK(dc_stream_begin_capture(stream_, DC_CAPTURE_GLOBAL));
  ASSERT_DC_OK(dc_stream_is_capturing(stream_, &capturing));
  EXPECT_EQ(capturing, 1);
  ASSERT_DC_OK(dc_buffer_write_async(p.x, 0, p.host_in, n * 4, stream_));
  dc_arg sargs[] = {value_of(a), buffer_arg(p.x), buffer_arg(p.y), value_of(count)};
  ASSERT_DC_OK(dc_launch_kernel(saxpy, &c, sargs, 4, stream_));
  dc_arg aargs[] = {buffer_arg(p.x), buffer_arg(p.y), buffer_arg(p.z), value_of(count)};
  ASSERT_DC_OK(dc_launch_kernel(add, &c, aargs, 4, stream_));
  ASSERT_DC_OK(dc_buffer_read_async(p.z, 0, p.host_out, n * 4, stream_));
  ASSERT_DC_OK(dc_stream_add_callback(stream_, count_call, &p.callbacks));
  dc_graph g = end(stream_);
  ASSERT_NE(g, nullptr);
  ASSERT_DC_OK(dc_stream_is_capturing(stream_, &capturing));
  EXPECT_EQ(capturing, 0);
  EXPECT_EQ(nodes(g), 5u);
  EXPECT_EQ(p.callbacks.load(), 0) << "a captured host function ran during the capture";

  // Each replay reads the pinned input as it is then; y accumulates.
  std::vector<float> y = y0;
  for (int round = 0; round < 3; ++round) {
    std::vector<float> x = random_floats(n, 60 + round);
    std::memcpy(p.host_in, x.data(), n * 4);
    ASSERT_DC_OK(dc_graph_launch(g, stream_));
    sync();
    for (int i = 0; i < n; ++i) {
      y[i] = a * x[i] + y[i];
      float want = x[i] + y[i];
      ASSERT_NEAR(p.host_out[i], want, 1e-4f * std::max(1.0f, std::fabs(want))) << "round " << round << " " << i;
    }
    EXPECT_EQ(p.callbacks.load(), round + 1);
  }
}

TEST_F(GraphTest, InstantiateAndUploadAreIdempotent) {
  dc_function fill = kernel("fill_u32");
  ASSERT_NE(fill, nullptr);
  const uint64_t n = 1000;
  dc_buffer b = upload(std::vector<uint32_t>(n, 0));
  uint32_t value = 9;
  dc_arg args[] = {buffer_arg(b), value_of(value), value_of(n)};
  dc_launch_config c = config_1d(4, 256);
  ASSERT_DC_OK(dc_stream_begin_capture(stream_, DC_CAPTURE_THREAD_LOCAL));
  ASSERT_DC_OK(dc_launch_kernel(fill, &c, args, 3, stream_));
  dc_graph g = end(stream_);
  ASSERT_NE(g, nullptr);
  ASSERT_DC_OK(dc_graph_instantiate(g));
  ASSERT_DC_OK(dc_graph_instantiate(g));
  ASSERT_DC_OK(dc_graph_upload(g, stream_));
  ASSERT_DC_OK(dc_graph_upload(g, stream_));
  // Nothing ran yet: capture records, instantiation and upload do not run.
  std::vector<uint32_t> before = download<uint32_t>(b, n);
  for (uint64_t i = 0; i < n; ++i) ASSERT_EQ(before[i], 0u) << i;
  ASSERT_DC_OK(dc_graph_launch(g, stream_));
  sync();
  std::vector<uint32_t> after = download<uint32_t>(b, n);
  for (uint64_t i = 0; i < n; ++i) ASSERT_EQ(after[i], 9u) << i;
  if (auto* fake = dctest::fake_driver()) {
    EXPECT_EQ(fake->live("graph_execs"), 1);
  }
}

// Captures fill_u32(b, value) [+ an extra fill when `extra`] on `s`.
dc_graph capture_fill(GraphTest* t, dc_stream s, dc_function fill, dc_buffer b, uint32_t value, uint64_t n, bool extra,
                      std::vector<dc_graph>* keep) {
  dc_arg args[] = {buffer_arg(b), value_of(value), value_of(n)};
  dc_launch_config c = config_1d(static_cast<uint32_t>((n + 255) / 256), 256);
  EXPECT_DC_OK(dc_stream_begin_capture(s, DC_CAPTURE_RELAXED));
  EXPECT_DC_OK(dc_launch_kernel(fill, &c, args, 3, s));
  if (extra) EXPECT_DC_OK(dc_launch_kernel(fill, &c, args, 3, s));
  dc_graph g = nullptr;
  EXPECT_DC_OK(dc_stream_end_capture(s, &g));
  if (g) keep->push_back(g);
  (void)t;
  return g;
}

TEST_F(GraphTest, UpdateTakesNewParametersAndRefusesAnotherTopology) {
  dc_function fill = kernel("fill_u32");
  ASSERT_NE(fill, nullptr);
  const uint64_t n = 512;
  dc_buffer b1 = upload(std::vector<uint32_t>(n, 0)), b2 = upload(std::vector<uint32_t>(n, 0));
  dc_graph g = capture_fill(this, stream_, fill, b1, 1, n, false, &graphs_);
  ASSERT_NE(g, nullptr);
  ASSERT_DC_OK(dc_graph_launch(g, stream_));
  sync();
  EXPECT_EQ(download<uint32_t>(b1, n)[n - 1], 1u);

  // Same topology, other buffer and value: the instantiated graph takes them.
  dc_graph same = capture_fill(this, stream_, fill, b2, 2, n, false, &graphs_);
  ASSERT_DC_OK(dc_graph_update(g, same));
  ASSERT_DC_OK(dc_graph_launch(g, stream_));
  sync();
  EXPECT_EQ(download<uint32_t>(b2, n)[0], 2u);
  EXPECT_EQ(download<uint32_t>(b2, n)[n - 1], 2u);

  // Another topology: refused with the driver's reason, the graph unchanged.
  dc_graph other = capture_fill(this, stream_, fill, b1, 3, n, true, &graphs_);
  EXPECT_DC_ERROR(dc_graph_update(g, other), DC_ERROR_INVALID_ARGUMENT,
                  "source cannot update graph: CU_GRAPH_EXEC_UPDATE_ERROR_TOPOLOGY_CHANGED");
  EXPECT_NE(std::string(dc_last_error_message()).find("graph has 1 nodes, source has 2"), std::string::npos)
      << dc_last_error_message();
  ASSERT_DC_OK(dc_buffer_fill(b2, 0, n * 4, 0, 4));
  ASSERT_DC_OK(dc_graph_launch(g, stream_));
  sync();
  EXPECT_EQ(download<uint32_t>(b2, n)[0], 2u) << "a refused update changed the graph";
  EXPECT_EQ(download<uint32_t>(b1, n)[0], 1u);

  // A node of another type at the same place.
  ASSERT_DC_OK(dc_stream_begin_capture(stream_, DC_CAPTURE_RELAXED));
  ASSERT_DC_OK(dc_buffer_fill_async(b1, 0, n * 4, 5, 4, stream_));
  dc_graph fills = end(stream_);
  ASSERT_NE(fills, nullptr);
  EXPECT_DC_ERROR(dc_graph_update(g, fills), DC_ERROR_INVALID_ARGUMENT, "source cannot update graph: CU_GRAPH_EXEC_UPDATE_ERROR");
  EXPECT_DC_ERROR(dc_graph_update(g, nullptr), DC_ERROR_INVALID_HANDLE, "source is NULL");
}

TEST_F(GraphTest, MisuseIsAnsweredClearly) {
  dc_graph g = reinterpret_cast<dc_graph>(uintptr_t{1});
  EXPECT_DC_ERROR(dc_stream_end_capture(stream_, &g), DC_ERROR_INVALID_STATE,
                  "stream is not capturing; call dc_stream_begin_capture first");
  EXPECT_EQ(g, nullptr);
  EXPECT_DC_ERROR(dc_stream_begin_capture(stream_, 7), DC_ERROR_INVALID_ARGUMENT, "mode is 7");
  dc_stream legacy = nullptr, per_thread = nullptr;
  ASSERT_DC_OK(dc_stream_get_default(device_, DC_STREAM_LEGACY, &legacy));
  streams_.push_back(legacy);
  ASSERT_DC_OK(dc_stream_get_default(device_, DC_STREAM_PER_THREAD, &per_thread));
  streams_.push_back(per_thread);
  EXPECT_DC_ERROR(dc_stream_begin_capture(legacy, DC_CAPTURE_GLOBAL), DC_ERROR_INVALID_ARGUMENT,
                  "one of the device's default streams");
  EXPECT_DC_ERROR(dc_stream_begin_capture(per_thread, DC_CAPTURE_GLOBAL), DC_ERROR_INVALID_ARGUMENT,
                  "default streams");
  ASSERT_DC_OK(dc_stream_begin_capture(stream_, DC_CAPTURE_GLOBAL));
  EXPECT_DC_ERROR(dc_stream_begin_capture(stream_, DC_CAPTURE_GLOBAL), DC_ERROR_INVALID_STATE,
                  "stream is already capturing");
  dc_graph empty = end(stream_);
  ASSERT_NE(empty, nullptr);
  EXPECT_EQ(nodes(empty), 0u);
  EXPECT_DC_ERROR(dc_stream_end_capture(stream_, nullptr), DC_ERROR_INVALID_ARGUMENT, "graph is NULL");

  // A released graph.
  dc_graph released = nullptr;
  ASSERT_DC_OK(dc_stream_begin_capture(stream_, DC_CAPTURE_GLOBAL));
  ASSERT_DC_OK(dc_stream_end_capture(stream_, &released));
  dc_graph_release(released);
  dc_graph_release(released);
  dc_graph_release(nullptr);
  EXPECT_DC_ERROR(dc_graph_launch(released, stream_), DC_ERROR_INVALID_HANDLE, "graph");
  EXPECT_DC_ERROR(dc_graph_launch(nullptr, stream_), DC_ERROR_INVALID_HANDLE, "graph is NULL");
  EXPECT_DC_ERROR(dc_graph_launch(empty, nullptr), DC_ERROR_INVALID_HANDLE, "stream is NULL");
  EXPECT_DC_ERROR(dc_graph_instantiate(released), DC_ERROR_INVALID_HANDLE, "graph");
  uint64_t count = 9;
  EXPECT_DC_ERROR(dc_graph_node_count(released, &count), DC_ERROR_INVALID_HANDLE, "graph");
  EXPECT_EQ(count, 0u);
  EXPECT_DC_ERROR(dc_graph_node_count(empty, nullptr), DC_ERROR_INVALID_ARGUMENT, "count is NULL");
  int32_t capturing = 0;
  EXPECT_DC_ERROR(dc_stream_is_capturing(stream_, nullptr), DC_ERROR_INVALID_ARGUMENT, "capturing is NULL");
  EXPECT_DC_ERROR(dc_stream_is_capturing(nullptr, &capturing), DC_ERROR_INVALID_HANDLE, "stream is NULL");
  // An empty graph launches (and does nothing).
  EXPECT_DC_OK(dc_graph_launch(empty, stream_));
  sync();
}

// Synchronising a capturing stream is not allowed: the driver refuses it and
// the capture ends invalidated.
TEST_F(GraphTest, ASynchronisationInvalidatesTheCapture) {
  dc_function fill = kernel("fill_u32");
  ASSERT_NE(fill, nullptr);
  const uint64_t n = 64;
  dc_buffer b = alloc(n * 4);
  uint32_t value = 1;
  dc_arg args[] = {buffer_arg(b), value_of(value), value_of(n)};
  dc_launch_config c = config_1d(1, 64);
  ASSERT_DC_OK(dc_stream_begin_capture(stream_, DC_CAPTURE_RELAXED));
  ASSERT_DC_OK(dc_launch_kernel(fill, &c, args, 3, stream_));
  EXPECT_NE(dc_stream_synchronize(stream_), DC_SUCCESS);
  dc_graph g = nullptr;
  EXPECT_DC_ERROR(dc_stream_end_capture(stream_, &g), DC_ERROR_INVALID_STATE, "the capture was invalidated");
  EXPECT_EQ(g, nullptr);
  int32_t capturing = -1;
  ASSERT_DC_OK(dc_stream_is_capturing(stream_, &capturing));
  EXPECT_EQ(capturing, 0);
  // The stream works again.
  ASSERT_DC_OK(dc_launch_kernel(fill, &c, args, 3, stream_));
  sync();
}

// Another thread waits for the whole device while this one captures: the
// driver would refuse and invalidate the capture (found on an H200 by the
// stress test); dccuda refuses first and the capture goes on. Trimming the
// pool and the out-of-memory retry do not wait for the device meanwhile.
TEST_F(GraphTest, ADeviceWaitDuringACaptureIsRefusedAndTheCaptureSurvives) {
  dc_function fill = kernel("fill_u32");
  ASSERT_NE(fill, nullptr);
  const uint64_t n = 64;
  dc_buffer b = alloc(n * 4);
  uint32_t value = 9;
  dc_arg args[] = {buffer_arg(b), value_of(value), value_of(n)};
  dc_launch_config c = config_1d(1, 64);
  ASSERT_DC_OK(dc_stream_begin_capture(stream_, DC_CAPTURE_THREAD_LOCAL));
  ASSERT_DC_OK(dc_launch_kernel(fill, &c, args, 3, stream_));
  dc_status from_other_thread = DC_SUCCESS;
  std::string message;
  dc_status trim = DC_ERROR_INTERNAL;
  std::thread other([&] {
    from_other_thread = dc_device_synchronize(device_);
    message = dc_last_error_message();
    trim = dc_device_trim_memory(device_, 0);
  });
  other.join();
  EXPECT_EQ(from_other_thread, DC_ERROR_INVALID_STATE);
  EXPECT_EQ(message.rfind("dc_device_synchronize: device 0 has 1 stream(s) capturing a graph", 0), 0u) << message;
  EXPECT_EQ(trim, DC_SUCCESS);
  dc_graph g = end(stream_);
  ASSERT_NE(g, nullptr) << "the capture was invalidated";
  EXPECT_EQ(nodes(g), 1u);
  ASSERT_DC_OK(dc_graph_launch(g, stream_));
  sync();
  EXPECT_EQ(download<uint32_t>(b, n)[n - 1], 9u);
  // Without a capture the device wait works again.
  EXPECT_DC_OK(dc_device_synchronize(device_));
}

// A prepared launch enqueued into a capture, and a buffer released while its
// stream captures (the memory code frees it outside the capture).
TEST_F(GraphTest, PreparedLaunchesAreCapturedAndBuffersMayGoDuringCapture) {
  dc_function fill = kernel("fill_u32");
  ASSERT_NE(fill, nullptr);
  const uint64_t n = 256;
  dc_buffer b = upload(std::vector<uint32_t>(n, 0));
  dc_launch l = prepare(fill, config_1d(1, 256));
  uint32_t value = 4;
  dc_arg args[] = {buffer_arg(b), value_of(value), value_of(n)};
  ASSERT_DC_OK(dc_launch_set_args(l, args, 3));
  dc_buffer temporary = nullptr;
  ASSERT_DC_OK(dc_buffer_alloc(device_, 4096, 0, &temporary));
  ASSERT_DC_OK(dc_stream_begin_capture(stream_, DC_CAPTURE_RELAXED));
  ASSERT_DC_OK(dc_launch_enqueue(l, stream_));
  ASSERT_DC_OK(dc_buffer_fill_async(temporary, 0, 4096, 0, 4, stream_));
  dc_buffer_release(temporary);
  dc_graph g = end(stream_);
  ASSERT_NE(g, nullptr);
  EXPECT_EQ(nodes(g), 2u);
  // The prepared launch still works outside the capture.
  value = 6;
  dc_arg v = value_of(value);
  ASSERT_DC_OK(dc_launch_set_arg(l, 1, &v));
  ASSERT_DC_OK(dc_launch_enqueue(l, stream_));
  sync();
  EXPECT_EQ(download<uint32_t>(b, n)[n - 1], 6u);
}

TEST_F(GraphTest, LaunchesFromSeveralThreadsAreSerialised) {
  dc_function fill = kernel("fill_u32");
  ASSERT_NE(fill, nullptr);
  const uint64_t n = 256;
  dc_buffer b = alloc(n * 4);
  uint32_t value = 3;
  dc_arg args[] = {buffer_arg(b), value_of(value), value_of(n)};
  dc_launch_config c = config_1d(1, 256);
  std::atomic<int> callbacks{0};
  ASSERT_DC_OK(dc_stream_begin_capture(stream_, DC_CAPTURE_GLOBAL));
  ASSERT_DC_OK(dc_launch_kernel(fill, &c, args, 3, stream_));
  ASSERT_DC_OK(dc_stream_add_callback(stream_, count_call, &callbacks));
  dc_graph g = end(stream_);
  ASSERT_NE(g, nullptr);
  const int threads = 4, each = 10;
  std::vector<dc_stream> streams;
  for (int t = 0; t < threads; ++t) streams.push_back(new_stream());
  std::atomic<int> failures{0};
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      for (int i = 0; i < each; ++i)
        if (dc_graph_launch(g, streams[t]) != DC_SUCCESS) ++failures;
      if (dc_stream_synchronize(streams[t]) != DC_SUCCESS) ++failures;
    });
  for (std::thread& t : pool) t.join();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_EQ(callbacks.load(), threads * each);
  EXPECT_EQ(download<uint32_t>(b, n)[0], 3u);
}

// A host function captured into a graph runs, at every launch, as one on a
// stream does: marked as a host function, so a dc_ call from it is refused
// instead of waiting on the stream that runs it (it ran unmarked before), and
// through dccuda's record, which the graph keeps for as long as it can run.
struct CapturedCall {
  dc_stream stream = nullptr;
  std::vector<dc_status> statuses;
};
void synchronise_from_callback(void* p) {
  auto* call = static_cast<CapturedCall*>(p);
  call->statuses.push_back(dc_stream_synchronize(call->stream));
}

TEST_F(GraphTest, ACapturedHostFunctionRunsMarkedAtEveryLaunch) {
  CapturedCall call;
  call.stream = stream_;
  ASSERT_DC_OK(dc_stream_begin_capture(stream_, DC_CAPTURE_GLOBAL));
  ASSERT_DC_OK(dc_stream_add_callback(stream_, synchronise_from_callback, &call));
  dc_graph g = end(stream_);
  ASSERT_NE(g, nullptr);
  dc_stream other = new_stream();
  for (int i = 0; i < 3; ++i) ASSERT_DC_OK(dc_graph_launch(g, other));
  ASSERT_DC_OK(dc_stream_synchronize(other));
  ASSERT_EQ(call.statuses.size(), 3u);
  for (dc_status s : call.statuses) EXPECT_EQ(s, DC_ERROR_INVALID_STATE);
}

// The graph refers to its kernels by CUfunction: it keeps their modules
// loaded after the caller released the function and module handles.
TEST_F(GraphTest, AGraphKeepsItsKernelsModulesLoaded) {
  dc_module m = nullptr;
  ASSERT_DC_OK(dc_module_compile_and_load(device_, dctest::kLaunchKernels, "kept.cu", nullptr, &m));
  dc_function fill = nullptr;
  ASSERT_DC_OK(dc_module_get_function(m, "fill_u32", &fill));
  const uint64_t n = 300;
  dc_buffer b = upload(std::vector<uint32_t>(n, 0));
  uint32_t value = 12;
  dc_arg args[] = {buffer_arg(b), value_of(value), value_of(n)};
  dc_launch_config c = config_1d(2, 256);
  dc_launch l = nullptr;
  ASSERT_DC_OK(dc_launch_create(fill, &c, &l));
  ASSERT_DC_OK(dc_launch_set_args(l, args, 3));
  ASSERT_DC_OK(dc_stream_begin_capture(stream_, DC_CAPTURE_GLOBAL));
  ASSERT_DC_OK(dc_launch_kernel(fill, &c, args, 3, stream_));
  ASSERT_DC_OK(dc_launch_enqueue(l, stream_));
  dc_launch_release(l);
  dc_function_release(fill);
  dc_module_release(m);
  long modules = dctest::fake_driver() ? dctest::fake_driver()->live("modules") : 0;
  dc_graph g = end(stream_);
  ASSERT_NE(g, nullptr);
  if (dctest::fake_driver()) {
    EXPECT_GE(modules, 1) << "the module was unloaded under the capture";
  }
  ASSERT_DC_OK(dc_graph_launch(g, stream_));
  sync();
  std::vector<uint32_t> got = download<uint32_t>(b, n);
  for (uint64_t i = 0; i < n; ++i) ASSERT_EQ(got[i], 12u) << i;
  // Unloaded with the graph.
  dc_graph_release(g);
  graphs_.erase(std::find(graphs_.begin(), graphs_.end(), g));
  if (auto* fake = dctest::fake_driver()) {
    EXPECT_EQ(fake->live("modules"), modules - 1);
  }
}

// A graph launched into a capture becomes a child graph: the new graph keeps
// it (and its kernels' modules) alive.
TEST_F(GraphTest, AGraphLaunchedIntoACaptureIsKeptByTheNewGraph) {
  dc_module m = nullptr;
  ASSERT_DC_OK(dc_module_compile_and_load(device_, dctest::kLaunchKernels, "child.cu", nullptr, &m));
  dc_function fill = nullptr;
  ASSERT_DC_OK(dc_module_get_function(m, "fill_u32", &fill));
  const uint64_t n = 100;
  dc_buffer b = upload(std::vector<uint32_t>(n, 0));
  uint32_t value = 21;
  dc_arg args[] = {buffer_arg(b), value_of(value), value_of(n)};
  dc_launch_config c = config_1d(1, 128);
  ASSERT_DC_OK(dc_stream_begin_capture(stream_, DC_CAPTURE_RELAXED));
  ASSERT_DC_OK(dc_launch_kernel(fill, &c, args, 3, stream_));
  dc_function_release(fill);
  dc_module_release(m);
  dc_graph child = nullptr;
  ASSERT_DC_OK(dc_stream_end_capture(stream_, &child));
  dc_stream outer = new_stream();
  ASSERT_DC_OK(dc_stream_begin_capture(outer, DC_CAPTURE_RELAXED));
  dc_status launched = dc_graph_launch(child, outer);
  std::string why = dc_last_error_message();
  dc_graph parent = nullptr;
  dc_status ended = dc_stream_end_capture(outer, &parent);
  dc_graph_release(child);
  if (launched != DC_SUCCESS && !dctest::fake_driver()) {
    dc_graph_release(parent);
    GTEST_SKIP() << "this driver does not capture a graph launch: " << why;
  }
  ASSERT_EQ(launched, DC_SUCCESS) << why;
  ASSERT_EQ(ended, DC_SUCCESS) << dc_last_error_message();
  graphs_.push_back(parent);
  EXPECT_EQ(nodes(parent), 1u);
  ASSERT_DC_OK(dc_graph_launch(parent, stream_));
  sync();
  EXPECT_EQ(download<uint32_t>(b, n)[n - 1], 21u);
}

TEST_F(GraphTest, InjectedFailuresAreReportedAndRecoverable) {
  REQUIRE_FAKE_DRIVER();
  dc_function fill = kernel("fill_u32");
  ASSERT_NE(fill, nullptr);
  const uint64_t n = 64;
  dc_buffer b = alloc(n * 4);
  uint32_t value = 8;
  dc_arg args[] = {buffer_arg(b), value_of(value), value_of(n)};
  dc_launch_config c = config_1d(1, 64);
  dctest::fake_driver()->inject("cuStreamBeginCapture", 1, CUDA_ERROR_OUT_OF_MEMORY, 1);
  EXPECT_DC_ERROR(dc_stream_begin_capture(stream_, DC_CAPTURE_GLOBAL), DC_ERROR_OUT_OF_MEMORY, "cuStreamBeginCapture");
  ASSERT_DC_OK(dc_stream_begin_capture(stream_, DC_CAPTURE_GLOBAL));
  ASSERT_DC_OK(dc_launch_kernel(fill, &c, args, 3, stream_));
  dc_graph g = end(stream_);
  ASSERT_NE(g, nullptr);
  dctest::fake_driver()->inject("cuGraphInstantiateWithFlags", 1, CUDA_ERROR_OUT_OF_MEMORY, 1);
  EXPECT_DC_ERROR(dc_graph_launch(g, stream_), DC_ERROR_OUT_OF_MEMORY, "cuGraphInstantiateWithFlags");
  // Instantiation is tried again by the next launch.
  ASSERT_DC_OK(dc_graph_launch(g, stream_));
  dctest::fake_driver()->inject("cuGraphLaunch", 1, CUDA_ERROR_ILLEGAL_ADDRESS, 1);
  EXPECT_DC_ERROR(dc_graph_launch(g, stream_), DC_ERROR_CONTEXT_LOST, "cuGraphLaunch failed with CUDA_ERROR_ILLEGAL_ADDRESS");
  EXPECT_DC_ERROR(dc_graph_launch(g, stream_), DC_ERROR_CONTEXT_LOST, "context is lost");
  ASSERT_DC_OK(dc_device_reset(device_));
  EXPECT_DC_ERROR(dc_graph_launch(g, stream_), DC_ERROR_CONTEXT_LOST, "before dc_device_reset()");
  release_all();
  dc_stream_release(stream_);
  stream_ = nullptr;
}

}  // namespace
