#include "launch/launch_driver.h"

#include "core/error.h"
#include "device/cuda_check.h"
#include "loader/driver.h"

namespace dc {
namespace {

// A kernel attribute, or -1 if the driver cannot tell (explanations only).
int attribute_or(const Function& f, CUfunction_attribute a) {
  int v = -1;
  if (driver_api().cuFuncGetAttribute(&v, a, f.cu_function()) != CUDA_SUCCESS) return -1;
  return v;
}

int blocks_per_multiprocessor(const Function& f, const LaunchShape& s) {
  int blocks = -1;
  if (driver_api().cuOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, f.cu_function(),
                                                               static_cast<int>(s.threads_per_block()),
                                                               s.shared) != CUDA_SUCCESS)
    return -1;
  return blocks;
}

[[noreturn]] void fail_too_many_threads(CUresult r, const Function& f, const LaunchShape& s, int max_threads) {
  fail_cuda(DC_ERROR_LAUNCH_FAILED, r,
            "%s: a block of %llu threads is more than the kernel can run: with %d registers per thread (and its "
            "__launch_bounds__, if any) it allows at most %d threads per block (CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK); "
            "use smaller blocks (dc_launch_config_1d picks a size that fits)",
            f.name().c_str(), static_cast<unsigned long long>(s.threads_per_block()),
            attribute_or(f, CU_FUNC_ATTRIBUTE_NUM_REGS), max_threads);
}

[[noreturn]] void fail_cooperative_too_large(CUresult r, const Function& f, const LaunchShape& s, int per_sm) {
  int sms = f.device().limits().multiprocessors;
  fail_cuda(DC_ERROR_LAUNCH_FAILED, r,
            "%s: a cooperative launch of %llu blocks does not fit on device %d at once: %d blocks of %llu threads "
            "(with %u bytes of dynamic shared memory) fit on a multiprocessor, x %d multiprocessors = %lld blocks; a "
            "grid-wide sync needs every block resident, so launch at most %lld blocks (or smaller blocks)",
            f.name().c_str(), static_cast<unsigned long long>(s.blocks()), f.device().ordinal(), per_sm,
            static_cast<unsigned long long>(s.threads_per_block()), s.shared, sms,
            static_cast<long long>(per_sm) * sms, static_cast<long long>(per_sm) * sms);
}

}  // namespace

void explain_launch_failure(CUresult r, const Function& f, const LaunchShape& s, const char* entry) {
  Device* d = &f.device();
  const char* name = f.name().c_str();
  switch (r) {
    case CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES:
    case CUDA_ERROR_INVALID_VALUE: {
      int max_threads = attribute_or(f, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
      if (max_threads > 0 && s.threads_per_block() > static_cast<uint64_t>(max_threads))
        fail_too_many_threads(r, f, s, max_threads);
      if (r == CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES)
        fail_cuda(DC_ERROR_LAUNCH_FAILED, r,
                  "%s: the launch needs more than a multiprocessor has (%s: %llu threads per block, %d registers "
                  "per thread, %u bytes of dynamic shared memory); use smaller blocks or less shared memory",
                  name, cuda_error_name(r), static_cast<unsigned long long>(s.threads_per_block()),
                  attribute_or(f, CU_FUNC_ATTRIBUTE_NUM_REGS), s.shared);
      fail_cuda(DC_ERROR_INVALID_ARGUMENT, r,
                "%s: %s refused the launch as invalid (%s) with grid %u x %u x %u blocks, block %u x %u x %u threads, "
                "%u bytes of dynamic shared memory, flags 0x%x, cluster %u x %u x %u; check the configuration "
                "against the kernel (dc_function_get_info) and the arguments against its parameters",
                name, entry, cuda_error_name(r), s.grid[0], s.grid[1], s.grid[2], s.block[0], s.block[1], s.block[2],
                s.shared, s.flags, s.cluster[0], s.cluster[1], s.cluster[2]);
    }
    case CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE:
      fail_cooperative_too_large(r, f, s, blocks_per_multiprocessor(f, s));
    case CUDA_ERROR_INVALID_CLUSTER_SIZE:
      fail_cuda(DC_ERROR_LAUNCH_FAILED, r,
                "%s: the driver refused a cluster of %u x %u x %u blocks (%s): a portable cluster has at most 8 "
                "blocks, and the kernel's resources may allow fewer; use a smaller cluster "
                "(dc_occupancy_max_active_clusters tells whether one fits)",
                name, s.cluster[0], s.cluster[1], s.cluster[2], cuda_error_name(r));
    default:
      check(r, entry, d);
  }
  fail(DC_ERROR_INTERNAL, "%s failed with %d and was not reported; this is a dccuda bug", entry, static_cast<int>(r));
}

void check_kernel_resources(const Function& f, const LaunchShape& s) {
  int max_threads = attribute_or(f, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
  if (max_threads > 0 && s.threads_per_block() > static_cast<uint64_t>(max_threads))
    fail_too_many_threads(CUDA_SUCCESS, f, s, max_threads);  // found before the driver was asked
  if (s.flags & DC_LAUNCH_COOPERATIVE) {
    int per_sm = blocks_per_multiprocessor(f, s);
    int sms = f.device().limits().multiprocessors;
    if (per_sm >= 0 && sms > 0 && s.blocks() > static_cast<uint64_t>(per_sm) * static_cast<uint64_t>(sms))
      fail_cooperative_too_large(CUDA_SUCCESS, f, s, per_sm);
  }
}

}  // namespace dc
