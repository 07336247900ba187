// Probe (GPU machine only): the CPU cost of the pieces a dc_ hot-path call is
// made of, against the raw driver, to see where dccuda's overhead goes.
// Build: g++ -O2 -std=c++17 costs.cpp -I<repo>/include -I<cuda>/include -L<lib> -ldccuda -ldl
#include <cuda.h>
#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

#include "dccuda.h"

using Clock = std::chrono::steady_clock;

template <class F>
double ns_per_call(F&& f, int n = 200000) {
  for (int i = 0; i < 1000; ++i) f();
  std::vector<double> runs;
  for (int r = 0; r < 7; ++r) {
    auto t0 = Clock::now();
    for (int i = 0; i < n; ++i) f();
    runs.push_back(std::chrono::duration<double, std::nano>(Clock::now() - t0).count() / n);
  }
  std::sort(runs.begin(), runs.end());
  return runs[3];
}

int main() {
  dc_device dev = nullptr;
  if (dc_device_open(0, &dev) != DC_SUCCESS) {
    std::printf("%s\n", dc_last_error_message());
    return 1;
  }
  void* lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
  auto get_current = reinterpret_cast<CUresult (*)(CUcontext*)>(dlsym(lib, "cuCtxGetCurrent"));
  auto set_current = reinterpret_cast<CUresult (*)(CUcontext)>(dlsym(lib, "cuCtxSetCurrent"));
  auto ptr_attr = reinterpret_cast<CUresult (*)(void*, CUpointer_attribute, CUdeviceptr)>(dlsym(lib, "cuPointerGetAttribute"));
  auto stream_sync = reinterpret_cast<CUresult (*)(CUstream)>(dlsym(lib, "cuStreamSynchronize"));
  auto stream_query = reinterpret_cast<CUresult (*)(CUstream)>(dlsym(lib, "cuStreamQuery"));
  void* ctx = nullptr;
  dc_device_native(dev, nullptr, &ctx);
  set_current(static_cast<CUcontext>(ctx));
  dc_buffer buf = nullptr, pinned = nullptr;
  dc_buffer_alloc(dev, 4096, 0, &buf);
  dc_buffer_alloc_pinned(dev, 4096, 0, &pinned);
  void* host = nullptr;
  dc_buffer_host_pointer(pinned, &host);
  static char pageable[4096];
  dc_stream stream = nullptr;
  dc_stream_create(dev, 0, 0, &stream);
  void* cu_stream = nullptr;
  dc_stream_native(stream, &cu_stream);
  uint64_t size = 0;
  CUcontext c = nullptr;
  unsigned type = 0;

  std::printf("cuCtxGetCurrent                     %7.1f ns\n", ns_per_call([&] { get_current(&c); }));
  std::printf("cuCtxSetCurrent (same context)      %7.1f ns\n", ns_per_call([&] { set_current(static_cast<CUcontext>(ctx)); }));
  std::printf("cuPointerGetAttribute (pinned)      %7.1f ns\n",
              ns_per_call([&] { ptr_attr(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, reinterpret_cast<CUdeviceptr>(host)); }));
  std::printf("cuPointerGetAttribute (pageable)    %7.1f ns\n",
              ns_per_call([&] { ptr_attr(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, reinterpret_cast<CUdeviceptr>(pageable)); }));
  std::printf("cuStreamSynchronize(legacy), idle   %7.1f ns\n", ns_per_call([&] { stream_sync(CU_STREAM_LEGACY); }, 20000));
  std::printf("cuStreamQuery(stream), idle         %7.1f ns\n",
              ns_per_call([&] { stream_query(static_cast<CUstream>(cu_stream)); }));
  std::printf("dc_buffer_size (guard+pin+unpin)    %7.1f ns\n", ns_per_call([&] { dc_buffer_size(buf, &size); }));
  std::printf("dc_stream_query                     %7.1f ns\n", ns_per_call([&] { dc_stream_query(stream); }));
  std::printf("dc_version                          %7.1f ns\n", ns_per_call([&] { dc_version(); }));
  dc_stream_release(stream);
  dc_buffer_release(buf);
  dc_buffer_release(pinned);
  dc_device_release(dev);
  return 0;
}
