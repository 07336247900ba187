// The driver's linker (cuLinkCreate / AddData / Complete): dc_link's fallback
// where nvJitLink is absent, or asked for with DC_LINK_USE_DRIVER.
#include <cstring>
#include <memory>

#include "compile/nvjitlink_link.h"
#include "compile/nvrtc_compile.h"
#include "core/error.h"
#include "core/status.h"
#include "device/cuda_check.h"
#include "device/device.h"
#include "device/quiet_context.h"
#include "loader/driver.h"

namespace dc {
namespace {

constexpr uint32_t kLogBytes = 16384;

void* option_value(uintptr_t v) { return reinterpret_cast<void*>(v); }

CUjitInputType input_type(int32_t kind) {
  switch (kind) {
    case DC_LINK_INPUT_CUBIN: return CU_JIT_INPUT_CUBIN;
    case DC_LINK_INPUT_PTX: return CU_JIT_INPUT_PTX;
    case DC_LINK_INPUT_FATBIN: return CU_JIT_INPUT_FATBINARY;
    case DC_LINK_INPUT_OBJECT: return CU_JIT_INPUT_OBJECT;
    default: return CU_JIT_INPUT_LIBRARY;
  }
}

std::string text_of(const char* buffer) {
  std::string s(buffer, strnlen(buffer, kLogBytes));
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' ')) s.pop_back();
  return s;
}

// Destroys the link state however the link ends (the CUBIN is copied out
// first); a failure to destroy cannot be reported, so it is tried twice.
class LinkStateGuard {
 public:
  ~LinkStateGuard() {
    if (state) release_quietly([&] { return driver_api().cuLinkDestroy(state); });
  }
  CUlinkState state = nullptr;
};

}  // namespace

void check_driver_can_link(const LinkRequest& r, const char* why_driver) {
  if (r.has_ltoir() || (r.flags & DC_LINK_LTO))
    fail(DC_ERROR_NOT_SUPPORTED, "%s, and the driver's cuLink cannot link %s; provide nvJitLink", why_driver,
         r.has_ltoir() ? "LTO-IR" : "with link-time optimisation (DC_LINK_LTO)");
  if (!r.options.empty())
    fail(DC_ERROR_NOT_SUPPORTED, "%s, and the driver's cuLink takes no raw nvJitLink options (options->options has "
         "%zu); leave them out or provide nvJitLink", why_driver, r.options.size());
  if (r.device_arch == 0)
    fail(DC_ERROR_NOT_SUPPORTED, "%s, and the driver's cuLink links in a device's context: pass a device", why_driver);
  if (r.arch != r.device_arch)
    fail(DC_ERROR_INVALID_ARGUMENT, "options->arch is %d, but the driver's cuLink links for the device's own "
         "architecture (%d) only (%s); set options->arch to 0 or %d, or provide nvJitLink", r.arch, r.device_arch,
         why_driver, r.device_arch);
}

std::shared_ptr<const CompiledOutput> run_driver_link(const LinkRequest& r, Device& device) {
  device.check_usable();
  std::unique_ptr<char[]> info(new char[kLogBytes]), error(new char[kLogBytes]);
  info[0] = error[0] = '\0';
  std::vector<CUjit_option> keys = {CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES, CU_JIT_ERROR_LOG_BUFFER,
                                    CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES, CU_JIT_LOG_VERBOSE};
  std::vector<void*> values = {info.get(), option_value(kLogBytes), error.get(), option_value(kLogBytes),
                               option_value(1)};
  if (r.optimization_level >= 0) {
    keys.push_back(CU_JIT_OPTIMIZATION_LEVEL);
    values.push_back(option_value(static_cast<uintptr_t>(r.optimization_level)));
  }
  if (r.flags & DC_LINK_DEBUG) {
    keys.push_back(CU_JIT_GENERATE_DEBUG_INFO);
    values.push_back(option_value(1));
  }
  if (r.flags & DC_LINK_LINE_INFO) {
    keys.push_back(CU_JIT_GENERATE_LINE_INFO);
    values.push_back(option_value(1));
  }
  if (r.max_registers > 0) {
    keys.push_back(CU_JIT_MAX_REGISTERS);
    values.push_back(option_value(static_cast<uintptr_t>(r.max_registers)));
  }

  const DriverApi& api = driver_api();
  ContextScope bind(device);
  LinkStateGuard link;
  check(api.cuLinkCreate(static_cast<unsigned>(keys.size()), keys.data(), values.data(), &link.state), "cuLinkCreate",
        &device);
  for (const LinkInput& in : r.inputs) {
    // cuLinkAddData does not write the bytes; its parameter is not const.
    CUresult res = api.cuLinkAddData(link.state, input_type(in.kind), const_cast<uint8_t*>(in.data()), in.size(),
                                     in.name.c_str(), 0, nullptr, nullptr);
    if (res != CUDA_SUCCESS) {
      // Bytes the driver cannot read are the caller's; anything else is the driver's failure.
      if (status_from_cuda(res) != DC_ERROR_INVALID_IMAGE) check(res, "cuLinkAddData", &device);
      std::string log = text_of(error.get());
      std::string first = first_error_line(log);
      set_error_detail(log);
      fail_cuda(DC_ERROR_INVALID_IMAGE, res, "cuLinkAddData refused the input %s (%s, %zu bytes) with %s%s%s; check "
                "that it is of the kind given and made for sm_%d", in.name.c_str(), link_input_kind_name(in.kind),
                in.size(), cuda_error_name(res), first.empty() ? "" : ": ", first.c_str(), r.arch);
    }
  }
  void* cubin = nullptr;
  size_t size = 0;
  CUresult res = api.cuLinkComplete(link.state, &cubin, &size);
  if (res != CUDA_SUCCESS) {
    // A failed link (an undefined symbol...) leaves the linker's error log;
    // without one, the failure is the driver's.
    std::string log = text_of(error.get());
    if (log.empty() && status_from_cuda(res) != DC_ERROR_INVALID_IMAGE) check(res, "cuLinkComplete", &device);
    std::string first = first_error_line(log);
    set_error_detail(log);
    fail_cuda(DC_ERROR_COMPILE, res, "the link failed: cuLinkComplete returned %s%s%s; the full log is in "
              "dc_last_error_detail()", cuda_error_name(res), first.empty() ? "" : ": ", first.c_str());
  }
  if (!cubin || size == 0) fail(DC_ERROR_COMPILE, "the driver's cuLinkComplete gave no CUBIN");
  auto out = std::make_shared<CompiledOutput>();
  out->kind = DC_OUTPUT_CUBIN;
  out->arch = r.arch;
  const uint8_t* b = static_cast<const uint8_t*>(cubin);
  out->image.assign(b, b + size);  // owned by the link state, which dies below
  out->log = text_of(info.get());
  return out;
}

}  // namespace dc
