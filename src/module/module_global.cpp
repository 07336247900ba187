// A module global as a buffer: the memory code's Buffer over the variable,
// owning nothing, with the module as its keep-alive owner.
#include "module/module_global.h"

#include "core/error.h"
#include "device/cuda_check.h"
#include "device/device.h"
#include "loader/driver.h"
#include "memory/buffer.h"

namespace dc {

Ref<Object> make_module_global_buffer(Ref<Module> module, const char* name) {
  module->check_usable();
  CUdeviceptr address = 0;
  size_t size = 0;
  {
    ContextScope bind(module->device());
    CUresult r = driver_api().cuModuleGetGlobal(&address, &size, module->cu_module(), name);
    if (r == CUDA_ERROR_NOT_FOUND)
      fail_cuda(DC_ERROR_NOT_FOUND, r, "the module has no __device__ or __constant__ variable \"%s\"; variables "
                "in C++ namespaces have mangled names: declare it extern \"C\", or pass \"&%s\" as a name "
                "expression to dc_compile and use dc_program_lowered_name", name, name);
    check(r, "cuModuleGetGlobal", &module->device());
  }
  Ref<Device> device = module->device_ref();
  return Buffer::wrap_module_global(std::move(device), address, size, Ref<Object>(std::move(module)));
}

}  // namespace dc
