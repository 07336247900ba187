/* dccuda-info's telemetry: NVML's line, each device's block, the live table
 * (--watch). Public API only. */
#ifndef DCCUDA_INFO_TELEMETRY_H
#define DCCUDA_INFO_TELEMETRY_H

#include "dccuda.h"

/* "nvml     libnvidia-ml.so.1" or why not; JSON: ,"nvml":{...} */
void info_print_nvml(int json);

/* The device's telemetry: human lines under its block, or JSON: ,"telemetry":{...} */
void info_print_telemetry(dc_device device, int json);

/* A table of every device's telemetry every `seconds`, `count` samples (0:
 * until interrupted). Returns 0, or 1 when no device could be opened. */
int info_watch(double seconds, long count);

/* Prints a JSON string literal (dccuda_info.c). */
void info_json_string(const char* s);

#endif
