// Probe (raw driver API, no dccuda): which calls on another thread invalidate
// a DC_CAPTURE_THREAD_LOCAL-style capture (CU_STREAM_CAPTURE_MODE_THREAD_LOCAL
// on a non-blocking stream)? Thread A captures a memset over and over; thread
// B does one kind of work meanwhile. Prints how many captures were
// invalidated. Run natively and under compute-sanitizer to compare.
//   capture_invalidation <none|alloc|pinned|module|getfn|ctxsync|pool|legacy|event> [seconds] [memset|kernel] [threads]
// (what thread A captures: a memset, the default, or a launch of a kernel, then
// instantiated, launched and waited for; threads: how many A and how many B
// threads, default 1 of each). PROBE_IMAGE=<file> loads that module image
// (a CUBIN with a kernel `k(unsigned*)`, say) instead of the built-in PTX.
// Build: nvcc -O2 -std=c++17 -o capture_invalidation capture_invalidation.cpp -lcuda -L/usr/local/cuda/lib64/stubs
#include <cuda.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

#define CHECK(x)                                                         \
  do {                                                                   \
    CUresult r_ = (x);                                                   \
    if (r_ != CUDA_SUCCESS) {                                            \
      const char* n_ = nullptr;                                          \
      cuGetErrorName(r_, &n_);                                           \
      std::fprintf(stderr, "%s:%d %s -> %s\n", __FILE__, __LINE__, #x, n_); \
      std::exit(1);                                                      \
    }                                                                    \
  } while (0)

// A kernel with a store, so that compute-sanitizer instruments the module.
static const char kPtx[] =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry k(.param .u64 p)\n{\n .reg .b64 %rd<3>;\n .reg .b32 %r<2>;\n"
    " ld.param.u64 %rd1, [p];\n cvta.to.global.u64 %rd2, %rd1;\n mov.u32 %r1, 1;\n"
    " st.global.u32 [%rd2], %r1;\n ret;\n}\n";

// The module image: PROBE_IMAGE's file if set, else the PTX above.
static std::string module_image() {
  const char* path = std::getenv("PROBE_IMAGE");
  if (!path || !*path) return kPtx;
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "cannot read PROBE_IMAGE=%s\n", path);
    std::exit(1);
  }
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

int main(int argc, char** argv) {
  const std::string image = module_image();
  const char* kind = argc > 1 ? argv[1] : "none";
  double seconds = argc > 2 ? std::atof(argv[2]) : 2.0;
  CHECK(cuInit(0));
  CUdevice dev;
  CHECK(cuDeviceGet(&dev, 0));
  CUcontext ctx;
  CHECK(cuDevicePrimaryCtxRetain(&ctx, dev));
  CHECK(cuCtxSetCurrent(ctx));
  CUdeviceptr buf;
  CHECK(cuMemAlloc(&buf, 1 << 20));
  std::atomic<bool> stop{false};
  std::atomic<long> other_ops{0}, other_fail{0};
  CUmemoryPool pool;
  CHECK(cuDeviceGetDefaultMemPool(&pool, dev));
  const int threads = argc > 4 ? std::atoi(argv[4]) : 1;
  auto other_work = [&] {
    CHECK(cuCtxSetCurrent(ctx));
    CUstream os;
    CHECK(cuStreamCreate(&os, CU_STREAM_NON_BLOCKING));
    CUevent ev;
    CHECK(cuEventCreate(&ev, CU_EVENT_DISABLE_TIMING));
    static char host[4096];
    while (!stop.load()) {
      CUresult r = CUDA_SUCCESS;
      if (!std::strcmp(kind, "alloc")) {
        CUdeviceptr p;
        r = cuMemAlloc(&p, 1 << 20);
        if (r == CUDA_SUCCESS) r = cuMemFree(p);
      } else if (!std::strcmp(kind, "pinned")) {
        void* h;
        r = cuMemHostAlloc(&h, 1 << 20, 0);
        if (r == CUDA_SUCCESS) r = cuMemFreeHost(h);
      } else if (!std::strcmp(kind, "module")) {
        CUmodule m;
        r = cuModuleLoadData(&m, image.data());
        if (r == CUDA_SUCCESS) r = cuModuleUnload(m);
      } else if (!std::strcmp(kind, "getfn")) {  // load, get the kernel (a lazy load), unload
        CUmodule m;
        CUfunction f;
        r = cuModuleLoadData(&m, image.data());
        if (r == CUDA_SUCCESS) {
          r = cuModuleGetFunction(&f, m, "k");
          CUresult u = cuModuleUnload(m);
          if (r == CUDA_SUCCESS) r = u;
        }
      } else if (!std::strcmp(kind, "pool")) {  // stream-ordered, on another stream
        CUdeviceptr p;
        r = cuMemAllocFromPoolAsync(&p, 1 << 20, pool, os);
        if (r == CUDA_SUCCESS) r = cuMemFreeAsync(p, os);
        if (r == CUDA_SUCCESS) r = cuStreamSynchronize(os);
      } else if (!std::strcmp(kind, "legacy")) {  // a synchronous copy (legacy stream)
        r = cuMemcpyHtoD(buf, host, sizeof host);
      } else if (!std::strcmp(kind, "event")) {
        r = cuEventRecord(ev, os);
        if (r == CUDA_SUCCESS) r = cuEventSynchronize(ev);
      } else if (!std::strcmp(kind, "ctxsync")) {
        r = cuCtxSynchronize();
      } else {
        std::this_thread::yield();
      }
      ++other_ops;
      if (r != CUDA_SUCCESS) ++other_fail;
    }
    cuEventDestroy(ev);
    cuStreamDestroy(os);
  };
  std::vector<std::thread> others;
  for (int i = 0; i < threads; ++i) others.emplace_back(other_work);
  bool capture_kernel = argc > 3 && !std::strcmp(argv[3], "kernel");
  CUmodule own;
  CUfunction k;
  CHECK(cuModuleLoadData(&own, image.data()));
  CHECK(cuModuleGetFunction(&k, own, "k"));
  std::atomic<long> captures{0}, invalidated{0};
  auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  auto capture_work = [&] {
    CHECK(cuCtxSetCurrent(ctx));
    void* params[] = {&buf};
    CUstream s;
    CHECK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    while (std::chrono::steady_clock::now() < end) {
      CHECK(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_THREAD_LOCAL));
      CUresult m = capture_kernel ? cuLaunchKernel(k, 1, 1, 1, 1, 1, 1, 0, s, params, nullptr)
                                  : cuMemsetD32Async(buf, 7, 1024, s);
      CUgraph g = nullptr;
      CUresult r = cuStreamEndCapture(s, &g);
      ++captures;
      if (m != CUDA_SUCCESS || r != CUDA_SUCCESS) {
        const char* name = nullptr;
        cuGetErrorName(m != CUDA_SUCCESS ? m : r, &name);
        if (++invalidated <= 3) std::fprintf(stderr, "capture failed: %s\n", name ? name : "?");
      }
      if (g && capture_kernel) {  // replayed, as test_stress does
        CUgraphExec e;
        CHECK(cuGraphInstantiate(&e, g, 0));
        CHECK(cuGraphLaunch(e, s));
        CHECK(cuStreamSynchronize(s));
        CHECK(cuGraphExecDestroy(e));
      }
      if (g) cuGraphDestroy(g);
    }
    CHECK(cuStreamDestroy(s));
  };
  std::vector<std::thread> capturers;
  for (int i = 0; i < threads; ++i) capturers.emplace_back(capture_work);
  for (std::thread& t : capturers) t.join();
  stop = true;
  for (std::thread& t : others) t.join();
  std::printf("%d other thread(s): %-8s %7ld ops (%ld failed); %d thread(s) capturing a %s: %ld captures, "
              "invalidated: %ld\n", threads, kind, other_ops.load(), other_fail.load(), threads,
              capture_kernel ? "kernel" : "memset", captures.load(), invalidated.load());
  cuModuleUnload(own);
  cuMemFree(buf);
  cuDevicePrimaryCtxRelease(dev);
  return 0;
}
