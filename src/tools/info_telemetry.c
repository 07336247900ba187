/* dccuda-info's telemetry (see info_telemetry.h). */
#if !defined(_WIN32)
#define _POSIX_C_SOURCE 199309L /* nanosleep */
#endif
#include "info_telemetry.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#if defined(_WIN32)
#include <windows.h>
#endif

/* Each field's name in JSON and the index of its status. */
static const char* const kFieldNames[] = {
    "temperature", "power", "power_limit", "sm_clock", "memory_clock", "utilization", "memory",
    "pcie_throughput", "nvlink_links", "throttle_reasons", "ecc_errors", "processes", "fan_speed", "nvlink_traffic"};
#define FIELD_COUNT ((int)(sizeof kFieldNames / sizeof kFieldNames[0]))

static const char* reason_name(int32_t reason) {
  switch (reason) {
    case DC_TELEMETRY_AVAILABLE: return "available";
    case DC_TELEMETRY_NO_NVML: return "no NVML";
    case DC_TELEMETRY_NOT_MAPPED: return "no NVML device has this UUID";
    case DC_TELEMETRY_NOT_SUPPORTED: return "not supported";
    case DC_TELEMETRY_NO_PERMISSION: return "no permission";
    case DC_TELEMETRY_GPU_LOST: return "GPU lost";
    case DC_TELEMETRY_FAILED: return "NVML failed";
    case DC_TELEMETRY_MISSING_ENTRY: return "NVML lacks the function";
  }
  return "unknown";
}

static int has(const dc_device_telemetry* t, int field) { return t->field_status[field] == DC_TELEMETRY_AVAILABLE; }

void info_print_nvml(int json) {
  const char* path = NULL;
  if (dc_telemetry_library(&path) == DC_SUCCESS) {
    if (json) {
      printf(",\"nvml\":{\"library\":");
      info_json_string(path);
      printf("}");
    } else {
      printf("nvml     %s (telemetry)\n", path);
    }
  } else if (json) {
    printf(",\"nvml\":{\"error\":");
    info_json_string(dc_last_error_message());
    printf("}");
  } else {
    printf("nvml     none: %s\n", dc_last_error_message());
  }
}

static void json_number_or_null(const dc_device_telemetry* t, int field, const char* name, unsigned long long v) {
  printf(",\"%s\":", name);
  if (has(t, field)) printf("%llu", v);
  else printf("null");
}

void info_print_telemetry(dc_device device, int json) {
  dc_device_telemetry t = DC_DEVICE_TELEMETRY_INIT;
  int i, any = 0;
  if (dc_device_telemetry_get(device, &t) != DC_SUCCESS) {
    if (json) {
      printf(",\"telemetry\":{\"error\":");
      info_json_string(dc_last_error_message());
      printf("}");
    } else {
      printf("    telemetry            error: %s\n", dc_last_error_message());
    }
    return;
  }
  if (json) {
    printf(",\"telemetry\":{\"nvml_index\":%d,\"timestamp_us\":%llu", (int)t.nvml_index,
           (unsigned long long)t.timestamp_us);
    printf(",\"temperature_c\":");
    if (has(&t, DC_TELEMETRY_FIELD_TEMPERATURE)) printf("%lld", (long long)t.temperature_c);
    else printf("null");
    json_number_or_null(&t, DC_TELEMETRY_FIELD_POWER, "power_mw", t.power_mw);
    json_number_or_null(&t, DC_TELEMETRY_FIELD_POWER_LIMIT, "power_limit_mw", t.power_limit_mw);
    json_number_or_null(&t, DC_TELEMETRY_FIELD_SM_CLOCK, "sm_clock_mhz", t.sm_clock_mhz);
    json_number_or_null(&t, DC_TELEMETRY_FIELD_MEMORY_CLOCK, "memory_clock_mhz", t.memory_clock_mhz);
    json_number_or_null(&t, DC_TELEMETRY_FIELD_UTILIZATION, "gpu_utilization_percent", t.gpu_utilization_percent);
    json_number_or_null(&t, DC_TELEMETRY_FIELD_UTILIZATION, "memory_utilization_percent",
                        t.memory_utilization_percent);
    json_number_or_null(&t, DC_TELEMETRY_FIELD_MEMORY, "memory_used_bytes", t.memory_used_bytes);
    json_number_or_null(&t, DC_TELEMETRY_FIELD_MEMORY, "memory_total_bytes", t.memory_total_bytes);
    json_number_or_null(&t, DC_TELEMETRY_FIELD_PCIE_THROUGHPUT, "pcie_tx_kib_per_s", t.pcie_tx_kib_per_s);
    json_number_or_null(&t, DC_TELEMETRY_FIELD_PCIE_THROUGHPUT, "pcie_rx_kib_per_s", t.pcie_rx_kib_per_s);
    json_number_or_null(&t, DC_TELEMETRY_FIELD_NVLINK_LINKS, "nvlink_active_links", t.nvlink_active_links);
    json_number_or_null(&t, DC_TELEMETRY_FIELD_THROTTLE_REASONS, "throttle_reasons", t.throttle_reasons);
    json_number_or_null(&t, DC_TELEMETRY_FIELD_ECC_ERRORS, "ecc_corrected", t.ecc_corrected);
    json_number_or_null(&t, DC_TELEMETRY_FIELD_ECC_ERRORS, "ecc_uncorrected", t.ecc_uncorrected);
    json_number_or_null(&t, DC_TELEMETRY_FIELD_PROCESSES, "running_processes", t.running_processes);
    json_number_or_null(&t, DC_TELEMETRY_FIELD_FAN_SPEED, "fan_speed_percent", t.fan_speed_percent);
    json_number_or_null(&t, DC_TELEMETRY_FIELD_NVLINK_TRAFFIC, "nvlink_tx_kib", t.nvlink_tx_kib);
    json_number_or_null(&t, DC_TELEMETRY_FIELD_NVLINK_TRAFFIC, "nvlink_rx_kib", t.nvlink_rx_kib);
    printf(",\"unavailable\":{");
    for (i = 0; i < FIELD_COUNT; ++i) {
      if (has(&t, i)) continue;
      printf("%s\"%s\":", any ? "," : "", kFieldNames[i]);
      info_json_string(reason_name(t.field_status[i]));
      any = 1;
    }
    printf("}}");
    return;
  }
  if (t.field_status[DC_TELEMETRY_FIELD_TEMPERATURE] == DC_TELEMETRY_NO_NVML ||
      t.field_status[DC_TELEMETRY_FIELD_TEMPERATURE] == DC_TELEMETRY_NOT_MAPPED) {
    printf("    telemetry            unavailable: %s\n", reason_name(t.field_status[DC_TELEMETRY_FIELD_TEMPERATURE]));
    return;
  }
  printf("    telemetry            NVML device %d\n", (int)t.nvml_index);
  if (has(&t, DC_TELEMETRY_FIELD_TEMPERATURE)) printf("      temperature        %lld C\n", (long long)t.temperature_c);
  if (has(&t, DC_TELEMETRY_FIELD_POWER))
    printf("      power              %.1f W of %.1f W\n", (double)t.power_mw / 1000.0,
           has(&t, DC_TELEMETRY_FIELD_POWER_LIMIT) ? (double)t.power_limit_mw / 1000.0 : 0.0);
  if (has(&t, DC_TELEMETRY_FIELD_SM_CLOCK))
    printf("      clocks now         %llu MHz SM, %llu MHz memory\n", (unsigned long long)t.sm_clock_mhz,
           (unsigned long long)t.memory_clock_mhz);
  if (has(&t, DC_TELEMETRY_FIELD_UTILIZATION))
    printf("      utilisation        %llu%% GPU, %llu%% memory\n", (unsigned long long)t.gpu_utilization_percent,
           (unsigned long long)t.memory_utilization_percent);
  if (has(&t, DC_TELEMETRY_FIELD_MEMORY))
    printf("      memory used        %.2f GiB of %.2f GiB (every process)\n",
           (double)t.memory_used_bytes / 1073741824.0, (double)t.memory_total_bytes / 1073741824.0);
  if (has(&t, DC_TELEMETRY_FIELD_PCIE_THROUGHPUT))
    printf("      PCIe               %llu KiB/s out, %llu KiB/s in\n", (unsigned long long)t.pcie_tx_kib_per_s,
           (unsigned long long)t.pcie_rx_kib_per_s);
  if (has(&t, DC_TELEMETRY_FIELD_NVLINK_LINKS))
    printf("      NVLink             %llu links up\n", (unsigned long long)t.nvlink_active_links);
  if (has(&t, DC_TELEMETRY_FIELD_THROTTLE_REASONS))
    printf("      clock limits       0x%llx (NVML's clocks event reasons)\n", (unsigned long long)t.throttle_reasons);
  if (has(&t, DC_TELEMETRY_FIELD_ECC_ERRORS))
    printf("      ECC errors         %llu corrected, %llu uncorrected\n", (unsigned long long)t.ecc_corrected,
           (unsigned long long)t.ecc_uncorrected);
  if (has(&t, DC_TELEMETRY_FIELD_PROCESSES))
    printf("      processes          %llu\n", (unsigned long long)t.running_processes);
  if (has(&t, DC_TELEMETRY_FIELD_FAN_SPEED))
    printf("      fan                %llu%%\n", (unsigned long long)t.fan_speed_percent);
  if (has(&t, DC_TELEMETRY_FIELD_NVLINK_TRAFFIC))
    printf("      NVLink data        %llu KiB sent, %llu KiB received since the driver loaded\n",
           (unsigned long long)t.nvlink_tx_kib, (unsigned long long)t.nvlink_rx_kib);
  for (i = 0; i < FIELD_COUNT; ++i)
    if (!has(&t, i)) printf("      %-18s %s\n", kFieldNames[i], reason_name(t.field_status[i]));
}

static void sleep_seconds(double seconds) {
#if defined(_WIN32)
  Sleep((DWORD)(seconds * 1000.0));
#else
  struct timespec ts;
  ts.tv_sec = (time_t)seconds;
  ts.tv_nsec = (long)((seconds - (double)ts.tv_sec) * 1e9);
  while (nanosleep(&ts, &ts) != 0) {
  }
#endif
}

/* One cell: the value, or "-" where the field is unavailable. */
static void cell(const dc_device_telemetry* t, int field, const char* format, double v, int width) {
  char text[32];
  if (has(t, field)) snprintf(text, sizeof text, format, v);
  else snprintf(text, sizeof text, "-");
  printf(" %*s", width, text);
}

int info_watch(double seconds, long count) {
  int32_t devices = 0, d;
  long sample;
  dc_device handles[64];
  if (dc_device_count(&devices) != DC_SUCCESS) {
    fprintf(stderr, "dccuda-info --watch: %s\n", dc_last_error_message());
    return 1;
  }
  if (devices > 64) devices = 64;
  for (d = 0; d < devices; ++d) {
    handles[d] = NULL;
    if (dc_device_open(d, &handles[d]) != DC_SUCCESS)
      fprintf(stderr, "dccuda-info --watch: device %d: %s\n", (int)d, dc_last_error_message());
  }
  printf("%8s %3s %6s %8s %8s %7s %7s %5s %5s %10s %10s %10s %5s\n", "time", "dev", "temp C", "power W", "limit W",
         "SM MHz", "mem MHz", "gpu%", "mem%", "used GiB", "PCIe out", "PCIe in", "procs");
  for (sample = 0; count == 0 || sample < count; ++sample) {
    if (sample > 0) sleep_seconds(seconds);
    for (d = 0; d < devices; ++d) {
      dc_device_telemetry t = DC_DEVICE_TELEMETRY_INIT;
      time_t now;
      char stamp[16];
      if (!handles[d]) continue;
      if (dc_device_telemetry_get(handles[d], &t) != DC_SUCCESS) {
        printf("device %d: %s\n", (int)d, dc_last_error_message());
        continue;
      }
      now = (time_t)(t.timestamp_us / 1000000u);
      strftime(stamp, sizeof stamp, "%H:%M:%S", localtime(&now));
      printf("%8s %3d", stamp, (int)d);
      cell(&t, DC_TELEMETRY_FIELD_TEMPERATURE, "%.0f", (double)t.temperature_c, 6);
      cell(&t, DC_TELEMETRY_FIELD_POWER, "%.1f", (double)t.power_mw / 1000.0, 8);
      cell(&t, DC_TELEMETRY_FIELD_POWER_LIMIT, "%.1f", (double)t.power_limit_mw / 1000.0, 8);
      cell(&t, DC_TELEMETRY_FIELD_SM_CLOCK, "%.0f", (double)t.sm_clock_mhz, 7);
      cell(&t, DC_TELEMETRY_FIELD_MEMORY_CLOCK, "%.0f", (double)t.memory_clock_mhz, 7);
      cell(&t, DC_TELEMETRY_FIELD_UTILIZATION, "%.0f", (double)t.gpu_utilization_percent, 5);
      cell(&t, DC_TELEMETRY_FIELD_UTILIZATION, "%.0f", (double)t.memory_utilization_percent, 5);
      cell(&t, DC_TELEMETRY_FIELD_MEMORY, "%.2f", (double)t.memory_used_bytes / 1073741824.0, 10);
      cell(&t, DC_TELEMETRY_FIELD_PCIE_THROUGHPUT, "%.0f", (double)t.pcie_tx_kib_per_s, 10);
      cell(&t, DC_TELEMETRY_FIELD_PCIE_THROUGHPUT, "%.0f", (double)t.pcie_rx_kib_per_s, 10);
      cell(&t, DC_TELEMETRY_FIELD_PROCESSES, "%.0f", (double)t.running_processes, 5);
      printf("\n");
    }
    fflush(stdout);
  }
  for (d = 0; d < devices; ++d) dc_device_release(handles[d]);
  return 0;
}
