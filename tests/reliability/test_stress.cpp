// Stress: many threads (16 by default) share devices, streams, buffers and a
// module for a bounded time, each doing a random mix of work with its results
// checked: allocating (device, pool, pinned memory), writing, copying and
// reading back, launching saxpy one-shot and prepared, capturing and
// replaying a graph, making and releasing streams, events and modules. A
// churn thread keeps replacing the shared buffers and streams, releasing the
// old ones while other threads may still be using them: such a call must
// either work or say DC_ERROR_INVALID_HANDLE. Any other failure, any wrong
// result, a crash, a leak, or (in CI, under ThreadSanitizer) a data race
// fails the test.
//
// DCTEST_STRESS_SECONDS (default 3) and DCTEST_STRESS_THREADS (default 16)
// set the length and the width; DCTEST_STRESS_OPS (a comma-separated list of
// kOpKeys, default all) narrows the mix, to find which work a failure needs.
// Runs on the fake driver and on a real GPU.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "compile/kernel_sources.h"
#include "dccuda.h"
#include "support/fake.h"

namespace {

double env_number(const char* name, double fallback) {
  const char* v = std::getenv(name);
  return v && *v ? std::atof(v) : fallback;
}

constexpr uint64_t kSourceBytes = 64 * 1024;  // each shared source buffer
constexpr int kSlots = 4;                      // shared buffers and streams

// The pattern every shared source buffer holds (its replacements too).
uint8_t source_byte(uint64_t i) { return static_cast<uint8_t>((i * 2654435761u) >> 13); }

enum Op { kAlloc, kCopy, kShared, kLaunch, kPrepared, kGraph, kStreamEvent, kModule, kHandles, kOpCount };
const char* const kOpNames[] = {"alloc+copy", "buffer copies", "shared reads", "launches", "prepared launches",
                                "graphs", "streams+events", "modules", "handle queries"};
const char* const kOpKeys[] = {"alloc", "copy", "shared", "launch", "prepared", "graph", "stream", "module", "handles"};

// The ops DCTEST_STRESS_OPS names (all when unset); an unknown name is an error.
std::vector<Op> selected_ops(std::string& error) {
  const char* v = std::getenv("DCTEST_STRESS_OPS");
  std::vector<Op> ops;
  if (!v || !*v) {
    for (int i = 0; i < kOpCount; ++i) ops.push_back(static_cast<Op>(i));
    return ops;
  }
  std::string list = v;
  for (size_t start = 0; start <= list.size();) {
    size_t end = list.find(',', start);
    if (end == std::string::npos) end = list.size();
    std::string key = list.substr(start, end - start);
    int found = -1;
    for (int i = 0; i < kOpCount; ++i) found = key == kOpKeys[i] ? i : found;
    if (found < 0) {
      error = "DCTEST_STRESS_OPS: unknown op '" + key + "'";
      return {};
    }
    ops.push_back(static_cast<Op>(found));
    start = end + 1;
  }
  return ops;
}

struct Shared {
  std::vector<dc_device> devices;
  dc_program program = nullptr;
  dc_module module = nullptr;        // on devices[0]
  dc_function saxpy = nullptr;
  std::atomic<dc_buffer> sources[kSlots] = {};  // read-only content, replaced by the churn thread
  std::atomic<dc_stream> streams[kSlots] = {};  // shared streams, replaced by the churn thread
  std::vector<Op> mix;               // the ops workers pick from
  std::atomic<bool> stop{false};
  std::atomic<long> ops[kOpCount] = {};
  std::atomic<long> raced{0};  // calls refused because a shared handle was released meanwhile
  std::mutex failures_mutex;
  std::vector<std::string> failures;

  void fail(const std::string& what) {
    std::lock_guard<std::mutex> g(failures_mutex);
    if (failures.size() < 20) failures.push_back(what);
    stop.store(true);
  }
};

dc_buffer make_source(dc_device d) {
  dc_buffer b = nullptr;
  if (dc_buffer_alloc(d, kSourceBytes, 0, &b) != DC_SUCCESS) return nullptr;
  std::vector<uint8_t> data(kSourceBytes);
  for (uint64_t i = 0; i < kSourceBytes; ++i) data[i] = source_byte(i);
  if (dc_buffer_write(b, 0, data.data(), kSourceBytes) != DC_SUCCESS) {
    dc_buffer_release(b);
    return nullptr;
  }
  return b;
}

class Worker {
 public:
  Worker(Shared& s, int index) : s_(s), index_(index), rng_(static_cast<uint32_t>(0x5EED + index)) {}

  void run() {
    dc_device d = s_.devices[0];
    while (!s_.stop.load(std::memory_order_relaxed)) {
      Op op = s_.mix[rng_() % s_.mix.size()];
      bool ok = true;
      switch (op) {
        case kAlloc: ok = alloc_and_copy(s_.devices[rng_() % s_.devices.size()]); break;
        case kCopy: ok = buffer_copies(d); break;
        case kShared: ok = shared_read(d); break;
        case kLaunch: ok = launch(d, false); break;
        case kPrepared: ok = launch(d, true); break;
        case kGraph: ok = graph(d); break;
        case kStreamEvent: ok = stream_event(d); break;
        case kModule: ok = module(d); break;
        case kHandles: ok = handles(); break;
        default: break;
      }
      if (!ok) return;
      s_.ops[op].fetch_add(1, std::memory_order_relaxed);
    }
  }

 private:
  // Waits for the whole device. Refused (DC_ERROR_INVALID_STATE) while a
  // stream of it captures a graph, which other threads do: try again.
  bool wait_for_device(dc_device d) {
    dc_status st = DC_ERROR_INVALID_STATE;
    while ((st = dc_device_synchronize(d)) == DC_ERROR_INVALID_STATE) std::this_thread::yield();
    return must(st, "device synchronize");
  }

  // A call that must work.
  bool must(dc_status st, const char* what) {
    if (st == DC_SUCCESS) return true;
    s_.fail(std::string("thread ") + std::to_string(index_) + ": " + what + ": " + dc_status_name(st) + ": " +
            dc_last_error_message());
    return false;
  }
  // A call on a shared handle the churn thread may have released: DC_ERROR_INVALID_HANDLE is allowed.
  // Returns 1 if it worked, 0 if it raced, -1 on a real failure.
  int may_race(dc_status st, const char* what) {
    if (st == DC_SUCCESS) return 1;
    if (st == DC_ERROR_INVALID_HANDLE) {
      s_.raced.fetch_add(1, std::memory_order_relaxed);
      return 0;
    }
    must(st, what);
    return -1;
  }
  bool check(bool cond, const std::string& what) {
    if (!cond) s_.fail("thread " + std::to_string(index_) + ": wrong result: " + what);
    return cond;
  }
  std::vector<uint8_t> random_bytes(size_t n) {
    std::vector<uint8_t> v(n);
    for (size_t i = 0; i < n; ++i) v[i] = static_cast<uint8_t>(rng_());
    return v;
  }

  bool alloc_and_copy(dc_device d) {
    uint64_t n = 1 + rng_() % (256 * 1024);
    dc_buffer a = nullptr, b = nullptr;
    uint32_t kind = rng_() % 3;
    dc_status st = kind == 0   ? dc_buffer_alloc(d, n, 0, &a)
                   : kind == 1 ? dc_buffer_alloc(d, n, DC_ALLOC_NO_POOL, &a)
                               : dc_buffer_alloc_pinned(d, n, 0, &a);
    if (!must(st, "allocate")) return false;
    bool ok = must(dc_buffer_alloc(d, n, 0, &b), "allocate");
    std::vector<uint8_t> data = random_bytes(static_cast<size_t>(n)), back(static_cast<size_t>(n));
    ok = ok && must(dc_buffer_write(a, 0, data.data(), n), "write");
    ok = ok && must(dc_buffer_copy(b, 0, a, 0, n), "copy");
    ok = ok && must(dc_buffer_read(b, 0, back.data(), n), "read");
    ok = ok && check(back == data, "a buffer read back differs from what was written");
    dc_buffer_release(a);
    dc_buffer_release(b);
    return ok;
  }

  bool buffer_copies(dc_device d) {
    // Asynchronous copies on an own stream, between own buffers and with pinned memory.
    uint64_t n = 4096 * (1 + rng_() % 16);
    dc_stream st = nullptr;
    dc_buffer dev = nullptr, pinned = nullptr;
    bool ok = must(dc_stream_create(d, 0, 0, &st), "stream") && must(dc_buffer_alloc_async(st, n, 0, &dev), "alloc async") &&
              must(dc_buffer_alloc_pinned(d, n, 0, &pinned), "pinned");
    std::vector<uint8_t> data = random_bytes(static_cast<size_t>(n));
    void* host = nullptr;
    ok = ok && must(dc_buffer_host_pointer(pinned, &host), "host pointer");
    if (ok) std::memcpy(host, data.data(), static_cast<size_t>(n));
    ok = ok && must(dc_buffer_copy_async(dev, 0, pinned, 0, n, st), "copy async");
    ok = ok && must(dc_buffer_fill_async(pinned, 0, n, 0, 4, st), "fill async");
    ok = ok && must(dc_buffer_copy_async(pinned, 0, dev, 0, n, st), "copy back async");
    ok = ok && must(dc_stream_synchronize(st), "synchronize");
    ok = ok && check(std::memcmp(host, data.data(), static_cast<size_t>(n)) == 0, "an asynchronous round trip differs");
    dc_buffer_release(dev);  // freed in stream order
    dc_buffer_release(pinned);
    dc_stream_release(st);
    return ok;
  }

  bool shared_read(dc_device d) {
    // Copies out of a shared source buffer on a shared stream; either may be
    // released by the churn thread meanwhile.
    uint64_t off = rng_() % (kSourceBytes - 1024), n = 1 + rng_() % 1024;
    dc_buffer own = nullptr;
    if (!must(dc_buffer_alloc(d, n, 0, &own), "allocate")) return false;
    dc_buffer src = s_.sources[rng_() % kSlots].load();
    dc_stream st = s_.streams[rng_() % kSlots].load();
    std::vector<uint8_t> back(static_cast<size_t>(n));
    bool ok = true;
    int r = may_race(dc_buffer_copy_async(own, 0, src, off, n, st), "copy from a shared buffer");
    if (r > 0) r = may_race(dc_buffer_read_async(own, 0, back.data(), n, st), "read on a shared stream");
    if (r > 0) r = may_race(dc_stream_synchronize(st), "synchronize a shared stream");
    if (r > 0) {
      bool same = true;
      for (uint64_t i = 0; i < n; ++i) same = same && back[i] == source_byte(off + i);
      ok = check(same, "a copy of a shared buffer differs");
    }
    if (r < 0) ok = false;
    // The copy may still be in flight on the shared stream (if it raced): the
    // buffer is freed in stream order; `back` must outlive it, so wait.
    if (r == 0) {
      dc_buffer_release(own);
      own = nullptr;
      ok = wait_for_device(d) && ok;
    }
    dc_buffer_release(own);
    return ok;
  }

  bool launch(dc_device d, bool prepared) {
    const int n = 1 + static_cast<int>(rng_() % 5000);
    std::vector<float> x(n), y(n);
    for (int i = 0; i < n; ++i) {
      x[i] = static_cast<float>(rng_() % 1000) / 8.0f;
      y[i] = static_cast<float>(rng_() % 1000) / 8.0f;
    }
    float a = static_cast<float>(1 + rng_() % 4);
    dc_buffer bx = nullptr, by = nullptr;
    dc_stream st = nullptr;
    bool own_stream = rng_() % 2;
    bool ok = must(dc_buffer_alloc(d, n * 4, 0, &bx), "allocate x") && must(dc_buffer_alloc(d, n * 4, 0, &by), "allocate y");
    ok = ok && must(dc_buffer_write(bx, 0, x.data(), n * 4), "write x") && must(dc_buffer_write(by, 0, y.data(), n * 4), "write y");
    if (ok && own_stream) ok = must(dc_stream_create(d, 0, 0, &st), "stream");
    dc_stream use = own_stream ? st : s_.streams[rng_() % kSlots].load();
    dc_arg args[] = {{DC_ARG_VALUE, 4, &a, nullptr, 0}, {DC_ARG_BUFFER, 8, nullptr, bx, 0},
                     {DC_ARG_BUFFER, 8, nullptr, by, 0}, {DC_ARG_VALUE, 4, &n, nullptr, 0}};
    dc_launch_config c = DC_LAUNCH_CONFIG_INIT;
    ok = ok && must(dc_launch_config_1d(s_.saxpy, static_cast<uint64_t>(n), 0, &c), "config");
    int r = 1, times = 1;
    if (ok && prepared) {
      dc_launch l = nullptr;
      times = 1 + static_cast<int>(rng_() % 3);
      ok = must(dc_launch_create(s_.saxpy, &c, &l), "launch create") && must(dc_launch_set_args(l, args, 4), "bind");
      for (int t = 0; ok && r > 0 && t < times; ++t) r = may_race(dc_launch_enqueue(l, use), "enqueue");
      dc_launch_release(l);
    } else if (ok) {
      r = may_race(dc_launch_kernel(s_.saxpy, &c, args, 4, use), "launch");
    }
    if (ok && r > 0) r = may_race(dc_stream_synchronize(use), "synchronize");
    std::vector<float> out(n);
    if (ok && r > 0) ok = must(dc_buffer_read(by, 0, out.data(), n * 4), "read y");
    if (ok && r > 0) {
      bool right = true;
      for (int i = 0; i < n; ++i) {
        float want = y[i];
        for (int t = 0; t < times; ++t) want = a * x[i] + want;
        right = right && std::fabs(out[i] - want) <= 1e-3f * std::fabs(want) + 1e-3f;
      }
      ok = check(right, "saxpy results");
    }
    if (r < 0) ok = false;
    if (r == 0) ok = wait_for_device(d) && ok;  // a launch may be in flight on a released shared stream
    dc_buffer_release(bx);
    dc_buffer_release(by);
    dc_stream_release(st);
    return ok;
  }

  bool graph(dc_device d) {
    const int n = 256;
    std::vector<float> x(n, 1.0f), y(n, 2.0f), out(n);
    float a = 3.0f;
    dc_buffer bx = nullptr, by = nullptr;
    dc_stream st = nullptr;
    dc_graph g = nullptr;
    bool ok = must(dc_stream_create(d, 0, 0, &st), "stream") && must(dc_buffer_alloc(d, n * 4, 0, &bx), "x") &&
              must(dc_buffer_alloc(d, n * 4, 0, &by), "y") && must(dc_buffer_write(bx, 0, x.data(), n * 4), "write x") &&
              must(dc_buffer_write(by, 0, y.data(), n * 4), "write y");
    dc_arg args[] = {{DC_ARG_VALUE, 4, &a, nullptr, 0}, {DC_ARG_BUFFER, 8, nullptr, bx, 0},
                     {DC_ARG_BUFFER, 8, nullptr, by, 0}, {DC_ARG_VALUE, 4, &n, nullptr, 0}};
    dc_launch_config c = DC_LAUNCH_CONFIG_INIT;
    c.block[0] = 128;
    c.grid[0] = 2;
    ok = ok && must(dc_stream_begin_capture(st, DC_CAPTURE_THREAD_LOCAL), "begin capture");
    ok = ok && must(dc_launch_kernel(s_.saxpy, &c, args, 4, st), "captured launch");
    ok = ok && must(dc_stream_end_capture(st, &g), "end capture");
    ok = ok && must(dc_graph_launch(g, st), "graph launch") && must(dc_graph_launch(g, st), "graph launch");
    ok = ok && must(dc_stream_synchronize(st), "synchronize");
    ok = ok && must(dc_buffer_read(by, 0, out.data(), n * 4), "read");
    if (ok) {
      bool right = true;
      for (int i = 0; i < n; ++i) right = right && out[i] == 2.0f + 2 * 3.0f;
      ok = check(right, "graph replay results");
    }
    dc_graph_release(g);
    dc_buffer_release(bx);
    dc_buffer_release(by);
    dc_stream_release(st);
    return ok;
  }

  bool stream_event(dc_device d) {
    dc_stream st = nullptr;
    dc_event e1 = nullptr, e2 = nullptr;
    bool ok = must(dc_stream_create(d, rng_() % 2 ? DC_STREAM_BLOCKING : 0, -static_cast<int32_t>(rng_() % 3), &st),
                   "stream") &&
              must(dc_event_create(d, 0, &e1), "event") && must(dc_event_create(d, DC_EVENT_BLOCKING_SYNC, &e2), "event");
    ok = ok && must(dc_event_record(e1, st), "record") && must(dc_event_record(e2, st), "record");
    dc_stream shared = s_.streams[rng_() % kSlots].load();
    int r = ok ? may_race(dc_stream_wait_event(shared, e2), "wait on a shared stream") : 1;
    ok = ok && r >= 0;
    ok = ok && must(dc_event_synchronize(e2), "event synchronize");
    float ms = -1;
    ok = ok && must(dc_event_elapsed_ms(e1, e2, &ms), "elapsed");
    ok = ok && check(ms >= 0.0f, "negative elapsed time");
    dc_status q = dc_stream_query(st);
    ok = ok && check(q == DC_SUCCESS || q == DC_NOT_READY, "stream query");
    dc_event_release(e1);
    dc_event_release(e2);
    dc_stream_release(st);
    return ok;
  }

  bool module(dc_device d) {
    // A module of its own from the shared program, used and released while
    // other threads use the shared module.
    dc_module m = nullptr;
    dc_function f = nullptr;
    bool ok = must(dc_module_load_program(d, s_.program, nullptr, &m), "load module") &&
              must(dc_module_get_function(m, "saxpy", &f), "get function");
    uint32_t count = 0;
    ok = ok && must(dc_function_param_count(f, &count), "param count") && check(count == 4, "saxpy's parameters");
    dc_module_release(m);  // the function keeps it loaded
    ok = ok && must(dc_function_param_count(f, &count), "param count after the module's release");
    dc_function_release(f);
    return ok;
  }

  bool handles() {
    // Handles to shared objects, made and released (device, function).
    dc_device d2 = nullptr;
    bool ok = must(dc_device_open(0, &d2), "open device");
    dc_buffer src = s_.sources[rng_() % kSlots].load();
    dc_device of = nullptr;
    int r = may_race(dc_buffer_device(src, &of), "buffer's device");
    ok = ok && r >= 0;
    uint64_t free_bytes = 0, total = 0;
    ok = ok && must(dc_device_memory_info(d2, &free_bytes, &total), "memory info");
    dc_device_release(of);
    dc_device_release(d2);
    return ok;
  }

  Shared& s_;
  int index_;
  std::mt19937 rng_;
};

TEST(Stress, ManyThreadsShareDevicesStreamsBuffersAndModules) {
  REQUIRE_DEVICE();
  // The mix first: a wrong DCTEST_STRESS_OPS is an error wherever the test runs.
  Shared s;
  std::string ops_error;
  s.mix = selected_ops(ops_error);
  ASSERT_FALSE(s.mix.empty()) << ops_error;
  SKIP_WITHOUT_NVRTC();  // saxpy is compiled
  if (auto* f = dctest::fake_driver()) f->reset();
  const double seconds = env_number("DCTEST_STRESS_SECONDS", 3.0);
  const int threads = static_cast<int>(env_number("DCTEST_STRESS_THREADS", 16));

  int32_t count = 0;
  ASSERT_DC_OK(dc_device_count(&count));
  for (int32_t i = 0; i < std::min(count, 2); ++i) {
    dc_device d = nullptr;
    ASSERT_DC_OK(dc_device_open(i, &d));
    s.devices.push_back(d);
  }
  dc_compile_options o = DC_COMPILE_OPTIONS_INIT;
  o.std = "c++17";
  ASSERT_DC_OK(dc_compile(dctest::kKernels, "stress.cu", &o, s.devices[0], &s.program));
  ASSERT_DC_OK(dc_module_load_program(s.devices[0], s.program, nullptr, &s.module));
  ASSERT_DC_OK(dc_module_get_function(s.module, "saxpy", &s.saxpy));
  for (int i = 0; i < kSlots; ++i) {
    dc_buffer b = make_source(s.devices[0]);
    ASSERT_NE(b, nullptr) << dc_last_error_message();
    s.sources[i].store(b);
    dc_stream st = nullptr;
    ASSERT_DC_OK(dc_stream_create(s.devices[0], 0, 0, &st));
    s.streams[i].store(st);
  }

  long replaced = 0;
  std::vector<std::thread> workers;
  for (int i = 0; i < threads; ++i) workers.emplace_back([&s, i] { Worker(s, i).run(); });
  // The churn thread (this one): replace shared buffers and streams, releasing the old ones in use.
  auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  std::mt19937 rng(7);
  while (std::chrono::steady_clock::now() < deadline && !s.stop.load()) {
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    int slot = static_cast<int>(rng() % kSlots);
    if (rng() % 2) {
      dc_buffer fresh = make_source(s.devices[0]);
      if (!fresh) {
        s.fail(std::string("churn: make a source buffer: ") + dc_last_error_message());
        break;
      }
      dc_buffer_release(s.sources[slot].exchange(fresh));
    } else {
      dc_stream fresh = nullptr;
      if (dc_stream_create(s.devices[0], 0, 0, &fresh) != DC_SUCCESS) {
        s.fail(std::string("churn: create a stream: ") + dc_last_error_message());
        break;
      }
      dc_stream_release(s.streams[slot].exchange(fresh));
    }
    ++replaced;
  }
  s.stop.store(true);
  for (std::thread& t : workers) t.join();

  for (const std::string& f : s.failures) ADD_FAILURE() << f;
  EXPECT_DC_OK(dc_device_synchronize(s.devices[0]));
  for (int i = 0; i < kSlots; ++i) {
    dc_buffer_release(s.sources[i].load());
    dc_stream_release(s.streams[i].load());
  }
  dc_function_release(s.saxpy);
  dc_module_release(s.module);
  dc_program_release(s.program);
  for (dc_device d : s.devices) dc_device_release(d);
  EXPECT_EQ(dctest::live_handles(), 0u) << "handles leaked";
  if (auto* f = dctest::fake_driver()) {
    for (const char* k : dctest::kDriverObjectKinds) EXPECT_EQ(f->live(k), 0) << "driver objects leaked: " << k;
  }

  long total = 0;
  std::string mix;
  for (int i = 0; i < kOpCount; ++i) {
    total += s.ops[i].load();
    mix += std::string(i ? ", " : "") + std::to_string(s.ops[i].load()) + " " + kOpNames[i];
  }
  std::printf("[ dccuda   ] stress: %d threads, %zu device(s), %.1f s: %ld operations (%s); %ld shared handles "
              "replaced under use, %ld calls refused as released\n",
              threads, s.devices.size(), seconds, total, mix.c_str(), replaced, s.raced.load());
  for (Op op : s.mix) EXPECT_GT(s.ops[op].load(), 0) << kOpNames[op] << " never ran";
}

}  // namespace
