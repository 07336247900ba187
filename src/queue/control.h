// dc_control: a resident kernel's control block (dccuda.h, "Message queues
// and resident kernels"), in page-locked host memory mapped into the device,
// laid out as include/dccuda_device.h's dc_control_block. The host writes
// only the stop request (and the whole block on reset, while no kernel runs);
// the kernel writes the rest.
//
// The watchdog: the host remembers the last heartbeat it saw and when it saw
// it change, so "no progress for N us" needs no clock on the GPU.
#pragma once

#include <chrono>
#include <cstdint>
#include <mutex>

#include "dccuda_device.h"
#include "device/device.h"
#include "memory/buffer.h"

namespace dc {

class Control : public DeviceObject {
 public:
  static constexpr HandleType kHandleType = HandleType::Control;

  // The caller binds the device's context.
  static Ref<Control> create(Ref<Device> device);

  const Ref<Buffer>& buffer() const noexcept { return buffer_; }

  // DC_ERROR_INVALID_STATE once the kernel stopped.
  void request_stop();
  // false: not stopped after timeout_us.
  bool wait_stopped(int32_t wait, uint64_t timeout_us);
  void fill_info(dc_control_info* info);
  // true: running and beating within stall_us; false: running and stalled.
  // DC_ERROR_INVALID_STATE when not running.
  bool check_progress(uint64_t stall_us, uint64_t* idle_us, uint64_t* heartbeat);
  // DC_ERROR_INVALID_STATE while running.
  void reset();

  int32_t state() const noexcept;

 private:
  Control(Ref<Device> device, Ref<Buffer> buffer) noexcept;
  // Reads the heartbeat and updates when it last changed; the idle time.
  uint64_t observe(uint64_t* heartbeat);

  Ref<Buffer> buffer_;
  dc_control_block* block_;
  std::mutex mutex_;  // the watchdog's memory, and reset against request_stop
  uint64_t seen_heartbeat_ = 0;
  std::chrono::steady_clock::time_point seen_at_;
};

const char* control_state_name(int32_t state) noexcept;

}  // namespace dc
