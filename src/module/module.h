// A loaded module (dc_module): a CUmodule on a device's primary context.
#pragma once

#include "loader/cuda_abi/driver_abi.h"

#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include "core/handle_table.h"
#include "dccuda.h"
#include "device/device.h"
#include "module/jit_options.h"
#include "module/param_layout.h"
#include "module/ptx_parse.h"

namespace dc {

class Function;

class Module : public DeviceObject {
 public:
  static constexpr HandleType kHandleType = HandleType::Module;

  // Loads `image` (PTX, CUBIN or fatbin; the bytes are not kept) on `device`.
  // `options` may be null. Fails with DC_ERROR_INVALID_IMAGE (the JIT error
  // log in dc_last_error_detail) and the driver's other errors.
  static Ref<Module> load(Ref<Device> device, const void* image, size_t size, const dc_module_options* options);
  ~Module() override;

  CUmodule cu_module() const noexcept { return module_; }
  const std::string& jit_log() const noexcept { return jit_log_; }

  // The kernels the module has: from the driver (12.4+), else read from the
  // image. Computed once; the strings live as long as the module.
  const std::vector<std::string>& function_names();

  // Looks up kernel `name`; a missing one is DC_ERROR_NOT_FOUND listing the
  // kernels the module has.
  Ref<Function> get_function(const char* name);

  // The layout the image declares for kernel `name` (used where the driver
  // has no cuFuncGetParamInfo); unknown if the image was not read.
  ParamLayout image_layout(const std::string& name) const;

 private:
  Module(Ref<Device> device, CUmodule module, std::string jit_log, std::vector<ImageKernel> image_kernels,
         bool image_read);
  [[noreturn]] void fail_missing_function(const char* name);

  CUmodule module_;
  std::string jit_log_;
  // Only read from the image when the driver cannot answer (before 12.4).
  std::vector<ImageKernel> image_kernels_;
  bool image_read_;
  std::mutex names_mutex_;
  bool names_ready_ = false;
  std::vector<std::string> names_;
};

// Whether the driver can enumerate a module's kernels and report parameter
// layouts itself (CUDA 12.4+); otherwise the image is read at load.
bool driver_describes_functions();

}  // namespace dc
