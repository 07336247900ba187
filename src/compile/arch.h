// Which GPU architecture a compile targets, and which PTX the installed
// driver can load.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace dc {

class Device;

// The architectures the loaded NVRTC can target (10 * major + minor, sorted),
// or empty when this NVRTC cannot be asked (the query is optional). NVRTC
// must be loaded.
const std::vector<int32_t>& nvrtc_supported_archs();

struct CompileRequest;

// The architecture asked for (10 * major + minor), or 0 for NVRTC's default:
// options->arch, else the device's own. Needs no NVRTC. Fails with
// DC_ERROR_INVALID_ARGUMENT for a CUBIN without an architecture or a value
// that is not one.
int32_t requested_arch(int32_t requested, int32_t output, const Device* device);

// Before NVRTC compiles `request` (NVRTC loaded): an architecture NVRTC
// cannot target is DC_ERROR_NOT_SUPPORTED when it was asked for; when it is
// the device's own (a device newer than this NVRTC), the newest one the
// device can still run is taken instead: a CUBIN of the same major version,
// or PTX of an older one (the driver JIT-compiles it). Returns whether the
// architecture changed.
bool settle_arch(CompileRequest& request);

// The newest PTX ISA (10 * major + minor) a driver of `driver_version`
// (cuDriverGetVersion) loads, or 0 when the table does not know it (newer
// drivers than this library: assumed to load everything NVRTC makes).
int32_t driver_max_ptx_isa(int32_t driver_version);

// The ISA version in a PTX text's ".version X.Y" line, or 0 if there is none.
int32_t ptx_isa_version(const void* ptx, size_t size);

// "9.0" for 90.
std::string dotted_version(int32_t v);

}  // namespace dc
