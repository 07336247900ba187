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

// Both sides kernels: the ring in device memory, out of the host's reach.
bool between_kernels(int32_t direction) {
  return direction == DC_QUEUE_BETWEEN_KERNELS || direction == DC_QUEUE_BETWEEN_DEVICES;
}

uint64_t round_up(uint64_t v, uint64_t to) { return (v + to - 1) / to * to; }

// The ring's header as include/dccuda_device.h reads it (in host memory, or
// in a host copy that goes to device memory).
void write_header(dc_queue_ring* ring, int32_t direction, uint32_t slot_size, uint32_t capacity, uint64_t slots) {
  ring->magic = DC_QUEUE_RING_MAGIC;
  ring->slot_size = slot_size;
  ring->capacity = capacity;
  ring->direction = static_cast<uint32_t>(direction);
  ring->lengths_offset = 0;  // unused: a slot's first word holds its length
  ring->slots_offset = slots;
}


}  // namespace

Ref<Queue> Queue::create(Ref<Device> device, int32_t direction, uint32_t slot_size, uint32_t capacity) {
  if (direction != DC_QUEUE_TO_DEVICE && direction != DC_QUEUE_TO_HOST && !between_kernels(direction))
    fail(DC_ERROR_INVALID_ARGUMENT,
         "direction is %d; use DC_QUEUE_TO_DEVICE (1), DC_QUEUE_TO_HOST (2), DC_QUEUE_BETWEEN_KERNELS (3) or "
         "DC_QUEUE_BETWEEN_DEVICES (4)",
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
  // Flagged slots (dccuda_device.h), each twice the slot size and more,
  // zeroed: memory a former ring left could show the flags a new ring's
  // reader expects.
  uint64_t slots = round_up(sizeof(dc_queue_ring), 128);
  uint64_t bytes = slots + dc_ring_flagged_stride(slot_size) * capacity;
  if (between_kernels(direction)) {
    // Device memory, outside the stream-ordered pool (a resident kernel may
    // use it while other streams allocate and free). The header is written
    // once from the host.
    Ref<Buffer> buffer = Buffer::alloc_device(device, bytes, DC_ALLOC_NO_POOL);
    fill(*buffer, slots, bytes - slots, 0, 1, nullptr);
    std::vector<unsigned char> header(static_cast<size_t>(slots), 0);
    write_header(reinterpret_cast<dc_queue_ring*>(header.data()), direction, slot_size, capacity, slots);
    write(*buffer, 0, header.data(), header.size(), nullptr);
    return Ref<Queue>::adopt(new Queue(std::move(device), std::move(buffer), direction, slot_size, capacity));
  }
  Ref<Buffer> buffer = Buffer::alloc_pinned(device, bytes, DC_ALLOC_DEVICE_MAPPED);
  if (!buffer->device_address())
    fail(DC_ERROR_NOT_SUPPORTED, "device %d cannot map page-locked host memory, which queues live in",
         device->ordinal());
  auto* ring = static_cast<dc_queue_ring*>(buffer->host_pointer());
  std::memset(ring, 0, static_cast<size_t>(bytes));
  write_header(ring, direction, slot_size, capacity, slots);
  return Ref<Queue>::adopt(new Queue(std::move(device), std::move(buffer), direction, slot_size, capacity));
}

Queue::Queue(Ref<Device> device, Ref<Buffer> buffer, int32_t direction, uint32_t slot_size,
             uint32_t capacity) noexcept
    : DeviceObject(kHandleType, std::move(device)),
      buffer_(std::move(buffer)),
      // Between kernels the ring is in device memory: the host has no view of it.
      ring_(between_kernels(direction) ? nullptr : static_cast<dc_queue_ring*>(buffer_->host_pointer())),
      direction_(direction),
      slot_size_(slot_size),
      mask_(capacity - 1),
      stride_(dc_ring_flagged_stride(slot_size)),
      slots_(ring_ ? reinterpret_cast<unsigned char*>(ring_) + ring_->slots_offset : nullptr) {}

void Queue::require_host_side() const {
  if (between_kernels(direction_)) [[unlikely]]
    fail(DC_ERROR_INVALID_ARGUMENT,
         "queue was made %s: its ring is in device memory and both its sides are kernels "
         "(dccuda_device.h); use a DC_QUEUE_TO_DEVICE or DC_QUEUE_TO_HOST queue to talk to a kernel from the host",
         direction_ == DC_QUEUE_BETWEEN_KERNELS ? "DC_QUEUE_BETWEEN_KERNELS" : "DC_QUEUE_BETWEEN_DEVICES");
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

// The host's side of dccuda_device.h's flagged slots, with the ring's shape
// taken from the host's own copy: the ring's memory is writable by the
// kernel, and a kernel that scribbled over the header must not make the host
// read or write outside the ring. The host is one side of a ring to or from
// a kernel, so it keeps no cursor: its counter is read back from the ring
// (only the host writes it), and the consumer gives each slot back at once
// (a store into host memory costs the host little; the kernel reads the head
// only when the ring looks full).
unsigned char* Queue::slot(uint64_t position) const noexcept { return slots_ + (position & mask_) * stride_; }

void Queue::write_slot(uint64_t position, const void* message, uint32_t size) noexcept {
  dc_ring_flagged_write(slot(position), position, static_cast<uint32_t>(capacity()), slot_size_, message, size, 0);
}

// The length of the message at `position`, if every word of it has arrived
// (false: not yet). A length past the slot (a kernel that wrote the ring
// other than through dccuda_device.h) comes back as it is, for the caller
// to refuse.
bool Queue::arrived(uint64_t position, uint32_t* size) const noexcept {
  dc_dev_u32 n = 0;
  int r = dc_ring_flagged_read(slot(position), position, slot_size_, nullptr, UINT32_MAX, &n, 0);
  *size = n;
  return r != DC_RING_NOT_READY;
}

// Copies the message at `position`, which arrived() saw whole and the kernel
// cannot rewrite before its slot is given back.
void Queue::read_slot(uint64_t position, void* message, uint32_t size) const {
  dc_dev_u32 n = 0;
  if (dc_ring_flagged_read(slot(position), position, slot_size_, message, size, &n, 0) != DC_RING_DONE) [[unlikely]]
    fail(DC_ERROR_INTERNAL, "message %llu changed while it was read: the kernel wrote the ring other than through "
         "dccuda_device.h", (unsigned long long)position);
}

void Queue::check_arrived_length(uint64_t position, uint32_t size) const {
  if (size > slot_size_) [[unlikely]]
    fail(DC_ERROR_INTERNAL, "the kernel's message %llu claims %u bytes, more than the slot size %u: the kernel wrote "
         "the ring other than through dccuda_device.h; the message stays queued", (unsigned long long)position, size,
         slot_size_);
}

bool Queue::attempt_enqueue(const void* message, uint32_t size) {
  uint64_t tail = dc_dev_load_own_u64(&ring_->tail);
  uint64_t head = dc_dev_load_acquire_u64(&ring_->head);
  if (tail - head >= capacity()) return false;
  write_slot(tail, message, size);
  dc_dev_store_release_u64(&ring_->tail, tail + 1);  // the count, for dc_queue_counters
  return true;
}

bool Queue::attempt_dequeue(void* message, uint32_t max_size, uint32_t* size) {
  *size = 0;
  uint64_t head = dc_dev_load_own_u64(&ring_->head);
  uint32_t n = 0;
  if (!arrived(head, &n)) return false;
  check_arrived_length(head, n);
  if (n > max_size)
    fail(DC_ERROR_OUT_OF_RANGE, "the next message is %u bytes, more than max_size %u; it stays queued: pass a "
         "buffer of the slot size (%u bytes)", n, max_size, slot_size_);
  read_slot(head, message, n);
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
  // The producer's side, once for the whole batch: the slots, then the count.
  uint64_t tail = dc_dev_load_own_u64(&ring_->tail);
  uint64_t head = dc_dev_load_acquire_u64(&ring_->head);
  uint64_t used = tail - head;
  uint64_t free_slots = used >= capacity() ? 0 : capacity() - used;
  uint64_t n = count < free_slots ? count : free_slots;
  const auto* p = static_cast<const unsigned char*>(messages);
  for (uint64_t i = 0; i < n; ++i) write_slot(tail + i, p + i * message_size, message_size);
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
  auto* p = static_cast<unsigned char*>(messages);
  uint64_t n = 0;
  // Every message that has arrived whole, up to the room; a length past the
  // slot (a kernel that broke the ring) ends the batch before it, and is
  // refused as dequeue refuses it when it comes first.
  uint32_t len = 0;
  for (; n < room && arrived(head + n, &len); ++n) {
    if (len > slot_size_) {
      if (n == 0) check_arrived_length(head, len);
      break;
    }
    read_slot(head + n, p + n * stride, len);
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
