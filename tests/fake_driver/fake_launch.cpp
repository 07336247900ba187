// The fake driver's kernel launches (a test double, never a GPU). A launch is
// checked as a real driver checks it:
//   grid and block dimensions >= 1 and within the device's limits (grid
//   2^31-1 x 65535 x 65535, block 1024 x 1024 x 64 and 1024 threads)
//                                                  -> CUDA_ERROR_INVALID_VALUE
//   more threads per block than the kernel allows (its registers or
//   __launch_bounds__)                             -> CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES
//   dynamic shared memory above the kernel's limit
//   (CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES) -> CUDA_ERROR_INVALID_VALUE
//   a cluster dimension of 0 next to nonzero ones, or a grid that is not a
//   multiple of the cluster                       -> CUDA_ERROR_INVALID_VALUE
//   a cluster of more than 8 blocks               -> CUDA_ERROR_INVALID_CLUSTER_SIZE
//   a cooperative grid larger than what fits at once (fake_occupancy.h)
//                                                  -> CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE
//   parameters missing, or both kernelParams and extra -> CUDA_ERROR_INVALID_VALUE
// The parameters are copied at launch time, then the kernel runs as stream
// work: emulated if it is in the registry (fake_kernels.h), else a no-op. A
// fault of an emulated kernel breaks the context; the next call reports it.
#include <cstring>
#include <memory>
#include <thread>

#include "fake_graph.h"
#include "fake_kernels.h"
#include "fake_memory.h"
#include "fake_module.h"
#include "fake_occupancy.h"

namespace fake {
namespace {

struct Shape {
  unsigned grid[3];
  unsigned block[3];
  unsigned cluster[3] = {0, 0, 0};
  unsigned shared = 0;
  bool cooperative = false;
};

CUresult check_shape(const KernelInfo& k, const Shape& s) {
  static const unsigned kGrid[3] = {2147483647u, 65535u, 65535u};
  static const unsigned kBlock[3] = {1024u, 1024u, 64u};
  for (int i = 0; i < 3; ++i) {
    if (s.grid[i] == 0 || s.block[i] == 0 || s.grid[i] > kGrid[i] || s.block[i] > kBlock[i])
      return CUDA_ERROR_INVALID_VALUE;
  }
  uint64_t threads = uint64_t(s.block[0]) * s.block[1] * s.block[2];
  if (threads > 1024) return CUDA_ERROR_INVALID_VALUE;
  if (threads > static_cast<uint64_t>(k.max_threads)) return CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES;
  if (s.shared > static_cast<unsigned>(k.max_dynamic_shared)) return CUDA_ERROR_INVALID_VALUE;
  bool any = s.cluster[0] || s.cluster[1] || s.cluster[2];
  if (any) {
    for (int i = 0; i < 3; ++i)
      if (s.cluster[i] == 0 || s.grid[i] % s.cluster[i] != 0) return CUDA_ERROR_INVALID_VALUE;
    if (uint64_t(s.cluster[0]) * s.cluster[1] * s.cluster[2] > 8) return CUDA_ERROR_INVALID_CLUSTER_SIZE;
  }
  if (s.cooperative) {
    uint64_t blocks = uint64_t(s.grid[0]) * s.grid[1] * s.grid[2];
    uint64_t fit = uint64_t(occupancy_blocks(k, static_cast<int>(threads), s.shared)) * kMultiprocessors;
    if (blocks > fit) return CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE;
  }
  return CUDA_SUCCESS;
}

// The packed parameter block, from kernelParams (one pointer per parameter)
// or from extra (CU_LAUNCH_PARAM_BUFFER_POINTER / _SIZE).
CUresult gather(const KernelInfo& k, void** params, void** extra, std::vector<uint8_t>* out) {
  out->clear();
  if (params && extra) return CUDA_ERROR_INVALID_VALUE;
  if (extra) {
    const uint8_t* buffer = nullptr;
    const size_t* size = nullptr;
    for (int i = 0; extra[i] != CU_LAUNCH_PARAM_END; i += 2) {
      if (i >= 64) return CUDA_ERROR_INVALID_VALUE;
      if (extra[i] == CU_LAUNCH_PARAM_BUFFER_POINTER) buffer = static_cast<const uint8_t*>(extra[i + 1]);
      else if (extra[i] == CU_LAUNCH_PARAM_BUFFER_SIZE) size = static_cast<const size_t*>(extra[i + 1]);
      else return CUDA_ERROR_INVALID_VALUE;
    }
    if (!buffer || !size) return CUDA_ERROR_INVALID_VALUE;
    if (k.params_known && *size < k.params_bytes) return CUDA_ERROR_INVALID_VALUE;
    size_t n = k.params_known ? k.params_bytes : *size;
    out->assign(buffer, buffer + n);
    return CUDA_SUCCESS;
  }
  // Without the layout the fake cannot tell how many bytes each pointer
  // names (a real driver always knows): the kernel then gets no arguments.
  if (!k.params_known) return CUDA_SUCCESS;
  if (!k.params.empty() && !params) return CUDA_ERROR_INVALID_VALUE;
  out->assign(k.params_bytes, 0);
  for (size_t i = 0; i < k.params.size(); ++i) {
    if (!params[i]) return CUDA_ERROR_INVALID_VALUE;
    std::memcpy(out->data() + k.params[i].offset, params[i], k.params[i].size);
  }
  return CUDA_SUCCESS;
}

// What one launch of the kernel `k` runs: its arguments gathered, its shape.
CUresult kernel_run(const KernelInfo& k, const Shape& shape, void** params, void** extra, KernelRun* run) {
  if (CUresult r = gather(k, params, extra, &run->args)) return r;
  run->name = k.name;
  run->module = k.module;
  run->params = k.params;
  for (int i = 0; i < 3; ++i) {
    run->grid[i] = shape.grid[i];
    run->block[i] = shape.block[i];
    run->cluster[i] = shape.cluster[i] ? shape.cluster[i] : 1;
  }
  run->shared = shape.shared;
  run->cooperative = shape.cooperative;
  return CUDA_SUCCESS;
}

// The node a launch of `f` makes, checked as the driver checks a launch.
CUresult make_node(const char* entry, CUfunction f, const Shape& shape, void** params, void** extra, Context* ctx,
                   Node* out) {
  KernelInfo k;
  if (!kernel_info(f, &k)) return CUDA_ERROR_INVALID_HANDLE;
  // A function of another context: dccuda bound the wrong context.
  if (k.context != ctx) return CUDA_ERROR_INVALID_HANDLE;
  if (CUresult r = check_shape(k, shape)) return r;
  KernelRun run;
  if (CUresult r = kernel_run(k, shape, params, extra, &run)) return r;
  Node& node = *out;
  node.type = NodeType::Kernel;
  node.entry = entry;
  node.function = f;
  node.cooperative = shape.cooperative;
  // The kernel "runs on the device": a fault breaks the context instead of
  // failing the launch.
  node.work = [run, ctx, f] {
    // A graph replayed after the kernel's module was unloaded: the code is gone.
    if (!function_live(f)) return CUDA_ERROR_INVALID_HANDLE;
    CUresult r = emulate_kernel(run);
    if (r != CUDA_SUCCESS && !ctx->broken) ctx->broken = r;
    return CUDA_SUCCESS;
  };
  return CUDA_SUCCESS;
}

CUresult launch(const char* entry, CUfunction f, const Shape& shape, CUstream hStream, void** params, void** extra) {
  std::lock_guard<std::recursive_mutex> g(lock());
  KernelInfo k;
  if (!kernel_info(f, &k)) return CUDA_ERROR_INVALID_HANDLE;
  if (k.context != current_context()) return CUDA_ERROR_INVALID_HANDLE;
  if (CUresult r = check_shape(k, shape)) return r;
  KernelRun run;
  if (CUresult r = kernel_run(k, shape, params, extra, &run)) return r;
  Stream* s = nullptr;
  if (CUresult r = stream_for_work(hStream, &s)) return r;
  Context* ctx = s->ctx;
  if (kernel_is_resident(run.name)) {
    // A resident kernel runs on a thread of its own until told to end; it is
    // never part of a graph.
    if (s->capture) return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
    std::function<void()> body = resident_body(run);
    return enqueue(s, entry, [s, ctx, body] {
      if (!body) {
        if (!ctx->broken) ctx->broken = CUDA_ERROR_ILLEGAL_ADDRESS;
        return CUDA_SUCCESS;
      }
      auto resident = std::make_shared<ResidentRun>();
      s->resident = resident;
      std::thread([resident, body] {
        body();
        resident->finish();
      }).detach();
      return CUDA_SUCCESS;
    });
  }
  Node node;
  if (CUresult r = make_node(entry, f, shape, params, extra, ctx, &node)) return r;
  if (s->capture) return capture_node(s, std::move(node));
  return enqueue(s, entry, node.work);
}

}  // namespace

CUresult make_kernel_node(const char* entry, CUfunction f, const unsigned grid[3], const unsigned block[3],
                          unsigned shared, void** params, void** extra, Context* ctx, Node* out) {
  Shape s{{grid[0], grid[1], grid[2]}, {block[0], block[1], block[2]}};
  s.shared = shared;
  return make_node(entry, f, s, params, extra, ctx, out);
}

}  // namespace fake

using namespace fake;

CUresult CUDAAPI cuLaunchKernel(CUfunction f, unsigned int gridDimX, unsigned int gridDimY, unsigned int gridDimZ,
                                unsigned int blockDimX, unsigned int blockDimY, unsigned int blockDimZ,
                                unsigned int sharedMemBytes, CUstream hStream, void** kernelParams, void** extra) {
  FAKE_ENTER(cuLaunchKernel);
  FAKE_REQUIRE_CONTEXT();
  Shape s{{gridDimX, gridDimY, gridDimZ}, {blockDimX, blockDimY, blockDimZ}};
  s.shared = sharedMemBytes;
  return launch("cuLaunchKernel", f, s, hStream, kernelParams, extra);
}
FAKE_EXPORT(cuLaunchKernel, 4000)

CUresult CUDAAPI cuLaunchKernelEx(const CUlaunchConfig* config, CUfunction f, void** kernelParams, void** extra) {
  FAKE_ENTER(cuLaunchKernelEx);
  FAKE_REQUIRE_CONTEXT();
  if (!config || (config->numAttrs && !config->attrs)) return CUDA_ERROR_INVALID_VALUE;
  Shape s{{config->gridDimX, config->gridDimY, config->gridDimZ}, {config->blockDimX, config->blockDimY, config->blockDimZ}};
  s.shared = config->sharedMemBytes;
  for (unsigned i = 0; i < config->numAttrs; ++i) {
    const CUlaunchAttribute& a = config->attrs[i];
    switch (a.id) {
      case CU_LAUNCH_ATTRIBUTE_COOPERATIVE: s.cooperative = a.value.cooperative != 0; break;
      case CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION:
        s.cluster[0] = a.value.clusterDim.x;
        s.cluster[1] = a.value.clusterDim.y;
        s.cluster[2] = a.value.clusterDim.z;
        if (!s.cluster[0] && !s.cluster[1] && !s.cluster[2]) return CUDA_ERROR_INVALID_VALUE;
        break;
      case CU_LAUNCH_ATTRIBUTE_PRIORITY:
      case CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION:
      case CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW:
      case CU_LAUNCH_ATTRIBUTE_SYNCHRONIZATION_POLICY:
      case CU_LAUNCH_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE:
      case CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN_MAP:
      case CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN:
        break;
      default:
        return CUDA_ERROR_INVALID_VALUE;
    }
  }
  return launch("cuLaunchKernelEx", f, s, config->hStream, kernelParams, extra);
}
FAKE_EXPORT(cuLaunchKernelEx, 11060)
