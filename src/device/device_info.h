#pragma once

#include "dccuda.h"
#include "device/device.h"

namespace dc {

// The first published size of dc_device_info (every size from here up is accepted).
constexpr uint32_t kDeviceInfoV1Size = sizeof(dc_device_info);

// Fills info->struct_size bytes of `info` (the caller has checked the size).
void fill_device_info(Device& device, dc_device_info* info);

}  // namespace dc
