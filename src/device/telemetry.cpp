#include "device/telemetry.h"

#include <chrono>
#include <cstdio>
#include <cstring>

#include "device/cuda_check.h"
#include "loader/driver.h"
#include "loader/nvml.h"

namespace dc {
namespace {

int32_t reason_of(nvml::Return r) noexcept {
  switch (r) {
    case nvml::kSuccess: return DC_TELEMETRY_AVAILABLE;
    case nvml::kErrorNotSupported: return DC_TELEMETRY_NOT_SUPPORTED;
    case nvml::kErrorNoPermission: return DC_TELEMETRY_NO_PERMISSION;
    case nvml::kErrorGpuIsLost: return DC_TELEMETRY_GPU_LOST;
    case nvml::kErrorFunctionNotFound: return DC_TELEMETRY_MISSING_ENTRY;
  }
  return DC_TELEMETRY_FAILED;
}

// Every field of the snapshot marked with one reason (no NVML, not mapped).
void mark_all(dc_device_telemetry& t, int32_t reason, int32_t result) noexcept {
  for (int i = 0; i <= DC_TELEMETRY_FIELD_NVLINK_TRAFFIC; ++i) {
    t.field_status[i] = reason;
    t.field_nvml_result[i] = result;
  }
}

// Runs one NVML query for field `index`: records why it failed, if it did.
// A missing entry point is its own reason, never a call through null.
template <class Fn, class Query>
bool ask(dc_device_telemetry& t, int index, Fn fn, Query query) noexcept {
  if (!fn) {
    t.field_status[index] = DC_TELEMETRY_MISSING_ENTRY;
    return false;
  }
  nvml::Return r = query(fn);
  t.field_status[index] = reason_of(r);
  t.field_nvml_result[index] = r;
  return r == nvml::kSuccess;
}

void read_fields(nvml::Device d, dc_device_telemetry& t) {
  const NvmlApi& api = nvml_api();
  unsigned v = 0, w = 0;
  if (ask(t, DC_TELEMETRY_FIELD_TEMPERATURE, api.nvmlDeviceGetTemperature,
          [&](auto fn) { return fn(d, nvml::kTemperatureGpu, &v); }))
    t.temperature_c = v;
  if (ask(t, DC_TELEMETRY_FIELD_POWER, api.nvmlDeviceGetPowerUsage, [&](auto fn) { return fn(d, &v); }))
    t.power_mw = v;
  if (ask(t, DC_TELEMETRY_FIELD_POWER_LIMIT, api.nvmlDeviceGetEnforcedPowerLimit, [&](auto fn) { return fn(d, &v); }))
    t.power_limit_mw = v;
  if (ask(t, DC_TELEMETRY_FIELD_SM_CLOCK, api.nvmlDeviceGetClockInfo,
          [&](auto fn) { return fn(d, nvml::kClockSm, &v); }))
    t.sm_clock_mhz = v;
  if (ask(t, DC_TELEMETRY_FIELD_MEMORY_CLOCK, api.nvmlDeviceGetClockInfo,
          [&](auto fn) { return fn(d, nvml::kClockMem, &v); }))
    t.memory_clock_mhz = v;
  nvml::Utilization u{};
  if (ask(t, DC_TELEMETRY_FIELD_UTILIZATION, api.nvmlDeviceGetUtilizationRates, [&](auto fn) { return fn(d, &u); })) {
    t.gpu_utilization_percent = u.gpu;
    t.memory_utilization_percent = u.memory;
  }
  nvml::Memory m{};
  if (ask(t, DC_TELEMETRY_FIELD_MEMORY, api.nvmlDeviceGetMemoryInfo, [&](auto fn) { return fn(d, &m); })) {
    t.memory_used_bytes = m.used;
    t.memory_total_bytes = m.total;
  }
  if (ask(t, DC_TELEMETRY_FIELD_PCIE_THROUGHPUT, api.nvmlDeviceGetPcieThroughput, [&](auto fn) {
        nvml::Return r = fn(d, nvml::kPcieUtilTxBytes, &v);
        return r == nvml::kSuccess ? fn(d, nvml::kPcieUtilRxBytes, &w) : r;
      })) {
    t.pcie_tx_kib_per_s = v;
    t.pcie_rx_kib_per_s = w;
  }
  uint64_t links = 0;
  if (ask(t, DC_TELEMETRY_FIELD_NVLINK_LINKS, api.nvmlDeviceGetNvLinkState, [&](auto fn) {
        // Links past the device's last answer NVML_ERROR_INVALID_ARGUMENT (or
        // NOT_SUPPORTED); the first link decides whether NVLink is there.
        for (unsigned link = 0; link < nvml::kNvLinkMaxLinks; ++link) {
          int state = 0;
          nvml::Return r = fn(d, link, &state);
          if (r != nvml::kSuccess) return link == 0 ? r : nvml::kSuccess;
          links += state == nvml::kFeatureEnabled;
        }
        return nvml::kSuccess;
      }))
    t.nvlink_active_links = links;
  unsigned long long bits = 0, corrected = 0, uncorrected = 0;
  if (ask(t, DC_TELEMETRY_FIELD_THROTTLE_REASONS, api.nvmlDeviceGetCurrentClocksThrottleReasons,
          [&](auto fn) { return fn(d, &bits); }))
    t.throttle_reasons = bits;
  if (ask(t, DC_TELEMETRY_FIELD_ECC_ERRORS, api.nvmlDeviceGetTotalEccErrors, [&](auto fn) {
        nvml::Return r = fn(d, nvml::kMemoryErrorCorrected, nvml::kVolatileEcc, &corrected);
        return r == nvml::kSuccess ? fn(d, nvml::kMemoryErrorUncorrected, nvml::kVolatileEcc, &uncorrected) : r;
      })) {
    t.ecc_corrected = corrected;
    t.ecc_uncorrected = uncorrected;
  }
  unsigned count = 0;
  if (ask(t, DC_TELEMETRY_FIELD_PROCESSES, api.nvmlDeviceGetComputeRunningProcesses_v3, [&](auto fn) {
        // Asked with no room: the count comes back, with INSUFFICIENT_SIZE when nonzero.
        nvml::Return r = fn(d, &count, nullptr);
        return r == nvml::kErrorInsufficientSize ? nvml::kSuccess : r;
      }))
    t.running_processes = count;
  if (ask(t, DC_TELEMETRY_FIELD_FAN_SPEED, api.nvmlDeviceGetFanSpeed, [&](auto fn) { return fn(d, &v); }))
    t.fan_speed_percent = v;
  nvml::FieldValue traffic[2] = {};
  traffic[0].fieldId = nvml::kFieldNvLinkThroughputDataTx;
  traffic[1].fieldId = nvml::kFieldNvLinkThroughputDataRx;
  traffic[0].scopeId = traffic[1].scopeId = nvml::kFieldScopeAllLinks;
  if (ask(t, DC_TELEMETRY_FIELD_NVLINK_TRAFFIC, api.nvmlDeviceGetFieldValues, [&](auto fn) {
        // The call succeeds as a whole; each field carries its own result.
        nvml::Return r = fn(d, 2, traffic);
        if (r != nvml::kSuccess) return r;
        return traffic[0].nvmlReturn != nvml::kSuccess ? traffic[0].nvmlReturn : traffic[1].nvmlReturn;
      })) {
    t.nvlink_tx_kib = traffic[0].value.ullVal;
    t.nvlink_rx_kib = traffic[1].value.ullVal;
  }
}

}  // namespace

void nvml_uuid_text(const unsigned char (&b)[16], char (&text)[48]) noexcept {
  std::snprintf(text, sizeof text, "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0],
                b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]);
}

void device_telemetry(Device& device, dc_device_telemetry* out) {
  dc_device_telemetry t;
  std::memset(&t, 0, sizeof t);
  t.struct_size = out->struct_size;
  t.nvml_index = -1;
  t.timestamp_us = static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::microseconds>(
                                             std::chrono::system_clock::now().time_since_epoch())
                                             .count());
  const NvmlState& state = nvml_state();
  if (state.status != DC_SUCCESS) {
    mark_all(t, DC_TELEMETRY_NO_NVML, state.nvml_result);
  } else {
    CUuuid uuid;
    check(driver_api().cuDeviceGetUuid(&uuid, device.cu_device()), "cuDeviceGetUuid", &device);
    unsigned char bytes[16];
    std::memcpy(bytes, uuid.bytes, sizeof bytes);
    char text[48];
    nvml_uuid_text(bytes, text);
    nvml::Device d = nullptr;
    nvml::Return r = nvml_api().nvmlDeviceGetHandleByUUID(text, &d);
    if (r != nvml::kSuccess || !d) {
      mark_all(t, r == nvml::kErrorNotFound || r == nvml::kSuccess ? DC_TELEMETRY_NOT_MAPPED : reason_of(r), r);
    } else {
      unsigned index = 0;
      if (nvml_api().nvmlDeviceGetIndex && nvml_api().nvmlDeviceGetIndex(d, &index) == nvml::kSuccess)
        t.nvml_index = static_cast<int32_t>(index);
      read_fields(d, t);
    }
  }
  std::memcpy(out, &t, out->struct_size < sizeof t ? out->struct_size : sizeof t);
}

}  // namespace dc
