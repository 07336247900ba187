// Entry points: the virtual memory pieces (dc_vmm_*), checked by
// memory/vmm_pieces.h before the driver sees them.
#include "dccuda.h"

#include "core/args.h"
#include "core/fork_guard.h"
#include "core/guard.h"
#include "device/device.h"
#include "memory/vmm_pieces.h"
#include "stream/host_callback.h"

using namespace dc;

namespace {

// Pins the device, refuses the call in a host function, checks the device and binds it.
template <class Body>
dc_status on_device(dc_device device, Body&& body) {
  forbid_after_fork();
  Pinned<Device> d = pin<Device>(device, "device");
  forbid_in_host_callback();
  d->check_usable();
  ContextScope bind(*d);
  body(*d);
  return DC_SUCCESS;
}

}  // namespace

extern "C" {

DC_API dc_status dc_vmm_reserve(dc_device device, uint64_t size, uint64_t alignment, uint64_t* address) {
  return guarded("dc_vmm_reserve", [&] {
    clear_out(address);
    return on_device(device, [&](Device& d) {
      require_arg(address, "address");
      *address = vmm::reserve(d, size, alignment);
    });
  });
}

DC_API dc_status dc_vmm_free(dc_device device, uint64_t address, uint64_t size) {
  return guarded("dc_vmm_free", [&] { return on_device(device, [&](Device& d) { vmm::free(d, address, size); }); });
}

DC_API dc_status dc_vmm_create(dc_device device, uint64_t size, uint64_t* handle) {
  return guarded("dc_vmm_create", [&] {
    clear_out(handle);
    return on_device(device, [&](Device& d) {
      require_arg(handle, "handle");
      *handle = vmm::create(d, size);
    });
  });
}

DC_API dc_status dc_vmm_release(dc_device device, uint64_t handle) {
  return guarded("dc_vmm_release", [&] { return on_device(device, [&](Device& d) { vmm::release(d, handle); }); });
}

DC_API dc_status dc_vmm_map(dc_device device, uint64_t address, uint64_t size, uint64_t handle) {
  return guarded("dc_vmm_map",
                 [&] { return on_device(device, [&](Device& d) { vmm::map(d, address, size, handle); }); });
}

DC_API dc_status dc_vmm_unmap(dc_device device, uint64_t address, uint64_t size) {
  return guarded("dc_vmm_unmap", [&] { return on_device(device, [&](Device& d) { vmm::unmap(d, address, size); }); });
}

DC_API dc_status dc_vmm_set_access(dc_device device, uint64_t address, uint64_t size, dc_device accessor,
                                   int32_t access) {
  return guarded("dc_vmm_set_access", [&] {
    forbid_after_fork();
    Pinned<Device> a = pin<Device>(accessor, "accessor");
    a->check_usable();
    return on_device(device, [&](Device& d) { vmm::set_access(d, address, size, *a, access); });
  });
}

}  // extern "C"
