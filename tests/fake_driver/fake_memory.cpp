// The fake driver's memory (a test double, never a GPU): device allocations,
// stream-ordered pools, pinned, registered and managed host memory, prefetch
// and advice, pointer attributes. Every allocation is host memory; the fake
// keeps a map of the live ones so that other calls can refuse addresses
// outside them (fake_memory.h).
#include <cstdlib>
#include <cstring>
#include <iterator>

#include "fake_memory.h"
#include "fake_module.h"

namespace fake {

std::map<Pool*, bool>& pools() {
  static auto* m = new std::map<Pool*, bool>;
  return *m;
}

namespace {

// Each device's memory, as cuDeviceTotalMem reports it (DCFAKE_DEVICE_MEMORY, default 8 GiB).
size_t total_device_memory() { return config().device_memory; }
constexpr size_t kAlignment = 256;  // what cuMemAlloc guarantees

std::map<uintptr_t, Allocation>& allocations() {
  static auto* m = new std::map<uintptr_t, Allocation>;
  return *m;
}
std::map<int, Pool*>& default_pools() {
  static auto* m = new std::map<int, Pool*>;
  return *m;
}
size_t& host_bytes() {
  static size_t n = 0;
  return n;
}

size_t round_up(size_t n) { return (n + kAlignment - 1) / kAlignment * kAlignment; }

// Windows's C runtime has no aligned_alloc: its own pair there.
#if defined(_WIN32)
void* raw_alloc(size_t n) { return _aligned_malloc(round_up(n), kAlignment); }
void raw_free(void* p) { _aligned_free(p); }
#else
void* raw_alloc(size_t n) { return std::aligned_alloc(kAlignment, round_up(n)); }
void raw_free(void* p) { std::free(p); }
#endif

const char* live_kind(MemKind k) {
  switch (k) {
    case MemKind::Device: return "allocations";
    case MemKind::Pinned: return "host_allocations";
    case MemKind::Managed: return "managed";
    case MemKind::Registered: return "registrations";
  }
  return "allocations";
}

void add_allocation(void* p, size_t size, MemKind kind, Pool* pool, unsigned flags) {
  Allocation a;
  a.base = reinterpret_cast<uintptr_t>(p);
  a.size = size;
  a.kind = kind;
  a.ctx = current_context();
  a.ordinal = a.ctx ? a.ctx->ordinal : 0;
  a.pool = pool;
  a.pooled = pool != nullptr;
  a.flags = flags;
  allocations()[a.base] = a;
  live_add(live_kind(kind), 1);
}

// Device memory left on the current context's device.
size_t device_free_bytes(int ordinal) {
  size_t used = device_bytes_in_use()[ordinal];
  return used >= total_device_memory() ? 0 : total_device_memory() - used;
}

void release_block(int ordinal, void* p, size_t size) {
  device_bytes_in_use()[ordinal] -= round_up(size);
  raw_free(p);
}

// Gives cached blocks back until the pool keeps at most `keep` bytes.
void trim_pool(Pool* pool, size_t keep) {
  while (pool->cached_bytes > keep && !pool->cached.empty()) {
    auto it = std::prev(pool->cached.end());
    pool->cached_bytes -= it->first;
    release_block(pool->ordinal, it->second, it->first);
    pool->cached.erase(it);
  }
}

// Frees an allocation the fake owns and forgets it (not the lock's caller's
// registered memory, which only stops being registered).
void drop_allocation(std::map<uintptr_t, Allocation>::iterator it) {
  Allocation a = it->second;
  allocations().erase(it);
  if (a.pool) forget_pool_imports(a.base);
  if (a.vmm) return;  // fake_virtual.cpp owns the pages
  live_add(live_kind(a.kind), -1);
  void* p = reinterpret_cast<void*>(a.base);
  switch (a.kind) {
    case MemKind::Device:
      if (a.pool && pools().count(a.pool)) {
        a.pool->used_bytes -= round_up(a.size);
        a.pool->cached.emplace(round_up(a.size), p);
        a.pool->cached_bytes += round_up(a.size);
        trim_pool(a.pool, a.pool->release_threshold);
      } else {
        release_block(a.ordinal, p, a.size);
      }
      break;
    case MemKind::Managed:
    case MemKind::Pinned:
      host_bytes() -= round_up(a.size);
      raw_free(p);
      break;
    case MemKind::Registered:
      break;
  }
}

void destroy_pool(Pool* pool) {
  trim_pool(pool, 0);
  pools().erase(pool);
  forget_pool_exports(pool);
  // Imports of it in this process (fake_ipc.cpp) name it no more.
  for (auto& [other, live] : pools())
    if (other->imported_from == pool) other->imported_from = nullptr;
  if (!pool->is_default) live_add("pools", -1);
  // Allocations still out keep a dangling pool pointer no more: they are
  // freed for good when they come back.
  for (auto& [base, a] : allocations())
    if (a.pool == pool) a.pool = nullptr;
  delete pool;
}

Pool* default_pool(int ordinal, Context* ctx) {
  Pool*& p = default_pools()[ordinal];
  if (!p) {
    p = new Pool;
    p->ctx = ctx;
    p->ordinal = ordinal;
    p->is_default = true;
    pools()[p] = true;
  }
  return p;
}

// On cuDevicePrimaryCtxReset: everything the context owned is gone.
void drop_context(Context* ctx) {
  auto& all = allocations();
  for (auto it = all.begin(); it != all.end();) {
    auto next = std::next(it);
    if (it->second.ctx == ctx) drop_allocation(it);
    it = next;
  }
  for (auto it = pools().begin(); it != pools().end();) {
    Pool* p = it->first;
    ++it;
    if (p->ctx == ctx) {
      if (p->is_default) default_pools().erase(p->ordinal);
      destroy_pool(p);
    }
  }
}
ResetHook g_reset_hook(drop_context);

}  // namespace

Pool* live_pool(CUmemoryPool handle) {
  Pool* p = reinterpret_cast<Pool*>(handle);
  return pools().count(p) ? p : nullptr;
}

namespace {

CUresult pool_alloc(CUdeviceptr* dptr, size_t size, Pool* pool, CUstream hStream) {
  if (!dptr) return CUDA_ERROR_INVALID_VALUE;
  *dptr = 0;
  if (size == 0) return CUDA_ERROR_INVALID_VALUE;
  if (size > total_device_memory()) return CUDA_ERROR_OUT_OF_MEMORY;
  Stream* s = nullptr;
  if (CUresult r = stream_for_work(hStream, &s)) return r;
  if (pool->ctx != current_context()) return CUDA_ERROR_INVALID_VALUE;
  size_t need = round_up(size);
  void* p = nullptr;
  auto cached = pool->cached.find(need);
  if (cached != pool->cached.end()) {
    p = cached->second;
    pool->cached.erase(cached);
    pool->cached_bytes -= need;
  } else {
    if (need > device_free_bytes(pool->ordinal)) trim_pool(pool, 0);
    if (need > device_free_bytes(pool->ordinal)) return CUDA_ERROR_OUT_OF_MEMORY;
    // A pool with a maxSize reserves no more than that, cached blocks included.
    if (pool->max_size && pool->used_bytes + pool->cached_bytes + need > pool->max_size) trim_pool(pool, 0);
    if (pool->max_size && pool->used_bytes + need > pool->max_size) return CUDA_ERROR_OUT_OF_MEMORY;
    p = raw_alloc(size);
    if (!p) return CUDA_ERROR_OUT_OF_MEMORY;
    device_bytes_in_use()[pool->ordinal] += need;
  }
  CUresult r = enqueue(s, "cuMemAllocFromPoolAsync", [] { return CUDA_SUCCESS; });
  add_allocation(p, size, MemKind::Device, pool, 0);
  pool->used_bytes += need;
  pool->note_high();
  *dptr = reinterpret_cast<CUdeviceptr>(p);
  return r;
}

}  // namespace

// A module's __device__ variable, seen as device memory of the current
// context (fake_module.cpp keeps the variables).
Allocation* module_global_allocation(uintptr_t p, size_t n) {
  CUdeviceptr base = 0;
  size_t size = 0;
  if (!module_global_range(static_cast<CUdeviceptr>(p), &base, &size)) return nullptr;
  if (n == 0) n = 1;
  if (n > size - (p - static_cast<uintptr_t>(base))) return nullptr;
  // A few slots, so that a copy between two globals sees both ranges.
  thread_local Allocation slots[4];
  thread_local unsigned next = 0;
  Allocation& global = slots[next++ % 4];
  global = Allocation{};
  global.base = static_cast<uintptr_t>(base);
  global.size = size;
  global.kind = MemKind::Device;
  global.ctx = current_context();
  global.ordinal = global.ctx ? global.ctx->ordinal : 0;
  return &global;
}

namespace {
// Graph memory reserved (base -> size), live or not.
std::map<uintptr_t, size_t>& graph_reservations() {
  static auto* m = new std::map<uintptr_t, size_t>;
  return *m;
}
}  // namespace

bool graph_range_ok(CUdeviceptr p, size_t n) {
  auto& all = graph_reservations();
  auto it = all.upper_bound(static_cast<uintptr_t>(p));
  if (it == all.begin()) return false;
  --it;
  return p >= it->first && p + n <= it->first + it->second && p + n >= p;
}

std::shared_ptr<void> reserve_graph_memory(size_t size) {
  void* p = raw_alloc(size);
  if (!p) return nullptr;
  {
    std::lock_guard<std::recursive_mutex> g(lock());
    graph_reservations()[reinterpret_cast<uintptr_t>(p)] = size;
  }
  return std::shared_ptr<void>(p, [](void* q) {
    std::lock_guard<std::recursive_mutex> g(lock());
    graph_reservations().erase(reinterpret_cast<uintptr_t>(q));
    auto it = allocations().find(reinterpret_cast<uintptr_t>(q));
    if (it != allocations().end()) {  // a launch broke between the alloc and the free node
      allocations().erase(it);
      live_add(live_kind(MemKind::Device), -1);
    }
    raw_free(q);
  });
}

CUresult map_graph_memory(CUdeviceptr p, size_t size) {
  if (allocations().count(static_cast<uintptr_t>(p))) return CUDA_ERROR_INVALID_VALUE;
  add_allocation(reinterpret_cast<void*>(static_cast<uintptr_t>(p)), size, MemKind::Device, nullptr, 0);
  return CUDA_SUCCESS;
}

void set_virtual_runs(uintptr_t begin, uintptr_t end, const std::vector<std::pair<uintptr_t, size_t>>& runs) {
  auto& all = allocations();
  for (auto it = all.lower_bound(begin); it != all.end() && it->first < end;)
    it = it->second.vmm ? all.erase(it) : std::next(it);
  for (const auto& [base, size] : runs) {
    Allocation a;
    a.base = base;
    a.size = size;
    a.kind = MemKind::Device;
    a.ctx = current_context();
    a.ordinal = a.ctx ? a.ctx->ordinal : 0;
    a.vmm = true;
    all[base] = a;
  }
}

CUresult unmap_graph_memory(CUdeviceptr p) {
  auto it = allocations().find(static_cast<uintptr_t>(p));
  if (it == allocations().end()) return CUDA_ERROR_INVALID_VALUE;
  allocations().erase(it);
  live_add(live_kind(MemKind::Device), -1);
  return CUDA_SUCCESS;
}

Allocation* find_allocation(uintptr_t p, size_t n) {
  auto& all = allocations();
  auto it = all.upper_bound(p);
  if (it == all.begin()) return module_global_allocation(p, n);
  --it;
  Allocation& a = it->second;
  if (n == 0) n = 1;
  if (p < a.base || p - a.base >= a.size || n > a.size - (p - a.base)) return module_global_allocation(p, n);
  return &a;
}

Allocation* allocation_containing(uintptr_t p) { return find_allocation(p, 1); }

bool device_range_ok(CUdeviceptr p, size_t n) { return find_allocation(static_cast<uintptr_t>(p), n) != nullptr; }

size_t device_total_memory() { return total_device_memory(); }

}  // namespace fake

using namespace fake;

// ---------------------------------------------------------------------------
// Device memory

CUresult CUDAAPI cuMemAlloc(CUdeviceptr* dptr, size_t bytesize) {
  FAKE_ENTER(cuMemAlloc);
  FAKE_REQUIRE_CONTEXT();
  if (!dptr) return CUDA_ERROR_INVALID_VALUE;
  *dptr = 0;
  if (bytesize == 0) return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard<std::recursive_mutex> g(lock());
  int ordinal = current_context()->ordinal;
  if (bytesize > total_device_memory() || round_up(bytesize) > device_free_bytes(ordinal)) return CUDA_ERROR_OUT_OF_MEMORY;
  void* p = raw_alloc(bytesize);
  if (!p) return CUDA_ERROR_OUT_OF_MEMORY;
  device_bytes_in_use()[ordinal] += round_up(bytesize);
  add_allocation(p, bytesize, MemKind::Device, nullptr, 0);
  *dptr = reinterpret_cast<CUdeviceptr>(p);
  return CUDA_SUCCESS;
}
FAKE_EXPORT(cuMemAlloc, 3020)

// Rows padded to the pitch a real device gives (512 bytes on current GPUs:
// its texture pitch alignment rounded up), so that tests see pitch > width.
CUresult CUDAAPI cuMemAllocPitch(CUdeviceptr* dptr, size_t* pPitch, size_t WidthInBytes, size_t Height,
                                 unsigned int ElementSizeBytes) {
  FAKE_ENTER(cuMemAllocPitch);
  FAKE_REQUIRE_CONTEXT();
  if (!dptr || !pPitch) return CUDA_ERROR_INVALID_VALUE;
  *dptr = 0;
  *pPitch = 0;
  if (WidthInBytes == 0 || Height == 0) return CUDA_ERROR_INVALID_VALUE;
  if (ElementSizeBytes != 4 && ElementSizeBytes != 8 && ElementSizeBytes != 16) return CUDA_ERROR_INVALID_VALUE;
  constexpr size_t kPitchAlignment = 512;
  if (WidthInBytes > SIZE_MAX - kPitchAlignment) return CUDA_ERROR_INVALID_VALUE;
  size_t pitch = (WidthInBytes + kPitchAlignment - 1) / kPitchAlignment * kPitchAlignment;
  if (Height > total_device_memory() / pitch) return CUDA_ERROR_OUT_OF_MEMORY;
  size_t bytesize = pitch * Height;
  std::lock_guard<std::recursive_mutex> g(lock());
  int ordinal = current_context()->ordinal;
  if (round_up(bytesize) > device_free_bytes(ordinal)) return CUDA_ERROR_OUT_OF_MEMORY;
  void* p = raw_alloc(bytesize);
  if (!p) return CUDA_ERROR_OUT_OF_MEMORY;
  device_bytes_in_use()[ordinal] += round_up(bytesize);
  add_allocation(p, bytesize, MemKind::Device, nullptr, 0);
  *dptr = reinterpret_cast<CUdeviceptr>(p);
  *pPitch = pitch;
  return CUDA_SUCCESS;
}
FAKE_EXPORT(cuMemAllocPitch, 3020)

CUresult CUDAAPI cuMemFree(CUdeviceptr dptr) {
  FAKE_ENTER(cuMemFree);
  FAKE_REQUIRE_CONTEXT();
  std::lock_guard<std::recursive_mutex> g(lock());
  // Memory imported from a pool (cuMemPoolImportPointer) is freed with cuMemFree: the import goes, not the memory.
  if (free_pool_import(static_cast<uintptr_t>(dptr))) return CUDA_SUCCESS;
  auto it = allocations().find(static_cast<uintptr_t>(dptr));
  if (it == allocations().end() || it->second.vmm ||
      (it->second.kind != MemKind::Device && it->second.kind != MemKind::Managed))
    return CUDA_ERROR_INVALID_VALUE;
  drop_allocation(it);
  return CUDA_SUCCESS;
}
FAKE_EXPORT(cuMemFree, 3020)

// ---------------------------------------------------------------------------
// Stream-ordered allocation and pools

CUresult CUDAAPI cuMemPoolCreate(CUmemoryPool* pool, const CUmemPoolProps* props) {
  FAKE_ENTER(cuMemPoolCreate);
  FAKE_REQUIRE_CONTEXT();
  if (!pool || !props) return CUDA_ERROR_INVALID_VALUE;
  *pool = nullptr;
  if (config().no_pools) return CUDA_ERROR_NOT_SUPPORTED;
  if (props->allocType != CU_MEM_ALLOCATION_TYPE_PINNED || props->location.type != CU_MEM_LOCATION_TYPE_DEVICE)
    return CUDA_ERROR_INVALID_VALUE;
  // File descriptors are the only export handles a Linux driver offers.
  if (props->handleTypes != CU_MEM_HANDLE_TYPE_NONE && props->handleTypes != CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR)
    return CUDA_ERROR_NOT_SUPPORTED;
  // Before 12.2 maxSize was part of the reserved bytes, which must be 0.
  if (props->maxSize != 0 && config().driver_version < 12020) return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard<std::recursive_mutex> g(lock());
  if (!device(props->location.id)) return CUDA_ERROR_INVALID_DEVICE;
  Pool* p = new Pool;
  p->exportable = props->handleTypes == CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
  p->max_size = props->maxSize;
  p->ctx = context_of_device(props->location.id);
  p->ordinal = props->location.id;
  pools()[p] = true;
  live_add("pools", 1);
  *pool = reinterpret_cast<CUmemoryPool>(p);
  return CUDA_SUCCESS;
}
FAKE_EXPORT(cuMemPoolCreate, 11020)

CUresult CUDAAPI cuMemPoolDestroy(CUmemoryPool pool) {
  FAKE_ENTER(cuMemPoolDestroy);
  FAKE_REQUIRE_CONTEXT();
  std::lock_guard<std::recursive_mutex> g(lock());
  Pool* p = live_pool(pool);
  if (!p || p->is_default) return CUDA_ERROR_INVALID_VALUE;
  destroy_pool(p);
  return CUDA_SUCCESS;
}
FAKE_EXPORT(cuMemPoolDestroy, 11020)

CUresult CUDAAPI cuMemPoolSetAttribute(CUmemoryPool pool, CUmemPool_attribute attr, void* value) {
  FAKE_ENTER(cuMemPoolSetAttribute);
  FAKE_REQUIRE_CONTEXT();
  if (!value) return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard<std::recursive_mutex> g(lock());
  Pool* p = live_pool(pool);
  if (!p) return CUDA_ERROR_INVALID_VALUE;
  switch (attr) {
    case CU_MEMPOOL_ATTR_RELEASE_THRESHOLD:
      p->release_threshold = *static_cast<cuuint64_t*>(value);
      return CUDA_SUCCESS;
    case CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES:
    case CU_MEMPOOL_ATTR_REUSE_ALLOW_OPPORTUNISTIC:
    case CU_MEMPOOL_ATTR_REUSE_ALLOW_INTERNAL_DEPENDENCIES:
      p->reuse[attr - CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES] = *static_cast<int*>(value) != 0;
      return CUDA_SUCCESS;
    // The driver takes only 0 for the high-water marks: back to the current value.
    case CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH:
      if (*static_cast<cuuint64_t*>(value) != 0) return CUDA_ERROR_INVALID_VALUE;
      p->reserved_high = p->used_bytes + p->cached_bytes;
      return CUDA_SUCCESS;
    case CU_MEMPOOL_ATTR_USED_MEM_HIGH:
      if (*static_cast<cuuint64_t*>(value) != 0) return CUDA_ERROR_INVALID_VALUE;
      p->used_high = p->used_bytes;
      return CUDA_SUCCESS;
    default:
      return CUDA_ERROR_INVALID_VALUE;
  }
}
FAKE_EXPORT(cuMemPoolSetAttribute, 11020)

CUresult CUDAAPI cuMemPoolGetAttribute(CUmemoryPool pool, CUmemPool_attribute attr, void* value) {
  FAKE_ENTER(cuMemPoolGetAttribute);
  FAKE_REQUIRE_CONTEXT();
  if (!value) return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard<std::recursive_mutex> g(lock());
  Pool* p = live_pool(pool);
  if (!p) return CUDA_ERROR_INVALID_VALUE;
  cuuint64_t* out = static_cast<cuuint64_t*>(value);
  switch (attr) {
    case CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES:
    case CU_MEMPOOL_ATTR_REUSE_ALLOW_OPPORTUNISTIC:
    case CU_MEMPOOL_ATTR_REUSE_ALLOW_INTERNAL_DEPENDENCIES:
      *static_cast<int*>(value) = p->reuse[attr - CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES];
      return CUDA_SUCCESS;
    case CU_MEMPOOL_ATTR_RELEASE_THRESHOLD: *out = p->release_threshold; return CUDA_SUCCESS;
    case CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT: *out = p->used_bytes + p->cached_bytes; return CUDA_SUCCESS;
    case CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH: *out = p->reserved_high; return CUDA_SUCCESS;
    case CU_MEMPOOL_ATTR_USED_MEM_CURRENT: *out = p->used_bytes; return CUDA_SUCCESS;
    case CU_MEMPOOL_ATTR_USED_MEM_HIGH: *out = p->used_high; return CUDA_SUCCESS;
    default: return CUDA_ERROR_INVALID_VALUE;
  }
}
FAKE_EXPORT(cuMemPoolGetAttribute, 11020)

CUresult CUDAAPI cuMemPoolTrimTo(CUmemoryPool pool, size_t minBytesToKeep) {
  FAKE_ENTER(cuMemPoolTrimTo);
  FAKE_REQUIRE_CONTEXT();
  std::lock_guard<std::recursive_mutex> g(lock());
  Pool* p = live_pool(pool);
  if (!p) return CUDA_ERROR_INVALID_VALUE;
  trim_pool(p, minBytesToKeep);
  return CUDA_SUCCESS;
}
FAKE_EXPORT(cuMemPoolTrimTo, 11020)

CUresult CUDAAPI cuMemPoolSetAccess(CUmemoryPool pool, const CUmemAccessDesc* map, size_t count) {
  FAKE_ENTER(cuMemPoolSetAccess);
  FAKE_REQUIRE_CONTEXT();
  std::lock_guard<std::recursive_mutex> g(lock());
  Pool* p = live_pool(pool);
  if (!p || !map || count == 0) return CUDA_ERROR_INVALID_VALUE;
  for (size_t i = 0; i < count; ++i) {
    const CUmemAccessDesc& d = map[i];
    if (d.location.type != CU_MEM_LOCATION_TYPE_DEVICE || !device(d.location.id)) return CUDA_ERROR_INVALID_VALUE;
    // The owning device always has access; another one needs peer capability.
    if (d.location.id != p->ordinal && config().no_peer) return CUDA_ERROR_INVALID_DEVICE;
    if (d.location.id == p->ordinal && d.flags != CU_MEM_ACCESS_FLAGS_PROT_READWRITE) return CUDA_ERROR_INVALID_VALUE;
  }
  for (size_t i = 0; i < count; ++i) p->access[map[i].location.id] = map[i].flags;
  return CUDA_SUCCESS;
}
FAKE_EXPORT(cuMemPoolSetAccess, 11020)

CUresult CUDAAPI cuMemPoolGetAccess(CUmemAccess_flags* flags, CUmemoryPool pool, CUmemLocation* location) {
  FAKE_ENTER(cuMemPoolGetAccess);
  FAKE_REQUIRE_CONTEXT();
  if (!flags || !location) return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard<std::recursive_mutex> g(lock());
  Pool* p = live_pool(pool);
  if (!p || location->type != CU_MEM_LOCATION_TYPE_DEVICE || !device(location->id)) return CUDA_ERROR_INVALID_VALUE;
  // The owning device always has access; others what cuMemPoolSetAccess granted.
  auto it = p->access.find(location->id);
  *flags = location->id == p->ordinal ? CU_MEM_ACCESS_FLAGS_PROT_READWRITE
           : it == p->access.end()    ? CU_MEM_ACCESS_FLAGS_PROT_NONE
                                      : static_cast<CUmemAccess_flags>(it->second);
  return CUDA_SUCCESS;
}
FAKE_EXPORT(cuMemPoolGetAccess, 11020)

CUresult CUDAAPI cuMemAllocFromPoolAsync(CUdeviceptr* dptr, size_t bytesize, CUmemoryPool pool, CUstream hStream) {
  FAKE_ENTER(cuMemAllocFromPoolAsync);
  FAKE_REQUIRE_CONTEXT();
  std::lock_guard<std::recursive_mutex> g(lock());
  Pool* p = live_pool(pool);
  // An imported pool holds only imported memory (the driver's rule).
  if (!p || p->imported) {
    if (dptr) *dptr = 0;
    return CUDA_ERROR_INVALID_VALUE;
  }
  return pool_alloc(dptr, bytesize, p, hStream);
}
FAKE_EXPORT(cuMemAllocFromPoolAsync, 11020)

CUresult CUDAAPI cuMemAllocAsync(CUdeviceptr* dptr, size_t bytesize, CUstream hStream) {
  FAKE_ENTER(cuMemAllocAsync);
  FAKE_REQUIRE_CONTEXT();
  if (config().no_pools) return CUDA_ERROR_NOT_SUPPORTED;
  std::lock_guard<std::recursive_mutex> g(lock());
  return pool_alloc(dptr, bytesize, default_pool(current_context()->ordinal, current_context()), hStream);
}
FAKE_EXPORT(cuMemAllocAsync, 11020)

CUresult CUDAAPI cuMemFreeAsync(CUdeviceptr dptr, CUstream hStream) {
  FAKE_ENTER(cuMemFreeAsync);
  FAKE_REQUIRE_CONTEXT();
  std::lock_guard<std::recursive_mutex> g(lock());
  Stream* s = nullptr;
  if (CUresult r = stream_for_work(hStream, &s)) return r;
  auto it = allocations().find(static_cast<uintptr_t>(dptr));
  if (it == allocations().end() || it->second.kind != MemKind::Device || it->second.vmm) return CUDA_ERROR_INVALID_VALUE;
  return enqueue(s, "cuMemFreeAsync", [&] {
    drop_allocation(it);
    return CUDA_SUCCESS;
  });
}
FAKE_EXPORT(cuMemFreeAsync, 11020)

// ---------------------------------------------------------------------------
// Pinned and registered host memory

CUresult CUDAAPI cuMemHostAlloc(void** pp, size_t bytesize, unsigned int flags) {
  FAKE_ENTER(cuMemHostAlloc);
  FAKE_REQUIRE_CONTEXT();
  if (!pp) return CUDA_ERROR_INVALID_VALUE;
  *pp = nullptr;
  if (bytesize == 0) return CUDA_ERROR_INVALID_VALUE;
  if (flags & ~unsigned(CU_MEMHOSTALLOC_PORTABLE | CU_MEMHOSTALLOC_DEVICEMAP | CU_MEMHOSTALLOC_WRITECOMBINED))
    return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard<std::recursive_mutex> g(lock());
  if (bytesize > kHostAllocationLimit || host_bytes() + round_up(bytesize) > kHostAllocationLimit)
    return CUDA_ERROR_OUT_OF_MEMORY;
  void* p = raw_alloc(bytesize);
  if (!p) return CUDA_ERROR_OUT_OF_MEMORY;
  host_bytes() += round_up(bytesize);
  add_allocation(p, bytesize, MemKind::Pinned, nullptr, flags);
  *pp = p;
  return CUDA_SUCCESS;
}
FAKE_EXPORT(cuMemHostAlloc, 2020)

CUresult CUDAAPI cuMemFreeHost(void* p) {
  FAKE_ENTER(cuMemFreeHost);
  FAKE_REQUIRE_CONTEXT();
  std::lock_guard<std::recursive_mutex> g(lock());
  auto it = allocations().find(reinterpret_cast<uintptr_t>(p));
  if (it == allocations().end() || it->second.kind != MemKind::Pinned) return CUDA_ERROR_INVALID_VALUE;
  drop_allocation(it);
  return CUDA_SUCCESS;
}
FAKE_EXPORT(cuMemFreeHost, 2000)

CUresult CUDAAPI cuMemHostGetDevicePointer(CUdeviceptr* pdptr, void* p, unsigned int flags) {
  FAKE_ENTER(cuMemHostGetDevicePointer);
  FAKE_REQUIRE_CONTEXT();
  if (!pdptr || flags != 0) return CUDA_ERROR_INVALID_VALUE;
  *pdptr = 0;
  std::lock_guard<std::recursive_mutex> g(lock());
  Allocation* a = allocation_containing(reinterpret_cast<uintptr_t>(p));
  if (!a || (a->kind != MemKind::Pinned && a->kind != MemKind::Registered)) return CUDA_ERROR_INVALID_VALUE;
  // Unified addressing: the device sees host memory at its host address.
  *pdptr = reinterpret_cast<CUdeviceptr>(p);
  return CUDA_SUCCESS;
}
FAKE_EXPORT(cuMemHostGetDevicePointer, 3020)

CUresult CUDAAPI cuMemHostRegister(void* p, size_t bytesize, unsigned int flags) {
  FAKE_ENTER(cuMemHostRegister);
  FAKE_REQUIRE_CONTEXT();
  if (!p || bytesize == 0) return CUDA_ERROR_INVALID_VALUE;
  if (flags & ~unsigned(CU_MEMHOSTREGISTER_PORTABLE | CU_MEMHOSTREGISTER_DEVICEMAP | CU_MEMHOSTREGISTER_IOMEMORY |
                        CU_MEMHOSTREGISTER_READ_ONLY))
    return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard<std::recursive_mutex> g(lock());
  uintptr_t base = reinterpret_cast<uintptr_t>(p);
  if (base + bytesize < base) return CUDA_ERROR_INVALID_VALUE;
  // Any overlap with memory the driver already knows is refused.
  auto& all = allocations();
  auto it = all.lower_bound(base);
  if (it != all.end() && it->first < base + bytesize) return CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED;
  if (it != all.begin()) {
    auto before = std::prev(it);
    if (before->first + before->second.size > base) return CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED;
  }
  add_allocation(p, bytesize, MemKind::Registered, nullptr, flags);
  return CUDA_SUCCESS;
}
FAKE_EXPORT(cuMemHostRegister, 6050)

CUresult CUDAAPI cuMemHostUnregister(void* p) {
  FAKE_ENTER(cuMemHostUnregister);
  FAKE_REQUIRE_CONTEXT();
  std::lock_guard<std::recursive_mutex> g(lock());
  auto it = allocations().find(reinterpret_cast<uintptr_t>(p));
  if (it == allocations().end() || it->second.kind != MemKind::Registered)
    return CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED;
  drop_allocation(it);
  return CUDA_SUCCESS;
}
FAKE_EXPORT(cuMemHostUnregister, 4000)

// ---------------------------------------------------------------------------
// Managed memory

CUresult CUDAAPI cuMemAllocManaged(CUdeviceptr* dptr, size_t bytesize, unsigned int flags) {
  FAKE_ENTER(cuMemAllocManaged);
  FAKE_REQUIRE_CONTEXT();
  if (!dptr) return CUDA_ERROR_INVALID_VALUE;
  *dptr = 0;
  if (bytesize == 0 || (flags != CU_MEM_ATTACH_GLOBAL && flags != CU_MEM_ATTACH_HOST)) return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard<std::recursive_mutex> g(lock());
  if (bytesize > kHostAllocationLimit || host_bytes() + round_up(bytesize) > kHostAllocationLimit)
    return CUDA_ERROR_OUT_OF_MEMORY;
  void* p = raw_alloc(bytesize);
  if (!p) return CUDA_ERROR_OUT_OF_MEMORY;
  host_bytes() += round_up(bytesize);
  add_allocation(p, bytesize, MemKind::Managed, nullptr, flags);
  *dptr = reinterpret_cast<CUdeviceptr>(p);
  return CUDA_SUCCESS;
}
FAKE_EXPORT(cuMemAllocManaged, 6000)

namespace fake {
// Shared by the current (location-based) and the legacy (device-ordinal)
// prefetch and advice, which fake_compat.cpp defines.
CUresult check_managed_range(CUdeviceptr p, size_t count) {
  Allocation* a = find_allocation(static_cast<uintptr_t>(p), count);
  if (!a || a->kind != MemKind::Managed || count == 0) return CUDA_ERROR_INVALID_VALUE;
  return CUDA_SUCCESS;
}

CUresult check_location(const CUmemLocation& loc) {
  if (loc.type == CU_MEM_LOCATION_TYPE_HOST || loc.type == CU_MEM_LOCATION_TYPE_HOST_NUMA_CURRENT) return CUDA_SUCCESS;
  if (loc.type == CU_MEM_LOCATION_TYPE_DEVICE) return device(loc.id) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_DEVICE;
  return CUDA_ERROR_INVALID_VALUE;
}

CUresult prefetch(CUdeviceptr p, size_t count, const CUmemLocation& loc, CUstream hStream, const char* entry) {
  std::lock_guard<std::recursive_mutex> g(lock());
  if (CUresult r = check_managed_range(p, count)) return r;
  if (CUresult r = check_location(loc)) return r;
  if (loc.type == CU_MEM_LOCATION_TYPE_DEVICE) {
    // As a real driver: prefetching to a device needs concurrent managed access (the fake's devices have it).
  }
  Stream* s = nullptr;
  if (CUresult r = stream_for_work(hStream, &s)) return r;
  return enqueue(s, entry, [] { return CUDA_SUCCESS; });
}

CUresult advise(CUdeviceptr p, size_t count, CUmem_advise advice, const CUmemLocation& loc) {
  std::lock_guard<std::recursive_mutex> g(lock());
  if (CUresult r = check_managed_range(p, count)) return r;
  if (advice < CU_MEM_ADVISE_SET_READ_MOSTLY || advice > CU_MEM_ADVISE_UNSET_ACCESSED_BY) return CUDA_ERROR_INVALID_VALUE;
  bool needs_location = advice != CU_MEM_ADVISE_SET_READ_MOSTLY && advice != CU_MEM_ADVISE_UNSET_READ_MOSTLY;
  if (needs_location) return check_location(loc);
  return CUDA_SUCCESS;
}
}  // namespace fake

CUresult CUDAAPI cuMemPrefetchAsync(CUdeviceptr devPtr, size_t count, CUmemLocation location, unsigned int flags,
                                    CUstream hStream) {
  FAKE_ENTER(cuMemPrefetchAsync);
  FAKE_REQUIRE_CONTEXT();
  if (flags != 0) return CUDA_ERROR_INVALID_VALUE;
  return prefetch(devPtr, count, location, hStream, "cuMemPrefetchAsync");
}
FAKE_EXPORT(cuMemPrefetchAsync, 12020)

CUresult CUDAAPI cuMemAdvise(CUdeviceptr devPtr, size_t count, CUmem_advise advice, CUmemLocation location) {
  FAKE_ENTER(cuMemAdvise);
  FAKE_REQUIRE_CONTEXT();
  return advise(devPtr, count, advice, location);
}
FAKE_EXPORT(cuMemAdvise, 12020)

// ---------------------------------------------------------------------------
// Pointer attributes: pageable host memory is unknown to the driver
// (CUDA_ERROR_INVALID_VALUE), as on a real one.

// One attribute of a pointer the fake knows (the caller holds the lock).
static CUresult pointer_attribute(void* data, CUpointer_attribute attribute, CUdeviceptr ptr) {
  Allocation* a = allocation_containing(static_cast<uintptr_t>(ptr));
  if (!a) return CUDA_ERROR_INVALID_VALUE;
  bool host = a->kind == MemKind::Pinned || a->kind == MemKind::Registered;
  switch (attribute) {
    case CU_POINTER_ATTRIBUTE_CONTEXT:
      *static_cast<CUcontext*>(data) = reinterpret_cast<CUcontext>(a->ctx);
      return CUDA_SUCCESS;
    case CU_POINTER_ATTRIBUTE_MEMORY_TYPE:
      *static_cast<unsigned int*>(data) = host ? CU_MEMORYTYPE_HOST : CU_MEMORYTYPE_DEVICE;
      return CUDA_SUCCESS;
    case CU_POINTER_ATTRIBUTE_DEVICE_POINTER:
      *static_cast<CUdeviceptr*>(data) = ptr;
      return CUDA_SUCCESS;
    case CU_POINTER_ATTRIBUTE_HOST_POINTER:
      if (a->kind == MemKind::Device) return CUDA_ERROR_INVALID_VALUE;
      *static_cast<void**>(data) = reinterpret_cast<void*>(ptr);
      return CUDA_SUCCESS;
    case CU_POINTER_ATTRIBUTE_IS_MANAGED:
      *static_cast<int*>(data) = a->kind == MemKind::Managed ? 1 : 0;
      return CUDA_SUCCESS;
    case CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL:
      *static_cast<int*>(data) = a->ordinal;
      return CUDA_SUCCESS;
    case CU_POINTER_ATTRIBUTE_RANGE_START_ADDR:
      *static_cast<CUdeviceptr*>(data) = static_cast<CUdeviceptr>(a->base);
      return CUDA_SUCCESS;
    case CU_POINTER_ATTRIBUTE_RANGE_SIZE:
      *static_cast<size_t*>(data) = a->size;
      return CUDA_SUCCESS;
    case CU_POINTER_ATTRIBUTE_MAPPED:
      *static_cast<int*>(data) = 1;
      return CUDA_SUCCESS;
    case CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE:
      *static_cast<CUmemoryPool*>(data) = reinterpret_cast<CUmemoryPool>(a->pool);
      return CUDA_SUCCESS;
    default:
      return CUDA_ERROR_INVALID_VALUE;
  }
}
CUresult CUDAAPI cuPointerGetAttribute(void* data, CUpointer_attribute attribute, CUdeviceptr ptr) {
  FAKE_ENTER(cuPointerGetAttribute);
  FAKE_REQUIRE_CONTEXT();
  if (!data) return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard<std::recursive_mutex> g(lock());
  return pointer_attribute(data, attribute, ptr);
}
FAKE_EXPORT(cuPointerGetAttribute, 4000)

// As the real driver: memory it does not know is no error; every attribute
// reads as zero (memory type 0, no context...).
CUresult CUDAAPI cuPointerGetAttributes(unsigned int count, CUpointer_attribute* attributes, void** data,
                                        CUdeviceptr ptr) {
  FAKE_ENTER(cuPointerGetAttributes);
  FAKE_REQUIRE_CONTEXT();
  if (!attributes || !data) return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard<std::recursive_mutex> g(lock());
  bool known = allocation_containing(static_cast<uintptr_t>(ptr)) != nullptr;
  for (unsigned int i = 0; i < count; ++i) {
    if (!data[i]) return CUDA_ERROR_INVALID_VALUE;
    if (known && pointer_attribute(data[i], attributes[i], ptr) == CUDA_SUCCESS) continue;
    switch (attributes[i]) {
      case CU_POINTER_ATTRIBUTE_CONTEXT:
      case CU_POINTER_ATTRIBUTE_DEVICE_POINTER:
      case CU_POINTER_ATTRIBUTE_HOST_POINTER:
      case CU_POINTER_ATTRIBUTE_RANGE_START_ADDR:
      case CU_POINTER_ATTRIBUTE_RANGE_SIZE:
        std::memset(data[i], 0, sizeof(void*));
        break;
      default:
        std::memset(data[i], 0, sizeof(int));
        break;
    }
  }
  return CUDA_SUCCESS;
}
FAKE_EXPORT(cuPointerGetAttributes, 7000)

// For the fake CUDA libraries (tests/fake_cufft): whether [p, p + n) lies in
// one live allocation the device may read and write.
FAKE_API int dcfake_device_range_ok(unsigned long long p, unsigned long long n) {
  std::lock_guard<std::recursive_mutex> guard(fake::lock());
  return fake::device_range_ok(static_cast<CUdeviceptr>(p), static_cast<size_t>(n)) ? 1 : 0;
}
