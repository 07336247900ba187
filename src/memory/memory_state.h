// The memory area's state for one device and one context generation:
// dccuda's stream-ordered memory pool, an internal stream, the device's total
// memory and the staging buffers of pageable copies. It hangs off the Device
// (Device::memory_state()); dc_device_reset changes the generation, and the
// next use builds a fresh state (the old one's driver objects died with the
// old context and are never freed on the new one).
#pragma once

#include "loader/cuda_abi/driver_abi.h"

#include <cstdint>
#include <memory>
#include <mutex>

#include "device/device.h"

namespace dc {

class Stager;

struct MemoryState {
  MemoryState();
  ~MemoryState();

  uint32_t generation = 0;
  // dccuda's pool: freed memory stays cached (the release threshold is
  // unlimited) so that the next allocation needs no driver allocation;
  // dc_device_trim_memory gives it back. Null where the device or the driver
  // has no memory pools: device memory then comes from cuMemAlloc.
  CUmemoryPool pool = nullptr;
  // A non-blocking stream of the library's own: synchronous pool allocations
  // happen on it (and are synchronised there, so that every stream may use
  // them), and buffers only ever used synchronously are freed on it.
  CUstream internal = nullptr;
  uint64_t total_memory = 0;

  // Pageable copies stage through these pinned buffers (made at the first
  // large pageable copy); one staged copy at a time per device.
  std::mutex staging_mutex;
  std::unique_ptr<Stager> stager;
  bool staging_failed = false;   // pinned buffers could not be made: copy directly

  MemoryState* retired = nullptr;  // states of older generations, freed with the device
};

namespace detail {
MemoryState& make_memory_state(Device& device);
}

// The device's state for its current context generation, made on first use.
// The device's context must be bound. Fails like the driver calls it makes
// (DC_ERROR_OUT_OF_MEMORY...), leaving nothing behind.
inline MemoryState& memory_state(Device& device) {
  MemoryState* s = device.memory_state().load(std::memory_order_acquire);
  if (s && s->generation == device.generation()) [[likely]]
    return *s;
  return detail::make_memory_state(device);
}

// The state of the current generation if it was made, else nullptr.
inline MemoryState* existing_memory_state(Device& device) noexcept {
  MemoryState* s = device.memory_state().load(std::memory_order_acquire);
  return s && s->generation == device.generation() ? s : nullptr;
}

// ~Device: destroys the current generation's driver objects and frees every
// state. Never throws.
void destroy_memory_state(Device& device) noexcept;

// Peer access for pool memory: lets kernels and copies on `accessor` reach the
// memory `owner`'s pool hands out (cuMemPoolSetAccess), or takes that back.
// Enabling makes owner's state if needed. A device without a pool needs
// nothing (cuMemAlloc memory follows the contexts' peer access). Binds
// owner's context itself.
void set_pool_peer_access(Device& owner, Device& accessor, bool enable);

// dc_device_trim_memory: waits for the device's pending work (so that every
// stream-ordered free has happened) and trims the pool to `keep_bytes`.
// The device's context must be bound.
void trim_memory(Device& device, uint64_t keep_bytes);

}  // namespace dc
