#include "launch/launch_trace.h"

#include <condition_variable>
#include <deque>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <thread>

#include "core/error.h"
#include "core/log.h"
#include "device/device.h"
#include "loader/driver.h"

namespace dc {
namespace detail {
std::atomic<bool> g_launch_trace_on{false};
}

namespace {

struct Tracer {
  dc_launch_trace_fn on_launch = nullptr;
  dc_launch_trace_fn on_complete = nullptr;
  void* user_data = nullptr;
  uint64_t generation = 0;  // completions queued under an older tracer are dropped
};

std::shared_mutex& tracer_mutex() {
  static auto* m = new std::shared_mutex;  // never destroyed: launches may come during exit
  return *m;
}
Tracer g_tracer;  // guarded by tracer_mutex()
std::atomic<uint64_t> g_sequence{0};

// A launch whose completion is awaited.
struct Pending {
  Ref<Device> device;
  CUevent start = nullptr;
  CUevent end = nullptr;
  std::string kernel;
  dc_launch_trace trace{};
  uint64_t generation = 0;
};

struct CompletionQueue {
  std::mutex mutex;
  std::condition_variable ready;
  std::deque<Pending> pending;
  bool started = false;
};

CompletionQueue& queue() {
  static auto* q = new CompletionQueue;  // never destroyed: its thread outlives static destruction
  return *q;
}

// Calls `fn` with the thread's in-callback mark set, keeping its error state.
void call_user(dc_launch_trace_fn fn, void* user_data, const dc_launch_trace& trace) noexcept {
  ThreadError& e = thread_error();
  if (e.in_log_callback) return;  // a launch made from inside a callback cannot happen (refused); be safe
  try {
    ThreadError saved = e;
    e.in_log_callback = true;
    fn(user_data, &trace);
    e = std::move(saved);
    e.in_log_callback = false;
  } catch (...) {
    e.in_log_callback = false;
  }
}

void destroy_events(const Device& device, CUevent a, CUevent b) noexcept {
  const DriverApi& api = driver_api();
  try {
    ContextScope bind(device);
    if (a) api.cuEventDestroy(a);
    if (b) api.cuEventDestroy(b);
  } catch (...) {
  }
}

// The completion thread: waits for each launch's end event in order, then
// tells on_complete (if the tracer that asked is still the one set).
void complete_launches() {
  CompletionQueue& q = queue();
  const DriverApi& api = driver_api();
  for (;;) {
    Pending p;
    {
      std::unique_lock<std::mutex> lock(q.mutex);
      q.ready.wait(lock, [&] { return !q.pending.empty(); });
      p = std::move(q.pending.front());
      q.pending.pop_front();
    }
    float ms = 0;
    bool ok = false;
    try {
      ContextScope bind(*p.device);
      ok = api.cuEventSynchronize(p.end) == CUDA_SUCCESS && api.cuEventElapsedTime(&ms, p.start, p.end) == CUDA_SUCCESS;
    } catch (...) {
    }
    // The events go before the callback: once a caller has heard every
    // completion, nothing of the trace is left on the device.
    destroy_events(*p.device, p.start, p.end);
    p.device = Ref<Device>();
    if (ok) {
      std::shared_lock<std::shared_mutex> lock(tracer_mutex());
      if (g_tracer.on_complete && g_tracer.generation == p.generation) {
        p.trace.kernel_name = p.kernel.c_str();
        p.trace.gpu_time_ns = static_cast<uint64_t>(static_cast<double>(ms) * 1e6);
        call_user(g_tracer.on_complete, g_tracer.user_data, p.trace);
      }
    }
  }
}

dc_launch_trace describe(const Function& f, const LaunchShape& s, CUstream stream) noexcept {
  dc_launch_trace t{};
  t.struct_size = sizeof t;
  t.device_ordinal = f.device().ordinal();
  t.kernel_name = f.name().c_str();
  for (int i = 0; i < 3; ++i) {
    t.grid[i] = s.grid[i];
    t.block[i] = s.block[i];
  }
  t.shared_memory_bytes = s.shared;
  t.flags = s.flags;
  t.stream = stream;
  return t;
}

bool capturing(CUstream stream) noexcept {
  CUstreamCaptureStatus status = CU_STREAM_CAPTURE_STATUS_NONE;
  if (driver_api().cuStreamIsCapturing(stream, &status) != CUDA_SUCCESS) return true;  // do not risk an event node
  return status != CU_STREAM_CAPTURE_STATUS_NONE;
}

}  // namespace

void trace_before_launch(const Function&, CUstream stream, TracedLaunch& t) noexcept {
  bool wanted;
  {
    std::shared_lock<std::shared_mutex> lock(tracer_mutex());
    wanted = g_tracer.on_complete != nullptr;
  }
  if (!wanted || capturing(stream)) return;
  const DriverApi& api = driver_api();
  CUevent start = nullptr;
  if (api.cuEventCreate(&start, 0u) != CUDA_SUCCESS) return;
  if (api.cuEventRecord(start, stream) != CUDA_SUCCESS) {
    api.cuEventDestroy(start);
    return;
  }
  t.start = start;
  t.timed = true;
}

void trace_abandon(TracedLaunch& t) noexcept {
  if (t.start) driver_api().cuEventDestroy(t.start);
  t.start = nullptr;
  t.timed = false;
}

void trace_after_launch(const Function& f, const LaunchShape& s, CUstream stream, TracedLaunch& t) noexcept {
  dc_launch_trace trace = describe(f, s, stream);
  trace.sequence = g_sequence.fetch_add(1, std::memory_order_relaxed) + 1;
  uint64_t generation = 0;
  {
    std::shared_lock<std::shared_mutex> lock(tracer_mutex());
    if (g_tracer.on_launch) call_user(g_tracer.on_launch, g_tracer.user_data, trace);
    generation = g_tracer.generation;
  }
  if (!t.timed) return;
  const DriverApi& api = driver_api();
  CUevent end = nullptr;
  if (api.cuEventCreate(&end, 0u) != CUDA_SUCCESS || api.cuEventRecord(end, stream) != CUDA_SUCCESS) {
    if (end) api.cuEventDestroy(end);
    trace_abandon(t);
    return;
  }
  try {
    Pending p;
    p.device = Ref<Device>::share(&f.device());
    p.start = t.start;
    p.end = end;
    p.kernel = f.name();
    p.trace = trace;
    p.generation = generation;
    CompletionQueue& q = queue();
    std::lock_guard<std::mutex> lock(q.mutex);
    if (!q.started) {
      std::thread(complete_launches).detach();
      q.started = true;
    }
    q.pending.push_back(std::move(p));
    q.ready.notify_one();
    t.start = nullptr;
  } catch (...) {
    api.cuEventDestroy(end);
    trace_abandon(t);
  }
}

void set_launch_trace(dc_launch_trace_fn on_launch, dc_launch_trace_fn on_complete, void* user_data) {
  std::unique_lock<std::shared_mutex> lock(tracer_mutex());
  g_tracer.on_launch = on_launch;
  g_tracer.on_complete = on_complete;
  g_tracer.user_data = (on_launch || on_complete) ? user_data : nullptr;
  ++g_tracer.generation;
  detail::g_launch_trace_on.store(on_launch || on_complete, std::memory_order_relaxed);
  DC_LOG(DC_LOG_DEBUG, "trace", "launch trace %s", on_launch || on_complete ? (on_complete ? "on, with GPU times" : "on")
                                                                            : "off");
}

}  // namespace dc
