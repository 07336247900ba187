#include "stream/event.h"

#include <cstring>

#include "core/error.h"
#include "device/cuda_check.h"
#include "device/quiet_context.h"
#include "loader/driver.h"

namespace dc {

Ref<Event> Event::create(Ref<Device> device, uint32_t flags) {
  unsigned cu_flags = 0;
  if (flags & DC_EVENT_DISABLE_TIMING) cu_flags |= CU_EVENT_DISABLE_TIMING;
  if (flags & DC_EVENT_BLOCKING_SYNC) cu_flags |= CU_EVENT_BLOCKING_SYNC;
  if (flags & DC_EVENT_INTERPROCESS) cu_flags |= CU_EVENT_INTERPROCESS;
  Device* d = device.get();
  Ref<Event> e = Ref<Event>::adopt(new Event(std::move(device), flags));
  check(driver_api().cuEventCreate(&e->handle_, cu_flags), "cuEventCreate", d);
  return e;
}

Ref<Event> Event::import_ipc(Ref<Device> device, const void* driver_handle) {
  Device* d = device.get();
  Ref<Event> e = Ref<Event>::adopt(new Event(std::move(device), DC_EVENT_DISABLE_TIMING | DC_EVENT_INTERPROCESS));
  CUipcEventHandle h;
  std::memcpy(&h, driver_handle, sizeof h);
  CUresult r = driver_api().cuIpcOpenEventHandle(&e->handle_, h);
  if (r == CUDA_ERROR_INVALID_VALUE || r == CUDA_ERROR_INVALID_HANDLE || r == CUDA_ERROR_INVALID_CONTEXT)
    fail_cuda(DC_ERROR_INVALID_ARGUMENT, r, "the driver refused the exported event (cuIpcOpenEventHandle: %s); import "
              "it in another process than the exporter, while the exporter's event lives",
              cuda_error_name(r));
  check(r, "cuIpcOpenEventHandle", d);
  // The exporter's records count: a wait on it is meaningful at once.
  e->recorded_.store(true, std::memory_order_release);
  return e;
}

void Event::export_ipc(void* driver_handle) {
  if (!(flags_ & DC_EVENT_INTERPROCESS))
    fail(DC_ERROR_INVALID_ARGUMENT, "event was created without DC_EVENT_INTERPROCESS; create it with "
         "DC_EVENT_INTERPROCESS | DC_EVENT_DISABLE_TIMING to share it");
  CUipcEventHandle h{};
  check(driver_api().cuIpcGetEventHandle(&h, handle_), "cuIpcGetEventHandle", &device());
  std::memcpy(driver_handle, &h, sizeof h);
}

Event::~Event() {
  if (!handle_ || !current()) return;
  QuietContextScope bind(device());
  if (bind.ok()) release_quietly([&] { return driver_api().cuEventDestroy(handle_); });
}

void Event::record(Stream& stream) {
  check(driver_api().cuEventRecord(handle_, stream.handle()), "cuEventRecord", &device());
  recorded_.store(true, std::memory_order_release);
}

void Event::synchronize() { check(driver_api().cuEventSynchronize(handle_), "cuEventSynchronize", &device()); }

bool Event::query() {
  CUresult r = driver_api().cuEventQuery(handle_);
  if (r == CUDA_ERROR_NOT_READY) return false;
  check(r, "cuEventQuery", &device());
  return true;
}

float Event::elapsed_ms(Event& start, Event& end) {
  if (&start.device() != &end.device())
    fail(DC_ERROR_INVALID_ARGUMENT, "start is on device %d, end on device %d; time two events of one device",
         start.device().ordinal(), end.device().ordinal());
  for (Event* e : {&start, &end}) {
    const char* name = e == &start ? "start" : "end";
    if (!e->timing())
      fail(DC_ERROR_INVALID_ARGUMENT, "%s was created with DC_EVENT_DISABLE_TIMING; create it without that flag to "
           "time with it", name);
    if (!e->recorded())
      fail(DC_ERROR_INVALID_STATE, "%s was never recorded; record both events with dc_event_record first", name);
  }
  const DriverApi& api = driver_api();
  // The CUDA 12.8 entry point where the driver has it, else the CUDA 2.0 one
  // with the same signature.
  auto fn = present(api.cuEventElapsedTime) ? api.cuEventElapsedTime : api.cuEventElapsedTime_v2000;
  float ms = 0;
  CUresult r = fn(&ms, start.handle(), end.handle());
  if (r == CUDA_ERROR_NOT_READY)
    fail_cuda(DC_ERROR_INVALID_STATE, r, "the recorded work has not completed yet; call dc_event_synchronize(end) "
              "first");
  check(r, "cuEventElapsedTime", &start.device());
  return ms;
}

}  // namespace dc
