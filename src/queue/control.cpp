#include "queue/control.h"

#include <cinttypes>
#include <cstring>

#include "core/error.h"
#include "queue/host_wait.h"

namespace dc {

static_assert(sizeof(dc_control_block) == 64);
static_assert(DC_CONTROL_IDLE == 0 && DC_CONTROL_RUNNING == 1 && DC_CONTROL_STOPPED == 2,
              "dccuda_device.h's dc_control_enter and dc_control_exit write these values");

const char* control_state_name(int32_t state) noexcept {
  switch (state) {
    case DC_CONTROL_IDLE: return "DC_CONTROL_IDLE";
    case DC_CONTROL_RUNNING: return "DC_CONTROL_RUNNING";
    case DC_CONTROL_STOPPED: return "DC_CONTROL_STOPPED";
    default: return "an unknown state (the kernel wrote the block by hand)";
  }
}

Ref<Control> Control::create(Ref<Device> device) {
  Ref<Buffer> buffer = Buffer::alloc_pinned(device, sizeof(dc_control_block), DC_ALLOC_DEVICE_MAPPED);
  if (!buffer->device_address())
    fail(DC_ERROR_NOT_SUPPORTED, "device %d cannot map page-locked host memory, which control blocks live in",
         device->ordinal());
  auto* block = static_cast<dc_control_block*>(buffer->host_pointer());
  std::memset(block, 0, sizeof *block);
  block->magic = DC_CONTROL_BLOCK_MAGIC;
  return Ref<Control>::adopt(new Control(std::move(device), std::move(buffer)));
}

Control::Control(Ref<Device> device, Ref<Buffer> buffer) noexcept
    : DeviceObject(kHandleType, std::move(device)),
      buffer_(std::move(buffer)),
      block_(static_cast<dc_control_block*>(buffer_->host_pointer())),
      seen_at_(std::chrono::steady_clock::now()) {}

int32_t Control::state() const noexcept { return static_cast<int32_t>(dc_dev_load_acquire_u32(&block_->state)); }

void Control::request_stop() {
  std::lock_guard<std::mutex> g(mutex_);
  int32_t s = state();
  if (s == DC_CONTROL_STOPPED)
    fail(DC_ERROR_INVALID_STATE, "the kernel has already stopped (DC_CONTROL_STOPPED); reset the block with "
         "dc_control_reset before launching it again");
  dc_dev_store_release_u32(&block_->stop_requested, 1u);
}

bool Control::wait_stopped(int32_t wait, uint64_t timeout_us) {
  require_wait_strategy(wait, "wait");
  HostWait w(wait, timeout_us);
  while (state() != DC_CONTROL_STOPPED)
    if (!w.pause()) return state() == DC_CONTROL_STOPPED;
  return true;
}

uint64_t Control::observe(uint64_t* heartbeat) {
  uint64_t beat = dc_dev_load_acquire_u64(&block_->heartbeat);
  auto now = std::chrono::steady_clock::now();
  if (beat != seen_heartbeat_) {
    seen_heartbeat_ = beat;
    seen_at_ = now;
  }
  *heartbeat = beat;
  return static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::microseconds>(now - seen_at_).count());
}

void Control::fill_info(dc_control_info* info) {
  std::lock_guard<std::mutex> g(mutex_);
  info->state = state();
  info->stop_requested = dc_dev_load_acquire_u32(&block_->stop_requested) ? 1u : 0u;
  info->errors = dc_dev_load_acquire_u64(&block_->errors);
  info->last_error = dc_dev_load_acquire_u32(&block_->last_error);
  info->idle_us = observe(&info->heartbeat);
}

bool Control::check_progress(uint64_t stall_us, uint64_t* idle_us, uint64_t* heartbeat) {
  std::lock_guard<std::mutex> g(mutex_);
  int32_t s = state();
  *idle_us = observe(heartbeat);
  if (s != DC_CONTROL_RUNNING)
    fail(DC_ERROR_INVALID_STATE, "the kernel is not running (%s); the watchdog watches a running kernel",
         control_state_name(s));
  return *idle_us <= stall_us;
}

void Control::reset() {
  std::lock_guard<std::mutex> g(mutex_);
  int32_t s = state();
  if (s == DC_CONTROL_RUNNING)
    fail(DC_ERROR_INVALID_STATE, "the kernel is still running (DC_CONTROL_RUNNING); stop it with "
         "dc_control_request_stop and dc_control_wait_stopped first");
  dc_dev_store_relaxed_u64(&block_->heartbeat, 0);
  dc_dev_store_relaxed_u64(&block_->errors, 0);
  dc_dev_store_relaxed_u32(&block_->last_error, 0);
  dc_dev_store_relaxed_u32(&block_->stop_requested, 0);
  dc_dev_store_release_u32(&block_->state, DC_CONTROL_IDLE);
  seen_heartbeat_ = 0;
  seen_at_ = std::chrono::steady_clock::now();
}

}  // namespace dc
