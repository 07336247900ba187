#include "compile/arch.h"

#include <algorithm>
#include <cstring>
#include <mutex>

#include "compile/compile_request.h"
#include "core/error.h"
#include "device/device.h"
#include "loader/nvrtc.h"

namespace dc {
namespace {

std::string arch_list(const std::vector<int32_t>& archs) {
  std::string s;
  for (int32_t a : archs) {
    if (!s.empty()) s += ", ";
    s += std::to_string(a);
  }
  return s;
}

}  // namespace

const std::vector<int32_t>& nvrtc_supported_archs() {
  static std::once_flag once;
  static std::vector<int32_t> archs;
  nvrtc_state();  // outside call_once: it may fail (a malformed setting), and no exception may cross call_once
  std::call_once(once, [] {
    const NvrtcApi& api = nvrtc_api();
    if (nvrtc_state().status != DC_SUCCESS || !api.nvrtcGetNumSupportedArchs || !api.nvrtcGetSupportedArchs) return;
    int n = 0;
    if (api.nvrtcGetNumSupportedArchs(&n) != NVRTC_SUCCESS || n <= 0 || n > 4096) return;
    std::vector<int> raw(static_cast<size_t>(n));
    if (api.nvrtcGetSupportedArchs(raw.data()) != NVRTC_SUCCESS) return;
    archs.assign(raw.begin(), raw.end());
    std::sort(archs.begin(), archs.end());
  });
  return archs;
}

int32_t requested_arch(int32_t requested, int32_t output, const Device* device) {
  if (requested != 0) {
    if (requested < 10 || requested > 9999)
      fail(DC_ERROR_INVALID_ARGUMENT, "options->arch is %d; give 10 * major + minor (90 for sm_90) or 0 for the "
           "device's own", requested);
    return requested;
  }
  if (device) return device->limits().compute_major * 10 + device->limits().compute_minor;
  if (output == DC_OUTPUT_CUBIN)
    fail(DC_ERROR_INVALID_ARGUMENT, "a CUBIN needs a target architecture: pass a device, or set options->arch "
         "(e.g. 90 for sm_90)");
  return 0;  // PTX and LTO-IR: NVRTC's default virtual architecture
}

bool settle_arch(CompileRequest& r) {
  const std::vector<int32_t>& supported = nvrtc_supported_archs();
  if (r.arch == 0 || supported.empty() || std::binary_search(supported.begin(), supported.end(), r.arch))
    return false;
  const NvrtcState& nvrtc = nvrtc_state();
  if (r.device_ordinal < 0)
    fail(DC_ERROR_NOT_SUPPORTED, "options->arch %d (sm_%d) is not a target NVRTC %d.%d supports (%s); pick one "
         "of these or use another NVRTC (DCCUDA_NVRTC_LIBRARY)", r.arch, r.arch, nvrtc.major, nvrtc.minor,
         arch_list(supported).c_str());
  // A device newer than this NVRTC: the newest code it can still run.
  int32_t own = r.arch;
  int32_t best = 0;
  for (int32_t a : supported) {
    bool usable = r.output == DC_OUTPUT_CUBIN ? (a / 10 == own / 10 && a <= own) : a <= own;
    if (usable) best = a;
  }
  if (!best || r.arch_specific)
    fail(DC_ERROR_NOT_SUPPORTED, "device %d is sm_%d, for which NVRTC %d.%d cannot make %s (it targets %s); use a "
         "newer NVRTC (DCCUDA_NVRTC_LIBRARY)%s", r.device_ordinal, own, nvrtc.major, nvrtc.minor,
         r.output == DC_OUTPUT_CUBIN ? "a CUBIN" : "code", arch_list(supported).c_str(),
         r.output == DC_OUTPUT_CUBIN ? " or compile to PTX (DC_OUTPUT_PTX)" : "");
  r.arch = best;
  return true;
}

int32_t driver_max_ptx_isa(int32_t driver_version) {
  // CUDA release -> the PTX ISA its driver accepts (PTX ISA release notes).
  static const struct {
    int32_t driver;
    int32_t isa;
  } kTable[] = {{12000, 80}, {12010, 81}, {12020, 82}, {12030, 83}, {12040, 84}, {12050, 85},
                {12060, 85}, {12080, 87}, {12090, 88}, {13000, 90}};
  constexpr size_t n = sizeof kTable / sizeof kTable[0];
  if (driver_version < kTable[0].driver) return 0;
  // Newer than the table: this library predates the driver; do not guess.
  if (driver_version >= kTable[n - 1].driver + 10) return 0;
  int32_t isa = 0;
  for (const auto& row : kTable)
    if (row.driver <= driver_version) isa = row.isa;
  return isa;
}

int32_t ptx_isa_version(const void* ptx, size_t size) {
  const char* p = static_cast<const char*>(ptx);
  const char* end = p + size;
  static const char kKey[] = ".version";
  for (const char* q = p; q + sizeof kKey < end; ++q) {
    q = static_cast<const char*>(std::memchr(q, '.', static_cast<size_t>(end - q)));
    if (!q || q + sizeof kKey >= end) return 0;
    if (std::memcmp(q, kKey, sizeof kKey - 1) != 0 || (q > p && q[-1] != '\n' && q[-1] != ' ' && q[-1] != '\t'))
      continue;
    const char* v = q + sizeof kKey - 1;
    while (v < end && (*v == ' ' || *v == '\t')) ++v;
    int32_t major = 0, minor = 0;
    bool digits = false;
    while (v < end && *v >= '0' && *v <= '9') major = major * 10 + (*v++ - '0'), digits = true;
    if (!digits || v >= end || *v != '.') return 0;
    ++v;
    digits = false;
    while (v < end && *v >= '0' && *v <= '9') minor = minor * 10 + (*v++ - '0'), digits = true;
    if (!digits || major > 99 || minor > 9) return 0;
    return major * 10 + minor;
  }
  return 0;
}

std::string dotted_version(int32_t v) { return std::to_string(v / 10) + "." + std::to_string(v % 10); }

}  // namespace dc
