#include "queue/queue.h"

#include <cstddef>
#include <cstring>

#include <vector>

#include "core/error.h"
#include "memory/transfer.h"
#include "queue/host_wait.h"
#include "stream/host_callback.h"

namespace dc {
namespace {

// The layout include/dccuda_device.h publishes: the host and the kernel must
// agree on every offset.
static_assert(sizeof(dc_queue_ring) == 384);
static_assert(offsetof(dc_queue_ring, tail) == 128);
static_assert(offsetof(dc_queue_ring, head) == 256);

constexpr uint32_t kMinSlot = 8, kMaxSlot = 65536;
constexpr uint32_t kMinCapacity = 2, kMaxCapacity = 1u << 24;
constexpr uint64_t kMaxSlotBytes = uint64_t(1) << 30;

bool power_of_two(uint32_t v) { return v && !(v & (v - 1)); }

uint64_t round_up(uint64_t v, uint64_t to) { return (v + to - 1) / to * to; }

// The ring's header as include/dccuda_device.h reads it (in host memory, or
// in a host copy that goes to device memory).
void write_header(dc_queue_ring* ring, int32_t direction, uint32_t slot_size, uint32_t capacity, uint64_t lengths,
                  uint64_t slots) {
  ring->magic = DC_QUEUE_RING_MAGIC;
  ring->slot_size = slot_size;
  ring->capacity = capacity;
  ring->direction = static_cast<uint32_t>(direction);
  ring->lengths_offset = lengths;
  ring->slots_offset = slots;
}


}  // namespace

Ref<Queue> Queue::create(Ref<Device> device, int32_t direction, uint32_t slot_size, uint32_t capacity) {
  if (direction != DC_QUEUE_TO_DEVICE && direction != DC_QUEUE_TO_HOST && direction != DC_QUEUE_BETWEEN_KERNELS)
    fail(DC_ERROR_INVALID_ARGUMENT,
         "direction is %d; use DC_QUEUE_TO_DEVICE (1), DC_QUEUE_TO_HOST (2) or DC_QUEUE_BETWEEN_KERNELS (3)",
         direction);
  if (!power_of_two(slot_size) || slot_size < kMinSlot || slot_size > kMaxSlot)
    fail(DC_ERROR_INVALID_ARGUMENT, "slot_size %u is not a power of two from %u to %u; round it up", slot_size,
         kMinSlot, kMaxSlot);
  if (!power_of_two(capacity) || capacity < kMinCapacity || capacity > kMaxCapacity)
    fail(DC_ERROR_INVALID_ARGUMENT, "capacity %u is not a power of two from %u to %u", capacity, kMinCapacity,
         kMaxCapacity);
  if (uint64_t(slot_size) * capacity > kMaxSlotBytes)
    fail(DC_ERROR_INVALID_ARGUMENT, "slot_size %u * capacity %u exceeds 1 GiB; use fewer or smaller slots",
         slot_size, capacity);
  uint64_t lengths = sizeof(dc_queue_ring);
  uint64_t slots = round_up(lengths + uint64_t(4) * capacity, 128);
  uint64_t bytes = slots + uint64_t(slot_size) * capacity;
  if (direction == DC_QUEUE_BETWEEN_KERNELS) {
    // Device memory, outside the stream-ordered pool (a resident kernel may
    // use it while other streams allocate and free). Flagged slots
    // (dccuda_device.h): each twice the slot size and more, zeroed, because
    // memory a former ring left could show the flags a new ring's reader
    // expects. The header is written once from the host.
    bytes = slots + dc_ring_flagged_stride(slot_size) * capacity;
    Ref<Buffer> buffer = Buffer::alloc_device(device, bytes, DC_ALLOC_NO_POOL);
    fill(*buffer, slots, bytes - slots, 0, 1, nullptr);
    std::vector<unsigned char> header(static_cast<size_t>(slots), 0);
    write_header(reinterpret_cast<dc_queue_ring*>(header.data()), direction, slot_size, capacity, lengths, slots);
    write(*buffer, 0, header.data(), header.size(), nullptr);
    return Ref<Queue>::adopt(new Queue(std::move(device), std::move(buffer), direction, slot_size, capacity));
  }
  Ref<Buffer> buffer = Buffer::alloc_pinned(device, bytes, DC_ALLOC_DEVICE_MAPPED);
  if (!buffer->device_address())
    fail(DC_ERROR_NOT_SUPPORTED, "device %d cannot map page-locked host memory, which queues live in",
         device->ordinal());
  auto* ring = static_cast<dc_queue_ring*>(buffer->host_pointer());
  // The slots need no clearing: a slot is read only after its message was written.
  std::memset(ring, 0, static_cast<size_t>(slots));
  write_header(ring, direction, slot_size, capacity, lengths, slots);
  return Ref<Queue>::adopt(new Queue(std::move(device), std::move(buffer), direction, slot_size, capacity));
}

Queue::Queue(Ref<Device> device, Ref<Buffer> buffer, int32_t direction, uint32_t slot_size,
             uint32_t capacity) noexcept
    : DeviceObject(kHandleType, std::move(device)),
      buffer_(std::move(buffer)),
      // Between kernels the ring is in device memory: the host has no view of it.
      ring_(direction == DC_QUEUE_BETWEEN_KERNELS ? nullptr : static_cast<dc_queue_ring*>(buffer_->host_pointer())),
      direction_(direction),
      slot_size_(slot_size),
      mask_(capacity - 1),
      lengths_(ring_ ? reinterpret_cast<uint32_t*>(reinterpret_cast<unsigned char*>(ring_) + ring_->lengths_offset)
                     : nullptr),
      slots_(ring_ ? reinterpret_cast<unsigned char*>(ring_) + ring_->slots_offset : nullptr) {}

void Queue::require_host_side() const {
  if (direction_ == DC_QUEUE_BETWEEN_KERNELS) [[unlikely]]
    fail(DC_ERROR_INVALID_ARGUMENT,
         "queue was made DC_QUEUE_BETWEEN_KERNELS: its ring is in device memory and both its sides are kernels "
         "(dccuda_device.h); use a DC_QUEUE_TO_DEVICE or DC_QUEUE_TO_HOST queue to talk to a kernel from the host");
}

void Queue::require_producer() const {
  require_host_side();
  if (direction_ != DC_QUEUE_TO_DEVICE) [[unlikely]]
    fail(DC_ERROR_INVALID_ARGUMENT,
         "queue was made DC_QUEUE_TO_HOST: the kernel enqueues and the host dequeues (one producer); use a "
         "DC_QUEUE_TO_DEVICE queue to send to the kernel");
}

void Queue::require_consumer() const {
  require_host_side();
  if (direction_ != DC_QUEUE_TO_HOST) [[unlikely]]
    fail(DC_ERROR_INVALID_ARGUMENT,
         "queue was made DC_QUEUE_TO_DEVICE: the host enqueues and the kernel dequeues (one consumer); use a "
         "DC_QUEUE_TO_HOST queue to receive from the kernel");
}

void Queue::check_message_size(uint32_t size) const {
  if (size > slot_size_) [[unlikely]]
    fail(DC_ERROR_OUT_OF_RANGE, "the message's size %u exceeds the queue's slot size %u; make the queue with larger "
         "slots or split the message", size, slot_size_);
}

// The host's side of dccuda_device.h's dc_ring_try_enqueue and
// dc_ring_try_dequeue, with the same ordering, but with the ring's shape
// taken from the host's own copy: the ring's memory is writable by the
// kernel, and a kernel that scribbled over the header must not make the host
// read or write outside the ring.
unsigned char* Queue::slot(uint64_t position) const noexcept {
  return slots_ + (position & mask_) * uint64_t(slot_size_);
}
uint32_t* Queue::length_cell(uint64_t position) const noexcept { return lengths_ + (position & mask_); }

bool Queue::attempt_enqueue(const void* message, uint32_t size) {
  uint64_t tail = dc_dev_load_own_u64(&ring_->tail);
  uint64_t head = dc_dev_load_acquire_u64(&ring_->head);
  if (tail - head >= capacity()) return false;
  if (size) std::memcpy(slot(tail), message, size);
  dc_dev_store_relaxed_u32(length_cell(tail), size);
  dc_dev_store_release_u64(&ring_->tail, tail + 1);
  return true;
}

bool Queue::attempt_dequeue(void* message, uint32_t max_size, uint32_t* size) {
  *size = 0;
  uint64_t head = dc_dev_load_own_u64(&ring_->head);
  uint64_t tail = dc_dev_load_acquire_u64(&ring_->tail);
  if (head == tail) return false;
  uint32_t n = dc_dev_load_acquire_u32(length_cell(head));
  if (n > slot_size_)
    fail(DC_ERROR_INTERNAL, "the kernel's message %llu claims %u bytes, more than the slot size %u: the kernel wrote "
         "the ring other than through dccuda_device.h; the message stays queued", (unsigned long long)head, n,
         slot_size_);
  if (n > max_size)
    fail(DC_ERROR_OUT_OF_RANGE, "the next message is %u bytes, more than max_size %u; it stays queued: pass a "
         "buffer of the slot size (%u bytes)", n, max_size, slot_size_);
  if (n) std::memcpy(message, slot(head), n);
  dc_dev_store_release_u64(&ring_->head, head + 1);
  *size = n;
  return true;
}

bool Queue::try_enqueue(const void* message, uint32_t size) {
  require_producer();
  check_message_size(size);
  std::lock_guard<std::mutex> g(mutex_);
  if (attempt_enqueue(message, size)) return true;
  drops_.fetch_add(1, std::memory_order_relaxed);
  return false;
}

bool Queue::enqueue(const void* message, uint32_t size, int32_t wait, uint64_t timeout_us) {
  require_producer();
  check_message_size(size);
  require_wait_strategy(wait, "wait");
  HostWait w(wait, timeout_us);
  bool waited = false;
  for (;;) {
    {
      std::lock_guard<std::mutex> g(mutex_);
      if (attempt_enqueue(message, size)) return true;
    }
    if (!waited) full_waits_.fetch_add(1, std::memory_order_relaxed);
    waited = true;
    if (!w.pause()) break;
  }
  // One last attempt after the time limit, so a limit of 0 still tries.
  std::lock_guard<std::mutex> g(mutex_);
  if (attempt_enqueue(message, size)) return true;
  drops_.fetch_add(1, std::memory_order_relaxed);
  return false;
}

uint32_t Queue::enqueue_batch(const void* messages, uint64_t size, uint32_t message_size) {
  require_producer();
  if (message_size == 0) fail(DC_ERROR_INVALID_ARGUMENT, "message_size is 0; give each message's size");
  check_message_size(message_size);
  if (size % message_size)
    fail(DC_ERROR_INVALID_ARGUMENT, "size %llu is not a multiple of message_size %u", (unsigned long long)size,
         message_size);
  uint64_t count = size / message_size;
  std::lock_guard<std::mutex> g(mutex_);
  // The producer's side of dc_ring_try_enqueue, once for the whole batch:
  // the slots first, then one release of the tail.
  uint64_t tail = dc_dev_load_own_u64(&ring_->tail);
  uint64_t head = dc_dev_load_acquire_u64(&ring_->head);
  uint64_t used = tail - head;
  uint64_t free_slots = used >= capacity() ? 0 : capacity() - used;
  uint64_t n = count < free_slots ? count : free_slots;
  const auto* p = static_cast<const unsigned char*>(messages);
  for (uint64_t i = 0; i < n; ++i) {
    std::memcpy(slot(tail + i), p + i * message_size, message_size);
    dc_dev_store_relaxed_u32(length_cell(tail + i), message_size);
  }
  if (n) dc_dev_store_release_u64(&ring_->tail, tail + n);
  if (n == 0 && count > 0) drops_.fetch_add(count, std::memory_order_relaxed);
  return static_cast<uint32_t>(n);
}

bool Queue::try_dequeue(void* message, uint32_t max_size, uint32_t* size) {
  require_consumer();
  std::lock_guard<std::mutex> g(mutex_);
  return attempt_dequeue(message, max_size, size);
}

bool Queue::dequeue(void* message, uint32_t max_size, uint32_t* size, int32_t wait, uint64_t timeout_us) {
  require_consumer();
  require_wait_strategy(wait, "wait");
  HostWait w(wait, timeout_us);
  bool waited = false;
  for (;;) {
    {
      std::lock_guard<std::mutex> g(mutex_);
      if (attempt_dequeue(message, max_size, size)) return true;
    }
    if (!waited) empty_waits_.fetch_add(1, std::memory_order_relaxed);
    waited = true;
    if (!w.pause()) break;
  }
  std::lock_guard<std::mutex> g(mutex_);
  return attempt_dequeue(message, max_size, size);
}

uint32_t Queue::dequeue_batch(void* messages, uint64_t size, uint32_t stride) {
  require_consumer();
  if (stride < slot_size_)
    fail(DC_ERROR_INVALID_ARGUMENT, "stride %u is smaller than the queue's slot size %u; every message must fit its "
         "cell", stride, slot_size_);
  if (size < stride)
    fail(DC_ERROR_INVALID_ARGUMENT, "size %llu is smaller than stride %u: no room for one message",
         (unsigned long long)size, stride);
  uint64_t room = size / stride;
  if (room > UINT32_MAX) room = UINT32_MAX;
  std::lock_guard<std::mutex> g(mutex_);
  uint64_t head = dc_dev_load_own_u64(&ring_->head);
  uint64_t tail = dc_dev_load_acquire_u64(&ring_->tail);
  uint64_t available = tail - head;
  if (available > capacity()) available = capacity();  // a kernel that broke the ring: never read past it
  uint64_t n = available < room ? available : room;
  auto* p = static_cast<unsigned char*>(messages);
  for (uint64_t i = 0; i < n; ++i) {
    uint32_t len = dc_dev_load_acquire_u32(length_cell(head + i));
    // A length past the slot can only come from a kernel that wrote the ring
    // by hand: never copy past the slot.
    if (len > slot_size_) len = slot_size_;
    std::memcpy(p + i * stride, slot(head + i), len);
  }
  if (n) dc_dev_store_release_u64(&ring_->head, head + n);
  return static_cast<uint32_t>(n);
}

void Queue::fill_stats(dc_queue_stats* s) const {
  uint64_t tail = 0, head = 0;
  if (ring_) {
    tail = dc_dev_load_acquire_u64(&ring_->tail);
    head = dc_dev_load_acquire_u64(&ring_->head);
  } else {
    // A snapshot of the kernels' counters, copied from device memory: a
    // synchronous copy, which a host function may not make.
    forbid_in_host_callback();
    check_usable();
    ContextScope bind(device());
    read(*buffer_, offsetof(dc_queue_ring, tail), &tail, sizeof tail, nullptr);
    read(*buffer_, offsetof(dc_queue_ring, head), &head, sizeof head, nullptr);
  }
  s->direction = direction_;
  s->slot_size = slot_size_;
  s->capacity = static_cast<uint32_t>(capacity());
  s->length = tail >= head ? tail - head : 0;
  s->enqueued = tail;
  s->dequeued = head;
  s->full_waits = full_waits_.load(std::memory_order_relaxed);
  s->empty_waits = empty_waits_.load(std::memory_order_relaxed);
  s->drops = drops_.load(std::memory_order_relaxed);
}

}  // namespace dc
