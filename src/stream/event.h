// An event on a device: recorded on a stream, waited for, timed.
#pragma once

#include "loader/cuda_abi/driver_abi.h"

#include <atomic>
#include <cstdint>

#include "dccuda.h"
#include "device/device.h"
#include "stream/stream.h"

namespace dc {

class Event : public DeviceObject {
 public:
  static constexpr HandleType kHandleType = HandleType::Event;

  // dc_event_create with DC_EVENT_* flags (checked by the caller); the
  // device's context must be bound.
  static Ref<Event> create(Ref<Device> device, uint32_t flags);
  // An event another process exported (core/ipc_blob.h), opened in the
  // device's context (bound); this process destroys its handle.
  static Ref<Event> import_ipc(Ref<Device> device, const void* driver_handle);
  // The driver's interprocess handle (64 bytes) of an event made with
  // DC_EVENT_INTERPROCESS; the context must be bound.
  void export_ipc(void* driver_handle);
  uint32_t flags() const noexcept { return flags_; }
  ~Event() override;

  CUevent handle() const noexcept { return handle_; }
  bool timing() const noexcept { return !(flags_ & DC_EVENT_DISABLE_TIMING); }
  bool recorded() const noexcept { return recorded_.load(std::memory_order_acquire); }

  void record(Stream& stream);
  void synchronize();
  // True if complete, false if not yet (DC_NOT_READY).
  bool query();
  // Milliseconds from `start` to `end` (both checked: timing, recorded, done).
  static float elapsed_ms(Event& start, Event& end);

 private:
  Event(Ref<Device> device, uint32_t flags) noexcept
      : DeviceObject(HandleType::Event, std::move(device)), flags_(flags) {}

  CUevent handle_ = nullptr;
  uint32_t flags_;
  std::atomic<bool> recorded_{false};
};

}  // namespace dc
