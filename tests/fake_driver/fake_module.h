// The fake driver's modules (a test double), as seen by its other files.
#pragma once

#include "loader/cuda_abi/driver_abi.h"

#include <cstddef>
#include <string>
#include <vector>

#include "fake_image.h"

namespace fake {

struct Context;

// Module globals live in host memory the fake allocates at load. The memory
// file's address checks (copies into a __device__ variable) consult this: it
// returns true, with the variable's range, if `address` lies inside a global
// of a loaded module.
bool module_global_range(CUdeviceptr address, CUdeviceptr* base, size_t* size);

// What the launch and occupancy files need to know about a kernel.
struct KernelInfo {
  std::string name;
  bool params_known = false;
  std::vector<ImageParam> params;
  size_t params_bytes = 0;        // end of the last parameter
  int registers = 16;             // per thread (16 when the image does not say)
  int static_shared = 0;
  int max_dynamic_shared = 0;     // CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES now
  int max_threads = 1024;         // CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK (see kernel_max_threads)
  Context* context = nullptr;     // the module's context
  const void* module = nullptr;   // for module_global()
};

// The kernel `f` names; false if it is not a live function. Callers hold fake::lock().
bool kernel_info(CUfunction f, KernelInfo* out);
// Whether `f` is a function of a loaded module. Callers hold fake::lock().
bool function_live(CUfunction f);

// A kernel's thread limit per block, as the fake models it: its
// __launch_bounds__ if the image gives one, else what its registers allow
// (65536 registers per block, allocated per warp in units of 256), at most 1024.
int kernel_max_threads(int registers, int launch_bounds);

// Makes a module of `parsed` (a successful parse) in `context`; the library
// file loads one per context this way. Callers hold fake::lock().
CUmodule load_module(ParsedImage parsed, Context* context);
// Whether `module` is loaded (a context reset unloads its modules).
bool module_live(CUmodule module);
// Unloads `module` if it is loaded.
void unload_module(CUmodule module);
// Kernel `name` of `module`, or nullptr.
CUfunction module_function(CUmodule module, const char* name);
// The PTX ISA the configured driver version accepts, and the fake devices' SM.
int fake_max_ptx_isa();
constexpr int kFakeDeviceArch = 90;

// The host memory of global `name` of module `module` (KernelInfo::module), or
// nullptr. Callers hold fake::lock().
void* module_global(const void* module, const char* name, size_t* size);

}  // namespace fake
