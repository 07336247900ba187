// A fake NVML (libnvidia-ml.so.1) for the telemetry tests: exports the NVML
// functions dccuda uses (src/loader/nvml_abi.h) and answers with fixed values
// that depend on the CUDA device each NVML device stands for, so a test can
// tell which device it was given. Its devices carry the fake driver's UUIDs
// (tests/fake_driver: byte i of device o is 0xd0 + i + o), listed in an order
// other than CUDA's by default, so that mapping by ordinal is caught.
//
//   DCFAKE_DEVICES           how many devices (as the fake driver; default 1)
//   DCFAKE_NVML_ORDER        the CUDA ordinal of each NVML index, "1,0"
//                            (default: the reverse of CUDA's order)
//   DCFAKE_NVML_UNSUPPORTED  fields answering NVML_ERROR_NOT_SUPPORTED:
//                            "fan,ecc,nvlink,..." (the names below)
//   DCFAKE_NVML_NO_PERMISSION fields answering NVML_ERROR_NO_PERMISSION
//   DCFAKE_NVML_INIT_RESULT  what nvmlInit_v2 answers (default 0)
//   DCFAKE_NVML_LOAD         a simulated load: utilisation 97 %, power +200 W
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "loader/nvml_abi.h"

namespace {

using dc::nvml::Return;

struct FakeDevice {
  int cuda_ordinal;
};

struct Config {
  std::vector<FakeDevice> devices;
  std::string unsupported;
  std::string no_permission;
  int init_result = 0;
  bool load = false;
};

std::vector<std::string> split(const char* text) {
  std::vector<std::string> out;
  if (!text) return out;
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ','))
    if (!item.empty()) out.push_back(item);
  return out;
}

const Config& config() {
  static const Config c = [] {
    Config k;
    int n = std::getenv("DCFAKE_DEVICES") ? std::atoi(std::getenv("DCFAKE_DEVICES")) : 1;
    std::vector<std::string> order = split(std::getenv("DCFAKE_NVML_ORDER"));
    if (order.empty())
      for (int i = n - 1; i >= 0; --i) order.push_back(std::to_string(i));
    for (const std::string& o : order) k.devices.push_back({std::atoi(o.c_str())});
    k.unsupported = std::string(",") + (std::getenv("DCFAKE_NVML_UNSUPPORTED") ? std::getenv("DCFAKE_NVML_UNSUPPORTED") : "") + ",";
    k.no_permission =
        std::string(",") + (std::getenv("DCFAKE_NVML_NO_PERMISSION") ? std::getenv("DCFAKE_NVML_NO_PERMISSION") : "") + ",";
    if (const char* r = std::getenv("DCFAKE_NVML_INIT_RESULT")) k.init_result = std::atoi(r);
    k.load = std::getenv("DCFAKE_NVML_LOAD") != nullptr;
    return k;
  }();
  return c;
}

bool g_initialised = false;

// The device a handle stands for: handles are 1 + the NVML index.
const FakeDevice* device(dc::nvml::Device d) {
  auto i = reinterpret_cast<uintptr_t>(d);
  if (i == 0 || i > config().devices.size()) return nullptr;
  return &config().devices[i - 1];
}

// The answer for a field before its value: not initialised, bad handle,
// unsupported or forbidden by the environment.
Return gate(dc::nvml::Device d, const char* field) {
  if (!g_initialised) return dc::nvml::kErrorUninitialized;
  if (!device(d)) return dc::nvml::kErrorInvalidArgument;
  std::string key = std::string(",") + field + ",";
  if (config().unsupported.find(key) != std::string::npos) return dc::nvml::kErrorNotSupported;
  if (config().no_permission.find(key) != std::string::npos) return dc::nvml::kErrorNoPermission;
  return dc::nvml::kSuccess;
}

void uuid_of(int ordinal, char* text, unsigned length) {
  unsigned char b[16];
  for (int i = 0; i < 16; ++i) b[i] = static_cast<unsigned char>(0xd0 + i + ordinal);
  std::snprintf(text, length, "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0], b[1],
                b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]);
}

}  // namespace

#define FAKE_NVML extern "C" __attribute__((visibility("default")))

FAKE_NVML Return nvmlInit_v2() {
  if (config().init_result != 0) return config().init_result;
  g_initialised = true;
  return dc::nvml::kSuccess;
}

FAKE_NVML const char* nvmlErrorString(Return r) {
  switch (r) {
    case 0: return "Success";
    case 3: return "Not Supported";
    case 4: return "Insufficient Permissions";
    case 9: return "Driver Not Loaded";
  }
  return "Unknown Error";
}

FAKE_NVML Return nvmlSystemGetDriverVersion(char* version, unsigned length) {
  std::snprintf(version, length, "%s", "999.99.99-fake");
  return dc::nvml::kSuccess;
}

FAKE_NVML Return nvmlDeviceGetCount_v2(unsigned* count) {
  if (!g_initialised) return dc::nvml::kErrorUninitialized;
  *count = static_cast<unsigned>(config().devices.size());
  return dc::nvml::kSuccess;
}

FAKE_NVML Return nvmlDeviceGetHandleByUUID(const char* uuid, dc::nvml::Device* out) {
  if (!g_initialised) return dc::nvml::kErrorUninitialized;
  if (!uuid || !out) return dc::nvml::kErrorInvalidArgument;
  for (size_t i = 0; i < config().devices.size(); ++i) {
    char text[96];
    uuid_of(config().devices[i].cuda_ordinal, text, sizeof text);
    if (std::strcmp(text, uuid) == 0) {
      *out = reinterpret_cast<dc::nvml::Device>(i + 1);
      return dc::nvml::kSuccess;
    }
  }
  return dc::nvml::kErrorNotFound;
}

FAKE_NVML Return nvmlDeviceGetIndex(dc::nvml::Device d, unsigned* index) {
  if (!device(d)) return dc::nvml::kErrorInvalidArgument;
  *index = static_cast<unsigned>(reinterpret_cast<uintptr_t>(d) - 1);
  return dc::nvml::kSuccess;
}

FAKE_NVML Return nvmlDeviceGetTemperature(dc::nvml::Device d, int sensor, unsigned* t) {
  if (Return r = gate(d, "temperature")) return r;
  if (sensor != dc::nvml::kTemperatureGpu) return dc::nvml::kErrorInvalidArgument;
  *t = 40 + device(d)->cuda_ordinal + (config().load ? 30 : 0);
  return dc::nvml::kSuccess;
}

FAKE_NVML Return nvmlDeviceGetPowerUsage(dc::nvml::Device d, unsigned* mw) {
  if (Return r = gate(d, "power")) return r;
  *mw = 100000 + 1000 * device(d)->cuda_ordinal + (config().load ? 200000 : 0);
  return dc::nvml::kSuccess;
}

FAKE_NVML Return nvmlDeviceGetEnforcedPowerLimit(dc::nvml::Device d, unsigned* mw) {
  if (Return r = gate(d, "power_limit")) return r;
  *mw = 700000;
  return dc::nvml::kSuccess;
}

FAKE_NVML Return nvmlDeviceGetClockInfo(dc::nvml::Device d, int type, unsigned* mhz) {
  if (Return r = gate(d, type == dc::nvml::kClockSm ? "sm_clock" : "memory_clock")) return r;
  if (type == dc::nvml::kClockSm) *mhz = 1980 - device(d)->cuda_ordinal;
  else if (type == dc::nvml::kClockMem) *mhz = 2619;
  else return dc::nvml::kErrorInvalidArgument;
  return dc::nvml::kSuccess;
}

FAKE_NVML Return nvmlDeviceGetUtilizationRates(dc::nvml::Device d, dc::nvml::Utilization* u) {
  if (Return r = gate(d, "utilization")) return r;
  u->gpu = config().load ? 97 : 10 + device(d)->cuda_ordinal;
  u->memory = 5 + device(d)->cuda_ordinal;
  return dc::nvml::kSuccess;
}

FAKE_NVML Return nvmlDeviceGetMemoryInfo(dc::nvml::Device d, dc::nvml::Memory* m) {
  if (Return r = gate(d, "memory")) return r;
  m->total = 8ull << 30;
  m->used = (1ull << 30) + static_cast<unsigned long long>(device(d)->cuda_ordinal);
  m->free = m->total - m->used;
  return dc::nvml::kSuccess;
}

FAKE_NVML Return nvmlDeviceGetPcieThroughput(dc::nvml::Device d, int counter, unsigned* kib) {
  if (Return r = gate(d, "pcie")) return r;
  *kib = (counter == dc::nvml::kPcieUtilTxBytes ? 1000 : 2000) + device(d)->cuda_ordinal;
  return dc::nvml::kSuccess;
}

FAKE_NVML Return nvmlDeviceGetNvLinkState(dc::nvml::Device d, unsigned link, int* state) {
  if (Return r = gate(d, "nvlink")) return r;
  if (link >= 18) return dc::nvml::kErrorInvalidArgument;
  *state = link < static_cast<unsigned>(4 + device(d)->cuda_ordinal) ? dc::nvml::kFeatureEnabled : 0;
  return dc::nvml::kSuccess;
}

FAKE_NVML Return nvmlDeviceGetCurrentClocksThrottleReasons(dc::nvml::Device d, unsigned long long* bits) {
  if (Return r = gate(d, "throttle")) return r;
  *bits = config().load ? 0x4ull : 0x1ull;  // SW power cap under load, else GPU idle
  return dc::nvml::kSuccess;
}

FAKE_NVML Return nvmlDeviceGetTotalEccErrors(dc::nvml::Device d, int type, int counter, unsigned long long* n) {
  if (Return r = gate(d, "ecc")) return r;
  if (counter != dc::nvml::kVolatileEcc) return dc::nvml::kErrorInvalidArgument;
  *n = type == dc::nvml::kMemoryErrorCorrected ? 3 : 0;
  return dc::nvml::kSuccess;
}

FAKE_NVML Return nvmlDeviceGetComputeRunningProcesses_v3(dc::nvml::Device d, unsigned* count, void* infos) {
  if (Return r = gate(d, "processes")) return r;
  unsigned have = 1 + static_cast<unsigned>(device(d)->cuda_ordinal);
  bool room = *count >= have && infos;
  *count = have;
  return room ? dc::nvml::kSuccess : dc::nvml::kErrorInsufficientSize;
}

FAKE_NVML Return nvmlDeviceGetFanSpeed(dc::nvml::Device d, unsigned* percent) {
  if (Return r = gate(d, "fan")) return r;
  *percent = 30 + device(d)->cuda_ordinal;
  return dc::nvml::kSuccess;
}

// The NVLink data counters (fields 138 and 139, every link): a whole call
// that succeeds, each field with its own result, as NVML answers. Under
// DCFAKE_NVML_LOAD the counters grow between calls.
FAKE_NVML Return nvmlDeviceGetFieldValues(dc::nvml::Device d, int count, dc::nvml::FieldValue* values) {
  if (!g_initialised) return dc::nvml::kErrorUninitialized;
  if (!device(d) || count < 0 || (count > 0 && !values)) return dc::nvml::kErrorInvalidArgument;
  static std::atomic<unsigned long long> g_calls{0};
  unsigned long long calls = ++g_calls;
  for (int i = 0; i < count; ++i) {
    dc::nvml::FieldValue& f = values[i];
    f.nvmlReturn = gate(d, "nvlink_traffic");
    if (f.nvmlReturn) continue;
    bool tx = f.fieldId == dc::nvml::kFieldNvLinkThroughputDataTx;
    if ((!tx && f.fieldId != dc::nvml::kFieldNvLinkThroughputDataRx) || f.scopeId != dc::nvml::kFieldScopeAllLinks) {
      f.nvmlReturn = dc::nvml::kErrorInvalidArgument;
      continue;
    }
    f.valueType = 3;  // NVML_VALUE_TYPE_UNSIGNED_LONG_LONG
    f.value.ullVal = (tx ? 5000ull : 7000ull) + static_cast<unsigned long long>(device(d)->cuda_ordinal) +
                     (config().load ? calls * 1024 : 0);
  }
  return dc::nvml::kSuccess;
}
