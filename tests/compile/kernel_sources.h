// CUDA C++ sources the compile and module tests share, and host-side mirrors
// of the parameter types, so that expected parameter layouts come from the C
// ABI (sizeof / alignof), the rule the driver follows, not from numbers typed
// into the tests.
#pragma once

#include <cstddef>
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace dctest {

// Types shared between the device source and the host (same layout on both).
#define DCTEST_SHARED_TYPES                 \
  struct S {                                \
    double a;                               \
    int b;                                  \
    char c[5];                              \
  };                                        \
  struct alignas(16) F4 {                   \
    float x, y, z, w;                       \
  };
DCTEST_SHARED_TYPES

#define DCTEST_STR2(...) #__VA_ARGS__
#define DCTEST_STR(...) DCTEST_STR2(__VA_ARGS__)

// Kernels: saxpy, mixed (a parameter of every alignment), empty, tiled
// (static shared memory), a template, and two module globals.
inline const char* kKernels = DCTEST_STR(DCTEST_SHARED_TYPES) R"(
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

template <typename T>
__global__ void scale(T* p, T factor, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] *= factor;
}
)";

// The kernels kKernels defines with C names.
inline const std::vector<std::string> kKernelNames = {"saxpy", "mixed", "empty", "tiled"};

struct ExpectedParam {
  uint64_t offset;
  uint64_t size;
  friend bool operator==(const ExpectedParam&, const ExpectedParam&) = default;
  friend std::ostream& operator<<(std::ostream& os, const ExpectedParam& p) {
    return os << "{offset " << p.offset << ", size " << p.size << "}";
  }
};

// The C ABI layout of a parameter list: each parameter at the next multiple
// of its alignment.
template <class... T>
std::vector<ExpectedParam> c_abi_layout() {
  std::vector<ExpectedParam> out;
  uint64_t cursor = 0;
  auto add = [&](size_t size, size_t align) {
    uint64_t offset = (cursor + align - 1) / align * align;
    out.push_back({offset, size});
    cursor = offset + size;
  };
  (add(sizeof(T), alignof(T)), ...);
  return out;
}

inline std::vector<ExpectedParam> saxpy_layout() { return c_abi_layout<float, const float*, float*, int>(); }
inline std::vector<ExpectedParam> mixed_layout() { return c_abi_layout<char, S, short, double, F4, int*>(); }

// A source with a unique comment, so that it misses every cache.
std::string unique_source(const std::string& base);

// The path of `name` in the directory of the running test executable (where
// the build puts the precompiled kernels).
std::string next_to_executable(const char* name);

}  // namespace dctest
