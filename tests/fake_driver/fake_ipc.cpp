// The fake driver's interprocess memory handles (a test double, never a GPU).
// It models one process: cuIpcGetMemHandle names a cuMemAlloc allocation (not
// pool or virtual memory, as the driver) and the process; cuIpcOpenMemHandle
// in that same process gives the allocation's own address (a real driver
// maps it in another process, and refuses the exporting one), counted until
// cuIpcCloseMemHandle. Another process cannot open it: the fake's memory is
// its own process's.
//
// Pools (Linux): cuMemPoolExportToShareableHandle gives a real descriptor (a
// memfd) that the fake maps back to its pool by inode, so a copy of it (dup,
// pidfd_getfd, SCM_RIGHTS) names the same pool. Importing it makes a pool
// object of its own that allocates nothing; cuMemPoolExportPointer names an
// allocation of an exportable pool, and cuMemPoolImportPointer into an import
// of that pool gives the allocation's own address, counted until cuMemFree.
// An exporter that frees the memory first drops the open imports and counts
// them as "pool_imports_orphaned" (a real driver leaves that undefined).
#include <cstring>
#include <map>

#if defined(_WIN32)
#include <windows.h>
#else
#include <sys/stat.h>
#include <unistd.h>
#endif
#if defined(__linux__)
#include <sys/mman.h>
#endif

#include "fake_memory.h"

namespace fake {

uint32_t fake_process_id() {
#if defined(_WIN32)
  return static_cast<uint32_t>(GetCurrentProcessId());
#else
  return static_cast<uint32_t>(getpid());
#endif
}

namespace {

struct FakeIpcMemory {
  char magic[4];
  uint32_t process;
  uint64_t base;
  uint64_t size;
};
constexpr char kIpcMemoryMagic[4] = {'F', 'K', 'I', 'M'};

// (opened address, the context it was opened in) -> opens not yet closed.
std::map<std::pair<uintptr_t, Context*>, int>& opens() {
  static auto* m = new std::map<std::pair<uintptr_t, Context*>, int>;
  return *m;
}

// On cuDevicePrimaryCtxReset: the context's imports are unmapped with it.
void drop_context_opens(Context* ctx) {
  for (auto it = opens().begin(); it != opens().end();) {
    if (it->first.second == ctx) {
      live_add("ipc_opens", -it->second);
      it = opens().erase(it);
    } else {
      ++it;
    }
  }
}
ResetHook g_ipc_reset_hook(drop_context_opens);

struct FakePoolPointer {
  char magic[4];
  uint32_t process;
  uint64_t base;
  uint64_t size;
  Pool* pool;
};
constexpr char kPoolPointerMagic[4] = {'F', 'K', 'P', 'P'};

// (device, inode) of an exported descriptor -> the pool it shares.
std::map<std::pair<uint64_t, uint64_t>, Pool*>& exported_pools() {
  static auto* m = new std::map<std::pair<uint64_t, uint64_t>, Pool*>;
  return *m;
}

// The file a descriptor is open on, or false for a descriptor that is not open.
bool file_of(int fd, std::pair<uint64_t, uint64_t>* id) {
#if defined(_WIN32)
  (void)fd;
  (void)id;
  return false;
#else
  struct stat st;
  if (fstat(fd, &st) != 0) return false;
  *id = {static_cast<uint64_t>(st.st_dev), static_cast<uint64_t>(st.st_ino)};
  return true;
#endif
}

// base -> imports not yet freed (any context: the fake's imports are the memory itself).
std::map<uintptr_t, int>& pool_imports() {
  static auto* m = new std::map<uintptr_t, int>;
  return *m;
}

}  // namespace

void forget_pool_exports(Pool* pool) {
  for (auto it = exported_pools().begin(); it != exported_pools().end();)
    it = it->second == pool ? exported_pools().erase(it) : std::next(it);
}

void forget_pool_imports(uintptr_t base) {
  auto it = pool_imports().find(base);
  if (it == pool_imports().end()) return;
  live_add("pool_imports", -it->second);
  live_add("pool_imports_orphaned", it->second);
  pool_imports().erase(it);
}

bool free_pool_import(uintptr_t p) {
  auto it = pool_imports().find(p);
  if (it == pool_imports().end()) return false;
  if (--it->second == 0) pool_imports().erase(it);
  live_add("pool_imports", -1);
  return true;
}

}  // namespace fake

using namespace fake;

CUresult CUDAAPI cuIpcGetMemHandle(CUipcMemHandle* pHandle, CUdeviceptr dptr) {
  FAKE_ENTER(cuIpcGetMemHandle);
  FAKE_REQUIRE_CONTEXT();
  if (!pHandle) return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard<std::recursive_mutex> g(lock());
  Allocation* a = find_allocation(static_cast<uintptr_t>(dptr), 1);
  // The base of device memory from cuMemAlloc: pools and virtual memory have their own export paths.
  if (!a || a->base != static_cast<uintptr_t>(dptr) || a->kind != MemKind::Device || a->pooled || a->vmm)
    return CUDA_ERROR_INVALID_VALUE;
  FakeIpcMemory h{};
  std::memcpy(h.magic, kIpcMemoryMagic, 4);
  h.process = fake_process_id();
  h.base = a->base;
  h.size = a->size;
  std::memset(pHandle, 0, sizeof *pHandle);
  std::memcpy(pHandle->reserved, &h, sizeof h);
  return CUDA_SUCCESS;
}
FAKE_EXPORT(cuIpcGetMemHandle, 4010)

CUresult CUDAAPI cuIpcOpenMemHandle(CUdeviceptr* pdptr, CUipcMemHandle handle, unsigned int Flags) {
  FAKE_ENTER(cuIpcOpenMemHandle);
  FAKE_REQUIRE_CONTEXT();
  if (!pdptr) return CUDA_ERROR_INVALID_VALUE;
  *pdptr = 0;
  if (Flags & ~unsigned(CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS)) return CUDA_ERROR_INVALID_VALUE;
  FakeIpcMemory h;
  std::memcpy(&h, handle.reserved, sizeof h);
  std::lock_guard<std::recursive_mutex> g(lock());
  if (std::memcmp(h.magic, kIpcMemoryMagic, 4) != 0 || h.process != fake_process_id()) return CUDA_ERROR_INVALID_VALUE;
  // The exporter must still have it.
  Allocation* a = find_allocation(static_cast<uintptr_t>(h.base), 1);
  if (!a || a->base != h.base || a->size != h.size) return CUDA_ERROR_INVALID_VALUE;
  ++opens()[{a->base, current_context()}];
  live_add("ipc_opens", 1);
  *pdptr = static_cast<CUdeviceptr>(a->base);
  return CUDA_SUCCESS;
}
FAKE_EXPORT(cuIpcOpenMemHandle, 11000)

CUresult CUDAAPI cuIpcCloseMemHandle(CUdeviceptr dptr) {
  FAKE_ENTER(cuIpcCloseMemHandle);
  FAKE_REQUIRE_CONTEXT();
  std::lock_guard<std::recursive_mutex> g(lock());
  auto it = opens().find({static_cast<uintptr_t>(dptr), current_context()});
  if (it == opens().end()) return CUDA_ERROR_INVALID_VALUE;
  if (--it->second == 0) opens().erase(it);
  live_add("ipc_opens", -1);
  return CUDA_SUCCESS;
}
FAKE_EXPORT(cuIpcCloseMemHandle, 4010)

CUresult CUDAAPI cuMemPoolExportToShareableHandle(void* handle_out, CUmemoryPool pool,
                                                  CUmemAllocationHandleType handleType, unsigned long long flags) {
  FAKE_ENTER(cuMemPoolExportToShareableHandle);
  FAKE_REQUIRE_CONTEXT();
  if (!handle_out || flags != 0 || handleType != CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR)
    return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard<std::recursive_mutex> g(lock());
  Pool* p = live_pool(pool);
  if (!p || p->imported || p->is_default || !p->exportable) return CUDA_ERROR_INVALID_VALUE;
#if defined(__linux__)
  // Each call a new descriptor the caller owns, as the driver's.
  int fd = memfd_create("dcfake-pool", MFD_CLOEXEC);
  std::pair<uint64_t, uint64_t> id;
  if (fd < 0) return CUDA_ERROR_OUT_OF_MEMORY;
  if (!file_of(fd, &id)) {
    close(fd);
    return CUDA_ERROR_OUT_OF_MEMORY;
  }
  exported_pools()[id] = p;
  *static_cast<int*>(handle_out) = fd;
  return CUDA_SUCCESS;
#else
  return CUDA_ERROR_NOT_SUPPORTED;
#endif
}
FAKE_EXPORT(cuMemPoolExportToShareableHandle, 11020)

CUresult CUDAAPI cuMemPoolImportFromShareableHandle(CUmemoryPool* pool_out, void* handle,
                                                    CUmemAllocationHandleType handleType, unsigned long long flags) {
  FAKE_ENTER(cuMemPoolImportFromShareableHandle);
  FAKE_REQUIRE_CONTEXT();
  if (!pool_out) return CUDA_ERROR_INVALID_VALUE;
  *pool_out = nullptr;
  if (flags != 0 || handleType != CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR) return CUDA_ERROR_INVALID_VALUE;
  int fd = static_cast<int>(reinterpret_cast<uintptr_t>(handle));
  std::lock_guard<std::recursive_mutex> g(lock());
  std::pair<uint64_t, uint64_t> id;
  if (!file_of(fd, &id)) return CUDA_ERROR_INVALID_VALUE;
  auto it = exported_pools().find(id);
  if (it == exported_pools().end()) return CUDA_ERROR_INVALID_VALUE;
  Pool* source = it->second;
  Pool* p = new Pool;
  p->ctx = current_context();
  p->ordinal = source->ordinal;
  p->imported = true;
  p->imported_from = source;
  pools()[p] = true;
  live_add("pools", 1);
  *pool_out = reinterpret_cast<CUmemoryPool>(p);
  return CUDA_SUCCESS;
}
FAKE_EXPORT(cuMemPoolImportFromShareableHandle, 11020)

CUresult CUDAAPI cuMemPoolExportPointer(CUmemPoolPtrExportData* shareData_out, CUdeviceptr ptr) {
  FAKE_ENTER(cuMemPoolExportPointer);
  FAKE_REQUIRE_CONTEXT();
  if (!shareData_out) return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard<std::recursive_mutex> g(lock());
  Allocation* a = find_allocation(static_cast<uintptr_t>(ptr), 1);
  // The start of an allocation of an exportable pool.
  if (!a || a->base != static_cast<uintptr_t>(ptr) || a->kind != MemKind::Device || !a->pool ||
      !a->pool->exportable)
    return CUDA_ERROR_INVALID_VALUE;
  FakePoolPointer h{};
  std::memcpy(h.magic, kPoolPointerMagic, 4);
  h.process = fake_process_id();
  h.base = a->base;
  h.size = a->size;
  h.pool = a->pool;
  static_assert(sizeof h <= sizeof shareData_out->reserved);
  std::memset(shareData_out, 0, sizeof *shareData_out);
  std::memcpy(shareData_out->reserved, &h, sizeof h);
  return CUDA_SUCCESS;
}
FAKE_EXPORT(cuMemPoolExportPointer, 11020)

CUresult CUDAAPI cuMemPoolImportPointer(CUdeviceptr* ptr_out, CUmemoryPool pool, CUmemPoolPtrExportData* shareData) {
  FAKE_ENTER(cuMemPoolImportPointer);
  FAKE_REQUIRE_CONTEXT();
  if (!ptr_out || !shareData) return CUDA_ERROR_INVALID_VALUE;
  *ptr_out = 0;
  FakePoolPointer h;
  std::memcpy(&h, shareData->reserved, sizeof h);
  std::lock_guard<std::recursive_mutex> g(lock());
  Pool* p = live_pool(pool);
  if (!p || !p->imported) return CUDA_ERROR_INVALID_VALUE;
  if (std::memcmp(h.magic, kPoolPointerMagic, 4) != 0 || h.process != fake_process_id()) return CUDA_ERROR_INVALID_VALUE;
  // Into an import of the pool it came from, while the exporter still has it.
  Allocation* a = find_allocation(static_cast<uintptr_t>(h.base), 1);
  if (!a || a->base != h.base || a->size != h.size || a->pool != h.pool || p->imported_from != h.pool)
    return CUDA_ERROR_INVALID_VALUE;
  ++pool_imports()[a->base];
  live_add("pool_imports", 1);
  *ptr_out = static_cast<CUdeviceptr>(a->base);
  return CUDA_SUCCESS;
}
FAKE_EXPORT(cuMemPoolImportPointer, 11020)
