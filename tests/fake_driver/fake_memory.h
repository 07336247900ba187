// Internals shared by the fake driver's memory, copy, stream and event files
// (a test double, never a GPU).
//
// Memory: every allocation is host memory; a device pointer is its host
// address. The fake keeps a map of live allocations so that a copy, fill or
// prefetch touching bytes outside a live allocation is refused with
// CUDA_ERROR_INVALID_VALUE: a bounds bug in dccuda shows up as a failed test,
// not as silently corrupted host memory.
//
// Streams: work runs at once, on the calling thread, inside enqueue(). Each
// stream keeps the error of a failed asynchronous operation until the next
// synchronisation reports it (dcfake_inject_async), which is how a real GPU
// reports a failed copy.
#pragma once

#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "fake.h"

namespace fake {

enum class MemKind {
  Device,      // cuMemAlloc, pools
  Pinned,      // cuMemHostAlloc
  Managed,     // cuMemAllocManaged
  Registered,  // cuMemHostRegister (the caller's memory: never freed by the fake)
};

// A stream-ordered pool (cuMemPoolCreate, a device's default pool, or one
// imported from an exported descriptor).
struct Pool {
  Context* ctx = nullptr;
  int ordinal = 0;
  cuuint64_t release_threshold = 0;
  // Freed blocks the pool keeps for reuse (size -> address), as a real pool
  // keeps physical memory mapped up to its release threshold.
  std::multimap<size_t, void*> cached;
  size_t cached_bytes = 0;
  bool is_default = false;  // the device's implicit pool (cuMemAllocAsync)
  std::map<int, int> access;  // device ordinal -> CUmemAccess_flags granted by cuMemPoolSetAccess
  // Statistics as a real pool keeps them (CU_MEMPOOL_ATTR_*_MEM_*): reserved
  // is what is in use plus what is cached; the high-water marks reset to the
  // current values when 0 is set.
  size_t used_bytes = 0;
  size_t used_high = 0;
  size_t reserved_high = 0;
  size_t max_size = 0;        // CUmemPoolProps::maxSize (0: no limit but the device)
  int reuse[3] = {1, 1, 1};   // the three reuse attributes (on by default)
  bool exportable = false;    // made with CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR
  // Imported (cuMemPoolImportFromShareableHandle, fake_ipc.cpp): holds no
  // allocations of its own; names the exported pool while that lives.
  bool imported = false;
  Pool* imported_from = nullptr;
  void note_high() {
    if (used_bytes > used_high) used_high = used_bytes;
    if (used_bytes + cached_bytes > reserved_high) reserved_high = used_bytes + cached_bytes;
  }
};

// The pool `handle` names if it is live, or nullptr. Callers hold fake::lock().
Pool* live_pool(CUmemoryPool handle);
// Every pool live now (value unused). Callers hold fake::lock().
std::map<Pool*, bool>& pools();

// Pool sharing (fake_ipc.cpp); callers hold fake::lock(). The pool is being
// destroyed: its exported descriptors name nothing more.
void forget_pool_exports(Pool* pool);
// The pool allocation at `base` is being freed: imports of it still open
// are dropped (counted as "pool_imports_orphaned": the driver requires the
// importer to free first).
void forget_pool_imports(uintptr_t base);
// cuMemFree of an imported pool pointer: true if `p` was one (one import fewer).
bool free_pool_import(uintptr_t p);

struct Allocation {
  uintptr_t base = 0;
  size_t size = 0;
  MemKind kind = MemKind::Device;
  Context* ctx = nullptr;
  int ordinal = 0;
  Pool* pool = nullptr;      // the pool it came from, if any
  bool pooled = false;       // came from a pool (kept when the pool goes): stream memory operations refuse it
  unsigned flags = 0;        // cuMemHostAlloc / cuMemHostRegister / cuMemAllocManaged flags
  bool vmm = false;          // a run of mapped virtual memory (fake_virtual.cpp): cuMemFree refuses it
};

// The live allocation that holds all of [p, p + n) (n = 0 counts as 1 byte),
// or nullptr. Callers hold fake::lock().
Allocation* find_allocation(uintptr_t p, size_t n);
// The live allocation that holds byte p, or nullptr (for telling device and
// host addresses apart in unified copies).
Allocation* allocation_containing(uintptr_t p);

// Whether [p, p + n) may be read or written by the device: inside a live
// allocation of any kind (pinned and registered host memory is mapped, as
// under unified addressing on a real GPU).
bool device_range_ok(CUdeviceptr p, size_t n);
// Graph memory (cuGraphAddMemAllocNode): an address reserved when the alloc
// node is added (freed when the last node holding the reservation dies), live
// as device memory only from the alloc node's replay to the free node's, so
// that a copy or kernel touching it outside that window is refused as memory
// that is not there. map: CUDA_ERROR_INVALID_VALUE if it is live already (a
// relaunch before the last launch's memory was freed); unmap: if it is not.
// Callers of map and unmap hold fake::lock().
std::shared_ptr<void> reserve_graph_memory(size_t size);
// Whether [p, p + n) lies in reserved graph memory, live or not (what a node
// of the graph may name when it is added). Callers hold fake::lock().
bool graph_range_ok(CUdeviceptr p, size_t n);
// A 2D or 3D copy node's work (cuGraphAddMemcpyNode with Height or Depth
// above 1, fake_copy_3d.cpp), checked now as cuMemcpy3DAsync checks its
// parameters (graph memory counts as there) and at each replay (every row in
// live memory, else CUDA_ERROR_ILLEGAL_ADDRESS). Callers hold fake::lock().
CUresult make_copy_3d_work(const CUDA_MEMCPY3D* p, std::function<CUresult()>* work);
// This process's id, as the fake's interprocess handles record it (fake_ipc.cpp).
uint32_t fake_process_id();
CUresult map_graph_memory(CUdeviceptr p, size_t size);
// Virtual memory (fake_virtual.cpp): replaces the live memory the fake knows in
// [begin, end) of a reservation by `runs` (base, size: the contiguous runs of
// pages mapped and made accessible), so that a copy or kernel may cross from
// one mapped chunk into the next as on a GPU. Callers hold fake::lock().
void set_virtual_runs(uintptr_t begin, uintptr_t end, const std::vector<std::pair<uintptr_t, size_t>>& runs);
CUresult unmap_graph_memory(CUdeviceptr p);

// A resident kernel running on its own thread (fake_kernels.h: spin_until,
// dc_echo): it ends only when the memory it polls tells it to, as a
// persistent kernel on a GPU does. Work that waits for it (a stream, event or
// context synchronisation) blocks until it ends, as on a GPU; queries answer
// CUDA_ERROR_NOT_READY meanwhile. Work enqueued behind it on its stream runs
// at once (the fake does not order it after the kernel).
struct ResidentRun {
  std::mutex mutex;
  std::condition_variable ended;
  bool done = false;
  bool finished() {
    std::lock_guard<std::mutex> g(mutex);
    return done;
  }
  void finish() {
    std::lock_guard<std::mutex> g(mutex);
    done = true;
    ended.notify_all();
  }
  void wait() {
    std::unique_lock<std::mutex> g(mutex);
    ended.wait(g, [this] { return done; });
  }
};

struct Stream {
  Context* ctx = nullptr;
  unsigned flags = 0;
  int priority = 0;
  bool is_default = false;         // the context's NULL / legacy / per-thread stream
  // The error of a failed asynchronous operation: the next cuStreamSynchronize
  // or cuStreamQuery of this stream (or cuEventSynchronize of an event recorded
  // after it) reports it once.
  CUresult pending_error = CUDA_SUCCESS;
  long operations = 0;             // work items run on this stream
  // The capture in progress (fake_graph.h), or nullptr: while it is set,
  // enqueue() records the work as a node of the capture's graph instead of
  // running it.
  struct Capture* capture = nullptr;
  // dcfake_hold_stream: while held, copies, fills and event records enqueued
  // here wait in `held_work` (as work waits behind a busy GPU stream) until
  // the stream is released or something waits for it (a synchronisation of the
  // stream, of an event, of the context, a stream waiting on an event).
  bool held = false;
  std::vector<std::pair<std::string, std::function<CUresult()>>> held_work;
  // The last resident kernel launched on the stream (nullptr if none).
  std::shared_ptr<ResidentRun> resident;
};

// The resident kernel a synchronisation of `stream` must wait for (nullptr if
// none is running). Callers hold fake::lock(); they wait after releasing it.
std::shared_ptr<ResidentRun> running_resident(Stream* stream);
// Every resident kernel running in `ctx`. Callers hold fake::lock().
std::vector<std::shared_ptr<ResidentRun>> running_residents(Context* ctx);

// The stream a CUstream names, for work enqueued in the current context:
// 0, CU_STREAM_LEGACY and CU_STREAM_PER_THREAD are the current context's
// default stream; any other value must be a live stream of the current
// context (CUDA_ERROR_INVALID_HANDLE otherwise). Callers hold fake::lock().
CUresult stream_for_work(CUstream handle, Stream** out);
// As stream_for_work, for calls that accept a stream of any context
// (synchronize, query, destroy): the default-stream values need a current
// context. Callers hold fake::lock().
CUresult any_stream(CUstream handle, Stream** out);
// Invalidates the capture of every stream of `ctx` that is capturing (a
// context-wide synchronisation during a capture does, on a GPU); whether
// there was one. Callers hold fake::lock().
bool invalidate_captures_of(Context* ctx);

// Runs `work` as stream work on `stream` (at once), counting the call of
// `entry` for dcfake_inject_async. If `work` fails, its error is returned at
// once (the enqueue-time check); if an asynchronous fault is due, the work
// still runs and then "fails on the device": a sticky fault breaks the
// context, any other is kept for the stream's next synchronisation.
// While the stream captures, the work is recorded instead (fake_graph.h):
// `work` may then run later, at every launch of the graph, so it must own
// what it uses (capture by value). Callers hold fake::lock().
CUresult enqueue(Stream* stream, const char* entry, const std::function<CUresult()>& work);

// Runs the work held on `stream` (dcfake_hold_stream), in order; a failure
// becomes the stream's pending error. Callers hold fake::lock().
void run_held_work(Stream* stream);
// run_held_work for every stream (what waiting on an event or a context needs:
// the fake does not track which stream an event was recorded on).
void run_all_held_work();

// Whether `handle` is a live event; its context goes to *ctx. Callers hold fake::lock().
bool event_context(CUevent handle, Context** ctx);

// Shared by the current entry points and the legacy ones in fake_compat.cpp.
CUresult prefetch(CUdeviceptr p, size_t count, const CUmemLocation& loc, CUstream stream, const char* entry);
CUresult advise(CUdeviceptr p, size_t count, CUmem_advise advice, const CUmemLocation& loc);
CUresult elapsed_time(float* ms, CUevent start, CUevent end);

// Maps a context broken by a sticky error: a helper for synchronisation calls.
inline CUresult sticky_of(Context* ctx) { return ctx && ctx->broken ? static_cast<CUresult>(ctx->broken) : CUDA_SUCCESS; }

// Device bytes the fake pretends to have: a cuMemAlloc larger than what is
// left fails with CUDA_ERROR_OUT_OF_MEMORY, as on a GPU.
size_t device_total_memory();
// Host memory the fake lets pinned and managed allocations use in all.
constexpr size_t kHostAllocationLimit = size_t(64) << 30;

}  // namespace fake
