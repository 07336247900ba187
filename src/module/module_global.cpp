// The module-global buffer until the memory code's buffer class takes over
// (see module_global.h): a non-owning object that keeps the module alive.
#include "module/module_global.h"

#include "core/handle_table.h"

namespace dc {
namespace {

class ModuleGlobalBuffer : public DeviceObject {
 public:
  ModuleGlobalBuffer(Ref<Module> module, CUdeviceptr address, size_t size)
      : DeviceObject(HandleType::Buffer, module->device_ref()),
        module_(std::move(module)),
        address_(address),
        size_(size) {}

 private:
  Ref<Module> module_;  // the variable lives as long as its module is loaded
  CUdeviceptr address_;
  size_t size_;
};

}  // namespace

Ref<Object> make_module_global_buffer(Ref<Module> module, CUdeviceptr address, size_t size) {
  return make_ref<ModuleGlobalBuffer>(std::move(module), address, size);
}

}  // namespace dc
