/*
 * dccuda_device.h - the kernel's side of dccuda's message queues and control
 * blocks (see "Message queues and resident kernels" in dccuda.h).
 *
 * Plain CUDA C++: it compiles under NVRTC and nvcc, needs no CUDA header, no
 * CCCL and no runtime library, and uses only volatile loads and stores,
 * __threadfence_system(), which every architecture has, and (in the cursors,
 * on sm_70 and later) the lighter fence.acq_rel.sys; no host-native atomics:
 * the rings work on every PCIe host. Include it in a kernel's source
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
 * A ring between kernels (DC_QUEUE_BETWEEN_KERNELS, in device memory) uses
 * flagged slots instead (see "flagged slots" below): every 8-byte word of a
 * slot carries its message's flag beside 4 bytes of the message, so the
 * consumer finds and reads a message in one load and neither side fences
 * per message.
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
/* Two 8-byte words in one 16-byte access (16-byte aligned), each word
 * single-copy atomic (PTX: a vector access is one access per element): the
 * flagged slots' unit. GPU scope, which a ring between kernels needs (both
 * sides on this GPU; no system-wide order, and no L1 line). */
DC_DEVICE_FN void dc_dev_load_pair(const void* p, dc_dev_u64* a, dc_dev_u64* b) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
  asm volatile("ld.relaxed.gpu.v2.u64 {%0, %1}, [%2];" : "=l"(*a), "=l"(*b) : "l"(p) : "memory");
#else
  asm volatile("ld.volatile.v2.u64 {%0, %1}, [%2];" : "=l"(*a), "=l"(*b) : "l"(p) : "memory");
#endif
}
DC_DEVICE_FN void dc_dev_store_pair(void* p, dc_dev_u64 a, dc_dev_u64 b) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
  asm volatile("st.relaxed.gpu.v2.u64 [%0], {%1, %2};" ::"l"(p), "l"(a), "l"(b) : "memory");
#else
  asm volatile("st.volatile.v2.u64 [%0], {%1, %2};" ::"l"(p), "l"(a), "l"(b) : "memory");
#endif
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
/* On the host the cursors' counter loads are acquires and their stores
 * releases (what the fences around them give on the GPU): thread sanitizers
 * do not see fences. */
DC_DEVICE_FN dc_dev_u64 dc_dev_load_relaxed_u64(const dc_dev_u64* p) { return __atomic_load_n(p, __ATOMIC_ACQUIRE); }
DC_DEVICE_FN void dc_dev_fence_acq_rel(void) { __atomic_thread_fence(__ATOMIC_ACQ_REL); }
DC_DEVICE_FN void dc_dev_fence_acq_rel_gpu(void) { __atomic_thread_fence(__ATOMIC_ACQ_REL); }
DC_DEVICE_FN dc_dev_u64 dc_dev_load_own_u64(const dc_dev_u64* p) { return __atomic_load_n(p, __ATOMIC_RELAXED); }
DC_DEVICE_FN void dc_dev_store_relaxed_u64(dc_dev_u64* p, dc_dev_u64 v) { __atomic_store_n(p, v, __ATOMIC_RELEASE); }
DC_DEVICE_FN void dc_dev_store_relaxed_u32(dc_dev_u32* p, dc_dev_u32 v) { __atomic_store_n(p, v, __ATOMIC_RELAXED); }
DC_DEVICE_FN void dc_dev_copy_in(void* slot, const void* from, dc_dev_u32 n) {
  unsigned char* d = (unsigned char*)slot;
  const unsigned char* s = (const unsigned char*)from;
  for (dc_dev_u32 i = 0; i < n; ++i) d[i] = s[i];
}
DC_DEVICE_FN void dc_dev_copy_out(void* to, const void* slot, dc_dev_u32 n) { dc_dev_copy_in(to, slot, n); }
/* Each word atomic on its own, as on the GPU (no order: the flag travels in
 * the word it guards). */
DC_DEVICE_FN void dc_dev_load_pair(const void* p, dc_dev_u64* a, dc_dev_u64* b) {
  *a = __atomic_load_n((const dc_dev_u64*)p, __ATOMIC_RELAXED);
  *b = __atomic_load_n((const dc_dev_u64*)p + 1, __ATOMIC_RELAXED);
}
DC_DEVICE_FN void dc_dev_store_pair(void* p, dc_dev_u64 a, dc_dev_u64 b) {
  __atomic_store_n((dc_dev_u64*)p, a, __ATOMIC_RELAXED);
  __atomic_store_n((dc_dev_u64*)p + 1, b, __ATOMIC_RELAXED);
}
#endif

/* ---- queues */

DC_DEVICE_FN unsigned char* dc_ring_slot(dc_queue_ring* q, dc_dev_u64 position) {
  return (unsigned char*)q + q->slots_offset + (position & (q->capacity - 1)) * (dc_dev_u64)q->slot_size;
}
DC_DEVICE_FN dc_dev_u32* dc_ring_length_cell(dc_queue_ring* q, dc_dev_u64 position) {
  return (dc_dev_u32*)((unsigned char*)q + q->lengths_offset) + (position & (q->capacity - 1));
}

/* A ring's direction field for a queue between kernels (dccuda.h's
 * DC_QUEUE_BETWEEN_KERNELS): both sides on the GPU, the ring in its memory. */
#define DC_RING_BETWEEN_KERNELS 3u

/* ---- flagged slots: the rings between kernels
 *
 * Two kernels on one GPU talk through device memory, where every load of the
 * other side's writes is a round trip to the L2 cache and every fence waits
 * for one. A ring between kernels therefore does not publish its messages
 * through the tail: each 8-byte word of a slot carries the message's flag
 * (the 32 bits of its position + 1) in its high half and 4 bytes in its low
 * half: word 0 the message's length, word k (k >= 1) the message's bytes
 * 4(k-1) to 4k-1 (little-endian, the last one padded with zeros). A word is
 * written and read whole (8-byte single-copy atomicity), so a word that shows
 * the expected flag holds this message's bytes: the consumer finds and reads
 * a message with the same loads, the producer writes it with plain stores,
 * and neither fences per message. A slot takes dc_ring_flagged_stride(slot
 * size) bytes (twice the slot size, plus 16).
 *
 * A stale word never shows the flag a reader expects: a 32-bit flag comes
 * back only after 2^32 messages, at least 256 turns of the ring, and the
 * producer writes every word of a slot (not only the message's) in one turn
 * of every 128, so no word is older than 128 turns; dccuda zeroes the slots
 * when it creates the ring, and turn 0 is such a turn.
 *
 * The tail is still written (after each message, without a fence), for
 * dc_queue_counters only; the head is the producer's signal that slots are
 * free again, given back in groups (dc_ring_cursor_take's rules). */

/* Bytes a slot of `slot_size` message bytes takes in a flagged ring. */
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
                                        dc_dev_u32 slot_size, const void* message, dc_dev_u32 size) {
  const unsigned char* from = (const unsigned char*)message;
  dc_dev_u64 flag = dc_ring_flag(position);
  dc_dev_u32 words = 1 + (size + 3) / 4;
  int whole_slot = (position & (((dc_dev_u64)capacity << 7) - 1)) < capacity;
  dc_dev_u32 written = whole_slot ? (dc_dev_u32)(dc_ring_flagged_stride(slot_size) / 8) : words;
  for (dc_dev_u32 k = 2; k < written; k += 2) {
    dc_dev_u64 a = flag | (k < words ? dc_ring_flagged_get(from, k, size) : 0u);
    dc_dev_u64 b = flag | (k + 1 < words ? dc_ring_flagged_get(from, k + 1, size) : 0u);
    dc_dev_store_pair(slot + 8 * (dc_dev_u64)k, a, b);
  }
  dc_dev_store_pair(slot, flag | size, flag | (words > 1 ? dc_ring_flagged_get(from, 1, size) : 0u));
}

/* Reads the message at `position` from its slot into `message` if every word
 * it needs shows its flag: DC_RING_DONE; DC_RING_NOT_READY (not there yet,
 * or not whole yet: `message`'s bytes are then undefined); DC_RING_TOO_LARGE
 * (longer than max_size or than the slot: *size gets the length). The first
 * 32 bytes (the length and 12 message bytes) are read in one round trip,
 * the rest eight words at a time, their loads in flight together. */
DC_DEVICE_FN int dc_ring_flagged_read(const unsigned char* slot, dc_dev_u64 position, dc_dev_u32 slot_size,
                                      void* message, dc_dev_u32 max_size, dc_dev_u32* size) {
  const dc_dev_u64 high = 0xffffffff00000000ull, flag = dc_ring_flag(position);
  dc_dev_u64 w[8];
  dc_dev_load_pair(slot, &w[0], &w[1]);
  dc_dev_load_pair(slot + 16, &w[2], &w[3]); /* a slot is at least 32 bytes */
  if ((w[0] & high) != flag) return DC_RING_NOT_READY;
  dc_dev_u32 n = (dc_dev_u32)w[0];
  *size = n;
  if (n > max_size || n > slot_size) return DC_RING_TOO_LARGE;
  unsigned char* to = (unsigned char*)message;
  dc_dev_u32 words = 1 + (n + 3) / 4;
  for (dc_dev_u32 k = 1; k < words && k < 4; ++k) {
    if ((w[k] & high) != flag) return DC_RING_NOT_READY;
    dc_ring_flagged_put(to, k, (dc_dev_u32)w[k], n);
  }
  for (dc_dev_u32 k = 4; k < words; k += 8) {
    dc_dev_u32 m = words - k < 8 ? words - k : 8;
    for (dc_dev_u32 j = 0; j < m; j += 2) dc_dev_load_pair(slot + 8 * (dc_dev_u64)(k + j), &w[j], &w[j + 1]);
    for (dc_dev_u32 j = 0; j < m; ++j) {
      if ((w[j] & high) != flag) return DC_RING_NOT_READY;
      dc_ring_flagged_put(to, k + j, (dc_dev_u32)w[j], n);
    }
  }
  return DC_RING_DONE;
}

/* ---- cursors: the same rings, with fewer reads of the other side's memory
 *
 * A ring usually lives in page-locked host memory, and every load a kernel
 * makes of it is a round trip over PCIe (about 1 us; a store is posted and
 * costs little). dc_ring_try_dequeue and dc_ring_try_enqueue read the ring's
 * header, their own counter and the other side's counter on every call. A
 * cursor is the kernel's private view of one side of one ring: the header's
 * constant fields and the side's own counter are kept in registers, and the
 * other side's counter is read again only when the copy at hand says empty
 * (consumer) or full (producer). A message is then found with one read of
 * the tail, and its length and first 16 bytes are read together; longer
 * messages are read eight words at a time, the loads in flight together.
 *
 * Rules: open a cursor at the start of the kernel's run (dc_ring_cursor_open)
 * and use it, from one thread, for that run only; never mix it with the
 * dc_ring_try_* calls on the same side of the same ring in that run (they
 * would not see each other's counters). The host must not reset the ring
 * while a cursor is open on it (dccuda's host side never does). */
typedef struct dc_ring_cursor {
  dc_queue_ring* ring;
  unsigned char* slots;
  dc_dev_u32* lengths;
  dc_dev_u32 slot_size;  /* a power of two */
  dc_dev_u32 capacity;   /* a power of two */
  dc_dev_u64 own;        /* the consumer's head or the producer's tail */
  dc_dev_u64 seen;       /* the other side's counter as last read */
  int words;             /* nonzero: slots are 8-byte aligned (word copies) */
  int gpu_scope;         /* nonzero: a ring between kernels (GPU-scope fences) */
  int flagged;           /* nonzero: flagged slots (a ring between kernels) */
  dc_dev_u64 stride;     /* bytes from one slot to the next */
  dc_dev_u64 published;  /* the consumer's head as last given back */
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
  c->lengths = (dc_dev_u32*)((unsigned char*)q + q->lengths_offset);
  c->words = ((((unsigned long long)c->slots) | c->slot_size) & 7u) == 0;
  c->gpu_scope = q->direction == DC_RING_BETWEEN_KERNELS;
  c->flagged = c->gpu_scope;
  c->stride = c->flagged ? dc_ring_flagged_stride(c->slot_size) : c->slot_size;
  if (producer) {
    c->own = dc_dev_load_own_u64(&q->tail);
    c->seen = dc_dev_load_acquire_u64(&q->head);
  } else {
    c->own = dc_dev_load_own_u64(&q->head);
    c->seen = c->own; /* read the tail at the first dequeue */
  }
  c->published = c->own;
}

/* Gives the slots taken so far back to the producer (release: the reads are
 * done first). */
DC_DEVICE_FN void dc_ring_cursor_publish(dc_ring_cursor* c) {
  dc_ring_cursor_fence(c);
  dc_dev_store_relaxed_u64(&c->ring->head, c->own);
  c->published = c->own;
}

/* Dequeues as dc_ring_try_dequeue does, but does not publish the new head
 * (the slot is not given back to the producer yet): call
 * dc_ring_cursor_publish, or dc_ring_cursor_publish_after_fence after a
 * system fence that follows this call (dc_ring_cursor_try_enqueue's, when the
 * answer to a message is sent before its slot is given back: one fence for
 * both). */
DC_DEVICE_FN int dc_ring_cursor_take(dc_ring_cursor* c, void* message, dc_dev_u32 max_size, dc_dev_u32* size) {
  if (c->flagged) {
    int r = dc_ring_flagged_read(c->slots + (c->own & (c->capacity - 1)) * c->stride, c->own, c->slot_size, message,
                                 max_size, size);
    if (r == DC_RING_DONE) {
      c->own += 1;
      if (c->own - c->published >= c->capacity / 2) dc_ring_cursor_publish(c);
    } else if (r == DC_RING_NOT_READY && c->own != c->published) {
      dc_ring_cursor_publish(c); /* idle: give the slots back now */
    }
    return r;
  }
  if (c->own == c->seen) {
    /* An empty poll needs no fence; a new tail is made an acquire by one. */
    c->seen = dc_dev_load_relaxed_u64(&c->ring->tail);
    if (c->own == c->seen) return DC_RING_NOT_READY;
    dc_ring_cursor_fence(c); /* acquire: the slot is written */
  }
  dc_dev_u64 index = c->own & (c->capacity - 1);
  const unsigned char* slot = c->slots + index * (dc_dev_u64)c->slot_size;
  if (c->words && c->slot_size >= 16) {
    /* The length and the first two words in one round trip. */
    const volatile dc_dev_u64* w = (const volatile dc_dev_u64*)slot;
    dc_dev_u32 n = *(const volatile dc_dev_u32*)(c->lengths + index);
    dc_dev_u64 w0 = w[0], w1 = w[1];
    *size = n;
    if (n > max_size) return DC_RING_TOO_LARGE;
    dc_dev_u64 first[2] = {w0, w1};
    const unsigned char* fb = (const unsigned char*)first;
    unsigned char* to = (unsigned char*)message;
    dc_dev_u32 head_bytes = n < 16 ? n : 16;
    for (dc_dev_u32 i = 0; i < head_bytes; ++i) to[i] = fb[i];
    if (n > 16) {
      dc_dev_u32 i = 16;
      if ((((unsigned long long)to) & 7u) == 0) {
        dc_dev_u64* d = (dc_dev_u64*)to;
        for (; i + 64 <= n; i += 64) {
          /* eight loads issued before the first is used */
          dc_dev_u64 r0 = w[i / 8], r1 = w[i / 8 + 1], r2 = w[i / 8 + 2], r3 = w[i / 8 + 3];
          dc_dev_u64 r4 = w[i / 8 + 4], r5 = w[i / 8 + 5], r6 = w[i / 8 + 6], r7 = w[i / 8 + 7];
          d[i / 8] = r0; d[i / 8 + 1] = r1; d[i / 8 + 2] = r2; d[i / 8 + 3] = r3;
          d[i / 8 + 4] = r4; d[i / 8 + 5] = r5; d[i / 8 + 6] = r6; d[i / 8 + 7] = r7;
        }
        for (; i + 8 <= n; i += 8) d[i / 8] = w[i / 8];
      }
      dc_dev_copy_out(to + i, slot + i, n - i);
    }
  } else {
    dc_dev_u32 n = dc_dev_load_acquire_u32(c->lengths + index);
    *size = n;
    if (n > max_size) return DC_RING_TOO_LARGE;
    dc_dev_copy_out(message, slot, n);
  }
  c->own += 1;
  return DC_RING_DONE;
}

/* The same without the fence, for a caller that has just run a system fence
 * after its reads (dc_ring_cursor_try_enqueue runs one before it returns
 * DC_RING_DONE). On a ring between kernels, whose enqueue has no fence to
 * share, it leaves the slots to dc_ring_cursor_take's giving back (see
 * there). */
DC_DEVICE_FN void dc_ring_cursor_publish_after_fence(dc_ring_cursor* c) {
  if (c->flagged) return;
  dc_dev_store_relaxed_u64(&c->ring->head, c->own);
  c->published = c->own;
}

/* dc_ring_try_dequeue through a cursor: take, then publish. */
DC_DEVICE_FN int dc_ring_cursor_try_dequeue(dc_ring_cursor* c, void* message, dc_dev_u32 max_size, dc_dev_u32* size) {
  int r = dc_ring_cursor_take(c, message, max_size, size);
  if (r == DC_RING_DONE) dc_ring_cursor_publish(c);
  return r;
}

/* dc_ring_try_enqueue through a cursor (the producer's side): reads the
 * consumer's head only when the ring looks full. */
DC_DEVICE_FN int dc_ring_cursor_try_enqueue(dc_ring_cursor* c, const void* message, dc_dev_u32 size) {
  if (size > c->slot_size) return DC_RING_TOO_LARGE;
  if (c->own - c->seen >= c->capacity) {
    /* acquire: the consumer has finished reading the slot it freed */
    c->seen = dc_dev_load_relaxed_u64(&c->ring->head);
    if (c->own - c->seen >= c->capacity) return DC_RING_NOT_READY;
    dc_ring_cursor_fence(c);
  }
  dc_dev_u64 index = c->own & (c->capacity - 1);
  if (c->flagged) {
    dc_ring_flagged_write(c->slots + index * c->stride, c->own, c->capacity, c->slot_size, message, size);
    c->own += 1;
    dc_dev_store_relaxed_u64(&c->ring->tail, c->own); /* the count, for dc_queue_counters: no fence */
    return DC_RING_DONE;
  }
  dc_dev_copy_in(c->slots + index * (dc_dev_u64)c->slot_size, message, size);
  dc_dev_store_relaxed_u32(c->lengths + index, size);
  c->own += 1;
  dc_ring_cursor_fence(c); /* release: slot and length first */
  dc_dev_store_relaxed_u64(&c->ring->tail, c->own);
  return DC_RING_DONE;
}

/* ---- one call at a time (no cursor) */

/* Enqueue `size` bytes from `message` (the producer's one thread).
 * DC_RING_DONE, DC_RING_NOT_READY (full) or DC_RING_TOO_LARGE. */
DC_DEVICE_FN int dc_ring_try_enqueue(dc_queue_ring* q, const void* message, dc_dev_u32 size) {
  if (size > q->slot_size) return DC_RING_TOO_LARGE;
  if (q->direction == DC_RING_BETWEEN_KERNELS) { /* flagged slots: through a cursor for this one call */
    dc_ring_cursor c;
    dc_ring_cursor_open(&c, q, 1);
    return dc_ring_cursor_try_enqueue(&c, message, size);
  }
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
  if (q->direction == DC_RING_BETWEEN_KERNELS) { /* flagged slots: through a cursor for this one call */
    dc_ring_cursor c;
    dc_ring_cursor_open(&c, q, 0);
    int r = dc_ring_cursor_take(&c, message, max_size, size);
    if (r == DC_RING_DONE && c.own != c.published) dc_ring_cursor_publish(&c);
    return r;
  }
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
