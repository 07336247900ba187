#include "reliability/bad_input_fixture.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "compile/kernel_sources.h"
#include "support/host_memory.h"
#include "dccuda_device.h"

namespace badinput {

void noop_host_fn(void*) {}
void noop_log_fn(void*, int32_t, const char*, const char*) {}
void noop_handle_fn(void*, const dc_handle_info*) {}
uint64_t no_shared_memory(int32_t, void*) { return 0; }
void no_op(void*) {}

namespace {

std::string failed(const char* what, dc_status s) {
  return std::string(what) + ": " + dc_status_name(s) + ": " + dc_last_error_message();
}

}  // namespace

#define OPEN_STEP(expr)                                \
  do {                                                 \
    dc_status s_ = (expr);                             \
    if (s_ != DC_SUCCESS) return failed(#expr, s_);    \
  } while (0)

std::string Fixture::open() {
  int32_t count = 0;
  OPEN_STEP(dc_device_count(&count));
  if (count < 1) return "no device";
  two_devices = count >= 2;
  OPEN_STEP(dc_device_open(0, &device));
  OPEN_STEP(dc_device_open(two_devices ? 1 : 0, &peer));
  dc_device_info info = DC_DEVICE_INFO_INIT;
  OPEN_STEP(dc_device_get_info(device, &info));
  device_arch = info.compute_capability_major * 10 + info.compute_capability_minor;

  OPEN_STEP(dc_buffer_alloc(device, kBytes, 0, &buffer));
  OPEN_STEP(dc_buffer_alloc(device, kBytes, 0, &buffer2));
  OPEN_STEP(dc_buffer_alloc_pinned(device, kBytes, DC_ALLOC_DEVICE_MAPPED, &pinned));
  OPEN_STEP(dc_buffer_alloc_managed(device, kBytes, 0, &managed));
  OPEN_STEP(dc_buffer_alloc(device, kBytes, DC_ALLOC_NO_POOL, &no_pool));
  OPEN_STEP(dc_buffer_device_pointer(buffer, &buffer_address));
  std::vector<float> ones(kElements, 1.0f);
  OPEN_STEP(dc_buffer_write(buffer, 0, ones.data(), kBytes));
  OPEN_STEP(dc_buffer_write(buffer2, 0, ones.data(), kBytes));
  host = host_memory.data();
  host_register = dctest::aligned_host_alloc(4096, kBytes);
  if (!host_register) return "aligned_alloc failed";

  OPEN_STEP(dc_stream_create(device, 0, 0, &stream));
  OPEN_STEP(dc_stream_create(device, 0, 0, &capture_stream));
  OPEN_STEP(dc_stream_native(stream, &cu_stream));
  OPEN_STEP(dc_event_create(device, 0, &event));
  OPEN_STEP(dc_event_create(device, 0, &event_start));
  OPEN_STEP(dc_event_create(device, 0, &event_end));
  OPEN_STEP(dc_event_record(event_start, stream));
  OPEN_STEP(dc_event_record(event_end, stream));
  OPEN_STEP(dc_event_synchronize(event_end));

  source = dctest::kKernels;
  compile_options.std = "c++17";
  compile_options.arch = device_arch;
  compile_options.num_name_expressions = 1;
  compile_options.name_expressions = name_expressions;
  compile_options_bad_output = compile_options;
  compile_options_bad_output.output = 9;
  OPEN_STEP(dc_compile(source, "bad_input.cu", &compile_options, device, &program));
  uint64_t size = 0;
  OPEN_STEP(dc_program_output(program, nullptr, &image, &size));
  image_size = size;
  char path[] = "/tmp/dccuda-bad-input-XXXXXX";
  int fd = mkstemp(path);
  if (fd < 0) return "mkstemp failed";
  bool written = ::write(fd, image, static_cast<size_t>(size)) == static_cast<ssize_t>(size);
  ::close(fd);
  module_path = path;
  if (!written) return "writing the module file failed";

  OPEN_STEP(dc_module_load_program(device, program, nullptr, &module));
  OPEN_STEP(dc_module_function_count(module, &function_count));
  OPEN_STEP(dc_module_get_function(module, "saxpy", &function));
  OPEN_STEP(dc_library_load(image, image_size, nullptr, &library));

  args[0] = dc_arg{DC_ARG_VALUE, 4, &alpha, nullptr, 0};
  args[1] = dc_arg{DC_ARG_BUFFER, 8, nullptr, buffer, 0};
  args[2] = dc_arg{DC_ARG_BUFFER, 8, nullptr, buffer2, 0};
  args[3] = dc_arg{DC_ARG_VALUE, 4, &n, nullptr, 0};
  std::memcpy(args_bad_kind, args, sizeof args);
  args_bad_kind[0].kind = 7;
  std::memcpy(args_bad_size, args, sizeof args);
  args_bad_size[3].size = 8;
  std::memcpy(args_bad_offset, args, sizeof args);
  args_bad_offset[2].offset = kBytes;
  uint64_t address2 = 0;
  OPEN_STEP(dc_buffer_device_pointer(buffer2, &address2));
  packed = SaxpyParams{alpha, buffer_address, address2, n};
  config.grid[0] = 4;
  config.block[0] = 256;
  config_grid0 = config;
  config_grid0.grid[0] = 0;
  config_block_big = config;
  config_block_big.block[0] = 4096;
  config_bad_flags = config;
  config_bad_flags.flags = 0x80;
  cluster_config = config;
  cluster_config.block[0] = 128;
  cluster_config.cluster[0] = 2;
  cluster_config.cluster[1] = 1;
  cluster_config.cluster[2] = 1;
  module_options_reserved.reserved = 1;
  init_options_bad_flags.flags = 0x80;

  OPEN_STEP(dc_launch_create(function, &config, &launch));
  OPEN_STEP(dc_launch_set_args(launch, args, 4));
  for (dc_graph* g : {&graph, &graph2}) {
    OPEN_STEP(dc_stream_begin_capture(capture_stream, DC_CAPTURE_THREAD_LOCAL));
    OPEN_STEP(dc_launch_kernel(function, &config, args, 4, capture_stream));
    OPEN_STEP(dc_stream_end_capture(capture_stream, g));
  }
  OPEN_STEP(dc_graph_create(device, &built));
  OPEN_STEP(dc_graph_add_fill_node(built, buffer, 0, kBytes, 0, 4, nullptr, 0, &built_node));
  OPEN_STEP(dc_graph_add_fill_node(built, buffer2, 0, kBytes, 0, 4, nullptr, 0, &built_node2));
  OPEN_STEP(dc_graph_node_at(graph, 0, &foreign_node));
  OPEN_STEP(dc_graph_add_kernel_node(built, function, &config, args, 4, nullptr, 0, &built_kernel));
  OPEN_STEP(dc_graph_add_copy_node(built, buffer2, 0, buffer, 0, 64, nullptr, 0, &built_copy));
  OPEN_STEP(dc_graph_add_host_node(built, no_op, nullptr, nullptr, 0, &built_host));
  OPEN_STEP(dc_graph_add_conditional_node(built, DC_GRAPH_CONDITIONAL_IF, 1, 0, nullptr, 0, &built_condition,
                                          &built_conditional));
  OPEN_STEP(dc_graph_create(device, &memory_graph));
  OPEN_STEP(dc_graph_add_alloc_node(memory_graph, 64, nullptr, 0, &memory_alloc, &memory_buffer));
  OPEN_STEP(dc_stream_synchronize(stream));

  // One released handle of every type.
  OPEN_STEP(dc_device_open(0, &dead_device));
  OPEN_STEP(dc_buffer_alloc(device, 64, 0, &dead_buffer));
  OPEN_STEP(dc_stream_create(device, 0, 0, &dead_stream));
  OPEN_STEP(dc_event_create(device, 0, &dead_event));
  OPEN_STEP(dc_compile(source, "bad_input.cu", &compile_options, device, &dead_program));
  OPEN_STEP(dc_module_load_program(device, program, nullptr, &dead_module));
  OPEN_STEP(dc_module_get_function(module, "saxpy", &dead_function));
  OPEN_STEP(dc_launch_create(function, &config, &dead_launch));
  OPEN_STEP(dc_stream_begin_capture(capture_stream, DC_CAPTURE_THREAD_LOCAL));
  OPEN_STEP(dc_stream_end_capture(capture_stream, &dead_graph));
  mem_ops[0] = {DC_MEM_OP_WRITE32, 0, 0, 0, no_pool, 0, 1};
  link_inputs[0] = {DC_LINK_INPUT_PROGRAM, 0u, program, nullptr, 0, nullptr, nullptr};
  link_inputs_bad_kind[0] = link_inputs[0];
  link_inputs_bad_kind[0].kind = 8;
  link_inputs_missing_file[0] = {DC_LINK_INPUT_CUBIN, 0u, nullptr, nullptr, 0, "/nonexistent/kernels.cubin", nullptr};
  link_options.flags = DC_LINK_NO_CACHE;
  {
    int32_t major = 0, minor = 0;
    nvjitlink_status = dc_nvjitlink_version(&major, &minor);
  }
  OPEN_STEP(dc_buffer_alloc_pinned(device, 64, DC_ALLOC_DEVICE_MAPPED, &zeros));
  {
    void* p = nullptr;
    OPEN_STEP(dc_buffer_host_pointer(zeros, &p));
    std::memset(p, 0, 64);
  }
  OPEN_STEP(dc_queue_create(device, DC_QUEUE_TO_DEVICE, 64, 1u << 16, &queue));
  OPEN_STEP(dc_queue_create(device, DC_QUEUE_TO_HOST, 64, 16, &queue_to_host));
  OPEN_STEP(dc_control_create(device, &control));
  OPEN_STEP(dc_queue_create(device, DC_QUEUE_TO_HOST, 64, 16, &queue_from_kernel));
  for (int i = 0; i < 8; ++i) refill_queue();
  OPEN_STEP(dc_control_create(device, &control_stopped));
  {
    dc_buffer b = nullptr;
    void* p = nullptr;
    OPEN_STEP(dc_control_buffer(control_stopped, &b));
    OPEN_STEP(dc_buffer_host_pointer(b, &p));
    dc_control_enter(static_cast<dc_control_block*>(p));
    dc_control_exit(static_cast<dc_control_block*>(p));
    dc_buffer_release(b);
  }
  OPEN_STEP(dc_queue_create(device, DC_QUEUE_TO_DEVICE, 64, 16, &dead_queue));
  OPEN_STEP(dc_control_create(device, &dead_control));
  OPEN_STEP(dc_pool_create(device, 0, 0, &pool));
  OPEN_STEP(dc_buffer_alloc_growable(device, 64u << 20, 1, &growable));
  OPEN_STEP(dc_event_create(device, DC_EVENT_INTERPROCESS | DC_EVENT_DISABLE_TIMING, &ipc_event));
  OPEN_STEP(dc_device_allocation_granularity(device, DC_GRANULARITY_MINIMUM, &granularity));
  OPEN_STEP(dc_vmm_reserve(device, 4 * granularity, 0, &vmm_reserved));
  OPEN_STEP(dc_vmm_create(device, granularity, &vmm_mapped));
  OPEN_STEP(dc_vmm_map(device, vmm_reserved, granularity, vmm_mapped));
  OPEN_STEP(dc_vmm_set_access(device, vmm_reserved, granularity, device, DC_VMM_ACCESS_READWRITE));
  OPEN_STEP(dc_vmm_create(device, granularity, &vmm_spare));
  OPEN_STEP(dc_vmm_reserve(device, granularity, 0, &vmm_empty));
  OPEN_STEP(dc_buffer_export_ipc(no_pool, ipc_buffer_bytes, sizeof ipc_buffer_bytes));
  OPEN_STEP(dc_event_export_ipc(ipc_event, ipc_event_bytes, sizeof ipc_event_bytes));
#if defined(__linux__)
  OPEN_STEP(dc_pool_create(device, 0, DC_POOL_EXPORTABLE, &export_pool));
  OPEN_STEP(dc_buffer_alloc_from_pool(export_pool, nullptr, 64, &export_pool_buffer));
  OPEN_STEP(dc_pool_export_fd(export_pool, &export_pool_fd));
  OPEN_STEP(dc_pool_export_ipc(export_pool, ipc_pool_bytes, sizeof ipc_pool_bytes));
  OPEN_STEP(dc_buffer_export_ipc(export_pool_buffer, ipc_pool_buffer_bytes, sizeof ipc_pool_buffer_bytes));
  // The fake imports in the exporting process; a real driver may refuse (then those cases are skipped).
  if (dc_pool_import_fd(device, export_pool_fd, &imported_pool) != DC_SUCCESS) imported_pool = nullptr;
#endif
  OPEN_STEP(dc_pool_create(device, 0, 0, &dead_pool));
  dc_pool_release(dead_pool);
  OPEN_STEP(dc_library_load(image, image_size, nullptr, &dead_library));
  // cuBLAS is optional: without it (no toolkit, the Windows run) the dc_blas cases skip.
  if (dc_blas_create(device, stream, &blas) == DC_SUCCESS) {
    OPEN_STEP(dc_blas_create(device, stream, &dead_blas));
    dc_blas_release(dead_blas);
  }
  blas_gemm_desc.m = blas_gemm_desc.n = blas_gemm_desc.k = 16;
  blas_gemm_desc.lda = blas_gemm_desc.ldb = blas_gemm_desc.ldc = 16;
  blas_gemm_desc.a_buffer = buffer;
  blas_gemm_desc.b_buffer = buffer2;
  blas_gemm_desc.c_buffer = no_pool;
  dc_library_release(dead_library);
  fft_desc.sizes[0] = 16;
  fft_desc_rank0 = fft_desc;
  fft_desc_rank0.rank = 0;
  OPEN_STEP(dc_fft_plan_create(device, &fft_desc, &fft_plan));
  OPEN_STEP(dc_fft_plan_create(device, &fft_desc, &dead_fft_plan));
  dc_fft_plan_release(dead_fft_plan);
  // NCCL is optional: without it the NCCL functions' cases are skipped.
  nccl_status = dc_comm_init_all(&ordinal0, 1, &comm);
  if (nccl_status == DC_SUCCESS) {
    OPEN_STEP(dc_nccl_unique_id(nccl_id, sizeof nccl_id));
    OPEN_STEP(dc_comm_init_all(&ordinal0, 1, &dead_comm));
    dc_comm_release(dead_comm);
  }
  dc_queue_release(dead_queue);
  dc_control_release(dead_control);
  dc_device_release(dead_device);
  dc_buffer_release(dead_buffer);
  dc_stream_release(dead_stream);
  dc_event_release(dead_event);
  dc_program_release(dead_program);
  dc_module_release(dead_module);
  dc_function_release(dead_function);
  dc_launch_release(dead_launch);
  dc_graph_release(dead_graph);
  std::memcpy(args_dead_buffer, args, sizeof args);
  args_dead_buffer[1].buffer = dead_buffer;
  launches_with_released[0] = launch;
  launches_with_released[1] = dead_launch;
  copy_ops[0] = {DC_COPY_BUFFER_TO_BUFFER, 0, buffer, 0, buffer2, 0, nullptr, kBytes / 2};
  copy_ops[1] = {DC_COPY_HOST_TO_BUFFER, 0, buffer, kBytes / 2, nullptr, 0, host, kBytes / 2};
  std::memcpy(copy_ops_dead_buffer, copy_ops, sizeof copy_ops);
  copy_ops_dead_buffer[1] = {DC_COPY_BUFFER_TO_BUFFER, 0, buffer, kBytes / 2, dead_buffer, 0, nullptr, 8};
  copy_ops_dependent[0] = copy_ops[0];
  copy_ops_dependent[1] = {DC_COPY_BUFFER_TO_HOST, 0, nullptr, 0, buffer, 8, host, 16};
  return "";
}

void Fixture::refill_queue() {
  dc_buffer b = nullptr;
  void* p = nullptr;
  if (dc_queue_buffer(queue_from_kernel, &b) != DC_SUCCESS) return;
  if (dc_buffer_host_pointer(b, &p) == DC_SUCCESS) {
    uint64_t message = 42;
    dc_ring_try_enqueue(static_cast<dc_queue_ring*>(p), &message, 8);
  }
  dc_buffer_release(b);
}

void Fixture::close() {
  if (stream) dc_stream_synchronize(stream);
  dc_graph_release(built);
  dc_buffer_release(memory_buffer);
  dc_graph_release(memory_graph);
  dc_comm_release(comm);
  dc_library_release(library);
  dc_blas_release(blas);
  dc_fft_plan_release(fft_plan);
  dc_fft_plan_cache_trim(device, 0);
  dc_control_release(control_stopped);
  dc_pool_release(pool);
  dc_buffer_release(growable);
  dc_event_release(ipc_event);
  dc_pool_release(imported_pool);
  dc_buffer_release(export_pool_buffer);
  dc_pool_release(export_pool);
  if (vmm_mapped) {
    dc_vmm_unmap(device, vmm_reserved, granularity);
    dc_vmm_release(device, vmm_mapped);
  }
  if (vmm_spare) dc_vmm_release(device, vmm_spare);
  if (vmm_reserved) dc_vmm_free(device, vmm_reserved, 4 * granularity);
  if (vmm_empty) dc_vmm_free(device, vmm_empty, granularity);
  dc_buffer_release(zeros);
  dc_queue_release(queue_from_kernel);
  dc_control_release(control);
  dc_queue_release(queue_to_host);
  dc_queue_release(queue);
  dc_graph_release(graph2);
  dc_graph_release(graph);
  dc_launch_release(launch);
  dc_function_release(function);
  dc_module_release(module);
  dc_program_release(program);
  dc_event_release(event_end);
  dc_event_release(event_start);
  dc_event_release(event);
  dc_stream_release(capture_stream);
  dc_stream_release(stream);
  dc_buffer_release(managed);
  dc_buffer_release(no_pool);
  dc_buffer_release(pinned);
  dc_buffer_release(buffer2);
  dc_buffer_release(buffer);
  dc_device_release(peer);
  dc_device_release(device);
  dctest::aligned_host_free(host_register);
  if (!module_path.empty()) std::remove(module_path.c_str());
  *this = Fixture();
}

}  // namespace badinput
