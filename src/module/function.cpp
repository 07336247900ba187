#include "module/function.h"

#include <cstring>

#include "core/args.h"
#include "core/error.h"
#include "device/cuda_check.h"
#include "loader/driver.h"

namespace dc {

ParamLayout driver_param_layout(CUfunction function, Device* device) {
  const DriverApi& api = driver_api();
  ParamLayout layout;
  if (!present(api.cuFuncGetParamInfo)) return layout;
  // The driver has no parameter count query (CUDA 13.0 neither): ask index
  // by index until it says the index is past the end (CUDA_ERROR_INVALID_VALUE,
  // which compute-sanitizer lists as an API error: expected, one per function).
  constexpr size_t kMaxParams = 1u << 16;
  for (size_t i = 0; i < kMaxParams; ++i) {
    size_t offset = 0, size = 0;
    CUresult r = api.cuFuncGetParamInfo(function, i, &offset, &size);
    if (r == CUDA_ERROR_INVALID_VALUE) {
      layout.known = true;
      return layout;
    }
    // The driver cannot describe this kernel: its layout is unknown. Any other
    // failure is reported: a layout quietly lost would leave every launch of
    // the function unchecked.
    if (r == CUDA_ERROR_NOT_SUPPORTED) return {};
    check(r, "cuFuncGetParamInfo", device);
    if (offset > UINT32_MAX || size > UINT32_MAX) return {};
    ParamInfo p{static_cast<uint32_t>(offset), static_cast<uint32_t>(size)};
    layout.params.push_back(p);
    if (p.offset + p.size > layout.total_bytes) layout.total_bytes = p.offset + p.size;
  }
  return {};
}

Function::Function(Ref<Object> code, Ref<Device> device, CUfunction function, std::string name, ParamLayout layout,
                   int32_t max_dynamic_shared_bytes)
    : DeviceObject(kHandleType, std::move(device)),
      code_(std::move(code)),
      function_(function),
      name_(std::move(name)),
      layout_(std::move(layout)),
      max_dynamic_shared_(max_dynamic_shared_bytes) {}

// Checked before the cast: a value outside the enumeration is undefined behaviour in C++.
static void require_function_attribute(int32_t attribute) {
  if (attribute < 0 || attribute >= CU_FUNC_ATTRIBUTE_MAX)
    fail(DC_ERROR_INVALID_ARGUMENT, "attribute %d is not a CUfunction_attribute (0..%d in the CUDA %d.%d headers "
         "dccuda was built with); use a CU_FUNC_ATTRIBUTE_* value from cuda.h", attribute, CU_FUNC_ATTRIBUTE_MAX - 1,
         CUDA_VERSION / 1000, (CUDA_VERSION % 1000) / 10);
}

int32_t Function::attribute(int32_t attribute) const {
  require_function_attribute(attribute);
  check_usable();
  ContextScope bind(device());
  int v = 0;
  CUresult r = driver_api().cuFuncGetAttribute(&v, static_cast<CUfunction_attribute>(attribute), function_);
  if (r == CUDA_ERROR_INVALID_VALUE)
    fail_cuda(DC_ERROR_INVALID_ARGUMENT, r, "attribute %d is not a CUfunction_attribute this driver knows; use a "
              "CU_FUNC_ATTRIBUTE_* value from cuda.h", attribute);
  check(r, "cuFuncGetAttribute", &device());
  return v;
}

int32_t Function::query(CUfunction_attribute attribute) const {
  check_usable();
  ContextScope bind(device());
  int v = 0;
  // The library chose the attribute: any refusal is the driver's failure, not the caller's.
  check(driver_api().cuFuncGetAttribute(&v, attribute, function_), "cuFuncGetAttribute", &device());
  return v;
}

void Function::set_attribute(int32_t attr, int32_t value) {
  require_function_attribute(attr);
  check_usable();
  if (attr == CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES) {
    if (value < 0) fail(DC_ERROR_INVALID_ARGUMENT, "value %d: a shared memory size cannot be negative", value);
    int32_t static_bytes = query(CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES);
    int32_t optin = device().limits().max_shared_per_block_optin;
    if (optin > 0 && value > optin - static_bytes)
      fail(DC_ERROR_INVALID_ARGUMENT, "%s: %d bytes of dynamic shared memory exceed device %d's limit of %d (%d "
           "bytes per block with opt-in, minus %d bytes of static shared memory)", name_.c_str(), value,
           device().ordinal(), optin - static_bytes, optin, static_bytes);
  } else if (attr == CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT) {
    if (value < -1 || value > 100)
      fail(DC_ERROR_INVALID_ARGUMENT, "value %d: the shared memory carveout is a percentage, 0..100, or -1 for no "
           "preference", value);
  }
  ContextScope bind(device());
  CUresult r = driver_api().cuFuncSetAttribute(function_, static_cast<CUfunction_attribute>(attr), value);
  if (r == CUDA_ERROR_INVALID_VALUE)
    fail_cuda(DC_ERROR_INVALID_ARGUMENT, r, "%s: the driver refused attribute %d = %d (it is read-only, unknown, or "
              "the value is out of range)", name_.c_str(), attr, value);
  check(r, "cuFuncSetAttribute", &device());
  if (attr == CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES)
    max_dynamic_shared_.store(value, std::memory_order_release);
}

void Function::set_cache_config(int32_t preference) {
  check_usable();
  if (preference < DC_CACHE_PREFER_NONE || preference > DC_CACHE_PREFER_EQUAL)
    fail(DC_ERROR_INVALID_ARGUMENT, "preference is %d; use DC_CACHE_PREFER_NONE, _SHARED, _L1 or _EQUAL (0..3)",
         preference);
  ContextScope bind(device());
  check(driver_api().cuFuncSetCacheConfig(function_, static_cast<CUfunc_cache>(preference)), "cuFuncSetCacheConfig",
        &device());
}

void Function::fill_info(dc_function_info* info) const {
  // Only the fields of the first published struct: callers built against a
  // larger one keep their extra fields.
  dc_function_info out = DC_FUNCTION_INFO_INIT;
  out.struct_size = info->struct_size;
  out.num_registers = query(CU_FUNC_ATTRIBUTE_NUM_REGS);
  out.max_threads_per_block = query(CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
  out.static_shared_bytes = query(CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES);
  out.max_dynamic_shared_bytes = query(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES);
  out.local_bytes = query(CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES);
  out.const_bytes = query(CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES);
  out.ptx_version = query(CU_FUNC_ATTRIBUTE_PTX_VERSION);
  out.binary_version = query(CU_FUNC_ATTRIBUTE_BINARY_VERSION);
  out.num_params = layout_.known ? static_cast<int32_t>(layout_.params.size()) : -1;
  out.params_bytes = layout_.known ? layout_.total_bytes : 0;
  std::memcpy(info, &out, sizeof out);
}

}  // namespace dc
