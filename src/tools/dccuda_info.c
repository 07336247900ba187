/*
 * dccuda-info: what dccuda sees on this machine (library, driver, NVRTC,
 * kernel cache, every device).
 *
 *   dccuda-info          human-readable report
 *   dccuda-info --json   the same as one JSON object
 *   dccuda-info --watch SECONDS [--count N]
 *                        every device's telemetry (NVML) as a table, a row per
 *                        device every SECONDS (a decimal, 0.1 to 3600), N
 *                        samples (default: until interrupted)
 *
 * Exit codes: 0 the driver works and at least one device is visible;
 *             2 no usable CUDA driver (the rest of the report is still printed);
 *             3 the driver works but reports no device;
 *             1 any other error, or a bad command line.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dccuda.h"
#include "info_telemetry.h"

enum { EXIT_OK = 0, EXIT_ERROR = 1, EXIT_NO_DRIVER = 2, EXIT_NO_DEVICE = 3 };

/* Prints a JSON string literal. */
void info_json_string(const char* s) {
  putchar('"');
  for (; *s; ++s) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\') {
      putchar('\\');
      putchar(c);
    } else if (c < 0x20) {
      printf("\\u%04x", c);
    } else {
      putchar(c);
    }
  }
  putchar('"');
}

/* Prints each line of `text` ("a\nb\n") as `prefix` + line, or as JSON strings. */
static void print_lines(const char* text, const char* prefix, int json) {
  int first = 1;
  while (*text) {
    const char* end = strchr(text, '\n');
    size_t n = end ? (size_t)(end - text) : strlen(text);
    if (json) {
      char line[2048];
      snprintf(line, sizeof line, "%.*s", (int)n, text);
      printf("%s", first ? "" : ",");
      info_json_string(line);
    } else {
      printf("%s%.*s\n", prefix, (int)n, text);
    }
    first = 0;
    text += n + (end ? 1 : 0);
  }
}

static void uuid_text(const uint8_t* u, char* out) {
  static const int dashes[] = {4, 6, 8, 10};
  int i, d = 0;
  char* p = out;
  for (i = 0; i < 16; ++i) {
    if (d < 4 && i == dashes[d]) {
      *p++ = '-';
      ++d;
    }
    sprintf(p, "%02x", u[i]);
    p += 2;
  }
  *p = '\0';
}

static void version_text(int32_t v, char* out, size_t n) {
  snprintf(out, n, "%d.%d", (int)(v / 1000), (int)((v % 1000) / 10));
}

/* cuFFT: its version (major.minor.patch from cufftGetVersion's 12000 form),
 * or why it is absent. Loads it, as the first dc_fft_ call would. */
static void report_cufft(int json) {
  int32_t v = 0;
  if (dc_fft_library_version(&v) == DC_SUCCESS) {
    if (json) printf(",\"cufft\":{\"version\":\"%d.%d.%d\"}", (int)(v / 1000), (int)(v % 1000) / 100, (int)(v % 100));
    else printf("cufft    %d.%d.%d\n", (int)(v / 1000), (int)(v % 1000) / 100, (int)(v % 100));
  } else if (json) {
    printf(",\"cufft\":{\"error\":");
    info_json_string(dc_last_error_message());
    printf("}");
  } else {
    printf("cufft    none: %s\n", dc_last_error_message());
  }
}

static int report_device(int32_t ordinal, int json, int first) {
  dc_device device = NULL;
  dc_device_info info = DC_DEVICE_INFO_INIT;
  dc_pool_stats pool = DC_POOL_STATS_INIT;
  char uuid[40];
  if (dc_device_open(ordinal, &device) != DC_SUCCESS || dc_device_get_info(device, &info) != DC_SUCCESS) {
    if (json) {
      printf("%s{\"ordinal\":%d,\"error\":", first ? "" : ",", (int)ordinal);
      info_json_string(dc_last_error_message());
      printf("}");
    } else {
      printf("  device %d: %s\n", (int)ordinal, dc_last_error_message());
    }
    dc_device_release(device);
    return 0;
  }
  uuid_text(info.uuid, uuid);
  /* dccuda's own pool as this process sees it (empty until something allocates). */
  if (dc_device_pool_statistics(device, &pool) != DC_SUCCESS) pool = (dc_pool_stats)DC_POOL_STATS_INIT;
  if (json) {
    printf("%s{\"ordinal\":%d,\"name\":", first ? "" : ",", (int)info.ordinal);
    info_json_string(info.name);
    printf(",\"uuid\":\"GPU-%s\",\"pci\":\"%04x:%02x:%02x\",\"compute_capability\":\"%d.%d\","
           "\"multiprocessors\":%d,\"total_memory\":%llu,\"free_memory\":%llu,\"clock_rate_khz\":%d,"
           "\"memory_clock_rate_khz\":%d,\"memory_bus_width_bits\":%d,\"warp_size\":%d,"
           "\"max_threads_per_block\":%d,\"max_shared_memory_per_block\":%d,"
           "\"max_shared_memory_per_block_optin\":%d,\"l2_cache_size\":%d,\"unified_addressing\":%d,"
           "\"managed_memory\":%d,\"concurrent_managed_access\":%d,\"cooperative_launch\":%d,"
           "\"cluster_launch\":%d,\"memory_pools_supported\":%d,\"host_native_atomics\":%d,\"ecc_enabled\":%d,"
           "\"kernel_exec_timeout\":%d,\"pool\":{\"reserved_current\":%llu,\"reserved_high\":%llu,"
           "\"used_current\":%llu,\"used_high\":%llu}",
           uuid, (unsigned)info.pci_domain_id, (unsigned)info.pci_bus_id, (unsigned)info.pci_device_id,
           (int)info.compute_capability_major, (int)info.compute_capability_minor, (int)info.multiprocessor_count,
           (unsigned long long)info.total_memory, (unsigned long long)info.free_memory, (int)info.clock_rate_khz,
           (int)info.memory_clock_rate_khz, (int)info.memory_bus_width_bits, (int)info.warp_size,
           (int)info.max_threads_per_block, (int)info.max_shared_memory_per_block,
           (int)info.max_shared_memory_per_block_optin, (int)info.l2_cache_size, (int)info.unified_addressing,
           (int)info.managed_memory, (int)info.concurrent_managed_access, (int)info.cooperative_launch,
           (int)info.cluster_launch, (int)info.memory_pools_supported, (int)info.host_native_atomics,
           (int)info.ecc_enabled, (int)info.kernel_exec_timeout, (unsigned long long)pool.reserved_current,
           (unsigned long long)pool.reserved_high, (unsigned long long)pool.used_current,
           (unsigned long long)pool.used_high);
    info_print_telemetry(device, 1);
    printf("}");
  } else {
    printf("  device %d: %s\n", (int)info.ordinal, info.name);
    printf("    uuid                 GPU-%s\n", uuid);
    printf("    pci                  %04x:%02x:%02x\n", (unsigned)info.pci_domain_id, (unsigned)info.pci_bus_id,
           (unsigned)info.pci_device_id);
    printf("    compute capability   %d.%d (sm_%d%d)\n", (int)info.compute_capability_major,
           (int)info.compute_capability_minor, (int)info.compute_capability_major,
           (int)info.compute_capability_minor);
    printf("    multiprocessors      %d\n", (int)info.multiprocessor_count);
    printf("    memory               %.1f GiB total, %.1f GiB free\n", (double)info.total_memory / 1073741824.0,
           (double)info.free_memory / 1073741824.0);
    printf("    clocks               %d MHz SM, %d MHz memory, %d-bit bus\n", (int)(info.clock_rate_khz / 1000),
           (int)(info.memory_clock_rate_khz / 1000), (int)info.memory_bus_width_bits);
    printf("    L2 cache             %d KiB\n", (int)(info.l2_cache_size / 1024));
    printf("    threads per block    %d (block %d x %d x %d, grid %d x %d x %d)\n", (int)info.max_threads_per_block,
           (int)info.max_block_dim[0], (int)info.max_block_dim[1], (int)info.max_block_dim[2],
           (int)info.max_grid_dim[0], (int)info.max_grid_dim[1], (int)info.max_grid_dim[2]);
    printf("    shared memory        %d KiB per block, %d KiB with opt-in, %d KiB per SM\n",
           (int)(info.max_shared_memory_per_block / 1024), (int)(info.max_shared_memory_per_block_optin / 1024),
           (int)(info.max_shared_memory_per_multiprocessor / 1024));
    printf("    features            %s%s%s%s%s%s%s%s\n", info.unified_addressing ? " unified-addressing" : "",
           info.managed_memory ? " managed-memory" : "", info.concurrent_managed_access ? " concurrent-managed" : "",
           info.cooperative_launch ? " cooperative-launch" : "", info.cluster_launch ? " clusters" : "",
           info.memory_pools_supported ? " memory-pools" : "", info.host_native_atomics ? " host-atomics" : "",
           info.ecc_enabled ? " ecc" : "");
    printf("    dccuda pool          %.1f MiB reserved (high %.1f), %.1f MiB used (high %.1f) in this process\n",
           (double)pool.reserved_current / 1048576.0, (double)pool.reserved_high / 1048576.0,
           (double)pool.used_current / 1048576.0, (double)pool.used_high / 1048576.0);
    info_print_telemetry(device, 0);
  }
  dc_device_release(device);
  return 1;
}

/* NCCL (libnccl.so.2, for dc_comm_*): its version, or why it is absent. */
static void info_print_nccl(int json) {
  int32_t version = 0;
  if (dc_nccl_library_version(&version) == DC_SUCCESS) {
    if (json)
      printf(",\"nccl\":{\"version\":\"%d.%d.%d\"}", (int)(version / 10000), (int)(version / 100 % 100),
             (int)(version % 100));
    else
      printf("nccl     %d.%d.%d\n", (int)(version / 10000), (int)(version / 100 % 100), (int)(version % 100));
  } else if (json) {
    printf(",\"nccl\":{\"error\":");
    info_json_string(dc_last_error_message());
    printf("}");
  } else {
    printf("nccl     none: %s\n", dc_last_error_message());
  }
}

int main(int argc, char** argv) {
  int json = 0, i;
  uint32_t v = dc_version();
  int32_t driver = 0, nvrtc_major = 0, nvrtc_minor = 0, count = 0;
  dc_status driver_status, nvrtc_status, count_status = DC_ERROR_NO_DRIVER;
  const char* driver_path = "";
  char driver_error[1024] = "", nvrtc_error[1024] = "", text[32];
  const char* cache_dir = "";
  const char* warnings = "";
  int32_t cublas_version = 0;
  dc_status cublas_status;
  char cublas_error[1024] = "";
  int exit_code = EXIT_OK, opened = 0;
  double watch_seconds = 0.0;
  long watch_count = 0;

  for (i = 1; i < argc; ++i) {
    char* end = NULL;
    if (strcmp(argv[i], "--json") == 0) {
      json = 1;
    } else if (strcmp(argv[i], "--watch") == 0 && i + 1 < argc) {
      watch_seconds = strtod(argv[++i], &end);
      if (!*argv[i] || *end || !(watch_seconds >= 0.1 && watch_seconds <= 3600.0)) {
        fprintf(stderr, "%s: --watch takes a number of seconds from 0.1 to 3600, not '%s'\n", argv[0], argv[i]);
        return EXIT_ERROR;
      }
    } else if (strcmp(argv[i], "--count") == 0 && i + 1 < argc) {
      watch_count = strtol(argv[++i], &end, 10);
      if (!*argv[i] || *end || watch_count < 1) {
        fprintf(stderr, "%s: --count takes a whole number of samples, 1 or more, not '%s'\n", argv[0], argv[i]);
        return EXIT_ERROR;
      }
    } else {
      fprintf(stderr, "usage: %s [--json] | --watch SECONDS [--count N]\n", argv[0]);
      return strcmp(argv[i], "--help") == 0 ? EXIT_OK : EXIT_ERROR;
    }
  }
  if (watch_count && watch_seconds == 0.0) {
    fprintf(stderr, "%s: --count goes with --watch SECONDS\n", argv[0]);
    return EXIT_ERROR;
  }
  if (watch_seconds > 0.0) {
    if (json) {
      fprintf(stderr, "%s: --watch prints a table; --json takes one snapshot (run it repeatedly)\n", argv[0]);
      return EXIT_ERROR;
    }
    return info_watch(watch_seconds, watch_count) == 0 ? EXIT_OK : EXIT_ERROR;
  }

  driver_status = dc_driver_version(&driver);
  if (driver_status == DC_SUCCESS) {
    dc_driver_library(&driver_path);
    count_status = dc_device_count(&count);
  } else {
    snprintf(driver_error, sizeof driver_error, "%s", dc_last_error_message());
  }
  nvrtc_status = dc_nvrtc_version(&nvrtc_major, &nvrtc_minor);
  if (nvrtc_status != DC_SUCCESS) snprintf(nvrtc_error, sizeof nvrtc_error, "%s", dc_last_error_message());
  /* NVIDIA's libraries: loaded here only to report their versions. */
  cublas_status = dc_blas_library_version(&cublas_version);
  if (cublas_status != DC_SUCCESS) snprintf(cublas_error, sizeof cublas_error, "%s", dc_last_error_message());
  dc_cache_directory(&cache_dir);
  /* What dccuda refused or ignored in its settings (an unsafe cache directory...). */
  if (dc_config_warnings(&warnings) != DC_SUCCESS) warnings = dc_last_error_message();

  if (driver_status != DC_SUCCESS) exit_code = EXIT_NO_DRIVER;
  else if (count_status != DC_SUCCESS) exit_code = EXIT_ERROR;
  else if (count == 0) exit_code = EXIT_NO_DEVICE;

  if (json) {
    printf("{\"dccuda\":\"%u.%u.%u\",\"driver\":", v / 1000000, (v / 1000) % 1000, v % 1000);
    if (driver_status == DC_SUCCESS) {
      version_text(driver, text, sizeof text);
      printf("{\"cuda_version\":\"%s\",\"library\":", text);
      info_json_string(driver_path);
      printf("}");
    } else {
      printf("{\"error\":");
      info_json_string(dc_status_name(driver_status));
      printf(",\"message\":");
      info_json_string(driver_error);
      printf("}");
    }
    printf(",\"nvrtc\":");
    if (nvrtc_status == DC_SUCCESS) {
      printf("{\"version\":\"%d.%d\"}", (int)nvrtc_major, (int)nvrtc_minor);
    } else {
      printf("{\"error\":");
      info_json_string(nvrtc_error);
      printf("}");
    }
    printf(",\"cublas\":");
    if (cublas_status == DC_SUCCESS) {
      printf("{\"version\":\"%d.%d.%d\"}", (int)(cublas_version / 10000), (int)(cublas_version / 100 % 100),
             (int)(cublas_version % 100));
    } else {
      printf("{\"error\":");
      info_json_string(cublas_error);
      printf("}");
    }
    report_cufft(1);
    printf(",\"kernel_cache\":");
    info_json_string(cache_dir ? cache_dir : "");
    printf(",\"warnings\":[");
    print_lines(warnings, "", 1);
    printf("]");
    info_print_nvml(1);
    info_print_nccl(1);
    printf(",\"devices\":[");
    for (i = 0; i < count; ++i) opened += report_device(i, 1, i == 0);
    printf("],\"exit_code\":%d}\n", exit_code);
  } else {
    printf("dccuda %u.%u.%u\n", v / 1000000, (v / 1000) % 1000, v % 1000);
    if (driver_status == DC_SUCCESS) {
      version_text(driver, text, sizeof text);
      printf("driver   CUDA %s (%s)\n", text, driver_path);
    } else {
      printf("driver   none: %s\n", driver_error);
    }
    if (nvrtc_status == DC_SUCCESS)
      printf("nvrtc    %d.%d (runtime compilation works%s)\n", (int)nvrtc_major, (int)nvrtc_minor,
             driver_status == DC_SUCCESS ? "" : ", also without a driver");
    else
      printf("nvrtc    none: %s\n", nvrtc_error);
    if (cublas_status == DC_SUCCESS)
      printf("cublas   %d.%d.%d\n", (int)(cublas_version / 10000), (int)(cublas_version / 100 % 100),
             (int)(cublas_version % 100));
    else
      printf("cublas   none: %s\n", cublas_error);
    report_cufft(0);
    printf("cache    %s\n", cache_dir && *cache_dir ? cache_dir : "(disk cache disabled)");
    print_lines(warnings, "warning  ", 0);
    if (driver_status == DC_SUCCESS) info_print_nvml(0);
    info_print_nccl(0);
    if (driver_status == DC_SUCCESS) {
      if (count_status != DC_SUCCESS) printf("devices  error: %s\n", dc_last_error_message());
      else printf("devices  %d\n", (int)count);
      for (i = 0; i < count; ++i) opened += report_device(i, 0, i == 0);
    } else {
      printf("devices  unavailable without a driver; what works here: NVRTC compilation%s\n",
             nvrtc_status == DC_SUCCESS ? "" : " (not installed either)");
    }
  }
  (void)opened;
  return exit_code;
}
