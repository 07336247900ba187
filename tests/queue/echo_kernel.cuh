// The echo actor: a resident kernel that answers every message. It is the
// same code on both sides of the tests: compiled by NVRTC for the GPU (the
// tests pass this file and dccuda_device.h as in-memory headers), and by the
// host compiler for a host thread that plays the kernel on the fake driver.
//
// Each message starts with a 64-bit sequence number; the actor checks that
// they come in order (0, 1, 2...) and counts a control-block error (code 2)
// for each that does not. The answer is the sequence number followed by every
// further byte plus one, so that the host can tell an answer from its request.
// It beats its heartbeat once per message and once per 1024 empty polls.
// dc_echo_cursor is the same actor through the cursors of dccuda_device.h.
#ifndef DC_ECHO_KERNEL_CUH
#define DC_ECHO_KERNEL_CUH

#include "dccuda_device.h"

#define DC_ECHO_MAX_MESSAGE 256
#define DC_ECHO_ERROR_QUEUE 1     /* a message larger than DC_ECHO_MAX_MESSAGE, or an answer larger than a slot */
#define DC_ECHO_ERROR_SEQUENCE 2  /* a sequence number out of order */

/* Checks a message's sequence number (counting an error when out of order)
 * and turns it into its answer in place: both actors answer alike. */
DC_DEVICE_FN void dc_echo_answer(dc_dev_u64* message, dc_dev_u32 n, dc_dev_u64* expected, dc_control_block* control) {
  if (n < 8 || message[0] != *expected) dc_control_report_error(control, DC_ECHO_ERROR_SEQUENCE);
  if (n >= 8) *expected = message[0] + 1;
  unsigned char* bytes = (unsigned char*)message;
  for (dc_dev_u32 i = 8; i < n; ++i) bytes[i] = (unsigned char)(bytes[i] + 1);
}

DC_DEVICE_FN void dc_echo_run(dc_queue_ring* in, dc_queue_ring* out, dc_control_block* control) {
  dc_control_enter(control);
  dc_dev_u64 message[DC_ECHO_MAX_MESSAGE / 8];
  dc_dev_u64 expected = 0;
  dc_dev_u32 idle = 0;
  int running = 1;
  while (running && !dc_control_stop_requested(control)) {
    dc_dev_u32 n = 0;
    int r = dc_ring_try_dequeue(in, message, (dc_dev_u32)sizeof message, &n);
    if (r == DC_RING_NOT_READY) {
      if (++idle % 1024 == 0) dc_control_beat(control);
      continue;
    }
    if (r != DC_RING_DONE) {
      dc_control_report_error(control, DC_ECHO_ERROR_QUEUE);
      break;
    }
    dc_echo_answer(message, n, &expected, control);
    for (;;) {
      r = dc_ring_try_enqueue(out, message, n);
      if (r == DC_RING_DONE) break;
      if (r != DC_RING_NOT_READY) {
        dc_control_report_error(control, DC_ECHO_ERROR_QUEUE);
        running = 0;
        break;
      }
      if (dc_control_stop_requested(control)) {
        running = 0;
        break;
      }
    }
    dc_control_beat(control);
  }
  dc_control_exit(control);
}

/* The same actor through cursors (dccuda_device.h): the ring headers and its
 * own counters in registers, a message found and read in one round trip, the
 * answer written without a fence, the requests' slots given back in groups
 * and when idle, the heartbeat a store of its own count, and the stop flag
 * read every 64 turns of the loop rather than every turn. */
DC_DEVICE_FN void dc_echo_cursor_run(dc_queue_ring* in, dc_queue_ring* out, dc_control_block* control) {
  dc_control_enter(control);
  dc_ring_cursor rx, tx;
  dc_ring_cursor_open(&rx, in, 0);
  dc_ring_cursor_open(&tx, out, 1);
  dc_dev_u64 message[DC_ECHO_MAX_MESSAGE / 8];
  dc_dev_u64 expected = 0, beats = 0;
  dc_dev_u32 turns = 0;
  int running = 1;
  while (running) {
    if ((++turns & 63u) == 0 && dc_control_stop_requested(control)) break;
    dc_dev_u32 n = 0;
    int r = dc_ring_cursor_take(&rx, message, (dc_dev_u32)sizeof message, &n);
    if (r == DC_RING_NOT_READY) {
      if ((turns & 1023u) == 0) dc_control_beat_to(control, ++beats);
      continue;
    }
    if (r != DC_RING_DONE) {
      dc_control_report_error(control, DC_ECHO_ERROR_QUEUE);
      break;
    }
    dc_echo_answer(message, n, &expected, control);
    for (;;) {
      r = dc_ring_cursor_try_enqueue(&tx, message, n);
      if (r == DC_RING_DONE) break;
      if (r != DC_RING_NOT_READY) {
        dc_control_report_error(control, DC_ECHO_ERROR_QUEUE);
        dc_ring_cursor_publish(&rx);
        running = 0;
        break;
      }
      if (dc_control_stop_requested(control)) {
        dc_ring_cursor_publish(&rx);
        running = 0;
        break;
      }
    }
    dc_control_beat_to(control, ++beats);
  }
  dc_ring_cursor_publish(&rx); /* every slot taken given back before the kernel ends */
  dc_control_exit(control);
}

/* ---- a relay between two kernels, through two DC_QUEUE_BETWEEN_KERNELS
 * rings (flagged slots, dccuda_device.h): the source sends `count` messages,
 * message i being dc_relay_length(i, max) bytes (0 to max, every length in
 * turn) of dc_relay_byte(i, j), as fast as the ring takes them, and takes the
 * echoes as they come; the echo takes each message and sends it back as it
 * is. Both check every message (its length and every byte) and count an error
 * in their control block for each wrong one; a side that sees nothing move
 * for DC_RELAY_PATIENCE turns reports DC_RELAY_ERROR_STUCK and ends instead
 * of hanging. Each sets its heartbeat to its count of messages at the end. */
#define DC_RELAY_ERROR_WRONG 3  /* a message or echo of the wrong length or bytes */
#define DC_RELAY_ERROR_STUCK 4  /* nothing moved for DC_RELAY_PATIENCE turns */
#if DC_DEVICE_ON_GPU
#define DC_RELAY_PATIENCE (1ull << 26) /* polls of about 0.5 us: half a minute */
#else
#define DC_RELAY_PATIENCE (1ull << 32) /* a host thread polls faster, and a sanitizer may stall it */
#endif

DC_DEVICE_FN dc_dev_u32 dc_relay_length(dc_dev_u64 i, dc_dev_u32 max) { return (dc_dev_u32)(i % (max + 1)); }
DC_DEVICE_FN unsigned char dc_relay_byte(dc_dev_u64 i, dc_dev_u32 j) { return (unsigned char)(i * 131u + j * 7u + 1u); }
DC_DEVICE_FN int dc_relay_intact(const unsigned char* m, dc_dev_u32 n, dc_dev_u64 i, dc_dev_u32 max) {
  if (n != dc_relay_length(i, max)) return 0;
  for (dc_dev_u32 j = 0; j < n; ++j)
    if (m[j] != dc_relay_byte(i, j)) return 0;
  return 1;
}

DC_DEVICE_FN void dc_relay_source_run(dc_queue_ring* out, dc_queue_ring* back, dc_control_block* control,
                                      dc_dev_u64 count, dc_dev_u32 max) {
  dc_control_enter(control);
  dc_ring_cursor tx, rx;
  dc_ring_cursor_open(&tx, out, 1);
  dc_ring_cursor_open(&rx, back, 0);
  dc_dev_u64 m[DC_ECHO_MAX_MESSAGE / 8], a[DC_ECHO_MAX_MESSAGE / 8];
  unsigned char* mb = (unsigned char*)m;
  dc_dev_u64 sent = 0, got = 0, idle = 0;
  int filled = 0; /* m holds message `sent` */
  if (max > DC_ECHO_MAX_MESSAGE) max = DC_ECHO_MAX_MESSAGE;
  while (got < count) {
    int moved = 0;
    if (sent < count) {
      dc_dev_u32 n = dc_relay_length(sent, max);
      if (!filled) {
        for (dc_dev_u32 j = 0; j < n; ++j) mb[j] = dc_relay_byte(sent, j);
        filled = 1;
      }
      int r = dc_ring_cursor_try_enqueue(&tx, m, n);
      if (r == DC_RING_DONE) {
        ++sent;
        filled = 0;
        moved = 1;
      } else if (r != DC_RING_NOT_READY) {
        dc_control_report_error(control, DC_RELAY_ERROR_WRONG);
        break;
      }
    }
    dc_dev_u32 n = 0;
    int r = dc_ring_cursor_take(&rx, a, (dc_dev_u32)sizeof a, &n);
    if (r == DC_RING_DONE) {
      if (!dc_relay_intact((const unsigned char*)a, n, got, max)) dc_control_report_error(control, DC_RELAY_ERROR_WRONG);
      ++got;
      moved = 1;
    } else if (r != DC_RING_NOT_READY) {
      dc_control_report_error(control, DC_RELAY_ERROR_WRONG);
      break;
    }
    if (moved) {
      idle = 0;
    } else if (++idle > DC_RELAY_PATIENCE) {
      dc_control_report_error(control, DC_RELAY_ERROR_STUCK);
      break;
    }
  }
  dc_ring_cursor_publish(&rx);
  dc_control_beat_to(control, got);
  dc_control_exit(control);
}

DC_DEVICE_FN void dc_relay_echo_run(dc_queue_ring* in, dc_queue_ring* back, dc_control_block* control,
                                    dc_dev_u64 count, dc_dev_u32 max) {
  dc_control_enter(control);
  dc_ring_cursor rx, tx;
  dc_ring_cursor_open(&rx, in, 0);
  dc_ring_cursor_open(&tx, back, 1);
  dc_dev_u64 m[DC_ECHO_MAX_MESSAGE / 8];
  dc_dev_u64 done = 0, idle = 0;
  if (max > DC_ECHO_MAX_MESSAGE) max = DC_ECHO_MAX_MESSAGE;
  int running = 1;
  while (running && done < count) {
    dc_dev_u32 n = 0;
    int r = dc_ring_cursor_take(&rx, m, (dc_dev_u32)sizeof m, &n);
    if (r == DC_RING_NOT_READY) {
      if (++idle > DC_RELAY_PATIENCE) {
        dc_control_report_error(control, DC_RELAY_ERROR_STUCK);
        break;
      }
      continue;
    }
    idle = 0;
    if (r != DC_RING_DONE) {
      dc_control_report_error(control, DC_RELAY_ERROR_WRONG);
      break;
    }
    if (!dc_relay_intact((const unsigned char*)m, n, done, max)) dc_control_report_error(control, DC_RELAY_ERROR_WRONG);
    while ((r = dc_ring_cursor_try_enqueue(&tx, m, n)) != DC_RING_DONE) {
      if (r != DC_RING_NOT_READY || ++idle > DC_RELAY_PATIENCE) {
        dc_control_report_error(control, r != DC_RING_NOT_READY ? DC_RELAY_ERROR_WRONG : DC_RELAY_ERROR_STUCK);
        running = 0;
        break;
      }
    }
    idle = 0;
    ++done;
  }
  dc_ring_cursor_publish(&rx);
  dc_control_beat_to(control, done);
  dc_control_exit(control);
}

#if DC_DEVICE_ON_GPU
/* One thread serves the queues; launch it with one block of one thread (more
 * threads only wait). */
extern "C" __global__ void dc_echo(dc_queue_ring* in, dc_queue_ring* out, dc_control_block* control) {
  if (blockIdx.x == 0 && threadIdx.x == 0) dc_echo_run(in, out, control);
}
extern "C" __global__ void dc_echo_cursor(dc_queue_ring* in, dc_queue_ring* out, dc_control_block* control) {
  if (blockIdx.x == 0 && threadIdx.x == 0) dc_echo_cursor_run(in, out, control);
}
extern "C" __global__ void dc_relay_source(dc_queue_ring* out, dc_queue_ring* back, dc_control_block* control,
                                           unsigned long long count, unsigned max) {
  if (blockIdx.x == 0 && threadIdx.x == 0) dc_relay_source_run(out, back, control, count, max);
}
extern "C" __global__ void dc_relay_echo(dc_queue_ring* in, dc_queue_ring* back, dc_control_block* control,
                                         unsigned long long count, unsigned max) {
  if (blockIdx.x == 0 && threadIdx.x == 0) dc_relay_echo_run(in, back, control, count, max);
}
#endif

#endif
