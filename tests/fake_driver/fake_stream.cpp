// The fake driver's streams (a test double, never a GPU): creation,
// synchronisation, queries, event waits and host functions. Stream work runs
// at once on the calling thread (enqueue()); a failed asynchronous operation
// can be injected with dcfake_inject_async and is reported by the stream's
// next synchronisation, as a GPU reports a failed copy.
#include <string>

#include "fake_graph.h"
#include "fake_memory.h"
#include "core/sticky_errors.h"  // the library's list of sticky errors: one list for both

namespace fake {
namespace {

std::map<Stream*, bool>& streams() {
  static auto* m = new std::map<Stream*, bool>;
  return *m;
}

// Each context's default stream (NULL, CU_STREAM_LEGACY, CU_STREAM_PER_THREAD
// all name it: the fake does not tell the legacy and per-thread streams apart
// because all work completes at once anyway).
std::map<Context*, Stream*>& default_streams() {
  static auto* m = new std::map<Context*, Stream*>;
  return *m;
}

struct AsyncFault {
  long call;        // the enqueue count of the entry at which it fires
  CUresult result;
};
std::map<std::string, long>& async_calls() {
  static auto* m = new std::map<std::string, long>;
  return *m;
}
std::map<std::string, std::vector<AsyncFault>>& async_faults() {
  static auto* m = new std::map<std::string, std::vector<AsyncFault>>;
  return *m;
}

bool is_default_handle(CUstream h) { return h == nullptr || h == CU_STREAM_LEGACY || h == CU_STREAM_PER_THREAD; }

Stream* default_stream(Context* ctx) {
  Stream*& s = default_streams()[ctx];
  if (!s) {
    s = new Stream;
    s->ctx = ctx;
    s->is_default = true;
  }
  return s;
}

bool sticky(CUresult r) { return dc::is_sticky_cuda_result(r); }

// Reports (once) the stream's pending asynchronous error.
CUresult take_pending(Stream* s) {
  if (CUresult r = sticky_of(s->ctx)) return r;
  CUresult r = s->pending_error;
  s->pending_error = CUDA_SUCCESS;
  return r;
}

void drop_context(Context* ctx) {
  for (auto it = streams().begin(); it != streams().end();) {
    Stream* s = it->first;
    ++it;
    if (s->ctx == ctx) {
      drop_capture(s);
      streams().erase(s);
      live_add("streams", -1);
      delete s;
    }
  }
  auto d = default_streams().find(ctx);
  if (d != default_streams().end()) {
    delete d->second;
    default_streams().erase(d);
  }
}
ResetHook g_reset_hook(drop_context);

}  // namespace

bool invalidate_captures_of(Context* ctx) {
  bool any = false;
  for (auto& [s, unused] : streams()) {
    (void)unused;
    if (s->ctx == ctx && s->capture) {
      invalidate_capture(s);
      any = true;
    }
  }
  return any;
}

CUresult any_stream(CUstream h, Stream** out) {
  *out = nullptr;
  if (is_default_handle(h)) {
    Context* c = current_context();
    if (!c) return CUDA_ERROR_INVALID_CONTEXT;
    *out = default_stream(c);
    return CUDA_SUCCESS;
  }
  Stream* s = reinterpret_cast<Stream*>(h);
  if (!streams().count(s)) return CUDA_ERROR_INVALID_HANDLE;
  *out = s;
  return CUDA_SUCCESS;
}

CUresult stream_for_work(CUstream h, Stream** out) {
  if (CUresult r = any_stream(h, out)) return r;
  // Work on another context's stream is refused: it would hide a context
  // that dccuda forgot to bind.
  if ((*out)->ctx != current_context()) {
    *out = nullptr;
    return CUDA_ERROR_INVALID_HANDLE;
  }
  return CUDA_SUCCESS;
}

std::shared_ptr<ResidentRun> running_resident(Stream* stream) {
  if (!stream || !stream->resident || stream->resident->finished()) return nullptr;
  return stream->resident;
}

std::vector<std::shared_ptr<ResidentRun>> running_residents(Context* ctx) {
  std::vector<std::shared_ptr<ResidentRun>> out;
  for (auto& [s, unused] : streams()) {
    (void)unused;
    if (s->ctx == ctx)
      if (auto r = running_resident(s)) out.push_back(r);
  }
  return out;
}

// The work a held stream keeps for later: what owns everything it uses
// (captured by value), so that it can run after the call returned.
static bool can_wait(const char* entry) {
  std::string e = entry;
  bool async = e.size() > 5 && e.compare(e.size() - 5, 5, "Async") == 0;
  return (async && (e.rfind("cuMemset", 0) == 0 || e.rfind("cuMemcpy", 0) == 0)) || e == "cuEventRecord";
}

void run_held_work(Stream* stream) {
  auto work = std::move(stream->held_work);
  stream->held_work.clear();
  for (auto& [entry, w] : work) {
    CUresult r = w();
    if (r != CUDA_SUCCESS && stream->pending_error == CUDA_SUCCESS) stream->pending_error = r;
  }
}

void run_all_held_work() {
  for (auto& [s, unused] : streams()) {
    (void)unused;
    run_held_work(s);
  }
}

static CUresult run_now(Stream* stream, const char* entry, const std::function<CUresult()>& work) {
  long n = ++async_calls()[entry];
  CUresult r = work();
  if (r != CUDA_SUCCESS) return r;
  ++stream->operations;
  auto it = async_faults().find(entry);
  if (it != async_faults().end()) {
    for (const AsyncFault& f : it->second) {
      if (f.call != n) continue;
      // The work "ran and failed on the device": a sticky fault breaks the
      // context now, any other is kept for the stream's next synchronisation.
      if (sticky(f.result)) {
        stream->ctx->broken = f.result;
      } else {
        stream->pending_error = f.result;
      }
    }
  }
  return CUDA_SUCCESS;
}

CUresult enqueue(Stream* stream, const char* entry, const std::function<CUresult()>& work) {
  CUresult captured = CUDA_SUCCESS;
  if (stream->capture && capture_work(stream, entry, work, &captured)) return captured;
  if (stream->held && can_wait(entry)) {
    ++async_calls()[entry];
    ++stream->operations;
    stream->held_work.emplace_back(entry, work);
    return CUDA_SUCCESS;
  }
  // Work that cannot wait runs in stream order: after what is held.
  run_held_work(stream);
  return run_now(stream, entry, work);
}

}  // namespace fake

using namespace fake;

FAKE_API void dcfake_hold_stream(void* cu_stream, int held) {
  std::lock_guard<std::recursive_mutex> g(lock());
  Stream* s = reinterpret_cast<Stream*>(cu_stream);
  if (is_default_handle(static_cast<CUstream>(cu_stream)) || !streams().count(s)) return;
  s->held = held != 0;
  if (!s->held) run_held_work(s);
}

FAKE_API void dcfake_inject_async(const char* entry, int nth, int result) {
  std::lock_guard<std::recursive_mutex> g(lock());
  long base = async_calls()[entry];
  async_faults()[entry].push_back({base + nth, static_cast<CUresult>(result)});
}

CUresult CUDAAPI cuStreamCreateWithPriority(CUstream* phStream, unsigned int flags, int priority) {
  FAKE_ENTER(cuStreamCreateWithPriority);
  FAKE_REQUIRE_CONTEXT();
  if (!phStream) return CUDA_ERROR_INVALID_VALUE;
  *phStream = nullptr;
  if (flags != CU_STREAM_DEFAULT && flags != CU_STREAM_NON_BLOCKING) return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard<std::recursive_mutex> g(lock());
  Stream* s = new Stream;
  s->ctx = current_context();
  s->flags = flags;
  // As a real driver: priorities outside [greatest, least] = [-5, 0] are clamped.
  s->priority = priority < -5 ? -5 : priority > 0 ? 0 : priority;
  streams()[s] = true;
  live_add("streams", 1);
  *phStream = reinterpret_cast<CUstream>(s);
  return CUDA_SUCCESS;
}
FAKE_EXPORT(cuStreamCreateWithPriority, 5050)

CUresult CUDAAPI cuStreamDestroy(CUstream hStream) {
  FAKE_ENTER(cuStreamDestroy);
  FAKE_REQUIRE_CONTEXT();
  std::lock_guard<std::recursive_mutex> g(lock());
  Stream* s = reinterpret_cast<Stream*>(hStream);
  if (is_default_handle(hStream) || !streams().count(s)) return CUDA_ERROR_INVALID_HANDLE;
  run_held_work(s);  // destroying a stream lets its work finish
  drop_capture(s);
  streams().erase(s);
  live_add("streams", -1);
  delete s;
  return CUDA_SUCCESS;
}
FAKE_EXPORT(cuStreamDestroy, 4000)

CUresult CUDAAPI cuStreamSynchronize(CUstream hStream) {
  FAKE_ENTER(cuStreamSynchronize);
  FAKE_REQUIRE_CONTEXT();
  std::unique_lock<std::recursive_mutex> g(lock());
  Stream* s = nullptr;
  if (CUresult r = any_stream(hStream, &s)) return r;
  // Not allowed while the stream captures: the capture is invalidated.
  if (s->capture) {
    invalidate_capture(s);
    return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
  }
  run_held_work(s);
  // A resident kernel on the stream: wait until it ends, as a GPU does (for
  // ever, if nothing tells it to).
  if (std::shared_ptr<ResidentRun> run = running_resident(s)) {
    g.unlock();
    run->wait();
    g.lock();
    if (CUresult r = any_stream(hStream, &s)) return r;
  }
  return take_pending(s);
}
FAKE_EXPORT(cuStreamSynchronize, 2000)

CUresult CUDAAPI cuStreamQuery(CUstream hStream) {
  FAKE_ENTER(cuStreamQuery);
  FAKE_REQUIRE_CONTEXT();
  std::lock_guard<std::recursive_mutex> g(lock());
  Stream* s = nullptr;
  if (CUresult r = any_stream(hStream, &s)) return r;
  // Not allowed while the stream captures: the capture is invalidated.
  if (s->capture) {
    invalidate_capture(s);
    return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
  }
  run_held_work(s);
  if (running_resident(s)) return CUDA_ERROR_NOT_READY;
  return take_pending(s);
}
FAKE_EXPORT(cuStreamQuery, 2000)

CUresult CUDAAPI cuStreamWaitEvent(CUstream hStream, CUevent hEvent, unsigned int flags) {
  FAKE_ENTER(cuStreamWaitEvent);
  FAKE_REQUIRE_CONTEXT();
  if (flags != 0 && flags != CU_EVENT_WAIT_EXTERNAL) return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard<std::recursive_mutex> g(lock());
  Stream* s = nullptr;
  if (CUresult r = stream_for_work(hStream, &s)) return r;
  Context* event_ctx = nullptr;
  if (!event_context(hEvent, &event_ctx)) return CUDA_ERROR_INVALID_HANDLE;
  // The event's work is complete once held work has run: waiting is then a
  // no-op (events of other devices are allowed, as on a real driver).
  run_all_held_work();
  return enqueue(s, "cuStreamWaitEvent", [] { return CUDA_SUCCESS; });
}
FAKE_EXPORT(cuStreamWaitEvent, 3020)

CUresult CUDAAPI cuLaunchHostFunc(CUstream hStream, CUhostFn fn, void* userData) {
  FAKE_ENTER(cuLaunchHostFunc);
  FAKE_REQUIRE_CONTEXT();
  if (!fn) return CUDA_ERROR_INVALID_VALUE;
  {
    std::lock_guard<std::recursive_mutex> g(lock());
    Stream* s = nullptr;
    if (CUresult r = stream_for_work(hStream, &s)) return r;
    if (s->capture) {
      // Recorded: the function runs at every launch of the graph instead.
      Node node;
      node.type = NodeType::Host;
      node.entry = "cuLaunchHostFunc";
      node.host_fn = fn;
      node.host_data = userData;
      return capture_node(s, std::move(node));
    }
    if (CUresult r = enqueue(s, "cuLaunchHostFunc", [] { return CUDA_SUCCESS; })) return r;
  }
  // Run outside the fake's lock, as a driver thread would: the function may
  // do anything a host function may do.
  run_host_function(fn, userData);
  return CUDA_SUCCESS;
}
FAKE_EXPORT(cuLaunchHostFunc, 10000)

// Not used by dccuda; exported so that tests can check a stream's flags and
// priority through the driver, on the fake and on a real GPU alike.
CUresult CUDAAPI cuStreamGetPriority(CUstream hStream, int* priority) {
  FAKE_ENTER(cuStreamGetPriority);
  FAKE_REQUIRE_CONTEXT();
  if (!priority) return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard<std::recursive_mutex> g(lock());
  Stream* s = nullptr;
  if (CUresult r = any_stream(hStream, &s)) return r;
  *priority = s->priority;
  return CUDA_SUCCESS;
}
FAKE_EXPORT(cuStreamGetPriority, 5050)

CUresult CUDAAPI cuStreamGetFlags(CUstream hStream, unsigned int* flags) {
  FAKE_ENTER(cuStreamGetFlags);
  FAKE_REQUIRE_CONTEXT();
  if (!flags) return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard<std::recursive_mutex> g(lock());
  Stream* s = nullptr;
  if (CUresult r = any_stream(hStream, &s)) return r;
  *flags = s->flags;
  return CUDA_SUCCESS;
}
FAKE_EXPORT(cuStreamGetFlags, 5050)
