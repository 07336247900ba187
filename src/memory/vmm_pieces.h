// The virtual memory pieces of the public API (dc_vmm_*): the driver's
// reserve / create / map / unmap / set-access calls, each checked against a
// registry of what was made through them (reservations, physical
// allocations, mappings), so that a misaligned size, a range outside any
// reservation or over a mapping, or an unknown handle is refused with a
// message before the driver sees it. The caller owns everything made here.
#pragma once

#include <cstdint>

#include "device/device.h"

namespace dc::vmm {

// Each takes the device's context bound (the entry point binds it).
uint64_t reserve(Device& device, uint64_t size, uint64_t alignment);
void free(Device& device, uint64_t address, uint64_t size);
uint64_t create(Device& device, uint64_t size);
void release(Device& device, uint64_t handle);
void map(Device& device, uint64_t address, uint64_t size, uint64_t handle);
void unmap(Device& device, uint64_t address, uint64_t size);
void set_access(Device& device, uint64_t address, uint64_t size, Device& accessor, int32_t access);

// Whether `address` lies in a reservation of `device` made by reserve(); if so,
// *mapped is the bytes mapped back to back from `address` on (0 when it is not
// mapped). The driver's pointer attributes describe one mapping only, so a
// wrap of a range built of several is checked against this instead.
bool mapped_from(const Device& device, uint64_t address, uint64_t* mapped);

}  // namespace dc::vmm
