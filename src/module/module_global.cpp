// A module global as a buffer: the memory code's Buffer over the variable,
// owning nothing, with the module as its keep-alive owner.
#include "module/module_global.h"

#include "memory/buffer.h"

namespace dc {

Ref<Object> make_module_global_buffer(Ref<Module> module, CUdeviceptr address, size_t size) {
  Ref<Device> device = module->device_ref();
  return Buffer::wrap_module_global(std::move(device), address, size, Ref<Object>(std::move(module)));
}

}  // namespace dc
