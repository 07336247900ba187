#include "raw_driver.h"

#include <dlfcn.h>

#include "dccuda.h"

namespace bench {

const RawDriver* raw_driver(std::string* why) {
  static RawDriver driver;
  static std::string error;
  static bool ok = [] {
    const char* path = nullptr;
    if (dc_driver_library(&path) != DC_SUCCESS) {
      error = dc_last_error_message();
      return false;
    }
    void* lib = dlopen(path, RTLD_NOW | RTLD_NOLOAD);
    auto get_proc = lib ? reinterpret_cast<PFN_cuGetProcAddress_v12000>(dlsym(lib, "cuGetProcAddress_v2")) : nullptr;
    if (!get_proc) {
      error = std::string("cannot find cuGetProcAddress_v2 in ") + path;
      return false;
    }
    bool all = true;
    auto resolve = [&](const char* name, int version, auto& slot) {
      void* fn = nullptr;
      CUdriverProcAddressQueryResult found = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
      if (get_proc(name, &fn, version, CU_GET_PROC_ADDRESS_DEFAULT, &found) != CUDA_SUCCESS ||
          found != CU_GET_PROC_ADDRESS_SUCCESS || !fn) {
        error = std::string("the driver lacks ") + name;
        all = false;
        return;
      }
      slot = reinterpret_cast<std::remove_reference_t<decltype(slot)>>(fn);
    };
    resolve("cuCtxSetCurrent", 4000, driver.cuCtxSetCurrent);
    resolve("cuMemAlloc", 3020, driver.cuMemAlloc);
    resolve("cuMemFree", 3020, driver.cuMemFree);
    resolve("cuMemHostAlloc", 2020, driver.cuMemHostAlloc);
    resolve("cuMemFreeHost", 2000, driver.cuMemFreeHost);
    resolve("cuMemcpyHtoD", 3020, driver.cuMemcpyHtoD);
    resolve("cuMemcpyDtoH", 3020, driver.cuMemcpyDtoH);
    resolve("cuMemcpyDtoD", 3020, driver.cuMemcpyDtoD);
    resolve("cuMemsetD32", 3020, driver.cuMemsetD32);
    resolve("cuMemcpyPeer", 4000, driver.cuMemcpyPeer);
    resolve("cuMemcpy2D", 3020, driver.cuMemcpy2D);
    resolve("cuStreamSynchronize", 2000, driver.cuStreamSynchronize);
    resolve("cuLaunchKernel", 4000, driver.cuLaunchKernel);
    resolve("cuStreamBeginCapture", 10010, driver.cuStreamBeginCapture);
    resolve("cuStreamEndCapture", 10000, driver.cuStreamEndCapture);
    resolve("cuGraphInstantiateWithFlags", 11040, driver.cuGraphInstantiateWithFlags);
    resolve("cuGraphLaunch", 10000, driver.cuGraphLaunch);
    resolve("cuGraphExecDestroy", 10000, driver.cuGraphExecDestroy);
    resolve("cuGraphDestroy", 10000, driver.cuGraphDestroy);
    resolve("cuMemPoolCreate", 11020, driver.cuMemPoolCreate);
    resolve("cuMemPoolDestroy", 11020, driver.cuMemPoolDestroy);
    resolve("cuMemPoolSetAttribute", 11020, driver.cuMemPoolSetAttribute);
    resolve("cuMemAllocFromPoolAsync", 11020, driver.cuMemAllocFromPoolAsync);
    resolve("cuMemFreeAsync", 11020, driver.cuMemFreeAsync);
    resolve("cuStreamCreateWithPriority", 5050, driver.cuStreamCreateWithPriority);
    resolve("cuStreamDestroy", 4000, driver.cuStreamDestroy);
    return all;
  }();
  if (!ok) {
    if (why) *why = error;
    return nullptr;
  }
  return &driver;
}

}  // namespace bench
