// The valid objects the bad-input matrix starts from: one live object of every
// handle type, a released handle of every type, buffers, a module with saxpy,
// a prepared launch, two captured graphs, host memory, option structs. Each
// generated case (gen_bad_inputs.py) takes the valid call and changes one
// argument. The fixture works on the fake driver and on a real GPU alike.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "dccuda.h"

namespace badinput {

constexpr uint64_t kBytes = 4096;       // every buffer's size, and the host memory's
constexpr int32_t kElements = 1024;     // floats in a buffer (saxpy's n)

// saxpy(float a, const float* x, float* y, int n) packed as the kernel's
// parameter block (C alignment rules).
struct SaxpyParams {
  float a;
  uint64_t x;
  uint64_t y;
  int32_t n;
};

struct Fixture {
  // Builds everything; returns "" or what failed (the test then fails).
  std::string open();
  // Releases everything (in reverse order).
  void close();
  // Puts one 8-byte message into queue_from_kernel, as a kernel would.
  void refill_queue();

  bool two_devices = false;  // fx.peer is another device (else a second handle to device 0)

  // Live objects.
  dc_device device = nullptr;
  dc_device peer = nullptr;
  dc_buffer buffer = nullptr;   // device memory, kBytes
  dc_buffer buffer2 = nullptr;  // device memory, kBytes
  dc_buffer pinned = nullptr;   // pinned, device-mapped, kBytes
  dc_buffer managed = nullptr;  // managed, kBytes
  dc_buffer no_pool = nullptr;  // device memory from cuMemAlloc (DC_ALLOC_NO_POOL), kBytes: stream memory operations
  dc_stream stream = nullptr;
  dc_stream capture_stream = nullptr;  // only ever captured by the cases
  dc_event event = nullptr;            // recorded by the cases
  dc_event event_start = nullptr;      // recorded and completed at open
  dc_event event_end = nullptr;
  dc_program program = nullptr;        // kKernels, CUBIN for the device, name expression scale<float>
  dc_module module = nullptr;
  dc_function function = nullptr;      // saxpy
  dc_launch launch = nullptr;          // saxpy, arguments bound
  dc_graph graph = nullptr;            // a captured saxpy launch
  dc_graph graph2 = nullptr;           // the same topology
  dc_graph built = nullptr;            // dc_graph_create: grows with the cases' nodes
  uint64_t built_node = 0;             // a fill node of built
  uint64_t built_node2 = 0;            // another, independent of built_node
  uint64_t foreign_node = 0;           // graph's node (not built's)
  uint64_t built_kernel = 0;           // a saxpy node of built
  uint64_t built_copy = 0;             // a copy node of built (buffer -> buffer2)
  uint64_t built_host = 0;             // a host node of built
  uint64_t built_conditional = 0;      // an IF node of built (one body)
  uint64_t built_condition = 0;
  dc_graph memory_graph = nullptr;     // dc_graph_create, with an alloc node never freed
  uint64_t memory_alloc = 0;           // that alloc node
  dc_buffer memory_buffer = nullptr;   // its memory (64 bytes)
  dc_queue queue = nullptr;            // DC_QUEUE_TO_DEVICE, 64-byte slots, room for every case's message
  dc_queue queue_to_host = nullptr;    // DC_QUEUE_TO_HOST, 64-byte slots, empty
  dc_queue queue_from_kernel = nullptr;// DC_QUEUE_TO_HOST, 64-byte slots, never empty (refill_queue)
  dc_control control = nullptr;        // idle
  dc_control control_stopped = nullptr;// its kernel has stopped (written as a kernel would)
  dc_pool pool = nullptr;              // a pool of the device, no limit
  dc_buffer growable = nullptr;        // dc_buffer_alloc_growable: 64 MiB reserved, 1 byte asked (one granule)
  dc_event ipc_event = nullptr;        // DC_EVENT_INTERPROCESS | DC_EVENT_DISABLE_TIMING
  uint64_t granularity = 0;            // the device's minimum allocation granularity
  uint64_t vmm_reserved = 0;           // dc_vmm_reserve: 4 granules; the first mapped (vmm_mapped), access granted
  uint64_t vmm_mapped = 0;             // dc_vmm_create: 1 granule, mapped at vmm_reserved
  uint64_t vmm_spare = 0;              // dc_vmm_create: 1 granule, never mapped
  uint64_t vmm_empty = 0;              // dc_vmm_reserve: 1 granule, nothing mapped
  uint8_t ipc_buffer_bytes[DC_IPC_HANDLE_SIZE] = {};  // no_pool, exported
  uint8_t ipc_event_bytes[DC_IPC_HANDLE_SIZE] = {};   // ipc_event, exported
  dc_pool export_pool = nullptr;       // DC_POOL_EXPORTABLE, no limit
  dc_buffer export_pool_buffer = nullptr;  // 64 bytes of export_pool
  int32_t export_pool_fd = -1;         // export_pool's descriptor (dc_pool_export_fd; the pool's own)
  dc_pool imported_pool = nullptr;     // export_pool imported in this process (null where the driver refuses)
  uint8_t ipc_pool_bytes[DC_IPC_HANDLE_SIZE] = {};         // export_pool, exported
  uint8_t ipc_pool_buffer_bytes[DC_IPC_HANDLE_SIZE] = {};  // export_pool_buffer, exported
  dc_library library = nullptr;        // program's CUBIN, loaded once
  dc_blas blas = nullptr;              // on stream, host pointer mode (the fake cuBLAS in CI)
  dc_blas_gemm_desc blas_gemm_desc = DC_BLAS_GEMM_DESC_INIT;  // 16 x 16 F32: A buffer, B buffer2, C no_pool
  dc_fft_plan fft_plan = nullptr;      // C2C single, 16 points (128 bytes each side), on the fake cuFFT
  dc_fft_desc fft_desc = DC_FFT_DESC_INIT;        // fft_plan's shape
  dc_fft_desc fft_desc_rank0 = DC_FFT_DESC_INIT;  // rank 0: refused
  dc_comm comm = nullptr;              // a one-rank NCCL communicator on device (null without NCCL)
  dc_status nccl_status = DC_SUCCESS;  // dc_comm_init_all's answer here (NOT_SUPPORTED without NCCL)
  uint8_t nccl_id[DC_NCCL_UNIQUE_ID_BYTES] = {};  // fresh_nccl_id()'s last id
  // A new unique id in nccl_id (an id serves one communicator: NCCL's
  // bootstrap for it ends once its ranks have joined).
  const uint8_t* fresh_nccl_id() {
    dc_nccl_unique_id(nccl_id, sizeof nccl_id);
    return nccl_id;
  }
  int32_t ordinal0 = 0;                // device's ordinal, for dc_comm_init_all
  int32_t ordinal_missing = 99;        // an ordinal no driver here has

  // Released handles of every type (never reused: see the handle table).
  dc_device dead_device = nullptr;
  dc_buffer dead_buffer = nullptr;
  dc_stream dead_stream = nullptr;
  dc_event dead_event = nullptr;
  dc_program dead_program = nullptr;
  dc_module dead_module = nullptr;
  dc_function dead_function = nullptr;
  dc_launch dead_launch = nullptr;
  dc_graph dead_graph = nullptr;
  dc_queue dead_queue = nullptr;
  dc_control dead_control = nullptr;
  dc_pool dead_pool = nullptr;
  dc_library dead_library = nullptr;
  dc_blas dead_blas = nullptr;
  dc_fft_plan dead_fft_plan = nullptr;
  dc_comm dead_comm = nullptr;

  // Values for the other arguments.
  std::vector<uint8_t> host_memory = std::vector<uint8_t>(kBytes, 0);
  void* host = nullptr;                 // host_memory.data(): kBytes of host memory
  void* host_register = nullptr;        // kBytes, page aligned, for dc_buffer_register_host
  uint64_t buffer_address = 0;          // buffer's device pointer
  void* cu_stream = nullptr;            // stream's CUstream
  const void* image = nullptr;          // program's CUBIN
  uint64_t image_size = 0;
  std::string module_path;              // the CUBIN in a file
  uint32_t function_count = 0;          // kernels in module (and in library)
  int32_t device_arch = 0;              // 10 * major + minor
  const char* source = nullptr;         // kKernels
  float alpha = 2.0f;
  int32_t n = kElements;
  dc_arg args[4] = {};                  // saxpy's arguments
  dc_stream_mem_op mem_ops[1] = {};     // a 32-bit write to buffer's first word
  int32_t archs[64] = {};               // dc_nvrtc_supported_archs's array
  dc_link_input link_inputs[1] = {};    // program (a complete CUBIN links alone)
  dc_link_input link_inputs_bad_kind[1] = {};      // kind 8
  dc_link_input link_inputs_missing_file[1] = {};  // a CUBIN at /nonexistent/kernels.cubin
  dc_link_options link_options = DC_LINK_OPTIONS_INIT;  // the cache off: every call links
  dc_status nvjitlink_status = DC_SUCCESS;  // dc_nvjitlink_version's answer here (NOT_SUPPORTED without it)
  dc_buffer zeros = nullptr;            // pinned, device-mapped, 64 bytes of 0 that nothing writes
                                        // (stream waits GEQ 0, and GEQ UINT*_MAX, are satisfied at once)
  dc_arg args_bad_kind[4] = {};         // args[0].kind is 7
  dc_arg args_bad_size[4] = {};         // args[3] (int n) passed as 8 bytes
  dc_arg args_bad_offset[4] = {};       // args[2].offset is the buffer's size
  dc_arg args_dead_buffer[4] = {};      // args[1] is a released buffer
  dc_launch launches_with_released[2] = {};  // launch, then a released launch
  dc_copy_op copy_ops[2] = {};          // buffer2 -> buffer, and host -> buffer's second half
  dc_copy_op copy_ops_dead_buffer[2] = {};  // copy_ops with ops[1] from a released buffer
  dc_copy_op copy_ops_dependent[2] = {};    // ops[1] reads what ops[0] writes
  SaxpyParams packed = {};
  dc_launch_config config = DC_LAUNCH_CONFIG_INIT;          // 4 x 256
  dc_launch_config config_grid0 = DC_LAUNCH_CONFIG_INIT;    // grid[0] = 0
  dc_launch_config config_block_big = DC_LAUNCH_CONFIG_INIT;// block[0] = 4096
  dc_launch_config config_bad_flags = DC_LAUNCH_CONFIG_INIT;// flags 0x80
  dc_launch_config cluster_config = DC_LAUNCH_CONFIG_INIT;  // 4 x 128, clusters of 2
  dc_module_options module_options = DC_MODULE_OPTIONS_INIT;
  dc_module_options module_options_reserved = DC_MODULE_OPTIONS_INIT;  // reserved = 1
  dc_compile_options compile_options = DC_COMPILE_OPTIONS_INIT;        // CUBIN for device_arch
  dc_compile_options compile_options_bad_output = DC_COMPILE_OPTIONS_INIT;  // output 9
  dc_init_options init_options = DC_INIT_OPTIONS_INIT;
  dc_init_options init_options_bad_flags = DC_INIT_OPTIONS_INIT;       // flags 0x80
  const char* name_expressions[1] = {"scale<float>"};
};

// A host function and an occupancy callback that do nothing.
void noop_host_fn(void* user_data);
// A log callback that does nothing (dc_set_log_callback's valid call).
void noop_log_fn(void* user_data, int32_t level, const char* category, const char* message);
// A live-handle visitor that does nothing (dc_handle_visit's valid call).
void noop_handle_fn(void* user_data, const dc_handle_info* info);
uint64_t no_shared_memory(int32_t block_size, void* user_data);
// A host function that does nothing (dc_graph_add_host_node).
void no_op(void* user_data);

}  // namespace badinput
