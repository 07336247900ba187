// A CUDA device and its primary context, shared by every handle and object on
// that device. One Device object exists per ordinal while anything uses it.
#pragma once

#include "loader/cuda_abi/driver_abi.h"

#include <atomic>
#include <cstdint>
#include <optional>
#include <shared_mutex>
#include <string>

#include "core/error.h"
#include "core/handle_table.h"
#include "core/object.h"
#include "device/residency.h"

namespace dc {

// The number of devices the driver reports (0 if it reports none).
int32_t device_count();

// Attributes read once at open, for checks on hot paths.
struct DeviceLimits {
  int32_t compute_major = 0;
  int32_t compute_minor = 0;
  int32_t multiprocessors = 0;
  int32_t warp_size = 32;
  int32_t max_threads_per_block = 0;
  int32_t max_block_dim[3] = {0, 0, 0};
  int32_t max_grid_dim[3] = {0, 0, 0};
  int32_t max_shared_per_block = 0;
  int32_t max_shared_per_block_optin = 0;
  bool unified_addressing = false;
  bool managed_memory = false;
  bool concurrent_managed_access = false;
  bool cooperative_launch = false;
  bool cluster_launch = false;
  bool memory_pools = false;
  bool virtual_memory = false;  // cuMemAddressReserve, cuMemCreate, cuMemMap
};

// The memory layer's per-device state (pool, internal stream, staging
// buffers): defined in memory/memory_state.h, made on first use. The device
// only holds it (opaque here: the memory layer is above this one).
struct MemoryState;

// Cache-line aligned: what every launch reads (the context, the generation,
// the lost flag) is one line of it.
class alignas(64) Device : public Object {
 public:
  static constexpr HandleType kHandleType = HandleType::Device;

  // The device for `ordinal`, opened (primary context retained) if needed.
  static Ref<Device> open(int32_t ordinal);
  ~Device() override;

  int32_t ordinal() const noexcept { return ordinal_; }
  void describe(ObjectDescription& d) const noexcept override { d.device_ordinal = ordinal_; }
  CUdevice cu_device() const noexcept { return cu_device_; }
  CUcontext context() const noexcept { return context_.load(std::memory_order_acquire); }
  const DeviceLimits& limits() const noexcept { return limits_; }

  // Bumped by reset(): objects made under an older generation are dead.
  uint32_t generation() const noexcept { return generation_.load(std::memory_order_acquire); }

  bool lost() const noexcept { return lost_result_.load(std::memory_order_relaxed) != 0; }
  // Fails with DC_ERROR_CONTEXT_LOST if a fault destroyed the context.
  void check_usable() const {
    if (lost()) [[unlikely]]
      fail_lost();
  }
  [[noreturn]] void fail_lost() const;
  void mark_lost(CUresult result) noexcept;

  // dc_device_reset: new primary context, new generation.
  void reset();

  // Whether this device's context may access `peer_ordinal`'s memory directly
  // (dc_device_enable_peer_access was called; ordinals >= 64 are never recorded).
  bool peer_enabled(int32_t peer_ordinal) const noexcept {
    return peer_ordinal >= 0 && peer_ordinal < 64 &&
           (peers_enabled_.load(std::memory_order_acquire) >> peer_ordinal) & 1u;
  }
  void set_peer_enabled(int32_t peer_ordinal, bool enabled) noexcept {
    if (peer_ordinal < 0 || peer_ordinal >= 64) return;
    uint64_t bit = uint64_t(1) << peer_ordinal;
    if (enabled) peers_enabled_.fetch_or(bit, std::memory_order_acq_rel);
    else peers_enabled_.fetch_and(~bit, std::memory_order_acq_rel);
  }
  // The memory layer's state for this device (memory/memory_state.h owns and
  // destroys it; it is rebuilt when the generation changes).
  std::atomic<MemoryState*>& memory_state() noexcept { return memory_state_; }
  // How to destroy that state, given by the memory layer when it makes one;
  // ~Device calls it first, so that the pool, the internal stream and the
  // staging buffers go before the context.
  void set_memory_teardown(void (*teardown)(Device&) noexcept) noexcept {
    memory_teardown_.store(teardown, std::memory_order_release);
  }
  // Held shared by context-wide waits and exclusively while a capture
  // begins, so that no capture begins in the middle of such a wait (which
  // would invalidate it): see stream/device_wait.h.
  std::shared_mutex& capture_gate() const noexcept { return capture_gate_; }
  // Persistent kernels running on the device (device/residency.h).
  Residency& residency() const noexcept { return residency_; }

 private:
  explicit Device(int32_t ordinal);

  int32_t ordinal_;
  CUdevice cu_device_ = 0;
  std::atomic<CUcontext> context_{nullptr};
  std::atomic<uint32_t> generation_{1};
  std::atomic<int32_t> lost_result_{0};
  std::atomic<uint64_t> peers_enabled_{0};
  bool retained_ = false;  // we hold a retain of the primary context (released by ~Device)
  DeviceLimits limits_;
  std::atomic<MemoryState*> memory_state_{nullptr};
  std::atomic<void (*)(Device&) noexcept> memory_teardown_{nullptr};
  mutable std::shared_mutex capture_gate_;
  mutable Residency residency_;
};

// Something that lives on a device: it keeps the device alive and knows the
// context generation it was made in.
class DeviceObject : public Object {
 public:
  DeviceObject(HandleType type, Ref<Device> device) noexcept
      : Object(type), device_(std::move(device)), generation_(device_->generation()) {}

  Device& device() const noexcept { return *device_; }
  const Ref<Device>& device_ref() const noexcept { return device_; }
  void describe(ObjectDescription& d) const noexcept override { d.device_ordinal = device_->ordinal(); }
  // False once the device was reset after this object was made: its driver
  // objects are gone, and it must neither be used nor freed.
  bool current() const noexcept { return generation_ == device_->generation(); }
  // Fails with DC_ERROR_CONTEXT_LOST if the device is lost or was reset since.
  void check_usable() const {
    if (!current() || device_->lost()) [[unlikely]]
      fail_unusable();
  }

 private:
  [[noreturn]] void fail_unusable() const;

  Ref<Device> device_;
  uint32_t generation_;
};

// The context this thread had current when the library last bound or found
// one there (null: none seen yet, or unknown). A cache of cuCtxGetCurrent
// for the launch paths (LaunchContext); stale once the caller changes the
// thread's context with the driver directly. (Kept in the thread's error slot:
// core/error.h.)
inline void*& context_seen() noexcept { return detail::t_error_slot.context_seen; }

// Binds the device's primary context to the calling thread for the scope of a
// call (the header's "Threads" convention). A thread with no current context keeps ours after the
// call; another context that was current is restored.
class ContextScope {
 public:
  explicit ContextScope(const Device& device);
  ~ContextScope();
  ContextScope(const ContextScope&) = delete;
  ContextScope& operator=(const ContextScope&) = delete;

  // Whether another context, or none, was current (the binding changed it).
  bool changed() const noexcept { return changed_; }

 private:
  CUcontext restore_ = nullptr;
  bool changed_ = false;
};

// dc_graph_launch's binding: the driver launches a graph in the context of its
// stream and executable graph whatever is current (probed on an H200,
// tests/gpu/probes/graph_launch_ab.cpp). Where the library last left the
// device's context current on this thread, it does not ask the driver again
// (a call into the driver on every launch); where that is stale (the caller
// changed the thread's context with the driver since), a launch that fails
// is tried again once bound (retry_bound). Else it binds as ContextScope does.
class LaunchContext {
 public:
  explicit LaunchContext(const Device& device) : device_(device) {
    if (!left_current(device, detail::t_error_slot)) [[unlikely]]
      bound_.emplace(device);
  }
  // Whether the library last left `device`'s context current on the thread
  // whose slot is `thread` (then a launch needs no binding and no query).
  static bool left_current(const Device& device, const detail::ErrorSlot& thread) noexcept {
    CUcontext ctx = device.context();
    return ctx && thread.context_seen == ctx;
  }
  LaunchContext(const LaunchContext&) = delete;
  LaunchContext& operator=(const LaunchContext&) = delete;

  // Binds the context for work that needs it current (instantiation).
  void bind() {
    if (!bound_) bound_.emplace(device_);
  }
  // After a driver call failed, made without asking: binds the context, and
  // answers whether the call is worth making again (the context current was
  // not the device's). False when the binding was already made.
  bool retry_bound() {
    if (bound_) return false;
    bound_.emplace(device_);
    return bound_->changed();
  }

 private:
  const Device& device_;
  std::optional<ContextScope> bound_;
};

}  // namespace dc
