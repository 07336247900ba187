/*
 * allreduce: a sum over every GPU of this machine with NCCL, through dccuda.
 *
 * One process drives every GPU (dc_comm_init_all: rank i on device i). Each
 * rank fills its buffer with (rank + 1), the all-reduce sums them in place,
 * and every rank checks that each element is n(n+1)/2. Then it times
 * all-reduces of growing sizes and prints NCCL's "bus bandwidth" (algorithm
 * bandwidth x 2(n-1)/n: what each link carries, comparable across rank
 * counts; on one GPU it is 0, nothing crosses a link). README.md says how to
 * go to several machines.
 *
 *   dccuda-allreduce [max-bytes]     (default 256 MiB)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "dccuda.h"

#define MAX_RANKS 64

static int failed(const char* what, dc_status s) {
  fprintf(stderr, "allreduce: %s failed: %s: %s\n", what, dc_status_name(s), dc_last_error_message());
  return 1;
}

#define CHECK(call)                                \
  do {                                             \
    dc_status s_ = (call);                         \
    if (s_ != DC_SUCCESS) return failed(#call, s_); \
  } while (0)

/* One all-reduce of `count` floats on every rank, issued from this thread:
 * grouped, as NCCL requires when one thread drives several ranks. */
static dc_status all_reduce(int n, dc_comm* comms, dc_buffer* bufs, dc_stream* streams, uint64_t count) {
  int r;
  dc_status s = dc_nccl_group_start();
  if (s != DC_SUCCESS) return s;
  for (r = 0; r < n; ++r) {
    s = dc_comm_all_reduce(comms[r], bufs[r], 0, bufs[r], 0, count, DC_NCCL_FLOAT32, DC_NCCL_SUM, streams[r]);
    if (s != DC_SUCCESS) {
      dc_nccl_group_end();
      return s;
    }
  }
  return dc_nccl_group_end();
}

static dc_status wait_all(int n, dc_stream* streams) {
  int r;
  for (r = 0; r < n; ++r) {
    dc_status s = dc_stream_synchronize(streams[r]);
    if (s != DC_SUCCESS) return s;
  }
  return DC_SUCCESS;
}

int main(int argc, char** argv) {
  int32_t n = 0, version = 0, ordinals[MAX_RANKS];
  dc_comm comms[MAX_RANKS] = {0};
  dc_device devices[MAX_RANKS] = {0};
  dc_stream streams[MAX_RANKS] = {0};
  dc_buffer bufs[MAX_RANKS] = {0};
  uint64_t max_bytes = argc > 1 ? strtoull(argv[1], NULL, 10) : (uint64_t)256 << 20;
  uint64_t count, bytes, i;
  float* host;
  int r, bad = 0;

  CHECK(dc_nccl_library_version(&version));
  CHECK(dc_device_count(&n));
  if (n < 1) {
    fprintf(stderr, "allreduce: no GPU\n");
    return 1;
  }
  if (n > MAX_RANKS) n = MAX_RANKS;
  if (max_bytes < 4) max_bytes = 4;
  printf("NCCL %d.%d.%d, %d GPU%s\n", version / 10000, version / 100 % 100, version % 100, (int)n, n == 1 ? "" : "s");
  for (r = 0; r < n; ++r) ordinals[r] = r;
  CHECK(dc_comm_init_all(ordinals, n, comms));
  count = max_bytes / 4;
  bytes = count * 4;
  host = (float*)malloc(bytes);
  if (!host) return 1;
  for (r = 0; r < n; ++r) {
    CHECK(dc_device_open(r, &devices[r]));
    CHECK(dc_stream_create(devices[r], 0, 0, &streams[r]));
    CHECK(dc_buffer_alloc(devices[r], bytes, 0, &bufs[r]));
    for (i = 0; i < count; ++i) host[i] = (float)(r + 1);
    CHECK(dc_buffer_write(bufs[r], 0, host, bytes));
  }

  /* The check: every element of every rank is 1 + 2 + ... + n. */
  CHECK(all_reduce(n, comms, bufs, streams, count));
  CHECK(wait_all(n, streams));
  for (r = 0; r < n; ++r) {
    CHECK(dc_buffer_read(bufs[r], 0, host, bytes));
    for (i = 0; i < count; ++i)
      if (host[i] != (float)(n * (n + 1) / 2)) {
        if (bad++ < 5) fprintf(stderr, "rank %d element %llu: %g, want %d\n", r, (unsigned long long)i, host[i],
                               (int)(n * (n + 1) / 2));
      }
  }
  printf("all-reduce of %llu floats over %d rank%s: %s\n", (unsigned long long)count, (int)n, n == 1 ? "" : "s",
         bad ? "WRONG" : "OK");

  /* Bandwidth, from 1 KiB up: the time of `iters` all-reduces, by events on rank 0's stream. */
  printf("%12s %12s %12s\n", "bytes", "time (us)", "busbw (GB/s)");
  for (bytes = 1024; bytes <= count * 4 && !bad; bytes *= 4) {
    dc_event start = NULL, end = NULL;
    int iters = 20, k;
    float ms = 0;
    CHECK(all_reduce(n, comms, bufs, streams, bytes / 4)); /* warm up */
    CHECK(wait_all(n, streams));
    CHECK(dc_event_create(devices[0], 0, &start));
    CHECK(dc_event_create(devices[0], 0, &end));
    CHECK(dc_event_record(start, streams[0]));
    for (k = 0; k < iters; ++k) CHECK(all_reduce(n, comms, bufs, streams, bytes / 4));
    CHECK(dc_event_record(end, streams[0]));
    CHECK(wait_all(n, streams));
    CHECK(dc_event_elapsed_ms(start, end, &ms));
    {
      double seconds = ms / 1e3 / iters;
      double busbw = seconds > 0 ? (double)bytes / seconds * 2.0 * (n - 1) / n / 1e9 : 0;
      printf("%12llu %12.1f %12.2f\n", (unsigned long long)bytes, seconds * 1e6, busbw);
    }
    dc_event_release(start);
    dc_event_release(end);
  }

  for (r = 0; r < n; ++r) {
    dc_buffer_release(bufs[r]);
    dc_comm_release(comms[r]);
    dc_stream_release(streams[r]);
    dc_device_release(devices[r]);
  }
  free(host);
  return bad ? 1 : 0;
}
