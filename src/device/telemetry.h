// A device's telemetry (dc_device_telemetry_get): NVML (loader/nvml.h)
// queried for the NVML device that has the CUDA device's UUID. In the device
// layer because it needs the Device (its CUdevice, for the UUID); it reads
// nothing dccuda keeps and takes no lock of dccuda's.
#pragma once

#include <cstdint>

#include "dccuda.h"
#include "device/device.h"

namespace dc {

// The first published size of dc_device_telemetry (every size from this up
// to sizeof is accepted).
constexpr uint32_t kDeviceTelemetryV1Size = sizeof(dc_device_telemetry);

// Fills `out` (struct_size set by the caller, already checked) for `device`.
// Fails only for a driver failure reading the UUID.
void device_telemetry(Device& device, dc_device_telemetry* out);

// "GPU-d0d1d2d3-d4d5-d6d7-d8d9-dadbdcdddedf": NVML's spelling of a CUDA UUID.
void nvml_uuid_text(const unsigned char (&bytes)[16], char (&text)[48]) noexcept;

}  // namespace dc
