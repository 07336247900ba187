// Round trips host -> GPU -> host, one binary, one run:
//   queue               a message through a DC_QUEUE_TO_DEVICE queue to the
//                       resident echo actor (tests/queue/echo_kernel.cuh,
//                       launched once with DC_LAUNCH_PERSISTENT) and its answer
//                       back through a DC_QUEUE_TO_HOST queue;
//   queue_cursor        the same through the echo actor that uses cursors
//                       (dccuda_device.h's dc_ring_cursor_*: fewer reads of
//                       host memory per message);
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
  dc_stream stream = nullptr;
  ~Setup() {
    dc_stream_release(stream);
    dc_function_release(echo);
    dc_function_release(echo_cursor);
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
    sets.push_back(std::move(l));
  }
  if (sets.size() != 6) return 1;
  std::vector<std::pair<std::string, std::string>> context = {
      {"date_utc", bench::utc_now_iso()}, {"device", device_name}, {"driver", bench::driver_cuda_version()},
      {"messages_per_set", std::to_string(count)}, {"warmup_per_set", std::to_string(kWarmup)},
      {"wait", "DC_WAIT_SPIN both ways; one message in flight"}};
  if (bench::any_fake({device_name})) context.push_back({"synthetic", "the FAKE driver: a smoke run, not a measurement"});
  if (!bench::write_round_trips_json(out_path, context, sets, &why)) {
    std::fprintf(stderr, "bench_queue: %s\n", why.c_str());
    return 1;
  }
  std::printf("bench_queue: wrote %s\n", out_path.c_str());
  return ok ? 0 : 1;
}
