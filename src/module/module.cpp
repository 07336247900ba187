#include "module/module.h"

#include <algorithm>
#include <cstring>
#include <memory>

#include "compile/arch.h"
#include "core/args.h"
#include "core/error.h"
#include "core/status.h"
#include "device/cuda_check.h"
#include "device/quiet_context.h"
#include "loader/driver.h"
#include "module/elf_parse.h"
#include "module/function.h"
#include "module/image.h"
#include "module/jit_options.h"

namespace dc {
namespace {

[[noreturn]] void fail_load(CUresult r, const PreparedImage& image, const Device& device, std::string error_log) {
  const char* kind = image_kind_name(image.kind);
  std::string line = jit_log_error_line(error_log);
  std::string log_note = error_log.empty() ? std::string() : "; the JIT error log is in dc_last_error_detail()";
  int32_t sm = device.limits().compute_major * 10 + device.limits().compute_minor;
  set_error_detail(std::move(error_log));
  if (r == CUDA_ERROR_UNSUPPORTED_PTX_VERSION) {
    int32_t isa = image.kind == ImageKind::Ptx ? ptx_isa_version(image.data, image.size) : 0;
    int32_t driver = driver_state().version;
    int32_t max_isa = driver_max_ptx_isa(driver);
    fail_cuda(DC_ERROR_INVALID_IMAGE, r,
              "the PTX%s is newer than the installed driver (CUDA %s%s) can load "
              "(CUDA_ERROR_UNSUPPORTED_PTX_VERSION): it was made by a newer CUDA toolkit or NVRTC than the driver; "
              "compile to a CUBIN (DC_OUTPUT_CUBIN) or update the NVIDIA driver%s",
              isa ? (" (ISA " + dotted_version(isa) + ")").c_str() : "", cuda_version_string(driver).c_str(),
              max_isa ? (", PTX ISA up to " + dotted_version(max_isa)).c_str() : "", log_note.c_str());
  }
  if (r == CUDA_ERROR_NO_BINARY_FOR_GPU) {
    int32_t built = image.kind == ImageKind::Cubin ? cubin_arch(image.data, image.size) : 0;
    fail_cuda(DC_ERROR_INVALID_IMAGE, r, "the %s has no code device %d (sm_%d) can run%s; compile for this device "
              "(dc_compile with the device and options->arch = 0) or include PTX%s",
              kind, device.ordinal(), sm, built ? (": it was built for sm_" + std::to_string(built)).c_str() : "",
              log_note.c_str());
  }
  fail_cuda(DC_ERROR_INVALID_IMAGE, r, "the driver rejected the %s (%s)%s%s%s", kind, cuda_error_name(r),
            line.empty() ? "" : ": ", line.c_str(), log_note.c_str());
}

}  // namespace

bool driver_describes_functions() {
  const DriverApi& api = driver_api();
  return present(api.cuModuleGetFunctionCount) && present(api.cuModuleEnumerateFunctions) &&
         present(api.cuFuncGetName) && present(api.cuFuncGetParamInfo);
}

Ref<Module> Module::load(Ref<Device> device, const void* image, size_t size, const dc_module_options* options) {
  require_arg(image, "image");
  if (size == 0) fail(DC_ERROR_INVALID_ARGUMENT, "size is 0; pass the image's size in bytes");
  LoadOptions o = validate_load_options(options);
  device->check_usable();
  PreparedImage prepared = prepare_image(image, size);

  LogBuffer info_log(o.log_size), error_log(o.log_size);
  JitOptionList jit = jit_option_list(o, prepared.kind == ImageKind::Ptx, info_log, error_log);
  std::vector<CUjit_option>& keys = jit.keys;
  std::vector<void*>& values = jit.values;

  ContextScope bind(*device);
  CUmodule module = nullptr;
  CUresult r = driver_api().cuModuleLoadDataEx(&module, prepared.data, static_cast<unsigned>(keys.size()),
                                               keys.data(), values.data());
  if (r != CUDA_SUCCESS) {
    if (status_from_cuda(r) == DC_ERROR_INVALID_IMAGE) fail_load(r, prepared, *device, trimmed(error_log));
    check(r, "cuModuleLoadDataEx", device.get(),
          r == CUDA_ERROR_OUT_OF_MEMORY ? "the device has no room for the module's code and globals" : nullptr);
  }
  try {
    bool read_image = !driver_describes_functions();
    std::vector<ImageKernel> kernels;
    if (read_image) kernels = image_kernels(prepared);
    return Ref<Module>::adopt(new Module(std::move(device), module, trimmed(info_log), std::move(kernels), read_image));
  } catch (...) {
    driver_api().cuModuleUnload(module);
    throw;
  }
}

Module::Module(Ref<Device> device, CUmodule module, std::string jit_log, std::vector<ImageKernel> image_kernels,
               bool image_read)
    : DeviceObject(kHandleType, std::move(device)),
      module_(module),
      jit_log_(std::move(jit_log)),
      image_kernels_(std::move(image_kernels)),
      image_read_(image_read) {}

Module::~Module() {
  // A module made before dc_device_reset died with its context: nothing to free.
  if (!current()) return;
  QuietContextScope bind(device());
  if (bind.ok()) release_quietly([&] { return driver_api().cuModuleUnload(module_); });
}

const std::vector<std::string>& Module::function_names() {
  std::lock_guard<std::mutex> lock(names_mutex_);
  if (names_ready_) return names_;
  std::vector<std::string> names;
  if (image_read_) {
    for (const ImageKernel& k : image_kernels_) names.push_back(k.name);
  } else {
    check_usable();
    const DriverApi& api = driver_api();
    ContextScope bind(device());
    unsigned int count = 0;
    check(api.cuModuleGetFunctionCount(&count, module_), "cuModuleGetFunctionCount", &device());
    std::vector<CUfunction> functions(count);
    if (count) check(api.cuModuleEnumerateFunctions(functions.data(), count, module_), "cuModuleEnumerateFunctions",
                     &device());
    for (CUfunction f : functions) {
      const char* name = nullptr;
      check(api.cuFuncGetName(&name, f), "cuFuncGetName", &device());
      if (name) names.emplace_back(name);
    }
  }
  names_ = std::move(names);
  names_ready_ = true;
  return names_;
}

ParamLayout Module::image_layout(const std::string& name) const {
  for (const ImageKernel& k : image_kernels_)
    if (k.name == name) return k.layout;
  return {};
}

void Module::fail_missing_function(const char* name) {
  std::string list;
  std::string hint;
  size_t count = 0;
  try {
    const std::vector<std::string>& names = function_names();
    count = names.size();
    constexpr size_t kShown = 32;
    for (size_t i = 0; i < names.size() && i < kShown; ++i) {
      list += i ? ", " : "";
      list += names[i];
    }
    if (names.size() > kShown) list += strf(" and %zu more", names.size() - kShown);
    // An unmangled C++ name: point at the mangled one.
    if (std::string(name).rfind("_Z", 0) != 0)
      for (const std::string& n : names)
        if (n.rfind("_Z", 0) == 0 && n.find(name) != std::string::npos) {
          hint = "; C++ kernel names are mangled (" + n + "): declare the kernel extern \"C\", or pass a name "
                 "expression to dc_compile and use dc_program_lowered_name";
          break;
        }
  } catch (const Failure&) {
    list = "(the kernels could not be listed)";
    count = 1;
  }
  const char* none = image_read_ ? "its kernels cannot be listed (a driver older than CUDA 12.4 cannot, and the "
                                   "image does not declare them readably)"
                                 : "it has no kernels";
  fail(DC_ERROR_NOT_FOUND, "the module has no kernel \"%s\"; %s%s%s", name, count ? "it has: " : none,
       list.c_str(), hint.c_str());
}

Ref<Function> Module::get_function(const char* name) {
  if (!*name) fail(DC_ERROR_INVALID_ARGUMENT, "name is empty; pass a kernel's name");
  check_usable();
  const DriverApi& api = driver_api();
  CUfunction f = nullptr;
  ParamLayout layout;
  int32_t max_dynamic = 0;
  {
    ContextScope bind(device());
    CUresult r = api.cuModuleGetFunction(&f, module_, name);
    if (r == CUDA_ERROR_NOT_FOUND) fail_missing_function(name);
    check(r, "cuModuleGetFunction", &device());
    layout = driver_param_layout(f, &device());
    if (!layout.known && image_read_) layout = image_layout(name);
    int v = 0;
    check(api.cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, f), "cuFuncGetAttribute",
          &device());
    max_dynamic = v;
  }
  return make_ref<Function>(Ref<Object>(Ref<Module>::share(this)), device_ref(), f, name, std::move(layout), max_dynamic);
}

}  // namespace dc
