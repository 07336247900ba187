// CUDA C++ sources of the launch and graph tests. The fake driver emulates
// these kernels by name (tests/fake_driver/fake_kernels.h documents the
// registry); on a GPU they are compiled by NVRTC and run for real, and the
// tests check both against the same CPU references.
#pragma once

namespace dctest {

// Kernels that compile for every architecture dccuda supports.
inline const char* kLaunchKernels = R"(
extern "C" __global__ void vector_add(const float* a, const float* b, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

extern "C" __global__ void fill_u32(unsigned* p, unsigned value, unsigned long long n) {
  unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = value;
}

// 1-D blocks of at most 1024 threads.
extern "C" __global__ void reduce_sum(const float* in, float* out, unsigned n) {
  __shared__ float partial[1024];
  float s = 0.0f;
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) s += in[i];
  partial[threadIdx.x] = s;
  __syncthreads();
  for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
    if (threadIdx.x % (2 * stride) == 0 && threadIdx.x + stride < blockDim.x)
      partial[threadIdx.x] += partial[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(out, partial[0]);
}

extern "C" __global__ void grid3d_index(unsigned* out, unsigned nx, unsigned ny, unsigned nz) {
  unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
  unsigned z = blockIdx.z * blockDim.z + threadIdx.z;
  if (x < nx && y < ny && z < nz) out[(z * ny + y) * nx + x] = x + 1000u * y + 1000000u * z;
}

// A grid-wide barrier for a cooperative launch, where every block is resident
// at once: block leaders count in on *counter (0 before the launch, the block
// count after it) and wait until all have.
__device__ void grid_barrier(unsigned* counter) {
  __syncthreads();
  if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0) {
    unsigned blocks = gridDim.x * gridDim.y * gridDim.z;
    __threadfence();
    atomicAdd(counter, 1u);
    while (*(volatile unsigned*)counter < blocks) {
    }
    __threadfence();
  }
  __syncthreads();
}

// 1-D: tmp = 2 * in everywhere, then (after the barrier) out[i] = tmp[n - 1 - i],
// values that other blocks wrote.
extern "C" __global__ void grid_sync_reverse(const int* in, int* tmp, int* out, unsigned n, unsigned* counter) {
  unsigned threads = gridDim.x * blockDim.x;
  unsigned rank = blockIdx.x * blockDim.x + threadIdx.x;
  for (unsigned i = rank; i < n; i += threads) tmp[i] = in[i] * 2;
  grid_barrier(counter);
  for (unsigned i = rank; i < n; i += threads) out[i] = tmp[n - 1 - i];
}

// At most 128 threads per block: a larger block is refused by the driver.
extern "C" __global__ void __launch_bounds__(128) bounded(float* p) {
  if (p) p[blockIdx.x * blockDim.x + threadIdx.x] = 1.0f;
}
)";

// Thread-block clusters (compute capability 9.0+).
inline const char* kClusterKernel = R"(
extern "C" __global__ void cluster_rank(unsigned* out) {
  unsigned rank, size;
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
  asm volatile("mov.u32 %0, %%cluster_nctarank;" : "=r"(size));
  if (threadIdx.x == 0) out[blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z)] = rank + 1000u * size;
}
)";

// cooperative_groups' grid sync (needs the toolkit's headers at compile time).
inline const char* kCooperativeGroupsKernel = R"(
#include <cooperative_groups.h>
extern "C" __global__ void cg_grid_sync_reverse(const int* in, int* tmp, int* out, unsigned n) {
  cooperative_groups::grid_group grid = cooperative_groups::this_grid();
  for (unsigned long long i = grid.thread_rank(); i < n; i += grid.size()) tmp[i] = in[i] * 2;
  grid.sync();
  for (unsigned long long i = grid.thread_rank(); i < n; i += grid.size()) out[i] = tmp[n - 1 - i];
}
)";

// Kernels that break the context: an access far outside any allocation, and a trap.
inline const char* kFaultKernels = R"(
extern "C" __global__ void write_out_of_bounds(int* p, unsigned long long index) {
  if (blockIdx.x == 0 && threadIdx.x == 0) p[index] = 1;
}
extern "C" __global__ void trap() { asm volatile("trap;"); }
)";

}  // namespace dctest
