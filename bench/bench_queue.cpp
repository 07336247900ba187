// Round trips host -> GPU -> host, one binary, one run:
//   queue               a message through a DC_QUEUE_TO_DEVICE queue to the
//                       resident echo actor (tests/queue/echo_kernel.cuh,
//                       launched once with DC_LAUNCH_PERSISTENT) and its answer
//                       back through a DC_QUEUE_TO_HOST queue;
//   queue_cursor        the same through the echo actor that uses cursors
//                       (dccuda_device.h's dc_ring_cursor_*: fewer reads of
//                       host memory per message);
//   queue_cursor_<variant>  the cursor actor compiled with one of
//                       dccuda_device.h's choices changed (kVariants below:
//                       _eager, DC_RING_IDLE_PUBLISH_AFTER=1, slots given back
//                       at the first take that finds the ring empty, a fence
//                       in every round trip; _relaxed_loads and _weak_loads,
//                       DC_RING_LOADS=0 and 2, the slots' loads);
//   gpu_to_gpu          two resident kernels answering each other through two
//                       DC_QUEUE_BETWEEN_KERNELS queues (device memory), timed
//                       on the GPU (SM clock cycles; 8-byte messages), and
//                       gpu_to_gpu_<variant>, the same variants;
//   launch_synchronize  the same work (the message copied into mapped pinned
//                       memory, answered by a kernel, read back) done by one
//                       kernel launch + stream synchronisation per message
//                       through the raw driver (cuLaunchKernel,
//                       cuStreamSynchronize).
// For 8-byte and 256-byte messages, N round trips each (default 100,000,
// after 1,000 of warm-up), one sample per round trip (steady clock). Writes
// the percentiles and histograms as bench/round_trips.h's JSON
// ("dccuda-round-trips/1", read by bench/plot/plot_round_trips.py) and prints
// p50 / p99 / p99.9 and the ratio of the medians.
//
//   bench_queue [--messages N] [--out PATH | --benchmark_out=PATH]
// (other --benchmark_* options, which tests/gpu/run.sh passes to every
// benchmark, are ignored). Against the fake driver it is a smoke run whose
// numbers mean nothing; without a driver it skips.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

#include "announce.h"
#include "dccuda.h"
#include "queue_kernel_sources.h"
#include "raw_driver.h"
#include "round_trips.h"

namespace {

// The launch + synchronize side's kernel: the echo actor's answer, once.
const char* const kOnceSource = R"(
extern "C" __global__ void echo_once(const volatile unsigned char* in, volatile unsigned char* out, unsigned n) {
  if (blockIdx.x != 0 || threadIdx.x != 0) return;
  for (unsigned i = 0; i < n; ++i) out[i] = (unsigned char)(i < 8 ? in[i] : in[i] + 1);
  __threadfence_system();
}
)";

constexpr uint64_t kTimeoutUs = 10'000'000;
constexpr int kWarmup = 1000;

double ns_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t).count();
}

bool fail(const char* what) {
  std::fprintf(stderr, "bench_queue: %s: %s\n", what, dc_last_error_message());
  return false;
}

void fill_message(uint8_t* m, uint64_t seq, uint32_t n) {
  std::memcpy(m, &seq, 8);
  for (uint32_t k = 8; k < n; ++k) m[k] = uint8_t(seq + k);
}

bool answer_ok(const uint8_t* a, uint64_t seq, uint32_t n) {
  uint64_t got = 0;
  std::memcpy(&got, a, 8);
  if (got != seq) return false;
  for (uint32_t k = 8; k < n; ++k)
    if (a[k] != uint8_t(seq + k + 1)) return false;
  return true;
}

struct Setup {
  dc_device device = nullptr;
  dc_module echo_module = nullptr, once_module = nullptr;
  dc_function echo = nullptr, echo_cursor = nullptr, once = nullptr;
  std::vector<dc_module> variant_modules;
  std::vector<dc_function> variant_actors;  // the cursor actor, one per kVariants entry
  dc_stream stream = nullptr;
  ~Setup() {
    dc_stream_release(stream);
    dc_function_release(echo);
    dc_function_release(echo_cursor);
    for (dc_function f : variant_actors) dc_function_release(f);
    for (dc_module m : variant_modules) dc_module_release(m);
    dc_function_release(once);
    dc_module_release(echo_module);
    dc_module_release(once_module);
    dc_device_release(device);
  }
};

// The queue side: start the actor, time `count` round trips of `bytes`, stop it.
bool time_queue(Setup& s, dc_function actor, uint32_t bytes, int count, std::vector<double>* ns) {
  dc_queue in = nullptr, out = nullptr;
  dc_control control = nullptr;
  dc_buffer b[3] = {};
  bool ok = dc_queue_create(s.device, DC_QUEUE_TO_DEVICE, 256, 64, &in) == DC_SUCCESS &&
            dc_queue_create(s.device, DC_QUEUE_TO_HOST, 256, 64, &out) == DC_SUCCESS &&
            dc_control_create(s.device, &control) == DC_SUCCESS && dc_queue_buffer(in, &b[0]) == DC_SUCCESS &&
            dc_queue_buffer(out, &b[1]) == DC_SUCCESS && dc_control_buffer(control, &b[2]) == DC_SUCCESS;
  if (!ok) return fail("queues");
  dc_launch_config config = DC_LAUNCH_CONFIG_INIT;
  config.flags = DC_LAUNCH_PERSISTENT;
  dc_arg args[3] = {DC_ARG_BUFFER_OF(b[0]), DC_ARG_BUFFER_OF(b[1]), DC_ARG_BUFFER_OF(b[2])};
  if (dc_launch_kernel(actor, &config, args, 3, s.stream) != DC_SUCCESS) return fail("launching the echo actor");
  uint8_t m[256], a[256];
  uint64_t seq = 0;
  ns->clear();
  ns->reserve(count);
  for (int i = -kWarmup; i < count && ok; ++i, ++seq) {
    fill_message(m, seq, bytes);
    auto t = std::chrono::steady_clock::now();
    uint32_t n = 0;
    if (dc_queue_enqueue(in, m, bytes, DC_WAIT_SPIN, kTimeoutUs) != DC_SUCCESS ||
        dc_queue_dequeue(out, a, sizeof a, &n, DC_WAIT_SPIN, kTimeoutUs) != DC_SUCCESS) {
      ok = fail("a queue round trip");
      break;
    }
    double took = ns_since(t);
    if (n != bytes || !answer_ok(a, seq, bytes)) {
      std::fprintf(stderr, "bench_queue: answer %llu is wrong\n", (unsigned long long)seq);
      ok = false;
    }
    if (i >= 0) ns->push_back(took);
  }
  dc_control_request_stop(control);
  if (dc_control_wait_stopped(control, DC_WAIT_BLOCK, kTimeoutUs) != DC_SUCCESS) {
    fail("stopping the echo actor");
    std::_Exit(2);  // never free what a running kernel uses
  }
  dc_control_info info = DC_CONTROL_INFO_INIT;
  dc_control_status(control, &info);
  if (info.errors) {
    std::fprintf(stderr, "bench_queue: the actor saw %llu messages out of order\n", (unsigned long long)info.errors);
    ok = false;
  }
  if (dc_stream_synchronize(s.stream) != DC_SUCCESS) ok = fail("synchronising after the actor");
  for (dc_buffer x : b) dc_buffer_release(x);
  dc_queue_release(in);
  dc_queue_release(out);
  dc_control_release(control);
  return ok;
}

// The launch + synchronize side, through the raw driver.
bool time_launch_sync(Setup& s, const bench::RawDriver& raw, uint32_t bytes, int count, std::vector<double>* ns) {
  dc_buffer in = nullptr, out = nullptr;
  if (dc_buffer_alloc_pinned(s.device, 256, DC_ALLOC_DEVICE_MAPPED, &in) != DC_SUCCESS ||
      dc_buffer_alloc_pinned(s.device, 256, DC_ALLOC_DEVICE_MAPPED, &out) != DC_SUCCESS)
    return fail("pinned buffers");
  void *in_host = nullptr, *out_host = nullptr, *function = nullptr, *stream = nullptr;
  uint64_t in_device = 0, out_device = 0;
  dc_buffer_host_pointer(in, &in_host);
  dc_buffer_host_pointer(out, &out_host);
  dc_buffer_device_pointer(in, &in_device);
  dc_buffer_device_pointer(out, &out_device);
  dc_function_native(s.once, &function);
  dc_stream_native(s.stream, &stream);
  void* context = nullptr;
  dc_device_native(s.device, nullptr, &context);
  raw.cuCtxSetCurrent(static_cast<CUcontext>(context));
  unsigned n = bytes;
  void* params[] = {&in_device, &out_device, &n};
  auto* m = static_cast<uint8_t*>(in_host);
  auto* a = static_cast<volatile uint8_t*>(out_host);
  bool ok = true;
  ns->clear();
  ns->reserve(count);
  uint8_t answer[256];
  for (int i = -kWarmup; i < count && ok; ++i) {
    uint64_t seq = uint64_t(i + kWarmup);
    auto t = std::chrono::steady_clock::now();
    fill_message(m, seq, bytes);
    if (raw.cuLaunchKernel(static_cast<CUfunction>(function), 1, 1, 1, 1, 1, 1, 0, static_cast<CUstream>(stream),
                           params, nullptr) != CUDA_SUCCESS ||
        raw.cuStreamSynchronize(static_cast<CUstream>(stream)) != CUDA_SUCCESS) {
      std::fprintf(stderr, "bench_queue: the raw launch + synchronize failed\n");
      ok = false;
      break;
    }
    for (uint32_t k = 0; k < bytes; ++k) answer[k] = a[k];
    double took = ns_since(t);
    if (!answer_ok(answer, seq, bytes)) {
      std::fprintf(stderr, "bench_queue: launch answer %llu is wrong\n", (unsigned long long)seq);
      ok = false;
    }
    if (i >= 0) ns->push_back(took);
  }
  dc_buffer_release(in);
  dc_buffer_release(out);
  return ok;
}

// GPU to GPU: two resident kernels, one block of one thread each, talking
// through two DC_QUEUE_BETWEEN_KERNELS queues (rings in device memory) with
// the cursors of dccuda_device.h. gpu_ping sends a sequence number, waits for
// gpu_pong's answer (the number plus one) and keeps the round trip's time
// in SM clock cycles (clock64: the global timer ticks in about 1 us steps on
// an H200, too coarse here), turned into nanoseconds with the device's clock
// rate; a number out of place counts an error. ~0 tells gpu_pong to end.
// The rings have flagged slots (dccuda_device.h): each side finds and reads
// a message in one load and takes without publishing, the cursor giving the
// slots back in groups and while it waits.
const char* const kGpuPairSource = R"(
#include "dccuda_device.h"

extern "C" __global__ void gpu_ping(dc_queue_ring* to, dc_queue_ring* from, unsigned long long* ns,
                                    unsigned warmup, unsigned count, unsigned* errors) {
  if (blockIdx.x != 0 || threadIdx.x != 0) return;
  dc_ring_cursor tx, rx;
  dc_ring_cursor_open(&tx, to, 1);
  dc_ring_cursor_open(&rx, from, 0);
  for (unsigned i = 0; i < warmup + count; ++i) {
    long long t0 = clock64();
    dc_dev_u64 m = i, a = 0;
    dc_dev_u32 n = 0;
    while (dc_ring_cursor_try_enqueue(&tx, &m, 8) != DC_RING_DONE) {
    }
    while (dc_ring_cursor_take(&rx, &a, 8, &n) != DC_RING_DONE) {
    }
    long long t1 = clock64();
    if (a != m + 1 || n != 8) *errors += 1;
    if (i >= warmup) ns[i - warmup] = t1 - t0;
  }
  dc_ring_cursor_publish(&rx);
  dc_dev_u64 stop = ~0ull;
  while (dc_ring_cursor_try_enqueue(&tx, &stop, 8) != DC_RING_DONE) {
  }
}
// One-way throughput: takes every message, checks its sequence number, and
// keeps the count of messages taken in the heartbeat (set when caught up and
// every 64 messages; slots given back every 32 messages or when caught up).
extern "C" __global__ void sink(dc_queue_ring* in, dc_control_block* control) {
  if (blockIdx.x != 0 || threadIdx.x != 0) return;
  dc_control_enter(control);
  dc_ring_cursor rx;
  dc_ring_cursor_open(&rx, in, 0);
  dc_dev_u64 taken = 0;
  dc_dev_u32 turns = 0;
  for (;;) {
    dc_dev_u64 m = 0;
    dc_dev_u32 n = 0;
    int r = dc_ring_cursor_take(&rx, &m, 8, &n);
    if (r == DC_RING_DONE) {
      if (m != taken || n != 8) dc_control_report_error(control, 2);
      ++taken;
      if ((taken & 31u) == 0) dc_ring_cursor_publish(&rx);
      if ((taken & 63u) == 0) dc_control_beat_to(control, taken);
      continue;
    }
    if (r != DC_RING_NOT_READY) {
      dc_control_report_error(control, 1);
      break;
    }
    dc_ring_cursor_publish(&rx);
    dc_control_beat_to(control, taken);
    if ((++turns & 63u) == 0 && dc_control_stop_requested(control)) break;
  }
  dc_ring_cursor_publish(&rx);
  dc_control_beat_to(control, taken);
  dc_control_exit(control);
}
extern "C" __global__ void gpu_pong(dc_queue_ring* from, dc_queue_ring* to) {
  if (blockIdx.x != 0 || threadIdx.x != 0) return;
  dc_ring_cursor rx, tx;
  dc_ring_cursor_open(&rx, from, 0);
  dc_ring_cursor_open(&tx, to, 1);
  for (;;) {
    dc_dev_u64 m = 0;
    dc_dev_u32 n = 0;
    while (dc_ring_cursor_take(&rx, &m, 8, &n) != DC_RING_DONE) {
    }
    if (m == ~0ull) break;
    dc_dev_u64 a = m + 1;
    while (dc_ring_cursor_try_enqueue(&tx, &a, 8) != DC_RING_DONE) {
    }
  }
  dc_ring_cursor_publish(&rx);
}
)";

// One way, host to GPU: `count` 8-byte messages into a DC_QUEUE_TO_DEVICE
// queue of 1024 slots, one dc_queue_enqueue each or dc_queue_enqueue_batch of
// `batch`, taken by the sink kernel; timed from the first enqueue until the
// kernel reports having taken the last. Messages per second, or 0.
double one_way_rate(Setup& s, dc_function sink, int count, uint32_t batch) {
  dc_queue in = nullptr;
  dc_control control = nullptr;
  dc_buffer b[2] = {};
  dc_stream stream = nullptr;
  double rate = 0;
  if (dc_queue_create(s.device, DC_QUEUE_TO_DEVICE, 8, 1024, &in) != DC_SUCCESS ||
      dc_control_create(s.device, &control) != DC_SUCCESS || dc_queue_buffer(in, &b[0]) != DC_SUCCESS ||
      dc_control_buffer(control, &b[1]) != DC_SUCCESS || dc_stream_create(s.device, 0, 0, &stream) != DC_SUCCESS) {
    fail("the one-way queue");
  } else {
    dc_launch_config config = DC_LAUNCH_CONFIG_INIT;
    config.flags = DC_LAUNCH_PERSISTENT;
    dc_arg args[2] = {DC_ARG_BUFFER_OF(b[0]), DC_ARG_BUFFER_OF(b[1])};
    if (dc_launch_kernel(sink, &config, args, 2, stream) != DC_SUCCESS) {
      fail("launching the sink");
    } else {
      std::vector<uint64_t> m(batch);
      auto t = std::chrono::steady_clock::now();
      bool ok = true;
      for (uint64_t sent = 0; sent < uint64_t(count) && ok;) {
        uint32_t k = uint32_t(std::min<uint64_t>(batch, uint64_t(count) - sent));
        for (uint32_t j = 0; j < k; ++j) m[j] = sent + j;
        if (batch == 1) {
          ok = dc_queue_enqueue(in, m.data(), 8, DC_WAIT_SPIN, kTimeoutUs) == DC_SUCCESS;
          sent += ok ? 1 : 0;
        } else {
          uint32_t done = 0;
          dc_status st = dc_queue_enqueue_batch(in, m.data(), uint64_t(k) * 8, 8, &done);
          ok = st == DC_SUCCESS || st == DC_NOT_READY;
          sent += done;
        }
      }
      dc_control_info info = DC_CONTROL_INFO_INIT;
      while (ok && dc_control_status(control, &info) == DC_SUCCESS && info.heartbeat < uint64_t(count) &&
             ns_since(t) < 60e9) {
      }
      double took = ns_since(t);
      if (ok && info.heartbeat >= uint64_t(count) && info.errors == 0) rate = double(count) / (took / 1e9);
      else fail("the one-way run");
      dc_control_request_stop(control);
      if (dc_control_wait_stopped(control, DC_WAIT_BLOCK, kTimeoutUs) != DC_SUCCESS) {
        fail("stopping the sink");
        std::_Exit(2);  // never free what a running kernel uses
      }
    }
  }
  dc_stream_release(stream);
  dc_buffer_release(b[0]);
  dc_buffer_release(b[1]);
  dc_queue_release(in);
  dc_control_release(control);
  return rate;
}

// `define`: NULL, or a kVariants define the kernels are compiled with.
// one_way / one_way_batched: NULL to skip the one-way rates.
bool time_gpu_to_gpu(Setup& s, int count, const char* define, std::vector<double>* ns, double* one_way,
                     double* one_way_batched) {
  const char* names[] = {"dccuda_device.h"};
  const char* sources[] = {kDeviceHeaderSource};
  const char* defines[] = {define};
  dc_compile_options options = DC_COMPILE_OPTIONS_INIT;
  options.num_headers = 1;
  options.header_names = names;
  options.header_sources = sources;
  options.num_defines = define ? 1 : 0;
  options.defines = defines;
  dc_module module = nullptr;
  dc_function ping = nullptr, pong = nullptr;
  dc_queue there = nullptr, back = nullptr;
  dc_buffer to = nullptr, from = nullptr, times = nullptr, errors = nullptr;
  dc_stream ping_stream = nullptr, pong_stream = nullptr;
  bool ok = dc_module_compile_and_load(s.device, kGpuPairSource, "gpu_pair.cu", &options, &module) == DC_SUCCESS &&
            dc_module_get_function(module, "gpu_ping", &ping) == DC_SUCCESS &&
            dc_module_get_function(module, "gpu_pong", &pong) == DC_SUCCESS &&
            dc_queue_create(s.device, DC_QUEUE_BETWEEN_KERNELS, 8, 64, &there) == DC_SUCCESS &&
            dc_queue_create(s.device, DC_QUEUE_BETWEEN_KERNELS, 8, 64, &back) == DC_SUCCESS &&
            dc_queue_buffer(there, &to) == DC_SUCCESS && dc_queue_buffer(back, &from) == DC_SUCCESS &&
            dc_buffer_alloc(s.device, uint64_t(count) * 8, DC_ALLOC_NO_POOL, &times) == DC_SUCCESS &&
            dc_buffer_alloc(s.device, 4, DC_ALLOC_NO_POOL, &errors) == DC_SUCCESS &&
            dc_buffer_fill(errors, 0, 4, 0, 4) == DC_SUCCESS &&
            dc_stream_create(s.device, 0, 0, &ping_stream) == DC_SUCCESS &&
            dc_stream_create(s.device, 0, 0, &pong_stream) == DC_SUCCESS;
  if (!ok) fail("the GPU-to-GPU kernels and queues");
  uint32_t warmup = kWarmup, n = uint32_t(count);
  dc_launch_config config = DC_LAUNCH_CONFIG_INIT;
  config.flags = DC_LAUNCH_PERSISTENT;
  dc_arg pong_args[2] = {DC_ARG_BUFFER_OF(to), DC_ARG_BUFFER_OF(from)};
  dc_arg ping_args[6] = {DC_ARG_BUFFER_OF(to), DC_ARG_BUFFER_OF(from), DC_ARG_BUFFER_OF(times),
                         DC_ARG_VALUE_OF(&warmup), DC_ARG_VALUE_OF(&n), DC_ARG_BUFFER_OF(errors)};
  if (ok && (dc_launch_kernel(pong, &config, pong_args, 2, pong_stream) != DC_SUCCESS ||
             dc_launch_kernel(ping, &config, ping_args, 6, ping_stream) != DC_SUCCESS))
    ok = fail("launching the GPU-to-GPU pair");
  // Both end on their own (ping after its count, pong at ping's last message).
  if (ok && (dc_stream_synchronize(ping_stream) != DC_SUCCESS || dc_stream_synchronize(pong_stream) != DC_SUCCESS))
    ok = fail("waiting for the GPU-to-GPU pair");
  std::vector<uint64_t> raw(ok ? count : 0);
  uint32_t wrong = 0;
  if (ok && (dc_buffer_read(times, 0, raw.data(), raw.size() * 8) != DC_SUCCESS ||
             dc_buffer_read(errors, 0, &wrong, 4) != DC_SUCCESS))
    ok = fail("reading the GPU-to-GPU times");
  if (ok && wrong) {
    std::fprintf(stderr, "bench_queue: %u GPU-to-GPU answers were wrong\n", wrong);
    ok = false;
  }
  dc_function sink = nullptr;
  if (ok && one_way && dc_module_get_function(module, "sink", &sink) == DC_SUCCESS) {
    *one_way = one_way_rate(s, sink, count * 10, 1);
    *one_way_batched = one_way_rate(s, sink, count * 10, 32);
    dc_function_release(sink);
  }
  // Cycles to nanoseconds at the device's SM clock rate (kHz).
  dc_device_info info = DC_DEVICE_INFO_INIT;
  double ns_per_cycle = dc_device_get_info(s.device, &info) == DC_SUCCESS && info.clock_rate_khz > 0
                            ? 1e6 / double(info.clock_rate_khz)
                            : 0;
  ns->clear();
  for (uint64_t c : raw) ns->push_back(double(c) * ns_per_cycle);
  dc_stream_release(ping_stream);
  dc_stream_release(pong_stream);
  dc_buffer_release(to);
  dc_buffer_release(from);
  dc_buffer_release(times);
  dc_buffer_release(errors);
  dc_queue_release(there);
  dc_queue_release(back);
  dc_function_release(ping);
  dc_function_release(pong);
  dc_module_release(module);
  return ok;
}

// Variants of the cursor actor and the GPU pair, each compiled with one of
// dccuda_device.h's choices changed, measured beside the defaults.
struct Variant {
  const char* suffix;
  const char* define;
};
constexpr Variant kVariants[] = {
    {"_eager", "DC_RING_IDLE_PUBLISH_AFTER=1"},
    {"_relaxed_loads", "DC_RING_LOADS=0"},
    {"_weak_loads", "DC_RING_LOADS=2"},
};

// The cursor actor once per variant. Nonzero on failure.
int compile_variants(Setup& s, dc_compile_options options) {
  for (const Variant& v : kVariants) {
    const char* defines[] = {v.define};
    options.num_defines = 1;
    options.defines = defines;
    dc_module m = nullptr;
    dc_function f = nullptr;
    if (dc_module_compile_and_load(s.device, "#include \"echo_kernel.cuh\"\n", "echo_variant.cu", &options, &m))
      return 1;
    s.variant_modules.push_back(m);
    if (dc_module_get_function(m, "dc_echo_cursor", &f)) return 1;
    s.variant_actors.push_back(f);
  }
  return 0;
}

double percentile(std::vector<double> v, double p) {
  std::sort(v.begin(), v.end());
  double rank = std::ceil(p / 100.0 * double(v.size()));
  size_t i = rank < 1 ? 0 : size_t(rank) - 1;
  return v[std::min(i, v.size() - 1)];
}

}  // namespace

int main(int argc, char** argv) {
  int count = 100000;
  std::string out_path = "bench_queue.json";
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--messages" && i + 1 < argc) count = std::atoi(argv[++i]);
    else if (a == "--out" && i + 1 < argc) out_path = argv[++i];
    else if (a.rfind("--benchmark_out=", 0) == 0) out_path = a.substr(16);
    else if (a.rfind("--benchmark_", 0) == 0) continue;
    else {
      std::fprintf(stderr, "usage: bench_queue [--messages N] [--out PATH | --benchmark_out=PATH]\n");
      return 2;
    }
  }
  if (count < 1) count = 1;
  int32_t devices = 0;
  if (dc_device_count(&devices) != DC_SUCCESS || devices < 1) {
    std::printf("bench_queue: no device (%s): skipping\n", dc_last_error_message());
    return 0;
  }
  Setup s;
  dc_device_info info = DC_DEVICE_INFO_INIT;
  if (dc_device_open(0, &s.device) != DC_SUCCESS || dc_device_get_info(s.device, &info) != DC_SUCCESS)
    return fail("device 0") ? 0 : 1;
  std::string why;
  const bench::RawDriver* raw = bench::raw_driver(&why);
  if (!raw) {
    std::fprintf(stderr, "bench_queue: the raw driver: %s\n", why.c_str());
    return 1;
  }
  const char* names[] = {"dccuda_device.h", "echo_kernel.cuh"};
  const char* sources[] = {kDeviceHeaderSource, kEchoKernelSource};
  dc_compile_options options = DC_COMPILE_OPTIONS_INIT;
  options.num_headers = 2;
  options.header_names = names;
  options.header_sources = sources;
  if (dc_module_compile_and_load(s.device, "#include \"echo_kernel.cuh\"\n", "echo.cu", &options, &s.echo_module) ||
      dc_module_get_function(s.echo_module, "dc_echo", &s.echo) ||
      dc_module_get_function(s.echo_module, "dc_echo_cursor", &s.echo_cursor) ||
      compile_variants(s, options) ||
      dc_module_compile_and_load(s.device, kOnceSource, "echo_once.cu", nullptr, &s.once_module) ||
      dc_module_get_function(s.once_module, "echo_once", &s.once) || dc_stream_create(s.device, 0, 0, &s.stream))
    return fail("compiling the kernels (needs NVRTC)") ? 0 : 1;

  std::string device_name = info.name;
  bench::announce("bench_queue", {device_name});
  std::vector<bench::RoundTrips> sets;
  bool ok = true;
  for (uint32_t bytes : {8u, 256u}) {
    std::string suffix = bytes == 8 ? "" : "_256B";
    bench::RoundTrips q{"queue" + suffix, "dccuda queue round trip, " + std::to_string(bytes) + " B", {}};
    bench::RoundTrips c{"queue_cursor" + suffix,
                        "dccuda queue round trip, cursor actor, " + std::to_string(bytes) + " B", {}};
    bench::RoundTrips l{"launch_synchronize" + suffix,
                        "cuLaunchKernel + cuStreamSynchronize, " + std::to_string(bytes) + " B", {}};
    ok = time_queue(s, s.echo, bytes, count, &q.ns) && ok;
    ok = time_queue(s, s.echo_cursor, bytes, count, &c.ns) && ok;
    std::vector<bench::RoundTrips> variants;
    for (size_t k = 0; k < std::size(kVariants); ++k) {
      variants.push_back({std::string("queue_cursor") + kVariants[k].suffix + suffix,
                          "dccuda queue round trip, cursor actor, " + std::string(kVariants[k].define) + ", " +
                              std::to_string(bytes) + " B",
                          {}});
      ok = time_queue(s, s.variant_actors[k], bytes, count, &variants.back().ns) && ok;
    }
    ok = time_launch_sync(s, *raw, bytes, count, &l.ns) && ok;
    if (q.ns.empty() || c.ns.empty() || l.ns.empty()) break;
    double c50 = percentile(c.ns, 50);
    double q50 = percentile(q.ns, 50), l50 = percentile(l.ns, 50);
    std::printf("%3u B  queue: p50 %.2f us  p99 %.2f us  p99.9 %.2f us | launch+sync: p50 %.2f us  p99 %.2f us  "
                "p99.9 %.2f us | launch+sync / queue at p50: %.2fx\n",
                bytes, q50 / 1e3, percentile(q.ns, 99) / 1e3, percentile(q.ns, 99.9) / 1e3, l50 / 1e3,
                percentile(l.ns, 99) / 1e3, percentile(l.ns, 99.9) / 1e3, l50 / q50);
    std::printf("%3u B  queue, cursor actor: p50 %.2f us  p99 %.2f us  p99.9 %.2f us | launch+sync / queue at p50: "
                "%.2fx\n",
                bytes, c50 / 1e3, percentile(c.ns, 99) / 1e3, percentile(c.ns, 99.9) / 1e3, l50 / c50);
    sets.push_back(std::move(q));
    sets.push_back(std::move(c));
    for (size_t k = 0; k < variants.size(); ++k) {
      if (variants[k].ns.empty()) continue;
      double z50 = percentile(variants[k].ns, 50);
      std::printf("%3u B  queue, cursor actor, %s: p50 %.2f us  p99 %.2f us  p99.9 %.2f us | launch+sync / queue at "
                  "p50: %.2fx\n",
                  bytes, kVariants[k].define, z50 / 1e3, percentile(variants[k].ns, 99) / 1e3,
                  percentile(variants[k].ns, 99.9) / 1e3, l50 / z50);
      sets.push_back(std::move(variants[k]));
    }
    sets.push_back(std::move(l));
  }
  if (sets.size() < 6) return 1;
  std::vector<std::pair<std::string, std::string>> context = {
      {"date_utc", bench::utc_now_iso()}, {"device", device_name}, {"driver", bench::driver_cuda_version()},
      {"messages_per_set", std::to_string(count)}, {"warmup_per_set", std::to_string(kWarmup)},
      {"wait", "DC_WAIT_SPIN both ways; one message in flight"}};
  // GPU to GPU (not on the fake driver, which runs no kernel it does not know).
  if (!bench::any_fake({device_name})) {
    bench::RoundTrips g{"gpu_to_gpu", "GPU to GPU round trip, two resident kernels, 8 B", {}};
    double one_way = 0, one_way_batched = 0;
    ok = time_gpu_to_gpu(s, count, nullptr, &g.ns, &one_way, &one_way_batched) && ok;
    std::printf("  8 B  one way, host to GPU (sink kernel, %d messages): %.0f messages/s one by one, %.0f messages/s "
                "in batches of 32\n",
                count * 10, one_way, one_way_batched);
    context.push_back({"one_way_messages_per_s", std::to_string(one_way)});
    context.push_back({"one_way_batched_32_messages_per_s", std::to_string(one_way_batched)});
    if (!g.ns.empty()) {
      double g50 = percentile(g.ns, 50);
      std::printf("  8 B  GPU to GPU (two resident kernels, device-memory queues; SM cycles at the reported clock "
                  "%d MHz): round trip p50 %.3f us  p99 %.3f us  p99.9 %.3f us; one way (half the round trip) p50 "
                  "%.3f us\n",
                  info.clock_rate_khz / 1000, g50 / 1e3, percentile(g.ns, 99) / 1e3, percentile(g.ns, 99.9) / 1e3,
                  g50 / 2e3);
      sets.push_back(std::move(g));
    }
    for (const Variant& v : kVariants) {
      bench::RoundTrips gz{std::string("gpu_to_gpu") + v.suffix, "GPU to GPU round trip, " + std::string(v.define) + ", 8 B",
                           {}};
      ok = time_gpu_to_gpu(s, count, v.define, &gz.ns, nullptr, nullptr) && ok;
      if (gz.ns.empty()) continue;
      double z50 = percentile(gz.ns, 50);
      std::printf("  8 B  GPU to GPU, %s: round trip p50 %.3f us  p99 %.3f us  p99.9 %.3f us; one way p50 %.3f us\n",
                  v.define, z50 / 1e3, percentile(gz.ns, 99) / 1e3, percentile(gz.ns, 99.9) / 1e3, z50 / 2e3);
      sets.push_back(std::move(gz));
    }
  }
  if (bench::any_fake({device_name})) context.push_back({"synthetic", "the FAKE driver: a smoke run, not a measurement"});
  if (!bench::write_round_trips_json(out_path, context, sets, &why)) {
    std::fprintf(stderr, "bench_queue: %s\n", why.c_str());
    return 1;
  }
  std::printf("bench_queue: wrote %s\n", out_path.c_str());
  return ok ? 0 : 1;
}
