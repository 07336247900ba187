// dccuda's own declarations of the NVML API it uses (nvml.h's names and
// values), so that dccuda builds without NVML's header: the CUDA toolkit's
// nvml.h comes in a separate package (cuda-nvml-dev) that is not always
// installed. Only what loader/nvml.cpp and device/telemetry.cpp call is here;
// tests/fake_nvml exports the same functions from these declarations. NVML's
// ABI is stable: every function below has kept its name and signature since
// the driver generation dccuda supports (R525, CUDA 12.0).
#pragma once

namespace dc::nvml {

using Return = int;  // nvmlReturn_t
inline constexpr Return kSuccess = 0;                 // NVML_SUCCESS
inline constexpr Return kErrorUninitialized = 1;      // NVML_ERROR_UNINITIALIZED
inline constexpr Return kErrorInvalidArgument = 2;    // NVML_ERROR_INVALID_ARGUMENT
inline constexpr Return kErrorNotSupported = 3;       // NVML_ERROR_NOT_SUPPORTED
inline constexpr Return kErrorNoPermission = 4;       // NVML_ERROR_NO_PERMISSION
inline constexpr Return kErrorNotFound = 6;           // NVML_ERROR_NOT_FOUND
inline constexpr Return kErrorInsufficientSize = 7;   // NVML_ERROR_INSUFFICIENT_SIZE
inline constexpr Return kErrorDriverNotLoaded = 9;    // NVML_ERROR_DRIVER_NOT_LOADED
inline constexpr Return kErrorFunctionNotFound = 13;  // NVML_ERROR_FUNCTION_NOT_FOUND
inline constexpr Return kErrorGpuIsLost = 15;         // NVML_ERROR_GPU_IS_LOST
inline constexpr Return kErrorUnknown = 999;          // NVML_ERROR_UNKNOWN

struct DeviceSt;
using Device = DeviceSt*;  // nvmlDevice_t

inline constexpr int kTemperatureGpu = 0;       // NVML_TEMPERATURE_GPU
inline constexpr int kClockSm = 1;              // NVML_CLOCK_SM
inline constexpr int kClockMem = 2;             // NVML_CLOCK_MEM
inline constexpr int kPcieUtilTxBytes = 0;      // NVML_PCIE_UTIL_TX_BYTES
inline constexpr int kPcieUtilRxBytes = 1;      // NVML_PCIE_UTIL_RX_BYTES
inline constexpr int kFeatureEnabled = 1;       // NVML_FEATURE_ENABLED (nvmlEnableState_t)
inline constexpr int kMemoryErrorCorrected = 0;    // NVML_MEMORY_ERROR_TYPE_CORRECTED
inline constexpr int kMemoryErrorUncorrected = 1;  // NVML_MEMORY_ERROR_TYPE_UNCORRECTED
inline constexpr int kVolatileEcc = 0;          // NVML_VOLATILE_ECC: since the driver loaded
inline constexpr unsigned kNvLinkMaxLinks = 18; // NVML_NVLINK_MAX_LINKS
inline constexpr unsigned kUuidBufferSize = 96; // NVML_DEVICE_UUID_V2_BUFFER_SIZE

struct Utilization {  // nvmlUtilization_t
  unsigned int gpu;
  unsigned int memory;
};

struct Memory {  // nvmlMemory_t
  unsigned long long total;
  unsigned long long free;
  unsigned long long used;
};

// nvmlDeviceGetFieldValues: the NVLink data counters, summed over every link
// when scopeId is UINT_MAX (nvml.h: "A scopeId of UINT_MAX returns aggregate
// value summed up across all links"), in KiB since the driver loaded.
inline constexpr unsigned kFieldNvLinkThroughputDataTx = 138;  // NVML_FI_DEV_NVLINK_THROUGHPUT_DATA_TX
inline constexpr unsigned kFieldNvLinkThroughputDataRx = 139;  // NVML_FI_DEV_NVLINK_THROUGHPUT_DATA_RX
inline constexpr unsigned kFieldScopeAllLinks = 0xffffffffu;   // UINT_MAX

struct FieldValue {  // nvmlFieldValue_t
  unsigned int fieldId;
  unsigned int scopeId;
  long long timestamp;    // microseconds since 1970, when it was read
  long long latencyUsec;
  int valueType;          // nvmlValueType_t
  Return nvmlReturn;      // this field's own result
  union {                 // nvmlValue_t
    double dVal;
    unsigned long long ullVal;
  } value;
};
static_assert(sizeof(FieldValue) == 40, "nvmlFieldValue_t is 40 bytes");

}  // namespace dc::nvml

// The entry points, as nvml.h declares them (C linkage, the default calling
// convention on every platform NVML exists for).
extern "C" {
typedef dc::nvml::Return (*PFN_nvmlInit_v2)();
typedef const char* (*PFN_nvmlErrorString)(dc::nvml::Return);
typedef dc::nvml::Return (*PFN_nvmlSystemGetDriverVersion)(char*, unsigned int);
typedef dc::nvml::Return (*PFN_nvmlDeviceGetCount_v2)(unsigned int*);
typedef dc::nvml::Return (*PFN_nvmlDeviceGetHandleByUUID)(const char*, dc::nvml::Device*);
typedef dc::nvml::Return (*PFN_nvmlDeviceGetIndex)(dc::nvml::Device, unsigned int*);
typedef dc::nvml::Return (*PFN_nvmlDeviceGetTemperature)(dc::nvml::Device, int, unsigned int*);
typedef dc::nvml::Return (*PFN_nvmlDeviceGetPowerUsage)(dc::nvml::Device, unsigned int*);
typedef dc::nvml::Return (*PFN_nvmlDeviceGetEnforcedPowerLimit)(dc::nvml::Device, unsigned int*);
typedef dc::nvml::Return (*PFN_nvmlDeviceGetClockInfo)(dc::nvml::Device, int, unsigned int*);
typedef dc::nvml::Return (*PFN_nvmlDeviceGetUtilizationRates)(dc::nvml::Device, dc::nvml::Utilization*);
typedef dc::nvml::Return (*PFN_nvmlDeviceGetMemoryInfo)(dc::nvml::Device, dc::nvml::Memory*);
typedef dc::nvml::Return (*PFN_nvmlDeviceGetPcieThroughput)(dc::nvml::Device, int, unsigned int*);
typedef dc::nvml::Return (*PFN_nvmlDeviceGetNvLinkState)(dc::nvml::Device, unsigned int, int*);
typedef dc::nvml::Return (*PFN_nvmlDeviceGetCurrentClocksThrottleReasons)(dc::nvml::Device, unsigned long long*);
typedef dc::nvml::Return (*PFN_nvmlDeviceGetTotalEccErrors)(dc::nvml::Device, int, int, unsigned long long*);
// Called with *count 0 and no array: answers the count (NVML_ERROR_INSUFFICIENT_SIZE
// when there are processes), so the process record's layout is not needed.
typedef dc::nvml::Return (*PFN_nvmlDeviceGetComputeRunningProcesses_v3)(dc::nvml::Device, unsigned int*, void*);
typedef dc::nvml::Return (*PFN_nvmlDeviceGetFanSpeed)(dc::nvml::Device, unsigned int*);
typedef dc::nvml::Return (*PFN_nvmlDeviceGetFieldValues)(dc::nvml::Device, int, dc::nvml::FieldValue*);
}
