// A context-independent library (dc_library): an image loaded once for the
// process as a cuLibrary (CUDA 12.0+), whose kernels become dc_functions on
// any device (cuKernelGetFunction in that device's context).
#pragma once

#include "loader/cuda_abi/driver_abi.h"

#include <mutex>
#include <string>
#include <vector>

#include "core/object.h"
#include "dccuda.h"
#include "device/device.h"
#include "module/ptx_parse.h"

namespace dc {

class Function;

class Library : public Object {
 public:
  static constexpr HandleType kHandleType = HandleType::Library;

  // Loads `image` (PTX, CUBIN or fatbin; checked, then copied by the driver).
  // `options` may be null. Fails with DC_ERROR_NOT_SUPPORTED on a driver
  // without cuLibrary, DC_ERROR_INVALID_IMAGE (the JIT log in
  // dc_last_error_detail) and the driver's other errors.
  static Ref<Library> load(const void* image, size_t size, const dc_module_options* options);
  ~Library() override;

  CUlibrary cu_library() const noexcept { return library_; }

  // The kernels the library has: from the driver (12.4+), else read from the
  // image. Computed once; the strings live as long as the library.
  const std::vector<std::string>& function_names();

  // Kernel `name` as a function on `device`; a missing one is
  // DC_ERROR_NOT_FOUND listing the kernels the library has.
  Ref<Function> get_function(Ref<Device> device, const char* name);

 private:
  Library(CUlibrary library, std::vector<ImageKernel> image_kernels, bool image_read);
  [[noreturn]] void fail_missing_function(const char* name);

  CUlibrary library_;
  // Only read from the image when the driver cannot answer (before 12.4).
  std::vector<ImageKernel> image_kernels_;
  bool image_read_;
  std::mutex names_mutex_;
  bool names_ready_ = false;
  std::vector<std::string> names_;
};

// Whether the driver can enumerate a library's kernels and report parameter
// layouts itself (CUDA 12.4+); otherwise the image is read at load.
bool driver_describes_library();

}  // namespace dc
