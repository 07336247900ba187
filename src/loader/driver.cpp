#include "loader/driver.h"

#include <cstring>
#include <mutex>

#include "core/config.h"
#include "core/error.h"
#include "core/log.h"
#include "loader/shared_library.h"

namespace dc {
namespace {

#define DC_STRINGIFY(x) #x
#define DC_EXPANDED_NAME(x) DC_STRINGIFY(x)

DriverApi make_missing_table() {
  DriverApi api;
#define DC_DRIVER_FN(name, version) api.name = &MissingEntry<PFN_##name##_v##version>::call;
#define DC_DRIVER_FN_COMPAT(name, version, symbol) \
  api.name##_v##version = &MissingEntry<PFN_##name##_v##version>::call;
#include "loader/driver_functions.inc"
#undef DC_DRIVER_FN
#undef DC_DRIVER_FN_COMPAT
  return api;
}

}  // namespace

namespace detail {
DriverApi g_api = make_missing_table();
}  // namespace detail

namespace {

using detail::g_api;

const DriverEntry g_entries[] = {
#define DC_DRIVER_FN(name, version)                                                      \
  {#name, version, DC_EXPANDED_NAME(name), false, reinterpret_cast<void* const*>(&g_api.name), \
   reinterpret_cast<void*>(&MissingEntry<PFN_##name##_v##version>::call)},
#define DC_DRIVER_FN_COMPAT(name, version, symbol)                                                  \
  {#name, version, symbol, true, reinterpret_cast<void* const*>(&g_api.name##_v##version),             \
   reinterpret_cast<void*>(&MissingEntry<PFN_##name##_v##version>::call)},
#include "loader/driver_functions.inc"
#undef DC_DRIVER_FN
#undef DC_DRIVER_FN_COMPAT
};

DriverState g_state;
std::once_flag g_once;

// Tells the log hook (core/log.h) which entry points the driver lacks, and
// for each whether an older version stands in (a compat entry resolved) or
// the calls that need it will answer DC_ERROR_NOT_SUPPORTED.
void report_missing_entries(const std::string& path, int version) {
  if (!log_enabled(DC_LOG_DEBUG)) return;
  for (const DriverEntry& e : g_entries) {
    if (e.compat || *e.slot != e.missing) continue;
    const DriverEntry* older = nullptr;
    for (const DriverEntry& c : g_entries)
      if (c.compat && std::strcmp(c.name, e.name) == 0 && *c.slot != c.missing) older = &c;
    if (older)
      DC_LOG(DC_LOG_DEBUG, "fallback", "%s of CUDA %s is missing from the driver %s (CUDA %s): dccuda uses its "
             "CUDA %s version instead", e.name, cuda_version_string(e.version).c_str(), path.c_str(),
             cuda_version_string(version).c_str(), cuda_version_string(older->version).c_str());
    else
      DC_LOG(DC_LOG_WARNING, "driver", "%s (CUDA %s) is missing from the driver %s (CUDA %s): the calls that need it "
             "answer DC_ERROR_NOT_SUPPORTED; update the NVIDIA driver to use them", e.name,
             cuda_version_string(e.version).c_str(), path.c_str(), cuda_version_string(version).c_str());
  }
}

void load() {
  const Config& cfg = config();
  std::string path = cfg.driver_library.empty() ? default_driver_library() : cfg.driver_library;
  const char* origin = cfg.driver_library.empty() ? "the default" : "DCCUDA_DRIVER_LIBRARY or dc_init";
  g_state.path = path;

  std::string why;
  void* lib = open_shared_library(path, &why);
  if (!lib) {
    g_state.status = DC_ERROR_NO_DRIVER;
    g_state.message = strf(
        "no CUDA driver: could not load %s (%s, %s); install the NVIDIA driver, or set DCCUDA_DRIVER_LIBRARY to the "
        "path of %s",
        path.c_str(), origin, why.c_str(), default_driver_library());
    return;
  }

  auto get_proc =
      reinterpret_cast<PFN_cuGetProcAddress_v12000>(find_shared_library_symbol(lib, "cuGetProcAddress_v2"));
  if (!get_proc) {
    bool old = find_shared_library_symbol(lib, "cuGetProcAddress") != nullptr ||
               find_shared_library_symbol(lib, "cuInit") != nullptr;
    g_state.status = old ? DC_ERROR_NOT_SUPPORTED : DC_ERROR_NO_DRIVER;
    g_state.message = old ? strf("the driver at %s is older than CUDA 12.0 (it lacks cuGetProcAddress_v2); dccuda needs "
                                 "a driver for CUDA 12.0 or newer (R525+): update the NVIDIA driver",
                                 path.c_str())
                          : strf("%s is not a CUDA driver (it exports no cuGetProcAddress_v2); set "
                                 "DCCUDA_DRIVER_LIBRARY to the path of %s",
                                 path.c_str(), default_driver_library());
    return;
  }

  // Checks the result, the symbol status and the pointer: all three must agree.
  auto resolve = [&](const char* name, int version, void** out) -> CUresult {
    void* fn = nullptr;
    CUdriverProcAddressQueryResult found = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
    CUresult r = get_proc(name, &fn, version, CU_GET_PROC_ADDRESS_DEFAULT, &found);
    if (r == CUDA_SUCCESS && found == CU_GET_PROC_ADDRESS_SUCCESS && fn) {
      *out = fn;
      return CUDA_SUCCESS;
    }
    return r != CUDA_SUCCESS ? r : CUDA_ERROR_NOT_FOUND;
  };

  // cuInit decides whether this is a real, working driver.
  void* init_fn = nullptr;
  CUresult init = resolve("cuInit", 2000, &init_fn);
  if (init == CUDA_SUCCESS) init = reinterpret_cast<PFN_cuInit_v2000>(init_fn)(0);
  g_state.cuda_result = init;
  if (init == CUDA_ERROR_STUB_LIBRARY) {
    g_state.status = DC_ERROR_NO_DRIVER;
    g_state.message = strf("%s is the CUDA toolkit's stub library (CUDA_ERROR_STUB_LIBRARY), not a driver; install "
                           "the NVIDIA driver, or point DCCUDA_DRIVER_LIBRARY at the real %s",
                           path.c_str(), default_driver_library());
    return;
  }
  if (!init_fn) {
    g_state.status = DC_ERROR_NO_DRIVER;
    g_state.message = strf("%s did not provide cuInit through cuGetProcAddress_v2 (CUresult %d); it is not a usable "
                           "CUDA driver: install the NVIDIA driver or fix DCCUDA_DRIVER_LIBRARY",
                           path.c_str(), static_cast<int>(init));
    return;
  }
  if (init != CUDA_SUCCESS && init != CUDA_ERROR_NO_DEVICE) {
    g_state.status = DC_ERROR_NO_DRIVER;
    g_state.message = strf("cuInit failed with CUresult %d from %s; the driver is installed but not working (check "
                           "nvidia-smi, the kernel module and /dev/nvidia*)",
                           static_cast<int>(init), path.c_str());
    return;
  }

  int version = 0;
  void* version_fn = nullptr;
  CUresult asked = resolve("cuDriverGetVersion", 2020, &version_fn);
  if (asked == CUDA_SUCCESS) asked = reinterpret_cast<PFN_cuDriverGetVersion_v2020>(version_fn)(&version);
  if (asked != CUDA_SUCCESS) {
    // Without the version no entry point can be resolved safely (and "CUDA
    // 0.0" would be a misleading complaint).
    g_state.status = DC_ERROR_NO_DRIVER;
    g_state.cuda_result = asked;
    g_state.message = strf("cuDriverGetVersion failed with CUresult %d from %s; the driver is installed but not "
                           "working (check nvidia-smi, the kernel module and /dev/nvidia*)",
                           static_cast<int>(asked), path.c_str());
    return;
  }
  g_state.version = version;

  for (const DriverEntry& e : g_entries) {
    // An ABI introduced after the driver's CUDA version cannot be there: the
    // driver would answer with an older version of the function (asking a 12.0
    // driver for cuMemPrefetchAsync at 12020 gives the 8.0 signature), so the
    // entry stays missing and its compat sibling, if any, is used.
    if (e.version > version) continue;
    void* fn = nullptr;
    if (resolve(e.name, e.version, &fn) == CUDA_SUCCESS) *const_cast<void**>(e.slot) = fn;
  }
  if (version >= kMinimumDriverVersion) report_missing_entries(path, version);

  if (version < kMinimumDriverVersion) {
    g_state.status = DC_ERROR_NOT_SUPPORTED;
    g_state.message = strf("the driver at %s supports CUDA %s; dccuda needs CUDA 12.0 or newer (driver R525+): update "
                           "the NVIDIA driver",
                           path.c_str(), cuda_version_string(version).c_str());
    return;
  }
  g_state.status = DC_SUCCESS;
  g_state.cuda_result = init;
  DC_LOG(DC_LOG_INFO, "driver", "loaded the CUDA driver %s (CUDA %s)", path.c_str(), cuda_version_string(version).c_str());
}

}  // namespace

std::span<const DriverEntry> driver_entries() noexcept { return g_entries; }


const DriverState& driver_state() {
  // The settings first: a malformed one fails here. No exception may cross
  // call_once (pthread_once's C frames abort the unwinder).
  config();
  std::call_once(g_once, load);
  return g_state;
}

void require_driver() {
  const DriverState& s = driver_state();
  if (s.status != DC_SUCCESS) fail_cuda(s.status, s.cuda_result, "%s", s.message.c_str());
}

std::string cuda_version_string(int32_t version) {
  return strf("%d.%d", version / 1000, (version % 1000) / 10);
}

int driver_entry_version(const char* name) noexcept {
  for (const DriverEntry& e : g_entries)
    if (!e.compat && std::strcmp(e.name, name) == 0) return e.version;
  return 0;
}

}  // namespace dc
