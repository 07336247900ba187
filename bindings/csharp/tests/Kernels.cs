// The CUDA source the tests compile (through NVRTC on a GPU; the fake driver emulates the
// kernels by name).
namespace Dccuda.Tests
{
    internal static class Kernels
    {
        /// <summary>saxpy as the library's own tests write it (the fake driver emulates it by
        /// name), a module global and a template for name expressions.</summary>
        public const string Source = @"
__device__ int answer = 42;

extern ""C"" __global__ void saxpy(float a, const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

template <typename T>
__global__ void scale(T* p, T factor, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] *= factor;
}
";
    }
}
