// The fake driver's interprocess memory handles (a test double, never a GPU).
// It models one process: cuIpcGetMemHandle names a cuMemAlloc allocation (not
// pool or virtual memory, as the driver) and the process; cuIpcOpenMemHandle
// in that same process gives the allocation's own address (a real driver
// maps it in another process, and refuses the exporting one), counted until
// cuIpcCloseMemHandle. Another process cannot open it: the fake's memory is
// its own process's.
#include <cstring>
#include <map>

#if defined(_WIN32)
#include <windows.h>
#else
#include <unistd.h>
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

}  // namespace
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
