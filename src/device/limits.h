// Context limits (cuCtxSetLimit / cuCtxGetLimit) and the device-wide cache
// preference (cuCtxSetCacheConfig) of dccuda's context on a device. The
// entry points check the handles; these check the values, bind the context
// and explain the driver's refusals.
#pragma once

#include <cstdint>

#include "device/device.h"

namespace dc {

void set_limit(Device& device, int32_t limit, uint64_t value);
uint64_t get_limit(Device& device, int32_t limit);
void set_cache_config(Device& device, int32_t preference);
int32_t get_cache_config(Device& device);

}  // namespace dc
