// Probe (GPU machine only): which sequence of driver calls brings a device
// back after a kernel fault (CUDA_ERROR_ILLEGAL_ADDRESS), within one process.
// Each variant runs in a child process of its own and prints what each call
// returned. Build: g++ -std=c++17 recovery.cpp -I<cuda>/include -L<cuda>/lib64/stubs -lcuda
#include <cuda.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>

static const char* kPtx = R"(
.version 8.0
.target sm_90
.address_size 64
.visible .entry bad() {
  .reg .b64 %rd<2>;
  .reg .b32 %r<2>;
  mov.u64 %rd1, 16;
  mov.u32 %r1, 1;
  st.global.u32 [%rd1], %r1;
  ret;
}
.visible .entry good(.param .u64 p) {
  .reg .b64 %rd<2>;
  .reg .b32 %r<2>;
  ld.param.u64 %rd1, [p];
  mov.u32 %r1, 42;
  st.global.u32 [%rd1], %r1;
  ret;
}
)";

#define SHOW(call)                                            \
  [&] {                                                       \
    CUresult r_ = (call);                                     \
    const char* n_ = "?";                                     \
    cuGetErrorName(r_, &n_);                                  \
    std::printf("  %-60s -> %s\n", #call, n_);               \
    return r_;                                                \
  }()

static bool fault(CUdevice dev, CUcontext* ctx) {
  SHOW(cuDevicePrimaryCtxRetain(ctx, dev));
  SHOW(cuCtxSetCurrent(*ctx));
  CUmodule m;
  CUfunction f;
  SHOW(cuModuleLoadData(&m, kPtx));
  SHOW(cuModuleGetFunction(&f, m, "bad"));
  SHOW(cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, nullptr, nullptr, nullptr));
  return SHOW(cuCtxSynchronize()) == CUDA_ERROR_ILLEGAL_ADDRESS;
}

static bool works(CUcontext ctx) {
  SHOW(cuCtxSetCurrent(ctx));
  CUmodule m;
  CUfunction f;
  CUdeviceptr p = 0;
  if (SHOW(cuMemAlloc(&p, 4))) return false;
  if (SHOW(cuModuleLoadData(&m, kPtx))) return false;
  SHOW(cuModuleGetFunction(&f, m, "good"));
  void* args[] = {&p};
  SHOW(cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, nullptr, args, nullptr));
  if (SHOW(cuCtxSynchronize())) return false;
  unsigned v = 0;
  SHOW(cuMemcpyDtoH(&v, p, 4));
  return v == 42;
}

static void variant(const char* name, int which) {
  std::printf("== %s\n", name);
  std::fflush(stdout);
  pid_t pid = fork();
  if (pid == 0) {
    cuInit(0);
    CUdevice dev;
    cuDeviceGet(&dev, 0);
    CUcontext ctx = nullptr;
    if (!fault(dev, &ctx)) {
      std::printf("  (no fault?)\n");
      _exit(2);
    }
    CUcontext fresh = nullptr;
    switch (which) {
      case 0:  // release, reset, retain (what dccuda did)
        SHOW(cuDevicePrimaryCtxRelease(dev));
        SHOW(cuDevicePrimaryCtxReset(dev));
        SHOW(cuDevicePrimaryCtxRetain(&fresh, dev));
        break;
      case 1:  // unbind first, then release, reset, retain
        SHOW(cuCtxSetCurrent(nullptr));
        SHOW(cuDevicePrimaryCtxRelease(dev));
        SHOW(cuDevicePrimaryCtxReset(dev));
        SHOW(cuDevicePrimaryCtxRetain(&fresh, dev));
        break;
      case 2:  // unbind, reset (keeping the retain), retain again
        SHOW(cuCtxSetCurrent(nullptr));
        SHOW(cuDevicePrimaryCtxReset(dev));
        SHOW(cuDevicePrimaryCtxRetain(&fresh, dev));
        break;
      case 3:  // unbind, release down to zero, retain
        SHOW(cuCtxSetCurrent(nullptr));
        SHOW(cuDevicePrimaryCtxRelease(dev));
        SHOW(cuDevicePrimaryCtxRetain(&fresh, dev));
        break;
      case 4:  // a new, non-primary context
        SHOW(cuCtxSetCurrent(nullptr));
        SHOW(cuCtxCreate(&fresh, nullptr, 0, dev));
        break;
      case 5:  // destroy-style: release + reset without unbinding, then unbind and retain
        SHOW(cuDevicePrimaryCtxReset(dev));
        SHOW(cuCtxSetCurrent(nullptr));
        SHOW(cuDevicePrimaryCtxRetain(&fresh, dev));
        break;
    }
    bool ok = fresh && works(fresh);
    std::printf("  => %s\n", ok ? "RECOVERED" : "not recovered");
    _exit(ok ? 0 : 1);
  }
  int status = 0;
  waitpid(pid, &status, 0);
}

int main() {
  std::setvbuf(stdout, nullptr, _IONBF, 0);  // children end with _exit
  variant("release, reset, retain", 0);
  variant("unbind, release, reset, retain", 1);
  variant("unbind, reset, retain", 2);
  variant("unbind, release, retain", 3);
  variant("unbind, new context", 4);
  variant("reset, unbind, retain", 5);
  return 0;
}
