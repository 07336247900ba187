// Kernels built ahead of time by nvcc into a CUBIN and a fatbin, committed in
// fixtures/ (fixtures/make_fixtures.sh has the commands), for the tests of
// precompiled images. The same kernels as tests/compile/kernel_sources.h
// (kKernels).
struct S {
  double a;
  int b;
  char c[5];
};
struct alignas(16) F4 {
  float x, y, z, w;
};

__device__ int answer = 42;
__constant__ float table[16];

extern "C" __global__ void saxpy(float a, const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

extern "C" __global__ void mixed(char c, S s, short h, double d, F4 v, int* out) {
  if (out) out[0] = c + s.b + s.c[4] + h + (int)d + (int)v.w + answer + (int)table[3];
}

extern "C" __global__ void empty() {}

extern "C" __global__ void tiled(float* data) {
  __shared__ float tile[256];
  tile[threadIdx.x] = data[threadIdx.x];
  __syncthreads();
  data[threadIdx.x] = tile[255 - threadIdx.x];
}
