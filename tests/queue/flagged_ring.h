// A ring laid out in host memory as dc_queue_create lays it out, for tests
// that drive dccuda_device.h's slot functions on the host. The includer
// includes dccuda_device.h first (with its macros as it wants them).
#pragma once

#include <cstdint>
#include <vector>

// In an unnamed namespace: each includer's copy uses its own (static)
// dccuda_device.h functions, which may differ by the macros it set.
namespace queuetest {
namespace {

// A ring laid out as dc_queue_create lays it out, in host memory: the
// header, then the flagged slots, zeroed.
class FlaggedRing {
 public:
  // direction: DC_QUEUE_TO_DEVICE (1), _TO_HOST (2) or DC_RING_BETWEEN_KERNELS.
  FlaggedRing(uint32_t slot_size, uint32_t capacity, uint32_t direction = DC_RING_BETWEEN_KERNELS) {
    uint64_t slots = (sizeof(dc_queue_ring) + 127) / 128 * 128;
    uint64_t bytes = slots + dc_ring_flagged_stride(slot_size) * capacity;
    memory_.assign((bytes + 15) / 16 * 2, 0);  // 16-byte aligned, zeroed
    ring_ = reinterpret_cast<dc_queue_ring*>(memory_.data());
    ring_->magic = DC_QUEUE_RING_MAGIC;
    ring_->slot_size = slot_size;
    ring_->capacity = capacity;
    ring_->direction = direction;
    ring_->lengths_offset = 0;
    ring_->slots_offset = slots;
  }
  dc_queue_ring* ring() { return ring_; }
  // Word k of the slot that holds `position`.
  uint64_t* word(uint64_t position, uint32_t k) {
    auto* slot = reinterpret_cast<unsigned char*>(ring_) + ring_->slots_offset +
                 (position % ring_->capacity) * dc_ring_flagged_stride(ring_->slot_size);
    return reinterpret_cast<uint64_t*>(slot) + k;
  }

 private:
  std::vector<uint64_t> memory_;
  dc_queue_ring* ring_;
};

}  // namespace
}  // namespace queuetest
