/*
 * dccuda-echo-actor: a resident kernel served through message queues, the
 * smallest complete "GPU actor". The actor (dc_echo_cursor of
 * tests/queue/echo_kernel.cuh, the kernel side through dccuda_device.h's cursors,
 * compiled with NVRTC together with include/dccuda_device.h) is launched
 * once with DC_LAUNCH_PERSISTENT and answers every message of a
 * DC_QUEUE_TO_DEVICE queue on a DC_QUEUE_TO_HOST queue, until its control
 * block asks it to stop. The host sends numbered messages, checks every
 * answer, asks the kernel for its heartbeat and errors, stops it, starts it
 * again (the same queues and control block), and prints the round-trip
 * median.
 *
 *   dccuda-echo-actor [messages]     (default 10000 per start)
 *
 * Every wait has a time limit: a kernel that does not answer or does not stop
 * is reported, never waited for for ever. Without a GPU it says so and exits
 * with 0; with the fake driver of dccuda's tests the actor runs on a thread
 * of the fake, and the output says so.
 *
 * Exit codes: 0 every answer was right (or no GPU); 1 an error.
 */
#define _POSIX_C_SOURCE 199309L /* clock_gettime */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dccuda.h"
#include "queue_kernel_sources_c.h"

enum { kSlot = 256, kCapacity = 64 };
static const uint64_t kTimeoutUs = 10000000; /* 10 s */

static double now_us(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e6 + (double)t.tv_nsec / 1e3;
}

static int fail(const char* what) {
  fprintf(stderr, "dccuda-echo-actor: %s: %s (%s)\n", what, dc_last_error_message(),
          dc_status_name(dc_last_error_status()));
  return 1;
}

static int compare_doubles(const void* a, const void* b) {
  double x = *(const double*)a, y = *(const double*)b;
  return x < y ? -1 : x > y;
}

/* One start of the actor: `count` messages, each answer checked; the round
 * trips' times in `times`. */
static int serve(dc_function actor, dc_stream stream, dc_queue in, dc_queue out, dc_control control,
                 dc_buffer buffers[3], uint32_t count, double* times) {
  dc_launch_config config = DC_LAUNCH_CONFIG_INIT;
  dc_arg args[3] = {DC_ARG_BUFFER_OF(buffers[0]), DC_ARG_BUFFER_OF(buffers[1]), DC_ARG_BUFFER_OF(buffers[2])};
  uint8_t message[kSlot], answer[kSlot];
  uint32_t i, k;
  config.flags = DC_LAUNCH_PERSISTENT;
  if (dc_control_reset(control) != DC_SUCCESS) return fail("dc_control_reset");
  if (dc_launch_kernel(actor, &config, args, 3, stream) != DC_SUCCESS) return fail("launching the actor");
  for (i = 0; i < count; ++i) {
    uint64_t seq = i, got = 0;
    uint32_t n = 8 + i % 200, size = 0;
    double start = now_us();
    memcpy(message, &seq, 8);
    for (k = 8; k < n; ++k) message[k] = (uint8_t)(seq + k);
    if (dc_queue_enqueue(in, message, n, DC_WAIT_SPIN_YIELD, kTimeoutUs) != DC_SUCCESS) return fail("sending");
    if (dc_queue_dequeue(out, answer, sizeof answer, &size, DC_WAIT_SPIN_YIELD, kTimeoutUs) != DC_SUCCESS)
      return fail("waiting for the answer");
    times[i] = now_us() - start;
    memcpy(&got, answer, 8);
    if (got != seq || size != n) {
      fprintf(stderr, "dccuda-echo-actor: answer %u is %llu (%u bytes), expected %llu (%u bytes)\n", i,
              (unsigned long long)got, size, (unsigned long long)seq, n);
      return 1;
    }
    for (k = 8; k < n; ++k)
      if (answer[k] != (uint8_t)(seq + k + 1)) {
        fprintf(stderr, "dccuda-echo-actor: answer %u, byte %u is wrong\n", i, k);
        return 1;
      }
  }
  if (dc_control_check_progress(control, kTimeoutUs) != DC_SUCCESS) return fail("the watchdog");
  if (dc_control_request_stop(control) != DC_SUCCESS) return fail("dc_control_request_stop");
  if (dc_control_wait_stopped(control, DC_WAIT_BLOCK, kTimeoutUs) != DC_SUCCESS) {
    fail("stopping the actor");
    exit(2); /* never free what a running kernel uses */
  }
  if (dc_stream_synchronize(stream) != DC_SUCCESS) return fail("after the actor");
  return 0;
}

int main(int argc, char** argv) {
  uint32_t count = argc > 1 ? (uint32_t)strtoul(argv[1], NULL, 10) : 10000;
  int32_t devices = 0;
  int start, rc = 0;
  dc_device device = NULL;
  dc_device_info info = DC_DEVICE_INFO_INIT;
  dc_compile_options options = DC_COMPILE_OPTIONS_INIT;
  const char* header_names[2] = {"dccuda_device.h", "echo_kernel.cuh"};
  const char* header_sources[2] = {kDeviceHeaderSource, kEchoKernelSource};
  dc_module module = NULL;
  dc_function actor = NULL;
  dc_stream stream = NULL;
  dc_queue in = NULL, out = NULL;
  dc_control control = NULL;
  dc_buffer buffers[3] = {NULL, NULL, NULL};
  dc_control_info status = DC_CONTROL_INFO_INIT;
  double* times;
  if (count == 0) count = 1;
  if (dc_device_count(&devices) != DC_SUCCESS || devices == 0) {
    printf("dccuda-echo-actor: no GPU available (%s); nothing to run\n",
           devices == 0 && dc_last_error_status() == DC_SUCCESS ? "the driver sees no device" : dc_last_error_message());
    return 0;
  }
  times = (double*)malloc(sizeof(double) * count);
  if (!times) return 1;
  if (dc_device_open(0, &device) != DC_SUCCESS || dc_device_get_info(device, &info) != DC_SUCCESS)
    return fail("device 0");
  printf("dccuda-echo-actor: device 0: %s%s\n", info.name,
         strstr(info.name, "fake") ? " (the fake driver: the actor runs on a CPU thread)" : "");
  options.num_headers = 2;
  options.header_names = header_names;
  options.header_sources = header_sources;
  if (dc_module_compile_and_load(device, "#include \"echo_kernel.cuh\"\n", "echo_actor.cu", &options, &module) &&
      dc_last_error_status() == DC_ERROR_NO_COMPILER) {
    printf("dccuda-echo-actor: NVRTC is not available (%s); the actor cannot be compiled\n", dc_last_error_message());
    free(times);
    dc_device_release(device);
    return 0;
  }
  if (!module || dc_module_get_function(module, "dc_echo_cursor", &actor) || dc_stream_create(device, 0, 0, &stream) ||
      dc_queue_create(device, DC_QUEUE_TO_DEVICE, kSlot, kCapacity, &in) ||
      dc_queue_create(device, DC_QUEUE_TO_HOST, kSlot, kCapacity, &out) || dc_control_create(device, &control) ||
      dc_queue_buffer(in, &buffers[0]) || dc_queue_buffer(out, &buffers[1]) || dc_control_buffer(control, &buffers[2]))
    return fail("setting up");
  for (start = 0; start < 2 && rc == 0; ++start) {
    rc = serve(actor, stream, in, out, control, buffers, count, times);
    if (rc) break;
    qsort(times, count, sizeof(double), compare_doubles);
    dc_control_status(control, &status);
    printf("start %d: %u messages answered in order; round trip median %.2f us, p99 %.2f us; heartbeat %llu, "
           "errors %llu\n",
           start + 1, count, times[count / 2], times[(size_t)(count * 0.99)], (unsigned long long)status.heartbeat,
           (unsigned long long)status.errors);
    if (status.errors) rc = 1;
  }
  free(times);
  dc_buffer_release(buffers[0]);
  dc_buffer_release(buffers[1]);
  dc_buffer_release(buffers[2]);
  dc_queue_release(in);
  dc_queue_release(out);
  dc_control_release(control);
  dc_stream_release(stream);
  dc_function_release(actor);
  dc_module_release(module);
  dc_device_release(device);
  printf("dccuda-echo-actor: %s\n", rc ? "FAILED" : "OK");
  return rc;
}
