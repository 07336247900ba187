#include "memory/vmm_pieces.h"

#include <cinttypes>
#include <iterator>
#include <map>
#include <mutex>

#include "core/error.h"
#include "device/cuda_check.h"
#include "loader/driver.h"
#include "memory/virtual_range.h"

namespace dc::vmm {
namespace {

struct Physical {
  int32_t device;
  uint32_t generation;
  uint64_t size;
  int mappings = 0;
  bool released = false;  // freed by the driver when its last mapping goes
};

struct Mapping {
  uint64_t size;
  uint64_t handle;
};

struct Reservation {
  int32_t device;
  uint32_t generation;
  uint64_t size;
  std::map<uint64_t, Mapping> mappings;  // by address
};

struct Registry {
  std::mutex mutex;
  std::map<uint64_t, Reservation> reservations;  // by first address
  std::map<uint64_t, Physical> physical;         // by handle
};

Registry& registry() {
  static auto* r = new Registry;  // never destroyed: the caller owns what it lists
  return *r;
}

void require_granular(Device& device, uint64_t value, const char* name) {
  uint64_t g = allocation_granularity(device, false);
  if (value % g != 0)
    fail(DC_ERROR_INVALID_ARGUMENT, "%s %" PRIu64 " is not a multiple of device %d's allocation granularity (%" PRIu64
         " bytes); round it up to %" PRIu64, name, value, device.ordinal(), g, (value / g + 1) * g);
}

void require_current(const Device& device, uint32_t generation, const char* what) {
  if (generation != device.generation())
    fail(DC_ERROR_CONTEXT_LOST, "%s was made before dc_device_reset, which destroyed it; make it again", what);
}

// The reservation of `device` holding [address, address + size), or a failure naming the range.
std::map<uint64_t, Reservation>::iterator reservation_of(Registry& r, Device& device, uint64_t address, uint64_t size) {
  auto it = r.reservations.upper_bound(address);
  if (it != r.reservations.begin()) {
    --it;
    Reservation& res = it->second;
    if (res.device == device.ordinal() && address - it->first < res.size && size <= res.size - (address - it->first)) {
      require_current(device, res.generation, "the reservation");
      return it;
    }
  }
  fail(DC_ERROR_INVALID_ARGUMENT, "address 0x%" PRIx64 " + size %" PRIu64 " lies in no reservation of device %d "
       "(dc_vmm_reserve); map only inside a reserved range", address, size, device.ordinal());
}

// The mappings covering [address, address + size) exactly, back to back, or a failure.
std::map<uint64_t, Mapping>::iterator whole_mappings(Reservation& res, uint64_t address, uint64_t size,
                                                     const char* what) {
  auto first = res.mappings.find(address);
  uint64_t at = address;
  for (auto it = first; at < address + size; ++it) {
    if (it == res.mappings.end() || it->first != at)
      fail(DC_ERROR_INVALID_ARGUMENT, "address 0x%" PRIx64 " + size %" PRIu64 " is not %s: byte 0x%" PRIx64 " does "
           "not begin a mapping made by dc_vmm_map", address, size, what, at);
    at += it->second.size;
  }
  if (at != address + size)
    fail(DC_ERROR_INVALID_ARGUMENT, "address 0x%" PRIx64 " + size %" PRIu64 " ends inside a mapping (which ends at "
         "0x%" PRIx64 "); pass whole mappings", address, size, at);
  return first;
}

// Entries of objects a dc_device_reset destroyed stay in the registry until
// the caller frees or releases them (and are refused then). When the driver
// hands out an address range or a handle again, whatever the registry still
// holds there is such a dead object (nothing live can own what the driver
// just gave out): forget it, or a lookup inside the new range would find the
// dead reservation and refuse the new one as destroyed.
void forget_dead_reservations(Registry& r, uint64_t address, uint64_t size) {
  auto it = r.reservations.upper_bound(address);
  if (it != r.reservations.begin() && std::prev(it)->first + std::prev(it)->second.size > address) --it;
  while (it != r.reservations.end() && it->first < address + size) it = r.reservations.erase(it);
}

}  // namespace

bool mapped_from(const Device& device, uint64_t address, uint64_t* mapped) {
  *mapped = 0;
  Registry& reg = registry();
  std::lock_guard<std::mutex> lock(reg.mutex);
  auto it = reg.reservations.upper_bound(address);
  if (it == reg.reservations.begin()) return false;
  --it;
  const Reservation& res = it->second;
  if (res.device != device.ordinal() || address - it->first >= res.size) return false;
  // The mapping holding `address`, then those that follow it without a gap.
  auto m = res.mappings.upper_bound(address);
  if (m == res.mappings.begin()) return true;
  --m;
  if (address - m->first >= m->second.size) return true;
  uint64_t end = m->first + m->second.size;
  for (++m; m != res.mappings.end() && m->first == end; ++m) end += m->second.size;
  *mapped = end - address;
  return true;
}

uint64_t reserve(Device& device, uint64_t size, uint64_t alignment) {
  if (size == 0) fail(DC_ERROR_INVALID_ARGUMENT, "size is 0; reserve at least one granule");
  if (alignment & (alignment - 1))
    fail(DC_ERROR_INVALID_ARGUMENT, "alignment %" PRIu64 " is not a power of two (or 0)", alignment);
  require_granular(device, size, "size");
  CUdeviceptr p = 0;
  CUresult r = driver_api().cuMemAddressReserve(&p, static_cast<size_t>(size), static_cast<size_t>(alignment), 0, 0);
  if (r != CUDA_SUCCESS)
    fail_driver(r, "cuMemAddressReserve", &device,
                strf("device %d could not reserve %" PRIu64 " bytes of address space; reserve less", device.ordinal(),
                     size).c_str());
  Registry& reg = registry();
  std::lock_guard<std::mutex> lock(reg.mutex);
  forget_dead_reservations(reg, p, size);
  reg.reservations[p] = Reservation{device.ordinal(), device.generation(), size, {}};
  return p;
}

void free(Device& device, uint64_t address, uint64_t size) {
  Registry& reg = registry();
  std::lock_guard<std::mutex> lock(reg.mutex);
  auto it = reg.reservations.find(address);
  if (it == reg.reservations.end() || it->second.device != device.ordinal())
    fail(DC_ERROR_INVALID_ARGUMENT, "address 0x%" PRIx64 " is not a reservation of device %d (dc_vmm_reserve)",
         address, device.ordinal());
  if (it->second.size != size)
    fail(DC_ERROR_INVALID_ARGUMENT, "size %" PRIu64 " is not the reservation's (%" PRIu64 " bytes); free it whole",
         size, it->second.size);
  require_current(device, it->second.generation, "the reservation");
  if (!it->second.mappings.empty())
    fail(DC_ERROR_INVALID_STATE, "the reservation at 0x%" PRIx64 " still has %zu mapping(s), the first at 0x%" PRIx64
         "; dc_vmm_unmap them first", address, it->second.mappings.size(), it->second.mappings.begin()->first);
  check(driver_api().cuMemAddressFree(static_cast<CUdeviceptr>(address), static_cast<size_t>(size)),
        "cuMemAddressFree", &device);
  reg.reservations.erase(it);
}

uint64_t create(Device& device, uint64_t size) {
  if (size == 0) fail(DC_ERROR_INVALID_ARGUMENT, "size is 0; create at least one granule");
  require_granular(device, size, "size");
  CUmemAllocationProp prop{};
  prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  prop.requestedHandleTypes = CU_MEM_HANDLE_TYPE_NONE;
  prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  prop.location.id = device.ordinal();
  CUmemGenericAllocationHandle h = 0;
  CUresult r = driver_api().cuMemCreate(&h, static_cast<size_t>(size), &prop, 0);
  if (r != CUDA_SUCCESS)
    fail_driver(r, "cuMemCreate", &device,
                strf("device %d has no room for %" PRIu64 " bytes; release memory you no longer need",
                     device.ordinal(), size).c_str());
  Registry& reg = registry();
  std::lock_guard<std::mutex> lock(reg.mutex);
  reg.physical[h] = Physical{device.ordinal(), device.generation(), size};
  return h;
}

void release(Device& device, uint64_t handle) {
  Registry& reg = registry();
  std::lock_guard<std::mutex> lock(reg.mutex);
  auto it = reg.physical.find(handle);
  if (it == reg.physical.end() || it->second.device != device.ordinal() || it->second.released)
    fail(DC_ERROR_INVALID_ARGUMENT, "handle 0x%" PRIx64 " is not live physical memory of device %d (dc_vmm_create, "
         "not released yet)", handle, device.ordinal());
  require_current(device, it->second.generation, "the physical memory");
  check(driver_api().cuMemRelease(static_cast<CUmemGenericAllocationHandle>(handle)), "cuMemRelease", &device);
  if (it->second.mappings > 0) it->second.released = true;
  else reg.physical.erase(it);
}

void map(Device& device, uint64_t address, uint64_t size, uint64_t handle) {
  if (size == 0) fail(DC_ERROR_INVALID_ARGUMENT, "size is 0; map at least one granule");
  require_granular(device, address, "address");
  require_granular(device, size, "size");
  Registry& reg = registry();
  std::lock_guard<std::mutex> lock(reg.mutex);
  auto ph = reg.physical.find(handle);
  if (ph == reg.physical.end() || ph->second.device != device.ordinal() || ph->second.released)
    fail(DC_ERROR_INVALID_ARGUMENT, "handle 0x%" PRIx64 " is not live physical memory of device %d (dc_vmm_create, "
         "not released)", handle, device.ordinal());
  require_current(device, ph->second.generation, "the physical memory");
  if (size > ph->second.size)
    fail(DC_ERROR_INVALID_ARGUMENT, "size %" PRIu64 " exceeds the physical memory's %" PRIu64 " bytes", size,
         ph->second.size);
  Reservation& res = reservation_of(reg, device, address, size)->second;
  auto next = res.mappings.lower_bound(address);
  if (next != res.mappings.end() && next->first < address + size)
    fail(DC_ERROR_INVALID_ARGUMENT, "address 0x%" PRIx64 " + size %" PRIu64 " overlaps the mapping at 0x%" PRIx64
         "; unmap it first", address, size, next->first);
  if (next != res.mappings.begin()) {
    auto prev = std::prev(next);
    if (prev->first + prev->second.size > address)
      fail(DC_ERROR_INVALID_ARGUMENT, "address 0x%" PRIx64 " lies inside the mapping at 0x%" PRIx64 " (%" PRIu64
           " bytes); unmap it first", address, prev->first, prev->second.size);
  }
  check(driver_api().cuMemMap(static_cast<CUdeviceptr>(address), static_cast<size_t>(size), 0,
                              static_cast<CUmemGenericAllocationHandle>(handle), 0),
        "cuMemMap", &device);
  res.mappings[address] = Mapping{size, handle};
  ++ph->second.mappings;
}

void unmap(Device& device, uint64_t address, uint64_t size) {
  if (size == 0) fail(DC_ERROR_INVALID_ARGUMENT, "size is 0; pass the mappings' bytes");
  Registry& reg = registry();
  std::lock_guard<std::mutex> lock(reg.mutex);
  Reservation& res = reservation_of(reg, device, address, size)->second;
  auto first = whole_mappings(res, address, size, "whole mappings");
  check(driver_api().cuMemUnmap(static_cast<CUdeviceptr>(address), static_cast<size_t>(size)), "cuMemUnmap", &device);
  for (auto it = first; it != res.mappings.end() && it->first < address + size;) {
    auto ph = reg.physical.find(it->second.handle);
    if (ph != reg.physical.end() && --ph->second.mappings == 0 && ph->second.released) reg.physical.erase(ph);
    it = res.mappings.erase(it);
  }
}

void set_access(Device& device, uint64_t address, uint64_t size, Device& accessor, int32_t access) {
  if (access != DC_VMM_ACCESS_NONE && access != DC_VMM_ACCESS_READ && access != DC_VMM_ACCESS_READWRITE)
    fail(DC_ERROR_INVALID_ARGUMENT, "access %d is not a DC_VMM_ACCESS_* value (0, 1 or 3)", access);
  if (size == 0) fail(DC_ERROR_INVALID_ARGUMENT, "size is 0; pass the mapped bytes");
  if (accessor.ordinal() != device.ordinal()) {
    int can = 0;
    check(driver_api().cuDeviceCanAccessPeer(&can, accessor.cu_device(), device.cu_device()), "cuDeviceCanAccessPeer");
    if (!can)
      fail(DC_ERROR_NOT_SUPPORTED, "device %d cannot access device %d's memory (no peer-to-peer path); copy instead",
           accessor.ordinal(), device.ordinal());
  }
  Registry& reg = registry();
  std::lock_guard<std::mutex> lock(reg.mutex);
  Reservation& res = reservation_of(reg, device, address, size)->second;
  whole_mappings(res, address, size, "mapped throughout");
  CUmemAccessDesc desc{};
  desc.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  desc.location.id = accessor.ordinal();
  desc.flags = static_cast<CUmemAccess_flags>(access);
  check(driver_api().cuMemSetAccess(static_cast<CUdeviceptr>(address), static_cast<size_t>(size), &desc, 1),
        "cuMemSetAccess", &device);
}

}  // namespace dc::vmm

// DC_VMM_ACCESS_* are cuda.h's CUmemAccess_flags (READ, 1, is not among dccuda's declarations).
static_assert(DC_VMM_ACCESS_NONE == CU_MEM_ACCESS_FLAGS_PROT_NONE);
static_assert(DC_VMM_ACCESS_READWRITE == CU_MEM_ACCESS_FLAGS_PROT_READWRITE);
