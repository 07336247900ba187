/*
 * dccuda-multi-gpu: one saxpy split over every visible GPU. Each device gets
 * its own kernel (compiled for its architecture), stream and buffers; all
 * devices work at once; the result is checked against the CPU.
 *
 * Exit codes: 0 correct (or no GPU, said clearly), 1 any failure.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dccuda.h"

#define MAX_DEVICES 64

static const char* kSource =
    "extern \"C\" __global__ void saxpy(float a, const float* x, float* y, int n) {\n"
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  if (i < n) y[i] = a * x[i] + y[i];\n"
    "}\n";

typedef struct {
  dc_device device;
  dc_module module;
  dc_function saxpy;
  dc_stream stream;
  dc_buffer x, y;
  size_t first, count;
} part;

static int failed(const char* what) {
  fprintf(stderr, "%s: %s\n", what, dc_last_error_message());
  return 1;
}

int main(void) {
  int32_t count = 0;
  size_t n = ((size_t)1 << 24) + 7, per, i, wrong = 0;
  float a = 2.5f, *x, *y, *out;
  part parts[MAX_DEVICES];
  int d, rc = 0;

  if (dc_device_count(&count) != DC_SUCCESS || count == 0) {
    printf("no GPU is available (%s); nothing to split\n",
           count == 0 && dc_last_error_status() == DC_SUCCESS ? "the driver reports no device" : dc_last_error_message());
    return 0;
  }
  if (count > MAX_DEVICES) count = MAX_DEVICES;
  memset(parts, 0, sizeof parts);
  x = malloc(n * sizeof *x);
  y = malloc(n * sizeof *y);
  out = malloc(n * sizeof *out);
  if (!x || !y || !out) return 1;
  srand(7);
  for (i = 0; i < n; ++i) {
    x[i] = (float)rand() / (float)RAND_MAX - 0.5f;
    y[i] = (float)rand() / (float)RAND_MAX - 0.5f;
  }
  per = (n + (size_t)count - 1) / (size_t)count;

  for (d = 0; d < count && !rc; ++d) {
    part* p = &parts[d];
    dc_launch_config config = DC_LAUNCH_CONFIG_INIT;
    int32_t elements;
    uint64_t bytes;
    dc_arg args[4];
    p->first = (size_t)d * per;
    p->count = p->first < n ? (n - p->first < per ? n - p->first : per) : 0;
    bytes = (uint64_t)(p->count * sizeof(float));
    elements = (int32_t)p->count;
    if (dc_device_open(d, &p->device) || dc_module_compile_and_load(p->device, kSource, "saxpy.cu", NULL, &p->module) ||
        dc_module_get_function(p->module, "saxpy", &p->saxpy) || dc_stream_create(p->device, 0, 0, &p->stream) ||
        dc_buffer_alloc(p->device, bytes, 0, &p->x) || dc_buffer_alloc(p->device, bytes, 0, &p->y) ||
        dc_buffer_write_async(p->x, 0, x + p->first, bytes, p->stream) ||
        dc_buffer_write_async(p->y, 0, y + p->first, bytes, p->stream) ||
        dc_launch_config_1d(p->saxpy, p->count, 0, &config)) {
      rc = failed("setting up a device");
      break;
    }
    args[0].kind = DC_ARG_VALUE; args[0].size = sizeof a; args[0].value = &a; args[0].buffer = NULL; args[0].offset = 0;
    args[1].kind = DC_ARG_BUFFER; args[1].size = 8; args[1].value = NULL; args[1].buffer = p->x; args[1].offset = 0;
    args[2].kind = DC_ARG_BUFFER; args[2].size = 8; args[2].value = NULL; args[2].buffer = p->y; args[2].offset = 0;
    args[3].kind = DC_ARG_VALUE; args[3].size = sizeof elements; args[3].value = &elements; args[3].buffer = NULL;
    args[3].offset = 0;
    if (dc_launch_kernel(p->saxpy, &config, args, 4, p->stream) ||
        dc_buffer_read_async(p->y, 0, out + p->first, bytes, p->stream)) {
      rc = failed("launching");
      break;
    }
  }
  for (d = 0; d < count && !rc; ++d)
    if (dc_stream_synchronize(parts[d].stream)) rc = failed("waiting for a device");
  if (!rc) {
    for (i = 0; i < n; ++i) {
      float want = a * x[i] + y[i];
      if (!(fabsf(out[i] - want) <= 1e-5f * (1.0f + fabsf(want)))) ++wrong;
    }
    printf("saxpy of %zu elements split over %d device(s): %s (%zu wrong)\n", n, (int)count,
           wrong ? "FAIL" : "OK", wrong);
    for (d = 0; d < count; ++d) {
      dc_device_info info = DC_DEVICE_INFO_INIT;
      dc_device_get_info(parts[d].device, &info);
      printf("  device %d: %s, elements %zu..%zu\n", d, info.name, parts[d].first, parts[d].first + parts[d].count);
    }
    rc = wrong ? 1 : 0;
  }
  for (d = 0; d < count; ++d) {
    dc_buffer_release(parts[d].x);
    dc_buffer_release(parts[d].y);
    dc_stream_release(parts[d].stream);
    dc_function_release(parts[d].saxpy);
    dc_module_release(parts[d].module);
    dc_device_release(parts[d].device);
  }
  free(x);
  free(y);
  free(out);
  return rc;
}
