#include "module/library.h"

#include "core/args.h"
#include "core/error.h"
#include "core/status.h"
#include "device/cuda_check.h"
#include "device/quiet_context.h"
#include "loader/driver.h"
#include "module/function.h"
#include "module/image.h"
#include "module/jit_options.h"

namespace dc {

bool driver_describes_library() {
  const DriverApi& api = driver_api();
  return present(api.cuLibraryGetKernelCount) && present(api.cuLibraryEnumerateKernels) &&
         present(api.cuKernelGetName) && present(api.cuFuncGetParamInfo);
}

Ref<Library> Library::load(const void* image, size_t size, const dc_module_options* options) {
  require_arg(image, "image");
  if (size == 0) fail(DC_ERROR_INVALID_ARGUMENT, "size is 0; pass the image's size in bytes");
  LoadOptions o = validate_load_options(options);
  require_driver();
  const DriverApi& api = driver_api();
  // Every entry point a library needs came with CUDA 12.0; a driver without
  // them can still load the image per device.
  if (!present(api.cuLibraryLoadData) || !present(api.cuLibraryGetKernel) || !present(api.cuKernelGetFunction) ||
      !present(api.cuLibraryUnload))
    fail(DC_ERROR_NOT_SUPPORTED, "the installed driver (CUDA %s) has no context-independent libraries: each of "
         "cuLibraryLoadData, cuLibraryGetKernel, cuKernelGetFunction and cuLibraryUnload needs a driver for CUDA "
         "12.0 or newer; update the NVIDIA driver, or load the image on each device with dc_module_load",
         cuda_version_string(driver_state().version).c_str());
  PreparedImage prepared = prepare_image(image, size);

  LogBuffer info_log(o.log_size), error_log(o.log_size);
  JitOptionList jit = jit_option_list(o, prepared.kind == ImageKind::Ptx, info_log, error_log);
  CUlibrary library = nullptr;
  CUresult r = api.cuLibraryLoadData(&library, prepared.data, jit.keys.data(), jit.values.data(),
                                     static_cast<unsigned>(jit.keys.size()), nullptr, nullptr, 0);
  if (r != CUDA_SUCCESS) {
    if (status_from_cuda(r) == DC_ERROR_INVALID_IMAGE) {
      std::string log = trimmed(error_log);
      std::string line = jit_log_error_line(log);
      const char* note = log.empty() ? "" : "; the JIT error log is in dc_last_error_detail()";
      set_error_detail(log);
      fail_cuda(DC_ERROR_INVALID_IMAGE, r, "the driver rejected the %s (%s)%s%s%s", image_kind_name(prepared.kind),
                cuda_error_name(r), line.empty() ? "" : ": ", line.c_str(), note);
    }
    check(r, "cuLibraryLoadData", nullptr,
          r == CUDA_ERROR_OUT_OF_MEMORY ? "there is no room for the library's code" : nullptr);
  }
  try {
    bool read_image = !driver_describes_library();
    std::vector<ImageKernel> kernels;
    if (read_image) kernels = image_kernels(prepared);
    return Ref<Library>::adopt(new Library(library, std::move(kernels), read_image));
  } catch (...) {
    api.cuLibraryUnload(library);
    throw;
  }
}

Library::Library(CUlibrary library, std::vector<ImageKernel> image_kernels, bool image_read)
    : Object(kHandleType), library_(library), image_kernels_(std::move(image_kernels)), image_read_(image_read) {}

Library::~Library() {
  // Context-independent: unloading needs no context, and it also unloads the
  // code from every context it was loaded into.
  release_quietly([&] { return driver_api().cuLibraryUnload(library_); });
}

const std::vector<std::string>& Library::function_names() {
  std::lock_guard<std::mutex> lock(names_mutex_);
  if (names_ready_) return names_;
  std::vector<std::string> names;
  if (image_read_) {
    for (const ImageKernel& k : image_kernels_) names.push_back(k.name);
  } else {
    const DriverApi& api = driver_api();
    unsigned int count = 0;
    check(api.cuLibraryGetKernelCount(&count, library_), "cuLibraryGetKernelCount");
    std::vector<CUkernel> kernels(count);
    if (count) check(api.cuLibraryEnumerateKernels(kernels.data(), count, library_), "cuLibraryEnumerateKernels");
    for (CUkernel k : kernels) {
      const char* name = nullptr;
      check(api.cuKernelGetName(&name, k), "cuKernelGetName");
      if (name) names.emplace_back(name);
    }
  }
  names_ = std::move(names);
  names_ready_ = true;
  return names_;
}

void Library::fail_missing_function(const char* name) {
  std::string list;
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
  } catch (const Failure&) {
    list = "(the kernels could not be listed)";
    count = 1;
  }
  fail(DC_ERROR_NOT_FOUND, "the library has no kernel \"%s\"; %s%s (C++ kernel names are mangled: declare the "
       "kernel extern \"C\" or use dc_program_lowered_name)", name, count ? "it has: " : "it lists no kernels",
       list.c_str());
}

Ref<Function> Library::get_function(Ref<Device> device, const char* name) {
  if (!*name) fail(DC_ERROR_INVALID_ARGUMENT, "name is empty; pass a kernel's name");
  device->check_usable();
  const DriverApi& api = driver_api();
  CUkernel kernel = nullptr;
  CUresult r = api.cuLibraryGetKernel(&kernel, library_, name);
  if (r == CUDA_ERROR_NOT_FOUND) fail_missing_function(name);
  check(r, "cuLibraryGetKernel");
  CUfunction f = nullptr;
  ParamLayout layout;
  int32_t max_dynamic = 0;
  {
    ContextScope bind(*device);
    // Loads the library's code into this device's context on first use.
    r = api.cuKernelGetFunction(&f, kernel);
    if (r != CUDA_SUCCESS && status_from_cuda(r) == DC_ERROR_INVALID_IMAGE) {
      int32_t sm = device->limits().compute_major * 10 + device->limits().compute_minor;
      fail_cuda(DC_ERROR_INVALID_IMAGE, r, "the library has no code device %d (sm_%d) can run for kernel \"%s\" "
                "(%s); compile for this device or include PTX", device->ordinal(), sm, name, cuda_error_name(r));
    }
    check(r, "cuKernelGetFunction", device.get());
    layout = driver_param_layout(f, device.get());
    if (!layout.known && image_read_)
      for (const ImageKernel& k : image_kernels_)
        if (k.name == name) layout = k.layout;
    int v = 0;
    check(api.cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, f), "cuFuncGetAttribute",
          device.get());
    max_dynamic = v;
  }
  return make_ref<Function>(Ref<Object>(Ref<Library>::share(this)), std::move(device), f, name, std::move(layout),
                            max_dynamic);
}

}  // namespace dc
