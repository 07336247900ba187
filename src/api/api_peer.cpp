// Entry points: peer access between devices.
#include "loader/cuda_abi/driver_abi.h"

#include "core/args.h"
#include "core/fork_guard.h"
#include "core/guard.h"
#include "dccuda.h"
#include "device/cuda_check.h"
#include "device/device.h"
#include "loader/driver.h"
#include "memory/memory_state.h"
#include "stream/host_callback.h"

using namespace dc;

static_assert(DC_PEER_ATTRIBUTE_PERFORMANCE_RANK == CU_DEVICE_P2P_ATTRIBUTE_PERFORMANCE_RANK);
static_assert(DC_PEER_ATTRIBUTE_ACCESS_SUPPORTED == CU_DEVICE_P2P_ATTRIBUTE_ACCESS_SUPPORTED);
static_assert(DC_PEER_ATTRIBUTE_NATIVE_ATOMIC_SUPPORTED == CU_DEVICE_P2P_ATTRIBUTE_NATIVE_ATOMIC_SUPPORTED);

namespace {

bool can_access(Device& device, Device& peer) {
  if (device.ordinal() == peer.ordinal()) return true;
  int can = 0;
  check(driver_api().cuDeviceCanAccessPeer(&can, device.cu_device(), peer.cu_device()), "cuDeviceCanAccessPeer");
  return can != 0;
}

}  // namespace

extern "C" {

DC_API dc_status dc_device_can_access_peer(dc_device device, dc_device peer, int32_t* can) {
  return guarded("dc_device_can_access_peer", [&] {
    clear_out(can);
    forbid_after_fork();
    Pinned<Device> d = pin<Device>(device, "device");
    Pinned<Device> p = pin<Device>(peer, "peer");
    require_arg(can, "can_access");
    *can = can_access(*d, *p) ? 1 : 0;
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_device_enable_peer_access(dc_device device, dc_device peer) {
  return guarded("dc_device_enable_peer_access", [&] {
    forbid_after_fork();
    forbid_in_host_callback();
    Pinned<Device> d = pin<Device>(device, "device");
    Pinned<Device> p = pin<Device>(peer, "peer");
    if (d->ordinal() == p->ordinal()) return DC_SUCCESS;
    d->check_usable();
    p->check_usable();
    if (!can_access(*d, *p))
      fail(DC_ERROR_NOT_SUPPORTED,
           "device %d cannot access device %d directly (no peer-to-peer path between them); copies between them "
           "still work, staged through host memory",
           d->ordinal(), p->ordinal());
    ContextScope bind(*d);
    CUresult r = driver_api().cuCtxEnablePeerAccess(p->context(), 0);
    if (r == CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED) r = CUDA_SUCCESS;  // idempotent, also with other libraries
    if (r == CUDA_ERROR_TOO_MANY_PEERS)
      fail_cuda(DC_ERROR_OUT_OF_RANGE, r, "device %d already has the most peer mappings the hardware allows; disable "
                "peer access to another device first", d->ordinal());
    check(r, "cuCtxEnablePeerAccess", d.get());
    // Memory from the peer's stream-ordered pool needs its own grant.
    set_pool_peer_access(*p, *d, true);
    d->set_peer_enabled(p->ordinal(), true);
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_device_disable_peer_access(dc_device device, dc_device peer) {
  return guarded("dc_device_disable_peer_access", [&] {
    forbid_after_fork();
    forbid_in_host_callback();
    Pinned<Device> d = pin<Device>(device, "device");
    Pinned<Device> p = pin<Device>(peer, "peer");
    if (d->ordinal() == p->ordinal()) return DC_SUCCESS;
    d->check_usable();
    ContextScope bind(*d);
    CUresult r = driver_api().cuCtxDisablePeerAccess(p->context());
    if (r == CUDA_ERROR_PEER_ACCESS_NOT_ENABLED) r = CUDA_SUCCESS;  // idempotent
    check(r, "cuCtxDisablePeerAccess", d.get());
    d->set_peer_enabled(p->ordinal(), false);
    set_pool_peer_access(*p, *d, false);
    return DC_SUCCESS;
  });
}

DC_API dc_status dc_device_peer_attribute(dc_device device, dc_device peer, int32_t attribute, int32_t* value) {
  return guarded("dc_device_peer_attribute", [&] {
    clear_out(value);
    forbid_after_fork();
    Pinned<Device> d = pin<Device>(device, "device");
    Pinned<Device> p = pin<Device>(peer, "peer");
    require_arg(value, "value");
    if (d->ordinal() == p->ordinal())
      fail(DC_ERROR_INVALID_ARGUMENT, "device and peer are both device %d; peer attributes describe two different "
           "devices", d->ordinal());
    if (attribute < DC_PEER_ATTRIBUTE_PERFORMANCE_RANK || attribute > DC_PEER_ATTRIBUTE_NATIVE_ATOMIC_SUPPORTED)
      fail(DC_ERROR_INVALID_ARGUMENT, "attribute %d is not a DC_PEER_ATTRIBUTE_* value (1..3)", attribute);
    int v = 0;
    check(driver_api().cuDeviceGetP2PAttribute(&v, static_cast<CUdevice_P2PAttribute>(attribute), d->cu_device(),
                                               p->cu_device()),
          "cuDeviceGetP2PAttribute");
    *value = v;
    return DC_SUCCESS;
  });
}

}  // extern "C"
