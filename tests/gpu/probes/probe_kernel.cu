// The kernel capture_invalidation loads as a CUBIN (PROBE_IMAGE):
//   nvcc -cubin -arch=sm_90 -o probe_kernel.cubin probe_kernel.cu
extern "C" __global__ void k(unsigned* p) { p[threadIdx.x] = 1; }
