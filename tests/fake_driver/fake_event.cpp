// The fake driver's events (a test double, never a GPU). Work completes when
// it is enqueued, so a recorded event is complete at once; its timestamp is
// the host clock at the record. The legacy cuEventElapsedTime (CUDA 2.0 ABI)
// is in fake_compat.cpp and shares elapsed_time() below.
#include <chrono>
#include <cstring>

#include "fake_graph.h"
#include "fake_memory.h"

namespace fake {

struct Event {
  Context* ctx = nullptr;
  unsigned flags = 0;
  bool recorded = false;
  double time_ms = 0;
  // The recording stream's asynchronous error at the record: reported once
  // by this event's synchronisation or query.
  CUresult error = CUDA_SUCCESS;
  // A resident kernel running on the stream at the record: the event
  // completes when it ends.
  std::shared_ptr<ResidentRun> after;
};

namespace {

std::map<Event*, bool>& events() {
  static auto* m = new std::map<Event*, bool>;
  return *m;
}

Event* live_event(CUevent h) {
  Event* e = reinterpret_cast<Event*>(h);
  return events().count(e) ? e : nullptr;
}

double now_ms() {
  using namespace std::chrono;
  return duration<double, std::milli>(steady_clock::now().time_since_epoch()).count();
}

CUresult take_error(Event* e) {
  if (CUresult r = sticky_of(e->ctx)) return r;
  CUresult r = e->error;
  e->error = CUDA_SUCCESS;
  return r;
}

void drop_context(Context* ctx) {
  for (auto it = events().begin(); it != events().end();) {
    Event* e = it->first;
    ++it;
    if (e->ctx == ctx) {
      events().erase(e);
      live_add("events", -1);
      delete e;
    }
  }
}
ResetHook g_reset_hook(drop_context);

}  // namespace

bool event_context(CUevent h, Context** ctx) {
  Event* e = live_event(h);
  if (!e) return false;
  *ctx = e->ctx;
  return true;
}

CUresult record_event_now(CUevent h) {
  Event* e = live_event(h);
  if (!e) return CUDA_ERROR_INVALID_HANDLE;
  e->recorded = true;
  e->time_ms = now_ms();
  return CUDA_SUCCESS;
}

CUresult elapsed_time(float* ms, CUevent start, CUevent end) {
  if (!ms) return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard<std::recursive_mutex> g(lock());
  Event* a = live_event(start);
  Event* b = live_event(end);
  if (!a || !b) return CUDA_ERROR_INVALID_HANDLE;
  if ((a->flags | b->flags) & CU_EVENT_DISABLE_TIMING) return CUDA_ERROR_INVALID_HANDLE;
  if (!a->recorded || !b->recorded) return CUDA_ERROR_INVALID_HANDLE;
  if (a->ctx != b->ctx) return CUDA_ERROR_INVALID_HANDLE;
  *ms = static_cast<float>(b->time_ms - a->time_ms);
  return CUDA_SUCCESS;
}

}  // namespace fake

using namespace fake;

CUresult CUDAAPI cuEventCreate(CUevent* phEvent, unsigned int flags) {
  FAKE_ENTER(cuEventCreate);
  FAKE_REQUIRE_CONTEXT();
  if (!phEvent) return CUDA_ERROR_INVALID_VALUE;
  *phEvent = nullptr;
  if (flags & ~unsigned(CU_EVENT_BLOCKING_SYNC | CU_EVENT_DISABLE_TIMING | CU_EVENT_INTERPROCESS))
    return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard<std::recursive_mutex> g(lock());
  Event* e = new Event;
  e->ctx = current_context();
  e->flags = flags;
  events()[e] = true;
  live_add("events", 1);
  *phEvent = reinterpret_cast<CUevent>(e);
  return CUDA_SUCCESS;
}
FAKE_EXPORT(cuEventCreate, 2000)

CUresult CUDAAPI cuEventDestroy(CUevent hEvent) {
  FAKE_ENTER(cuEventDestroy);
  FAKE_REQUIRE_CONTEXT();
  std::lock_guard<std::recursive_mutex> g(lock());
  Event* e = live_event(hEvent);
  if (!e) return CUDA_ERROR_INVALID_HANDLE;
  run_all_held_work();  // a held record of it must not outlive it
  events().erase(e);
  live_add("events", -1);
  delete e;
  return CUDA_SUCCESS;
}
FAKE_EXPORT(cuEventDestroy, 4000)

CUresult CUDAAPI cuEventRecord(CUevent hEvent, CUstream hStream) {
  FAKE_ENTER(cuEventRecord);
  FAKE_REQUIRE_CONTEXT();
  std::lock_guard<std::recursive_mutex> g(lock());
  Event* e = live_event(hEvent);
  if (!e) return CUDA_ERROR_INVALID_HANDLE;
  Stream* s = nullptr;
  if (CUresult r = stream_for_work(hStream, &s)) return r;
  if (e->ctx != s->ctx) return CUDA_ERROR_INVALID_HANDLE;
  e->after = running_resident(s);
  // By value: on a held stream (dcfake_hold_stream) the record runs later.
  return enqueue(s, "cuEventRecord", [e, s] {
    e->recorded = true;
    e->time_ms = now_ms();
    e->error = s->pending_error;
    return CUDA_SUCCESS;
  });
}
FAKE_EXPORT(cuEventRecord, 2000)

CUresult CUDAAPI cuEventSynchronize(CUevent hEvent) {
  FAKE_ENTER(cuEventSynchronize);
  FAKE_REQUIRE_CONTEXT();
  std::unique_lock<std::recursive_mutex> g(lock());
  Event* e = live_event(hEvent);
  if (!e) return CUDA_ERROR_INVALID_HANDLE;
  run_all_held_work();  // the event completes when its stream gets there
  if (std::shared_ptr<ResidentRun> run = e->after) {
    g.unlock();
    run->wait();
    g.lock();
    e = live_event(hEvent);
    if (!e) return CUDA_ERROR_INVALID_HANDLE;
  }
  return take_error(e);
}
FAKE_EXPORT(cuEventSynchronize, 2000)

CUresult CUDAAPI cuEventQuery(CUevent hEvent) {
  FAKE_ENTER(cuEventQuery);
  FAKE_REQUIRE_CONTEXT();
  std::lock_guard<std::recursive_mutex> g(lock());
  Event* e = live_event(hEvent);
  if (!e) return CUDA_ERROR_INVALID_HANDLE;
  run_all_held_work();  // the event completes when its stream gets there
  if (e->after && !e->after->finished()) return CUDA_ERROR_NOT_READY;
  return take_error(e);
}
FAKE_EXPORT(cuEventQuery, 2000)

CUresult CUDAAPI cuEventElapsedTime(float* pMilliseconds, CUevent hStart, CUevent hEnd) {
  FAKE_ENTER(cuEventElapsedTime);
  FAKE_REQUIRE_CONTEXT();
  return elapsed_time(pMilliseconds, hStart, hEnd);
}
FAKE_EXPORT(cuEventElapsedTime, 12080)

// ---------------------------------------------------------------------------
// Interprocess events. The fake models one process: the handle names the
// event and the process; opening it in that process gives a new event that is
// recorded and complete (work completes when enqueued in the fake, so the
// exporter's records have all happened). Another process cannot open it (a
// real driver, the other way round, refuses the exporting process).

namespace {
struct FakeIpcEvent {
  char magic[4];
  uint32_t process;
  Event* event;
};
constexpr char kIpcEventMagic[4] = {'F', 'K', 'I', 'E'};
}  // namespace

CUresult CUDAAPI cuIpcGetEventHandle(CUipcEventHandle* pHandle, CUevent event) {
  FAKE_ENTER(cuIpcGetEventHandle);
  FAKE_REQUIRE_CONTEXT();
  if (!pHandle) return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard<std::recursive_mutex> g(lock());
  Event* e = live_event(event);
  if (!e) return CUDA_ERROR_INVALID_HANDLE;
  if (!(e->flags & CU_EVENT_INTERPROCESS) || !(e->flags & CU_EVENT_DISABLE_TIMING)) return CUDA_ERROR_INVALID_VALUE;
  FakeIpcEvent h{};
  std::memcpy(h.magic, kIpcEventMagic, 4);
  h.process = fake_process_id();
  h.event = e;
  std::memset(pHandle, 0, sizeof *pHandle);
  std::memcpy(pHandle->reserved, &h, sizeof h);
  return CUDA_SUCCESS;
}
FAKE_EXPORT(cuIpcGetEventHandle, 4010)

CUresult CUDAAPI cuIpcOpenEventHandle(CUevent* phEvent, CUipcEventHandle handle) {
  FAKE_ENTER(cuIpcOpenEventHandle);
  FAKE_REQUIRE_CONTEXT();
  if (!phEvent) return CUDA_ERROR_INVALID_VALUE;
  *phEvent = nullptr;
  FakeIpcEvent h;
  std::memcpy(&h, handle.reserved, sizeof h);
  std::lock_guard<std::recursive_mutex> g(lock());
  if (std::memcmp(h.magic, kIpcEventMagic, 4) != 0 || h.process != fake_process_id() || !events().count(h.event))
    return CUDA_ERROR_INVALID_VALUE;
  Event* e = new Event;
  e->ctx = current_context();
  e->flags = h.event->flags;
  e->recorded = true;
  events()[e] = true;
  live_add("events", 1);
  *phEvent = reinterpret_cast<CUevent>(e);
  return CUDA_SUCCESS;
}
FAKE_EXPORT(cuIpcOpenEventHandle, 4010)
