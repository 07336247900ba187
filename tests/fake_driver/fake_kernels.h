// Kernel emulation in the fake driver (a test double, never a GPU).
//
// The fake generates no code, but a small registry of known kernels runs on
// host memory, by name, so that tests and binding samples can check results
// in CI. Each emulator follows the CUDA source below thread by thread, over
// the whole grid, honouring gridDim, blockDim, blockIdx and threadIdx as the
// GPU does (a saxpy over n elements covers them whatever the grid, guarded by
// i < n). Every load and store is checked: an access outside every live
// allocation (device, pinned, registered, managed memory, module globals)
// "faults on the device": the context breaks with CUDA_ERROR_ILLEGAL_ADDRESS,
// reported by the next call, as a GPU reports it at the next synchronisation.
// A kernel that is not in the registry runs as a no-op.
//
// The registry (extern "C" names unless mangled; the sources are in
// tests/launch/launch_kernels.h and tests/compile/kernel_sources.h):
//
//   saxpy(float a, const float* x, float* y, int n)
//       i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) y[i] = a * x[i] + y[i]
//   vector_add(const float* a, const float* b, float* c, int n)
//       i as above; if (i < n) c[i] = a[i] + b[i]
//   fill_u32(unsigned* p, unsigned value, unsigned long long n)
//       i as above (64-bit); if (i < n) p[i] = value
//   reduce_sum(const float* in, float* out, unsigned n)            1-D blocks of <= 1024 threads
//       each thread sums in[] over a grid-stride loop, the block adds the
//       partial sums in a shared-memory tree (stride 1, 2, 4...), thread 0
//       adds the block's sum to *out (atomicAdd; blocks in order here)
//   scale<float> = _Z5scaleIfEvPT_S0_i, scale<double> = _Z5scaleIdEvPT_S0_i
//       scale(T* p, T factor, int n): i as above; if (i < n) p[i] *= factor
//   grid_sync_reverse(const int* in, int* tmp, int* out, unsigned n, unsigned* counter)
//       1-D cooperative kernel: grid-stride tmp[i] = 2 * in[i]; a grid-wide
//       barrier on *counter (each block adds 1: it ends at the block count);
//       grid-stride out[i] = tmp[n - 1 - i]
//   cg_grid_sync_reverse(const int* in, int* tmp, int* out, unsigned n)
//       the same with cooperative_groups::this_grid().sync()
//   cluster_rank(unsigned* out)
//       thread 0 of each block writes out[linear block index] =
//       %cluster_ctarank + 1000 * %cluster_nctarank (rank x-fastest inside the
//       cluster; a launch without clusters is a cluster of one block)
//   grid3d_index(unsigned* out, unsigned nx, unsigned ny, unsigned nz)
//       x, y, z from all three dimensions; if inside, out[(z * ny + y) * nx + x]
//       = x + 1000 * y + 1000000 * z
//   mixed(char c, S s, short h, double d, F4 v, int* out)
//       if (out) out[0] = c + s.b + s.c[4] + h + (int)d + (int)v.w + answer +
//       (int)table[3], `answer` and `table` being the module's globals
//   write_out_of_bounds(int* p, unsigned long long index)
//       block 0, thread 0 writes p[index] = 1: with an index past the
//       allocation, CUDA_ERROR_ILLEGAL_ADDRESS (on a GPU too, for a far index)
//   heap_probe(unsigned long long bytes, int* ok)
//       block 0, thread 0: p = malloc(bytes); ok[0] = p != NULL; free(p), the
//       heap being the context's CU_LIMIT_MALLOC_HEAP_SIZE (a request of at
//       least the whole heap fails); a kernel that used malloc fixes the heap
//       size of its context (cuCtxSetLimit refuses a change, as a GPU does)
//   trap()
//       asm("trap;"): breaks the context with CUDA_ERROR_LAUNCH_FAILED
//   halve_until(float* x, float limit, unsigned long long condition)
//       one thread: x[0] *= 0.5f; cudaGraphSetConditional(condition,
//       x[0] > limit) (dccuda_device_graph.h's dc_graph_set_condition)
//   echo_once(const unsigned char* in, unsigned char* out, unsigned n)
//       thread 0 copies n bytes, adding 1 to each byte after the 8th (bench_queue)
//   empty(), and anything else: no-op
//
// Resident kernels: each runs on a thread of its own until the memory it
// polls tells it to end, as a persistent kernel on a GPU (fake_memory.h:
// ResidentRun; synchronisations wait for it, queries answer not ready):
//   spin_until(const unsigned* flag)
//       thread 0 of block 0 polls *flag until it is nonzero
//   dc_echo(dc_queue_ring* in, dc_queue_ring* out, dc_control_block* control)
//       the echo actor of tests/queue/echo_kernel.cuh (the same code,
//       compiled for the host), until its control block asks it to stop
//   dc_relay_source / dc_relay_echo(dc_queue_ring*, dc_queue_ring*,
//       dc_control_block*, unsigned long long count, unsigned max)
//       the two sides of echo_kernel.cuh's relay between kernels, until
//       `count` messages went through (or nothing moved for a long time)
#pragma once

#include "loader/cuda_abi/driver_abi.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "fake_image.h"

namespace fake {

// One launch, with its parameters copied at launch time (as the driver does).
struct KernelRun {
  std::string name;
  const void* module = nullptr;     // for module globals (fake_module.h: module_global)
  std::vector<ImageParam> params;   // the layout
  std::vector<uint8_t> args;        // the packed parameter block
  unsigned grid[3] = {1, 1, 1};
  unsigned block[3] = {1, 1, 1};
  unsigned cluster[3] = {1, 1, 1};  // 1, 1, 1 without clusters
  unsigned shared = 0;
  bool cooperative = false;
};

// Runs `run` if its kernel is in the registry; returns CUDA_SUCCESS or the
// fault it caused on the "device". Callers hold fake::lock().
CUresult emulate_kernel(const KernelRun& run);

// Whether `name` is in the registry.
bool kernel_is_emulated(const std::string& name);

// Whether `name` is a resident kernel (above); its body, to run on a thread
// of its own, with the arguments read from `run` (empty when the memory they
// name is not live: the launch then faults).
bool kernel_is_resident(const std::string& name);
std::function<void()> resident_body(const KernelRun& run);

}  // namespace fake
