// The driver loader: dlopen the driver, resolve every entry point through
// cuGetProcAddress_v2 at the version in driver_functions.inc, and keep the
// table. An entry point the driver lacks is replaced by a stand-in that
// returns kCudaMissingSymbol, so a missing symbol never crashes and never
// stops the rest of the library: the call that needs it reports
// DC_ERROR_NOT_SUPPORTED with the driver version it needs.
#pragma once

#include "loader/cuda_abi/driver_abi.h"

#include <cstdint>
#include <span>
#include <string>

#include "core/status.h"

namespace dc {

struct DriverApi {
#define DC_DRIVER_FN(name, version) PFN_##name##_v##version name;
#define DC_DRIVER_FN_COMPAT(name, version, symbol) PFN_##name##_v##version name##_v##version;
#include "loader/driver_functions.inc"
#undef DC_DRIVER_FN
#undef DC_DRIVER_FN_COMPAT
};

// Stand-in for an entry point the driver does not have.
template <class Fn>
struct MissingEntry;
template <class... Args>
struct MissingEntry<CUresult(CUDAAPI*)(Args...)> {
  static CUresult CUDAAPI call(Args...) { return static_cast<CUresult>(kCudaMissingSymbol); }
};

// Whether a table entry was resolved.
template <class Fn>
bool present(Fn fn) noexcept {
  return fn != &MissingEntry<Fn>::call;
}

// One row of the table, for diagnostics and for the loader tests.
struct DriverEntry {
  const char* name;      // what cuGetProcAddress is asked for
  int version;           // the CUDA version asked for
  const char* symbol;    // the name the driver exports for this version (cuda_abi/driver_symbols.h)
  bool compat;           // an older signature kept for old drivers
  void* const* slot;     // the table member
  void* missing;         // the stand-in used when absent
};

std::span<const DriverEntry> driver_entries() noexcept;

namespace detail {
extern DriverApi g_api;  // driver.cpp
}
// The table; every member is callable before and without loading (stand-ins).
// Inline: every driver call of the library goes through it.
inline const DriverApi& driver_api() noexcept { return detail::g_api; }

struct DriverState {
  dc_status status = DC_ERROR_NO_DRIVER;  // DC_SUCCESS when usable
  int32_t cuda_result = 0;                // what went wrong, if the driver said
  std::string message;                    // why it is not usable, what to do
  std::string path;                       // what was loaded
  int32_t version = 0;                    // cuDriverGetVersion
};

// Loads the driver once (thread-safe) and reports the outcome.
const DriverState& driver_state();

// Fails (NO_DRIVER / NOT_SUPPORTED) unless the driver is usable.
void require_driver();

// The oldest CUDA version dccuda supports.
constexpr int32_t kMinimumDriverVersion = 12000;

// "12.4" for 12040.
std::string cuda_version_string(int32_t version);

// The entry's requested version for a missing table member, for messages
// ("needs driver >= 12.4"); 0 if unknown.
int driver_entry_version(const char* name) noexcept;

// "CUDA_ERROR_OUT_OF_MEMORY": the loaded driver's name (cuGetErrorName), else
// the name from dccuda's table (core/status.h's cuda_result_name).
const char* cuda_error_name(int32_t cuda_result) noexcept;

}  // namespace dc
