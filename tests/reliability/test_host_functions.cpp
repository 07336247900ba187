// Calls made from inside a host function (dc_stream_add_callback). The driver
// forbids CUDA calls there, and a call that waits, loads, unloads or resets
// can deadlock or destroy the context the host function runs in (seen:
// dc_device_reset from a host function returned DC_SUCCESS after destroying
// its context). Every call that enqueues work, waits, loads or unloads code,
// changes or resets a context, or asks the driver about a kernel (which may
// load it lazily, and a load may synchronise) is refused with
// DC_ERROR_INVALID_STATE. The header lists them (dc_stream_add_callback); the
// table below holds one call of each, and a test checks that the two agree.
#include <gtest/gtest.h>

#include <fstream>
#include <functional>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "reliability/device_fixture.h"

namespace {

// Live objects of every kind, made before the host function runs.
struct Objects {
  dc_device device = nullptr;
  dc_stream stream = nullptr;
  dc_buffer buffer = nullptr;
  dc_buffer other = nullptr;
  dc_event start = nullptr;
  dc_event end = nullptr;
  dc_module module = nullptr;
  dc_function function = nullptr;
  dc_program program = nullptr;
  dc_launch launch = nullptr;
  dc_graph graph = nullptr;
  dc_graph built = nullptr;  // made with dc_graph_create: two fill nodes, first and second
  uint64_t first = 0;
  uint64_t second = 0;
  dc_queue to_device = nullptr;  // full: an enqueue would wait
  dc_queue to_host = nullptr;    // empty: a dequeue would wait
  dc_control control = nullptr;  // idle: a wait for its stop would wait
  dc_pool pool = nullptr;
  dc_buffer growable = nullptr;
  dc_buffer no_pool = nullptr;   // exported into ipc_buffer
  uint64_t vmm_address = 0;      // a 2 MiB reservation, nothing mapped
  uint64_t vmm_handle = 0;       // 2 MiB of physical memory, not mapped
  dc_event shared = nullptr;     // exported into ipc_event
  dc_library library = nullptr;  // the program's image, loaded once
  uint8_t ipc_buffer[DC_IPC_HANDLE_SIZE] = {};
  uint8_t ipc_event[DC_IPC_HANDLE_SIZE] = {};
  dc_pool export_pool = nullptr;     // DC_POOL_EXPORTABLE, exported into ipc_pool and export_fd
  dc_buffer pool_buffer = nullptr;   // of export_pool, exported into ipc_pool_buffer
  dc_pool imported_pool = nullptr;   // export_pool imported here (null where the driver refuses that)
  int32_t export_fd = -1;
  uint8_t ipc_pool[DC_IPC_HANDLE_SIZE] = {};
  uint8_t ipc_pool_buffer[DC_IPC_HANDLE_SIZE] = {};
  std::vector<uint8_t> host = std::vector<uint8_t>(4096, 1);
  dc_launch_config config = DC_LAUNCH_CONFIG_INIT;
};

struct Case {
  const char* name;
  std::function<dc_status(Objects&)> call;
};

void release_any(dc_buffer h) { dc_buffer_release(h); }
void release_any(dc_stream h) { dc_stream_release(h); }
void release_any(dc_event h) { dc_event_release(h); }
void release_any(dc_module h) { dc_module_release(h); }
void release_any(dc_function h) { dc_function_release(h); }
void release_any(dc_launch h) { dc_launch_release(h); }
void release_any(dc_graph h) { dc_graph_release(h); }
void release_any(dc_queue h) { dc_queue_release(h); }
void release_any(dc_control h) { dc_control_release(h); }
void release_any(dc_pool h) { dc_pool_release(h); }
void release_any(dc_library h) { dc_library_release(h); }

// Out-pointers start as a made-up handle: a refused call must clear them.
template <class Handle>
Handle sentinel() {
  return reinterpret_cast<Handle>(uintptr_t(1));
}
// The status, or DC_ERROR_INTERNAL if a failed call left its out-pointer set
// (and the handle released if the call succeeded after all).
template <class Handle>
dc_status cleared(dc_status s, Handle out) {
  if (s == DC_SUCCESS) {
    release_any(out);
    return s;
  }
  return out ? DC_ERROR_INTERNAL : s;
}

// One call of every refused function, with arguments that are valid outside
// a host function.
std::vector<Case> refused_calls() {
  return {
      {"dc_buffer_alloc", [](Objects& o) { dc_buffer b = sentinel<dc_buffer>(); dc_status s = dc_buffer_alloc(o.device, 64, 0, &b); return cleared(s, b); }},
      {"dc_buffer_alloc_async", [](Objects& o) { dc_buffer b = sentinel<dc_buffer>(); dc_status s = dc_buffer_alloc_async(o.stream, 64, 0, &b); return cleared(s, b); }},
      {"dc_pool_create", [](Objects& o) { dc_pool p = sentinel<dc_pool>(); dc_status s = dc_pool_create(o.device, 0, 0, &p); return cleared(s, p); }},
      {"dc_pool_set_access", [](Objects& o) { return dc_pool_set_access(o.pool, o.device, 1); }},
      {"dc_buffer_alloc_from_pool", [](Objects& o) { dc_buffer b = sentinel<dc_buffer>(); dc_status s = dc_buffer_alloc_from_pool(o.pool, nullptr, 64, &b); return cleared(s, b); }},
      {"dc_buffer_alloc_growable", [](Objects& o) { dc_buffer b = sentinel<dc_buffer>(); dc_status s = dc_buffer_alloc_growable(o.device, 1 << 30, 1, &b); return cleared(s, b); }},
      {"dc_buffer_grow", [](Objects& o) { return dc_buffer_grow(o.growable, 4u << 20); }},
      {"dc_buffer_import_ipc", [](Objects& o) { dc_buffer b = sentinel<dc_buffer>(); dc_status s = dc_buffer_import_ipc(o.device, o.ipc_buffer, sizeof o.ipc_buffer, &b); return cleared(s, b); }},
      {"dc_event_import_ipc", [](Objects& o) { dc_event e = sentinel<dc_event>(); dc_status s = dc_event_import_ipc(o.device, o.ipc_event, sizeof o.ipc_event, &e); return cleared(s, e); }},
      {"dc_pool_import_ipc", [](Objects& o) { dc_pool p = sentinel<dc_pool>(); dc_status s = dc_pool_import_ipc(o.device, o.ipc_pool, sizeof o.ipc_pool, &p); return cleared(s, p); }},
      {"dc_pool_import_fd", [](Objects& o) { dc_pool p = sentinel<dc_pool>(); dc_status s = dc_pool_import_fd(o.device, o.export_fd, &p); return cleared(s, p); }},
      {"dc_buffer_import_ipc_from_pool", [](Objects& o) { dc_buffer b = sentinel<dc_buffer>(); dc_status s = dc_buffer_import_ipc_from_pool(o.imported_pool ? o.imported_pool : o.export_pool, o.ipc_pool_buffer, sizeof o.ipc_pool_buffer, &b); return cleared(s, b); }},
      {"dc_vmm_reserve", [](Objects& o) { uint64_t a = 1; dc_status s = dc_vmm_reserve(o.device, 2u << 20, 0, &a); if (s == DC_SUCCESS) dc_vmm_free(o.device, a, 2u << 20); return s; }},
      {"dc_vmm_free", [](Objects& o) { return dc_vmm_free(o.device, o.vmm_address, 2u << 20); }},
      {"dc_vmm_create", [](Objects& o) { uint64_t h = 1; dc_status s = dc_vmm_create(o.device, 2u << 20, &h); if (s == DC_SUCCESS) dc_vmm_release(o.device, h); return s; }},
      {"dc_vmm_release", [](Objects& o) { return dc_vmm_release(o.device, o.vmm_handle); }},
      {"dc_vmm_map", [](Objects& o) { return dc_vmm_map(o.device, o.vmm_address, 2u << 20, o.vmm_handle); }},
      {"dc_vmm_unmap", [](Objects& o) { return dc_vmm_unmap(o.device, o.vmm_address, 2u << 20); }},
      {"dc_vmm_set_access", [](Objects& o) { return dc_vmm_set_access(o.device, o.vmm_address, 2u << 20, o.device, DC_VMM_ACCESS_READWRITE); }},
      {"dc_buffer_alloc_pinned", [](Objects& o) { dc_buffer b = sentinel<dc_buffer>(); dc_status s = dc_buffer_alloc_pinned(o.device, 64, 0, &b); return cleared(s, b); }},
      {"dc_buffer_alloc_managed", [](Objects& o) { dc_buffer b = sentinel<dc_buffer>(); dc_status s = dc_buffer_alloc_managed(o.device, 64, 0, &b); return cleared(s, b); }},
      {"dc_buffer_wrap_device", [](Objects& o) { uint64_t p = 0; dc_buffer_device_pointer(o.buffer, &p); dc_buffer b = sentinel<dc_buffer>(); dc_status s = dc_buffer_wrap_device(o.device, p, 64, &b); return cleared(s, b); }},
      {"dc_buffer_register_host", [](Objects& o) { dc_buffer b = sentinel<dc_buffer>(); dc_status s = dc_buffer_register_host(o.device, o.host.data(), o.host.size(), 0, &b); return cleared(s, b); }},
      {"dc_buffer_prefetch", [](Objects& o) { return dc_buffer_prefetch(o.buffer, 0, 64, 0, o.stream); }},
      {"dc_buffer_advise", [](Objects& o) { return dc_buffer_advise(o.buffer, 0, 64, DC_ADVISE_SET_READ_MOSTLY, 0); }},
      {"dc_buffer_write", [](Objects& o) { return dc_buffer_write(o.buffer, 0, o.host.data(), 64); }},
      {"dc_buffer_read", [](Objects& o) { return dc_buffer_read(o.buffer, 0, o.host.data(), 64); }},
      {"dc_buffer_copy", [](Objects& o) { return dc_buffer_copy(o.other, 0, o.buffer, 0, 64); }},
      {"dc_buffer_write_async", [](Objects& o) { return dc_buffer_write_async(o.buffer, 0, o.host.data(), 64, o.stream); }},
      {"dc_buffer_read_async", [](Objects& o) { return dc_buffer_read_async(o.buffer, 0, o.host.data(), 64, o.stream); }},
      {"dc_buffer_copy_async", [](Objects& o) { return dc_buffer_copy_async(o.other, 0, o.buffer, 0, 64, o.stream); }},
      {"dc_buffer_copy_batch_async", [](Objects& o) { dc_copy_op op = {DC_COPY_BUFFER_TO_BUFFER, 0, o.other, 0, o.buffer, 0, nullptr, 64}; return dc_buffer_copy_batch_async(&op, 1, o.stream); }},
      {"dc_buffer_fill", [](Objects& o) { return dc_buffer_fill(o.buffer, 0, 64, 7, 4); }},
      {"dc_buffer_fill_async", [](Objects& o) { return dc_buffer_fill_async(o.buffer, 0, 64, 7, 4, o.stream); }},
      {"dc_buffer_alloc_pitched", [](Objects& o) { dc_buffer b = sentinel<dc_buffer>(); uint64_t pitch = 0; dc_status s = dc_buffer_alloc_pitched(o.device, 64, 4, 4, 0, &pitch, &b); return cleared(s, b); }},
      {"dc_buffer_copy_2d", [](Objects& o) { return dc_buffer_copy_2d(o.other, 0, 16, o.buffer, 0, 16, 8, 4); }},
      {"dc_buffer_copy_2d_async", [](Objects& o) { return dc_buffer_copy_2d_async(o.other, 0, 16, o.buffer, 0, 16, 8, 4, o.stream); }},
      {"dc_buffer_copy_3d", [](Objects& o) { return dc_buffer_copy_3d(o.other, 0, 16, 2, o.buffer, 0, 16, 2, 8, 2, 2); }},
      {"dc_buffer_copy_3d_async", [](Objects& o) { return dc_buffer_copy_3d_async(o.other, 0, 16, 2, o.buffer, 0, 16, 2, 8, 2, 2, o.stream); }},
      {"dc_buffer_write_2d", [](Objects& o) { return dc_buffer_write_2d(o.buffer, 0, 16, o.host.data(), o.host.size(), 16, 8, 4); }},
      {"dc_buffer_write_2d_async", [](Objects& o) { return dc_buffer_write_2d_async(o.buffer, 0, 16, o.host.data(), o.host.size(), 16, 8, 4, o.stream); }},
      {"dc_buffer_read_2d", [](Objects& o) { return dc_buffer_read_2d(o.buffer, 0, 16, o.host.data(), o.host.size(), 16, 8, 4); }},
      {"dc_buffer_read_2d_async", [](Objects& o) { return dc_buffer_read_2d_async(o.buffer, 0, 16, o.host.data(), o.host.size(), 16, 8, 4, o.stream); }},
      {"dc_buffer_fill_2d", [](Objects& o) { return dc_buffer_fill_2d(o.buffer, 0, 16, 8, 4, 7, 4); }},
      {"dc_buffer_fill_2d_async", [](Objects& o) { return dc_buffer_fill_2d_async(o.buffer, 0, 16, 8, 4, 7, 4, o.stream); }},
      {"dc_device_set_limit", [](Objects& o) { return dc_device_set_limit(o.device, DC_LIMIT_PRINTF_FIFO_SIZE, 1 << 20); }},
      {"dc_device_limit", [](Objects& o) { uint64_t v = 1; dc_status s = dc_device_limit(o.device, DC_LIMIT_STACK_SIZE, &v); return s != DC_SUCCESS && v != 0 ? DC_ERROR_INTERNAL : s; }},
      {"dc_device_set_cache_config", [](Objects& o) { return dc_device_set_cache_config(o.device, DC_CACHE_PREFER_NONE); }},
      {"dc_device_cache_config", [](Objects& o) { int32_t v = 1; dc_status s = dc_device_cache_config(o.device, &v); return s != DC_SUCCESS && v != 0 ? DC_ERROR_INTERNAL : s; }},
      {"dc_device_synchronize", [](Objects& o) { return dc_device_synchronize(o.device); }},
      {"dc_device_reset", [](Objects& o) { return dc_device_reset(o.device); }},
      {"dc_device_trim_memory", [](Objects& o) { return dc_device_trim_memory(o.device, 0); }},
      {"dc_device_enable_peer_access", [](Objects& o) { return dc_device_enable_peer_access(o.device, o.device); }},
      {"dc_device_disable_peer_access", [](Objects& o) { return dc_device_disable_peer_access(o.device, o.device); }},
      {"dc_stream_create", [](Objects& o) { dc_stream s = sentinel<dc_stream>(); dc_status r = dc_stream_create(o.device, 0, 0, &s); return cleared(r, s); }},
      {"dc_stream_synchronize", [](Objects& o) { return dc_stream_synchronize(o.stream); }},
      {"dc_stream_query", [](Objects& o) { return dc_stream_query(o.stream); }},
      {"dc_stream_wait_event", [](Objects& o) { return dc_stream_wait_event(o.stream, o.start); }},
      {"dc_stream_add_callback", [](Objects& o) { return dc_stream_add_callback(o.stream, [](void*) {}, nullptr); }},
      {"dc_event_create", [](Objects& o) { dc_event e = sentinel<dc_event>(); dc_status s = dc_event_create(o.device, 0, &e); return cleared(s, e); }},
      {"dc_event_record", [](Objects& o) { return dc_event_record(o.start, o.stream); }},
      {"dc_event_synchronize", [](Objects& o) { return dc_event_synchronize(o.start); }},
      {"dc_event_query", [](Objects& o) { return dc_event_query(o.start); }},
      {"dc_event_elapsed_ms", [](Objects& o) { float ms = 0; return dc_event_elapsed_ms(o.start, o.end, &ms); }},
      {"dc_module_load", [](Objects& o) {
         const void* image = nullptr; uint64_t size = 0;
         dc_program_output(o.program, nullptr, &image, &size);
         dc_module m = sentinel<dc_module>(); dc_status s = dc_module_load(o.device, image, size, nullptr, &m); return cleared(s, m); }},
      {"dc_module_load_file", [](Objects& o) { dc_module m = sentinel<dc_module>(); dc_status s = dc_module_load_file(o.device, "/nonexistent.cubin", nullptr, &m); return cleared(s, m); }},
      {"dc_library_load", [](Objects& o) {
         const void* image = nullptr; uint64_t size = 0;
         dc_program_output(o.program, nullptr, &image, &size);
         dc_library l = sentinel<dc_library>(); dc_status s = dc_library_load(image, size, nullptr, &l); return cleared(s, l); }},
      {"dc_library_load_file", [](Objects&) { dc_library l = sentinel<dc_library>(); dc_status s = dc_library_load_file("/nonexistent.cubin", nullptr, &l); return cleared(s, l); }},
      {"dc_library_function_count", [](Objects& o) { uint32_t n = 0; return dc_library_function_count(o.library, &n); }},
      {"dc_library_function_name", [](Objects& o) { const char* n = nullptr; return dc_library_function_name(o.library, 0, &n); }},
      {"dc_library_get_function", [](Objects& o) { dc_function f = sentinel<dc_function>(); dc_status s = dc_library_get_function(o.library, o.device, "empty", &f); return cleared(s, f); }},
      {"dc_module_load_program", [](Objects& o) { dc_module m = sentinel<dc_module>(); dc_status s = dc_module_load_program(o.device, o.program, nullptr, &m); return cleared(s, m); }},
      {"dc_module_compile_and_load", [](Objects& o) {
         dc_module m = sentinel<dc_module>();
         dc_status s = dc_module_compile_and_load(o.device, "extern \"C\" __global__ void k() {}", "k.cu", nullptr, &m);
         return cleared(s, m); }},
      {"dc_module_get_function", [](Objects& o) { dc_function f = sentinel<dc_function>(); dc_status s = dc_module_get_function(o.module, "saxpy", &f); return cleared(s, f); }},
      {"dc_module_get_global", [](Objects& o) { dc_buffer b = sentinel<dc_buffer>(); dc_status s = dc_module_get_global(o.module, "answer", &b); return cleared(s, b); }},
      {"dc_module_function_count", [](Objects& o) { uint32_t n = 0; return dc_module_function_count(o.module, &n); }},
      {"dc_module_function_name", [](Objects& o) { const char* n = nullptr; return dc_module_function_name(o.module, 0, &n); }},
      {"dc_function_attribute", [](Objects& o) { int32_t v = 0; return dc_function_attribute(o.function, 0, &v); }},
      {"dc_function_get_info", [](Objects& o) { dc_function_info i = DC_FUNCTION_INFO_INIT; return dc_function_get_info(o.function, &i); }},
      {"dc_function_set_attribute", [](Objects& o) { return dc_function_set_attribute(o.function, 8, 0); }},
      {"dc_function_set_cache_config", [](Objects& o) { return dc_function_set_cache_config(o.function, 0); }},
      {"dc_occupancy_max_active_blocks", [](Objects& o) { int32_t n = 0; return dc_occupancy_max_active_blocks(o.function, 128, 0, &n); }},
      {"dc_occupancy_max_potential_block_size", [](Objects& o) { int32_t g = 0, b = 0; return dc_occupancy_max_potential_block_size(o.function, nullptr, nullptr, 0, 0, &g, &b); }},
      {"dc_occupancy_max_active_clusters", [](Objects& o) { int32_t n = 0; return dc_occupancy_max_active_clusters(o.function, &o.config, &n); }},
      {"dc_occupancy_available_dynamic_shared", [](Objects& o) { uint64_t n = 0; return dc_occupancy_available_dynamic_shared(o.function, 1, 128, &n); }},
      {"dc_launch_config_1d", [](Objects& o) { dc_launch_config c = DC_LAUNCH_CONFIG_INIT; return dc_launch_config_1d(o.function, 1000, 0, &c); }},
      {"dc_launch_kernel", [](Objects& o) { return dc_launch_kernel(o.function, &o.config, nullptr, 0, o.stream); }},
      {"dc_launch_kernel_packed", [](Objects& o) { return dc_launch_kernel_packed(o.function, &o.config, nullptr, 0, o.stream); }},
      {"dc_launch_create", [](Objects& o) { dc_launch l = sentinel<dc_launch>(); dc_status s = dc_launch_create(o.function, &o.config, &l); return cleared(s, l); }},
      {"dc_launch_set_config", [](Objects& o) { return dc_launch_set_config(o.launch, &o.config); }},
      {"dc_launch_enqueue", [](Objects& o) { return dc_launch_enqueue(o.launch, o.stream); }},
      {"dc_launch_enqueue_batch", [](Objects& o) { return dc_launch_enqueue_batch(&o.launch, 1, o.stream); }},
      {"dc_stream_begin_capture", [](Objects& o) { return dc_stream_begin_capture(o.stream, DC_CAPTURE_THREAD_LOCAL); }},
      {"dc_stream_end_capture", [](Objects& o) { dc_graph g = sentinel<dc_graph>(); dc_status s = dc_stream_end_capture(o.stream, &g); return cleared(s, g); }},
      {"dc_graph_instantiate", [](Objects& o) { return dc_graph_instantiate(o.graph); }},
      {"dc_graph_upload", [](Objects& o) { return dc_graph_upload(o.graph, o.stream); }},
      {"dc_graph_launch", [](Objects& o) { return dc_graph_launch(o.graph, o.stream); }},
      {"dc_graph_update", [](Objects& o) { return dc_graph_update(o.graph, o.graph); }},
      {"dc_graph_create", [](Objects& o) { dc_graph g = sentinel<dc_graph>(); dc_status s = dc_graph_create(o.device, &g); return cleared(s, g); }},
      {"dc_graph_add_kernel_node", [](Objects& o) { uint64_t n = 0; return dc_graph_add_kernel_node(o.graph, o.function, &o.config, nullptr, 0, nullptr, 0, &n); }},
      {"dc_graph_add_copy_node", [](Objects& o) { uint64_t n = 0; return dc_graph_add_copy_node(o.graph, o.other, 0, o.buffer, 0, 64, nullptr, 0, &n); }},
      {"dc_graph_add_fill_node", [](Objects& o) { uint64_t n = 0; return dc_graph_add_fill_node(o.graph, o.buffer, 0, 64, 7, 4, nullptr, 0, &n); }},
      {"dc_graph_add_host_node", [](Objects& o) { uint64_t n = 0; return dc_graph_add_host_node(o.graph, [](void*) {}, nullptr, nullptr, 0, &n); }},
      {"dc_graph_add_event_record_node", [](Objects& o) { uint64_t n = 0; return dc_graph_add_event_record_node(o.graph, o.start, nullptr, 0, &n); }},
      {"dc_graph_add_event_wait_node", [](Objects& o) { uint64_t n = 0; return dc_graph_add_event_wait_node(o.graph, o.start, nullptr, 0, &n); }},
      {"dc_graph_add_child_graph_node", [](Objects& o) { uint64_t n = 0; return dc_graph_add_child_graph_node(o.graph, o.built, nullptr, 0, &n); }},
      {"dc_graph_add_dependency", [](Objects& o) { return dc_graph_add_dependency(o.built, o.first, o.second); }},
      {"dc_graph_clone", [](Objects& o) { dc_graph g = sentinel<dc_graph>(); dc_status s = dc_graph_clone(o.graph, &g); return cleared(s, g); }},
      {"dc_graph_remove_node", [](Objects& o) { return dc_graph_remove_node(o.built, o.first); }},
      {"dc_graph_write_dot", [](Objects& o) { return dc_graph_write_dot(o.graph, "/dev/null", 0); }},
      {"dc_graph_set_kernel_node", [](Objects& o) { return dc_graph_set_kernel_node(o.built, o.first, &o.config, nullptr, 0); }},
      {"dc_graph_set_copy_node", [](Objects& o) { return dc_graph_set_copy_node(o.built, o.first, o.other, 0, o.buffer, 0, 64); }},
      {"dc_graph_set_fill_node", [](Objects& o) { return dc_graph_set_fill_node(o.built, o.first, o.buffer, 0, 64, 3, 4); }},
      {"dc_graph_add_conditional_node", [](Objects& o) { uint64_t c = 0, n = 0; return dc_graph_add_conditional_node(o.built, DC_GRAPH_CONDITIONAL_IF, 1, 0, nullptr, 0, &c, &n); }},
      {"dc_graph_conditional_body", [](Objects& o) { dc_graph g = sentinel<dc_graph>(); dc_status s = dc_graph_conditional_body(o.built, o.first, 0, &g); return cleared(s, g); }},
      {"dc_graph_set_host_node", [](Objects& o) { return dc_graph_set_host_node(o.built, o.first, [](void*) {}, nullptr); }},
      {"dc_graph_add_alloc_node", [](Objects& o) { uint64_t n = 0; dc_buffer b = sentinel<dc_buffer>(); dc_status s = dc_graph_add_alloc_node(o.built, 256, nullptr, 0, &n, &b); return cleared(s, b); }},
      {"dc_graph_add_free_node", [](Objects& o) { uint64_t n = 0; return dc_graph_add_free_node(o.built, o.buffer, nullptr, 0, &n); }},
      {"dc_graph_add_copy_2d_node", [](Objects& o) { uint64_t n = 0; return dc_graph_add_copy_2d_node(o.built, o.other, 0, 16, o.buffer, 0, 16, 8, 4, nullptr, 0, &n); }},
      {"dc_graph_add_copy_3d_node", [](Objects& o) { uint64_t n = 0; return dc_graph_add_copy_3d_node(o.built, o.other, 0, 16, 2, o.buffer, 0, 16, 2, 8, 2, 2, nullptr, 0, &n); }},
      {"dc_graph_set_copy_2d_node", [](Objects& o) { return dc_graph_set_copy_2d_node(o.built, o.first, o.other, 0, 16, o.buffer, 0, 16, 8, 4); }},
      {"dc_graph_dot", [](Objects& o) { uint64_t n = 0; return dc_graph_dot(o.graph, 0, nullptr, 0, &n); }},
      {"dc_queue_create", [](Objects& o) { dc_queue q = sentinel<dc_queue>(); dc_status s = dc_queue_create(o.device, DC_QUEUE_TO_DEVICE, 8, 2, &q); return cleared(s, q); }},
      {"dc_queue_enqueue", [](Objects& o) { uint64_t m = 0; return dc_queue_enqueue(o.to_device, &m, 8, DC_WAIT_BLOCK, 1000); }},
      {"dc_queue_dequeue", [](Objects& o) { uint64_t m = 0; uint32_t n = 0; return dc_queue_dequeue(o.to_host, &m, 8, &n, DC_WAIT_BLOCK, 1000); }},
      {"dc_control_create", [](Objects& o) { dc_control c = sentinel<dc_control>(); dc_status s = dc_control_create(o.device, &c); return cleared(s, c); }},
      {"dc_control_wait_stopped", [](Objects& o) { return dc_control_wait_stopped(o.control, DC_WAIT_BLOCK, 1000); }},
      {"dc_stream_wait_value32", [](Objects& o) { return dc_stream_wait_value32(o.stream, o.buffer, 0, 0, DC_COMPARE_GEQ, 0); }},
      {"dc_stream_wait_value64", [](Objects& o) { return dc_stream_wait_value64(o.stream, o.buffer, 0, 0, DC_COMPARE_GEQ, 0); }},
      {"dc_stream_write_value32", [](Objects& o) { return dc_stream_write_value32(o.stream, o.buffer, 0, 1, 0); }},
      {"dc_stream_write_value64", [](Objects& o) { return dc_stream_write_value64(o.stream, o.buffer, 0, 1, 0); }},
      {"dc_stream_batch_mem_ops", [](Objects& o) { dc_stream_mem_op op = {DC_MEM_OP_WRITE32, 0, 0, 0, o.buffer, 0, 1}; return dc_stream_batch_mem_ops(o.stream, &op, 1); }},
  };
}

struct CallbackRun {
  Objects* objects;
  std::vector<Case> cases;
  std::vector<dc_status> statuses;
  std::vector<std::string> messages;
};

void run_cases(void* p) {
  CallbackRun* run = static_cast<CallbackRun*>(p);
  for (Case& c : run->cases) {
    run->statuses.push_back(c.call(*run->objects));
    run->messages.push_back(dc_last_error_message());
  }
}

class HostFunctionTest : public dctest::DeviceFixture {};

TEST_F(HostFunctionTest, EveryCallThatWaitsLoadsOrResetsIsRefusedInsideAHostFunction) {
  if (!have_nvrtc_) GTEST_SKIP() << "needs NVRTC (the module, function and launch cases)";
  Objects o;
  o.device = device_;
  ASSERT_DC_OK(dc_stream_create(device_, 0, 0, &o.stream));
  ASSERT_DC_OK(dc_buffer_alloc(device_, 4096, 0, &o.buffer));
  ASSERT_DC_OK(dc_buffer_alloc(device_, 4096, 0, &o.other));
  ASSERT_DC_OK(dc_event_create(device_, 0, &o.start));
  ASSERT_DC_OK(dc_event_create(device_, 0, &o.end));
  ASSERT_DC_OK(dc_event_record(o.start, o.stream));
  ASSERT_DC_OK(dc_event_record(o.end, o.stream));
  dc_compile_options options = DC_COMPILE_OPTIONS_INIT;
  options.std = "c++17";
  ASSERT_DC_OK(dc_compile(dctest::kKernels, "host_functions.cu", &options, device_, &o.program));
  ASSERT_DC_OK(dc_module_load_program(device_, o.program, nullptr, &o.module));
  ASSERT_DC_OK(dc_module_get_function(o.module, "empty", &o.function));
  {
    const void* image = nullptr;
    uint64_t size = 0;
    ASSERT_DC_OK(dc_program_output(o.program, nullptr, &image, &size));
    ASSERT_DC_OK(dc_library_load(image, size, nullptr, &o.library));
  }
  ASSERT_DC_OK(dc_launch_create(o.function, &o.config, &o.launch));
  ASSERT_DC_OK(dc_stream_begin_capture(o.stream, DC_CAPTURE_THREAD_LOCAL));
  ASSERT_DC_OK(dc_launch_enqueue(o.launch, o.stream));
  ASSERT_DC_OK(dc_stream_end_capture(o.stream, &o.graph));
  ASSERT_DC_OK(dc_graph_create(o.device, &o.built));
  ASSERT_DC_OK(dc_graph_add_fill_node(o.built, o.buffer, 0, 64, 1, 4, nullptr, 0, &o.first));
  ASSERT_DC_OK(dc_graph_add_fill_node(o.built, o.buffer, 0, 64, 2, 4, nullptr, 0, &o.second));
  ASSERT_DC_OK(dc_stream_synchronize(o.stream));
  ASSERT_DC_OK(dc_queue_create(device_, DC_QUEUE_TO_DEVICE, 8, 2, &o.to_device));
  uint64_t message = 0;
  ASSERT_DC_OK(dc_queue_try_enqueue(o.to_device, &message, 8));
  ASSERT_DC_OK(dc_queue_try_enqueue(o.to_device, &message, 8));
  ASSERT_DC_OK(dc_queue_create(device_, DC_QUEUE_TO_HOST, 8, 2, &o.to_host));
  ASSERT_DC_OK(dc_control_create(device_, &o.control));
  ASSERT_DC_OK(dc_pool_create(device_, 0, 0, &o.pool));
  ASSERT_DC_OK(dc_buffer_alloc_growable(device_, 64u << 20, 1, &o.growable));
  ASSERT_DC_OK(dc_buffer_alloc(device_, 4096, DC_ALLOC_NO_POOL, &o.no_pool));
  ASSERT_DC_OK(dc_vmm_reserve(device_, 2u << 20, 0, &o.vmm_address));
  ASSERT_DC_OK(dc_vmm_create(device_, 2u << 20, &o.vmm_handle));
  ASSERT_DC_OK(dc_buffer_export_ipc(o.no_pool, o.ipc_buffer, sizeof o.ipc_buffer));
  ASSERT_DC_OK(dc_event_create(device_, DC_EVENT_INTERPROCESS | DC_EVENT_DISABLE_TIMING, &o.shared));
  ASSERT_DC_OK(dc_event_export_ipc(o.shared, o.ipc_event, sizeof o.ipc_event));
  ASSERT_DC_OK(dc_pool_create(device_, 0, DC_POOL_EXPORTABLE, &o.export_pool));
  ASSERT_DC_OK(dc_buffer_alloc_from_pool(o.export_pool, nullptr, 64, &o.pool_buffer));
  ASSERT_DC_OK(dc_pool_export_ipc(o.export_pool, o.ipc_pool, sizeof o.ipc_pool));
  ASSERT_DC_OK(dc_pool_export_fd(o.export_pool, &o.export_fd));
  ASSERT_DC_OK(dc_buffer_export_ipc(o.pool_buffer, o.ipc_pool_buffer, sizeof o.ipc_pool_buffer));
  // The fake imports in the exporting process; a real driver may refuse (the call is refused first anyway).
  if (dc_pool_import_fd(device_, o.export_fd, &o.imported_pool) != DC_SUCCESS) o.imported_pool = nullptr;

  CallbackRun run;
  run.objects = &o;
  run.cases = refused_calls();
  ASSERT_DC_OK(dc_stream_add_callback(o.stream, run_cases, &run));
  ASSERT_DC_OK(dc_stream_synchronize(o.stream));
  ASSERT_EQ(run.statuses.size(), run.cases.size());
  for (size_t i = 0; i < run.cases.size(); ++i) {
    EXPECT_EQ(run.statuses[i], DC_ERROR_INVALID_STATE)
        << run.cases[i].name << " was not refused inside a host function, or left its out-pointer set "
        << "(DC_ERROR_INTERNAL here): " << dc_status_name(run.statuses[i]) << " " << run.messages[i];
    EXPECT_NE(run.messages[i].find(std::string(run.cases[i].name) + ": called from a host function"),
              std::string::npos)
        << run.messages[i];
  }
  // Outside the host function the same calls work again (here: the context
  // was not reset, the stream and the launch still work).
  EXPECT_DC_OK(dc_launch_enqueue(o.launch, o.stream));
  EXPECT_DC_OK(dc_device_synchronize(device_));

  dc_queue_release(o.to_device);
  dc_queue_release(o.to_host);
  dc_control_release(o.control);
  dc_pool_release(o.pool);
  dc_pool_release(o.imported_pool);
  dc_buffer_release(o.pool_buffer);
  dc_pool_release(o.export_pool);
  dc_buffer_release(o.growable);
  dc_buffer_release(o.no_pool);
  dc_vmm_release(device_, o.vmm_handle);
  dc_vmm_free(device_, o.vmm_address, 2u << 20);
  dc_event_release(o.shared);
  dc_library_release(o.library);
  dc_graph_release(o.graph);
  dc_graph_release(o.built);
  dc_launch_release(o.launch);
  dc_function_release(o.function);
  dc_module_release(o.module);
  dc_program_release(o.program);
  dc_event_release(o.start);
  dc_event_release(o.end);
  dc_buffer_release(o.buffer);
  dc_buffer_release(o.other);
  dc_stream_release(o.stream);
}

// The header's list (dc_stream_add_callback) and the table above name the same calls.
TEST(HostFunctionList, TheHeaderListsExactlyTheCallsTestedHere) {
  std::ifstream in(DCTEST_HEADER);
  if (!in) GTEST_SKIP() << "the header is not here (" << DCTEST_HEADER << ")";
  std::stringstream text;
  text << in.rdbuf();
  std::string h = text.str();
  const std::string marker = "Refused inside `fn` with DC_ERROR_INVALID_STATE";
  size_t at = h.find(marker);
  ASSERT_NE(at, std::string::npos) << "dc_stream_add_callback's documentation lacks: " << marker;
  size_t end = h.find("\n *\n", at);
  ASSERT_NE(end, std::string::npos);
  std::string block = h.substr(at + marker.size(), end - at - marker.size());
  std::set<std::string> listed;
  std::regex name("dc_[a-z0-9_]+");
  for (auto it = std::sregex_iterator(block.begin(), block.end(), name); it != std::sregex_iterator(); ++it)
    listed.insert(it->str());
  std::set<std::string> tested;
  for (const Case& c : refused_calls()) tested.insert(c.name);
  for (const std::string& n : listed) EXPECT_TRUE(tested.count(n)) << n << " is listed in the header but not tested";
  for (const std::string& n : tested) EXPECT_TRUE(listed.count(n)) << n << " is tested but not listed in the header";
}

}  // namespace
