/*
 * dccuda_device.h - the kernel's side of dccuda's message queues and control
 * blocks (see "Message queues and resident kernels" in dccuda.h).
 *
 * Plain CUDA C++: it compiles under NVRTC and nvcc, needs no CUDA header, no
 * CCCL and no runtime library, and uses only volatile loads, relaxed
 * (before sm_70: volatile) stores and fences (__threadfence_system(), and on
 * sm_70 and later the lighter fence.acq_rel); no host-native atomics: the
 * rings work on every PCIe host. Include it in a kernel's source
 * (with dc_compile, pass it as an in-memory header or an include path).
 *
 * Which thread calls what. Each function here is called by ONE thread at a
 * time per queue side or control block, typically threadIdx.x == 0 of one
 * block, which then shares what it read with its block through shared memory
 * and __syncthreads(). A queue has one producer and one consumer: on the
 * kernel's side of a queue, one thread of the whole grid.
 *
 * Memory ordering. Every slot is flagged (see "flagged slots" below): each
 * 8-byte word of a slot carries its message's flag beside 4 bytes of the
 * message, and a word is written and read whole, so the consumer finds and
 * reads a message with the same loads (no tail to read first, no fence
 * between), and the producer writes it with plain stores (no fence before a
 * tail). The consumer gives slots back through the head counter, after a
 * fence, in groups; the producer reads the head only when the ring looks
 * full, and fences once it found room. Each counter has one writer, so no
 * read-modify-write crosses the bus. Loads and stores of a ring in host
 * memory, or between kernels on two devices, are system-scoped, of a ring
 * between kernels of one device (in its memory) GPU-scoped; none is served
 * from the L1 cache.
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

#define DC_QUEUE_RING_MAGIC     0x32514344u /* "DCQ2": flagged slots */
#define DC_CONTROL_BLOCK_MAGIC  0x314b4344u /* "DCK1" */

/* Results of the device-side queue functions. */
#define DC_RING_DONE        1   /* a message was enqueued / dequeued */
#define DC_RING_NOT_READY   0   /* full (enqueue) or empty (dequeue): try again */
#define DC_RING_TOO_LARGE (-1)  /* the message does not fit in a slot (enqueue) or
                                    in the caller's buffer (dequeue: it stays queued) */

/* A ring's header, at the start of the queue's buffer (384 bytes); the
 * slots follow at the offset it gives, each dc_ring_flagged_stride(slot_size)
 * bytes. tail and head each sit alone in a 128-byte line: the producer writes
 * only tail, the consumer only head. */
typedef struct dc_queue_ring {
  dc_dev_u32 magic;            /* DC_QUEUE_RING_MAGIC */
  dc_dev_u32 slot_size;        /* bytes per slot, a power of two */
  dc_dev_u32 capacity;         /* slots, a power of two */
  dc_dev_u32 direction;        /* DC_QUEUE_TO_DEVICE (1), DC_QUEUE_TO_HOST (2) or DC_QUEUE_BETWEEN_KERNELS (3) */
  dc_dev_u64 lengths_offset;   /* unused (a slot's first word holds its message's length) */
  dc_dev_u64 slots_offset;     /* from the ring's start: capacity flagged slots */
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
/* A load with no order of its own, and the fence that gives the loads before
 * it acquire order and the stores after it release order. On sm_70 and later
 * the fence is fence.acq_rel.sys, lighter than __threadfence_system()'s
 * sequentially consistent one (which the cursors do not need); before, it is
 * __threadfence_system(). */
DC_DEVICE_FN dc_dev_u64 dc_dev_load_relaxed_u64(const dc_dev_u64* p) { return *(const volatile dc_dev_u64*)p; }
DC_DEVICE_FN void dc_dev_fence_acq_rel(void) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
  asm volatile("fence.acq_rel.sys;" ::: "memory");
#else
  __threadfence_system();
#endif
}
/* The same at GPU scope: enough when both sides are kernels on one GPU and
 * the ring is in its memory (DC_QUEUE_BETWEEN_KERNELS), and much cheaper than
 * a system fence. */
DC_DEVICE_FN void dc_dev_fence_acq_rel_gpu(void) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
  asm volatile("fence.acq_rel.gpu;" ::: "memory");
#else
  __threadfence();
#endif
}
/* A counter only its one writer changes: no fence needed to read it back. */
DC_DEVICE_FN dc_dev_u64 dc_dev_load_own_u64(const dc_dev_u64* p) { return *(const volatile dc_dev_u64*)p; }
DC_DEVICE_FN void dc_dev_store_relaxed_u64(dc_dev_u64* p, dc_dev_u64 v) { *(volatile dc_dev_u64*)p = v; }
DC_DEVICE_FN void dc_dev_store_relaxed_u32(dc_dev_u32* p, dc_dev_u32 v) { *(volatile dc_dev_u32*)p = v; }
/* Two 8-byte words in one 16-byte access (16-byte aligned), each word
 * single-copy atomic (PTX: a vector access is one access per element): the
 * flagged slots' unit. GPU scope for a ring between kernels (both sides on
 * this GPU), system scope for a ring in host memory or between devices;
 * never an L1 line.
 * DC_RING_LOADS picks the loads (define it before including this header):
 *   1 (the default): volatile loads (ld.volatile: system scope, never
 *     cached in L1, each word single-copy atomic);
 *   0: relaxed loads of the ring's scope (ld.relaxed.gpu / .sys): the
 *     memory model's own words for the same guarantees, but slower on an
 *     H200 (bench_queue: a 256-byte host round trip 45 us against 26 us, a
 *     one-way hop between kernels 0.74 us against 0.62 us);
 *   2: weak loads that skip the L1 cache (ld.global.cg), faster still for
 *     long messages from host memory (16 us) but outside the memory model's
 *     promises: correct only where the GPU never serves a ring's host memory
 *     from a stale cache line, as measured on an H200 with the CUDA 13.0
 *     driver; not for production without that check on the target. */
#ifndef DC_RING_LOADS
#define DC_RING_LOADS 1
#endif
DC_DEVICE_FN void dc_dev_load_pair(const void* p, dc_dev_u64* a, dc_dev_u64* b, int gpu_scope) {
#if DC_RING_LOADS == 2
  (void)gpu_scope;
  asm volatile("{ .reg .u64 g; cvta.to.global.u64 g, %2; ld.global.cg.v2.u64 {%0, %1}, [g]; }"
               : "=l"(*a), "=l"(*b) : "l"(p) : "memory");
#elif DC_RING_LOADS == 1
  (void)gpu_scope;
  asm volatile("ld.volatile.v2.u64 {%0, %1}, [%2];" : "=l"(*a), "=l"(*b) : "l"(p) : "memory");
#elif defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
  if (gpu_scope)
    asm volatile("ld.relaxed.gpu.v2.u64 {%0, %1}, [%2];" : "=l"(*a), "=l"(*b) : "l"(p) : "memory");
  else
    asm volatile("ld.relaxed.sys.v2.u64 {%0, %1}, [%2];" : "=l"(*a), "=l"(*b) : "l"(p) : "memory");
#else
  (void)gpu_scope;
  asm volatile("ld.volatile.v2.u64 {%0, %1}, [%2];" : "=l"(*a), "=l"(*b) : "l"(p) : "memory");
#endif
}
DC_DEVICE_FN void dc_dev_store_pair(void* p, dc_dev_u64 a, dc_dev_u64 b, int gpu_scope) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
  if (gpu_scope)
    asm volatile("st.relaxed.gpu.v2.u64 [%0], {%1, %2};" ::"l"(p), "l"(a), "l"(b) : "memory");
  else
    asm volatile("st.relaxed.sys.v2.u64 [%0], {%1, %2};" ::"l"(p), "l"(a), "l"(b) : "memory");
#else
  (void)gpu_scope;
  asm volatile("st.volatile.v2.u64 [%0], {%1, %2};" ::"l"(p), "l"(a), "l"(b) : "memory");
#endif
}
#else
DC_DEVICE_FN dc_dev_u64 dc_dev_load_acquire_u64(const dc_dev_u64* p) { return __atomic_load_n(p, __ATOMIC_ACQUIRE); }
DC_DEVICE_FN dc_dev_u32 dc_dev_load_acquire_u32(const dc_dev_u32* p) { return __atomic_load_n(p, __ATOMIC_ACQUIRE); }
DC_DEVICE_FN void dc_dev_store_release_u64(dc_dev_u64* p, dc_dev_u64 v) { __atomic_store_n(p, v, __ATOMIC_RELEASE); }
DC_DEVICE_FN void dc_dev_store_release_u32(dc_dev_u32* p, dc_dev_u32 v) { __atomic_store_n(p, v, __ATOMIC_RELEASE); }
/* On the host the cursors' counter loads are acquires and their stores
 * releases (what the fences around them give on the GPU): thread sanitizers
 * do not see fences. */
DC_DEVICE_FN dc_dev_u64 dc_dev_load_relaxed_u64(const dc_dev_u64* p) { return __atomic_load_n(p, __ATOMIC_ACQUIRE); }
DC_DEVICE_FN void dc_dev_fence_acq_rel(void) { __atomic_thread_fence(__ATOMIC_ACQ_REL); }
DC_DEVICE_FN void dc_dev_fence_acq_rel_gpu(void) { __atomic_thread_fence(__ATOMIC_ACQ_REL); }
DC_DEVICE_FN dc_dev_u64 dc_dev_load_own_u64(const dc_dev_u64* p) { return __atomic_load_n(p, __ATOMIC_RELAXED); }
DC_DEVICE_FN void dc_dev_store_relaxed_u64(dc_dev_u64* p, dc_dev_u64 v) { __atomic_store_n(p, v, __ATOMIC_RELEASE); }
DC_DEVICE_FN void dc_dev_store_relaxed_u32(dc_dev_u32* p, dc_dev_u32 v) { __atomic_store_n(p, v, __ATOMIC_RELAXED); }
/* Each word atomic on its own, as on the GPU (no order: the flag travels in
 * the word it guards). */
DC_DEVICE_FN void dc_dev_load_pair(const void* p, dc_dev_u64* a, dc_dev_u64* b, int gpu_scope) {
  (void)gpu_scope;
  *a = __atomic_load_n((const dc_dev_u64*)p, __ATOMIC_RELAXED);
  *b = __atomic_load_n((const dc_dev_u64*)p + 1, __ATOMIC_RELAXED);
}
DC_DEVICE_FN void dc_dev_store_pair(void* p, dc_dev_u64 a, dc_dev_u64 b, int gpu_scope) {
  (void)gpu_scope;
  __atomic_store_n((dc_dev_u64*)p, a, __ATOMIC_RELAXED);
  __atomic_store_n((dc_dev_u64*)p + 1, b, __ATOMIC_RELAXED);
}
#endif

/* ---- queues: flagged slots
 *
 * Every load a kernel makes of the other side's writes is a round trip: over
 * PCIe to host memory (about 1 us), or to the L2 cache for a ring between
 * kernels; a fence waits for one too. So a ring does not publish its messages
 * through a tail counter: each 8-byte word of a slot carries the message's
 * flag (the 32 bits of its position + 1) in its high half and 4 bytes in its
 * low half: word 0 the message's length, word k (k >= 1) the message's bytes
 * 4(k-1) to 4k-1 (little-endian, the last one padded with zeros). A word is
 * written and read whole (8-byte single-copy atomicity, on the GPU, on the
 * host and across PCIe), so a word that shows the expected flag holds this
 * message's bytes: the consumer finds and reads a message with the same
 * loads, the producer writes it with plain stores, and neither fences per
 * message. A slot takes dc_ring_flagged_stride(slot_size) bytes (twice the
 * slot size, plus 16).
 *
 * A stale word never shows the flag a reader expects: a 32-bit flag comes
 * back only after 2^32 messages, at least 256 turns of the ring, and the
 * producer writes every word of a slot (not only the message's) in one turn
 * of every 128, so no word is older than 128 turns; dccuda zeroes the slots
 * when it creates the ring, and turn 0 is such a turn.
 *
 * The tail is still written (after each message, without a fence), for
 * dc_queue_counters only. The head is the consumer's signal that slots are
 * free again (after a fence: its reads are done); the producer reads it only
 * when the ring looks full. */

/* After how many takes in a row that find the ring empty a cursor gives the
 * slots taken so far back (a fence and a store, while the consumer has
 * nothing else to do), so that a queue's dequeued count catches up once a
 * kernel goes idle. Not at the first: a consumer that answers a message and
 * polls for the next would pay the fence inside every round trip (0.6 us of
 * a host round trip on an H200, bench_queue). Define it before including
 * this header; 0: never (slots go back only every capacity / 2 messages and
 * at dc_ring_cursor_publish, on which no producer waits for ever: a full ring
 * leaves the consumer at least capacity / 2 + 1 messages to take). */
#ifndef DC_RING_IDLE_PUBLISH_AFTER
#define DC_RING_IDLE_PUBLISH_AFTER 64
#endif

/* A ring's direction field for a queue between kernels (dccuda.h's
 * DC_QUEUE_BETWEEN_KERNELS): both sides on the GPU, the ring in its memory
 * (GPU-scoped accesses and fences). */
#define DC_RING_BETWEEN_KERNELS 3u
/* ... and for one between kernels on two devices (DC_QUEUE_BETWEEN_DEVICES):
 * the ring in one device's memory, the other side reaching it through peer
 * access; system-scoped accesses and fences, as for a ring in host memory
 * (a GPU-scoped fence orders nothing for another GPU). */
#define DC_RING_BETWEEN_DEVICES 4u

/* Bytes a slot of `slot_size` message bytes takes. */
DC_DEVICE_FN dc_dev_u64 dc_ring_flagged_stride(dc_dev_u32 slot_size) {
  dc_dev_u64 words = 1 + ((dc_dev_u64)slot_size + 3) / 4;
  return (words * 8 + 15) & ~(dc_dev_u64)15;
}

/* The flag of the message at `position`, in a word's high half. */
DC_DEVICE_FN dc_dev_u64 dc_ring_flag(dc_dev_u64 position) {
  return (dc_dev_u64)(dc_dev_u32)(position + 1) << 32;
}

/* The message's bytes 4(k-1) to 4k-1 (k >= 1) as a word's low half. */
DC_DEVICE_FN dc_dev_u32 dc_ring_flagged_get(const unsigned char* from, dc_dev_u32 k, dc_dev_u32 size) {
  dc_dev_u32 at = 4 * (k - 1), v = 0;
  if (at + 4 <= size && (((unsigned long long)(from + at)) & 3u) == 0) return *(const dc_dev_u32*)(from + at);
  for (dc_dev_u32 i = 0; i < 4 && at + i < size; ++i) v |= (dc_dev_u32)from[at + i] << (8 * i);
  return v;
}

/* A word's low half back into the message's bytes 4(k-1) to 4k-1. */
DC_DEVICE_FN void dc_ring_flagged_put(unsigned char* to, dc_dev_u32 k, dc_dev_u32 v, dc_dev_u32 size) {
  dc_dev_u32 at = 4 * (k - 1);
  if (at + 4 <= size && (((unsigned long long)(to + at)) & 3u) == 0) {
    *(dc_dev_u32*)(to + at) = v;
    return;
  }
  for (dc_dev_u32 i = 0; i < 4 && at + i < size; ++i) to[at + i] = (unsigned char)(v >> (8 * i));
}

/* Writes the message at `position` into its slot (`capacity` slots of
 * `slot_size` bytes): the words after the first, then the first (a consumer
 * that sees the first word early finds the rest in flight and tries again);
 * every word of the slot in one turn of every 128 (see above). */
DC_DEVICE_FN void dc_ring_flagged_write(unsigned char* slot, dc_dev_u64 position, dc_dev_u32 capacity,
                                        dc_dev_u32 slot_size, const void* message, dc_dev_u32 size, int gpu_scope) {
  const unsigned char* from = (const unsigned char*)message;
  dc_dev_u64 flag = dc_ring_flag(position);
  dc_dev_u32 words = 1 + (size + 3) / 4;
  int whole_slot = (position & (((dc_dev_u64)capacity << 7) - 1)) < capacity;
  dc_dev_u32 written = whole_slot ? (dc_dev_u32)(dc_ring_flagged_stride(slot_size) / 8) : words;
  for (dc_dev_u32 k = 2; k < written; k += 2) {
    dc_dev_u64 a = flag | (k < words ? dc_ring_flagged_get(from, k, size) : 0u);
    dc_dev_u64 b = flag | (k + 1 < words ? dc_ring_flagged_get(from, k + 1, size) : 0u);
    dc_dev_store_pair(slot + 8 * (dc_dev_u64)k, a, b, gpu_scope);
  }
  dc_dev_store_pair(slot, flag | size, flag | (words > 1 ? dc_ring_flagged_get(from, 1, size) : 0u), gpu_scope);
}

/* Reads the message at `position` from its slot if every word it needs shows
 * its flag: DC_RING_DONE; DC_RING_NOT_READY (not there yet, or not whole
 * yet); DC_RING_TOO_LARGE (longer than max_size or than the slot: *size gets
 * the length). `message` (NULL: only look) gets the bytes as they are read,
 * so after DC_RING_NOT_READY its first bytes may have changed. The first 32
 * bytes (the length and 12 message bytes) are read in one round trip, the
 * rest 32 words (128 message bytes) at a time, their loads in flight
 * together: each round trip to host memory costs about 1 us. */
DC_DEVICE_FN int dc_ring_flagged_read(const unsigned char* slot, dc_dev_u64 position, dc_dev_u32 slot_size,
                                      void* message, dc_dev_u32 max_size, dc_dev_u32* size, int gpu_scope) {
  const dc_dev_u64 high = 0xffffffff00000000ull, flag = dc_ring_flag(position);
  dc_dev_u64 w[32];
  dc_dev_load_pair(slot, &w[0], &w[1], gpu_scope);
  dc_dev_load_pair(slot + 16, &w[2], &w[3], gpu_scope); /* a slot is at least 32 bytes */
  if ((w[0] & high) != flag) return DC_RING_NOT_READY;
  dc_dev_u32 n = (dc_dev_u32)w[0];
  *size = n;
  if (n > max_size || n > slot_size) return DC_RING_TOO_LARGE;
  unsigned char* to = (unsigned char*)message;
  dc_dev_u32 words = 1 + (n + 3) / 4;
  for (dc_dev_u32 k = 1; k < words && k < 4; ++k) {
    if ((w[k] & high) != flag) return DC_RING_NOT_READY;
    if (to) dc_ring_flagged_put(to, k, (dc_dev_u32)w[k], n);
  }
  for (dc_dev_u32 k = 4; k < words; k += 32) {
    dc_dev_u32 m = words - k < 32 ? words - k : 32;
    for (dc_dev_u32 j = 0; j < m; j += 2)
      dc_dev_load_pair(slot + 8 * (dc_dev_u64)(k + j), &w[j], &w[j + 1], gpu_scope);
    for (dc_dev_u32 j = 0; j < m; ++j) {
      if ((w[j] & high) != flag) return DC_RING_NOT_READY;
      if (to) dc_ring_flagged_put(to, k + j, (dc_dev_u32)w[j], n);
    }
  }
  return DC_RING_DONE;
}

/* ---- cursors: one side of one ring, kept in registers
 *
 * A cursor is the kernel's private view of one side of one ring: the
 * header's constant fields and the side's own counter are kept in registers,
 * and the other side's counter is read only when needed: the producer reads
 * the consumer's head when its copy says full; the consumer never reads the
 * tail (the slot's flags say whether a message is there).
 *
 * Rules: open a cursor at the start of the kernel's run (dc_ring_cursor_open)
 * and use it, from one thread, for that run only; never mix it with the
 * dc_ring_try_* calls on the same side of the same ring in that run (they
 * would not see each other's counters). The host must not reset the ring
 * while a cursor is open on it (dccuda's host side never does). */
typedef struct dc_ring_cursor {
  dc_queue_ring* ring;
  unsigned char* slots;
  dc_dev_u32 slot_size;  /* a power of two */
  dc_dev_u32 capacity;   /* a power of two */
  dc_dev_u64 stride;     /* bytes from one slot to the next */
  dc_dev_u64 own;        /* the consumer's head or the producer's tail */
  dc_dev_u64 seen;       /* the producer's copy of the consumer's head */
  dc_dev_u64 published;  /* the consumer's head as last given back */
  dc_dev_u32 idle;       /* the consumer's takes in a row that found the ring empty */
  int gpu_scope;         /* nonzero: a ring between kernels (GPU-scope accesses and fences) */
} dc_ring_cursor;

/* The cursors' fence: GPU scope for a ring between kernels, system scope
 * otherwise (the other side is the host). */
DC_DEVICE_FN void dc_ring_cursor_fence(const dc_ring_cursor* c) {
  if (c->gpu_scope)
    dc_dev_fence_acq_rel_gpu();
  else
    dc_dev_fence_acq_rel();
}

/* Opens a cursor on `q` for the consumer (producer == 0) or the producer. */
DC_DEVICE_FN void dc_ring_cursor_open(dc_ring_cursor* c, dc_queue_ring* q, int producer) {
  c->ring = q;
  c->slot_size = dc_dev_load_acquire_u32(&q->slot_size);
  c->capacity = q->capacity;
  c->slots = (unsigned char*)q + q->slots_offset;
  c->stride = dc_ring_flagged_stride(c->slot_size);
  c->gpu_scope = q->direction == DC_RING_BETWEEN_KERNELS;
  if (producer) {
    c->own = dc_dev_load_own_u64(&q->tail);
    c->seen = dc_dev_load_acquire_u64(&q->head);
  } else {
    c->own = dc_dev_load_own_u64(&q->head);
    c->seen = c->own;
  }
  c->published = c->own;
  c->idle = 0;
}

/* Gives the slots taken so far back to the producer (release: the reads are
 * done first). */
DC_DEVICE_FN void dc_ring_cursor_publish(dc_ring_cursor* c) {
  dc_ring_cursor_fence(c);
  dc_dev_store_relaxed_u64(&c->ring->head, c->own);
  c->published = c->own;
}

/* Dequeues the oldest message into `message` (`max_size` bytes), its length
 * into *size: DC_RING_DONE, DC_RING_NOT_READY (empty) or DC_RING_TOO_LARGE
 * (the message stays queued; *size gets its length). The slot is not given
 * back at once: slots go back by themselves every capacity / 2 messages
 * taken and once takes have found the ring empty DC_RING_IDLE_PUBLISH_AFTER
 * times in a row (the consumer is idle then), so a consumer that only takes
 * never leaves the producer waiting; call
 * dc_ring_cursor_publish to give them back at once (before the kernel ends,
 * for example). */
DC_DEVICE_FN int dc_ring_cursor_take(dc_ring_cursor* c, void* message, dc_dev_u32 max_size, dc_dev_u32* size) {
  int r = dc_ring_flagged_read(c->slots + (c->own & (c->capacity - 1)) * c->stride, c->own, c->slot_size, message,
                               max_size, size, c->gpu_scope);
  if (r == DC_RING_DONE) {
    c->own += 1;
    c->idle = 0;
    if (c->own - c->published >= c->capacity / 2) dc_ring_cursor_publish(c);
    return r;
  }
#if DC_RING_IDLE_PUBLISH_AFTER > 0
  if (r == DC_RING_NOT_READY && ++c->idle >= DC_RING_IDLE_PUBLISH_AFTER && c->own != c->published)
    dc_ring_cursor_publish(c); /* idle: give the slots back now */
#endif
  return r;
}

/* dc_ring_cursor_take, then the slot given back at once. */
DC_DEVICE_FN int dc_ring_cursor_try_dequeue(dc_ring_cursor* c, void* message, dc_dev_u32 max_size, dc_dev_u32* size) {
  int r = dc_ring_cursor_take(c, message, max_size, size);
  if (r == DC_RING_DONE && c->own != c->published) dc_ring_cursor_publish(c);
  return r;
}

/* Enqueues `size` bytes from `message` (the producer's side):
 * DC_RING_DONE, DC_RING_NOT_READY (full) or DC_RING_TOO_LARGE. Reads the
 * consumer's head only when the ring looks full. */
DC_DEVICE_FN int dc_ring_cursor_try_enqueue(dc_ring_cursor* c, const void* message, dc_dev_u32 size) {
  if (size > c->slot_size) return DC_RING_TOO_LARGE;
  if (c->own - c->seen >= c->capacity) {
    c->seen = dc_dev_load_relaxed_u64(&c->ring->head);
    if (c->own - c->seen >= c->capacity) return DC_RING_NOT_READY;
    dc_ring_cursor_fence(c); /* acquire: the consumer has finished reading the slots it freed */
  }
  dc_ring_flagged_write(c->slots + (c->own & (c->capacity - 1)) * c->stride, c->own, c->capacity, c->slot_size,
                        message, size, c->gpu_scope);
  c->own += 1;
  dc_dev_store_relaxed_u64(&c->ring->tail, c->own); /* the count, for dc_queue_counters: no fence */
  return DC_RING_DONE;
}

/* ---- one call at a time (no cursor): each opens a cursor for the call, so
 * it reads the ring's header and counters every time; a kernel that serves a
 * queue in a loop keeps a cursor instead. */

/* Enqueue `size` bytes from `message` (the producer's one thread).
 * DC_RING_DONE, DC_RING_NOT_READY (full) or DC_RING_TOO_LARGE. */
DC_DEVICE_FN int dc_ring_try_enqueue(dc_queue_ring* q, const void* message, dc_dev_u32 size) {
  dc_ring_cursor c;
  dc_ring_cursor_open(&c, q, 1);
  return dc_ring_cursor_try_enqueue(&c, message, size);
}

/* Dequeue the oldest message into `message` (`max_size` bytes), its length
 * into *size (the consumer's one thread), and give its slot back.
 * DC_RING_DONE, DC_RING_NOT_READY (empty) or DC_RING_TOO_LARGE (the message
 * stays queued; *size gets its length). */
DC_DEVICE_FN int dc_ring_try_dequeue(dc_queue_ring* q, void* message, dc_dev_u32 max_size, dc_dev_u32* size) {
  dc_ring_cursor c;
  dc_ring_cursor_open(&c, q, 0);
  return dc_ring_cursor_try_dequeue(&c, message, max_size, size);
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

/* The heartbeat set to a count the kernel keeps (a store only; no read of the
 * block, which dc_control_beat makes). */
DC_DEVICE_FN void dc_control_beat_to(dc_control_block* c, dc_dev_u64 count) {
  dc_dev_store_relaxed_u64(&c->heartbeat, count);
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
