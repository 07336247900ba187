#include "reliability/fault_scenario.h"

#include <cstdlib>
#include <cstring>

#include "compile/kernel_sources.h"
#include "support/fake.h"

namespace faults {

World::~World() {
  for (dc_blas b : blases) dc_blas_release(b);
  for (dc_comm c : comms) dc_comm_release(c);
  for (dc_graph g : graphs) dc_graph_release(g);
  for (dc_launch l : launches) dc_launch_release(l);
  for (dc_function f : functions) dc_function_release(f);
  for (dc_module m : modules) dc_module_release(m);
  for (dc_library l : libraries) dc_library_release(l);
  for (dc_program p : programs) dc_program_release(p);
  for (dc_buffer b : buffers) dc_buffer_release(b);
  for (dc_pool p : pools) dc_pool_release(p);
  // A failed step can leave virtual memory mapped: unmap what may be, release, free.
  if (vmm_base) {
    dc_vmm_unmap(d0, vmm_base, vmm_granularity);
    dc_vmm_unmap(d0, vmm_base + vmm_granularity, vmm_granularity);
  }
  if (vmm_first) dc_vmm_release(d0, vmm_first);
  if (vmm_second) dc_vmm_release(d0, vmm_second);
  if (vmm_base) dc_vmm_free(d0, vmm_base, 4 * vmm_granularity);
  for (dc_event e : events) dc_event_release(e);
  for (dc_stream s : streams) dc_stream_release(s);
  std::free(registered);
  dc_device_release(d1);
  dc_device_release(d0);
}

namespace {

constexpr uint64_t kSmall = 4096;
constexpr uint64_t kBig = 256 * 1024;  // staged when DCCUDA_STAGING_MIN_BYTES is lower (tests.cmake sets it)
constexpr int32_t kN = 1024;

void count_callback(void* p) { ++*static_cast<int*>(p); }
uint64_t no_shared(int32_t, void*) { return 0; }

std::vector<uint8_t> pattern(size_t n, uint8_t seed) {
  std::vector<uint8_t> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = static_cast<uint8_t>(seed + i * 131 + (i >> 9));
  return v;
}

}  // namespace

// Each step names itself; the first failure ends the run. DC_NOT_READY is a
// failure too, except where a step asks a query (QUERY).
namespace {
// Records a failed step; true if the run stops there.
bool failed_step(World& w, Outcome& o, const char* name, dc_status st) {
  if (o.status == DC_SUCCESS) {
    o.status = st;
    o.step = name;
  }
  w.failures.push_back({name, st, dc_last_error_cuda(), dc_last_error_message()});
  return !w.keep_going;
}
}  // namespace

#define STEP_IF(name, expr, ok)                                 \
  do {                                                          \
    ++w.steps;                                                  \
    if (o.status == DC_SUCCESS) o.step = name;                  \
    dc_status st_ = (expr);                                     \
    if (!(ok) && failed_step(w, o, name, st_)) return o;        \
  } while (0)
#define STEP(name, expr) STEP_IF(name, expr, st_ == DC_SUCCESS)
#define QUERY(name, expr) STEP_IF(name, expr, st_ == DC_SUCCESS || st_ == DC_NOT_READY)
#define CHECK_DATA(name, cond)                                                      \
  do {                                                                              \
    if (w.failures.empty() && !(cond) && failed_step(w, o, name, DC_ERROR_INTERNAL)) \
      return o;                                                                     \
  } while (0)

template <class T>
T keep(std::vector<T>& list, T h) {
  if (h) list.push_back(h);
  return h;
}

Outcome run_scenario(World& w) {
  Outcome o;
  // -- devices -----------------------------------------------------------------------
  int32_t count = 0;
  STEP("dc_device_count", dc_device_count(&count));
  STEP("dc_device_open 0", dc_device_open(0, &w.d0));
  STEP("dc_device_open 1", dc_device_open(count > 1 ? 1 : 0, &w.d1));
  dc_device_info info = DC_DEVICE_INFO_INIT;
  STEP("dc_device_get_info", dc_device_get_info(w.d0, &info));
  int32_t value = 0;
  STEP("dc_device_attribute", dc_device_attribute(w.d0, 16 /* multiprocessors */, &value));
  CHECK_DATA("dc_device_attribute value", value == info.multiprocessor_count);
  uint64_t free_bytes = 0, total_bytes = 0;
  STEP("dc_device_memory_info", dc_device_memory_info(w.d0, &free_bytes, &total_bytes));
  int32_t least = 0, greatest = 0;
  STEP("dc_stream_priority_range", dc_stream_priority_range(w.d0, &least, &greatest));

  // -- streams and events ------------------------------------------------------------------
  dc_stream s = nullptr, legacy = nullptr, wrapped = nullptr;
  STEP("dc_stream_create", dc_stream_create(w.d0, 0, greatest, &s));
  keep(w.streams, s);
  STEP("dc_stream_get_default", dc_stream_get_default(w.d0, DC_STREAM_LEGACY, &legacy));
  keep(w.streams, legacy);
  void* native = nullptr;
  STEP("dc_stream_native", dc_stream_native(s, &native));
  STEP("dc_stream_wrap", dc_stream_wrap(w.d0, native, &wrapped));
  keep(w.streams, wrapped);
  dc_event start = nullptr, end = nullptr, mark = nullptr;
  STEP("dc_event_create start", dc_event_create(w.d0, 0, &start));
  keep(w.events, start);
  STEP("dc_event_create end", dc_event_create(w.d0, DC_EVENT_BLOCKING_SYNC, &end));
  keep(w.events, end);
  STEP("dc_event_create mark", dc_event_create(w.d0, DC_EVENT_DISABLE_TIMING, &mark));
  keep(w.events, mark);
  STEP("dc_event_record start", dc_event_record(start, s));

  // -- limits and the cache preference ------------------------------------------------------------
  uint64_t fifo = 0;
  STEP("dc_device_limit", dc_device_limit(w.d0, DC_LIMIT_PRINTF_FIFO_SIZE, &fifo));
  STEP("dc_device_set_limit", dc_device_set_limit(w.d0, DC_LIMIT_PRINTF_FIFO_SIZE, fifo));
  int32_t preference = 0;
  STEP("dc_device_cache_config", dc_device_cache_config(w.d0, &preference));
  STEP("dc_device_set_cache_config", dc_device_set_cache_config(w.d0, preference));

  // -- buffers ---------------------------------------------------------------------------------
  dc_buffer dev = nullptr, nopool = nullptr, async = nullptr, pinned = nullptr, managed = nullptr, reg = nullptr,
            wrap = nullptr, big = nullptr;
  STEP("dc_buffer_alloc", dc_buffer_alloc(w.d0, kSmall, 0, &dev));
  keep(w.buffers, dev);
  STEP("dc_buffer_alloc NO_POOL", dc_buffer_alloc(w.d0, kSmall, DC_ALLOC_NO_POOL, &nopool));
  keep(w.buffers, nopool);
  STEP("dc_buffer_alloc_async", dc_buffer_alloc_async(s, kSmall, 0, &async));
  keep(w.buffers, async);
  STEP("dc_buffer_alloc_pinned", dc_buffer_alloc_pinned(w.d0, kSmall, DC_ALLOC_DEVICE_MAPPED, &pinned));
  keep(w.buffers, pinned);
  STEP("dc_buffer_alloc_managed", dc_buffer_alloc_managed(w.d0, kSmall, 0, &managed));
  keep(w.buffers, managed);
  w.registered = std::aligned_alloc(4096, kSmall);
  STEP("dc_buffer_register_host", dc_buffer_register_host(w.d0, w.registered, kSmall, DC_ALLOC_DEVICE_MAPPED, &reg));
  keep(w.buffers, reg);
  uint64_t address = 0;
  STEP("dc_buffer_device_pointer", dc_buffer_device_pointer(dev, &address));
  STEP("dc_buffer_wrap_device", dc_buffer_wrap_device(w.d0, address, kSmall, &wrap));
  keep(w.buffers, wrap);
  STEP("dc_buffer_alloc big", dc_buffer_alloc(w.d0, kBig, 0, &big));
  keep(w.buffers, big);
  // A pool of the caller's own: its attributes, a buffer from it in each mode, its statistics.
  dc_pool pool = nullptr;
  dc_buffer pooled = nullptr, pooled_async = nullptr;
  STEP("dc_pool_create", dc_pool_create(w.d0, 0, 0, &pool));
  keep(w.pools, pool);
  STEP("dc_pool_set_attribute", dc_pool_set_attribute(pool, DC_POOL_RELEASE_THRESHOLD, kBig));
  uint64_t threshold = 0;
  STEP("dc_pool_attribute", dc_pool_attribute(pool, DC_POOL_RELEASE_THRESHOLD, &threshold));
  CHECK_DATA("pool attribute read back", threshold == kBig);
  STEP("dc_buffer_alloc_from_pool", dc_buffer_alloc_from_pool(pool, nullptr, kSmall, &pooled));
  keep(w.buffers, pooled);
  STEP("dc_buffer_alloc_from_pool stream", dc_buffer_alloc_from_pool(pool, s, kSmall, &pooled_async));
  keep(w.buffers, pooled_async);
  STEP("dc_buffer_copy_async pooled", dc_buffer_copy_async(pooled_async, 0, pooled, 0, kSmall, s));
  STEP("dc_pool_set_access", dc_pool_set_access(pool, w.d0, 1));
  dc_pool_stats pool_stats = DC_POOL_STATS_INIT;
  STEP("dc_pool_statistics", dc_pool_statistics(pool, &pool_stats));
  CHECK_DATA("pool statistics", pool_stats.used_current >= 2 * kSmall);
  STEP("dc_pool_reset_high_water", dc_pool_reset_high_water(pool));
  STEP("dc_pool_trim", dc_pool_trim(pool, 0));
  // cuBLAS (the fake cuBLAS): a handle on the stream with its workspace from the device, a dot product.
  // (Not dc_blas_set_workspace_size: the old workspace's stream-ordered free is a release, which cannot report.)
  {
    dc_blas blas = nullptr;
    dc_buffer vec = nullptr;
    STEP("dc_blas_create", dc_blas_create(w.d0, s, &blas));
    keep(w.blases, blas);
    STEP("dc_buffer_alloc blas", dc_buffer_alloc(w.d0, 64, 0, &vec));
    keep(w.buffers, vec);
    std::vector<float> twos(16, 2.0f);
    STEP("dc_buffer_write blas", dc_buffer_write(vec, 0, twos.data(), 64));
    double dot = 0;
    STEP("dc_blas_dot", dc_blas_dot(blas, DC_BLAS_F32, 16, vec, 0, 1, vec, 0, 1, &dot, nullptr, 0));
    CHECK_DATA("blas dot", dot == 64.0);
  }
  STEP("dc_device_pool_statistics", dc_device_pool_statistics(w.d0, &pool_stats));
  // NCCL, where a library is there (the fake NCCL in CI): a one-rank communicator's
  // all-reduce on a stream, its result read back (one rank: the input itself).
  int32_t nccl_version = 0;
  if (dc_nccl_library_version(&nccl_version) == DC_SUCCESS) {
    int32_t ordinal0 = 0;
    dc_comm comm = nullptr;
    dc_buffer reduced = nullptr;
    STEP("dc_comm_init_all", dc_comm_init_all(&ordinal0, 1, &comm));
    keep(w.comms, comm);
    STEP("dc_buffer_alloc reduced", dc_buffer_alloc(w.d0, kSmall, 0, &reduced));
    keep(w.buffers, reduced);
    STEP("dc_buffer_fill reduced", dc_buffer_fill(reduced, 0, kSmall, 0x01020304u, 4));
    STEP("dc_comm_all_reduce", dc_comm_all_reduce(comm, reduced, 0, reduced, 0, kSmall / 4, DC_NCCL_UINT32,
                                                  DC_NCCL_SUM, s));
    STEP("dc_stream_synchronize after all_reduce", dc_stream_synchronize(s));
    uint32_t first = 0;
    STEP("dc_buffer_read reduced", dc_buffer_read(reduced, 0, &first, 4));
    CHECK_DATA("one rank's all-reduce", first == 0x01020304u);
  }
  // A growable buffer: mapped, grown, written across its two chunks and read back.
  dc_buffer growable = nullptr;
  uint64_t granularity = 0;
  STEP("dc_device_allocation_granularity",
       dc_device_allocation_granularity(w.d0, DC_GRANULARITY_MINIMUM, &granularity));
  STEP("dc_buffer_alloc_growable", dc_buffer_alloc_growable(w.d0, 4 * granularity, 1, &growable));
  keep(w.buffers, growable);
  STEP("dc_buffer_grow", dc_buffer_grow(growable, granularity + 1));
  uint64_t reserved = 0;
  STEP("dc_buffer_reserved_size", dc_buffer_reserved_size(growable, &reserved));
  {
    std::vector<uint8_t> across = pattern(kSmall, 3), got(kSmall, 0);
    STEP("dc_buffer_write growable", dc_buffer_write(growable, granularity - kSmall / 2, across.data(), kSmall));
    STEP("dc_buffer_read growable", dc_buffer_read(growable, granularity - kSmall / 2, got.data(), kSmall));
    CHECK_DATA("growable round trip", got == across);
  }
  // The virtual memory pieces: a reservation, two chunks mapped back to back, access, a copy through a wrap.
  {
    uint64_t& base = w.vmm_base;
    uint64_t& first = w.vmm_first;
    uint64_t& second = w.vmm_second;
    w.vmm_granularity = granularity;
    dc_buffer wrapped_range = nullptr;
    STEP("dc_vmm_reserve", dc_vmm_reserve(w.d0, 4 * granularity, 0, &base));
    STEP("dc_vmm_create", dc_vmm_create(w.d0, granularity, &first));
    STEP("dc_vmm_create second", dc_vmm_create(w.d0, granularity, &second));
    STEP("dc_vmm_map", dc_vmm_map(w.d0, base, granularity, first));
    STEP("dc_vmm_map second", dc_vmm_map(w.d0, base + granularity, granularity, second));
    STEP("dc_vmm_set_access", dc_vmm_set_access(w.d0, base, 2 * granularity, w.d0, DC_VMM_ACCESS_READWRITE));
    STEP("dc_buffer_wrap_device vmm", dc_buffer_wrap_device(w.d0, base, 2 * granularity, &wrapped_range));
    keep(w.buffers, wrapped_range);
    STEP("dc_buffer_copy into vmm", dc_buffer_copy(wrapped_range, granularity - kSmall / 2, growable, 0, kSmall));
    STEP("dc_vmm_release", dc_vmm_release(w.d0, first));
    first = 0;
    STEP("dc_vmm_unmap", dc_vmm_unmap(w.d0, base, 2 * granularity));
    STEP("dc_vmm_release second", dc_vmm_release(w.d0, second));
    second = 0;
    STEP("dc_vmm_free", dc_vmm_free(w.d0, base, 4 * granularity));
    base = 0;
  }
  // IPC: the fake opens its own exports (fake_ipc.cpp); a real driver refuses the exporting process.
  if (dctest::fake_driver()) {
    uint8_t exported[DC_IPC_HANDLE_SIZE] = {};
    dc_buffer imported = nullptr;
    dc_event shared = nullptr, opened = nullptr;
    STEP("dc_buffer_export_ipc", dc_buffer_export_ipc(nopool, exported, sizeof exported));
    STEP("dc_buffer_import_ipc", dc_buffer_import_ipc(w.d0, exported, sizeof exported, &imported));
    keep(w.buffers, imported);
    STEP("dc_event_create interprocess", dc_event_create(w.d0, DC_EVENT_INTERPROCESS | DC_EVENT_DISABLE_TIMING, &shared));
    keep(w.events, shared);
    STEP("dc_event_export_ipc", dc_event_export_ipc(shared, exported, sizeof exported));
    STEP("dc_event_import_ipc", dc_event_import_ipc(w.d0, exported, sizeof exported, &opened));
    keep(w.events, opened);
#if defined(__linux__)
    // Pools across processes, in one process as the fake models them (pidfd_getfd on our own descriptor).
    dc_pool shared_pool = nullptr, imported_pool = nullptr;
    dc_buffer in_shared = nullptr, pool_import = nullptr;
    STEP("dc_pool_create exportable", dc_pool_create(w.d0, 0, DC_POOL_EXPORTABLE, &shared_pool));
    keep(w.pools, shared_pool);
    STEP("dc_buffer_alloc_from_pool exportable", dc_buffer_alloc_from_pool(shared_pool, nullptr, kSmall, &in_shared));
    keep(w.buffers, in_shared);
    STEP("dc_pool_export_ipc", dc_pool_export_ipc(shared_pool, exported, sizeof exported));
    STEP("dc_pool_import_ipc", dc_pool_import_ipc(w.d0, exported, sizeof exported, &imported_pool));
    keep(w.pools, imported_pool);
    int32_t fd = -1;
    dc_pool by_fd = nullptr;
    STEP("dc_pool_export_fd", dc_pool_export_fd(shared_pool, &fd));
    STEP("dc_pool_import_fd", dc_pool_import_fd(w.d0, fd, &by_fd));
    keep(w.pools, by_fd);
    STEP("dc_buffer_export_ipc pool memory", dc_buffer_export_ipc(in_shared, exported, sizeof exported));
    STEP("dc_buffer_import_ipc_from_pool",
         dc_buffer_import_ipc_from_pool(imported_pool, exported, sizeof exported, &pool_import));
    // The importer frees first (the driver's rule): first in the release order.
    if (pool_import) w.buffers.insert(w.buffers.begin(), pool_import);
    uint32_t through = 1;
    STEP("dc_buffer_write pool import", dc_buffer_write(pool_import, 0, &through, 4));
#endif
  }

  // -- copies and fills -------------------------------------------------------------------------
  std::vector<uint8_t> data = pattern(kBig, 7), back(kBig, 0);
  STEP("dc_buffer_write", dc_buffer_write(dev, 0, data.data(), kSmall));
  STEP("dc_buffer_read wrapped", dc_buffer_read(wrap, 0, back.data(), kSmall));
  CHECK_DATA("write then read", std::memcmp(back.data(), data.data(), kSmall) == 0);
  STEP("dc_buffer_write staged", dc_buffer_write(big, 0, data.data(), kBig));
  std::fill(back.begin(), back.end(), 0);
  STEP("dc_buffer_read staged", dc_buffer_read(big, 0, back.data(), kBig));
  CHECK_DATA("staged round trip", back == data);
  STEP("dc_buffer_copy device to device", dc_buffer_copy(nopool, 0, dev, 0, kSmall));
  STEP("dc_buffer_copy device to pinned", dc_buffer_copy(pinned, 0, nopool, 0, kSmall));
  void* pinned_host = nullptr;
  STEP("dc_buffer_host_pointer", dc_buffer_host_pointer(pinned, &pinned_host));
  CHECK_DATA("copy through two buffers", std::memcmp(pinned_host, data.data(), kSmall) == 0);
  STEP("dc_buffer_copy pinned to registered", dc_buffer_copy(reg, 0, pinned, 0, kSmall));
  CHECK_DATA("host copy", std::memcmp(w.registered, data.data(), kSmall) == 0);
  // 2D: a pitched buffer, a staged 2D round trip (rows of 500 bytes, 512 apart), a tile copy, a 2D fill.
  dc_buffer pitched = nullptr;
  uint64_t pitch = 0;
  STEP("dc_buffer_alloc_pitched", dc_buffer_alloc_pitched(w.d0, 500, 64, 4, 0, &pitch, &pitched));
  keep(w.buffers, pitched);
  STEP("dc_buffer_write_2d staged", dc_buffer_write_2d(big, 0, 512, data.data(), kBig, 512, 500, 512));
  std::fill(back.begin(), back.end(), 0);
  STEP("dc_buffer_read_2d staged", dc_buffer_read_2d(big, 0, 512, back.data(), kBig, 512, 500, 512));
  CHECK_DATA("2D round trip", std::memcmp(back.data() + 511 * 512, data.data() + 511 * 512, 500) == 0);
  STEP("dc_buffer_copy_2d", dc_buffer_copy_2d(pitched, 0, pitch, big, 0, 512, 500, 64));
  STEP("dc_buffer_copy_3d", dc_buffer_copy_3d(nopool, 0, 64, 8, pitched, 0, pitch, 16, 32, 4, 2));
  STEP("dc_buffer_fill_2d", dc_buffer_fill_2d(pitched, 0, pitch, 256, 64, 0x5A5A5A5A, 4));
  STEP("dc_buffer_fill_2d D16", dc_buffer_fill_2d(pitched, 0, pitch, 256, 64, 0x5A5A, 2));
  STEP("dc_buffer_copy_2d_async", dc_buffer_copy_2d_async(big, 0, 512, pitched, 0, pitch, 500, 64, s));
  STEP("dc_buffer_fill_2d_async", dc_buffer_fill_2d_async(big, 0, 512, 100, 8, 0x77, 1, s));
  STEP("dc_buffer_fill D8", dc_buffer_fill(dev, 0, kSmall, 0xAB, 1));
  STEP("dc_buffer_fill D16", dc_buffer_fill(nopool, 0, kSmall, 0xABCD, 2));
  STEP("dc_buffer_fill D32", dc_buffer_fill(async, 0, kSmall, 0x01020304, 4));
  uint32_t word = 0;
  STEP("dc_buffer_read fill", dc_buffer_read(async, 8, &word, 4));
  CHECK_DATA("fill D32", word == 0x01020304);
  STEP("dc_buffer_write_async", dc_buffer_write_async(async, 0, data.data(), kSmall, s));
  STEP("dc_buffer_write_async staged", dc_buffer_write_async(big, 0, data.data(), kBig, s));
  STEP("dc_buffer_copy_async", dc_buffer_copy_async(dev, 0, async, 0, kSmall, s));
  // The same copy again, in two halves of one batch (cuMemcpyBatchAsync where the driver has it).
  dc_copy_op halves[2] = {{DC_COPY_BUFFER_TO_BUFFER, 0, dev, 0, async, 0, nullptr, kSmall / 2},
                          {DC_COPY_BUFFER_TO_BUFFER, 0, dev, kSmall / 2, async, kSmall / 2, nullptr, kSmall / 2}};
  STEP("dc_buffer_copy_batch_async", dc_buffer_copy_batch_async(halves, 2, s));
  STEP("dc_buffer_write_async pinned", dc_buffer_write_async(pinned, 0, data.data() + 1, kSmall, s));
  STEP("dc_buffer_fill_async D8", dc_buffer_fill_async(managed, 0, kSmall, 0x11, 1, s));
  STEP("dc_buffer_fill_async D16", dc_buffer_fill_async(nopool, 0, kSmall, 0x2222, 2, s));
  STEP("dc_buffer_fill_async D32 pinned", dc_buffer_fill_async(pinned, 0, 64, 0x33333333, 4, s));
  // Stream memory operations, writing what the fill wrote (so later checks are unchanged) and
  // waiting for values already there (a wait that could not be satisfied would hold the stream).
  STEP("dc_stream_write_value32", dc_stream_write_value32(s, pinned, 0, 0x33333333u, 0));
  STEP("dc_stream_write_value64", dc_stream_write_value64(s, pinned, 8, 0x3333333333333333ull, 0));
  STEP("dc_stream_wait_value32", dc_stream_wait_value32(s, pinned, 0, 0x33333333u, DC_COMPARE_EQ, 0));
  STEP("dc_stream_wait_value64", dc_stream_wait_value64(s, pinned, 8, 0x3333333333333333ull, DC_COMPARE_EQ, 0));
  {
    dc_stream_mem_op ops[2] = {{DC_MEM_OP_WRITE32, 0, 0, 0, pinned, 16, 0x33333333u},
                               {DC_MEM_OP_WAIT32, DC_COMPARE_EQ, 0, 0, pinned, 16, 0x33333333u}};
    STEP("dc_stream_batch_mem_ops", dc_stream_batch_mem_ops(s, ops, 2));
  }
  STEP("dc_buffer_prefetch", dc_buffer_prefetch(managed, 0, kSmall, 0, s));
  STEP("dc_buffer_advise", dc_buffer_advise(managed, 0, kSmall, DC_ADVISE_SET_READ_MOSTLY, 0));
  std::fill(back.begin(), back.end(), 0);
  STEP("dc_buffer_read_async", dc_buffer_read_async(dev, 0, back.data(), kSmall, s));
  STEP("dc_buffer_read_async pinned", dc_buffer_read_async(pinned, 64, back.data() + kSmall, 64, s));
  STEP("dc_stream_add_callback", dc_stream_add_callback(s, count_callback, &w.callbacks));
  STEP("dc_event_record end", dc_event_record(end, s));
  STEP("dc_event_record mark", dc_event_record(mark, s));
  STEP("dc_stream_wait_event", dc_stream_wait_event(wrapped, mark));
  QUERY("dc_stream_query", dc_stream_query(s));
  QUERY("dc_event_query", dc_event_query(end));
  STEP("dc_event_synchronize", dc_event_synchronize(end));
  float ms = -1;
  STEP("dc_event_elapsed_ms", dc_event_elapsed_ms(start, end, &ms));
  std::vector<uint8_t> big_back(kBig);
  STEP("dc_buffer_read_async staged", dc_buffer_read_async(big, 0, big_back.data(), kBig, s));
  STEP("dc_stream_synchronize", dc_stream_synchronize(s));
  CHECK_DATA("async copies", std::memcmp(back.data(), data.data(), kSmall) == 0 && big_back == data &&
                                 std::memcmp(back.data() + kSmall, data.data() + 1 + 64, 64) == 0 && w.callbacks == 1);
  STEP("dc_buffer_read managed", dc_buffer_read(managed, 100, &word, 1));
  CHECK_DATA("managed fill", (word & 0xFF) == 0x11);

  // -- peers ------------------------------------------------------------------------------------
  int32_t can = 0;
  STEP("dc_device_can_access_peer", dc_device_can_access_peer(w.d0, w.d1, &can));
  dc_buffer remote = nullptr;
  STEP("dc_buffer_alloc on device 1", dc_buffer_alloc(w.d1, kSmall, 0, &remote));
  keep(w.buffers, remote);
  if (can) {
    STEP("dc_device_enable_peer_access", dc_device_enable_peer_access(w.d0, w.d1));
    int32_t attr = 0;
    STEP("dc_device_peer_attribute", dc_device_peer_attribute(w.d0, w.d1, DC_PEER_ATTRIBUTE_ACCESS_SUPPORTED, &attr));
  }
  STEP("dc_buffer_write on device 1", dc_buffer_write(remote, 0, data.data() + 3, kSmall));
  STEP("dc_buffer_copy between devices", dc_buffer_copy(dev, 0, remote, 0, kSmall));
  STEP("dc_buffer_read after the peer copy", dc_buffer_read(dev, 0, back.data(), kSmall));
  CHECK_DATA("peer copy", std::memcmp(back.data(), data.data() + 3, kSmall) == 0);
  STEP("dc_buffer_copy_2d between devices", dc_buffer_copy_2d(nopool, 0, 64, remote, 0, 64, 48, 16));
  STEP("dc_buffer_read after the 2D peer copy", dc_buffer_read(nopool, 15 * 64, back.data(), 48));
  CHECK_DATA("2D peer copy", std::memcmp(back.data(), data.data() + 3 + 15 * 64, 48) == 0);
  if (can) STEP("dc_device_disable_peer_access", dc_device_disable_peer_access(w.d0, w.d1));

  // -- modules and functions ----------------------------------------------------------------------
  dc_compile_options co = DC_COMPILE_OPTIONS_INIT;
  co.std = "c++17";
  const char* expressions[] = {"scale<float>"};
  co.num_name_expressions = 1;
  co.name_expressions = expressions;
  dc_program program = nullptr;
  STEP("dc_compile", dc_compile(dctest::kKernels, "faults.cu", &co, w.d0, &program));
  keep(w.programs, program);
  dc_module module = nullptr;
  STEP("dc_module_load_program", dc_module_load_program(w.d0, program, nullptr, &module));
  keep(w.modules, module);
  // The driver's linker (cuLink*), on the program's CUBIN alone.
  dc_link_input link_input = {DC_LINK_INPUT_PROGRAM, 0u, program, nullptr, 0, nullptr, nullptr};
  dc_link_options lo = DC_LINK_OPTIONS_INIT;
  lo.flags = DC_LINK_USE_DRIVER | DC_LINK_NO_CACHE;
  dc_program linked = nullptr;
  STEP("dc_link with the driver", dc_link(&link_input, 1, &lo, w.d0, &linked));
  keep(w.programs, linked);
  uint32_t kernels = 0;
  STEP("dc_module_function_count", dc_module_function_count(module, &kernels));
  CHECK_DATA("kernel count", kernels == 5);
  dc_function saxpy = nullptr, empty = nullptr;
  STEP("dc_module_get_function saxpy", dc_module_get_function(module, "saxpy", &saxpy));
  keep(w.functions, saxpy);
  STEP("dc_module_get_function empty", dc_module_get_function(module, "empty", &empty));
  keep(w.functions, empty);
  dc_buffer answer = nullptr;
  STEP("dc_module_get_global", dc_module_get_global(module, "answer", &answer));
  keep(w.buffers, answer);
  int32_t answer_value = 0;
  STEP("dc_buffer_read global", dc_buffer_read(answer, 0, &answer_value, 4));
  CHECK_DATA("module global", answer_value == 42);
  dc_function_info finfo = DC_FUNCTION_INFO_INIT;
  STEP("dc_function_get_info", dc_function_get_info(saxpy, &finfo));
  STEP("dc_function_attribute", dc_function_attribute(saxpy, 0, &value));
  STEP("dc_function_set_attribute", dc_function_set_attribute(saxpy, 9, 50));
  STEP("dc_function_set_cache_config", dc_function_set_cache_config(saxpy, DC_CACHE_PREFER_L1));
  uint32_t params = 0;
  STEP("dc_function_param_count", dc_function_param_count(saxpy, &params));
  CHECK_DATA("saxpy parameters", params == 4);

  // -- launches and occupancy ----------------------------------------------------------------------
  dc_buffer x = nullptr, y = nullptr;
  STEP("dc_buffer_alloc x", dc_buffer_alloc(w.d0, kN * 4, 0, &x));
  keep(w.buffers, x);
  STEP("dc_buffer_alloc y", dc_buffer_alloc(w.d0, kN * 4, 0, &y));
  keep(w.buffers, y);
  std::vector<float> xs(kN), ys(kN), out(kN);
  for (int i = 0; i < kN; ++i) {
    xs[i] = static_cast<float>(i);
    ys[i] = 1.0f;
  }
  STEP("dc_buffer_write x", dc_buffer_write(x, 0, xs.data(), kN * 4));
  STEP("dc_buffer_write y", dc_buffer_write(y, 0, ys.data(), kN * 4));
  float a = 2.0f;
  int32_t n = kN;
  dc_arg args[] = {{DC_ARG_VALUE, 4, &a, nullptr, 0}, {DC_ARG_BUFFER, 8, nullptr, x, 0},
                   {DC_ARG_BUFFER, 8, nullptr, y, 0}, {DC_ARG_VALUE, 4, &n, nullptr, 0}};
  dc_launch_config config = DC_LAUNCH_CONFIG_INIT;
  STEP("dc_launch_config_1d", dc_launch_config_1d(saxpy, kN, 0, &config));
  STEP("dc_launch_kernel", dc_launch_kernel(saxpy, &config, args, 4, s));  // y = 2x + 1
  dc_launch prepared = nullptr;
  STEP("dc_launch_create", dc_launch_create(saxpy, &config, &prepared));
  keep(w.launches, prepared);
  STEP("dc_launch_set_args", dc_launch_set_args(prepared, args, 4));
  STEP("dc_launch_enqueue", dc_launch_enqueue(prepared, s));  // y = 4x + 1
  dc_launch_config ex = config;
  ex.priority = greatest;  // through cuLaunchKernelEx
  STEP("dc_launch_kernel extended", dc_launch_kernel(saxpy, &ex, args, 4, s));  // y = 6x + 1
  STEP("dc_stream_synchronize after launches", dc_stream_synchronize(s));
  STEP("dc_buffer_read y", dc_buffer_read(y, 0, out.data(), kN * 4));
  bool right = true;
  for (int i = 0; i < kN; ++i) right = right && out[i] == 6.0f * xs[i] + 1.0f;
  CHECK_DATA("saxpy results", right);

  // -- a context-independent library: loaded once, its saxpy launched on the second device --------
  const void* cubin = nullptr;
  uint64_t cubin_size = 0;
  STEP("dc_program_output for the library", dc_program_output(program, nullptr, &cubin, &cubin_size));
  dc_library library = nullptr;
  STEP("dc_library_load", dc_library_load(cubin, cubin_size, nullptr, &library));
  keep(w.libraries, library);
  uint32_t library_kernels = 0;
  STEP("dc_library_function_count", dc_library_function_count(library, &library_kernels));
  CHECK_DATA("library kernel count", library_kernels == 5);
  dc_function saxpy1 = nullptr;
  STEP("dc_library_get_function on device 1", dc_library_get_function(library, w.d1, "saxpy", &saxpy1));
  keep(w.functions, saxpy1);
  dc_buffer x1 = nullptr, y1 = nullptr;
  STEP("dc_buffer_alloc x on device 1", dc_buffer_alloc(w.d1, kN * 4, 0, &x1));
  keep(w.buffers, x1);
  STEP("dc_buffer_alloc y on device 1", dc_buffer_alloc(w.d1, kN * 4, 0, &y1));
  keep(w.buffers, y1);
  STEP("dc_buffer_write x on device 1", dc_buffer_write(x1, 0, xs.data(), kN * 4));
  STEP("dc_buffer_write y on device 1", dc_buffer_write(y1, 0, ys.data(), kN * 4));
  dc_stream s1 = nullptr;
  STEP("dc_stream_create on device 1", dc_stream_create(w.d1, 0, 0, &s1));
  keep(w.streams, s1);
  dc_arg args1[] = {{DC_ARG_VALUE, 4, &a, nullptr, 0}, {DC_ARG_BUFFER, 8, nullptr, x1, 0},
                    {DC_ARG_BUFFER, 8, nullptr, y1, 0}, {DC_ARG_VALUE, 4, &n, nullptr, 0}};
  STEP("dc_launch_kernel of the library's saxpy", dc_launch_kernel(saxpy1, &config, args1, 4, s1));  // y = 2x + 1
  STEP("dc_stream_synchronize after the library's launch", dc_stream_synchronize(s1));
  STEP("dc_buffer_read y on device 1", dc_buffer_read(y1, 0, out.data(), kN * 4));
  right = true;
  for (int i = 0; i < kN; ++i) right = right && out[i] == 2.0f * xs[i] + 1.0f;
  CHECK_DATA("the library's saxpy results", right);
  int32_t blocks = 0, min_grid = 0, block = 0, clusters = 0;
  STEP("dc_occupancy_max_active_blocks", dc_occupancy_max_active_blocks(saxpy, 256, 0, &blocks));
  STEP("dc_occupancy_max_potential_block_size",
       dc_occupancy_max_potential_block_size(saxpy, no_shared, nullptr, 0, 0, &min_grid, &block));
  dc_launch_config cluster = config;
  cluster.grid[0] = 8;
  cluster.block[0] = 128;
  cluster.cluster[0] = 2;
  cluster.cluster[1] = cluster.cluster[2] = 1;
  STEP("dc_occupancy_max_active_clusters", dc_occupancy_max_active_clusters(saxpy, &cluster, &clusters));
  uint64_t shared = 0;
  STEP("dc_occupancy_available_dynamic_shared", dc_occupancy_available_dynamic_shared(saxpy, 1, 256, &shared));

  // -- graphs ----------------------------------------------------------------------------------------
  dc_stream cs = nullptr;
  STEP("dc_stream_create capture", dc_stream_create(w.d0, 0, 0, &cs));
  keep(w.streams, cs);
  dc_graph graph = nullptr, again = nullptr;
  for (dc_graph* g : {&graph, &again}) {
    STEP("dc_stream_begin_capture", dc_stream_begin_capture(cs, DC_CAPTURE_THREAD_LOCAL));
    int32_t capturing = 0;
    STEP("dc_stream_is_capturing", dc_stream_is_capturing(cs, &capturing));
    STEP("dc_launch_kernel captured", dc_launch_kernel(empty, &config, nullptr, 0, cs));
    STEP("dc_launch_enqueue captured", dc_launch_enqueue(prepared, cs));
    STEP("dc_stream_end_capture", dc_stream_end_capture(cs, g));
    keep(w.graphs, *g);
  }
  uint64_t nodes = 0;
  STEP("dc_graph_node_count", dc_graph_node_count(graph, &nodes));
  CHECK_DATA("graph nodes", nodes == 2);
  STEP("dc_graph_instantiate", dc_graph_instantiate(graph));
  STEP("dc_graph_upload", dc_graph_upload(graph, s));
  STEP("dc_graph_launch", dc_graph_launch(graph, s));  // y = 8x + 1
  STEP("dc_graph_update", dc_graph_update(graph, again));
  STEP("dc_graph_launch updated", dc_graph_launch(graph, s));  // y = 10x + 1
  STEP("dc_stream_synchronize after graphs", dc_stream_synchronize(s));
  STEP("dc_buffer_read y after graphs", dc_buffer_read(y, 0, out.data(), kN * 4));
  for (int i = 0; i < kN; ++i) right = right && out[i] == 10.0f * xs[i] + 1.0f;
  CHECK_DATA("graph results", right);

  // -- graphs built node by node, changed in place, conditional --------------------------------------
  dc_graph built = nullptr, child = nullptr, copy = nullptr;
  STEP("dc_graph_create", dc_graph_create(w.d0, &built));
  keep(w.graphs, built);
  STEP("dc_graph_create child", dc_graph_create(w.d0, &child));
  keep(w.graphs, child);
  uint64_t k = 0, c = 0, f = 0, h = 0, rec = 0, wait = 0, ch = 0, fill2 = 0;
  STEP("dc_graph_add_fill_node child", dc_graph_add_fill_node(child, x, 0, 64, 0, 4, nullptr, 0, &fill2));
  STEP("dc_graph_add_kernel_node", dc_graph_add_kernel_node(built, empty, &config, nullptr, 0, nullptr, 0, &k));
  STEP("dc_graph_add_fill_node", dc_graph_add_fill_node(built, y, 0, 64, 0, 4, &k, 1, &f));
  STEP("dc_graph_add_copy_node", dc_graph_add_copy_node(built, y, 64, x, 64, 64, &f, 1, &c));
  STEP("dc_graph_add_host_node", dc_graph_add_host_node(built, [](void*) {}, nullptr, &c, 1, &h));
  STEP("dc_graph_add_event_record_node", dc_graph_add_event_record_node(built, mark, &c, 1, &rec));
  STEP("dc_graph_add_event_wait_node", dc_graph_add_event_wait_node(built, mark, nullptr, 0, &wait));
  STEP("dc_graph_add_child_graph_node", dc_graph_add_child_graph_node(built, child, nullptr, 0, &ch));
  STEP("dc_graph_add_dependency", dc_graph_add_dependency(built, wait, k));
  uint64_t first = 0, edges = 0;
  int32_t type = 0;
  STEP("dc_graph_node_at", dc_graph_node_at(built, 0, &first));
  STEP("dc_graph_node_type", dc_graph_node_type(built, k, &type));
  STEP("dc_graph_edge_count", dc_graph_edge_count(built, &edges));
  STEP("dc_graph_clone", dc_graph_clone(built, &copy));
  keep(w.graphs, copy);
  STEP("dc_graph_remove_node", dc_graph_remove_node(copy, ch));
  STEP("dc_graph_write_dot", dc_graph_write_dot(built, "/dev/null", 0));
  STEP("dc_graph_launch built", dc_graph_launch(built, s));
  STEP("dc_graph_set_kernel_node", dc_graph_set_kernel_node(built, k, &config, nullptr, 0));
  STEP("dc_graph_set_fill_node", dc_graph_set_fill_node(built, f, y, 0, 64, 1, 4));
  STEP("dc_graph_set_copy_node", dc_graph_set_copy_node(built, c, y, 64, x, 64, 32));
  STEP("dc_graph_set_host_node", dc_graph_set_host_node(built, h, [](void*) {}, nullptr));
  STEP("dc_graph_launch built, changed", dc_graph_launch(built, s));
  uint64_t cond = 0, loop = 0;
  dc_status conditional = dc_graph_add_conditional_node(built, DC_GRAPH_CONDITIONAL_IF, 1, 0, nullptr, 0, &cond, &loop);
  if (conditional != DC_ERROR_NOT_SUPPORTED) STEP("dc_graph_add_conditional_node", conditional);
  // Memory nodes (a device without memory pools refuses them up front).
  dc_graph with_memory = nullptr;
  STEP("dc_graph_create for memory nodes", dc_graph_create(w.d0, &with_memory));
  keep(w.graphs, with_memory);
  uint64_t alloc_node = 0, use = 0, free_node = 0;
  dc_buffer temporary = nullptr;
  dc_status alloc = dc_graph_add_alloc_node(with_memory, 256, nullptr, 0, &alloc_node, &temporary);
  if (alloc != DC_ERROR_NOT_SUPPORTED) {
    STEP("dc_graph_add_alloc_node", alloc);
    keep(w.buffers, temporary);
    STEP("dc_graph_add_fill_node on graph memory",
         dc_graph_add_fill_node(with_memory, temporary, 0, 256, 7, 4, &alloc_node, 1, &use));
    STEP("dc_graph_add_free_node", dc_graph_add_free_node(with_memory, temporary, &use, 1, &free_node));
    STEP("dc_graph_launch with memory nodes", dc_graph_launch(with_memory, s));
  }
  STEP("dc_stream_synchronize after built graphs", dc_stream_synchronize(s));

  // -- the profiler's switch (cuProfilerStart/Stop) ------------------------------------------------------
  STEP("dc_profiler_start", dc_profiler_start(w.d0));
  STEP("dc_profiler_stop", dc_profiler_stop(w.d0));

  // -- the end of work -----------------------------------------------------------------------------------
  STEP("dc_device_synchronize", dc_device_synchronize(w.d0));
  STEP("dc_device_trim_memory", dc_device_trim_memory(w.d0, 0));
  if (o.status == DC_SUCCESS) o.step.clear();
  return o;
}

Outcome run_reset(World& w, int32_t ordinal) {
  Outcome o;
  STEP("dc_device_open for the reset", dc_device_open(ordinal, &w.d0));
  dc_buffer before = nullptr, after = nullptr;
  // Something on the device to be dropped by the reset (its release frees nothing).
  STEP("dc_buffer_alloc before the reset", dc_buffer_alloc(w.d0, 64, 0, &before));
  keep(w.buffers, before);
  STEP("dc_device_reset", dc_device_reset(w.d0));
  uint64_t size = 0;
  STEP("dc_buffer_size of a buffer made before the reset", dc_buffer_size(before, &size));
  CHECK_DATA("the size of a buffer made before the reset", size == 64);
  STEP("dc_buffer_alloc after the reset", dc_buffer_alloc(w.d0, 64, 0, &after));
  keep(w.buffers, after);
  STEP("dc_buffer_fill after the reset", dc_buffer_fill(after, 0, 64, 1, 1));
  if (o.status == DC_SUCCESS) o.step.clear();
  return o;
}

}  // namespace faults
