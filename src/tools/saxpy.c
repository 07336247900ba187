/*
 * dccuda-saxpy: the smallest complete use of dccuda. Compiles saxpy
 * (y = a * x + y) with NVRTC, copies random data to the GPU, launches it with
 * the occupancy-optimal 1-D configuration, copies the result back, checks it
 * against the CPU and prints the error and the time.
 *
 *   dccuda-saxpy [n]      n elements (default 1048576)
 *
 * Without a GPU (no driver, or a driver without devices) it still compiles
 * the kernel, to PTX, prints its size, says that no GPU is available and
 * exits with 0: compiling needs no GPU. With the fake driver of dccuda's
 * tests (DCCUDA_DRIVER_LIBRARY) the kernel runs in the fake's emulation on
 * the CPU, and the output says so.
 *
 * Exit codes: 0 the result matches the CPU (or no GPU: compiled only);
 *             1 an error, or a result that does not match.
 */
#define _POSIX_C_SOURCE 199309L /* clock_gettime */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dccuda.h"

static const char* kSource =
    "extern \"C\" __global__ void saxpy(float a, const float* x, float* y, int n) {\n"
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  if (i < n) y[i] = a * x[i] + y[i];\n"
    "}\n";

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static int fail(const char* what) {
  fprintf(stderr, "dccuda-saxpy: %s failed: %s (%s)\n", what, dc_last_error_message(),
          dc_status_name(dc_last_error_status()));
  return 1;
}

/* No GPU: compile to PTX anyway, to show that the compiler side works. */
static int compile_only(const char* why) {
  dc_compile_options options = DC_COMPILE_OPTIONS_INIT;
  dc_program program = NULL;
  uint64_t size = 0;
  printf("no GPU is available (%s)\n", why);
  options.output = DC_OUTPUT_PTX;
  if (dc_compile(kSource, "saxpy.cu", &options, NULL, &program) != DC_SUCCESS) return fail("dc_compile");
  dc_program_output(program, NULL, NULL, &size);
  printf("compiled saxpy to PTX with NVRTC: %llu bytes; nothing to run without a GPU\n", (unsigned long long)size);
  dc_program_release(program);
  return 0;
}

int main(int argc, char** argv) {
  long long requested = argc > 1 ? atoll(argv[1]) : 1 << 20;
  int n = requested > 0 && requested <= (1 << 30) ? (int)requested : 0;
  int32_t count = 0;
  dc_status status;
  const char* library = "";
  dc_device device = NULL;
  dc_device_info info = DC_DEVICE_INFO_INIT;
  dc_module module = NULL;
  dc_function saxpy = NULL;
  dc_stream stream = NULL;
  dc_buffer x = NULL, y = NULL;
  dc_launch_config config = DC_LAUNCH_CONFIG_INIT;
  float a = 2.5f, *hx = NULL, *hy = NULL, *out = NULL;
  double t0, t_launch, t_total, max_error = 0.0;
  uint32_t seed = 12345;
  int i, fake, rc = 1;

  if (n == 0) {
    fprintf(stderr, "usage: dccuda-saxpy [n], 1 <= n <= 2^30\n");
    return 1;
  }
  status = dc_device_count(&count);
  if (status == DC_ERROR_NO_DRIVER) return compile_only(dc_last_error_message());
  if (status != DC_SUCCESS) return fail("dc_device_count");
  if (count == 0) return compile_only("the driver reports no CUDA device");

  dc_driver_library(&library);
  if (dc_device_open(0, &device) != DC_SUCCESS) return fail("dc_device_open");
  if (dc_device_get_info(device, &info) != DC_SUCCESS) {
    rc = fail("dc_device_get_info");
    goto done;
  }
  fake = strstr(library, "fake") != NULL || strstr(info.name, "fake") != NULL;
  printf("device 0: %s (compute capability %d.%d), driver %s%s\n", info.name, (int)info.compute_capability_major,
         (int)info.compute_capability_minor, library,
         fake ? "\n  (the fake driver: a test double; the kernel is emulated on the CPU, no GPU runs it)" : "");

  if (dc_module_compile_and_load(device, kSource, "saxpy.cu", NULL, &module) != DC_SUCCESS) {
    rc = fail("dc_module_compile_and_load");
    goto done;
  }
  if (dc_module_get_function(module, "saxpy", &saxpy) != DC_SUCCESS ||
      dc_stream_create(device, 0, 0, &stream) != DC_SUCCESS ||
      dc_buffer_alloc(device, (uint64_t)n * sizeof(float), 0, &x) != DC_SUCCESS ||
      dc_buffer_alloc(device, (uint64_t)n * sizeof(float), 0, &y) != DC_SUCCESS) {
    rc = fail("setting up");
    goto done;
  }
  hx = malloc((size_t)n * sizeof(float));
  hy = malloc((size_t)n * sizeof(float));
  out = malloc((size_t)n * sizeof(float));
  if (!hx || !hy || !out) {
    fprintf(stderr, "dccuda-saxpy: out of host memory\n");
    goto done;
  }
  for (i = 0; i < n; ++i) {
    seed = seed * 1664525u + 1013904223u;
    hx[i] = (float)(seed >> 8) / 16777216.0f - 0.5f;
    seed = seed * 1664525u + 1013904223u;
    hy[i] = (float)(seed >> 8) / 16777216.0f - 0.5f;
  }
  if (dc_buffer_write(x, 0, hx, (uint64_t)n * sizeof(float)) != DC_SUCCESS ||
      dc_buffer_write(y, 0, hy, (uint64_t)n * sizeof(float)) != DC_SUCCESS) {
    rc = fail("dc_buffer_write");
    goto done;
  }
  if (dc_launch_config_1d(saxpy, (uint64_t)n, 0, &config) != DC_SUCCESS) {
    rc = fail("dc_launch_config_1d");
    goto done;
  }
  {
    dc_arg args[4];
    args[0].kind = DC_ARG_VALUE;
    args[0].size = sizeof a;
    args[0].value = &a;
    args[0].buffer = NULL;
    args[0].offset = 0;
    args[1].kind = DC_ARG_BUFFER;
    args[1].size = 8;
    args[1].value = NULL;
    args[1].buffer = x;
    args[1].offset = 0;
    args[2] = args[1];
    args[2].buffer = y;
    args[3] = args[0];
    args[3].size = sizeof n;
    args[3].value = &n;
    t0 = now_ms();
    if (dc_launch_kernel(saxpy, &config, args, 4, stream) != DC_SUCCESS) {
      rc = fail("dc_launch_kernel");
      goto done;
    }
    t_launch = now_ms() - t0;
    if (dc_stream_synchronize(stream) != DC_SUCCESS) {
      rc = fail("dc_stream_synchronize");
      goto done;
    }
    t_total = now_ms() - t0;
  }
  if (dc_buffer_read(y, 0, out, (uint64_t)n * sizeof(float)) != DC_SUCCESS) {
    rc = fail("dc_buffer_read");
    goto done;
  }
  for (i = 0; i < n; ++i) {
    double want = (double)a * hx[i] + hy[i];
    double e = fabs(out[i] - want);
    if (e > max_error) max_error = e;
  }
  printf("saxpy over %d elements: grid %u x block %u (occupancy-optimal), launch %.3f ms, kernel done after %.3f ms\n",
         n, (unsigned)config.grid[0], (unsigned)config.block[0], t_launch, t_total);
  printf("largest difference from the CPU: %.3g\n", max_error);
  rc = max_error <= 1e-5 ? 0 : 1;
  printf("saxpy: %s%s\n", rc == 0 ? "OK" : "FAILED (wrong results)",
         fake ? " (on the fake driver's emulation, not on a GPU)" : "");

done:
  free(hx);
  free(hy);
  free(out);
  dc_buffer_release(x);
  dc_buffer_release(y);
  dc_stream_release(stream);
  dc_function_release(saxpy);
  dc_module_release(module);
  dc_device_release(device);
  return rc;
}
