// The kernel bench_compile and bench_cache_pieces compile and cache: a
// typical small kernel (the size NVRTC users compile at run time), one source
// so that both measure an entry of the same size.
#pragma once

namespace dcbench {

inline const char* const kCompileSource = R"(
template <typename T>
__device__ T clamp01(T v) { return v < T(0) ? T(0) : (v > T(1) ? T(1) : v); }

extern "C" __global__ void saxpy(float a, const float* __restrict__ x, float* __restrict__ y, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    y[i] = clamp01(a * x[i] + y[i]);
}

extern "C" __global__ void reduce_sum(const float* __restrict__ in, float* out, int n) {
  __shared__ float partial[256];
  float s = 0.f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) s += in[i];
  partial[threadIdx.x] = s;
  __syncthreads();
  for (int step = blockDim.x / 2; step > 0; step /= 2) {
    if (threadIdx.x < step) partial[threadIdx.x] += partial[threadIdx.x + step];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(out, partial[0]);
}
)";

}  // namespace dcbench
