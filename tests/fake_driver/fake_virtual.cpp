// The fake driver's virtual memory management (a test double, never a GPU):
// cuMemAddressReserve reserves host address space (no access), cuMemCreate
// makes a "physical" allocation (counted against the device's memory),
// cuMemMap places it in a reservation and cuMemSetAccess makes the pages
// readable and writable; only then do copies, fills and kernels see them
// (set_virtual_runs), as on a GPU, where mapped memory without access faults.
//
// What it models of the driver's rules: sizes and addresses multiples of the
// granularity (2 MiB), a map inside one reservation over unmapped pages, an
// unmap of whole mappings, access only over mapped pages, an address range
// freed only when nothing in it is mapped, a released allocation freed once
// it is unmapped. What it does not: a physical allocation's bytes live at its
// mapping (unmapping discards them, and one allocation cannot be mapped twice,
// which the driver allows); offsets into an allocation other than 0.
#include <cstdint>
#include <cstring>
#include <iterator>
#include <map>
#include <vector>

#if defined(_WIN32)
#include <windows.h>
#else
#include <sys/mman.h>
#endif

#include "fake_memory.h"

namespace fake {
namespace {

constexpr size_t kGranularity = size_t(2) << 20;
// Address space one reservation may take (host address space is reserved for it).
constexpr size_t kMaxReservation = size_t(1) << 40;

struct Physical {
  size_t size = 0;
  int ordinal = 0;
  Context* ctx = nullptr;
  uintptr_t mapped_at = 0;  // 0 while not mapped
  bool released = false;    // cuMemRelease came while mapped: freed at the unmap
};

struct Mapping {
  size_t size = 0;
  Physical* physical = nullptr;
  bool accessible = false;
};

struct Reservation {
  size_t size = 0;
  Context* ctx = nullptr;
  std::map<uintptr_t, Mapping> mappings;  // by address
};

std::map<uintptr_t, Reservation>& reservations() {
  static auto* m = new std::map<uintptr_t, Reservation>;
  return *m;
}
std::map<Physical*, bool>& physicals() {
  static auto* m = new std::map<Physical*, bool>;
  return *m;
}

// Address space aligned to the granularity, as the driver's reservations are:
// mmap and VirtualAlloc align to a page (64 KiB on Windows) only, and whether a
// large mmap lands on a 2 MiB boundary depends on the kernel (and never under
// valgrind), so reserve one granule more and keep the aligned part.
void* reserve_pages(size_t size) {
#if defined(_WIN32)
  for (int attempt = 0; attempt < 8; ++attempt) {
    void* wide = VirtualAlloc(nullptr, size + kGranularity, MEM_RESERVE, PAGE_NOACCESS);
    if (!wide) return nullptr;
    uintptr_t aligned = (reinterpret_cast<uintptr_t>(wide) + kGranularity - 1) & ~(kGranularity - 1);
    // Windows cannot give back part of a reservation: free it and take the
    // aligned part at once (another thread may take it in between: try again).
    VirtualFree(wide, 0, MEM_RELEASE);
    void* p = VirtualAlloc(reinterpret_cast<void*>(aligned), size, MEM_RESERVE, PAGE_NOACCESS);
    if (p) return p;
  }
  return nullptr;
#else
  void* wide = mmap(nullptr, size + kGranularity, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (wide == MAP_FAILED) return nullptr;
  uintptr_t start = reinterpret_cast<uintptr_t>(wide);
  uintptr_t aligned = (start + kGranularity - 1) & ~(kGranularity - 1);
  if (aligned > start) munmap(wide, aligned - start);
  size_t tail = start + size + kGranularity - (aligned + size);
  if (tail) munmap(reinterpret_cast<void*>(aligned + size), tail);
  return reinterpret_cast<void*>(aligned);
#endif
}
void free_pages(uintptr_t p, size_t size) {
#if defined(_WIN32)
  (void)size;
  VirtualFree(reinterpret_cast<void*>(p), 0, MEM_RELEASE);
#else
  munmap(reinterpret_cast<void*>(p), size);
#endif
}
bool open_pages(uintptr_t p, size_t size) {
#if defined(_WIN32)
  return VirtualAlloc(reinterpret_cast<void*>(p), size, MEM_COMMIT, PAGE_READWRITE) != nullptr;
#else
  return mprotect(reinterpret_cast<void*>(p), size, PROT_READ | PROT_WRITE) == 0;
#endif
}
// Back to reserved only: the bytes are gone (a later mapping reads zeros).
void close_pages(uintptr_t p, size_t size) {
#if defined(_WIN32)
  VirtualFree(reinterpret_cast<void*>(p), size, MEM_DECOMMIT);
#else
  madvise(reinterpret_cast<void*>(p), size, MADV_DONTNEED);
  mprotect(reinterpret_cast<void*>(p), size, PROT_NONE);
#endif
}

void free_physical(Physical* ph) {
  device_bytes_in_use()[ph->ordinal] -= ph->size;
  physicals().erase(ph);
  live_add("physical", -1);
  delete ph;
}

// The reservation holding [p, p + n), or nullptr.
Reservation* reservation_of(uintptr_t p, size_t n, uintptr_t* base) {
  auto& all = reservations();
  auto it = all.upper_bound(p);
  if (it == all.begin()) return nullptr;
  --it;
  if (p - it->first >= it->second.size || n > it->second.size - (p - it->first)) return nullptr;
  *base = it->first;
  return &it->second;
}

// What copies and kernels may touch in a reservation: its runs of accessible mappings.
void publish(uintptr_t base, Reservation& r) {
  std::vector<std::pair<uintptr_t, size_t>> runs;
  for (const auto& [at, m] : r.mappings) {
    if (!m.accessible) continue;
    if (!runs.empty() && runs.back().first + runs.back().second == at) runs.back().second += m.size;
    else runs.emplace_back(at, m.size);
  }
  set_virtual_runs(base, base + r.size, runs);
}

void unmap_one(Reservation& r, std::map<uintptr_t, Mapping>::iterator it) {
  close_pages(it->first, it->second.size);
  Physical* ph = it->second.physical;
  ph->mapped_at = 0;
  if (ph->released) free_physical(ph);
  r.mappings.erase(it);
}

bool valid_prop(const CUmemAllocationProp* prop) {
  return prop && prop->type == CU_MEM_ALLOCATION_TYPE_PINNED && prop->location.type == CU_MEM_LOCATION_TYPE_DEVICE &&
         device(prop->location.id) != nullptr;
}

// On cuDevicePrimaryCtxReset: the context's reservations and allocations are gone.
void drop_context_vmm(Context* ctx) {
  auto& all = reservations();
  for (auto it = all.begin(); it != all.end();) {
    if (it->second.ctx != ctx) {
      ++it;
      continue;
    }
    for (auto m = it->second.mappings.begin(); m != it->second.mappings.end();) {
      auto next = std::next(m);
      m->second.physical->released = true;
      unmap_one(it->second, m);
      m = next;
    }
    set_virtual_runs(it->first, it->first + it->second.size, {});
    free_pages(it->first, it->second.size);
    live_add("reservations", -1);
    it = all.erase(it);
  }
  for (auto it = physicals().begin(); it != physicals().end();) {
    Physical* ph = it->first;
    ++it;
    if (ph->ctx == ctx) free_physical(ph);
  }
}
ResetHook g_vmm_reset_hook(drop_context_vmm);

}  // namespace
}  // namespace fake

using namespace fake;

CUresult CUDAAPI cuMemGetAllocationGranularity(size_t* granularity, const CUmemAllocationProp* prop,
                                               CUmemAllocationGranularity_flags option) {
  FAKE_ENTER(cuMemGetAllocationGranularity);
  FAKE_REQUIRE_CONTEXT();
  if (!granularity || !valid_prop(prop)) return CUDA_ERROR_INVALID_VALUE;
  if (option != CU_MEM_ALLOC_GRANULARITY_MINIMUM && option != CU_MEM_ALLOC_GRANULARITY_RECOMMENDED)
    return CUDA_ERROR_INVALID_VALUE;
  if (config().no_vmm) return CUDA_ERROR_NOT_SUPPORTED;
  *granularity = kGranularity;
  return CUDA_SUCCESS;
}
FAKE_EXPORT(cuMemGetAllocationGranularity, 10020)

CUresult CUDAAPI cuMemAddressReserve(CUdeviceptr* ptr, size_t size, size_t alignment, CUdeviceptr addr,
                                     unsigned long long flags) {
  FAKE_ENTER(cuMemAddressReserve);
  FAKE_REQUIRE_CONTEXT();
  (void)addr;  // a hint the driver may ignore; the fake does
  if (!ptr) return CUDA_ERROR_INVALID_VALUE;
  *ptr = 0;
  if (size == 0 || size % kGranularity != 0 || flags != 0 || (alignment & (alignment - 1)) != 0)
    return CUDA_ERROR_INVALID_VALUE;
  if (alignment > kGranularity || size > kMaxReservation) return CUDA_ERROR_OUT_OF_MEMORY;
  std::lock_guard<std::recursive_mutex> g(lock());
  void* p = reserve_pages(size);
  if (!p) return CUDA_ERROR_OUT_OF_MEMORY;
  Reservation& r = reservations()[reinterpret_cast<uintptr_t>(p)];
  r.size = size;
  r.ctx = current_context();
  live_add("reservations", 1);
  *ptr = reinterpret_cast<CUdeviceptr>(p);
  return CUDA_SUCCESS;
}
FAKE_EXPORT(cuMemAddressReserve, 10020)

CUresult CUDAAPI cuMemAddressFree(CUdeviceptr ptr, size_t size) {
  FAKE_ENTER(cuMemAddressFree);
  FAKE_REQUIRE_CONTEXT();
  std::lock_guard<std::recursive_mutex> g(lock());
  auto it = reservations().find(static_cast<uintptr_t>(ptr));
  if (it == reservations().end() || it->second.size != size || !it->second.mappings.empty())
    return CUDA_ERROR_INVALID_VALUE;
  free_pages(it->first, size);
  reservations().erase(it);
  live_add("reservations", -1);
  return CUDA_SUCCESS;
}
FAKE_EXPORT(cuMemAddressFree, 10020)

CUresult CUDAAPI cuMemCreate(CUmemGenericAllocationHandle* handle, size_t size, const CUmemAllocationProp* prop,
                             unsigned long long flags) {
  FAKE_ENTER(cuMemCreate);
  FAKE_REQUIRE_CONTEXT();
  if (!handle) return CUDA_ERROR_INVALID_VALUE;
  *handle = 0;
  if (!valid_prop(prop) || flags != 0 || size == 0 || size % kGranularity != 0) return CUDA_ERROR_INVALID_VALUE;
  if (config().no_vmm) return CUDA_ERROR_NOT_SUPPORTED;
  std::lock_guard<std::recursive_mutex> g(lock());
  int ordinal = prop->location.id;
  size_t used = device_bytes_in_use()[ordinal];
  if (size > device_total_memory() || used + size > device_total_memory()) return CUDA_ERROR_OUT_OF_MEMORY;
  auto* ph = new Physical;
  ph->size = size;
  ph->ordinal = ordinal;
  ph->ctx = current_context();
  device_bytes_in_use()[ordinal] += size;
  physicals()[ph] = true;
  live_add("physical", 1);
  *handle = reinterpret_cast<CUmemGenericAllocationHandle>(ph);
  return CUDA_SUCCESS;
}
FAKE_EXPORT(cuMemCreate, 10020)

CUresult CUDAAPI cuMemRelease(CUmemGenericAllocationHandle handle) {
  FAKE_ENTER(cuMemRelease);
  FAKE_REQUIRE_CONTEXT();
  std::lock_guard<std::recursive_mutex> g(lock());
  auto* ph = reinterpret_cast<Physical*>(handle);
  if (!physicals().count(ph) || ph->released) return CUDA_ERROR_INVALID_VALUE;
  // The driver frees it once its last mapping goes.
  if (ph->mapped_at) ph->released = true;
  else free_physical(ph);
  return CUDA_SUCCESS;
}
FAKE_EXPORT(cuMemRelease, 10020)

CUresult CUDAAPI cuMemMap(CUdeviceptr ptr, size_t size, size_t offset, CUmemGenericAllocationHandle handle,
                          unsigned long long flags) {
  FAKE_ENTER(cuMemMap);
  FAKE_REQUIRE_CONTEXT();
  std::lock_guard<std::recursive_mutex> g(lock());
  auto* ph = reinterpret_cast<Physical*>(handle);
  if (!physicals().count(ph) || ph->released || flags != 0 || offset != 0) return CUDA_ERROR_INVALID_VALUE;
  uintptr_t p = static_cast<uintptr_t>(ptr), base = 0;
  if (size == 0 || size % kGranularity != 0 || p % kGranularity != 0 || size > ph->size) return CUDA_ERROR_INVALID_VALUE;
  Reservation* r = reservation_of(p, size, &base);
  if (!r) return CUDA_ERROR_INVALID_VALUE;
  // Over pages not mapped yet, with an allocation not mapped yet (see the top of the file).
  auto next = r->mappings.lower_bound(p);
  if (next != r->mappings.end() && next->first < p + size) return CUDA_ERROR_INVALID_VALUE;
  if (next != r->mappings.begin() && std::prev(next)->first + std::prev(next)->second.size > p)
    return CUDA_ERROR_INVALID_VALUE;
  if (ph->mapped_at) return CUDA_ERROR_INVALID_VALUE;
  if (!open_pages(p, size)) return CUDA_ERROR_OUT_OF_MEMORY;
  r->mappings[p] = Mapping{size, ph, false};
  ph->mapped_at = p;
  return CUDA_SUCCESS;
}
FAKE_EXPORT(cuMemMap, 10020)

CUresult CUDAAPI cuMemUnmap(CUdeviceptr ptr, size_t size) {
  FAKE_ENTER(cuMemUnmap);
  FAKE_REQUIRE_CONTEXT();
  std::lock_guard<std::recursive_mutex> g(lock());
  uintptr_t p = static_cast<uintptr_t>(ptr), base = 0;
  Reservation* r = reservation_of(p, size, &base);
  if (!r || size == 0) return CUDA_ERROR_INVALID_VALUE;
  // Whole mappings, back to back, covering the range exactly.
  uintptr_t at = p;
  for (auto it = r->mappings.find(p); at < p + size; ++it) {
    if (it == r->mappings.end() || it->first != at) return CUDA_ERROR_INVALID_VALUE;
    at += it->second.size;
  }
  if (at != p + size) return CUDA_ERROR_INVALID_VALUE;
  for (auto it = r->mappings.find(p); it != r->mappings.end() && it->first < p + size;) {
    auto next = std::next(it);
    unmap_one(*r, it);
    it = next;
  }
  publish(base, *r);
  return CUDA_SUCCESS;
}
FAKE_EXPORT(cuMemUnmap, 10020)

CUresult CUDAAPI cuMemSetAccess(CUdeviceptr ptr, size_t size, const CUmemAccessDesc* desc, size_t count) {
  FAKE_ENTER(cuMemSetAccess);
  FAKE_REQUIRE_CONTEXT();
  if (!desc || count == 0 || size == 0) return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard<std::recursive_mutex> g(lock());
  bool accessible = false;
  for (size_t i = 0; i < count; ++i) {
    if (desc[i].location.type != CU_MEM_LOCATION_TYPE_DEVICE || !device(desc[i].location.id))
      return CUDA_ERROR_INVALID_DEVICE;
    if (desc[i].flags != CU_MEM_ACCESS_FLAGS_PROT_NONE && desc[i].flags != CU_MEM_ACCESS_FLAGS_PROT_READWRITE &&
        desc[i].flags != 1 /* CU_MEM_ACCESS_FLAGS_PROT_READ */)
      return CUDA_ERROR_INVALID_VALUE;
    if (desc[i].location.id != current_context()->ordinal && config().no_peer) return CUDA_ERROR_INVALID_DEVICE;
    // The fake has one view of memory: the current device's access decides.
    if (desc[i].location.id == current_context()->ordinal)
      accessible = desc[i].flags != CU_MEM_ACCESS_FLAGS_PROT_NONE;
  }
  uintptr_t p = static_cast<uintptr_t>(ptr), base = 0;
  Reservation* r = reservation_of(p, size, &base);
  if (!r) return CUDA_ERROR_INVALID_VALUE;
  // Every byte of the range mapped, in whole mappings.
  uintptr_t at = p;
  for (auto it = r->mappings.find(p); at < p + size; ++it) {
    if (it == r->mappings.end() || it->first != at) return CUDA_ERROR_INVALID_VALUE;
    at += it->second.size;
  }
  for (auto it = r->mappings.find(p); it != r->mappings.end() && it->first < p + size; ++it)
    it->second.accessible = accessible;
  publish(base, *r);
  return CUDA_SUCCESS;
}
FAKE_EXPORT(cuMemSetAccess, 10020)
