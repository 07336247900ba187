// Context-wide waits (cuCtxSynchronize) that never break a capture.
//
// The driver refuses a context-wide wait while any stream of the context
// captures a graph, and invalidates that capture, whichever thread began it
// and whatever its mode. dccuda's own waits (dc_device_synchronize, the pool
// trim, the out-of-memory retry) go through here: with a capture registered
// on the device they do not call the driver, and while they wait no capture
// can begin (begin_capture takes the device's capture gate exclusively).
// Captures begun by other libraries on wrapped streams are not known here.
#pragma once

#include "loader/cuda_abi/driver_abi.h"

#include <string>

#include "device/device.h"

namespace dc {

// cuCtxSynchronize on the device's context, which must be current. With a
// capture in progress on the device: CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED
// without waiting, and their number in *captures (if given; else 0). With a
// persistent kernel running on the device (device/residency.h): never waits
// (it would wait for ever), CUDA_ERROR_NOT_READY and the kernel's name in
// *resident (if given).
CUresult wait_for_device(const Device& device, int* captures = nullptr, std::string* resident = nullptr) noexcept;

}  // namespace dc
