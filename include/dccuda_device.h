/*
 * dccuda_device.h - the kernel's side of dccuda's message queues and control
 * blocks (see "Message queues and resident kernels" in dccuda.h).
 *
 * Plain CUDA C++: it compiles under NVRTC and nvcc, needs no CUDA header, no
 * CCCL and no runtime library, and uses only volatile loads and stores and
 * __threadfence_system(), which every architecture has (no host-native
 * atomics: the rings work on every PCIe host). Include it in a kernel's source
 * (with dc_compile, pass it as an in-memory header or an include path).
 *
 * Which thread calls what. Each function here is called by ONE thread at a
 * time per queue side or control block, typically threadIdx.x == 0 of one
 * block, which then shares what it read with its block through shared memory
 * and __syncthreads(). A queue has one producer and one consumer: on the
 * kernel's side of a queue, one thread of the whole grid.
 *
 * Memory ordering. A producer writes the message into its slot, then
 * __threadfence_system(), then publishes the new tail with a volatile store; a
 * consumer reads the tail with a volatile load, then __threadfence_system(),
 * then reads the slot (volatile loads: the slot's memory is rewritten by the
 * other side and must not be served from the L1 cache), then
 * __threadfence_system() and publishes the new head. Each counter has one
 * writer, so no read-modify-write crosses the bus.
 *
 * Compiled by a host compiler (no __CUDACC__ / __CUDACC_RTC__) the same
 * functions use the compiler's atomic builtins with acquire/release order, so
 * that a host thread can play the kernel's part in tests.
 *
 * The layouts below are part of dccuda's ABI: dccuda writes them and these
 * functions read them. Never write a ring's or control block's fields other
 * than through these functions.
 */
#ifndef DCCUDA_DEVICE_H
#define DCCUDA_DEVICE_H

#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
#  define DC_DEVICE_ON_GPU 1
#  define DC_DEVICE_FN __device__ __forceinline__
typedef unsigned int dc_dev_u32;
typedef unsigned long long dc_dev_u64;
#else
#  include <stdint.h>
#  define DC_DEVICE_ON_GPU 0
#  define DC_DEVICE_FN static inline
typedef uint32_t dc_dev_u32;
typedef uint64_t dc_dev_u64;
#endif

#define DC_QUEUE_RING_MAGIC     0x31514344u /* "DCQ1" */
#define DC_CONTROL_BLOCK_MAGIC  0x314b4344u /* "DCK1" */

/* Results of the device-side queue functions. */
#define DC_RING_DONE        1   /* a message was enqueued / dequeued */
#define DC_RING_NOT_READY   0   /* full (enqueue) or empty (dequeue): try again */
#define DC_RING_TOO_LARGE (-1)  /* the message does not fit in a slot (enqueue) or
                                    in the caller's buffer (dequeue: it stays queued) */

/* A ring's header, at the start of the queue's buffer (384 bytes); the
 * messages' lengths and the slots follow at the offsets it gives. tail and
 * head each sit alone in a 128-byte line: the producer writes only tail, the
 * consumer only head. */
typedef struct dc_queue_ring {
  dc_dev_u32 magic;            /* DC_QUEUE_RING_MAGIC */
  dc_dev_u32 slot_size;        /* bytes per slot, a power of two */
  dc_dev_u32 capacity;         /* slots, a power of two */
  dc_dev_u32 direction;        /* DC_QUEUE_TO_DEVICE (1) or DC_QUEUE_TO_HOST (2) */
  dc_dev_u64 lengths_offset;   /* from the ring's start: capacity 32-bit lengths */
  dc_dev_u64 slots_offset;     /* from the ring's start: capacity * slot_size bytes */
  unsigned char reserved0[96];
  dc_dev_u64 tail;             /* messages ever enqueued (the producer's) */
  unsigned char reserved1[120];
  dc_dev_u64 head;             /* messages ever dequeued (the consumer's) */
  unsigned char reserved2[120];
} dc_queue_ring;

/* A resident kernel's control block (64 bytes). The host writes only
 * stop_requested (and resets the block between launches); the kernel writes
 * the rest through the dc_control_* functions. */
typedef struct dc_control_block {
  dc_dev_u32 magic;            /* DC_CONTROL_BLOCK_MAGIC */
  dc_dev_u32 state;            /* DC_CONTROL_IDLE (0), _RUNNING (1), _STOPPED (2) */
  dc_dev_u32 stop_requested;   /* nonzero: the host asks the kernel to stop */
  dc_dev_u32 last_error;       /* the last code given to dc_control_report_error */
  dc_dev_u64 heartbeat;        /* dc_control_beat's count */
  dc_dev_u64 errors;           /* dc_control_report_error's count */
  unsigned char reserved[32];
} dc_control_block;

/* ---- ordered accesses (the only place that differs between GPU and host) */

#if DC_DEVICE_ON_GPU
DC_DEVICE_FN dc_dev_u64 dc_dev_load_acquire_u64(const dc_dev_u64* p) {
  dc_dev_u64 v = *(const volatile dc_dev_u64*)p;
  __threadfence_system();
  return v;
}
DC_DEVICE_FN dc_dev_u32 dc_dev_load_acquire_u32(const dc_dev_u32* p) {
  dc_dev_u32 v = *(const volatile dc_dev_u32*)p;
  __threadfence_system();
  return v;
}
DC_DEVICE_FN void dc_dev_store_release_u64(dc_dev_u64* p, dc_dev_u64 v) {
  __threadfence_system();
  *(volatile dc_dev_u64*)p = v;
}
DC_DEVICE_FN void dc_dev_store_release_u32(dc_dev_u32* p, dc_dev_u32 v) {
  __threadfence_system();
  *(volatile dc_dev_u32*)p = v;
}
/* A counter only its one writer changes: no fence needed to read it back. */
DC_DEVICE_FN dc_dev_u64 dc_dev_load_own_u64(const dc_dev_u64* p) { return *(const volatile dc_dev_u64*)p; }
DC_DEVICE_FN void dc_dev_store_relaxed_u64(dc_dev_u64* p, dc_dev_u64 v) { *(volatile dc_dev_u64*)p = v; }
DC_DEVICE_FN void dc_dev_store_relaxed_u32(dc_dev_u32* p, dc_dev_u32 v) { *(volatile dc_dev_u32*)p = v; }
/* Message bytes in the ring: volatile, so never an L1 line the other side has
 * since rewritten. Words when both sides are aligned, else bytes. */
DC_DEVICE_FN void dc_dev_copy_in(void* slot, const void* from, dc_dev_u32 n) {
  if ((((unsigned long long)slot | (unsigned long long)from | n) & 7u) == 0) {
    volatile dc_dev_u64* d = (volatile dc_dev_u64*)slot;
    const dc_dev_u64* s = (const dc_dev_u64*)from;
    for (dc_dev_u32 i = 0; i < n / 8; ++i) d[i] = s[i];
  } else {
    volatile unsigned char* d = (volatile unsigned char*)slot;
    const unsigned char* s = (const unsigned char*)from;
    for (dc_dev_u32 i = 0; i < n; ++i) d[i] = s[i];
  }
}
DC_DEVICE_FN void dc_dev_copy_out(void* to, const void* slot, dc_dev_u32 n) {
  if ((((unsigned long long)slot | (unsigned long long)to | n) & 7u) == 0) {
    dc_dev_u64* d = (dc_dev_u64*)to;
    const volatile dc_dev_u64* s = (const volatile dc_dev_u64*)slot;
    for (dc_dev_u32 i = 0; i < n / 8; ++i) d[i] = s[i];
  } else {
    unsigned char* d = (unsigned char*)to;
    const volatile unsigned char* s = (const volatile unsigned char*)slot;
    for (dc_dev_u32 i = 0; i < n; ++i) d[i] = s[i];
  }
}
#else
DC_DEVICE_FN dc_dev_u64 dc_dev_load_acquire_u64(const dc_dev_u64* p) { return __atomic_load_n(p, __ATOMIC_ACQUIRE); }
DC_DEVICE_FN dc_dev_u32 dc_dev_load_acquire_u32(const dc_dev_u32* p) { return __atomic_load_n(p, __ATOMIC_ACQUIRE); }
DC_DEVICE_FN void dc_dev_store_release_u64(dc_dev_u64* p, dc_dev_u64 v) { __atomic_store_n(p, v, __ATOMIC_RELEASE); }
DC_DEVICE_FN void dc_dev_store_release_u32(dc_dev_u32* p, dc_dev_u32 v) { __atomic_store_n(p, v, __ATOMIC_RELEASE); }
DC_DEVICE_FN dc_dev_u64 dc_dev_load_own_u64(const dc_dev_u64* p) { return __atomic_load_n(p, __ATOMIC_RELAXED); }
DC_DEVICE_FN void dc_dev_store_relaxed_u64(dc_dev_u64* p, dc_dev_u64 v) { __atomic_store_n(p, v, __ATOMIC_RELAXED); }
DC_DEVICE_FN void dc_dev_store_relaxed_u32(dc_dev_u32* p, dc_dev_u32 v) { __atomic_store_n(p, v, __ATOMIC_RELAXED); }
DC_DEVICE_FN void dc_dev_copy_in(void* slot, const void* from, dc_dev_u32 n) {
  unsigned char* d = (unsigned char*)slot;
  const unsigned char* s = (const unsigned char*)from;
  for (dc_dev_u32 i = 0; i < n; ++i) d[i] = s[i];
}
DC_DEVICE_FN void dc_dev_copy_out(void* to, const void* slot, dc_dev_u32 n) { dc_dev_copy_in(to, slot, n); }
#endif

/* ---- queues */

DC_DEVICE_FN unsigned char* dc_ring_slot(dc_queue_ring* q, dc_dev_u64 position) {
  return (unsigned char*)q + q->slots_offset + (position & (q->capacity - 1)) * (dc_dev_u64)q->slot_size;
}
DC_DEVICE_FN dc_dev_u32* dc_ring_length_cell(dc_queue_ring* q, dc_dev_u64 position) {
  return (dc_dev_u32*)((unsigned char*)q + q->lengths_offset) + (position & (q->capacity - 1));
}

/* Enqueue `size` bytes from `message` (the producer's one thread).
 * DC_RING_DONE, DC_RING_NOT_READY (full) or DC_RING_TOO_LARGE. */
DC_DEVICE_FN int dc_ring_try_enqueue(dc_queue_ring* q, const void* message, dc_dev_u32 size) {
  if (size > q->slot_size) return DC_RING_TOO_LARGE;
  dc_dev_u64 tail = dc_dev_load_own_u64(&q->tail);
  /* acquire: the consumer has finished reading the slot it freed */
  dc_dev_u64 head = dc_dev_load_acquire_u64(&q->head);
  if (tail - head >= q->capacity) return DC_RING_NOT_READY;
  dc_dev_copy_in(dc_ring_slot(q, tail), message, size);
  dc_dev_store_relaxed_u32(dc_ring_length_cell(q, tail), size);
  dc_dev_store_release_u64(&q->tail, tail + 1); /* release: slot and length first */
  return DC_RING_DONE;
}

/* Dequeue the oldest message into `message` (`max_size` bytes), its length
 * into *size (the consumer's one thread). DC_RING_DONE, DC_RING_NOT_READY
 * (empty) or DC_RING_TOO_LARGE (the message stays queued; *size gets its
 * length). */
DC_DEVICE_FN int dc_ring_try_dequeue(dc_queue_ring* q, void* message, dc_dev_u32 max_size, dc_dev_u32* size) {
  dc_dev_u64 head = dc_dev_load_own_u64(&q->head);
  dc_dev_u64 tail = dc_dev_load_acquire_u64(&q->tail); /* acquire: the slot is written */
  if (head == tail) return DC_RING_NOT_READY;
  dc_dev_u32 n = dc_dev_load_acquire_u32(dc_ring_length_cell(q, head));
  *size = n;
  if (n > max_size) return DC_RING_TOO_LARGE;
  dc_dev_copy_out(message, dc_ring_slot(q, head), n);
  dc_dev_store_release_u64(&q->head, head + 1); /* release: the slot is read */
  return DC_RING_DONE;
}

/* ---- control blocks (one thread of the kernel calls these) */

/* The kernel has started: state DC_CONTROL_RUNNING. */
DC_DEVICE_FN void dc_control_enter(dc_control_block* c) { dc_dev_store_release_u32(&c->state, 1u); }

/* Nonzero once the host asked the kernel to stop: poll it in the main loop. */
DC_DEVICE_FN int dc_control_stop_requested(const dc_control_block* c) {
  return dc_dev_load_acquire_u32(&c->stop_requested) != 0;
}

/* One more heartbeat: call it for every message handled and while idle, so
 * that the host's watchdog (dc_control_check_progress) sees progress. */
DC_DEVICE_FN void dc_control_beat(dc_control_block* c) {
  dc_dev_store_relaxed_u64(&c->heartbeat, dc_dev_load_own_u64(&c->heartbeat) + 1);
}

/* Count an error (a message it could not handle, a reply that did not fit). */
DC_DEVICE_FN void dc_control_report_error(dc_control_block* c, dc_dev_u32 code) {
  dc_dev_store_relaxed_u32(&c->last_error, code);
  dc_dev_store_release_u64(&c->errors, dc_dev_load_own_u64(&c->errors) + 1);
}

/* The kernel is done (its last call): state DC_CONTROL_STOPPED, after
 * everything it wrote before. */
DC_DEVICE_FN void dc_control_exit(dc_control_block* c) { dc_dev_store_release_u32(&c->state, 2u); }

#endif /* DCCUDA_DEVICE_H */
