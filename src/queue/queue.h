// dc_queue: a single-producer / single-consumer ring of fixed-size slots in
// page-locked host memory mapped into the device, or in device memory for a
// queue between kernels (dccuda.h, "Message queues and resident kernels").
// The ring's layout (flagged slots) and the one implementation of writing and
// reading a slot are include/dccuda_device.h's: the host side runs the same
// functions, compiled for the host, as the kernel does on the GPU.
//
// Host calls on one queue are serialised by a mutex, so several host threads
// may share the host's side. The other side is a kernel (or, in tests on the
// fake driver, a host thread playing it).
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>

#include "dccuda_device.h"
#include "device/device.h"
#include "memory/buffer.h"

namespace dc {

class Queue : public DeviceObject {
 public:
  static constexpr HandleType kHandleType = HandleType::Queue;

  // Checks the shape (fails with DC_ERROR_INVALID_ARGUMENT naming it) and
  // allocates the ring. The caller binds the device's context.
  static Ref<Queue> create(Ref<Device> device, int32_t direction, uint32_t slot_size, uint32_t capacity);

  const Ref<Buffer>& buffer() const noexcept { return buffer_; }

  // The host's side. Each fails with DC_ERROR_INVALID_ARGUMENT when the
  // queue's direction makes the host the other side.
  // true: enqueued; false: full. A message larger than a slot: OUT_OF_RANGE.
  bool try_enqueue(const void* message, uint32_t size);
  // true: enqueued; false: still full after timeout_us (counted as a drop).
  bool enqueue(const void* message, uint32_t size, int32_t wait, uint64_t timeout_us);
  // How many whole messages of `message_size` were enqueued (0: full).
  uint32_t enqueue_batch(const void* messages, uint64_t size, uint32_t message_size);
  // true: dequeued; false: empty. A message longer than max_size: OUT_OF_RANGE.
  bool try_dequeue(void* message, uint32_t max_size, uint32_t* size);
  bool dequeue(void* message, uint32_t max_size, uint32_t* size, int32_t wait, uint64_t timeout_us);
  uint32_t dequeue_batch(void* messages, uint64_t size, uint32_t stride);

  // Between kernels the counters are copied from device memory (binding the
  // device's context; refused in a host function).
  void fill_stats(dc_queue_stats* stats) const;

 private:
  Queue(Ref<Device> device, Ref<Buffer> buffer, int32_t direction, uint32_t slot_size, uint32_t capacity) noexcept;
  void require_host_side() const;
  void require_producer() const;
  void require_consumer() const;
  void check_message_size(uint32_t size) const;
  // Under mutex_: one attempt each.
  bool attempt_enqueue(const void* message, uint32_t size);
  bool attempt_dequeue(void* message, uint32_t max_size, uint32_t* size);

  uint64_t capacity() const noexcept { return uint64_t(mask_) + 1; }
  unsigned char* slot(uint64_t position) const noexcept;
  void write_slot(uint64_t position, const void* message, uint32_t size) noexcept;
  bool arrived(uint64_t position, uint32_t* size) const noexcept;
  void read_slot(uint64_t position, void* message, uint32_t size) const;
  // DC_ERROR_INTERNAL for a length past the slot.
  void check_arrived_length(uint64_t position, uint32_t size) const;

  Ref<Buffer> buffer_;
  dc_queue_ring* ring_;  // nullptr between kernels (device memory)
  int32_t direction_;
  // The shape, kept on the host side: the kernel can write the ring's header.
  uint32_t slot_size_;
  uint32_t mask_;
  uint64_t stride_;  // bytes per flagged slot
  unsigned char* slots_;
  std::mutex mutex_;
  std::atomic<uint64_t> full_waits_{0}, empty_waits_{0}, drops_{0};
};

}  // namespace dc
