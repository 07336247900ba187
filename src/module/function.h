// A kernel of a loaded module or library, on one device (dc_function). Everything a launch needs to
// check its arguments is read once, when the function is looked up, so that
// the launch path reads plain fields and never asks the driver.
#pragma once

#include "loader/cuda_abi/driver_abi.h"

#include <atomic>
#include <cstdint>
#include <string>

#include "core/handle_table.h"
#include "dccuda.h"
#include "device/device.h"
#include "module/module.h"
#include "module/param_layout.h"

namespace dc {

class Function : public DeviceObject {
 public:
  static constexpr HandleType kHandleType = HandleType::Function;

  // `code` is what holds the kernel's code (a Module, or a Library on
  // `device`); the function keeps it alive.
  Function(Ref<Object> code, Ref<Device> device, CUfunction function, std::string name, ParamLayout layout,
           int32_t max_dynamic_shared_bytes);

  // --- The interface the launch code uses ---------------------------------
  CUfunction cu_function() const noexcept { return function_; }
  const std::string& name() const noexcept { return name_; }
  // The Module or Library that holds the kernel's code.
  const Ref<Object>& code() const noexcept { return code_; }
  // Device: DeviceObject::device(); check_usable() before using the CUfunction.
  // Whether the parameter count and layout are known (driver 12.4+, or read
  // from the image); when false the count and sizes cannot be checked.
  bool params_known() const noexcept { return layout_.known; }
  uint32_t param_count() const noexcept { return static_cast<uint32_t>(layout_.params.size()); }
  // Offset and size of parameter `index` (< param_count()) in the packed block.
  const ParamInfo& param(uint32_t index) const noexcept { return layout_.params[index]; }
  const ParamLayout& params() const noexcept { return layout_; }
  // Bytes of the packed parameter block (end of the last parameter); 0 if unknown.
  uint32_t params_bytes() const noexcept { return layout_.total_bytes; }
  // The dynamic shared memory a launch may ask for now (changed by
  // set_attribute(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES)).
  int32_t max_dynamic_shared_bytes() const noexcept { return max_dynamic_shared_.load(std::memory_order_acquire); }

  // --- dc_function_* ------------------------------------------------------
  int32_t attribute(int32_t attribute) const;  // the caller's attribute (dc_function_attribute)
  int32_t query(CUfunction_attribute attribute) const;  // one the library asks for
  void set_attribute(int32_t attribute, int32_t value);
  void set_cache_config(int32_t preference);
  void fill_info(dc_function_info* info) const;

 private:
  Ref<Object> code_;
  CUfunction function_;
  std::string name_;
  ParamLayout layout_;
  std::atomic<int32_t> max_dynamic_shared_;
};

// The parameter layout of `function` from cuFuncGetParamInfo; unknown when the
// driver lacks it (before 12.4) or cannot tell.
ParamLayout driver_param_layout(CUfunction function, Device* device = nullptr);

}  // namespace dc
