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

namespace dc {
namespace {

constexpr uint32_t kKnownJitFlags = DC_JIT_LINE_INFO | DC_JIT_DEBUG;
constexpr uint32_t kDefaultLogSize = 16 * 1024;
constexpr uint32_t kMaxLogSize = 64u << 20;

struct LoadOptions {
  uint32_t flags = 0;
  int32_t optimization_level = -1;
  int32_t max_registers = 0;
  uint32_t log_size = kDefaultLogSize;
};

LoadOptions validate(const dc_module_options* o) {
  LoadOptions out;
  if (!o) return out;
  require_struct_size(o->struct_size, kModuleOptionsV1Size, "options", "DC_MODULE_OPTIONS_INIT");
  require_flags(o->flags, kKnownJitFlags, "options->flags", "DC_JIT_*");
  if (o->optimization_level < -1 || o->optimization_level > 4)
    fail(DC_ERROR_INVALID_ARGUMENT, "options->optimization_level is %d; use 0..4, or -1 for the driver's default",
         o->optimization_level);
  if (o->max_registers < 0)
    fail(DC_ERROR_INVALID_ARGUMENT, "options->max_registers is %d; use 0 for no limit or a positive count",
         o->max_registers);
  if (o->log_size > kMaxLogSize)
    fail(DC_ERROR_INVALID_ARGUMENT, "options->log_size is %u bytes, more than the %u allowed", o->log_size,
         kMaxLogSize);
  if (o->reserved != 0) fail(DC_ERROR_INVALID_ARGUMENT, "options->reserved is %u; it must be 0", o->reserved);
  out.flags = o->flags;
  out.optimization_level = o->optimization_level;
  out.max_registers = o->max_registers;
  if (o->log_size) out.log_size = o->log_size;
  return out;
}

void* option_value(uintptr_t v) { return reinterpret_cast<void*>(v); }

// A JIT log buffer: not zero-filled (16 KiB twice per load would cost more
// than a CUBIN load's own overhead); only the first byte is cleared.
struct LogBuffer {
  explicit LogBuffer(uint32_t n) : size(n), data(new char[n]) { data[0] = '\0'; }
  uint32_t size;
  std::unique_ptr<char[]> data;
};

std::string trimmed(const LogBuffer& buffer) {
  std::string s(buffer.data.get(), strnlen(buffer.data.get(), buffer.size));
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' ')) s.pop_back();
  return s;
}

std::string first_line(const std::string& log) {
  size_t nl = log.find('\n');
  std::string line = log.substr(0, nl);
  // Prefer the line that names the error.
  for (size_t start = 0; start < log.size();) {
    size_t end = log.find('\n', start);
    if (end == std::string::npos) end = log.size();
    std::string l = log.substr(start, end - start);
    if (l.find("error") != std::string::npos || l.find("fatal") != std::string::npos) return l;
    start = end + 1;
  }
  return line;
}

[[noreturn]] void fail_load(CUresult r, const PreparedImage& image, const Device& device, std::string error_log) {
  const char* kind = image_kind_name(image.kind);
  std::string line = first_line(error_log);
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
  LoadOptions o = validate(options);
  device->check_usable();
  PreparedImage prepared = prepare_image(image, size);

  LogBuffer info_log(o.log_size), error_log(o.log_size);
  std::vector<CUjit_option> keys = {CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES,
                                    CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  std::vector<void*> values = {info_log.data.get(), option_value(o.log_size), error_log.data.get(),
                               option_value(o.log_size)};
  if (prepared.kind == ImageKind::Ptx) {
    // ptxas's resource report ("Used 12 registers...") is the useful part of the info log.
    keys.push_back(CU_JIT_LOG_VERBOSE);
    values.push_back(option_value(1));
  }
  if (o.flags & DC_JIT_LINE_INFO) {
    keys.push_back(CU_JIT_GENERATE_LINE_INFO);
    values.push_back(option_value(1));
  }
  if (o.flags & DC_JIT_DEBUG) {
    keys.push_back(CU_JIT_GENERATE_DEBUG_INFO);
    values.push_back(option_value(1));
  }
  if (o.optimization_level >= 0) {
    keys.push_back(CU_JIT_OPTIMIZATION_LEVEL);
    values.push_back(option_value(static_cast<uintptr_t>(o.optimization_level)));
  }
  if (o.max_registers > 0) {
    keys.push_back(CU_JIT_MAX_REGISTERS);
    values.push_back(option_value(static_cast<uintptr_t>(o.max_registers)));
  }

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
  return make_ref<Function>(Ref<Module>::share(this), f, name, std::move(layout), max_dynamic);
}

}  // namespace dc
