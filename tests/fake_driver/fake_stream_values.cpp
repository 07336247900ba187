// The fake driver's stream memory operations (a test double, never a GPU):
// cuStreamWaitValue32/64, cuStreamWriteValue32/64 and cuStreamBatchMemOp.
// The address must lie in live memory (cuMemAlloc device memory, pinned or
// registered host memory; not pool or managed memory) and be aligned to the
// value's size, else CUDA_ERROR_INVALID_VALUE. A write
// is stream work (done at once). A wait already satisfied is a no-op; one that
// is not holds the stream as a resident kernel does (fake_memory.h:
// ResidentRun): a thread polls the value until the condition holds, and the
// stream's synchronisation waits for it. Captured into a graph, a wait polls
// when the graph runs (for at most 60 s).
#include <chrono>
#include <memory>
#include <thread>

#include "fake_graph.h"
#include "fake_memory.h"

namespace fake {
namespace {

template <class T>
bool satisfied(CUdeviceptr address, T value, unsigned flags) {
  T now = __atomic_load_n(reinterpret_cast<const T*>(static_cast<uintptr_t>(address)), __ATOMIC_ACQUIRE);
  using S = std::make_signed_t<T>;
  switch (flags & 0x3u) {
    case CU_STREAM_WAIT_VALUE_GEQ: return static_cast<S>(now - value) >= 0;
    case CU_STREAM_WAIT_VALUE_EQ: return now == value;
    case CU_STREAM_WAIT_VALUE_AND: return (now & value) != 0;
    default: return static_cast<T>(~(now | value)) != 0;
  }
}

// As an H200 with CUDA 13.0 answers (tests/gpu/probes/stream_write_targets.py):
// memory of a pool (stream-ordered allocator) and managed memory are refused,
// and so is CU_STREAM_WRITE_VALUE_NO_MEMORY_BARRIER (the _v2 entry points do
// not take it): CUDA_ERROR_INVALID_VALUE.
template <class T>
CUresult check_value(CUdeviceptr address, unsigned flags, unsigned known) {
  if (address % sizeof(T) || (flags & ~known)) return CUDA_ERROR_INVALID_VALUE;
  const Allocation* a = find_allocation(static_cast<uintptr_t>(address), sizeof(T));
  if (!a || a->pooled || a->kind == MemKind::Managed) return CUDA_ERROR_INVALID_VALUE;
  return CUDA_SUCCESS;
}

template <class T>
CUresult wait_value(const char* entry, CUstream hStream, CUdeviceptr address, T value, unsigned flags) {
  std::lock_guard<std::recursive_mutex> g(lock());
  Stream* s = nullptr;
  if (CUresult r = stream_for_work(hStream, &s)) return r;
  if (CUresult r = check_value<T>(address, flags, 0x3u | unsigned(CU_STREAM_WAIT_VALUE_FLUSH))) return r;
  if (s->capture) {
    return enqueue(s, entry, [address, value, flags] {
      auto until = std::chrono::steady_clock::now() + std::chrono::seconds(60);
      while (!satisfied<T>(address, value, flags) && std::chrono::steady_clock::now() < until)
        std::this_thread::sleep_for(std::chrono::microseconds(50));
      return CUDA_SUCCESS;
    });
  }
  return enqueue(s, entry, [s, address, value, flags] {
    if (satisfied<T>(address, value, flags)) return CUDA_SUCCESS;
    auto run = std::make_shared<ResidentRun>();
    s->resident = run;
    std::thread([run, address, value, flags] {
      while (!satisfied<T>(address, value, flags)) std::this_thread::sleep_for(std::chrono::microseconds(50));
      run->finish();
    }).detach();
    return CUDA_SUCCESS;
  });
}

template <class T>
CUresult write_value(const char* entry, CUstream hStream, CUdeviceptr address, T value, unsigned flags) {
  std::lock_guard<std::recursive_mutex> g(lock());
  Stream* s = nullptr;
  if (CUresult r = stream_for_work(hStream, &s)) return r;
  if (CUresult r = check_value<T>(address, flags, 0)) return r;
  return enqueue(s, entry, [address, value] {
    __atomic_store_n(reinterpret_cast<T*>(static_cast<uintptr_t>(address)), value, __ATOMIC_RELEASE);
    return CUDA_SUCCESS;
  });
}

}  // namespace
}  // namespace fake

using namespace fake;

CUresult CUDAAPI cuStreamWaitValue32(CUstream stream, CUdeviceptr addr, cuuint32_t value, unsigned int flags) {
  FAKE_ENTER(cuStreamWaitValue32);
  FAKE_REQUIRE_CONTEXT();
  return wait_value<uint32_t>("cuStreamWaitValue32", stream, addr, value, flags);
}
FAKE_EXPORT(cuStreamWaitValue32, 11070)

CUresult CUDAAPI cuStreamWaitValue64(CUstream stream, CUdeviceptr addr, cuuint64_t value, unsigned int flags) {
  FAKE_ENTER(cuStreamWaitValue64);
  FAKE_REQUIRE_CONTEXT();
  return wait_value<uint64_t>("cuStreamWaitValue64", stream, addr, value, flags);
}
FAKE_EXPORT(cuStreamWaitValue64, 11070)

CUresult CUDAAPI cuStreamWriteValue32(CUstream stream, CUdeviceptr addr, cuuint32_t value, unsigned int flags) {
  FAKE_ENTER(cuStreamWriteValue32);
  FAKE_REQUIRE_CONTEXT();
  return write_value<uint32_t>("cuStreamWriteValue32", stream, addr, value, flags);
}
FAKE_EXPORT(cuStreamWriteValue32, 11070)

CUresult CUDAAPI cuStreamWriteValue64(CUstream stream, CUdeviceptr addr, cuuint64_t value, unsigned int flags) {
  FAKE_ENTER(cuStreamWriteValue64);
  FAKE_REQUIRE_CONTEXT();
  return write_value<uint64_t>("cuStreamWriteValue64", stream, addr, value, flags);
}
FAKE_EXPORT(cuStreamWriteValue64, 11070)

CUresult CUDAAPI cuStreamBatchMemOp(CUstream stream, unsigned int count, CUstreamBatchMemOpParams* ops,
                                    unsigned int flags) {
  FAKE_ENTER(cuStreamBatchMemOp);
  FAKE_REQUIRE_CONTEXT();
  if (!ops || count == 0 || count > 256 || flags != 0) return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard<std::recursive_mutex> g(lock());
  // All checked before any runs, as the driver validates the batch.
  for (unsigned i = 0; i < count; ++i) {
    const CUstreamBatchMemOpParams& p = ops[i];
    CUresult r = CUDA_ERROR_INVALID_VALUE;
    switch (p.operation) {
      case CU_STREAM_MEM_OP_WAIT_VALUE_32:
        r = check_value<uint32_t>(p.waitValue.address, p.waitValue.flags, 0x3u | unsigned(CU_STREAM_WAIT_VALUE_FLUSH));
        break;
      case CU_STREAM_MEM_OP_WAIT_VALUE_64:
        r = check_value<uint64_t>(p.waitValue.address, p.waitValue.flags, 0x3u | unsigned(CU_STREAM_WAIT_VALUE_FLUSH));
        break;
      case CU_STREAM_MEM_OP_WRITE_VALUE_32:
        r = check_value<uint32_t>(p.writeValue.address, p.writeValue.flags, 0);
        break;
      case CU_STREAM_MEM_OP_WRITE_VALUE_64:
        r = check_value<uint64_t>(p.writeValue.address, p.writeValue.flags, 0);
        break;
      default:
        break;
    }
    if (r != CUDA_SUCCESS) return r;
  }
  for (unsigned i = 0; i < count; ++i) {
    const CUstreamBatchMemOpParams& p = ops[i];
    CUresult r = CUDA_SUCCESS;
    switch (p.operation) {
      case CU_STREAM_MEM_OP_WAIT_VALUE_32:
        r = wait_value<uint32_t>("cuStreamBatchMemOp", stream, p.waitValue.address,
                                 static_cast<uint32_t>(p.waitValue.value64), p.waitValue.flags);
        break;
      case CU_STREAM_MEM_OP_WAIT_VALUE_64:
        r = wait_value<uint64_t>("cuStreamBatchMemOp", stream, p.waitValue.address, p.waitValue.value64,
                                 p.waitValue.flags);
        break;
      case CU_STREAM_MEM_OP_WRITE_VALUE_32:
        r = write_value<uint32_t>("cuStreamBatchMemOp", stream, p.writeValue.address,
                                  static_cast<uint32_t>(p.writeValue.value64), p.writeValue.flags);
        break;
      default:
        r = write_value<uint64_t>("cuStreamBatchMemOp", stream, p.writeValue.address, p.writeValue.value64,
                                  p.writeValue.flags);
        break;
    }
    if (r != CUDA_SUCCESS) return r;
  }
  return CUDA_SUCCESS;
}
FAKE_EXPORT(cuStreamBatchMemOp, 11070)
