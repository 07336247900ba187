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
// or empty when this NVRTC cannot be asked (the query is optional).
const std::vector<int32_t>& nvrtc_supported_archs();

// The architecture to compile for (10 * major + minor), or 0 for NVRTC's
// default. `requested` is options->arch; `device` may be null. Fails with
// DC_ERROR_INVALID_ARGUMENT for CUBIN without an architecture and
// DC_ERROR_NOT_SUPPORTED for one NVRTC cannot target. A device newer than
// NVRTC knows gets the newest architecture it can still run: a CUBIN of the
// same major version, or PTX for an older one (the driver JIT-compiles it).
int32_t resolve_arch(int32_t requested, int32_t output, const Device* device);

// The newest PTX ISA (10 * major + minor) a driver of `driver_version`
// (cuDriverGetVersion) loads, or 0 when the table does not know it (newer
// drivers than this library: assumed to load everything NVRTC makes).
int32_t driver_max_ptx_isa(int32_t driver_version);

// The ISA version in a PTX text's ".version X.Y" line, or 0 if there is none.
int32_t ptx_isa_version(const void* ptx, size_t size);

// "9.0" for 90.
std::string dotted_version(int32_t v);

}  // namespace dc
